"""`core.make_user_context` (`jax.make_user_context`): a jitted function traces again under a
new value of a user context, as in JAX 0.10.2 (which traced 3 times in the sequence below); and
the config object's other JAX names (`x64_enabled`, `_read`), and arrays made in
`enable_x64` blocks used outside them."""

import numpy as np
import pytest

import core
import core.numpy as jnp


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


@pytest.mark.parametrize(
    ("name", "value", "first"),
    [  # JAX 0.10.2's first lines
        (
            "numpy_rank_promotion",
            "bad",
            "new enum value must be in ['allow', 'warn', 'raise'], got bad of type <class 'str'>.",
        ),
        (
            "numpy_rank_promotion",
            3,
            "new enum value must be in ['allow', 'warn', 'raise'], got 3 of type <class 'int'>.",
        ),
        (
            "transfer_guard_host_to_device",
            "bad",
            "new enum value must be None or in ['allow', 'log', 'disallow', 'log_explicit', "
            "'disallow_explicit'], got bad of type <class 'str'>.",
        ),
        ("numpy_dtype_promotion", "bad", "'bad' is not a valid NumpyDtypePromotion"),
        ("default_matmul_precision", "fastest", "new enum value must be None or in ['default', "),
    ],
)
def test_enum_option_errors_are_jaxs(name, value, first):
    with pytest.raises(ValueError) as info:
        core.config.update(name, value)
    assert str(info.value).splitlines()[0].startswith(first)
    if not first.endswith(", "):
        assert str(info.value).splitlines()[0] == first


def test_transfer_guard_takes_none():
    with core.transfer_guard_host_to_device(None):  # JAX 0.10.2 accepts None
        assert core.config.read("transfer_guard_host_to_device") is None


def test_x64_enabled_and_read_follow_enable_x64_blocks():
    # JAX 0.10.2: jax.config.x64_enabled and jax.config._read("jax_enable_x64")
    before = core.config.x64_enabled
    with core.enable_x64(not before):
        assert core.config.x64_enabled is (not before)
        assert core.config._read("jax_enable_x64") is (not before)
    assert core.config.x64_enabled is before and core.config.read("enable_x64") is before


def _f64(x):
    """`x` as a float64 array made in an enable_x64 block."""
    with core.enable_x64():
        return jnp.asarray(x, jnp.float64)


def test_arrays_made_in_x64_blocks_keep_64_bits_through_likes_and_grads():
    # JAX 0.10.2 with x64 off: the *_like of a float64 array made in an enable_x64 block are
    # float64 (numpy inputs and ShapeDtypeStructs are canonical); grad through such a block
    # returns the input's float32, first and second order
    x = _f64(5.0)
    likes = [jnp.zeros_like(x), jnp.ones_like(x), jnp.full_like(x, 2), core.lax.full_like(x, 1)]
    assert [a.dtype for a in likes] == [np.float64] * 4
    assert jnp.full_like(_f64([1.0, 2.0]), jnp.ones(1)).dtype == np.float64
    assert jnp.zeros_like(np.ones(3)).dtype == np.float32
    assert jnp.zeros_like(core.ShapeDtypeStruct((2,), np.float64)).dtype == np.float32

    def g(t):
        with core.enable_x64():
            t = jnp.asarray(t, jnp.float64)
            return jnp.sin(t) * t

    first, second = core.grad(g)(5.0), core.grad(core.grad(g))(5.0)
    assert first.dtype == second.dtype == np.float32
    np.testing.assert_allclose([first, second], [0.45938665, 5.3619456], rtol=1e-6)
