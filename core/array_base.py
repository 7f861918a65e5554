"""The operator and method surface shared by concrete `Array`s and `Tracer`s.

`ArrayBase` declares nothing but the read-only attributes every array-like has. The operators
(`+`, `@`, `<`...), the array methods (`sum`, `reshape`, `astype`...) and `.at` are attached by
`core/numpy/array_methods.py` once `core.numpy` exists (as JAX does), so concrete arrays and
tracers behave identically and the method code lives next to the functions it calls.
"""

from __future__ import annotations

from typing import Any

from core import errors


class ArrayBase:
    """Base of `Array` and `Tracer`; subclasses provide `aval`. Both can be weakly referenced,
    as JAX's arrays and tracers can (a cache keyed weakly on an array)."""

    __slots__ = ("__weakref__",)
    __array_priority__ = 1000

    @property
    def shape(self) -> tuple[int, ...]:
        return self.aval.shape

    @property
    def dtype(self):
        return self.aval.dtype

    @property
    def ndim(self) -> int:
        return len(self.aval.shape)

    @property
    def size(self) -> int:
        return self.aval.size

    @property
    def itemsize(self) -> int:
        return self.aval.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.aval.size * self.aval.dtype.itemsize

    @property
    def weak_type(self) -> bool:
        return self.aval.weak_type

    def __setitem__(self, idx: Any, value: Any) -> None:
        raise errors.ImmutableArrayError()  # arrays and tracers alike: `x = x.at[idx].set(y)`

    def __len__(self) -> int:
        if not self.aval.shape:
            raise TypeError("len() of unsized object")  # JAX's (and numpy's) text
        return self.aval.shape[0]

    def __iter__(self):
        if not self.aval.shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.aval.shape[0]))

    __hash__ = None  # arrays are unhashable, as in JAX and numpy
