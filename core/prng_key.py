"""Typed PRNG keys: `random.key(seed)` is a key array of shape () and dtype `key<fry>`.

JAX gives keys an extended dtype that every transformation carries. Here too: a key array is a
leaf whose abstract value is `key<fry>[...]` (`aval`, interned as an Array's), holding its
`uint32[..., words]` data (2 words for threefry2x32 keys, 4 for the `rbg`/`unsafe_rbg` ones) and
the name of its implementation. Traced, keys are tracers of key avals: `jit` takes and returns
them (`key<fry>[]` in its jaxpr; the compiled program runs on the data, `core/jit/api.py`),
`vmap` batches them along their key axes, `scan`/`cond`/`while_loop` carry them, and the
primitives on keys (`core/prims/prng.py`) compute eagerly on the data and wrap key results.
The legacy `random.PRNGKey(seed)` is raw `uint32[2]` data, and works everywhere a key does.

The wrapper has what JAX's key arrays have: shape and dtype of the keys (the data's last axis
hidden), its aval, indexing, iteration, reshape/ravel/squeeze/transpose, `==`, `.at[]`,
`take`, `swapaxes`, JAX's printing, and no arithmetic or conversion to numpy (JAX's errors,
raised by the operators `core/numpy/array_methods.py` attaches, as for tracers; use
`random.key_data`); the other methods of `jax.Array` are abstract, as on JAX's key arrays
(`keys.sum()`: `Cannot call abstract method sum`). The jnp functions that move, select or fill
whole elements take keys (primitives with physical rules, `core/prims/prng.py`; `zeros_like`
and `full_like` build keys with `prng.full_keys`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from core import dtypes
from core.avals import ShapedArray, interned
from core.errors import KeyArrayConversionError, KeyArrayMethodError

_DTYPES = {"threefry2x32": dtypes.key_fry, "rbg": dtypes.key_rbg, "unsafe_rbg": dtypes.key_urbg}


def register_dtype(impl: str, dtype: dtypes.KeyDType) -> None:
    """The key dtype of implementation `impl` (`jax.extend.random.define_prng_impl`'s)."""
    _DTYPES[impl] = dtype


def _indexed_dims(index: tuple) -> int:
    """How many dimensions `index` takes, as numpy counts them: a boolean mask its rank, None,
    Ellipsis and Python booleans none, any other entry one."""
    n = 0
    for e in index:
        if e is None or e is Ellipsis or isinstance(e, (bool, np.bool_)):
            continue
        n += np.ndim(e) if getattr(e, "dtype", None) == np.bool_ else 1
    return n


class PRNGKeyArray:
    """An array of PRNG keys (`jax.random.key`'s result): `shape` keys over `uint32` data of
    shape `(*shape, words)`, which `random.key_data` returns, of implementation `impl`."""

    __slots__ = ("_base", "impl", "__weakref__")
    __hash__ = None  # like every array

    def __init__(self, base: Any, impl: str = "threefry2x32") -> None:
        self._base = base  # the data: an Array (a PendingArray while a jit computes it)
        self.impl = impl

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._base.shape[:-1])

    @property
    def dtype(self) -> dtypes.KeyDType:
        return _DTYPES[self.impl]

    @property
    def aval(self) -> ShapedArray:
        """The keys' abstract value: their shape and key dtype (`key<fry>[2]`), interned as an
        Array's (jit's fast path keys on its identity)."""
        return interned(self.shape, self.dtype, False)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.itemsize

    @property
    def sharding(self) -> Any:
        """Where the keys are placed: their data's sharding, without the data's hidden axis."""
        sharding = self._base.sharding
        spec = getattr(sharding, "spec", None)
        if spec is None:  # a SingleDeviceSharding
            return sharding
        return type(sharding)(sharding.mesh, type(spec)(*tuple(spec)[: self.ndim]))

    @property
    def committed(self) -> bool:
        return self._base.committed

    @property
    def device(self) -> Any:
        return self._base.device if getattr(self.sharding, "spec", None) is None else self.sharding

    def devices(self) -> set:
        return self._base.devices()

    @property
    def is_fully_replicated(self) -> bool:
        return self._base.is_fully_replicated

    @property
    def is_fully_addressable(self) -> bool:
        return self._base.is_fully_addressable

    @property
    def addressable_shards(self) -> list:
        """The keys' `Shard`s: their data's (the index into the data, as JAX's), holding
        keys."""
        return [self._key_shard(s) for s in self._base.addressable_shards]

    @property
    def global_shards(self) -> list:
        """A `Shard` per device of the sharding, as `addressable_shards`."""
        return [self._key_shard(s) for s in self._base.global_shards]

    def _key_shard(self, shard: Any) -> Any:
        data = None if shard.data is None else PRNGKeyArray(shard.data, self.impl)
        return type(shard)(shard.device, shard.index, data, shard.replica_id)

    def addressable_data(self, index: int) -> PRNGKeyArray:
        """The keys of addressable shard `index`."""
        return self.addressable_shards[index].data

    def on_device_size_in_bytes(self) -> int:
        """The bytes of the keys' data on all their devices."""
        return self._base.on_device_size_in_bytes()

    def unsafe_buffer_pointer(self) -> int:
        """The address of the keys' data in host memory."""
        return self._base.unsafe_buffer_pointer()

    @property
    def T(self) -> PRNGKeyArray:  # noqa: N802  (numpy's name)
        return self.transpose()

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")  # JAX's text
        return self.shape[0]

    def __iter__(self) -> Iterator[PRNGKeyArray]:
        return (self[i] for i in range(len(self)))

    # `jnp` indexing (`core/numpy/array_methods.py` sets it): the primitives on keys that a
    # traced index needs, as a traced key array is indexed
    traced_getitem: Any = None

    def __getitem__(self, index: Any) -> Any:
        index = index if isinstance(index, tuple) else (index,)
        consumed = _indexed_dims(index)
        if consumed > self.ndim:  # JAX's words: the keys' dimensions, not their data's
            raise IndexError(
                f"Too many indices: array is {self.ndim}-dimensional, but {consumed} were "
                f"indexed\nThe array's shape is {self.shape}."
            )
        if any(hasattr(i, "_trace") for i in index):  # a traced index: primitives on keys
            return type(self).traced_getitem(self, index)
        if any(i is Ellipsis for i in index):  # keep the data's word axis out of the ellipsis
            index = (*index, slice(None))
        return PRNGKeyArray(self._base[index], self.impl)

    def copy_to_host_async(self) -> None:
        """No-op, as `Array.copy_to_host_async` (the data already lives in host memory)."""

    def reshape(self, *shape: Any, order: str = "C") -> PRNGKeyArray:
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        words = self._base.shape[-1]
        return PRNGKeyArray(self._base.reshape((*shape, words), order=order), self.impl)

    def ravel(self) -> PRNGKeyArray:
        return self.reshape(-1)

    flatten = ravel

    def squeeze(self, axis: int | tuple[int, ...] | None = None) -> PRNGKeyArray:
        axes = range(self.ndim) if axis is None else np.atleast_1d(axis)
        drop = {int(a) % self.ndim for a in axes if axis is not None or self.shape[a] == 1}
        return self.reshape(tuple(n for a, n in enumerate(self.shape) if a not in drop))

    def transpose(self, *axes: Any) -> PRNGKeyArray:
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        perm = tuple(a % self.ndim for a in axes) if axes else tuple(reversed(range(self.ndim)))
        return PRNGKeyArray(self._base.transpose((*perm, self.ndim)), self.impl)

    def copy(self) -> PRNGKeyArray:
        return PRNGKeyArray(self._base.copy(), self.impl)

    def delete(self) -> None:
        """Frees the keys' data (a donated argument of `jit`)."""
        self._base.delete()

    def is_deleted(self) -> bool:
        return self._base.is_deleted()

    def block_until_ready(self) -> PRNGKeyArray:
        if hasattr(self._base, "block_until_ready"):
            self._base.block_until_ready()
        return self

    # `jnp` (`core/numpy/array_methods.py` sets them): `keys.at[i].set(key)`, `keys.take(i)`
    at: Any = None
    take: Any = None
    swapaxes: Any = None

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        raise KeyArrayConversionError(
            "JAX array with PRNGKey dtype cannot be converted to a NumPy array. Use "
            "jax.random.key_data(arr) if you wish to extract the underlying integer array."
        )

    def __repr__(self) -> str:
        try:
            data = str(np.asarray(self._base))
        except Exception:  # a tracer: no value to show
            data = repr(self._base)
        return f"Array({self.shape}, dtype={self.dtype}) overlaying:\n{data}"

    __str__ = __repr__


