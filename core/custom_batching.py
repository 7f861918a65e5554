"""User-defined batching rules: `custom_vmap` and `sequential_vmap`, like `jax.custom_batching`.

Calling a `custom_vmap` function stages it to a jaxpr and binds `custom_vmap_call` with the
jaxpr and the rule in its params (as JAX's `custom_vmap_p`):

* evaluated, or compiled by `jit` (core/jit/simplify.py inlines the call), the jaxpr runs;
* under `vmap` the batch rule moves the batched arguments' axes to the front and calls the
  user's rule `rule(axis_size, in_batched, *args) -> (out, out_batched)` at the parent level;
  outputs it marks unbatched keep no batch axis. Values closed over by the function and batched
  by an enclosing `vmap` are invisible to the rule: the jaxpr is then batched as usual;
* under `jvp` the jaxpr is differentiated (JAX differentiates it too; numbax's reverse mode
  also goes through it, where JAX refuses `grad` of a `custom_vmap` function).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from core import errors, ir, tree_util
from core.array import Array
from core.custom_derivatives import _eval_call, _resolve_args, call_jvp
from core.interpreters import batching
from core.interpreters.partial_eval import trace_to_jaxpr
from core.lax.composites import map as _lax_map
from core.primitive import Primitive
from core.trace import get_aval, to_numpy

__all__ = ["custom_vmap", "sequential_vmap"]


class custom_vmap:  # noqa: N801  (JAX's name)
    """A function with a custom `vmap` rule, like `jax.custom_batching.custom_vmap`.

    Args:
      fun: the function; its arguments and outputs are pytrees of arrays.

    Set the rule with `def_vmap`: `rule(axis_size, in_batched, *args) -> (out, out_batched)`,
    where `in_batched` is a list with one pytree of bools per argument (is that leaf batched),
    the batched leaves of `args` carry the batch axis first, and `out_batched` is a pytree of
    bools shaped like `out`.
    """

    def __init__(self, fun: Callable[..., Any]):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.vmap_rule: Callable[..., tuple[Any, Any]] | None = None

    def def_vmap(self, vmap_rule: Callable[..., tuple[Any, Any]]) -> Callable[..., tuple[Any, Any]]:
        """Sets the vmap rule.

        Args:
          vmap_rule: `rule(axis_size, in_batched, *batched_args) -> (out, out_batched)`.

        Returns:
          `vmap_rule` unchanged (so `@f.def_vmap` keeps the rule's name bound to it).
        """
        self.vmap_rule = vmap_rule
        return vmap_rule

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        name = getattr(self.fun, "__name__", "<unnamed function>")
        args = _resolve_args(self.fun, args, kwargs, (), "custom_vmap", name)
        if self.vmap_rule is None:
            raise errors.CustomVmapRuleMissingError(name)
        flat, in_tree = tree_util.tree_flatten(args)
        out_trees: list[Any] = []

        def flat_fun(*xs: Any) -> list[Any]:
            leaves, tree = tree_util.tree_flatten(self.fun(*tree_util.tree_unflatten(in_tree, xs)))
            out_trees.append(tree)
            return leaves

        jaxpr, consts = trace_to_jaxpr(flat_fun, [get_aval(x) for x in flat])
        outs = custom_vmap_call_p.bind(
            *consts,
            *flat,
            call_jaxpr=jaxpr,
            rule=self.vmap_rule,
            num_consts=len(consts),
            in_tree=in_tree,
            out_tree=out_trees[0],
        )
        return tree_util.tree_unflatten(out_trees[0], outs)


def _impl(*args: Any, call_jaxpr: ir.Jaxpr, **params: Any) -> list[Any]:
    return [to_numpy(o) for o in _eval_call(call_jaxpr, [Array(a) for a in args])]


def _batch(args, dims, *, call_jaxpr, rule, num_consts, in_tree, out_tree, axis_trace):
    size = axis_trace.axis_size
    if any(d is not None for d in dims[:num_consts]):  # batched closed-over values
        run = batching._batched_call(
            lambda *xs: _eval_call(call_jaxpr, xs), dims, size, axis_trace.axis_name
        )
        outs = run(*args)
        return outs, [0] * len(outs)
    xs = batching.batched_first(args, dims, size)
    in_batched = tree_util.tree_unflatten(in_tree, [d is not None for d in dims[num_consts:]])
    call_args = tree_util.tree_unflatten(in_tree, xs[num_consts:])
    out, out_batched = rule(size, list(in_batched), *call_args)
    flat_out, tree = tree_util.tree_flatten(out)
    flat_batched, batched_tree = tree_util.tree_flatten(out_batched)
    rule_name = getattr(rule, "__name__", "<unnamed rule>")
    if tree != batched_tree:
        raise errors.CustomVmapRuleOutputError(
            "structure of output value and output batching specification returned by custom "
            f"vmap rule ({rule_name}) do not match.\nOutput values: {tree}\n"
            f"Batching spec: {batched_tree}"
        )
    if tree != out_tree:
        raise errors.CustomVmapRuleOutputError(
            f"structure of output returned by custom vmap rule ({rule_name}) does not match "
            f"that of original custom-vmapped function.\nOriginal output: {out_tree}\n"
            f"Rule output: {tree}"
        )
    return flat_out, [0 if b else None for b in flat_batched]


def _jvp_rule(primals, tangents, *, call_jaxpr, **params):
    return call_jvp(call_jaxpr, primals, tangents)


custom_vmap_call_p = Primitive("custom_vmap_call", multiple_results=True, higher_order=True)
custom_vmap_call_p.def_impl(_impl)
custom_vmap_call_p.def_abstract_eval(lambda *avals, call_jaxpr, **params: call_jaxpr.out_avals)
custom_vmap_call_p.def_batch(_batch)
custom_vmap_call_p.def_jvp(_jvp_rule)


def sequential_vmap(f: Callable[..., Any]) -> custom_vmap:
    """`f` as a `custom_vmap` function whose batch rule loops over the batch (`lax.map`),
    like `jax.custom_batching.sequential_vmap`: for functions that do not batch natively.

    Args:
      f: the function.

    Returns:
      The `custom_vmap` function; under `vmap` every output is batched.
    """
    f = custom_vmap(f)

    @f.def_vmap
    def rule(axis_size, in_batched, *args):
        del axis_size
        mapped_args = tree_util.tree_map(lambda b, x: x if b else None, in_batched, list(args))
        bcast_args = tree_util.tree_map(lambda b, x: None if b else x, in_batched, list(args))

        def to_map(mapped):
            return f(*tree_util.tree_map(lambda b, m, c: m if b else c, in_batched, mapped,
                                         bcast_args))  # fmt: skip

        out = _lax_map(to_map, mapped_args)
        return out, tree_util.tree_map(lambda _: True, out)

    return f
