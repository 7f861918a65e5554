"""The Flax-style docstrings of `optim.errors`: each "Failing code::" block raises its class and
each "Fix::" block runs (on the same small parameter tree)."""

import inspect
import re
import textwrap

import pytest

import core.numpy as jnp
import optim
from optim import errors

_BLOCK = re.compile(r"(Failing code|Fix)::\n\n((?:        .*\n|\n)+)")


def _documented():
    for name, cls in vars(errors).items():
        if inspect.isclass(cls) and issubclass(cls, errors.OptimError) and cls.__doc__:
            blocks = dict(
                (kind, textwrap.dedent(code)) for kind, code in _BLOCK.findall(cls.__doc__ + "\n")
            )
            if "Failing code" in blocks:
                yield pytest.param(cls, blocks["Failing code"], blocks["Fix"], id=name)


def _namespace():
    params = {"w": jnp.ones(3)}
    return {"optim": optim, "jnp": jnp, "params": params, "grads": {"w": jnp.ones(3)}}


@pytest.mark.parametrize("cls,failing,fix", list(_documented()))
def test_failing_code_raises_and_fix_runs(cls, failing, fix):
    with pytest.raises(cls):
        exec(failing, _namespace())
    exec(fix, _namespace())


def test_some_errors_are_documented_this_way():
    assert len(list(_documented())) >= 6