def _abstract_method(name: str) -> Any:
    def method(self: PRNGKeyArray, *args: Any, **kwargs: Any) -> Any:
        raise KeyArrayMethodError(
            f"Cannot call abstract method {name}\nKey arrays have no {name}: "
            "random.key_data(keys) is their uint32 data."
        )

    method.__name__ = method.__qualname__ = name
    return method


# The methods of JAX's `jax.Array` that its key arrays leave abstract: concrete keys raise
# `Cannot call abstract method sum` (traced keys reach jnp's dtype errors instead)
for _name in [
    "all",
    "any",
    "argmax",
    "argmin",
    "argpartition",
    "argsort",
    "astype",
    "byteswap",
    "choose",
    "clip",
    "compress",
    "conj",
    "conjugate",
    "cumprod",
    "cumsum",
    "diagonal",
    "dot",
    "item",
    "max",
    "mean",
    "min",
    "nonzero",
    "prod",
    "ptp",
    "repeat",
    "round",
    "searchsorted",
    "sort",
    "std",
    "sum",
    "to_device",
    "trace",
    "var",
    "view",
]:
    setattr(PRNGKeyArray, _name, _abstract_method(_name))
for _name in ("flat", "mT", "real", "imag"):
    setattr(PRNGKeyArray, _name, property(_abstract_method(_name)))
