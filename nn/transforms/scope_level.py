"""The scope-level transforms: ``lift_vmap``, ``lift_scan``, ``lift_jit``, ``lift_fold_rngs``,
``lift_checkpoint`` and ``lift_map_variables`` turn ``fn(scopes, *args)`` into a function of the
same form that runs ``fn`` under the core transform (``core.vmap``, ``lax.scan``, ``core.jit``,
``core.checkpoint``) on the groups `_Lift` packs (`nn/transforms/packing.py`). They are Flax's
``flax.core.lift`` transforms; `nn/lift.py` wraps them to Flax's signature, and the public
module transforms (`nn/transforms/lifted.py`) lift methods through them.

``lift_jit`` compiles one function for every call: the per-call scope machinery reaches the
traced body through a context stack, and the RNG counters advance on cache hits as far as
the traced call moved them (Flax's ``_restore_rng_counters``).
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import core
import core.numpy as jnp
from core import ir, lax, random, tree_util
from nn import errors, meta
from nn import scope as scope_lib
from nn.scope import CollectionFilter, Scope
from nn.transforms.packing import (
    _axis_size,
    _Broadcast,
    _first_step,
    _hashable,
    _Lift,
    _map_prefix,
    _merge_groups,
    _split_axes,
    _split_rng_groups,
    broadcast,
)

Array = Any


def _ignored(name: str, kwargs: dict) -> dict:
    """Flax's lifted ``vmap`` and ``scan`` take no keyword arguments: it drops them (the body
    is called without them) with this ``RuntimeWarning``."""
    if kwargs:
        warnings.warn(
            f'kwargs are not supported in {name}, so "{", ".join(kwargs)}" is(are) ignored',
            RuntimeWarning,
            stacklevel=4,
        )
    return {}


def lift_vmap(
    fn: Callable[..., Any],
    variable_axes: Mapping[CollectionFilter, int | None],
    split_rngs: Mapping[CollectionFilter, bool],
    in_axes: Any = 0,
    out_axes: Any = 0,
    axis_size: int | None = None,
    axis_name: str | None = None,
    metadata_params: Mapping | None = None,
) -> Callable[..., Any]:
    """``core.vmap`` of ``fn(scope, *args)``; see :func:`vmap`."""
    var_filters, var_axes = _split_axes(variable_axes)
    rng_filters, rng_splits = _split_axes(split_rngs)
    rng_axes = tuple(0 if s else None for s in rng_splits)

    def lifted(scopes: Sequence[Scope], *args: Any, **kwargs: Any) -> Any:
        kwargs = _ignored("vmap", kwargs)
        lift = _Lift(scopes, var_filters, var_filters, rng_filters, "vmap")
        var_groups = _meta_axes(meta.remove_axis, lift.var_groups, var_axes, metadata_params)
        size = _axis_size(
            (var_axes, in_axes), (var_groups, args), axis_size, "vmap", scopes[0].path_text
        )
        rngs = _split_rng_groups(lift.rng_groups, rng_splits, lambda k: random.split(k, size))

        def mapped(var_groups: tuple, rng_groups: tuple, args: tuple) -> Any:
            inner = lift.scope_fn(var_groups, rng_groups)
            y = fn(inner, *args, **kwargs)
            return y, lift.repack(inner)

        y, out_groups = core.vmap(
            mapped,
            in_axes=(var_axes, rng_axes, in_axes),
            out_axes=(out_axes, var_axes),
            axis_name=axis_name,
            axis_size=axis_size,
        )(var_groups, rngs, args)
        lift.publish(_meta_axes(meta.add_axis, out_groups, var_axes, metadata_params))
        return y

    return lifted


def _meta_axes(
    fn: Callable, groups: Sequence[Any], axes: Sequence[int | None], params: Mapping | None
) -> tuple:
    """`meta.add_axis`/`meta.remove_axis` of the mapped axis on each mapped group's boxes (the
    names of partitioned variables gain or lose the transform's axis, as in Flax)."""
    return tuple(g if ax is None else fn(g, ax, dict(params or {})) for g, ax in zip(groups, axes))


def _move(x: Array, src: int, dst: int) -> Array:
    return x if src == dst else jnp.moveaxis(x, src, dst)


