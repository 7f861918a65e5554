"""`Array`: the concrete, immutable array users hold (like `jax.Array`).

An `Array` wraps a numpy array (never written to after construction) plus JAX's `weak_type`
flag. Everything that computes goes through primitives, so arrays, tracers and every
transformation share one code path; the operators and methods come from `ArrayBase`.
An array placed by `device_put` or returned by `pmap` also carries its sharding (which devices
hold it, `core/sharding.py`); the others are on the default device (the slot is left unset, so
the many places that build arrays need not know about devices).
A jitted call dispatched asynchronously returns `PendingArray`s (`core/pending.py`): the same
class with its value not yet computed; it becomes a plain `Array` when its kernel finishes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from core import dtypes
from core.array_base import ArrayBase
from core.avals import ShapedArray, interned
from core.errors import DeletedArrayError, ScalarConversionError, ScalarIndexError


class _Placement:
    """Where arrays live is decided above the IR (`core/devices.py`, `core/sharding_base.py`);
    `core/sharding_base.py` registers these functions here when imported (`register_placement`)."""

    default_sharding: Callable[[], Any]
    follow: Callable[..., Any]  # `core.committed.follow`
    follow_primitive: Callable[..., Any]  # `core.committed.follow_primitive`
    addressable_shards: Callable[[Array], list]
    global_shards: Callable[[Array], list]

    # Whether some array was ever committed to one device (or a `default_device` block named
    # one): only then do calls look for their inputs' device (`core/committed.py`,
    # `core/jit/dispatch.py`).
    committed_to_device = False


placement = _Placement()


def register_placement(**fns: Callable) -> None:
    """Supplies the functions of `_Placement` (called by `core/sharding_base.py`)."""
    unknown = set(fns) - set(_Placement.__annotations__)
    if unknown:
        raise TypeError(f"register_placement: unknown functions {sorted(unknown)}")
    for name, fn in fns.items():
        setattr(placement, name, fn)


class Array(ArrayBase):
    """An immutable n-dimensional array on the CPU."""

    __slots__ = ("_value", "_aval", "_sharding", "_pending")

    def __init__(self, value: np.ndarray, weak_type: bool = False, aval: ShapedArray | None = None):
        # `value` is never written to: primitives return fresh arrays, and `__array__` hands out
        # read-only views (cheaper than locking every array at creation). The interned aval
        # (`core.avals.interned`; `aval` if given) carries the weak type; jit's cache-hit path
        # keys on its identity. The buffer is a C-contiguous numpy array of the aval's dtype,
        # as compiled kernels take it, so jit's call path passes it on unchecked (a view, such
        # as an eager transpose's, is copied here once).
        if type(value) is not np.ndarray or not value.flags.c_contiguous:
            value = np.asarray(value, order="C")  # 0-d stays 0-d
        if aval is None:
            aval = interned(value.shape, value.dtype, weak_type)
        elif aval.dtype != value.dtype:
            value = value.astype(aval.dtype)
        self._value = value
        self._aval = aval

    @property
    def aval(self) -> ShapedArray:
        return self._aval

    @property
    def shape(self) -> tuple[int, ...]:
        return self._value.shape

    @property
    def dtype(self) -> np.dtype:
        return self._value.dtype

    @property
    def ndim(self) -> int:
        return self._value.ndim

    @property
    def size(self) -> int:
        return self._value.size

    @property
    def weak_type(self) -> bool:
        return self._aval.weak_type

    @property
    def nbytes(self) -> int:
        return self._value.nbytes

    @property
    def itemsize(self) -> int:
        return self._value.itemsize

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        if dtype is None and not copy:
            view = self._value.view()
            view.flags.writeable = False
            return view
        return np.array(self._value, dtype=dtype, copy=True)

    def __dlpack__(self, **kwargs: Any) -> Any:
        """The array's data as a DLPack capsule (`np.from_dlpack(x)`, `torch.from_dlpack(x)`):
        its buffer, read-only where the consumer's DLPack version can say so, else a copy.

        Args:
          **kwargs: DLPack's `stream`, `max_version`, `dl_device` and `copy`.

        Returns:
          The capsule.
        """
        try:
            return self.__array__().__dlpack__(**kwargs)
        except BufferError:  # a consumer of DLPack < 1.0 cannot be told the data is read-only
            return np.array(self._value).__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        """DLPack's device of the data: `(1, 0)`, the CPU."""
        return (1, 0)

    def __bool__(self) -> bool:
        return bool(self._value)

    def _scalar(self) -> np.ndarray:
        if self._value.ndim:  # numpy allows size-1 arrays (deprecated); JAX does not
            raise ScalarConversionError(self._value.ndim)
        return self._value

    def __int__(self) -> int:
        return int(self._scalar())

    def __index__(self) -> int:
        if self._value.ndim or self._value.dtype.kind not in "iu":
            raise ScalarIndexError()
        return self._value.__index__()

    def __float__(self) -> float:
        return float(self._scalar())

    def __complex__(self) -> complex:
        return complex(self._scalar())

    def item(self, *args: Any) -> Any:
        """The element as a Python scalar."""
        return self._value.item(*args)

    def tolist(self) -> Any:
        """The array as nested Python lists."""
        return self._value.tolist()

    def tobytes(self, order: str = "C") -> bytes:
        """The raw bytes of the elements, in C (or "F") order, as `numpy.ndarray.tobytes`."""
        return self._value.tobytes(order)

    def block_until_ready(self) -> Array:
        """Waits until the value is computed (see `core.pending`) and returns self; an array
        whose computation raised raises that error here."""
        return self

    def is_ready(self) -> bool:
        """Whether the value is computed (reading it will not wait)."""
        return True

    def copy_to_host_async(self) -> None:
        """No-op (the array already lives in host memory)."""

    def delete(self) -> None:
        """Drops this array's buffer (`jax.Array.delete`): reading it afterwards raises
        `DeletedArrayError`; its shape and dtype stay. Other arrays sharing the buffer keep it."""
        if type(self) is DeletedArray:
            return
        if type(self) is not Array:  # a pending array: its value first
            self.block_until_ready()
        try:  # noqa: SIM105 - a third of `contextlib.suppress`'s cost, per donated leaf
            del self._value
        except AttributeError:  # a value never read from the device's result
            pass
        self.__class__ = DeletedArray

    def is_deleted(self) -> bool:
        """Whether `delete` dropped the buffer."""
        return False

    def unsafe_buffer_pointer(self) -> int:
        """The address of the array's buffer in host memory."""
        return self._value.ctypes.data

    @classmethod
    def _placed(cls, value: np.ndarray, aval: ShapedArray, sharding: Any) -> Array:
        """An array of `value` (with `aval`) placed by `sharding` (`core.sharding_base.placed`)."""
        arr = cls(value, aval=aval)
        arr._sharding = sharding
        if hasattr(sharding, "_device") or getattr(sharding, "followed", False):
            placement.committed_to_device = True
        return arr

    @property
    def sharding(self) -> Any:
        """Where the array is placed: a `SingleDeviceSharding`, or a `NamedSharding` (meshes,
        and pmap outputs: `core.sharding.pmap_sharding`)."""
        try:
            return self._sharding
        except AttributeError:
            return placement.default_sharding()

    @property
    def committed(self) -> bool:
        """Whether the array was explicitly placed (`device_put` with a device, `pmap`); an
        array computed in a `default_device` block is placed there but uncommitted."""
        sharding = getattr(self, "_sharding", None)
        return sharding is not None and not getattr(sharding, "uncommitted", False)

    def devices(self) -> set:
        """The set of devices holding the array."""
        return self.sharding.device_set

    @property
    def device(self) -> Any:
        """The device of a single-device array; the sharding of a sharded one (as JAX)."""
        sharding = self.sharding
        return sharding._device if hasattr(sharding, "_device") else sharding

    @property
    def is_fully_replicated(self) -> bool:
        return self.sharding.is_fully_replicated

    @property
    def addressable_shards(self) -> list:
        """The `Shard`s of this process: the whole array for a single-device one, the pieces
        of `devices_indices_map` for a `NamedSharding` (a pmap output: slice `i` along the
        mapped axis, kept with size 1, on device `i`)."""
        return placement.addressable_shards(self)

    @property
    def global_shards(self) -> list:
        """A `Shard` per device of the sharding; other processes' ones have `data=None`."""
        return placement.global_shards(self)

    def addressable_data(self, index: int) -> Array:
        """The data of addressable shard `index` (`addressable_shards[index].data`)."""
        return self.addressable_shards[index].data

    @property
    def is_fully_addressable(self) -> bool:
        """Whether this process holds every shard of the array."""
        return self.sharding.is_fully_addressable

    def on_device_size_in_bytes(self) -> int:
        """The bytes of all the array's shards (a replicated array counts every copy)."""
        return sum(s.data.nbytes for s in self.addressable_shards)

    def __repr__(self) -> str:
        # JAX's layout: numpy's (under the current print options), the dtype after the data's
        # last line, or after six spaces where it would overflow the line width; an unreduced
        # array (its shards sum to the value) by its shape and sharding.
        dtype = f"dtype={self._value.dtype.name}"
        if self._aval.weak_type:
            dtype += ", weak_type=True"
        if self._unreduced:
            return f"Array(shape={self.shape}, {dtype}, sharding={self.sharding})"
        width = np.get_printoptions()["linewidth"]
        if self._value.size == 0:
            body = f"[], shape={self._value.shape}"
        else:
            body = np.array2string(
                self._value, prefix="Array(", suffix=",", separator=", ", max_line_width=width
            )
        last_line = len(body) - body.rfind("\n") + 1
        sep = " " * 6 if last_line + len(dtype) + 2 > width else " "
        return f"Array({body},{sep}{dtype})"

    @property
    def _unreduced(self) -> bool:
        """Whether the array is placed unreduced over some mesh axis (JAX prints its repr)."""
        return bool(
            getattr(getattr(getattr(self, "_sharding", None), "spec", None), "unreduced", None)
        )

    def __str__(self) -> str:
        return repr(self) if self._unreduced else str(self._value)

    def __format__(self, spec: str) -> str:
        if self._unreduced:
            return repr(self)
        if self._value.ndim == 0:
            return format(self._value.item(), spec)
        return format(self._value, spec)  # numpy's: any non-empty spec is a TypeError

    def __reduce__(self):
        return (_rebuild, (np.array(self._value), self._aval.weak_type))


