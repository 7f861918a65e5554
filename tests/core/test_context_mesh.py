"""Arrays computed under `set_mesh` are placed on its mesh, as JAX 0.10.2 places them
(`core.committed.follow`, `core.named_sharding.on_context_mesh`): replicated, `P(None, ...)`
(one entry per axis) over `Explicit` axes and `P()` over `Auto` ones, `P()` for arrays made from
host data, and committed; leaving the block places results on the default device again. The
expected specs were recorded on JAX 0.10.2 with 8 CPU devices (the test session has 8)."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import IncompatibleDevicesError
from core.sharding import AxisType, NamedSharding, PartitionSpec, SingleDeviceSharding

P = PartitionSpec
_BEFORE = jnp.arange(4.0)  # made outside any mesh: uncommitted, on the default device

# (what, how it is made, its spec over Explicit axes, over Auto axes)
CASES = [
    ("eager op on an earlier array", lambda: _BEFORE * 2, P(None), P()),
    ("jit of an earlier array", lambda: core.jit(lambda x: x * 2)(_BEFORE), P(None), P()),
    ("jit of a numpy array", lambda: core.jit(lambda x: x + 1)(np.ones(3)), P(None), P()),
    ("jit making a constant", lambda: core.jit(lambda: jnp.ones(3))(), P(None), P()),
    ("grad", lambda: core.grad(lambda x: (x**2).sum())(jnp.ones(3)), P(None), P()),
    ("vmap", lambda: core.vmap(lambda x: x * 2)(np.ones(3)), P(None), P()),
    ("numpy + array", lambda: np.ones(3) + jnp.ones(3), P(None), P()),
    ("arange", lambda: jnp.arange(8.0), P(None), P()),
    ("zeros", lambda: jnp.zeros((2, 3)), P(None, None), P()),
    ("full", lambda: jnp.full((2,), 3.0), P(None), P()),
    ("eye", lambda: jnp.eye(2), P(None, None), P()),
    ("linspace", lambda: jnp.linspace(0, 1, 3), P(None), P()),
    ("zeros_like of numpy", lambda: jnp.zeros_like(np.ones(3)), P(None), P()),
    ("iota", lambda: core.lax.iota(np.int32, 3), P(None), P()),
    ("normal", lambda: core.random.normal(core.random.key(0), (3,)), P(None), P()),
    (".at[].set", lambda: jnp.zeros(3).at[0].set(1.0), P(None), P()),
    ("an element", lambda: jnp.ones(3)[0], P(), P()),
    ("a scalar", lambda: jnp.float32(3), P(), P()),
    ("array of numpy", lambda: jnp.array(np.ones(3)), P(), P()),
    ("asarray of a list", lambda: jnp.asarray([1.0, 2.0]), P(), P()),
    ("a key", lambda: core.random.key(0), P(), P()),
]


@pytest.mark.parametrize("kind", [AxisType.Explicit, AxisType.Auto], ids=["explicit", "auto"])
@pytest.mark.parametrize(("what", "make", "explicit", "auto"), CASES, ids=[c[0] for c in CASES])
def test_results_go_on_the_current_mesh(kind, what, make, explicit, auto):
    mesh = core.make_mesh((2, 4), ("x", "y"), axis_types=(kind,) * 2)
    with core.set_mesh(mesh):
        out = make()
    assert out.sharding == NamedSharding(mesh, explicit if kind is AxisType.Explicit else auto)
    assert repr(out.sharding.spec) == repr(explicit if kind is AxisType.Explicit else auto)
    assert out.committed


def test_results_leave_the_mesh_with_the_block():
    mesh = core.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
    with core.set_mesh(mesh):
        inside = jnp.arange(3.0) + 1
    after = _BEFORE * 2
    assert isinstance(after.sharding, SingleDeviceSharding) and not after.committed
    assert core.jit(lambda x: x + 1)(np.ones(3)).sharding == after.sharding
    assert jnp.asarray(_BEFORE) is _BEFORE  # asarray moves nothing
    np.testing.assert_array_equal(inside, [1.0, 2.0, 3.0])


def test_device_put_without_a_device_stays_on_the_default_device():
    mesh = core.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
    with core.set_mesh(mesh):
        assert core.device_put(np.ones(3)).sharding == SingleDeviceSharding(core.devices()[0])
        assert jnp.asarray(_BEFORE) is _BEFORE


def test_an_input_committed_off_the_mesh_raises_jax_error():
    mesh = core.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
    on_one = core.device_put(np.ones(3, np.float32), core.devices()[1])
    with (
        core.set_mesh(mesh),
        pytest.raises(ValueError, match="Received incompatible devices") as err,
    ):
        core.jit(lambda a: a + 1)(on_one)
    assert isinstance(err.value, IncompatibleDevicesError)
    assert str(err.value) == (
        "Received incompatible devices for jitted computation. Got argument a of <lambda> with "
        "shape float32[3] and with device ids [1] on platform CPU and jit's context mesh with "
        "device ids [0, 1, 2, 3, 4, 5, 6, 7] on platform CPU"
    )


def test_key_arrays_report_their_placement():
    key = core.random.key(0)
    assert key.sharding == SingleDeviceSharding(core.devices()[0])
    assert not key.committed and key.is_fully_replicated and key.nbytes == 8
    moved = core.device_put(key, core.devices()[1])
    assert core.random.split(moved).sharding == SingleDeviceSharding(core.devices()[1])
    assert moved.devices() == {core.devices()[1]} and moved.device == core.devices()[1]
