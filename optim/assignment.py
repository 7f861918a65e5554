"""Linear assignment (`optax.assignment.hungarian_algorithm` and `base_hungarian_algorithm`).

The Hungarian algorithm in the shortest-augmenting-path form with row and column potentials
(as in Optax, after e-maxx's O(n^2 m) version): one `lax.scan` step per row, each with a
`lax.while_loop` that grows the alternating tree until a free column is reached. It runs under
`core.jit` for fixed shapes. A tall matrix is solved transposed.

`base_hungarian_algorithm` is Optax's port of SciPy's Jonker-Volgenant solver (a shortest
augmenting path per row over the remaining columns, with dual potentials `u`, `v`), kept for
programs that call it; both give a minimum-cost assignment (they may differ on ties).
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


def base_hungarian_algorithm(cost_matrix: Any) -> tuple[Any, Any]:
    """Returns a minimum-cost assignment by Jonker-Volgenant shortest augmenting paths (SciPy's
    `linear_sum_assignment` algorithm, as Optax's reference implementation).

    Args:
      cost_matrix: an `[n, m]` matrix of costs.

    Returns:
      `(i, j)` like `hungarian_algorithm`: row `i[k]` goes to column `j[k]`; `i` is sorted.
    """
    if cost_matrix.shape[0] == 0 or cost_matrix.shape[1] == 0:
        return jnp.zeros(0, int), jnp.zeros(0, int)
    transpose = cost_matrix.shape[1] < cost_matrix.shape[0]
    if transpose:
        cost_matrix = cost_matrix.T
    cost_matrix = cost_matrix.astype(float)
    n, m = cost_matrix.shape
    init = (
        cost_matrix,
        jnp.zeros(n, cost_matrix.dtype),
        jnp.zeros(m, cost_matrix.dtype),
        jnp.full(m, -1),
        jnp.full(m, -1),
        jnp.full(n, -1),
    )
    *_, col4row = lax.fori_loop(0, n, _lsa_row, init)
    if transpose:
        order = jnp.argsort(col4row)
        return col4row[order], order
    return jnp.arange(n), col4row


def _scan_column(it, val):
    """One remaining column `j` of the shortest-path search from row `i`."""
    remaining, min_value, costs, i, u, v, costs_to, path, lowest, row4col, index = val
    j = remaining[it]
    r = min_value + costs[i, j] - u[i] - v[j]
    path = path.at[j].set(jnp.where(r < costs_to[j], i, path[j]))
    costs_to = costs_to.at[j].min(r)
    index = jnp.where(
        (costs_to[j] < lowest) | ((costs_to[j] == lowest) & (row4col[j] == -1)), it, index
    )
    lowest = jnp.minimum(lowest, costs_to[j])
    return remaining, min_value, costs, i, u, v, costs_to, path, lowest, row4col, index


def _visit_column(val):
    """Marks the closest column visited: a free one ends the path, else continue from its row."""
    remaining, index, row4col, sink, i, sc, num_remaining = val
    j = remaining[index]
    free = row4col[j] == -1
    sink = jnp.where(free, j, sink)
    i = jnp.where(free, i, row4col[j])
    sc = sc.at[j].set(True)
    num_remaining = num_remaining - 1
    remaining = remaining.at[index].set(remaining[num_remaining])
    return remaining, sink, i, sc, num_remaining


def _search_step(val):
    costs, u, v, path, row4col, row, min_value, num_remaining, remaining, sr, sc, costs_to, sink = (
        val
    )
    sr = sr.at[row].set(True)
    init = (remaining, min_value, costs, row, u, v, costs_to, path, jnp.inf, row4col, -1)
    out = lax.fori_loop(0, num_remaining, _scan_column, init)
    remaining, _, costs, row, u, v, costs_to, path, lowest, row4col, index = out
    min_value = lowest
    sink = jnp.where(min_value == jnp.inf, -1, sink)
    visited = _visit_column((remaining, index, row4col, sink, row, sc, num_remaining))
    keep = (remaining, sink, row, sc, num_remaining)
    remaining, sink, row, sc, num_remaining = (
        jnp.where(sink == -1, a, b) for a, b in zip(visited, keep)
    )
    return (
        costs, u, v, path, row4col, row, min_value, num_remaining, remaining, sr, sc, costs_to, sink
    )  # fmt: skip


def _lsa_row(row, val):
    """Assigns `row` along a shortest augmenting path and updates the potentials."""
    costs, u, v, path, row4col, col4row = val
    n, m = costs.shape
    init = (
        costs, u, v, path, row4col, row, 0.0, m, jnp.arange(m)[::-1],
        jnp.zeros(n, bool), jnp.zeros(m, bool), jnp.full(m, jnp.inf), -1,
    )  # fmt: skip
    out = lax.while_loop(lambda s: s[-1] == -1, _search_step, init)
    _, _, _, path, _, _, min_value, _, _, sr, sc, costs_to, sink = out
    u = u.at[row].add(min_value)
    mask = sr & (jnp.arange(n) != row)
    u = jnp.where(mask, u + min_value - costs_to[col4row], u)
    v = jnp.where(sc, v + costs_to - min_value, v)

    def flip_edge(state):
        # Match `col` to the row the path reached it from; that row's old column is next.
        col, row4col, col4row, _ = state
        via = path[col]
        next_col = col4row[via]
        return next_col, row4col.at[col].set(via), col4row.at[via].set(col), via == row

    def not_back_at_row(state):
        return jnp.logical_not(state[-1])

    _, row4col, col4row, _ = lax.while_loop(
        not_back_at_row, flip_edge, (sink, row4col, col4row, False)
    )
    return costs, u, v, path, row4col, col4row
