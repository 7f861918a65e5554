"""`core.make_array_from_callback`, `make_array_from_single_device_arrays`,
`make_array_from_process_local_data` and `process_indices` (`core/placement.py`) against JAX
0.10.2 with 8 CPU devices on a 2x4 mesh (recorded: the indices JAX passes the callback, the
values, shardings and error messages). The test session has 8 CPU devices (`tests/conftest.py`)."""

import numpy as np
import pytest

import core
from core.sharding import NamedSharding, PartitionSpec, SingleDeviceSharding

P = PartitionSpec
DATA = np.arange(32, dtype=np.float32).reshape(4, 8)
# JAX's first three callback indices for P("x", "y") and P(None, "y") on shape (4, 8).
XY = [(slice(0, 2), slice(0, 2)), (slice(0, 2), slice(2, 4)), (slice(0, 2), slice(4, 6))]
NONE_Y = [(slice(None), slice(0, 2)), (slice(None), slice(2, 4)), (slice(None), slice(4, 6))]


@pytest.fixture
def mesh():
    return core.make_mesh((2, 4), ("x", "y"))


@pytest.mark.parametrize("spec, first", [(P("x", "y"), XY), (P(None, "y"), NONE_Y)])
def test_from_callback(mesh, spec, first):
    calls = []

    def cb(index):
        calls.append(index)
        return DATA[index]

    sharding = NamedSharding(mesh, spec)
    a = core.make_array_from_callback((4, 8), sharding, cb)
    assert len(calls) == 8 and calls[:3] == first  # once per device, replicated ones too
    assert a.sharding == sharding and a.shape == (4, 8)
    np.testing.assert_array_equal(a, DATA)


def test_from_single_device_arrays_and_process_local_data(mesh):
    sharding = NamedSharding(mesh, P("x", "y"))
    shards = [
        core.device_put(DATA[idx], d)
        for d, idx in sharding.addressable_devices_indices_map((4, 8)).items()
    ]
    a = core.make_array_from_single_device_arrays((4, 8), sharding, shards)
    assert a.sharding == sharding
    np.testing.assert_array_equal(a, DATA)
    for global_shape in (None, (4, 8)):
        b = core.make_array_from_process_local_data(sharding, DATA, global_shape)
        assert b.sharding == sharding and b.shape == (4, 8)
    assert core.process_indices() == [0]
    one = SingleDeviceSharding(core.devices()[0])
    c = core.make_array_from_callback((4,), one, lambda i: np.arange(4.0)[i])
    np.testing.assert_array_equal(c, np.arange(4.0))


def test_errors(mesh):  # JAX's messages
    sharding = NamedSharding(mesh, P("x", "y"))
    with pytest.raises(ValueError, match=r"global_shape should be None or equal to local_data"):
        core.make_array_from_process_local_data(sharding, DATA, (8, 8))
    with pytest.raises(ValueError, match=r"Expected shard shape \(2, 2\) doesn't match the single"):
        core.make_array_from_callback((4, 8), sharding, lambda i: DATA[i][:1])
    shards = [core.device_put(DATA[:2, :2], d) for d in core.devices()[:3]]
    with pytest.raises(ValueError, match="Expected 8 per-device arrays .* but got 3"):
        core.make_array_from_single_device_arrays((4, 8), sharding, shards)


def test_single_device_arrays_go_where_their_devices_say():
    # JAX 0.10.2: shards given in reverse device order still build arange(8.0)
    mesh = core.sharding.Mesh(core.devices(), ("i",))
    sharding = NamedSharding(mesh, PartitionSpec("i"))
    data = np.arange(8.0, dtype=np.float32)
    shards = [core.device_put(data[i : i + 1], d) for i, d in enumerate(core.devices())]
    a = core.make_array_from_single_device_arrays((8,), sharding, shards[::-1])
    np.testing.assert_array_equal(a, data)
    # JAX 0.10.2's classes and first lines
    with pytest.raises(
        ValueError,
        match=r"^When making an array from single-device arrays, the "
        r"input arrays must be from distinct devices, but got device IDs \[0, 0",
    ):
        core.make_array_from_single_device_arrays((8,), sharding, [core.numpy.ones(1)] * 8)
    with pytest.raises(TypeError, match="^Unsupported type for elements in `arrays`: <class 'nu"):
        core.make_array_from_single_device_arrays((8,), sharding, [np.ones(1)] * 8)


def test_a_device_for_a_sharding_is_jaxs_type_error():
    # JAX 0.10.2: TypeError "sharding should be an instance of `jax.sharding`. Got cpu:0 of type
    # <class 'jaxlib._jax.Device'>" (numbax's device class in the type's place)
    with pytest.raises(TypeError, match="^sharding should be an instance of `jax.sharding`. Got"):
        core.make_array_from_callback((8,), core.devices()[0], lambda i: np.zeros(8)[i])


