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
        # JAX 0.10.2's options accepted without effect here
        (core.softmax_custom_jvp, "softmax_custom_jvp", True),
        (core.allow_f16_reductions, "allow_f16_reductions", False),
        (core.thread_guard, "thread_guard", True),
        (core.array_garbage_collection_guard, "array_garbage_collection_guard", "allow"),
        (core.jax2tf_associative_scan_reductions, "jax2tf_associative_scan_reductions", True),
        (core.auto_pcast, "auto_pcast", False),
        (core.remove_size_one_mesh_axis_from_type, "remove_size_one_mesh_axis_from_type", True),
        (core.legacy_prng_key, "legacy_prng_key", "warn"),
        (core.enable_custom_prng, "enable_custom_prng", True),
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


def test_option_defaults_are_jax_0_10_2s():
    # JAX 0.10.2: jax.config.jax_<name> for each
    defaults = {
        "softmax_custom_jvp": False,
        "allow_f16_reductions": True,
        "thread_guard": False,
        "array_garbage_collection_guard": None,
        "auto_pcast": True,
        "remove_size_one_mesh_axis_from_type": False,
        "legacy_prng_key": "allow",
        "enable_custom_prng": False,
    }
    assert {name: core.config.read(name) for name in defaults} == defaults


def test_legacy_prng_key_level_is_checked():
    # JAX 0.10.2: ValueError: 'bad' is not a valid LegacyPrngKeyState
    with pytest.raises(ValueError, match="'bad' is not a valid LegacyPrngKeyState"):
        core.config.update("jax_legacy_prng_key", "bad")


def test_host_ids_warns_and_lists_the_processes():
    # JAX 0.10.2: jax.host_ids() warns (UserWarning) and returns [0]
    with pytest.warns(UserWarning, match="process_indices"):
        assert core.host_ids() == [0]
