"""JAX's guard flags (core/config.py): no_tracing, no_execution, the transfer guards,
debug_key_reuse; and copy_to_host_async."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax


def test_no_tracing_allows_cached_calls_and_refuses_new_traces():
    f = core.jit(lambda x: x * 2)
    x = jnp.ones(3)
    f(x)
    with core.no_tracing():
        np.testing.assert_array_equal(f(x), [2.0, 2.0, 2.0])
        with pytest.raises(RuntimeError, match="re-tracing function <lambda> for `jit`"):
            f(jnp.ones(4))
        with pytest.raises(RuntimeError, match="'no_tracing' is set"):
            core.make_jaxpr(lambda x: jnp.sin(x))(x)  # a new trace (jit's cache has jnp.sin's)
        with pytest.raises(RuntimeError, match="'no_tracing' is set"):
            lax.scan(lambda c, _: (c + 1, c), 0.0, None, length=2)
    f(jnp.ones(4))  # allowed again


def test_no_execution_refuses_computations_but_not_tracing():
    f = core.jit(lambda x: x + 1)
    x = jnp.ones(2)
    f(x)
    with core.no_execution():
        with pytest.raises(RuntimeError, match="execute function <lambda>, but the no_execution"):
            f(x)
        with pytest.raises(RuntimeError, match="execute function sin"):
            jnp.sin(x)
        assert "sin" in str(core.make_jaxpr(jnp.sin)(x))
        assert core.eval_shape(f, x).shape == (2,)
    np.testing.assert_array_equal(f(x), [2.0, 2.0])


@pytest.mark.parametrize("level", ["allow", "log", "disallow", "log_explicit", "disallow_explicit"])
def test_transfer_guards_take_jaxs_levels_and_guard_no_host_memory_program(level):
    f = core.jit(lambda x: x * 3)
    with core.transfer_guard(level):
        assert core.config.transfer_guard_host_to_device == level
        assert core.config.transfer_guard_device_to_host == level
        np.testing.assert_array_equal(f(np.ones(2, np.float32)), [3.0, 3.0])
    with core.transfer_guard_host_to_device(level):
        assert core.config.read("jax_transfer_guard_host_to_device") == level
    assert core.config.transfer_guard_device_to_device == "allow"


def test_guard_flag_errors():
    # JAX 0.10.2's first line
    with pytest.raises(ValueError, match=r"^new enum value must be None or in \['allow'"):
        core.config.update("jax_transfer_guard_device_to_host", "never")
    with pytest.raises(NotImplementedError, match="debug_key_reuse"), core.debug_key_reuse(True):
        pass
    with core.debug_key_reuse(False):
        pass


def test_copy_to_host_async_returns_its_argument():
    tree = {"a": jnp.ones(2), "b": [1, "text"]}
    assert core.copy_to_host_async(tree) is tree
    assert jnp.ones(2).copy_to_host_async() is None
