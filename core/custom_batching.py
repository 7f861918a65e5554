"""User-defined batching rules: `custom_vmap` and `sequential_vmap`, like `jax.custom_batching`.

Calling a `custom_vmap` function stages it to a jaxpr and binds `custom_vmap_call` with the
jaxpr and the rule in its params (as JAX's `custom_vmap_p`):

* evaluated, or compiled by `jit` (core/jit/simplify.py inlines the call), the jaxpr runs;
* under `vmap` the batch rule moves the batched arguments' axes to the front and calls the
  user's rule `rule(axis_size, in_batched, *args) -> (out, out_batched)` at the parent level;
  outputs it marks unbatched keep no batch axis. Values closed over by the function and batched
  by an enclosing `vmap` are invisible to the rule: the jaxpr is then batched as usual;
* under `jvp` the call's jvp is a `custom_vmap` function again (JAX's `custom_vmap_jvp`):
  the jvp of the jaxpr, whose rule is the jvp of the user's rule, run on the primals and
  tangents batched alike and vmapped over the axes only one of them has, so `vmap(jvp(f))`
  uses the rule. When a value the function closes over is differentiated, the jaxpr is (and
  numbax's reverse mode also goes through it, where JAX refuses `grad` of such a function).
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any

from core import api, errors, ir, tree_util
from core.ad_util import Zero, instantiate
from core.array import Array
from core.custom_derivatives import _eval_call, _forward_def, _resolve_args, call_jvp
from core.interpreters import batching, finish
from core.interpreters.partial_eval import JaxprTrace, trace_to_closed_jaxpr
from core.lax.composites import map as _lax_map
from core.primitive import Primitive
from core.trace import current_trace, get_aval, set_current_trace, to_numpy

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

    __getattr__ = _forward_def  # `f.defjvp` of a custom_vmap wrapping a custom_jvp (JAX's)

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

        jaxpr, consts = trace_to_closed_jaxpr(flat_fun, [get_aval(x) for x in flat])
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


def _jvp_rule(primals, tangents, *, call_jaxpr, rule, num_consts, in_tree, out_tree):
    cur = current_trace()
    linearizing = isinstance(cur, JaxprTrace) and not cur.stage_all  # (grad): no rule needed
    if linearizing or any(type(t) is not Zero for t in tangents[:num_consts]):
        return call_jvp(call_jaxpr, primals, tangents)  # the function itself differentiated
    consts, const_ts = list(primals[:num_consts]), list(tangents[:num_consts])

    def fun_jvp(ps: tuple, ts: tuple) -> tuple:
        outs, t_outs = call_jvp(
            call_jaxpr,
            consts + tree_util.tree_leaves(ps),
            const_ts + tree_util.tree_leaves(ts),
        )
        t_outs = [instantiate(t) for t in t_outs]
        return tree_util.tree_unflatten(out_tree, outs), tree_util.tree_unflatten(out_tree, t_outs)

    f = custom_vmap(fun_jvp)
    f.def_vmap(functools.partial(_jvp_of_rule, rule))
    ps = tree_util.tree_unflatten(in_tree, primals[num_consts:])
    ts = tree_util.tree_unflatten(in_tree, [instantiate(t) for t in tangents[num_consts:]])
    out_ps, out_ts = f(ps, ts)
    return tree_util.tree_leaves(out_ps), tree_util.tree_leaves(out_ts)


def _jvp_of_rule(rule: Callable, axis_size: int, in_batched: list, ps: tuple, ts: tuple):
    """JAX's rule of a `custom_vmap` function's jvp: the jvp of `rule` on the arguments whose
    primal and tangent are both batched, vmapped over the axes only one of the two has."""
    ps_b, ts_b = in_batched
    both = tree_util.tree_map(operator.and_, ps_b, ts_b)
    extra_ps = tree_util.tree_map(lambda p, t: 0 if p and not t else None, ps_b, ts_b)
    extra_ts = tree_util.tree_map(lambda p, t: 0 if t and not p else None, ps_b, ts_b)
    out_batched: list = []

    def rule_out(*args: Any) -> Any:
        out, batched = rule(axis_size, list(both), *args)
        out_batched.append(batched)
        return out

    # vmapped over the extra axes, each output keeping one only if it depends on them (JAX's
    # `vmap_unrestricted`)
    leaves, tree = tree_util.tree_flatten((ps, ts))
    dims = tree_util.tree_leaves((extra_ps, extra_ts), is_leaf=_none)
    trace = batching.BatchTrace(current_trace(), axis_size)
    with set_current_trace(trace):
        boxed = [
            x if d is None else batching.BatchTracer(trace, x, d) for x, d in zip(leaves, dims)
        ]
        out = api.jvp(rule_out, *tree_util.tree_unflatten(tree, boxed))
    out_leaves, out_tree = tree_util.tree_flatten(out)
    extra = []
    with set_current_trace(trace.parent):
        for k, o in enumerate(out_leaves):
            val, dim = trace.to_val_dim(o)
            out_leaves[k] = batching.moveaxis(val, dim, 0, axis_size) if dim is not None else val
            extra.append(dim is not None)
    finish(trace)
    out_ps, out_ts = tree_util.tree_unflatten(out_tree, out_leaves)
    extra_ps_out, extra_ts_out = tree_util.tree_unflatten(out_tree, extra)
    return (out_ps, out_ts), (
        tree_util.tree_map(operator.or_, out_batched[0], extra_ps_out),
        tree_util.tree_map(operator.or_, out_batched[0], extra_ts_out),
    )


def _none(x: Any) -> bool:
    return x is None


custom_vmap_call_p = Primitive("custom_vmap_call", multiple_results=True, higher_order=True)
custom_vmap_call_p.def_impl(_impl)
custom_vmap_call_p.def_abstract_eval(lambda *avals, call_jaxpr, **params: call_jaxpr.out_avals)
custom_vmap_call_p.def_batch(_batch)
custom_vmap_call_p.def_jvp(_jvp_rule)


def _partial_eval(trace, args, params):
    """Linearized (some inputs unknown: the jvp call of a function in a staged body under
    `grad`), the call is its jaxpr inlined: reverse mode differentiates the function."""
    with set_current_trace(trace):
        return _eval_call(params["call_jaxpr"], list(args))


custom_vmap_call_p.def_partial_eval(_partial_eval)


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
