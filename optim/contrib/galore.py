"""GaLore (Zhao et al., 2024): the base optimizer runs on low-rank projections of the gradients.

Each matrix gradient `G` (m x n, higher ranks reshaped by `GaLoreDimensionNumbers`) is projected
to `P^T G` (r x n, with `P` the top-`rank` left singular vectors, when m >= n) or `G Q` (m x r,
right singular vectors, when m < n); the base optimizer (Adam by default) keeps its state in that
small space, and its update is projected back and scaled. The projector is recomputed from the
current gradient's SVD every `update_proj_gap` steps. Leaves of rank < 2 (biases) pass through
the base optimizer unprojected.
"""

import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import core.numpy as jnp
from core import lax, tree_util
from optim.base import GradientTransformation, ScalarOrSchedule
from optim.combine import chain
from optim.errors import OptimizerArgumentError
from optim.numerics import safe_int32_increment
from optim.transforms import add_decayed_weights, scale_by_adam, scale_by_learning_rate


class GaLoreDimensionNumbers(NamedTuple):
    """The axes of a parameter that form the matrix's rows (reduction) and columns (output);
    together they must cover every axis."""

    reduction_axis: Sequence[int] | int = 0
    output_axis: Sequence[int] | int = 1


class GaLoreState(NamedTuple):
    """State of `scale_by_galore`: the step count, the base optimizer's state (over the
    low-rank gradients) and one projector per leaf (a (0, 0) array for unprojected leaves)."""

    count: Any
    base_optimizer_state: Any
    projector: Any


def _is_dim_nums(x: Any) -> bool:
    return isinstance(x, GaLoreDimensionNumbers)


def _is_dim_nums_leaf(x: Any) -> bool:
    return x is None or isinstance(x, GaLoreDimensionNumbers)


def _reshape_fns(x: Any, dim_nums: GaLoreDimensionNumbers) -> tuple[Callable, Callable]:
    if x.ndim < 2:
        raise OptimizerArgumentError(f"GaLore requires tensors with rank >= 2, got shape {x.shape}")

    def norm(axes):
        return (axes % x.ndim,) if isinstance(axes, int) else tuple(a % x.ndim for a in axes)

    reduction, output = norm(dim_nums.reduction_axis), norm(dim_nums.output_axis)
    if set(reduction) & set(output):
        raise OptimizerArgumentError(
            f"Reduction axes {reduction} and output axes {output} must be disjoint. Got "
            f"dim_nums={dim_nums} for shape {x.shape}"
        )
    if len(set(reduction) | set(output)) != x.ndim:
        raise OptimizerArgumentError(
            f"All axes must be specified. Got reduction={reduction}, output={output} for tensor "
            f"with {x.ndim} dimensions"
        )
    perm = reduction + output
    inverse = tuple(sorted(range(x.ndim), key=lambda i: perm[i]))
    rows = math.prod(x.shape[a] for a in reduction)
    cols = math.prod(x.shape[a] for a in output)
    transposed = tuple(x.shape[a] for a in perm)
    return (
        lambda y: jnp.reshape(jnp.transpose(y, perm), (rows, cols)),
        lambda y: jnp.transpose(jnp.reshape(y, transposed), inverse),
    )