def lift_scan(
    fn: Callable[..., Any],
    variable_axes: Mapping[CollectionFilter, int] | None = None,
    variable_broadcast: CollectionFilter = False,
    variable_carry: CollectionFilter = False,
    split_rngs: Mapping[CollectionFilter, bool] | None = None,
    in_axes: Any = 0,
    out_axes: Any = 0,
    length: int | None = None,
    reverse: bool = False,
    unroll: int = 1,
    metadata_params: Mapping | None = None,
    check_constancy_invariants: bool = True,
) -> Callable[..., Any]:
    """``lax.scan`` of ``fn(scope, carry, *xs) -> (carry, ys)``; see :func:`scan`.

    Without ``check_constancy_invariants`` the body is traced once, by the loop (Flax's
    simple scan): no first step creates broadcast variables or checks their constancy.
    """
    var_filters, var_axes = _split_axes(variable_axes or {})
    rng_filters, rng_splits = _split_axes(split_rngs or {})
    in_filters = (variable_broadcast, variable_carry) + var_filters

    def lifted(scopes: Sequence[Scope], init: Any, *args: Any, **kwargs: Any) -> Any:
        kwargs = _ignored("scan", kwargs)
        lift = _Lift(scopes, in_filters, in_filters, rng_filters, "scan")
        bvars, cvars, *svars = lift.var_groups
        prefix = tuple(in_axes) if isinstance(in_axes, list) else in_axes
        n = _axis_size(prefix, args, length, "scan", scopes[0].path_text)
        leaves, args_tree = tree_util.tree_flatten(args)
        axes = _leaf_axes(prefix, args)
        svars = tuple(
            tree_util.tree_map(lambda v, ax=ax: _move(v, ax, 0), g)
            for g, ax in zip(
                _meta_axes(meta.remove_axis, svars, var_axes, metadata_params), var_axes
            )
        )
        xs = tuple(None if ax is broadcast else _move(v, ax, 0) for ax, v in zip(axes, leaves))
        rngs = _split_rng_groups(lift.rng_groups, rng_splits, lambda k: random.split(k, n))
        empty = tuple({} for _ in lift.scopes)
        rng_xs = tuple(g if s else empty for g, s in zip(rngs, rng_splits))
        rng_consts = tuple(empty if s else g for g, s in zip(rngs, rng_splits))

        def body(bvars_in: tuple, carry: tuple, x: tuple) -> tuple:
            cvars_in, c = carry
            svars_x, rng_x, args_x = x
            step_args = tree_util.tree_unflatten(
                args_tree,
                [v if ax is broadcast else v_x for ax, v, v_x in zip(axes, leaves, args_x)],
            )
            step_rngs = tuple(_merge_groups(a, b) for a, b in zip(rng_x, rng_consts))
            inner = lift.scope_fn((bvars_in, cvars_in, *svars_x), step_rngs)
            c, y = fn(inner, c, *step_args, **kwargs)
            b_out, c_out, *s_out = lift.repack(inner)
            return _merge_groups(bvars_in, b_out), (c_out, c), (y, tuple(s_out))

        # Broadcast variables are created by one call on the first step (Flax's extra trace
        # of the body), then read by every step; without any to create, the call is abstract
        # (it only advances the RNG counters, as Flax's trace does).
        first = tree_util.tree_map(lambda v: _first_step(v, reverse), (svars, rng_xs, xs))
        creates = not all(
            scope_lib.is_filter_empty(scope_lib.intersect_filters(m, variable_broadcast))
            for m in lift.mutables
        )
        if creates and check_constancy_invariants:
            bvars = _broadcast_init(lambda c, x: body(bvars, c, x)[0], (cvars, init), first)
        elif check_constancy_invariants:
            core.eval_shape(lambda b, c, x: body(b, c, x)[1], bvars, (cvars, init), first)

        def step(carry: tuple, x: tuple) -> tuple:
            _, carry, out = body(bvars, carry, x)
            return carry, out

        (cvars, c), (ys, svars_out) = lax.scan(
            step, (cvars, init), (svars, rng_xs, xs), length=length, reverse=reverse, unroll=unroll
        )
        svars_out = _meta_axes(
            meta.add_axis,
            [
                tree_util.tree_map(lambda v, ax=ax: _move(v, 0, ax), g)
                for g, ax in zip(svars_out, var_axes)
            ],
            var_axes,
            metadata_params,
        )
        ys = _map_prefix(lambda ax, y: _move(y, 0, ax % jnp.ndim(y)), out_axes, ys)
        lift.publish((bvars, cvars, *svars_out))
        return c, ys

    return lifted


def _broadcast_init(first_step: Callable, carry: Any, x: Any) -> Any:
    """The broadcast variables the first step creates, computed from a jaxpr of that step:
    as Flax's partial evaluation finds, they may depend on neither the carry nor the step's
    slices (its per-step RNG keys included), only on the variables and keys every step shares.

    Raises:
      ScanBroadcastDependencyError: a broadcast variable depends on the carry or the slices.
    """
    closed, shape = core.make_jaxpr(first_step, return_shape=True)(carry, x)
    jaxpr = closed.jaxpr
    if any(_varying_outputs(jaxpr, [True] * len(jaxpr.invars))):
        raise errors.ScanBroadcastDependencyError()
    leaves = ir.eval_jaxpr(jaxpr, closed.consts, *tree_util.tree_leaves((carry, x)))
    return tree_util.tree_unflatten(tree_util.tree_structure(shape), leaves)