class DeletedArray(Array):
    """What `Array.delete` leaves: the shape and dtype, and an error for anything that reads
    the value."""

    __slots__ = ()

    shape = ArrayBase.shape
    dtype = ArrayBase.dtype
    ndim = ArrayBase.ndim
    size = ArrayBase.size

    def __getattr__(self, name: str) -> Any:
        if name == "_value":
            raise DeletedArrayError(self._aval.str_short(short_dtypes=False))
        raise AttributeError(f"'Array' object has no attribute {name!r}")

    def is_deleted(self) -> bool:
        return True

    def is_ready(self) -> bool:
        return True


def _rebuild(value: np.ndarray, weak_type: bool) -> Array:
    return Array(value, weak_type)


MASKED_ARRAY_MESSAGE = (
    "numpy masked arrays are not supported as direct inputs to JAX functions. Use arr.filled() "
    "to convert the value to a standard numpy array."
)


def asarray_concrete(x: Any, dtype: Any = None, weak_type: bool | None = None) -> Array:
    """Wraps a Python/numpy value as an `Array` with a canonical dtype (no tracing involved).
    A numpy masked array is JAX's ValueError (`jnp.array` strips the mask first, as JAX's)."""
    if isinstance(x, Array) and dtype is None:
        return x
    if isinstance(x, np.ma.MaskedArray):
        raise ValueError(MASKED_ARRAY_MESSAGE)
    if dtype is None:
        dt, weak = dtypes.dtype_and_weak(x) if not isinstance(x, Array) else (x.dtype, x.weak_type)
    else:
        dt, weak = dtypes.canonicalize_dtype(dtype), False
    if weak_type is not None:
        weak = weak_type
    return Array(np.array(x, dtype=dt), weak)
