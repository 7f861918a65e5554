"""Computations follow committed data (`core/committed.py`), as in JAX 0.10.2: results of an
operation on arrays committed to a device live there, committed; two devices raise; a
`default_device` block places uncommitted results. Also `Array.delete`."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import DeletedArrayError, IncompatibleDevicesError


def _d(i):
    return core.devices()[i]


# (what, computation of x committed to device 1 and u uncommitted, JAX's result device id)
FOLLOW = [
    ("eager add", lambda x, u: x + 1, 1),
    ("eager with uncommitted", lambda x, u: x + u, 1),
    ("jnp function", lambda x, u: jnp.sum(x * 2), 1),
    ("jit", lambda x, u: core.jit(lambda a, b: a * b)(x, u), 1),
    ("jit async", lambda x, u: core.jit(lambda a: (a @ a.T).sum())(jnp.ones((64, 64)) * x[0]), 1),
    ("uncommitted only", lambda x, u: u * 2, 0),
]


@pytest.mark.parametrize("what,f,device", FOLLOW, ids=[c[0] for c in FOLLOW])
def test_results_follow_committed_inputs(what, f, device):
    x = core.device_put(jnp.arange(4.0), _d(1))
    u = jnp.arange(4.0)
    out = f(x, u)
    assert out.device == _d(device)
    assert out.committed == (device == 1)
    np.testing.assert_allclose(np.asarray(f(np.arange(4.0), u)), np.asarray(out))


@pytest.mark.parametrize(
    "f",
    [lambda a, b: a + b, core.jit(lambda p, q: p * q)],
    ids=["eager", "jit"],
)
def test_two_devices_raise_jax_error(f):
    a = core.device_put(jnp.arange(4.0), _d(1))
    b = core.device_put(jnp.arange(4.0), _d(2))
    with pytest.raises(IncompatibleDevicesError) as info:
        f(a, b)
    msg = str(info.value)
    assert msg.startswith("Received incompatible devices for jitted computation. Got argument ")
    assert "with shape float32[4] and with device ids [1] on platform CPU" in msg
    assert "device ids [2]" in msg and isinstance(info.value, ValueError)


def test_jit_error_names_parameters():
    f = core.jit(lambda p, q: p * q)
    a, b = core.device_put(jnp.ones(2), _d(1)), core.device_put(jnp.ones(2), _d(3))
    with pytest.raises(IncompatibleDevicesError, match="argument p of <lambda> .* argument q"):
        f(a, b)


# (the operation, how JAX 0.10.2 names its two arguments in the error: recorded)
NAMED = [
    ("*", lambda a, b: a * b, "x of multiply", "y of multiply"),
    ("-", lambda a, b: a - b, "x of subtract", "y of subtract"),
    ("/", lambda a, b: a / b, "x1 of true_divide", "x2 of true_divide"),
    ("jnp.add", jnp.add, "x of add", "y of add"),
    ("jnp.maximum", jnp.maximum, "x of maximum", "y of maximum"),
    ("jnp.arctan2", jnp.arctan2, "x1 of arctan2", "x2 of arctan2"),
    ("<", lambda a, b: a < b, "x of less", "y of less"),
    ("lax.mul", core.lax.mul, "args[0] of mul", "args[1] of mul"),
]


@pytest.mark.parametrize(("f", "first", "second"), [pytest.param(*c[1:], id=c[0]) for c in NAMED])
def test_eager_errors_name_the_function_and_its_parameters_as_jax_does(f, first, second):
    a = core.device_put(np.ones(3, np.float32), _d(1))
    b = core.device_put(np.ones(3, np.float32), _d(2))
    with pytest.raises(IncompatibleDevicesError) as info:
        f(a, b)
    assert str(info.value) == (
        f"Received incompatible devices for jitted computation. Got argument {first} with shape "
        f"float32[3] and with device ids [1] on platform CPU and argument {second} with shape "
        "float32[3] and with device ids [2] on platform CPU"
    )
    assert info.value.__notes__  # the fix is kept


def test_default_device_block_places_uncommitted_results():
    with core.default_device(_d(2)):
        y = jnp.ones(2)
        z = core.jit(lambda a: a * 2)(np.ones(2))
        w = core.device_put(jnp.ones(2), _d(1)) + 1  # committed inputs decide for themselves
    assert (y.device, z.device, w.device) == (_d(2), _d(2), _d(1))
    assert not y.committed and not z.committed and w.committed
    assert (core.device_put(jnp.ones(2), _d(3)) + y).device == _d(3)  # uncommitted moves
    assert jnp.ones(2).device == _d(0)  # the block ended
    with core.default_device(None):
        assert jnp.ones(2).device == _d(0)
    with pytest.raises(ValueError, match="unknown device"), core.default_device("tpu:0"):
        pass


def test_delete_like_jax():
    x = jnp.ones(3)
    other = core.device_put(x, _d(1))  # shares the buffer
    assert isinstance(x.unsafe_buffer_pointer(), int) and not x.is_deleted()
    x.delete()
    x.delete()  # twice is fine, as in JAX
    assert x.is_deleted() and x.shape == (3,) and x.dtype == np.float32
    for read in (
        lambda: x + 1,
        lambda: np.asarray(x),
        lambda: repr(x),
        lambda: core.jit(lambda a: a)(x),
    ):
        with pytest.raises(
            DeletedArrayError, match=r"^Array has been deleted with shape=float32\[3\]"
        ):
            read()
    assert isinstance(DeletedArrayError("f32[1]"), RuntimeError)
    np.testing.assert_array_equal(np.asarray(other), [1, 1, 1])


def test_device_put_inside_jit_to_other_devices_raises_jaxs_error():
    # JAX 0.10.2's text (docs/new_docs/201/placement.md): the argument, its type and devices,
    # the target's devices and where the device_put is
    full = core.make_mesh((8,), ("x",))
    mesh_a = core.make_mesh((4,), ("x",), devices=full.devices[:4])
    mesh_b = core.make_mesh((4,), ("x",), devices=full.devices[4:])
    xa = core.device_put(np.arange(8.0), core.sharding.NamedSharding(mesh_a, core.P("x")))

    def f(x):
        return core.device_put(x, core.sharding.NamedSharding(mesh_b, core.P("x")))

    with pytest.raises(IncompatibleDevicesError) as info:
        core.jit(f)(xa)
    line = f.__code__.co_firstlineno + 1
    assert str(info.value) == (
        "Received incompatible devices for jitted computation. Got argument x of "
        "test_device_put_inside_jit_to_other_devices_raises_jaxs_error.<locals>.f with shape "
        "float32[8@x] and with device ids [0, 1, 2, 3] on platform CPU and device_put inside "
        f"jit with device ids [4, 5, 6, 7] on platform CPU at {__file__}:{line}:15 "
        "(test_device_put_inside_jit_to_other_devices_raises_jaxs_error.<locals>.f)"
    )
    same = core.jit(lambda x: core.device_put(x, xa.sharding))(xa)  # its own devices: fine
    np.testing.assert_array_equal(same, np.arange(8.0))


def test_shards_are_committed_as_their_array():
    # JAX 0.10.2 (8 CPU devices): an uncommitted array's shard data is uncommitted, a
    # device_put one's committed; a default_device block's stays on its device, uncommitted
    x = jnp.array([1, 2, 3])
    assert [s.data.committed for s in x.addressable_shards] == [False]
    y = core.device_put(x, core.devices()[1])
    assert [(s.data.committed, s.data.device) for s in y.addressable_shards] == [
        (True, core.devices()[1])
    ]
    with core.default_device(core.devices()[2]):
        z = jnp.ones(3)
    assert [(s.data.committed, s.data.device) for s in z.addressable_shards] == [
        (False, core.devices()[2])
    ]