def scale_by_galore(
    rank: int = 128,
    update_proj_gap: int = 200,
    scale: float = 1.0,
    base_optimizer: GradientTransformation | None = None,
    weight_dimension_numbers: Any = None,
) -> GradientTransformation:
    """GaLore's low-rank projection around `base_optimizer`.

    Args:
      rank: the projection rank (capped by the matrix's dimensions).
      update_proj_gap: steps between recomputations of the projectors.
      scale: multiplies the projected-back updates.
      base_optimizer: the optimizer of the low-rank gradients (default `scale_by_adam()`).
      weight_dimension_numbers: None (2-D leaves are projected), one `GaLoreDimensionNumbers`
        for every leaf of rank >= 2, a tree of them (None: not projected), or a function of
        the params giving that tree.

    Returns:
      A `GradientTransformation` with state `GaLoreState`.

    Raises:
      TypeError: `rank` is not an int.
      OptimizerArgumentError: `rank` is not positive (a `ValueError`, as in Optax).
    """
    if base_optimizer is None:
        base_optimizer = scale_by_adam()
    if not isinstance(rank, int):
        raise TypeError(f"`rank` must be an int, got {type(rank)}")
    if rank <= 0:
        raise OptimizerArgumentError(f"`rank` must be positive, got {rank}")

    def dim_nums_of(params):
        spec = weight_dimension_numbers
        if spec is None:
            return tree_util.tree_map(
                lambda p: GaLoreDimensionNumbers() if p.ndim == 2 else None, params
            )
        if callable(spec) and not _is_dim_nums(spec):
            return spec(params)
        if _is_dim_nums(spec):
            return tree_util.tree_map(lambda p: spec if p.ndim >= 2 else None, params)
        return spec

    def shapes(p, dim_num):
        if dim_num is None:
            return jnp.zeros((0, 0), dtype=p.dtype), jnp.zeros_like(p)
        m, n = _reshape_fns(p, dim_num)[0](p).shape
        r = min(rank, m, n)
        if m >= n:
            return jnp.zeros((m, r), dtype=p.dtype), jnp.zeros((r, n), dtype=p.dtype)
        return jnp.zeros((n, r), dtype=p.dtype), jnp.zeros((m, r), dtype=p.dtype)

    def init_fn(params):
        if not tree_util.tree_leaves(params):
            return GaLoreState(jnp.zeros([], jnp.int32), base_optimizer.init(params), params)
        dim_nums = dim_nums_of(params)
        pairs = tree_util.tree_map(shapes, params, dim_nums, is_leaf=_is_dim_nums_leaf)
        treedef = tree_util.tree_structure(params)
        leaves = treedef.flatten_up_to(pairs)
        projectors = treedef.unflatten([a for a, _ in leaves])
        proxies = treedef.unflatten([b for _, b in leaves])
        return GaLoreState(jnp.zeros([], jnp.int32), base_optimizer.init(proxies), projectors)

    def update_fn(updates, state, params=None):
        del params
        refresh = state.count % update_proj_gap == 0
        dim_nums = dim_nums_of(updates)

        def project(grad, projector, dim_num):
            if dim_num is None:
                return grad, projector
            g2 = _reshape_fns(grad, dim_num)[0](grad)
            m, n = g2.shape
            r = min(rank, m, n)
            if m >= n:

                def left():
                    u, _, _ = jnp.linalg.svd(g2.astype(jnp.float32), full_matrices=False)
                    return u[:, :r].astype(grad.dtype)

                new = lax.cond(refresh, left, lambda: projector)
                return new.T @ g2, new

            def right():
                _, _, vh = jnp.linalg.svd(g2.astype(jnp.float32), full_matrices=False)
                return vh[:r, :].T.astype(grad.dtype)

            new = lax.cond(refresh, right, lambda: projector)
            return g2 @ new, new

        def project_back(low, projector, grad, dim_num):
            if dim_num is None:
                return low
            reshape, inverse = _reshape_fns(grad, dim_num)
            m, n = reshape(grad).shape
            full = projector @ low if m >= n else low @ projector.T
            return (scale * inverse(full)).astype(grad.dtype)

        treedef = tree_util.tree_structure(updates)
        pairs = treedef.flatten_up_to(
            tree_util.tree_map(
                project, updates, state.projector, dim_nums, is_leaf=_is_dim_nums_leaf
            )
        )
        low = treedef.unflatten([a for a, _ in pairs])
        projectors = treedef.unflatten([b for _, b in pairs])
        low_updates, base_state = base_optimizer.update(low, state.base_optimizer_state, None)
        full = tree_util.tree_map(
            project_back, low_updates, projectors, updates, dim_nums, is_leaf=_is_dim_nums_leaf
        )
        return full, GaLoreState(safe_int32_increment(state.count), base_state, projectors)

    return GradientTransformation(init_fn, update_fn)


def galore(
    learning_rate: ScalarOrSchedule,
    rank: int = 128,
    update_proj_gap: int = 200,
    scale: float = 1.0,
    base_optimizer: GradientTransformation | None = None,
    weight_decay: Any = 0.0,
    mask: Any = None,
    weight_dimension_numbers: Any = None,
) -> GradientTransformation:
    """The GaLore optimizer (Adam on low-rank gradient projections by default).

    Args:
      learning_rate: a float or schedule.
      rank: see `scale_by_galore`.
      update_proj_gap: see `scale_by_galore`.
      scale: see `scale_by_galore`.
      base_optimizer: see `scale_by_galore`.
      weight_decay: decoupled weight decay.
      mask: which parameters get weight decay.
      weight_dimension_numbers: see `scale_by_galore`.

    Returns:
      A `GradientTransformation` (a `chain`).
    """
    return chain(
        scale_by_galore(rank, update_proj_gap, scale, base_optimizer, weight_dimension_numbers),
        add_decayed_weights(weight_decay, mask),
        scale_by_learning_rate(learning_rate),
    )
