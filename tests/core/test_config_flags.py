"""Config flags and their context managers: debug_nans / debug_infs (eager primitives and jitted
calls raise FloatingPointError naming the primitive, as JAX does; a jitted call is re-run op by
op), default_matmul_precision (validated, no effect) and numpy_dtype_promotion ('standard' only).
"""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.config import config


@core.jit
def _log2x(x):
    return jnp.log(x) * 2


def _sqrt(x):
    return jnp.sqrt(x)


# (flag, function, argument, message), messages as JAX 0.10.2 prints them
CASES = [
    ("debug_nans", jnp.log, -1.0, "invalid value (nan) encountered in log"),
    ("debug_nans", lambda x: jnp.asarray(0.0) / x, 0.0, "invalid value (nan) encountered in div"),
    ("debug_nans", _log2x, -1.0, "invalid value (nan) encountered in log"),
    ("debug_nans", core.grad(_sqrt), -1.0, "invalid value (nan) encountered in sqrt"),
    ("debug_nans", core.grad(_log2x), -1.0, "invalid value (nan) encountered in log"),
    ("debug_infs", jnp.log, 0.0, "invalid value (inf) encountered in log"),
    ("debug_infs", _log2x, 0.0, "invalid value (inf) encountered in log"),
]


@pytest.mark.parametrize("flag,fun,arg,message", CASES)
def test_context_manager_raises_naming_the_primitive(flag, fun, arg, message):
    with getattr(core, flag)(), pytest.raises(FloatingPointError) as info:
        fun(arg)
    assert str(info.value) == message
    assert np.isnan(float(_log2x(-1.0)))  # off again after the block


def test_config_update_and_jit_cache_stays_correct():
    assert np.isnan(float(_log2x(-1.0)))  # compiled and cached without the check
    config.update("jax_debug_nans", True)
    try:
        with pytest.raises(FloatingPointError, match="nan"):
            _log2x(-1.0)
        assert float(_log2x(1.0)) == 0.0
    finally:
        config.update("jax_debug_nans", False)
    assert np.isnan(float(_log2x(-1.0)))
    assert not config._check_floats


def test_nan_passed_through_a_jit_names_the_function():
    with core.debug_nans(), pytest.raises(FloatingPointError, match="jit-compiled function"):
        core.jit(lambda x: x)(np.float32("nan"))


def test_infs_not_reported_by_debug_nans_and_integers_ignored():
    with core.debug_nans():
        assert np.isinf(float(jnp.log(0.0)))
        assert int(jnp.asarray(3) // 1) == 3
    with core.debug_infs():
        assert np.isnan(float(jnp.log(-1.0)))


@pytest.mark.parametrize("precision", [None, "float32", "highest", "bfloat16", "F32_F32_F32"])
def test_default_matmul_precision_accepted(precision):
    a = jnp.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    with core.default_matmul_precision(precision):
        assert config.default_matmul_precision == precision
        out = a @ a.T
    np.testing.assert_array_equal(np.asarray(out), [[5.0, 14.0], [14.0, 50.0]])
    assert config.default_matmul_precision is None


def test_default_matmul_precision_rejects_unknown():
    with pytest.raises(ValueError, match="bogus"), core.default_matmul_precision("bogus"):
        pass


def test_numpy_dtype_promotion():
    with core.numpy_dtype_promotion("standard"):
        assert (jnp.ones(2, jnp.float32) + jnp.ones(2, jnp.int32)).dtype == np.float32
    with pytest.raises(NotImplementedError, match="strict"), core.numpy_dtype_promotion("strict"):
        pass
    with pytest.raises(ValueError, match="bogus"):
        config.update("jax_numpy_dtype_promotion", "bogus")
    assert config.numpy_dtype_promotion == "standard"
