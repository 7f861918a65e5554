"""`debug_nans` / `debug_infs` on jitted calls against JAX 0.10.2: a call whose output holds an
invalid value prints JAX's "Calling the de-optimized version" line and calls the Python function
again without `jit` on the same arguments (debugging.md, flags.md)."""

import pytest

import core
import core.numpy as jnp

_LINE = (
    "Invalid nan value encountered in the output of a jax.jit function. Calling the "
    "de-optimized version.\n"
)


def test_python_scalars_divide_by_zero_in_the_deoptimized_call(capsys):
    # debugging.md: JAX's de-optimized `f(0., 0.)` divides Python floats
    with core.debug_nans(True), pytest.raises(ZeroDivisionError, match="float division by zero"):
        core.jit(lambda x, y: x / y)(0.0, 0.0)
    assert capsys.readouterr().out == _LINE


def test_arrays_name_the_primitive_in_the_deoptimized_call(capsys):
    with core.debug_nans(True), pytest.raises(FloatingPointError) as info:
        core.jit(lambda x: x / x)(jnp.float32(0.0))
    assert str(info.value) == "invalid value (nan) encountered in div"
    assert capsys.readouterr().out.startswith(_LINE)
    with core.debug_infs(True), pytest.raises(FloatingPointError, match=r"\(inf\) .* div"):
        core.jit(lambda x: 1 / x)(jnp.float32(0.0))


def test_no_invalid_value_without_jit_says_so(capsys):
    f = core.jit(lambda x: x + jnp.nan)  # Python float + nan: nothing to catch eagerly
    with core.debug_nans(True), pytest.raises(FloatingPointError) as info:
        f(1.0)
    assert str(info.value).startswith(
        "('jit(<lambda>)', 'nan'). Because jax_config.debug_nans.value and/or "
        "config.jax_debug_infs is set, the de-optimized function"
    )
    assert capsys.readouterr().out == _LINE


def test_valid_outputs_and_flags_off_are_untouched(capsys):
    f = core.jit(lambda x: jnp.log(x))
    with core.debug_nans(True):
        assert float(f(1.0)) == 0.0
    assert jnp.isnan(f(-1.0))
    assert capsys.readouterr().out == ""
