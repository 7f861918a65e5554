"""`jax.ad_checkpoint`: the gradient-checkpointing names under their JAX module path (they live
in `core.checkpoint`), and `saved_residuals` / `print_saved_residuals`, which list the values
reverse mode keeps between the forward and the backward pass."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core import ir, source_info, tree_util
from core.api import make_jaxpr, vjp
from core.avals import ShapedArray
from core.checkpoint import checkpoint, checkpoint_name, checkpoint_policies, name_p, remat


def saved_residuals(f: Callable, *args: Any, **kwargs: Any) -> list[tuple[ShapedArray, str]]:
    """The values `vjp(f, *args, **kwargs)` keeps for the backward pass, with where each comes
    from, as JAX's `jax.ad_checkpoint.saved_residuals`.

    Args:
      f: the function to differentiate.
      *args: its arguments (pytrees of arrays).
      **kwargs: its keyword arguments.

    Returns:
      `(aval, source)` pairs: the arguments saved first (`"from the argument W1"`), then the
      computed values in program order (`"output of sin from file:line:column (g)"`, or
      `"named 'a' from ..."` for a `checkpoint_name`d value).
    """
    leaves, in_tree = tree_util.tree_flatten((args, kwargs))

    def f_(*leaves: Any) -> Any:
        a, kw = tree_util.tree_unflatten(in_tree, leaves)
        return f(*a, **kw)

    closed, shapes = make_jaxpr(lambda *xs: vjp(f_, *xs), return_shape=True)(*leaves)
    jaxpr = closed.jaxpr
    num_res = len(tree_util.tree_leaves(shapes[1]))
    res = jaxpr.outvars[len(jaxpr.outvars) - num_res :]
    res_vars = {v for v in res if isinstance(v, ir.Var)}
    names = source_info.arg_names(f, args, kwargs)
    results: list[tuple[ShapedArray, str]] = [
        (x.aval, "from a literal") for x in res if isinstance(x, ir.Literal)
    ]
    results += [(v.aval, "from a constant") for v in jaxpr.constvars if v in res_vars]
    for i, v in enumerate(jaxpr.invars):
        if v in res_vars:
            src = f"from the argument {names[i]}" if i < len(names) and names[i] else None
            results.append((v.aval, src or f"from the argument at flattened index {i}"))
    for eqn in jaxpr.eqns:
        src = eqn.source_info.summary() if eqn.source_info else "unknown"
        for v in eqn.outputs:
            if v in res_vars:
                if eqn.prim is name_p:
                    results.append((v.aval, f"named '{eqn.params['name']}' from {src}"))
                elif eqn.prim.name == "jit":
                    name = eqn.params.get("name", "")
                    results.append((v.aval, f"output of jitted function '{name}' from {src}"))
                else:
                    results.append((v.aval, f"output of {eqn.prim.name} from {src}"))
    return results


def print_saved_residuals(f: Callable, *args: Any, **kwargs: Any) -> None:
    """Prints `saved_residuals(f, *args, **kwargs)`, one value a line (`f32[5] output of sin
    from ...`), as JAX's `jax.ad_checkpoint.print_saved_residuals`.

    Args:
      f: the function to differentiate.
      *args: its arguments.
      **kwargs: its keyword arguments.
    """
    for aval, src in saved_residuals(f, *args, **kwargs):
        print(f"{aval.str_short(short_dtypes=True)} {src}")


__all__ = [
    "checkpoint",
    "checkpoint_name",
    "checkpoint_policies",
    "print_saved_residuals",
    "remat",
    "saved_residuals",
]
