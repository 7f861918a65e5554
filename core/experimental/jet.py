"""`jax.experimental.jet`: Taylor-mode derivatives of a function along a polynomial path.

`jet(fun, primals, series)` pushes the path x(t) = x + x1 t + x2 t^2 / 2! + ... (each input's
primal and its series of terms) through `fun` and returns `fun(x)` and the derivatives
d^k/dt^k fun(x(t)) at t = 0, k = 1..K, JAX's convention (terms are derivatives, not Taylor
coefficients). numbax computes them by nesting forward-mode derivatives in t: each level
is a `jvp` of the previous one's function returning every lower derivative too, so one call
evaluates `fun` about 2^K times (JAX propagates truncated series through per-primitive rules
instead; the values agree to round-off). Every differentiable primitive works, not only the
ones JAX has jet rules for.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import core.numpy as jnp
from core import lax
from core.api import jvp
from core.tree_util import tree_flatten, tree_leaves, tree_map, tree_unflatten
from numbax.errors import NumbaxError

__all__ = ["JetArgumentError", "JetOrderError", "fact", "jet", "jet2"]


class JetOrderError(NumbaxError, ValueError):
    """The inputs' series have different numbers of terms (JAX's ValueError).

    Failing code: ``jet(f, (x, y), ([x1, x2], [y1]))``. Fix: give every input the same number
    of terms (pad with zeros: ``[y1, jnp.zeros_like(y1)]``).
    """

    def __init__(self) -> None:
        super().__init__(
            # JAX 0.10.2's message, then the fix
            "jet terms have inconsistent lengths for different arguments\n"
            "Give every input's series the same number of terms (pad with zeros)."
        )


class JetArgumentError(NumbaxError, ValueError):
    """A primal or a series term of `jet` is a pytree, not an array (JAX's ValueError).

    Failing code: ``jet(f, ({"w": w},), (([{"w": v}]),))``. Fix: pass arrays, one argument
    each (``jet(lambda w: f({"w": w}), (w,), ([v],))``).
    """


def fact(n: Any) -> Any:
    """n factorial as JAX's `jet.fact` computes it: `exp(lgamma(n + 1))`, a float."""
    return lax.exp(lax.lgamma(jnp.asarray(n + 1.0)))


def _is_leaf(x: Any) -> bool:
    leaves = tree_leaves(x)
    return len(leaves) == 1 and leaves[0] is x


def _check(primals: tuple[Any, ...], series: tuple[tuple[Any, ...], ...]) -> int:
    """The series' common order, after JAX's checks of the arguments."""
    orders = {len(s) for s in series}
    if len(orders) != 1:
        raise JetOrderError()
    for i, (x, terms) in enumerate(zip(primals, series)):
        if not _is_leaf(x):
            raise JetArgumentError(
                f"primal value at position {i} is not an array\n"
                "Pass one array per argument (close over the rest of a pytree)."
            )
        for j, term in enumerate(terms):
            if not _is_leaf(term):
                raise JetArgumentError(
                    f"term {j} for argument {i} is not an array\n"
                    "Give each term as an array shaped like its primal."
                )
    return orders.pop()


def jet(
    fun: Callable[..., Any],
    primals: Sequence[Any],
    series: Sequence[Any],
    factorial_scaled: bool = True,
) -> tuple[Any, Any]:
    """Taylor-mode derivatives of `fun` at `primals` along the path their `series` give.

    Args:
      fun: the function, of `len(primals)` positional array arguments (its output may be a
        pytree).
      primals: the point, one array per argument.
      series: for each argument, a sequence of K terms shaped like it (the path's 1st to
        K-th derivatives).
      factorial_scaled: False takes and returns Taylor coefficients (each derivative over
        k!) instead (`jet2`).

    Returns:
      `(fun(*primals), terms)`: `terms` has `fun`'s output structure with, at each leaf, the
      list of its K derivatives along the path.
    """
    primals, series = tuple(primals), tuple(tuple(s) for s in series)
    order = _check(primals, series)
    primals = tuple(jnp.asarray(x) for x in primals)
    series = tuple(tuple(jnp.asarray(t) for t in s) for s in series)
    if not factorial_scaled:
        series = tuple(tuple(t * math.factorial(k) for k, t in enumerate(s, 1)) for s in series)
    primal_out = fun(*primals)
    if order == 0:
        return primal_out, tree_map(lambda _: [], primal_out)

    def path(t: Any) -> list[Any]:
        moved = []
        for x, terms in zip(primals, series):

            def at(x_leaf: Any, *term_leaves: Any) -> Any:
                step = sum(term * t**i / math.factorial(i) for i, term in enumerate(term_leaves, 1))
                return x_leaf + step

            moved.append(tree_map(at, x, *terms))
        return moved

    def derivatives(level: int) -> Callable[[Any], tuple[Any, ...]]:
        # a function of t returning (fun(x(t)), d/dt ..., d^level/dt^level)
        if level == 0:
            return lambda t: (fun(*path(t)),)
        lower = derivatives(level - 1)

        def with_next(t: Any) -> tuple[Any, ...]:
            values, tangents = jvp(lower, (t,), (jnp.ones_like(t),))
            return (*values, tangents[-1])

        return with_next

    _, *terms = derivatives(order)(jnp.asarray(0.0))
    leaves = [tree_flatten(term)[0] for term in terms]
    _, treedef = tree_flatten(primal_out)
    if not factorial_scaled:
        leaves = [[x / math.factorial(k) for x in level] for k, level in enumerate(leaves, 1)]
    per_leaf = [list(column) for column in zip(*leaves)]
    return primal_out, tree_unflatten(treedef, per_leaf)


def jet2(fun: Callable[..., Any], primals: Sequence[Any], series: Sequence[Any]) -> tuple[Any, Any]:
    """`jet` on Taylor coefficients: `jet(..., factorial_scaled=False)`.

    Args:
      fun: the function.
      primals: the point, one array per argument.
      series: each argument's Taylor coefficients of orders 1..K.

    Returns:
      `fun(*primals)` and the output's Taylor coefficients.
    """
    return jet(fun, primals, series, factorial_scaled=False)
