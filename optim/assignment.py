"""Linear assignment (`optax.assignment.hungarian_algorithm`).

The Hungarian algorithm in the shortest-augmenting-path form with row and column potentials
(as in Optax, after e-maxx's O(n^2 m) version): one `lax.scan` step per row, each with a
`lax.while_loop` that grows the alternating tree until a free column is reached. It runs under
`core.jit` for fixed shapes. A tall matrix is solved transposed.
"""

from __future__ import annotations

from typing import Any

import core.numpy as jnp
from core import lax


def hungarian_algorithm(cost_matrix: Any) -> tuple[Any, Any]:
    """Returns a minimum-cost assignment of rows to columns.

    Args:
      cost_matrix: an `[n, m]` matrix of costs.

    Returns:
      `(i, j)`: integer arrays of length `min(n, m)`; row `i[k]` is assigned to column `j[k]`.
      For `n <= m`, `i` is `0..n-1` in order; otherwise `j` is `0..m-1`.
    """
    if cost_matrix.shape[0] == 0 or cost_matrix.shape[1] == 0:
        return jnp.zeros(0, jnp.int32), jnp.zeros(0, jnp.int32)
    transpose = cost_matrix.shape[0] > cost_matrix.shape[1]
    if transpose:
        cost_matrix = cost_matrix.T
    rows, cols = cost_matrix.shape

    def row_fn(state, row):
        u, v, parent = state

        def dfs_body_fn(s):
            u, v, used, minv, path, col = s
            used = used.at[col].set(True)
            unused = jnp.logical_not(used[1:])
            r = parent[col]
            cur = cost_matrix[r - 1, :] - u[r] - v[1:]
            cur = jnp.where(unused, cur, jnp.inf)
            path = jnp.where(cur < minv, col, path)
            minv = jnp.where(cur < minv, cur, minv)
            masked = jnp.where(unused, minv, jnp.inf)
            col = (jnp.argmin(masked) + 1).astype(jnp.int32)
            delta = jnp.min(masked)
            # Rows of used columns get +delta; the others write to the spare slot rows + 1.
            indices = jnp.where(used, parent, rows + 1)
            u = u.at[indices].add(delta)
            v = jnp.where(used, v - delta, v)
            minv = jnp.where(unused, minv - delta, minv)
            return u, v, used, minv, path, col

        def back_body_fn(s):
            parent, old_col = s
            new_col = path[old_col - 1]
            return parent.at[old_col].set(parent[new_col]), new_col

        parent = parent.at[0].set(row + 1)
        s = (
            u,
            v,
            jnp.zeros(cols + 1, bool),
            jnp.full(cols, jnp.inf, u.dtype),
            jnp.zeros(cols, jnp.int32),
            jnp.asarray(0, jnp.int32),
        )
        u, v, _, _, path, col = lax.while_loop(lambda s: parent[s[-1]] != 0, dfs_body_fn, s)
        parent, _ = lax.while_loop(lambda s: s[1] != 0, back_body_fn, (parent, col))
        return (u, v, parent), None

    dtype = jnp.result_type(cost_matrix, jnp.float32)
    cost_matrix = cost_matrix.astype(dtype)
    init = (jnp.zeros(rows + 2, dtype), jnp.zeros(cols + 1, dtype), jnp.zeros(cols + 1, jnp.int32))
    (_, _, parent), _ = lax.scan(row_fn, init, jnp.arange(rows, dtype=jnp.int32))
    if rows == cols:
        parent, indices = parent[1:], jnp.arange(rows, dtype=jnp.int32)
    else:
        parent, indices = lax.top_k(parent[1:], rows)
        indices = indices.astype(jnp.int32)
    parent = parent - 1
    if transpose:
        return indices, parent
    return parent, indices


__all__ = ["hungarian_algorithm"]
