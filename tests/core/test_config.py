"""`core.make_user_context` (`jax.make_user_context`): a jitted function traces again under a
new value of a user context, as in JAX 0.10.2 (which traced 3 times in the sequence below); and
the config object's other JAX names (`x64_enabled`, `_read`)."""

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
