"""`core.make_user_context` (`jax.make_user_context`): a jitted function traces again under a
new value of a user context, as in JAX 0.10.2 (which traced 3 times in the sequence below)."""

import pytest

import core


def test_user_context_values_key_the_jit_cache():
    ctx = core.make_user_context(0)
    traces = []
    f = core.jit(lambda x: traces.append(ctx.value) or x * 2)
    f(1.0)
    with ctx(1):
        assert ctx.value == 1 and ctx.get_global() == 0
        f(1.0)
        f(1.0)  # cached under value 1
    assert ctx.value == 0
    f(1.0)  # cached under value 0
    ctx.set_global(5)
    f(1.0)
    assert traces == [0, 1, 5] and ctx.value == 5


def test_user_context_values_must_be_hashable():
    with pytest.raises(TypeError, match="unhashable"):
        core.make_user_context([])
