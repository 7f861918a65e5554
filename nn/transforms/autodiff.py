"""Lifted autodiff: ``nn.value_and_grad``, ``nn.grad``, ``nn.vjp``, ``nn.jvp`` and
``nn.custom_vjp`` differentiate a function of a module with respect to its inputs and the
variables of some collections (``'params'`` by default), as Flax's lifted transforms.

Each is a ``*_inner`` body over the lifted groups (shared with `nn/lift.py`'s scope-level
forms), run by `_run_lifted` on the module's own scope: the variables of the differentiated
collections become an explicit argument of ``core.vjp``/``core.jvp``/``core.custom_vjp``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import core
import core.numpy as jnp
from core import tree_util
from nn import errors
from nn.module import Module
from nn.scope import CollectionFilter
from nn.transforms.module_level import (
    _run_lifted,
)
from nn.transforms.packing import (
    _Lift,
)


def value_and_grad(
    fn: Callable[..., Any],
    mdl: Module,
    *primals: Any,
    has_aux: bool = False,
    reduce_axes: tuple = (),
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
) -> Any:
    """Value and gradient of ``fn(mdl, *primals)`` (a scalar) with respect to ``primals``.

    Gradients are taken for the inputs only, not the variables (as Flax).

    Args:
      fn: the function.
      mdl: the module whose variables and RNG streams ``fn`` uses.
      *primals: the inputs.
      has_aux: ``fn`` returns ``(value, aux)``.
      reduce_axes: must be empty (deprecated in Flax).
      variables: the collections lifted (default all).
      rngs: the RNG streams lifted (default all).

    Returns:
      ``(value, grads)``, or ``((value, aux), grads)`` with ``has_aux``; ``grads`` is a tuple
      with one entry per primal.

    Raises:
      NotImplementedError: ``reduce_axes`` is not empty.
      ValueError: ``fn``'s value is not a scalar.
    """
    if reduce_axes:
        raise NotImplementedError("reduce_axes argument to value_and_grad is deprecated")

    def inner(lift: _Lift, as_scope_fn: Callable) -> tuple[Any, Any]:
        scope_fn = as_scope_fn(fn)

        def wrapper(*args: Any) -> Any:
            s = lift.scope_fn(lift.var_groups, lift.rng_groups)
            out = scope_fn(s, *args)
            y, aux = out if has_aux else (out, ())
            return y, (aux, lift.repack(s))

        y, bwd, (aux, out_groups) = core.vjp(wrapper, *primals, has_aux=True)
        grads = bwd(jnp.ones_like(y))
        return (y, aux, grads), out_groups

    y, aux, grads = _run_lifted(mdl, "value_and_grad", (variables,), (variables,), (rngs,), inner)
    if jnp.shape(y) != ():
        raise errors.NonScalarGradError(jnp.shape(y))
    return ((y, aux), grads) if has_aux else (y, grads)


def grad(
    fn: Callable[..., Any],
    mdl: Module,
    *primals: Any,
    has_aux: bool = False,
    reduce_axes: tuple = (),
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
) -> Any:
    """Gradient of ``fn(mdl, *primals)`` with respect to ``primals``; see :func:`value_and_grad`.

    Returns:
      ``grads`` (a tuple, one per primal), or ``(grads, aux)`` with ``has_aux``.
    """
    if reduce_axes:
        raise NotImplementedError("reduce_axes argument to grad is deprecated")
    out = value_and_grad(
        fn,
        mdl,
        *primals,
        has_aux=has_aux,
        reduce_axes=reduce_axes,
        variables=variables,
        rngs=rngs,
    )
    if has_aux:
        (_, aux), grads = out
        return grads, aux
    return out[1]


def vjp(
    fn: Callable[..., Any],
    mdl: Module,
    *primals: Any,
    has_aux: bool = False,
    reduce_axes: tuple = (),
    vjp_variables: CollectionFilter = "params",
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
    multi_scope: bool = False,
) -> Any:
    """Vector-Jacobian product of ``fn(mdl, *primals)`` for the inputs and the variables.

    Args:
      fn: the function.
      mdl: the module whose variables and RNG streams ``fn`` uses.
      *primals: the inputs.
      has_aux: ``fn`` returns ``(value, aux)``.
      reduce_axes: must be empty (deprecated in Flax).
      vjp_variables: the collections that receive a cotangent (default ``'params'``).
      variables: other collections visible to ``fn``.
      rngs: the RNG streams lifted (default all).
      multi_scope: accepted for Flax compatibility.

    Returns:
      ``(y, bwd)`` or ``(y, bwd, aux)``; ``bwd(ct)`` returns ``(variable_grads, *input_grads)``
      with ``variable_grads`` a ``{collection: ...}`` dict. ``bwd`` is a
      ``tree_util.Partial`` over the inputs that replays the forward pass when called
      (numbax's ``core.vjp`` closures are not pytrees), so it can be a ``custom_vjp`` residual.
    """
    del reduce_axes, multi_scope
    inner = vjp_inner(fn, primals, has_aux)
    return _run_lifted(
        mdl, "vjp", (vjp_variables, variables), (variables,), (rngs,), inner, multi_scope=False
    )


def vjp_inner(fn: Callable, primals: Sequence[Any], has_aux: bool) -> Callable:
    """The lifted body of `vjp` (also `nn.core.vjp`'s), over groups (vjp variables, others)."""

    def inner(lift: _Lift, as_scope_fn: Callable) -> tuple[Any, Any]:
        scope_fn = as_scope_fn(fn)
        vjp_vars, other_vars = lift.var_groups

        def wrapper(vjp_vars: dict, others: Any, counters: list | None, *args: Any) -> Any:
            s = lift.scope_fn(((vjp_vars,), others), lift.rng_groups)
            if counters is not None:  # a replay draws the forward pass's keys again
                for inner, saved in zip(lift.roots(s), counters):
                    inner.rng_counters = copy.deepcopy(saved)
            out = scope_fn(s, *args)
            y, aux = out if has_aux else (out, ())
            return y, (aux, lift.repack(s))

        def pull_back(vjp_vars: dict, others: Any, primals: tuple, ct: Any) -> tuple:
            replay = lambda v, *a: wrapper(v, others, counters, *a)
            return core.vjp(replay, vjp_vars, *primals, has_aux=True)[1](ct)

        (vjp_vars,) = vjp_vars
        # the collections and RNG counters as the forward pass reads them: the replay below
        # must not see what the forward pass writes (a counter, sown values, the keys it
        # drew), as Flax's pullback does not
        before, others_before = tree_util.tree_map(lambda v: v, (vjp_vars, other_vars))
        counters = [copy.deepcopy(s.rng_counters) for s in lift.scopes]
        forward = lambda v, *a: wrapper(v, other_vars, None, *a)
        y, _, (aux, out_groups) = core.vjp(forward, vjp_vars, *primals, has_aux=True)
        # A pytree (its leaves are the inputs), so it can be a custom_vjp residual; calling it
        # replays the forward pass.
        bwd = tree_util.Partial(pull_back, before, others_before, tuple(primals))
        return ((y, bwd, aux) if has_aux else (y, bwd)), out_groups

    return inner


def jvp(
    fn: Callable[..., Any],
    mdl: Module,
    primals: Sequence[Any],
    tangents: Sequence[Any],
    variable_tangents: Mapping[str, Any],
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
) -> tuple[Any, Any]:
    """Jacobian-vector product of ``fn(mdl, *primals)``, with tangents for variables too.

    Args:
      fn: the function.
      mdl: the module whose variables and RNG streams ``fn`` uses.
      primals: the inputs (a tuple).
      tangents: their tangents.
      variable_tangents: ``{collection: tangent tree}`` for the variables that move
        (collections not listed have zero tangent).
      variables: other collections visible to ``fn``.
      rngs: the RNG streams lifted (default all).

    Returns:
      ``(y, tangent_out)``.
    """
    variable_tangents = {k: v for k, v in variable_tangents.items() if v}
    target = tuple(variable_tangents)
    inner = jvp_inner(fn, primals, tangents, variable_tangents)
    return _run_lifted(
        mdl, "jvp", (target, variables), (variables,), (rngs,), inner, multi_scope=False
    )


def jvp_inner(
    fn: Callable, primals: Sequence[Any], tangents: Sequence[Any], variable_tangents: Mapping
) -> Callable:
    """The lifted body of `jvp` (also `nn.core.jvp`'s), over groups (moving variables,
    others); ``variable_tangents`` holds only non-empty collections."""

    def inner(lift: _Lift, as_scope_fn: Callable) -> tuple[Any, Any]:
        scope_fn = as_scope_fn(fn)
        jvp_vars, other_vars = lift.var_groups

        def wrapper(jvp_vars: dict, args: tuple) -> Any:
            s = lift.scope_fn(((jvp_vars,), other_vars), lift.rng_groups)
            return scope_fn(s, *args), lift.repack(s)

        (y, out_groups), (y_t, _) = core.jvp(
            wrapper, (jvp_vars[0], tuple(primals)), (variable_tangents, tuple(tangents))
        )
        return (y, y_t), out_groups

    return inner


def custom_vjp_inner(
    fn: Callable, forward_fn: Callable, backward_fn: Callable, nondiff: tuple, args: tuple
) -> Callable:
    """The lifted body of `custom_vjp` (also `nn.core.custom_vjp`'s), over groups (grad
    variables, others); ``nondiff`` counts the grad variables as argument 0."""

    def inner(lift: _Lift, as_scope_fn: Callable) -> tuple[Any, Any]:
        grad_group, other = lift.var_groups
        fn_s, fwd_s = as_scope_fn(fn), as_scope_fn(forward_fn)

        def f(gvars: dict, *a: Any) -> Any:
            s = lift.scope_fn(((gvars,), other), lift.rng_groups)
            y = fn_s(s, *a)
            return y, lift.repack(s)

        def f_fwd(gvars: dict, *a: Any) -> Any:
            s = lift.scope_fn(((gvars,), other), lift.rng_groups)
            y, res = fwd_s(s, *a)
            return (y, lift.repack(s)), res

        def f_bwd(*bwd_args: Any) -> tuple:
            *nondiff_args, res, (g_y, _) = bwd_args
            return tuple(backward_fn(*nondiff_args, res, g_y))

        custom = core.custom_vjp(f, nondiff_argnums=nondiff)
        custom.defvjp(f_fwd, f_bwd)
        return custom(grad_group[0], *args)

    return inner


def custom_vjp(
    fn: Callable[..., Any],
    forward_fn: Callable[..., Any],
    backward_fn: Callable[..., Any],
    grad_vars: CollectionFilter = "params",
    nondiff_argnums: Sequence[int] = (),
) -> Callable[..., Any]:
    """A function of a module with a custom backward pass for its inputs and variables.

    Args:
      fn: ``fn(mdl, *args) -> y``.
      forward_fn: ``forward_fn(mdl, *args) -> (y, residuals)``.
      backward_fn: ``backward_fn(residuals, ct) -> (variable_grads, *input_grads)`` where
        ``variable_grads`` is ``{collection: tree}`` for the ``grad_vars`` collections.
      grad_vars: the collections that receive gradients (default ``'params'``).
      nondiff_argnums: positions (counting the module as 0) of non-differentiable arguments,
        passed to ``backward_fn`` first like ``core.custom_vjp``.

    Returns:
      ``f(mdl, *args) -> y``.
    """

    def lifted(mdl: Module, *args: Any) -> Any:
        nondiff = tuple(i + 1 for i in nondiff_argnums)
        inner = custom_vjp_inner(fn, forward_fn, backward_fn, nondiff, args)
        return _run_lifted(
            mdl,
            "custom_vjp",
            (grad_vars, True),
            (grad_vars, True),
            (True,),
            inner,
            multi_scope=False,
        )

    return lifted
