"""Euclidean projections onto convex sets (`optax.projections`), for projected gradient methods.

Each function maps a pytree to the closest point (in the flat Euclidean norm over all leaves)
of a set: the non-negative orthant, boxes, simplices, l1/l2/linf balls and spheres, hyperplanes
and half-spaces. Use them after `apply_updates`: `params = projection_box(params, 0.0, 1.0)`.

The simplex projection sorts (Duchi et al., 2008). Optax gives it a custom JVP,
`supp * (t - mean over supp of t)`; plain autodiff of the formula below yields exactly that
(the support size is an integer and the threshold sums the support), so no custom rule is
needed, and the function also compiles under `core.jit`. Where Optax uses
`lax.cond` (`projection_l1_ball`) both sides are computed and selected with `jnp.where`.
"""

from __future__ import annotations

from typing import Any

import core
import core.numpy as jnp
from core import lax, tree_util
from optim import tree as tree_lib


def _like(tree: Any, value: Any) -> Any:
    """`value` itself if it is a tree like `tree`, else `value` repeated at every leaf."""
    structure = tree_util.tree_structure(tree)
    if tree_util.tree_structure(value) == structure:
        return value
    return tree_util.tree_unflatten(structure, [value] * structure.num_leaves)


def projection_non_negative(tree: Any) -> Any:
    """Projects onto the non-negative orthant: `max(x, 0)` leafwise."""
    return tree_util.tree_map(core.nn.relu, tree)


def projection_box(tree: Any, lower: Any, upper: Any) -> Any:
    """Projects onto the box `lower <= x <= upper`.

    Args:
      tree: the tree to project.
      lower: a scalar or a tree like `tree` (Optax requires a tree unless `tree` is one leaf).
      upper: a scalar or a tree like `tree`.

    Returns:
      The projected tree.
    """
    return tree_util.tree_map(jnp.clip, tree, _like(tree, lower), _like(tree, upper))


def projection_hypercube(tree: Any, scale: Any = 1) -> Any:
    """Projects onto the hypercube `0 <= x <= scale`."""
    return projection_box(tree, lower=0, upper=scale)


def _projection_unit_simplex(values: Any) -> Any:
    n = values.shape[0]
    u = jnp.sort(values)[::-1]
    cumsum_u = jnp.cumsum(u)
    ind = jnp.arange(n) + 1
    cond = 1 / ind + (u - cumsum_u / ind) > 0
    idx = jnp.sum(cond.astype(jnp.int32))
    # cumsum_u[idx - 1], written as a masked sum so it stays elementwise.
    threshold = jnp.sum(jnp.where(ind == idx, cumsum_u, 0.0))
    return core.nn.relu(1 / idx + (values - threshold / idx))


def projection_simplex(tree: Any, scale: Any = 1) -> Any:
    """Projects onto the simplex `{x >= 0, sum(x) = scale}` (all leaves together)."""
    values, unravel = tree_lib.ravel(tree)
    return unravel(scale * _projection_unit_simplex(values / scale))


def projection_l1_sphere(tree: Any, scale: Any = 1) -> Any:
    """Projects onto the l1 sphere `{sum(|x|) = scale}`."""
    tree_abs = tree_util.tree_map(jnp.abs, tree)
    tree_sign = tree_util.tree_map(jnp.sign, tree)
    return tree_lib.mul(tree_sign, projection_simplex(tree_abs, scale))


def projection_l1_ball(tree: Any, scale: Any = 1) -> Any:
    """Projects onto the l1 ball `{sum(|x|) <= scale}`: a `lax.cond` between `tree` and its
    projection on the sphere, as Optax's (so its gradient never sees the branch not taken, and
    leaves whose projection changes dtype, such as bfloat16 ones, raise its `TypeError`)."""
    inside = tree_lib.norm(tree, ord=1) <= scale
    return lax.cond(inside, lambda t: t, lambda t: projection_l1_sphere(t, scale), tree)


def projection_l2_sphere(tree: Any, scale: Any = 1) -> Any:
    """Projects onto the l2 sphere `{||x|| = scale}`."""
    return tree_lib.scale(scale / tree_lib.norm(tree), tree)


def projection_l2_ball(tree: Any, scale: Any = 1) -> Any:
    """Projects onto the l2 ball `{||x|| <= scale}`."""
    squared_norm = tree_lib.norm(tree, squared=True)
    return tree_lib.scale(scale / jnp.sqrt(jnp.maximum(squared_norm, scale**2)), tree)


def projection_linf_ball(tree: Any, scale: Any = 1) -> Any:
    """Projects onto the linf ball `{max(|x|) <= scale}`."""
    return projection_box(tree, tree_lib.full_like(tree, -scale), tree_lib.full_like(tree, scale))


def projection_vector(x: Any, a: Any) -> Any:
    """Projects `x` onto the line spanned by the tree `a`."""
    return tree_lib.scale(tree_lib.vdot(x, a) / tree_lib.vdot(a, a), a)


def projection_hyperplane(x: Any, a: Any, b: Any) -> Any:
    """Projects `x` onto the hyperplane `{<a, y> = b}`."""
    return tree_lib.add_scale(x, (b - tree_lib.vdot(x, a)) / tree_lib.vdot(a, a), a)


def projection_halfspace(x: Any, a: Any, b: Any) -> Any:
    """Projects `x` onto the half-space `{<a, y> <= b}`."""
    scalar = jnp.minimum((b - tree_lib.vdot(x, a)) / tree_lib.vdot(a, a), 0)
    return tree_lib.add_scale(x, scalar, a)


__all__ = [
    "projection_box",
    "projection_halfspace",
    "projection_hypercube",
    "projection_hyperplane",
    "projection_l1_ball",
    "projection_l1_sphere",
    "projection_l2_ball",
    "projection_l2_sphere",
    "projection_linf_ball",
    "projection_non_negative",
    "projection_simplex",
    "projection_vector",
]
