"""Typed PRNG keys: `random.key(seed)` is a key array of shape () and dtype `key<fry>`.

JAX gives keys an extended dtype that every primitive knows how to carry. Here a key array is a
thin wrapper around its `uint32[..., words]` data (2 words for threefry2x32 keys, 4 for the
`rbg`/`unsafe_rbg` ones) and the name of its implementation, registered as a pytree node whose
one leaf is that data (the name is its static part): `jit`, `vmap`, `grad`, `lax.scan`/`cond`,
`device_put` and checkpoints see the data and rebuild the wrapper on the way out, so no
transformation needs a rule for keys. `core.random`
unwraps keys on the way in (as `random_wrap` of their data: inside its functions keys are key
avals of JAX's key primitives, `core/prims/prng.py`, whose eager values are key arrays too) and
wraps the keys it returns when it was given typed ones; the legacy `random.PRNGKey(seed)` still
returns raw data, and both work everywhere a key does.

The wrapper has what JAX's key arrays have: shape and dtype of the keys (the data's last axis
hidden), its aval (`key<fry>[2]`), indexing, iteration, reshape/ravel/squeeze/transpose, `==`,
JAX's printing, and no arithmetic or conversion to numpy (JAX's errors; use `random.key_data`).
Differences from JAX, by design of the wrapper (partial): a jitted function's typed-key argument
is its data (`u32[2]` in its jaxpr, JAX: `key<fry>[]`), `tree_leaves` of a key array is its
uint32 data (JAX: the key array itself), negative `vmap` axes count the data's hidden last axis,
and `jnp` functions (`stack`, `where`, `concatenate`, ...) do not take key arrays: apply them to
`key_data` and `wrap_key_data` the result.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from core import dtypes, tree_util
from core.avals import ShapedArray
from core.errors import KeyArrayConversionError

_DTYPES = {"threefry2x32": dtypes.key_fry, "rbg": dtypes.key_rbg, "unsafe_rbg": dtypes.key_urbg}


def register_dtype(impl: str, dtype: dtypes.KeyDType) -> None:
    """The key dtype of implementation `impl` (`jax.extend.random.define_prng_impl`'s)."""
    _DTYPES[impl] = dtype


class PRNGKeyArray:
    """An array of PRNG keys (`jax.random.key`'s result): `shape` keys over `uint32` data of
    shape `(*shape, words)`, which `random.key_data` returns, of implementation `impl`."""

    __slots__ = ("_base", "impl")
    __hash__ = None  # like every array

    def __init__(self, base: Any, impl: str = "threefry2x32") -> None:
        self._base = base  # unchecked: pytree unflattening passes tracers and placeholders
        self.impl = impl

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._base.shape[:-1])

    @property
    def dtype(self) -> dtypes.KeyDType:
        return _DTYPES[self.impl]

    @property
    def aval(self) -> ShapedArray:
        """The keys' abstract value: their shape and key dtype (`key<fry>[2]`)."""
        return ShapedArray(self.shape, self.dtype)

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
    def T(self) -> PRNGKeyArray:  # noqa: N802  (numpy's name)
        return self.transpose()

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object (a single key, shape ())")
        return self.shape[0]

    def __iter__(self) -> Iterator[PRNGKeyArray]:
        return (self[i] for i in range(len(self)))

    def __getitem__(self, index: Any) -> PRNGKeyArray:
        index = index if isinstance(index, tuple) else (index,)
        if any(i is Ellipsis for i in index):  # keep the data's word axis out of the ellipsis
            index = (*index, slice(None))
        return PRNGKeyArray(self._base[index], self.impl)

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

    def __eq__(self, other: object) -> Any:
        if not isinstance(other, PRNGKeyArray):
            _no_arithmetic("equal", self, other)
        return (self._base == other._base).all(axis=-1)

    def __ne__(self, other: object) -> Any:
        if not isinstance(other, PRNGKeyArray):
            _no_arithmetic("not_equal", self, other)
        return (self._base != other._base).any(axis=-1)

    def __neg__(self) -> Any:
        raise TypeError(
            f"neg does not accept dtype {self.dtype}. Accepted dtypes are subtypes of integer, "
            "floating, complexfloating."
        )

    def __abs__(self) -> Any:
        raise TypeError(
            f"abs does not accept dtype {self.dtype}. Accepted dtypes are subtypes of floating, "
            "complexfloating, signedinteger."
        )

    def copy(self) -> PRNGKeyArray:
        return PRNGKeyArray(self._base.copy(), self.impl)

    def block_until_ready(self) -> PRNGKeyArray:
        if hasattr(self._base, "block_until_ready"):
            self._base.block_until_ready()
        return self

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


def _no_arithmetic(name: str, *args: object) -> None:
    """JAX's TypeError for `name` (jnp's name) applied to key arrays and numbers."""
    found = []
    for x in args:
        try:
            found.append(str(dtypes.dtype_and_weak(x)[0]))
        except TypeError:
            found.append(type(x).__name__)
    raise TypeError(f"{name} does not accept dtypes {', '.join(found)}.")


def _arithmetic(name: str, reflected: bool = False):
    def op(self: PRNGKeyArray, other: object) -> Any:
        _no_arithmetic(name, *((other, self) if reflected else (self, other)))

    return op


# Keys have no arithmetic (JAX's errors, named by the jnp function each operator calls)
for _dunder, _name in {
    "add": "add",
    "sub": "subtract",
    "mul": "multiply",
    "truediv": "true_divide",
    "floordiv": "floor_divide",
    "mod": "remainder",
    "pow": "power",
    "and": "bitwise_and",
    "or": "bitwise_or",
    "xor": "bitwise_xor",
    "lshift": "left_shift",
    "rshift": "right_shift",
}.items():
    setattr(PRNGKeyArray, f"__{_dunder}__", _arithmetic(_name))
    setattr(PRNGKeyArray, f"__r{_dunder}__", _arithmetic(_name, reflected=True))


tree_util.register_pytree_node(
    PRNGKeyArray,
    lambda k: ((k._base,), k.impl),
    lambda impl, children: PRNGKeyArray(*children, impl),
)
