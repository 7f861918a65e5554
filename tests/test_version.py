"""`__version__` of the namespaces that have one in JAX, Optax and Flax: the distribution's."""

from importlib import metadata

import pytest

import core
import flaxport
import numbax
import optim


@pytest.mark.parametrize("module", [numbax, core, optim, flaxport], ids=lambda m: m.__name__)
def test_version_is_the_distributions(module):
    assert module.__version__ == metadata.version("numbax")
    assert "__version__" in getattr(module, "__all__", ["__version__"])