# Equations that run their jaxpr once on their operands as they are (calls): their results
# vary as the jaxpr's do. Any other equation with a varying operand varies in all its results.
_CALLS = frozenset({"jit", "pjit", "remat2", "checkpoint", "custom_jvp_call", "custom_vjp_call"})


def _varying_outputs(jaxpr: ir.Jaxpr, varying_in: list[bool]) -> list[bool]:
    """Which outputs of `jaxpr` depend on the inputs marked in `varying_in`."""
    varying = {v for v, vary in zip(jaxpr.invars, varying_in) if vary}

    def varies(v: Any) -> bool:
        return isinstance(v, ir.Var) and v in varying

    for eqn in jaxpr.eqns:
        operands = [varies(v) for v in eqn.invars]
        if not any(operands):
            continue
        inner = ir.sub_jaxprs(eqn.params.get("jaxpr") or eqn.params.get("call_jaxpr"))
        if (
            eqn.primitive.name in _CALLS
            and len(inner) == 1
            and len(inner[0].invars) == len(operands)
            and len(inner[0].outvars) == len(eqn.outvars)
        ):
            outs = _varying_outputs(inner[0], operands)
        else:
            outs = [True] * len(eqn.outvars)
        varying.update(v for v, vary in zip(eqn.outvars, outs) if vary)
    return [varies(v) for v in jaxpr.outvars]


def _leaf_axes(prefix: Any, args: tuple) -> list[Any]:
    """``nn.scan``'s ``in_axes`` (a prefix of the argument tuple: one int or ``nn.broadcast``
    for all, or a pytree of them per argument) as one entry per leaf of ``args``."""
    n_leaves = len(tree_util.tree_leaves(args))
    if isinstance(prefix, (int, _Broadcast)):
        return [prefix] * n_leaves
    nested = tree_util.tree_map(
        lambda ax, sub: [ax] * len(tree_util.tree_leaves(sub)),
        prefix,
        args,
        is_leaf=lambda x: x is None or isinstance(x, _Broadcast),
    )
    axes = [
        ax
        for group in tree_util.tree_leaves(nested, is_leaf=lambda x: isinstance(x, list))
        for ax in group
    ]
    if not all(isinstance(ax, (int, _Broadcast)) for ax in axes):
        raise errors.ScanAxesError(prefix, len(args))
    return axes


class _JitContext(threading.local):
    def __init__(self) -> None:
        self.stack: list[tuple[Callable, _Lift, Any]] = []


def lift_jit(
    fn: Callable[..., Any],
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
    static_argnums: int | Sequence[int] = (),
    static_argnames: str | Sequence[str] = (),
) -> Callable[..., Any]:
    """``core.jit`` of ``fn(scope, static, *args)``; see :func:`jit`.

    One compiled function serves every call: the per-call scope machinery reaches the traced
    body through a context stack, and a static fingerprint (the caller's, plus path, flags,
    mutability and RNG suffixes) keeps different modules apart in the cache.
    """
    static_argnums = (static_argnums,) if isinstance(static_argnums, int) else static_argnums
    context = _JitContext()

    def jitted(fingerprint, var_groups, rng_groups, *args, **kwargs):
        body, lift, static = context.stack[-1]
        inner = lift.scope_fn(var_groups, rng_groups)
        y = body(inner, static, *args, **kwargs)
        return y, lift.repack(inner)

    compiled = core.jit(
        jitted,
        static_argnums=(0,) + tuple(i + 2 for i in static_argnums if i > 0),
        static_argnames=static_argnames,
    )

    deltas: dict[Any, list[dict]] = {}  # key -> what the first (traced) call added to counters

    def lifted(scopes: Sequence[Scope], fingerprint: Any, *args: Any, **kwargs: Any) -> Any:
        lift = _Lift(scopes, (variables,), (variables,), (rngs,), "jit")
        key = (_hashable(fingerprint), lift.static_key())
        context.stack.append((fn, lift, fingerprint))
        before = [_counts(s.rng_counters) for s in lift.scopes]
        try:
            y, out_groups = compiled(key, lift.var_groups, lift.rng_groups, *args, **kwargs)
        finally:
            context.stack.pop()
        _advance_counters(deltas, key, lift.scopes, before)
        lift.publish(out_groups)
        return y

    return lifted


def _counts(counters: scope_lib._RngCounters, path: tuple = ()) -> dict:
    """A scope's `make_rng` counters and its children's, flat: {(child path, stream): count}."""
    out = {(path, name): n for name, n in counters.streams.items()}
    for name, child in counters.children.items():
        out.update(_counts(child, (*path, name)))
    return out


