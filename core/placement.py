"""Placing pytrees on devices: `device_put` (by device, `Sharding` or `PartitionSpec`),
`device_put_replicated`, `device_put_sharded` and `device_get`, and building one array from
shards (`make_array_from_callback`, `make_array_from_single_device_arrays`,
`make_array_from_process_local_data`), as in JAX.

JAX 0.10 removed `jax.device_put_replicated` and `jax.device_put_sharded` from its namespace
(reading them raises an `AttributeError` naming the drop-in replacement): `core` does the same
(`RemovedPlacementError`), and Flax-style helpers (`train.jax_utils.replicate`) call the two
functions here.

Arrays live in host memory, so placing one records its sharding (`core/sharding_base.py`)
without copying the buffer; a `NamedSharding` is first checked against the array
(`core/named_sharding.py`). Inside a trace, `device_put` to the default device or a device
binds JAX's `device_put` primitive (its values pass through); to a sharding it records the
sharding on the traced value (`named_sharding.place`), without an equation (JAX has one).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import tree_util
from core.ad_util import Zero
from core.array import Array
from core.devices import Device, DeviceError, process_count
from core.dtypes import canonicalize_dtype
from core.errors import InvalidJaxTypeError, NumbaxError
from core.interpreters.jvp import deflinear
from core.mesh import AxisType
from core.named_sharding import place
from core.parallel.dispatch import replicated
from core.primitive import Primitive
from core.prims import prng
from core.prng_key import PRNGKeyArray
from core.sharding import pmap_sharding
from core.sharding_base import PartitionSpec, Sharding, placed
from core.sharding_propagation import shape_str
from core.trace import Tracer, as_value


class RemovedPlacementError(NumbaxError, AttributeError):
    """`core.device_put_replicated` or `core.device_put_sharded` read: JAX 0.10 removed them.

    Failing code: ``core.device_put_replicated(params, core.local_devices())``. Fix:
    ``core.device_put(jnp.stack([x] * n), NamedSharding(Mesh(devices, ("x",)), P("x")))`` per
    leaf (JAX's drop-in replacement), or ``train.jax_utils.replicate(params)``.
    """

    def __init__(self, name: str) -> None:
        super().__init__(
            f"jax.{name} is deprecated; use jax.device_put instead. See "
            "https://docs.jax.dev/en/latest/migrate_pmap.html#drop-in-replacements for a "
            "drop-in replacement."
        )


def device_put(
    x: Any, device: Any = None, *, src: Any = None, donate: bool = False, may_alias: Any = None
) -> Any:
    """Places every leaf of `x` on `device` as an `Array` (`jax.device_put`).

    Args:
      x: a pytree of arrays or scalars.
      device: a local `Device`, a `Sharding` (e.g. `NamedSharding(mesh, spec)`, checked
        against the arrays as in JAX), a bare `PartitionSpec` (over the mesh set by
        `core.set_mesh`), a tree of those matching (a prefix of) `x`, or None (the default
        device, uncommitted).
      src, donate, may_alias: accepted for compatibility (an Array's buffer is never copied:
        arrays are immutable and every device shares the host memory; a numpy view that is
        not C-contiguous is copied once, as `Array` keeps C-contiguous buffers).

    Returns:
      The pytree of `Array`s.
    """
    for leaf in tree_util.tree_leaves(x):  # JAX's error for a value with no dtype at all
        if not isinstance(leaf, (str, bytes, bool, int, float, complex)) and not hasattr(
            leaf, "dtype"
        ):
            raise InvalidJaxTypeError(
                leaf,
                message=f"Cannot interpret value of type {type(leaf)} as an abstract array; "
                "it does not have a dtype attribute\nPass arrays, scalars or pytrees of them.",
            )
    if device is None:
        out = tree_util.tree_map(as_value, x)
    else:
        out = place(x, device, "device_put")
    leaves, tree = tree_util.tree_flatten(out)
    if isinstance(device, Sharding) or not any(isinstance(v, Tracer) for v in leaves):
        return out  # eager, or a sharding: `place` recorded it on the traced value
    # traced, to the default device or a device: JAX's equation (the value passes through)
    n = len(leaves)
    semantics = (
        ArrayCopySemantics.DONATE_INPUT
        if donate
        else ArrayCopySemantics.ALWAYS_COPY
        if may_alias is False
        else ArrayCopySemantics.REUSE_INPUT
    )
    outs = device_put_p.bind(
        *leaves, devices=(device,) * n, srcs=(src,) * n, copy_semantics=(semantics,) * n
    )
    return tree_util.tree_unflatten(tree, outs)


class ArrayCopySemantics(enum.Enum):
    """Whether `device_put` may reuse (or donate) its input's buffer (JAX's, its parameter)."""

    ALWAYS_COPY = 0
    REUSE_INPUT = 1
    DONATE_INPUT = 2

    def __repr__(self) -> str:
        return f"ArrayCopySemantics.{self.name}"  # as JAX's prints in jaxprs


def _device_put_transpose(cts: list, *args: Any, devices: tuple, srcs: tuple, copy_semantics):
    # JAX's: the cotangents go back from the devices to the sources, copied
    picked = [i for i, (ct, x) in enumerate(zip(cts, args)) if type(ct) is not Zero]
    out: list[Any] = [None] * len(args)
    if picked:
        always = ArrayCopySemantics.ALWAYS_COPY
        semantics = tuple(
            always if copy_semantics[i] is ArrayCopySemantics.REUSE_INPUT else copy_semantics[i]
            for i in picked
        )
        ys = device_put_p.bind(
            *[cts[i] for i in picked],
            devices=tuple(srcs[i] for i in picked),
            srcs=tuple(devices[i] for i in picked),
            copy_semantics=semantics,
        )
        for i, y in zip(picked, ys):
            out[i] = y
    return out


# JAX's primitive of `device_put` inside a trace: the values pass through (arrays live in host
# memory), eagerly and compiled
device_put_p = Primitive("device_put", multiple_results=True)
device_put_p.def_impl(lambda *xs, **params: list(xs))
device_put_p.def_abstract_eval(lambda *avals, **params: list(avals))
device_put_p.def_composition(lambda *xs, **params: list(xs))
deflinear(device_put_p)
device_put_p.def_transpose(_device_put_transpose)
device_put_p.def_batch(lambda args, dims, **params: (device_put_p.bind(*args, **params), dims))
prng.def_physical_like(device_put_p)  # keys pass through as their data


def device_put_replicated(x: Any, devices: list[Device], axis_name: str | None = None) -> Any:
    """Stacks `len(devices)` copies of every leaf of `x`, slice `i` on `devices[i]` (the
    input layout of `pmap` for replicated state; `jax.device_put_replicated`), over a mesh
    whose one axis is `axis_name` (JAX's `_internal_pmap_axis_name` without one). The copies
    are one buffer until read (`core.parallel.dispatch.replicated`)."""
    devices = list(devices)

    def copies(leaf: Any) -> Any:
        if isinstance(leaf, PRNGKeyArray):  # keys: copies of their data
            return PRNGKeyArray(replicated(leaf._base._value, devices, axis_name), leaf.impl)
        return replicated(as_value(leaf)._value, devices, axis_name)

    return tree_util.tree_map(copies, x)


def device_put_sharded(shards: list[Any], devices: list[Device]) -> Any:
    """Stacks the pytrees `shards` leaf by leaf, slice `i` on `devices[i]`
    (`jax.device_put_sharded`)."""
    if len(shards) != len(devices):
        raise DeviceError(
            f"device_put_sharded: {len(shards)} shards for {len(devices)} devices; give one "
            "shard per device."
        )
    sharding = pmap_sharding(devices)
    return tree_util.tree_map(
        lambda *leaves: placed(np.stack([np.asarray(v) for v in leaves]), sharding), *shards
    )


def device_get(x: Any) -> Any:
    """Turns every array leaf of `x` into a numpy array."""

    def get(leaf):
        if isinstance(leaf, (PRNGKeyArray, Tracer)):  # keys stay keys, traced values stay
            return leaf  # traced (JAX's: `device_get` under `jit` gives back its input)
        return np.asarray(leaf) if hasattr(leaf, "aval") or isinstance(leaf, np.ndarray) else leaf

    return tree_util.tree_map(get, x)


def process_indices(backend: Any = None) -> list[int]:
    """The indices of the processes of the computation (`jax.process_indices`; `backend` is
    accepted, as the CPU is the only one)."""
    return list(range(process_count()))


def _addressable_indices(sharding: Any, shape: tuple[int, ...], name: str) -> dict:
    if not isinstance(sharding, Sharding):
        raise TypeError(
            f"sharding should be an instance of `jax.sharding`. Got {sharding} of type "
            f"{type(sharding)}\n{name} takes a Sharding: SingleDeviceSharding(device) for "
            "one device, NamedSharding(mesh, spec) for several."
        )
    if not sharding.is_fully_addressable:
        raise NotImplementedError(
            f"{name}: numbax builds arrays of one process; this sharding spans devices of other "
            "processes. Gather the data on every process first "
            "(`core.experimental.multihost_utils.process_allgather`) and `device_put` it."
        )
    return sharding.addressable_devices_indices_map(shape)


def _check_shard(sharding: Any, shape: tuple[int, ...], block: np.ndarray, dtype: Any) -> None:
    """JAX's check of a shard's shape: ValueError naming the array's type as JAX prints it
    (`float32[8@i]`: the axes split over `Explicit` mesh axes marked)."""
    expected = tuple(sharding.shard_shape(shape))
    if block.shape != expected:
        spec = getattr(sharding, "spec", ())
        mesh = getattr(sharding, "mesh", None)
        explicit = {
            n for n, t in zip(getattr(mesh, "axis_names", ()), getattr(mesh, "axis_types", ()))
            if t is AxisType.Explicit
        }  # fmt: skip
        typed = [
            e if e is not None and set(e if isinstance(e, tuple) else (e,)) <= explicit else None
            for e in spec
        ]
        raise ValueError(
            f"Expected shard shape {expected} doesn't match the single device array shape "
            f"{block.shape}. Shape of Array is {np.dtype(dtype).name}[{shape_str(shape, typed)}]"
            f" with sharding {sharding!r}"
        )


def _shards_dtype(shard_dtype: Any, dtype: Any, fname: str) -> np.dtype:
    """The dtype of the array `fname` makes: its shards' (canonical; None: there are none),
    which a given `dtype` must match, and must be given without shards (JAX's ValueErrors)."""
    if shard_dtype is None:
        if dtype is None:
            raise ValueError(
                "If the Array has no addressable shards, `dtype` must be provided via the "
                f"`dtype` argument to `jax.{fname}`."
            )
        return canonicalize_dtype(dtype)
    found = canonicalize_dtype(shard_dtype)
    if dtype is not None and canonicalize_dtype(dtype) != found:
        raise ValueError(
            f"If `dtype` is provided to `jax.{fname}`, it must match the dtype of the "
            f"addressable shards. Got dtype={np.dtype(dtype).name} and shard "
            f"dtype={found.name}`."
        )
    return found


def make_array_from_callback(
    shape: Sequence[int], sharding: Any, data_callback: Callable[[Any], Any], dtype: Any = None
) -> Any:
    """An array of `shape` placed with `sharding`, each device's shard read from
    `data_callback(index)` (`jax.make_array_from_callback`).

    Args:
      shape: the global shape.
      sharding: a `Sharding` of this process's devices.
      data_callback: takes a device's index (a tuple of slices into the global array) and
        returns that shard's data (called once per device, replicated shards included).
      dtype: the array's dtype (default: the callback's).

    Returns:
      The `Array`, with `sharding`.

    Raises:
      ValueError: a shard has the wrong shape.
    """
    shape = tuple(int(d) for d in shape)
    out, impl = None, None
    for index in _addressable_indices(sharding, shape, "make_array_from_callback").values():
        block, impl = _shard_data(data_callback(index))
        if impl is None:
            found = _shards_dtype(block.dtype, dtype, "make_array_from_callback")
            _check_shard(sharding, shape, block, found)
        else:
            found = block.dtype
            _check_shard(sharding, shape, block[..., 0], dtype)
        if out is None:
            out = np.empty((*shape, *block.shape[len(shape) :]), found)
        out[index] = block
    return _placed_keys_or_array(out, impl, sharding)


def _shard_data(shard: Any) -> tuple[np.ndarray, str | None]:
    """A shard's numpy data and, for keys (whose data has a last axis of words), their
    implementation's name (else None)."""
    if isinstance(shard, PRNGKeyArray):
        return np.asarray(shard._base), shard.impl
    return np.asarray(shard), None


def _placed_keys_or_array(data: np.ndarray, impl: str | None, sharding: Any) -> Any:
    """`data` placed by `sharding`: the Array, or the keys over it of implementation `impl`."""
    if impl is None:
        return device_put(data, sharding)
    return device_put(PRNGKeyArray(Array(data), impl), sharding)


def make_array_from_single_device_arrays(
    shape: Sequence[int], sharding: Any, arrays: Sequence[Any], *, dtype: Any = None
) -> Any:
    """One array of `shape` from the shards `arrays`, one on each addressable device of
    `sharding` (`jax.make_array_from_single_device_arrays`).

    Args:
      shape: the global shape.
      sharding: a `Sharding` of this process's devices.
      arrays: the per-device shards, one `Array` on each device of the sharding (each is
        placed where its device's index says, in any order).
      dtype: the array's dtype (default: the shards').

    Returns:
      The `Array`, with `sharding`.

    Raises:
      ValueError: the number of shards, their devices (two on one) or a shard's shape does
        not match the sharding.
      TypeError: a shard that is not an `Array`.
    """
    shape = tuple(int(d) for d in shape)
    name = "make_array_from_single_device_arrays"
    if not isinstance(arrays, (list, tuple)):
        raise TypeError(
            f"jax.{name} `arrays` argument must be a list or tuple, but got {type(arrays)}."
        )
    if any(isinstance(a, Tracer) for a in arrays):
        raise ValueError(
            f"jax.{name} requires a list of concrete arrays as input, but got types "
            f"{set(map(type, arrays))}\nCall it outside jit, on concrete per-device Arrays."
        )
    if not any(isinstance(a, PRNGKeyArray) for a in arrays):
        dtype = _shards_dtype(arrays[0].dtype if arrays else None, dtype, name)
    indices = _addressable_indices(sharding, shape, name)
    if len(arrays) != len(indices):
        raise ValueError(
            f"Expected {len(indices)} per-device arrays (this is how many devices are "
            f"addressable by the sharding), but got {len(arrays)}"
        )
    devices = [_single_device(a._base if isinstance(a, PRNGKeyArray) else a) for a in arrays]
    if len(set(devices)) != len(devices):
        raise ValueError(
            "When making an array from single-device arrays, the input arrays must be from "
            f"distinct devices, but got device IDs {[d.id for d in devices]}\nPut each shard "
            "on its own device (`device_put(shard, device)`)."
        )
    datas = [_shard_data(a) for a in arrays]
    blocks, impl = [d for d, _ in datas], (datas[0][1] if datas else None)
    words = blocks[0].shape[len(shape) :] if impl else ()
    out = np.empty((*shape, *words), dtype or (blocks[0].dtype if blocks else np.float32))
    for block in blocks:
        _check_shard(sharding, shape, block[..., 0] if impl else block, out.dtype)
    for device, block in zip(devices, blocks):  # each shard where its device's index says
        if device not in indices:
            raise ValueError(
                f"make_array_from_single_device_arrays got a shard on {device}, which the "
                f"sharding {sharding!r} does not use; put the shards on its devices."
            )
        out[indices[device]] = block
    return _placed_keys_or_array(out, impl, sharding)


def _single_device(a: Any) -> Any:
    """The device of a single-device `Array` (JAX's TypeError for other values)."""
    if not isinstance(a, Array):
        raise TypeError(
            f"Unsupported type for elements in `arrays`: {type(a)}\nPass Arrays, one per "
            "device: `device_put(shard, device)`."
        )
    devices = a.devices()
    if len(devices) != 1:
        raise ValueError(
            "When making an array from single-device arrays the input arrays must have one "
            f"shard each. An argument array had {len(devices)} shard(s).\nPass one Array per "
            "device: `array.addressable_shards[i].data`."
        )
    (device,) = devices
    return device


def make_array_from_process_local_data(
    sharding: Any, local_data: Any, global_shape: Any = None
) -> Any:
    """The global arrays made of every process's `local_data`
    (`jax.make_array_from_process_local_data`); with one process, `local_data` is all of it.

    Args:
      sharding: the arrays' `Sharding` (or `PartitionSpec` over the current mesh), or a
        pytree of them that is a prefix of `local_data`'s.
      local_data: this process's data: an array or a pytree of arrays.
      global_shape: the global shape (None: `local_data.shape` with one process), or a
        pytree of them (tuples and Nones are its leaves) that is a prefix of `local_data`'s.

    Returns:
      The `Array`s, with `sharding`, in `local_data`'s structure.

    Raises:
      ValueError: with one process, a `global_shape` differs from its data's shape.
    """
    leaves, treedef = tree_util.tree_flatten(local_data)
    leaves = [np.asarray(x) for x in leaves]
    shapes = treedef.flatten_up_to(
        tree_util.tree_broadcast(
            global_shape, local_data, is_leaf=lambda x: x is None or isinstance(x, tuple)
        )
    )
    shardings = treedef.flatten_up_to(
        tree_util.tree_broadcast(sharding, local_data, is_leaf=_is_sharding_leaf)
    )
    for data, s, shape in zip(leaves, shardings, shapes):
        if process_count() > 1 and isinstance(s, Sharding):
            _addressable_indices(s, data.shape, "make_array_from_process_local_data")
        if shape is not None and tuple(shape) != data.shape:
            raise ValueError(
                "When calling `make_array_from_process_local_data` on a single process, "
                "global_shape should be None or equal to local_data.shape."
                f"Got global_shape={tuple(shape)} and local_data.shape={data.shape}."
            )
    return device_put(treedef.unflatten(leaves), sharding)


def _is_sharding_leaf(x: Any) -> bool:
    """A leaf of a tree of shardings: a `Sharding`, a `PartitionSpec` (a tuple) or None."""
    return x is None or isinstance(x, (Sharding, PartitionSpec))
