"""`ravel_pytree`: a pytree of arrays as one flat vector, and the function that undoes it.

Dtypes follow `jax.flatten_util`: the vector has the promoted dtype of the leaves (JAX's
lattice, canonical 32-bit dtypes unless x64 is on); when all leaves share one dtype the
unravel function accepts vectors of any dtype, otherwise it requires the promoted dtype and
casts every chunk back to its leaf's dtype.

Both directions are written with `core.numpy` operations (the four helpers under "Array
backend"), so they are traced like any other code: `grad`, `jit` and `vmap` see through
`ravel_pytree` and its unravel function.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

import core.numpy as jnp
from core.dtypes import dtype_and_weak, result_type
from core.errors import NumbaxError
from core.tree_util import PyTreeDef, tree_flatten

__all__ = ["ravel_pytree"]


class UnravelDtypeError(NumbaxError, TypeError):
    """The unravel function of a mixed-dtype pytree got a vector of another dtype.

    Failing code: ``flat, unravel = ravel_pytree({"a": jnp.ones(2), "b": jnp.ones(2, int)});
    unravel(flat.astype(int))``. Fix: pass a vector of ``flat``'s dtype.
    """


class UnravelInputError(NumbaxError, TypeError):
    """The unravel function got something that is not an array, e.g. a tree of the raveled
    structure instead of the flat vector (JAX's first line, from its ``asarray``).

    Failing code: ``flat, unravel = ravel_pytree(params); unravel(params)``. Fix: pass the
    flat vector, ``unravel(flat)``.
    """


class UnravelSizeError(NumbaxError, ValueError):
    """The unravel function got a vector whose length is not the number of raveled elements.

    Failing code: ``flat, unravel = ravel_pytree({"a": jnp.ones(2)}); unravel(jnp.ones(3))``.
    Fix: pass a vector of ``flat``'s length.
    """


# --------------------------------------------------------------------------------------------
# Array backend


def _ravel(x: Any, dtype: np.dtype) -> Any:
    return jnp.ravel(jnp.asarray(x)).astype(dtype)


def _concat(vectors: list[Any], dtype: np.dtype) -> Any:
    if not vectors:
        return jnp.zeros((0,), dtype)
    return jnp.concatenate(vectors)


def _split(flat: Any, sizes: tuple[int, ...]) -> list[Any]:
    flat = jnp.asarray(flat)
    bounds = np.cumsum((0, *sizes))
    return [flat[int(lo) : int(hi)] for lo, hi in zip(bounds[:-1], bounds[1:])]


def _reshape_cast(chunk: Any, shape: tuple[int, ...], dtype: np.dtype | None) -> Any:
    chunk = chunk.reshape(shape)
    return chunk if dtype is None else chunk.astype(dtype)


# --------------------------------------------------------------------------------------------


def _leaf_dtype(x: Any) -> np.dtype:
    return dtype_and_weak(x)[0]


def _result_type(dts: tuple[np.dtype, ...]) -> np.dtype:
    return result_type(*dts)


def ravel_pytree(pytree: Any) -> tuple[Any, Callable[[Any], Any]]:
    """Ravels a pytree of arrays and scalars into one 1-D array.

    Args:
      pytree: a pytree whose leaves are arrays or scalars.

    Returns:
      ``(flat, unravel)``: ``flat`` (an `Array`) concatenates the raveled leaves in flatten
      order, in their promoted dtype (``float32`` and empty when there are no leaves);
      ``unravel(flat)`` rebuilds a pytree of the original structure, shapes and dtypes.
    """
    leaves, treedef = tree_flatten(pytree)
    if not leaves:
        return _concat([], np.dtype(np.float32)), _Unravel(treedef, (), (), None, None)
    dts = tuple(_leaf_dtype(x) for x in leaves)
    to_dtype = _result_type(dts)
    sizes = tuple(int(np.size(x)) for x in leaves)
    shapes = tuple(np.shape(x) for x in leaves)
    flat = _concat([_ravel(x, to_dtype) for x in leaves], to_dtype)
    if all(dt == to_dtype for dt in dts):
        # One dtype: the unravel function keeps whatever dtype it is given (like JAX).
        return flat, _Unravel(treedef, sizes, shapes, None, None)
    return flat, _Unravel(treedef, sizes, shapes, dts, to_dtype)


class _Unravel(functools.partial):
    """The unravel function: `_unravel` with the raveled tree's description, equal (and
    hashing alike) for equal descriptions, as JAX's `HashablePartial`, so that passing it as
    a static `jit` argument does not recompile for another `ravel_pytree` of the same tree."""

    def __new__(cls, *description: Any) -> _Unravel:
        return super().__new__(cls, _unravel, *description)

    def __eq__(self, other: object) -> bool:
        return type(other) is _Unravel and self.args == other.args

    def __hash__(self) -> int:
        return hash(self.args)


def _unravel(
    treedef: PyTreeDef,
    sizes: tuple[int, ...],
    shapes: tuple[tuple[int, ...], ...],
    from_dtypes: tuple[np.dtype, ...] | None,
    to_dtype: np.dtype | None,
    flat: Any,
) -> Any:
    if not (hasattr(flat, "shape") or isinstance(flat, (bool, int, float, complex))):
        raise UnravelInputError(
            f"asarray: expected ArrayLike, got {flat} of type {type(flat)}.\n"
            "unravel takes the flat vector that ravel_pytree returned."
        )
    n = int(np.shape(flat)[0]) if np.ndim(flat) == 1 else -1
    if n != sum(sizes):
        raise UnravelSizeError(
            f"Sum of sizes {sum(sizes)} must be equal to dimension 0 of the operand shape "
            f"{list(np.shape(flat))}: unravel expects the 1-D vector made by ravel_pytree."
        )
    if to_dtype is not None:
        got = _leaf_dtype(flat)
        if got != to_dtype:
            raise UnravelDtypeError(
                f"unravel function given array of dtype {got}, but expected dtype {to_dtype}"
            )
    chunks = _split(flat, sizes)
    dts = from_dtypes or (None,) * len(sizes)
    return treedef.unflatten(
        [_reshape_cast(c, shape, dt) for c, shape, dt in zip(chunks, shapes, dts)]
    )