def _advance_counters(deltas: dict, key: Any, scopes: Sequence[Scope], before: list) -> None:
    """Flax's `_restore_rng_counters`: the `make_rng` calls of a jitted body run (advancing the
    outer counters, which the body's keys are folded from) only when it is traced. The first
    call with `key` records how far it moved each counter; every later call (the compiled
    body, its counts baked in) moves them as far again from where they are."""
    if key not in deltas:
        deltas[key] = [
            {k: n - old.get(k, 0) for k, n in _counts(s.rng_counters).items()}
            for s, old in zip(scopes, before)
        ]
        return
    for s, delta, old in zip(scopes, deltas[key], before):
        for (path, name), n in delta.items():
            node = s.rng_counters
            for part in path:
                node = node.children.setdefault(part, scope_lib._RngCounters())
            node.streams[name] = old.get((path, name), 0) + n


def lift_fold_rngs(
    fn: Callable[..., Any], variables: CollectionFilter = True, rngs: CollectionFilter = True
) -> Callable[..., Any]:
    """``fn(scope, static, *args)`` on a lifted scope, as `lift_jit` without compiling: the
    RNG streams are handed in as keys (suffixes cleared) and the outer counters stay put."""

    def lifted(scopes: Sequence[Scope], static: Any, *args: Any, **kwargs: Any) -> Any:
        lift = _Lift(scopes, (variables,), (variables,), (rngs,), "fold_rngs")
        inner = lift.scope_fn(lift.var_groups, lift.rng_groups)
        y = fn(inner, static, *args, **kwargs)
        lift.publish(lift.repack(inner))
        return y

    return lifted


def lift_checkpoint(
    fn: Callable[..., Any],
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
    prevent_cse: bool = True,
    static_argnums: int | Sequence[int] = (),
    policy: Callable[..., bool] | None = None,
) -> Callable[..., Any]:
    """``core.checkpoint`` of ``fn(scope, *args)``; see :func:`checkpoint`."""
    static_argnums = (static_argnums,) if isinstance(static_argnums, int) else static_argnums

    def lifted(scopes: Sequence[Scope], *args: Any, **kwargs: Any) -> Any:
        lift = _Lift(scopes, (variables,), (variables,), (rngs,), "remat")
        static = {i - 1: args[i - 1] for i in static_argnums if 0 < i <= len(args)}
        dynamic = tuple(a for i, a in enumerate(args) if i not in static)

        def rematted(var_groups: tuple, rng_groups: tuple, *dyn: Any) -> Any:
            it = iter(dyn)
            full = [static[i] if i in static else next(it) for i in range(len(args))]
            inner = lift.scope_fn(var_groups, rng_groups)
            y = fn(inner, *full, **kwargs)
            return y, lift.repack(inner)

        y, out_groups = core.checkpoint(rematted, prevent_cse=prevent_cse, policy=policy)(
            lift.var_groups, lift.rng_groups, *dynamic
        )
        lift.publish(out_groups)
        return y

    return lifted


def lift_map_variables(
    fn: Callable[..., Any],
    mapped_collections: CollectionFilter,
    map_in_fn: Callable[[dict], dict],
    map_out_fn: Callable[[dict], dict],
    init: bool,
    mutable: bool,
    rngs: CollectionFilter,
    variables: CollectionFilter,
) -> Callable[..., Any]:
    """Scope-level :func:`map_variables` (Flax's ``lift.map_variables``)."""
    target_out = mutable or init
    in_filters = (mapped_collections, variables)
    out_filters = (
        in_filters
        if target_out
        else (False, scope_lib.subtract_filters(variables, mapped_collections))
    )

    def lifted(scopes: Sequence[Scope], *args: Any, **kwargs: Any) -> Any:
        lift = _Lift(scopes, in_filters, out_filters, (rngs,), "map_variables")
        target, other = lift.var_groups
        if init:
            s = lift.scope_fn((target, other), lift.rng_groups)
            if any(not scope_lib.is_filter_empty(inner.mutable) for inner in s):
                fn(s, *args, **kwargs)
                target = tuple(map_out_fn(t) for t in lift.repack(s)[0])
        target = tuple(map_in_fn(scope_lib._copy_dicts(t)) for t in target)
        mfilter: CollectionFilter = True
        if not target_out:
            mfilter = scope_lib.subtract_filters(True, mapped_collections)
        s = lift.scope_fn((target, other), lift.rng_groups, mutable_filter=mfilter)
        y = fn(s, *args, **kwargs)
        out_target, out_other = lift.repack(s)
        if target_out:
            out_target = tuple(map_out_fn(t) for t in out_target)
        lift.publish((out_target, out_other))
        return y

    return lifted