SHARD_SHAPE_CASES = [  # (mesh, spec, JAX 0.10.2's type in "Shape of Array is ...")
    ("mesh", P(("x", "y")), "float32[8@(x,y),4]"),
    ("mesh", P(None, "x"), "float32[8,4@x]"),
    ("auto", P("i"), "float32[8,4]"),
    ("device", None, "float32[8,4]"),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "spec", "typed"), SHARD_SHAPE_CASES)
def test_shard_shape_error_prints_the_arrays_type(mesh, kind, spec, typed):
    if kind == "mesh":
        sharding = NamedSharding(mesh, spec)
    elif kind == "auto":  # Mesh(...)'s axes are Auto: no sharding in the type
        sharding = NamedSharding(core.sharding.Mesh(core.devices(), ("i",)), spec)
    else:
        sharding = SingleDeviceSharding(core.devices()[0])
    with pytest.raises(ValueError) as info:
        core.make_array_from_callback((8, 4), sharding, lambda i: np.ones((3, 3)))
    assert f"single device array shape (3, 3). Shape of Array is {typed} with " in str(info.value)


def test_callback_dtype_must_match_the_shards():
    sharding = SingleDeviceSharding(core.devices()[0])
    with pytest.raises(ValueError) as info:  # JAX 0.10.2's message (float64 shards: float32)
        core.make_array_from_callback((8,), sharding, lambda i: np.ones(8), dtype=np.int32)
    assert str(info.value) == (
        "If `dtype` is provided to `jax.make_array_from_callback`, it must match the dtype of "
        "the addressable shards. Got dtype=int32 and shard dtype=float32`."
    )
    out = core.make_array_from_callback((8,), sharding, lambda i: np.ones(8, np.int64))
    assert out.dtype == np.int32  # JAX 0.10.2: int32 (canonical)


def test_key_arrays_from_callback_and_single_device_arrays_and_their_shards():
    # JAX 0.10.2 (8 CPU devices): keys made from per-device keys, sharded as their data, with
    # Shards holding keys at their data's index
    random = core.random
    sharding = NamedSharding(core.make_mesh((8,), ("x",)), P("x"))
    keys = random.split(random.key(0), 8)
    made = core.make_array_from_callback(
        (8,), sharding, lambda index: core.vmap(random.key)(core.numpy.arange(8)[index[0]])
    )
    assert str(made.dtype) == "key<fry>" and made.shape == (8,) and made.sharding == sharding
    np.testing.assert_array_equal(random.key_data(made), [[0, i] for i in range(8)])
    shards = [core.device_put(keys[i : i + 1], d) for i, d in enumerate(core.devices())]
    joined = core.make_array_from_single_device_arrays((8,), sharding, shards)
    np.testing.assert_array_equal(random.key_data(joined), random.key_data(keys))
    shard = joined.addressable_shards[3]
    assert shard.device == core.devices()[3] and shard.index == (slice(3, 4), slice(None))
    assert str(shard.data.dtype) == "key<fry>" and shard.data.shape == (1,)
    assert joined.on_device_size_in_bytes() == 64 and len(joined.global_shards) == 8
    assert joined.addressable_data(2).shape == (1,) and keys.unsafe_buffer_pointer() > 0


def _one_device():
    return SingleDeviceSharding(core.devices()[0])


SINGLE_DEVICE_ARRAYS_ERRORS = [  # JAX 0.10.2's classes and first lines (8 CPU devices)
    (
        lambda: core.make_array_from_single_device_arrays(
            (8, 2), NamedSharding(core.make_mesh((4, 2), ("x", "y")), P("x", "y")), []
        ),
        ValueError,
        "If the Array has no addressable shards, `dtype` must be provided via the `dtype`",
    ),
    (
        lambda: core.make_array_from_single_device_arrays(
            (8, 2), _one_device(), [core.device_put(np.ones((8, 2), np.int32), _one_device())],
            dtype=np.float32,
        ),
        ValueError,
        "If `dtype` is provided to `jax.make_array_from_single_device_arrays`, it must match",
    ),
    (
        lambda: core.jit(
            lambda x: core.make_array_from_single_device_arrays(x.shape, _one_device(), [x])
        )(np.arange(10)),
        ValueError,
        "jax.make_array_from_single_device_arrays requires a list of concrete arrays",
    ),
    (
        lambda: core.jit(
            lambda x: core.make_array_from_single_device_arrays(x.shape, _one_device(), x)
        )(np.arange(10)),
        TypeError,
        "jax.make_array_from_single_device_arrays `arrays` argument must be a list or tuple",
    ),
    (
        lambda: core.make_array_from_single_device_arrays(
            (10,), _split2(), [core.device_put(np.arange(10), _split2())] * 2
        ),
        ValueError,
        "When making an array from single-device arrays the input arrays must have one shard "
        "each. An argument array had 2 shard\\(s\\).",
    ),
]  # fmt: skip


def _split2():
    return NamedSharding(core.make_mesh((2,), ("x",)), P("x"))


@pytest.mark.parametrize("make, error, first", SINGLE_DEVICE_ARRAYS_ERRORS)
def test_single_device_arrays_errors_are_jaxs(make, error, first):
    with pytest.raises(error, match=f"^{first}"):
        make()
