"""Every layer's docstring example (its param-shape tree, as in Flax) runs as written."""

import doctest
import importlib

import pytest

import core
import core.numpy as jnp
import nn

MODULES = [
    "nn.activation",
    "nn.attention",
    "nn.batch_apply",
    "nn.combinators",
    "nn.linear",
    "nn.normalization",
    "nn.recurrent",
    "nn.transforms.lifted",
    "nn.stochastic",
    "nn.traverse_util",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    globs = {"core": core, "jnp": jnp, "nn": nn, **vars(module)}
    result = doctest.testmod(module, extraglobs=globs, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
