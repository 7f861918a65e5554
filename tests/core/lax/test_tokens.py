"""`lax.create_token` / `lax.after_all`: tokens exist (no ordering to do in numbax), pass
through `jit`, and `after_all` refuses non-tokens with JAX's TypeError."""

import pytest

import core
import core.numpy as jnp
from core import lax
from core.lax.tokens import Token


def test_tokens():
    t = lax.create_token()
    assert isinstance(t, Token)
    assert isinstance(lax.after_all(t, lax.create_token(1.0)), Token)
    assert isinstance(lax.after_all(), Token)
    token, y = core.jit(lambda x: (lax.create_token(x), x + 1))(1.0)
    assert isinstance(token, Token) and float(y) == 2.0
    assert isinstance(core.jit(lambda t: lax.after_all(t))(t), Token)
    with pytest.raises(TypeError, match="Arguments to after_all must be tokens"):
        lax.after_all(jnp.ones(2))
