"""`import core` has JAX 0.10.2's top-level names that programs use (`jax.typing`,
`jax.flatten_util`, `jax.Device`, `jax.NamedSharding`, the flag context managers)."""

import numpy as np
import pytest

import core
import core.numpy as jnp


@pytest.mark.parametrize(
    "name",
    ["typing", "flatten_util", "Device", "NamedSharding", "sharding", "tree_util", "dtypes"],
)
def test_jax_module_names(name):
    assert hasattr(core, name)


def test_typing_and_flatten_util():
    assert {"ArrayLike", "DTypeLike"} <= set(dir(core.typing))
    flat, unravel = core.flatten_util.ravel_pytree({"a": jnp.ones(2), "b": jnp.zeros((1, 2))})
    assert flat.shape == (4,) and unravel(flat)["b"].shape == (1, 2)


def test_devices_are_jax_devices():
    assert all(isinstance(d, core.Device) for d in core.devices())


@pytest.mark.parametrize(
    "manager,flag,value",
    [
        (core.log_compiles, "log_compiles", True),
        (core.explain_cache_misses, "explain_cache_misses", True),
        (core.check_tracer_leaks, "check_tracer_leaks", True),
        (core.enable_checks, "enable_checks", True),
        (core.numpy_rank_promotion, "numpy_rank_promotion", "allow"),
        (core.threefry_partitionable, "threefry_partitionable", True),
        (core.default_prng_impl, "default_prng_impl", "threefry2x32"),
    ],
)
def test_flag_context_managers(manager, flag, value):
    before = core.config.read(flag)
    with manager(value):
        assert core.config.read(flag) == value
        np.testing.assert_array_equal(core.jit(lambda x: x + 1)(np.arange(3)), [1, 2, 3])
    assert core.config.read(flag) == before


def test_flag_context_managers_refuse_what_numbax_does_not_implement():
    with pytest.raises(NotImplementedError), core.threefry_partitionable(False):
        pass
