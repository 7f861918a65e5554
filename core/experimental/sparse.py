"""`jax.experimental.sparse`: numbax's subset, the batched-COO matrix `BCOO` without batch or
dense dimensions (`n_batch == n_dense == 0`), the form graph programs use for adjacency
matrices.

A `BCOO` holds `data` (nse,) and `indices` (nse, ndim) (int32 by default) and is a pytree of
those two, so it passes through `jit`, `grad` (of `data`) and `vmap` of a dense operand.
Entries whose index equals the dimension's size are padding: `todense` and products drop them,
as JAX's do. Products with dense arrays (`mat @ x`, `x @ mat`) gather the dense operand at the
indices and sum by `segment_sum`; everything is built from `core.numpy`, so JAX's rules of
differentiation follow. Sparse @ sparse (2-D) and sparse + sparse give `BCOO`s laid out as
JAX's. JAX's `sparsify`, BCSR/CSR/COO and batch and dense dimensions are not implemented
(`SparseUnsupportedError` says so).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

import core.numpy as jnp
from core import ops
from core.trace import Tracer
from core.tree_util import register_pytree_node_class
from numbax.errors import NumbaxError

__all__ = [
    "BCOO",
    "JAXSparse",
    "SparseUnsupportedError",
    "bcoo_extract",
    "bcoo_fromdense",
    "bcoo_multiply_dense",
    "bcoo_reduce_sum",
    "bcoo_sort_indices",
    "bcoo_sum_duplicates",
    "bcoo_todense",
    "bcoo_transpose",
    "eye",
    "todense",
]


class SparseUnsupportedError(NumbaxError, NotImplementedError):
    """A `jax.experimental.sparse` feature numbax does not implement: batch or dense dimensions
    of a `BCOO`, a product of two sparse matrices, other formats.

    Failing code: ``BCOO.fromdense(x, n_batch=1)`` or ``a @ b`` with both `BCOO`. Fix: keep
    `n_batch=0, n_dense=0` (vmap over a batch instead), or densify one side
    (``a @ b.todense()``).
    """


class SparseDensifyError(NumbaxError, NotImplementedError):
    """A sparse array plus a dense array of another shape (a scalar included): JAX refuses the
    silent densification.

    Failing code: ``mat + 1``. Fix: ``mat.todense() + 1``, or add a dense array of the
    matrix's shape.
    """

    def __init__(self) -> None:
        super().__init__(
            # JAX 0.10.2's message
            "Addition between a sparse array X and a dense array Y is not implemented when the "
            "output shape is larger than Y.shape. This is to prevent silent densification of a "
            "large sparse array. If this is your intent, you can explicitly cast the sparse "
            "array to a dense matrix."
        )


class SparseSubtractionError(NumbaxError, NotImplementedError):
    """A sparse array minus a dense one, or the reverse (JAX's NotImplementedError).

    Failing code: ``mat - x``. Fix: ``mat.todense() - x``.
    """

    def __init__(self) -> None:
        super().__init__(
            # JAX 0.10.2's message, then the fix
            "Subtraction between sparse and dense array.\nDensify the sparse one: "
            "mat.todense() - x."
        )


class SparseArgumentError(NumbaxError, TypeError):
    """A `bcoo_*` function got a dense array where it takes a `BCOO` (JAX's TypeError).

    Failing code: ``bcoo_extract(mat.indices, x)``. Fix: pass the `BCOO` itself,
    ``bcoo_extract(mat, x)``.
    """


class SparseNseError(NumbaxError, ValueError):
    """`bcoo_sum_duplicates` needs `nse` when the indices are traced (JAX's ValueError).

    Failing code: ``jit(lambda m: bcoo_sum_duplicates(m))(mat)``. Fix: pass ``nse=``, the
    number of entries the result keeps.
    """

    def __init__(self) -> None:
        super().__init__(
            # JAX 0.10.2's message, then the fix
            "bcoo_sum_duplicates: nse must be specified when using the function within jit, "
            "vmap, and other transformations requiring abstract evaluation.\n"
            "Pass nse=, the number of distinct entries to keep."
        )


class JAXSparse:
    """Base class of numbax's sparse arrays (`jax.experimental.sparse.JAXSparse`)."""

    data: Any
    indices: Any
    shape: tuple[int, ...]


@register_pytree_node_class
class BCOO(JAXSparse):
    """A sparse array in (batched) coordinate format, without batch or dense dimensions.

    Args:
      args: `(data, indices)`: the nse stored values and their (nse, ndim) integer indices.
      shape: the dense shape.
      indices_sorted: whether the indices are in row-major order (recorded, as JAX does).
      unique_indices: whether no index repeats (recorded).
    """

    def __init__(
        self,
        args: tuple[Any, Any],
        *,
        shape: Sequence[int],
        indices_sorted: bool = False,
        unique_indices: bool = False,
    ) -> None:
        data, indices = args
        self.data = jnp.asarray(data)
        self.indices = jnp.asarray(indices)
        self.shape = tuple(int(s) for s in shape)
        self.indices_sorted = indices_sorted
        self.unique_indices = unique_indices
        n_batch = self.indices.ndim - 2
        n_dense = self.data.ndim - 1 - n_batch
        if n_batch != 0 or n_dense != 0:
            raise SparseUnsupportedError(
                f"numbax's BCOO has no batch or dense dimensions (got n_batch={n_batch}, "
                f"n_dense={n_dense}).\nStore data of shape (nse,) and indices of shape "
                "(nse, ndim), and vmap over a batch."
            )
        if self.indices.shape[-1] != len(self.shape):
            raise ValueError(
                f"BCOO indices have {self.indices.shape[-1]} columns for a shape of "
                f"{len(self.shape)} dimensions {self.shape}.\nGive one index column per "
                "dimension."
            )

    # pytree: the arrays are children, the shape and layout flags static
    def tree_flatten(self) -> tuple[tuple[Any, Any], dict[str, Any]]:
        aux = {
            "shape": self.shape,
            "indices_sorted": self.indices_sorted,
            "unique_indices": self.unique_indices,
        }
        return (self.data, self.indices), aux

    @classmethod
    def tree_unflatten(cls, aux: dict[str, Any], children: Sequence[Any]) -> BCOO:
        obj = object.__new__(cls)
        obj.data, obj.indices = children
        obj.shape = aux["shape"]
        obj.indices_sorted = aux["indices_sorted"]
        obj.unique_indices = aux["unique_indices"]
        return obj

    @property
    def dtype(self) -> Any:
        """The stored values' dtype."""
        return self.data.dtype

    @property
    def ndim(self) -> int:
        """The number of dense dimensions."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """The number of elements of the dense array."""
        return math.prod(self.shape)

    @property
    def nse(self) -> int:
        """The number of stored entries (padding included)."""
        return int(self.indices.shape[-2])

    @property
    def n_batch(self) -> int:
        """Batch dimensions: always 0 in numbax."""
        return 0

    @property
    def n_sparse(self) -> int:
        """Sparse dimensions: all of them."""
        return int(self.indices.shape[-1])

    @property
    def n_dense(self) -> int:
        """Dense dimensions: always 0 in numbax."""
        return 0

    @property
    def T(self) -> BCOO:  # noqa: N802 (JAX's name)
        """The transpose (reversed axes)."""
        return self.transpose()

    def __repr__(self) -> str:
        dims = ", ".join(str(s) for s in self.shape)
        return f"BCOO({np.dtype(self.dtype).name}[{dims}], nse={self.nse})"

    @classmethod
    def fromdense(
        cls,
        mat: Any,
        *,
        nse: int | None = None,
        index_dtype: Any = np.int32,
        n_dense: int = 0,
        n_batch: int = 0,
    ) -> BCOO:
        """The nonzero entries of a dense array, in row-major order.

        Args:
          mat: the dense array.
          nse: how many entries to store (padding with index `shape` and value 0 past the
            nonzeros); required under `jit` (the count must be concrete).
          index_dtype: the indices' dtype.
          n_dense: dense dimensions (only 0).
          n_batch: batch dimensions (only 0).

        Returns:
          The `BCOO` matrix, sorted and unique.
        """
        return bcoo_fromdense(mat, nse=nse, index_dtype=index_dtype, n_dense=n_dense,
                              n_batch=n_batch)  # fmt: skip

    @classmethod
    def from_scipy_sparse(
        cls, mat: Any, *, index_dtype: Any = None, n_dense: int = 0, n_batch: int = 0
    ) -> BCOO:
        """A SciPy sparse matrix (any format) as a `BCOO`, in its COO entries' order.

        Args:
          mat: the SciPy sparse matrix.
          index_dtype: the indices' dtype (default int32).
          n_dense: dense dimensions (only 0).
          n_batch: batch dimensions (only 0).

        Returns:
          The `BCOO` matrix (neither sorted nor unique, as JAX records).
        """
        if n_batch or n_dense:
            raise SparseUnsupportedError(
                f"numbax's BCOO has no batch or dense dimensions (got n_batch={n_batch}, "
                f"n_dense={n_dense}).\nUse n_batch=0, n_dense=0."
            )
        coo = mat.tocoo()
        indices = np.stack([coo.row, coo.col], axis=1)
        return cls((jnp.asarray(coo.data), jnp.asarray(indices, index_dtype or np.int32)),
                   shape=coo.shape)  # fmt: skip

    def block_until_ready(self) -> BCOO:
        """Waits for the data and indices; returns the matrix."""
        self.data.block_until_ready()
        self.indices.block_until_ready()
        return self

    def todense(self) -> Any:
        """The dense array (padding entries dropped, repeated indices summed)."""
        return bcoo_todense(self)

    def transpose(self, axes: Sequence[int] | None = None) -> BCOO:
        """The matrix with its axes permuted.

        Args:
          axes: the permutation (default: reversed).

        Returns:
          The transposed `BCOO`.
        """
        perm = tuple(reversed(range(self.ndim))) if axes is None else tuple(axes)
        return bcoo_transpose(self, permutation=perm)

    def sum_duplicates(self, nse: int | None = None) -> BCOO:
        """`bcoo_sum_duplicates` of this matrix."""
        return bcoo_sum_duplicates(self, nse=nse)

    def sort_indices(self) -> BCOO:
        """`bcoo_sort_indices` of this matrix."""
        return bcoo_sort_indices(self)

    def astype(self, dtype: Any) -> BCOO:
        """The matrix with its values cast to `dtype`."""
        return self._with_data(self.data.astype(dtype))

    def sum(self, axis: int | Sequence[int] | None = None) -> Any:
        """The sum over `axis`: a dense scalar over every axis, else a `BCOO` of the rest.

        Args:
          axis: an axis or axes (default: all).

        Returns:
          The sum.
        """
        axes = range(self.ndim) if axis is None else (axis,) if isinstance(axis, int) else axis
        if len({a % self.ndim for a in axes}) == self.ndim:
            return jnp.sum(self.data)
        return bcoo_reduce_sum(self, axes=axes)

    def __matmul__(self, other: Any) -> Any:
        if isinstance(other, JAXSparse):
            return _spmatmul(self, other)
        return _matmul(self, jnp.asarray(other))

    def __add__(self, other: Any) -> Any:
        if isinstance(other, JAXSparse):
            if other.shape != self.shape:
                raise ValueError(
                    "Incompatible shapes for broadcasting: shapes="
                    f"[{self.shape}, {other.shape}]\nAdd sparse arrays of the same shape."
                )
            data = jnp.concatenate([self.data, other.data])
            indices = jnp.concatenate([self.indices, other.indices.astype(self.indices.dtype)])
            return BCOO((data, indices), shape=self.shape)
        other = jnp.asarray(other)
        if other.shape != self.shape:
            raise SparseDensifyError()
        return self.todense() + other

    __radd__ = __add__

    def __sub__(self, other: Any) -> BCOO:
        if not isinstance(other, JAXSparse):
            raise SparseSubtractionError()
        return self + (-other)

    def __rsub__(self, other: Any) -> BCOO:
        raise SparseSubtractionError()

    def __rmatmul__(self, other: Any) -> Any:
        other = jnp.asarray(other)
        if other.ndim == 1:
            return _matmul(self.T, other)
        return jnp.swapaxes(_matmul(self.T, jnp.swapaxes(other, -1, -2)), -1, -2)

    def __mul__(self, other: Any) -> BCOO:
        other = jnp.asarray(other)
        if other.ndim == 0:
            return self._with_data(self.data * other)
        dense = jnp.broadcast_to(other, self.shape)
        return self._with_data(self.data * _gather(dense, self.indices))

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> BCOO:
        return self._with_data(self.data / jnp.asarray(other))

    def __neg__(self) -> BCOO:
        return self._with_data(-self.data)

    def _with_data(self, data: Any) -> BCOO:
        return BCOO((data, self.indices), shape=self.shape, indices_sorted=self.indices_sorted,
                    unique_indices=self.unique_indices)  # fmt: skip


def _gather(dense: Any, indices: Any) -> Any:
    """`dense` at each row of `indices`, 0 at padding indices."""
    where = tuple(indices[:, d] for d in range(dense.ndim))
    return dense.at[where].get(mode="fill", fill_value=0)


def _matmul(mat: BCOO, other: Any) -> Any:
    """`mat @ other` for a 1-D or 2-D `mat` and a dense `other`."""
    if mat.ndim not in (1, 2) or other.ndim == 0:
        raise SparseUnsupportedError(
            f"numbax's BCOO products take a 1-D or 2-D sparse matrix and a dense array with "
            f"at least one dimension (got {mat.shape} and {other.shape}).\nDensify with "
            "todense() for other ranks."
        )
    contracted = other.shape[0] if other.ndim <= 2 else other.shape[-2]
    if mat.shape[-1] != contracted or other.ndim > 2:
        raise TypeError(
            "dot_general requires contracting dimensions to have the same shape, got "
            f"({mat.shape[-1]},) and ({contracted},)."
        )
    dtype = jnp.result_type(mat.data, other)
    cols = mat.indices[:, -1]
    picked = jnp.take(other.astype(dtype), cols, axis=0, mode="fill", fill_value=0)
    terms = mat.data.astype(dtype).reshape((-1,) + (1,) * (other.ndim - 1)) * picked
    if mat.ndim == 1:
        return jnp.sum(terms, axis=0)
    return ops.segment_sum(terms, mat.indices[:, 0], num_segments=mat.shape[0])


def _spmatmul(lhs: BCOO, rhs: BCOO) -> BCOO:
    """`lhs @ rhs` of two 2-D `BCOO`s as JAX forms it: the products of every pair of entries
    (0 where the contracted indices differ), duplicates summed into min(pairs, size) entries
    in row-major order (padding after), flagged neither sorted nor unique."""
    if lhs.ndim != 2 or rhs.ndim != 2:
        raise SparseUnsupportedError(
            f"numbax multiplies two sparse matrices only when both are 2-D (got {lhs.shape} "
            f"and {rhs.shape}).\nDensify one side: a @ b.todense()."
        )
    if lhs.shape[1] != rhs.shape[0]:
        raise TypeError(
            "dot_general requires contracting dimensions to have the same shape, got "
            f"({lhs.shape[1]},) and ({rhs.shape[0]},)."
        )
    meet = lhs.indices[:, 1][:, None] == rhs.indices[:, 0][None, :]
    dtype = jnp.result_type(lhs.data, rhs.data)
    data = jnp.where(meet, lhs.data[:, None].astype(dtype) * rhs.data[None, :].astype(dtype), 0)
    rows = jnp.broadcast_to(lhs.indices[:, 0][:, None], meet.shape)
    cols = jnp.broadcast_to(rhs.indices[:, 1][None, :].astype(lhs.indices.dtype), meet.shape)
    indices = jnp.stack([rows.ravel(), cols.ravel()], axis=1)
    pairs = BCOO((data.ravel(), indices), shape=(lhs.shape[0], rhs.shape[1]))
    summed = bcoo_sum_duplicates(pairs, nse=min(meet.size, pairs.size))
    return BCOO((summed.data, summed.indices), shape=pairs.shape)


def bcoo_fromdense(
    mat: Any,
    *,
    nse: int | None = None,
    n_batch: int = 0,
    n_dense: int = 0,
    index_dtype: Any = np.int32,
) -> BCOO:
    """A dense array's nonzero entries as a `BCOO` (see `BCOO.fromdense`).

    Args:
      mat: the dense array.
      nse: the number of entries to store; required under `jit`.
      n_batch: batch dimensions (only 0).
      n_dense: dense dimensions (only 0).
      index_dtype: the indices' dtype.

    Returns:
      The `BCOO` matrix.
    """
    if n_batch or n_dense:
        raise SparseUnsupportedError(
            f"numbax's BCOO has no batch or dense dimensions (got n_batch={n_batch}, "
            f"n_dense={n_dense}).\nUse n_batch=0, n_dense=0 and vmap over a batch."
        )
    mat = jnp.asarray(mat)
    nonzero = mat != 0
    if nse is None:
        nse = int(jnp.sum(nonzero))
    found = jnp.nonzero(nonzero, size=nse, fill_value=tuple(mat.shape))
    indices = jnp.stack(found, axis=1).astype(index_dtype) if found else jnp.zeros(
        (nse, 0), index_dtype)  # fmt: skip
    data = _gather(mat, indices)
    return BCOO((data, indices), shape=mat.shape, indices_sorted=True, unique_indices=True)


def bcoo_reduce_sum(mat: BCOO, *, axes: Sequence[int]) -> BCOO:
    """The sum of a `BCOO` over `axes`: the other axes' indices kept (entries now repeat).

    Args:
      mat: the sparse matrix.
      axes: the axes to sum over.

    Returns:
      The `BCOO` of the remaining axes.
    """
    summed = {int(a) % mat.ndim for a in axes}
    kept = [d for d in range(mat.ndim) if d not in summed]
    return BCOO((mat.data, mat.indices[:, kept]), shape=[mat.shape[d] for d in kept])


def bcoo_multiply_dense(sp_mat: BCOO, v: Any) -> Any:
    """The stored values of `sp_mat * v` (a dense `v` broadcast to the matrix's shape).

    Args:
      sp_mat: the sparse matrix.
      v: the dense array.

    Returns:
      The product's data array (the indices are `sp_mat`'s), as JAX returns.
    """
    dense = jnp.broadcast_to(jnp.asarray(v), sp_mat.shape)
    return sp_mat.data * _gather(dense, sp_mat.indices)


def bcoo_extract(sparr: BCOO, arr: Any, *, assume_unique: bool | None = None) -> BCOO:
    """A dense array's values at a `BCOO`'s indices, as a `BCOO` of the same layout.

    Args:
      sparr: the sparse matrix whose indices are read.
      arr: the dense array.
      assume_unique: whether the indices never repeat (default: `sparr.unique_indices`);
        if not, a repeated index takes the value at its first entry and 0 after.

    Returns:
      The `BCOO` of `arr`'s values.
    """
    if not isinstance(sparr, BCOO):
        raise SparseArgumentError(  # JAX 0.10.2's first line, then the fix
            f"First argument to bcoo_extract should be a BCOO array. Got {type(sparr)=}\n"
            "pass the BCOO whose indices are read (not its indices array)."
        )
    values = _gather(jnp.asarray(arr), sparr.indices)
    unique = sparr.unique_indices if assume_unique is None else assume_unique
    if not unique:
        flat = _linear(sparr)
        order = jnp.argsort(flat, stable=True)
        ordered = flat[order]
        first_sorted = jnp.concatenate([jnp.array([True]), ordered[1:] != ordered[:-1]])
        first = jnp.zeros(flat.shape, bool).at[order].set(first_sorted)
        values = jnp.where(first, values, jnp.zeros((), values.dtype))
    return BCOO((values, sparr.indices), shape=sparr.shape, indices_sorted=sparr.indices_sorted,
                unique_indices=sparr.unique_indices)  # fmt: skip


def bcoo_todense(mat: BCOO) -> Any:
    """The dense array of a `BCOO` (padding dropped, repeated indices summed).

    Args:
      mat: the sparse matrix.

    Returns:
      The dense array.
    """
    where = tuple(mat.indices[:, d] for d in range(mat.ndim))
    return jnp.zeros(mat.shape, mat.dtype).at[where].add(mat.data, mode="drop")


def todense(arr: Any) -> Any:
    """A sparse array's dense array; a dense array unchanged.

    Args:
      arr: a `BCOO` or an array.

    Returns:
      The dense array.
    """
    return arr.todense() if isinstance(arr, JAXSparse) else arr


def bcoo_transpose(mat: BCOO, *, permutation: Sequence[int]) -> BCOO:
    """A `BCOO` with its axes permuted.

    Args:
      mat: the sparse matrix.
      permutation: the new order of the axes.

    Returns:
      The transposed matrix (its indices no longer sorted, as JAX records).
    """
    perm = [int(p) % mat.ndim for p in permutation]
    if sorted(perm) != list(range(mat.ndim)):
        raise ValueError(
            f"bcoo_transpose: permutation {tuple(permutation)} is not a permutation of the "
            f"{mat.ndim} axes.\nList each axis once."
        )
    return BCOO((mat.data, mat.indices[:, perm]), shape=[mat.shape[p] for p in perm],
                indices_sorted=False, unique_indices=mat.unique_indices)  # fmt: skip


def _linear(mat: BCOO) -> Any:
    """Each entry's row-major position; padding entries at `mat.size`."""
    dtype = mat.indices.dtype
    valid = jnp.all(mat.indices < jnp.asarray(mat.shape, dtype), axis=1)
    strides = np.cumprod((mat.shape[1:] + (1,))[::-1])[::-1]
    flat = jnp.sum(mat.indices * jnp.asarray(strides, dtype), axis=1)
    return jnp.where(valid, flat, mat.size)


def bcoo_sort_indices(mat: BCOO) -> BCOO:
    """A `BCOO` with its entries in row-major order of their indices (a stable sort,
    repeated indices kept, padding last).

    Args:
      mat: the sparse matrix.

    Returns:
      The sorted matrix.
    """
    order = jnp.argsort(_linear(mat), stable=True)
    return BCOO((mat.data[order], mat.indices[order]), shape=mat.shape, indices_sorted=True,
                unique_indices=mat.unique_indices)  # fmt: skip


def bcoo_sum_duplicates(mat: BCOO, nse: int | None = None) -> BCOO:
    """A `BCOO` whose repeated indices are summed into one entry, in row-major order.

    Args:
      mat: the sparse matrix.
      nse: how many entries to keep (padding with index `shape` and value 0); by default the
        number of distinct indices, which must then be concrete (not under `jit`).

    Returns:
      The matrix with unique, sorted indices.
    """
    flat = _linear(mat)
    if nse is None:
        if isinstance(mat.indices, Tracer):
            raise SparseNseError()
        distinct = np.unique(np.asarray(flat))
        nse = int(np.sum(distinct < mat.size))
    unique = jnp.unique(flat, size=nse, fill_value=mat.size)
    slot = jnp.searchsorted(unique, flat)
    slot = jnp.where((flat < mat.size) & (unique[jnp.minimum(slot, nse - 1)] == flat), slot, nse)
    data = jnp.zeros(nse, mat.dtype).at[slot].add(mat.data, mode="drop")
    positions = jnp.stack(jnp.unravel_index(jnp.minimum(unique, mat.size - 1), mat.shape), 1)
    padding = jnp.asarray(mat.shape, mat.indices.dtype)
    indices = jnp.where((unique < mat.size)[:, None], positions.astype(mat.indices.dtype),
                        padding)  # fmt: skip
    return BCOO((data, indices), shape=mat.shape, indices_sorted=True, unique_indices=True)


def eye(
    N: int,  # noqa: N803 (JAX's name)
    M: int | None = None,  # noqa: N803
    k: int = 0,
    dtype: Any = None,
    index_dtype: Any = np.int32,
    sparse_format: str = "bcoo",
) -> BCOO:
    """A sparse identity-like matrix: ones on diagonal `k` of an N x M matrix.

    Args:
      N: rows.
      M: columns (default N).
      k: the diagonal (positive above the main one).
      dtype: the values' dtype (default float).
      index_dtype: the indices' dtype.
      sparse_format: only "bcoo".

    Returns:
      The `BCOO` matrix.
    """
    if sparse_format != "bcoo":
        raise SparseUnsupportedError(
            f"numbax's sparse.eye makes BCOO matrices only (got sparse_format={sparse_format!r})."
            "\nUse sparse_format='bcoo'."
        )
    M = N if M is None else M  # noqa: N806
    start_row, start_col = max(0, -k), max(0, k)
    length = max(0, min(N - start_row, M - start_col))
    rows = np.arange(start_row, start_row + length)
    indices = jnp.asarray(np.stack([rows, rows - start_row + start_col], 1), index_dtype)
    data = jnp.ones(length) if dtype is None else jnp.ones(length, dtype)
    return BCOO((data, indices), shape=(N, M), indices_sorted=True, unique_indices=True)
