"""Abstract values: what a tracer knows about the value it stands for.

A `ShapedArray` is a shape, a dtype and a weak-type flag; it is hashable so it can be part of
cache keys, and it is all that abstract evaluation, jaxpr typing and jit cache keys look at.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import dtypes


class AbstractValue:
    """The base of abstract values (`jax.core.AbstractValue`): `ShapedArray`, and a `Ref`'s
    `core.ref.AbstractRef`."""

    __slots__ = ()


class ShapedArray(AbstractValue):
    """The abstract value of an array: `shape`, `dtype` and `weak_type`."""

    __slots__ = ("shape", "dtype", "weak_type", "_hash")
    array_abstraction_level = 1

    def __init__(self, shape: tuple[int, ...], dtype: Any, weak_type: bool = False):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = dtype if type(dtype) is dtypes.KeyDType else np.dtype(dtype)
        self.weak_type = bool(weak_type)
        self._hash = hash((self.shape, self.dtype, self.weak_type))

    @classmethod
    def make(cls, shape: tuple[int, ...], dtype: np.dtype, weak_type: bool) -> ShapedArray:
        """Fast constructor for already-normalized fields (a tuple of ints and a np.dtype)."""
        self = object.__new__(cls)
        self.shape, self.dtype, self.weak_type = shape, dtype, weak_type
        self._hash = hash((shape, dtype, weak_type))
        return self

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ShapedArray)
            and self.shape == other.shape
            and self.dtype == other.dtype
            and self.weak_type == other.weak_type
        )

    def __hash__(self) -> int:
        return self._hash

    def update(self, shape=None, dtype=None, weak_type=None) -> ShapedArray:
        return ShapedArray(
            self.shape if shape is None else shape,
            self.dtype if dtype is None else dtype,
            self.weak_type if weak_type is None else weak_type,
        )

    def strip_weak_type(self) -> ShapedArray:
        return self.update(weak_type=False) if self.weak_type else self

    def str_short(self, short_dtypes: bool = False, mesh_axis_types: bool = False) -> str:
        """`float32[3,4]` (JAX's default), `f32[3,4]` with `short_dtypes=True` (the form
        numbax's jaxpr printer, error messages and profiles ask for)."""
        del mesh_axis_types
        name = dtypes.short_name(self.dtype) if short_dtypes else self.dtype.name
        return f"{name}[{','.join(map(str, self.shape))}]"

    def __str__(self) -> str:
        return ("~" if self.weak_type else "") + self.str_short(short_dtypes=False)

    def str_long(self) -> str:
        """JAX's tracer notation: `float32[2,3]`, `~` marking a weak type (`~float32[]`)."""
        weak = "~" if self.weak_type else ""
        return f"{weak}{self.dtype.name}[{','.join(map(str, self.shape))}]"

    def __repr__(self) -> str:
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapedArray({self.str_short(short_dtypes=False)}{weak})"


class VaryingShapedArray(ShapedArray):
    """A `ShapedArray` inside a `shard_map` body that varies along mesh axes `vma` (JAX's
    `jax.typeof(x).vma`), printed `f32[2]{V:i}` (`{V:(x,y)}` for two, in mesh `order`).

    Equality and hashing ignore `vma` (a value's vma is checked by `core/shard_map_vma.py`,
    not by jaxpr typechecks); `update` keeps it, so a tangent or a vmapped block varies as
    its value does."""

    __slots__ = ("vma", "order")

    def __init__(self, aval: ShapedArray, vma: frozenset, order: tuple) -> None:
        super().__init__(aval.shape, aval.dtype, aval.weak_type)
        self.vma = vma
        self.order = order

    def update(self, shape=None, dtype=None, weak_type=None) -> ShapedArray:
        return VaryingShapedArray(super().update(shape, dtype, weak_type), self.vma, self.order)

    def str_short(self, short_dtypes: bool = False, mesh_axis_types: bool = False) -> str:
        text = super().str_short(short_dtypes, mesh_axis_types)
        names = [n for n in self.order if n in self.vma]
        if not names:
            return text
        return text + "{V:" + (str(names[0]) if len(names) == 1 else f"({','.join(names)})") + "}"


def typed(aval: ShapedArray, vma: frozenset, order: tuple) -> ShapedArray:
    """`aval` varying along the mesh axes `vma` (a plain `ShapedArray` when it is empty)."""
    plain = ShapedArray(aval.shape, aval.dtype, aval.weak_type)
    return VaryingShapedArray(plain, vma, order) if vma else plain


def vma_of(aval: Any) -> frozenset:
    """The mesh axes `aval` varies along (empty outside a `shard_map` body)."""
    return getattr(aval, "vma", frozenset())


_interned: dict[tuple, ShapedArray] = {}


def interned(shape: tuple[int, ...], dtype: np.dtype, weak_type: bool) -> ShapedArray:
    """The one shared `ShapedArray` with these (already normalized) fields.

    Every `Array` carries an interned aval, so jit's cache-hit path can key on the identity of
    its inputs' avals instead of hashing shapes and dtypes. The table holds one entry per
    distinct (shape, dtype, weak type) the process has seen, like the jit caches themselves.
    """
    key = (shape, dtype, weak_type)
    aval = _interned.get(key)
    if aval is None:
        aval = _interned[key] = ShapedArray.make(shape, dtype, weak_type)
    return aval


class ShapeDtypeStruct:
    """A shape and dtype, as returned by `eval_shape` (like `jax.ShapeDtypeStruct`), with the
    sharding an output is placed by when a stage tells it (`pmap(f).lower(x).out_info`)."""

    __slots__ = ("shape", "dtype", "weak_type", "sharding")
    __module__ = "core"  # where users name it (`core.ShapeDtypeStruct`), as JAX's `jax.`

    def __init__(
        self, shape: tuple[int, ...], dtype: Any, weak_type: bool = False, *, sharding: Any = None
    ):
        if dtype is None:  # np.dtype(None) would be float64
            raise ValueError(
                "ShapeDtypeStruct: dtype must be specified.\nGive one: "
                "ShapeDtypeStruct(shape, jnp.float32)."
            )
        self.shape = tuple(shape)
        self.dtype = dtype if type(dtype) is dtypes.KeyDType else np.dtype(dtype)  # or keys'
        self.weak_type = weak_type
        self.sharding = sharding

    @classmethod
    def like(cls, x: Any) -> ShapeDtypeStruct:
        """The struct of `x`, as `jax.ShapeDtypeStruct.like`.

        Args:
          x: an Array, tracer, numpy value, Python scalar or ShapeDtypeStruct.

        Returns:
          `x`'s shape, dtype and weak type, with the sharding of an Array committed to one
          (`device_put` on a device, a user's mesh); None for an uncommitted one.
        """
        dtype, weak_type = dtypes.dtype_and_weak(x)
        aval = getattr(x, "aval", None)
        shape = np.shape(x) if aval is None else aval.shape
        committed = isinstance(x, ShapeDtypeStruct) or getattr(x, "committed", False)
        return cls(shape, dtype, weak_type, sharding=x.sharding if committed else None)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def aval(self) -> ShapedArray:
        return ShapedArray(self.shape, self.dtype, self.weak_type)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def update(self, **kwargs: Any) -> ShapeDtypeStruct:
        """A copy with some of `shape`, `dtype`, `weak_type` and `sharding` replaced (as
        `jax.ShapeDtypeStruct.update`, other keywords are ignored).

        Args:
          **kwargs: the new values.

        Returns:
          The new struct.
        """
        return ShapeDtypeStruct(
            kwargs.get("shape", self.shape),
            kwargs.get("dtype", self.dtype),
            kwargs.get("weak_type", self.weak_type),
            sharding=kwargs.get("sharding", self.sharding),
        )

    def _key(self) -> tuple:
        return (self.shape, self.dtype, self.weak_type, self.sharding)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ShapeDtypeStruct) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        weak = ", weak_type=True" if self.weak_type else ""
        sharding = "" if self.sharding is None else f", sharding={self.sharding!r}"
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name}{weak}{sharding})"
