"""Lifted transforms: ``nn.jit``, ``nn.vmap``, ``nn.scan``, ``nn.remat``, ``nn.cond``... on modules.

A core transform (``core.vmap``, ``lax.scan``...) only sees pure functions of arrays, while a
module reads and writes variables through its scope. Lifting bridges the two as in Flax's
``flax.core.lift``: the variables of the module's scope are split into groups by collection
filters (``variable_axes``, ``variable_broadcast``...) and passed to the core transform as
explicit arguments together with the raw keys of the RNG streams; inside, a fresh scope with
the same path is built over them (``_Lift.scope_fn``), the module is cloned onto it and run,
and the mutable collections come back out as outputs (``_Lift.repack``); outside, they are
written to the original scope (``_Lift.publish``). RNG streams keep their static path suffix,
and ``split_rngs`` splits the root key per mapped index / scan step before the suffix is folded
in, exactly like Flax, so ``nn.vmap(nn.Dense, variable_axes={'params': 0}, ...)`` and
``nn.scan(nn.LSTMCell, ...)`` create the same parameters as Flax with the same key.

Every transform exists at two levels: a scope-level function (``lift_vmap(fn, ...)`` takes
``fn(scopes, *args)``, ``scopes`` being the list of lifted scopes) and the public module-level
one that accepts a ``Module`` class (returns a subclass named ``VmapDense``... whose
``methods`` are transformed) or a function whose first argument is a module
(``nn.vmap(lambda mdl, x: mdl(x), ...)(module, x)``, also usable as a method decorator).

Partial, and different from Flax:
  * the module's scope and those of modules held in its fields but bound elsewhere are lifted
    together (as Flax); bound modules and ``Variable`` objects passed as method *arguments*
    are not lifted (Flax lifts them too); ``nn.vjp``/``nn.jvp``/``nn.custom_vjp`` lift one
    scope (as Flax's default);
  * ``nn.jit`` keeps each stream's path when deriving keys (Flax drops it inside ``jit``, so
    its jitted modules get other values than the plain ones); the RNG counters do not advance
    on cache hits; kwargs are dynamic (pytrees of arrays) unless named in ``static_argnames``;
    a module with an unhashable field is traced again on every call;
  * ``nn.scan`` checks no data dependency of broadcast variables on the carry: it creates them
    with one eager call of the body on the first step (Flax traces it abstractly); its
    ``in_axes`` is an int, ``nn.broadcast`` or one of those per argument (not a nested
    prefix tree) and its ``out_axes`` must be ints;
  * ``nn.remat`` computes once (``core.checkpoint`` keeps residuals); policies are accepted;
  * keyword arguments of ``nn.vmap``/``nn.scan`` methods are closed over (broadcast), where
    Flax ignores them with a warning.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
import threading
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import core
import core.numpy as jnp
from core import lax, random, tree_util
from nn import errors, meta
from nn import module as module_lib
from nn import scope as scope_lib
from nn.module import Module
from nn.scope import CollectionFilter, LazyRng, Scope

Array = Any


class _Broadcast:
    """The ``in_axes`` marker of a scan argument passed whole to every step."""

    def __repr__(self) -> str:
        return "nn.broadcast"


broadcast = _Broadcast()


# ---------------------------------------------------------------------------------------------
# The functional core: packing a scope's variables and rngs


class _Lift:
    """The variables and RNG streams of some scopes split into groups, and the way back.

    Groups are laid out as Flax's: ``var_groups[g][k]`` is the ``{collection: tree}`` dict of
    group ``g`` for scope ``k`` (likewise ``rng_groups[g][k]`` is ``{stream: root_key}``), so
    a per-group axis spec is a prefix of the group's tuple over scopes.

    Args:
      scopes: the scopes being lifted (the module's own first, then those of modules held in
        its fields that are bound elsewhere).
      in_filters: one collection filter per input variable group.
      out_filters: one filter per output group (the collections the body may write).
      rng_filters: one filter per RNG group (streams matching no filter are not lifted).
    """

    def __init__(
        self,
        scopes: Sequence[Scope],
        in_filters: Sequence[CollectionFilter],
        out_filters: Sequence[CollectionFilter],
        rng_filters: Sequence[CollectionFilter],
    ):
        self.scopes = list(scopes)
        self.out_filters = tuple(out_filters)
        mutable: CollectionFilter = False
        for out_filter in self.out_filters:
            mutable = scope_lib.union_filters(mutable, out_filter)
        self.mutables = [scope_lib.intersect_filters(s.mutable, mutable) for s in self.scopes]
        per_scope = []
        for s in self.scopes:
            visible = {col: s._collection(col) for col in s.root._variables}
            visible = {c: v for c, v in visible.items() if v or s.is_mutable_collection(c)}
            per_scope.append(scope_lib.group_collections(visible, in_filters))
        self.var_groups = _transpose(per_scope, len(in_filters))
        per_scope = [
            tuple(
                {name: lazy.rng for name, lazy in g.items()}
                for g in scope_lib.group_collections(s.rngs, rng_filters)
            )
            for s in self.scopes
        ]
        self.rng_groups = _transpose(per_scope, len(rng_filters))
        self.suffixes = [{name: lazy.suffix for name, lazy in s.rngs.items()} for s in self.scopes]

    @property
    def mutable(self) -> CollectionFilter:
        """What the module's own (first) scope may write inside the transform."""
        return self.mutables[0]

    def static_key(self) -> tuple:
        """What the traced body depends on besides the groups' values (for jit caching)."""
        return tuple(
            (
                s.path,
                _hashable(tuple(sorted(s.flags.items()))),
                repr(m),
                tuple(sorted(suffixes.items())),
            )
            for s, m, suffixes in zip(self.scopes, self.mutables, self.suffixes)
        )

    def scope_fn(
        self,
        var_groups: Sequence[Sequence[Mapping]],
        rng_groups: Sequence[Sequence[Mapping]],
        mutable_filter: CollectionFilter = True,
    ) -> list[Scope]:
        """Parentless scopes at the lifted scopes' paths over the given groups."""
        inner_scopes = []
        for k, outer in enumerate(self.scopes):
            variables: dict = {}
            for group in var_groups:
                variables.update({c: scope_lib._copy_dicts(v) for c, v in group[k].items()})
            rngs = {}
            for group in rng_groups:
                rngs.update({n: LazyRng(key, self.suffixes[k][n]) for n, key in group[k].items()})
            # the streams the call has that the transform does not lift (for make_rng's error)
            unlifted = outer.flags.get("unlifted_rngs", frozenset()) | (
                outer.rngs.keys() - rngs.keys()
            )
            inner = Scope(
                variables,
                rngs,
                name=outer.name,
                mutable=scope_lib.intersect_filters(self.mutables[k], mutable_filter),
                path=outer.path,
                flags={**outer.flags, "unlifted_rngs": frozenset(unlifted)},
            )
            inner.rng_counters = outer.rng_counters
            inner_scopes.append(inner)
        return inner_scopes

    def repack(self, inner_scopes: Sequence[Scope]) -> tuple[tuple[dict, ...], ...]:
        """The mutable collections of the inner scopes, grouped by the output filters."""
        per_scope = [
            scope_lib.group_collections(
                {c: v for c, v in s._variables.items() if s.is_mutable_collection(c)},
                self.out_filters,
            )
            for s in inner_scopes
        ]
        return _transpose(per_scope, len(self.out_filters))

    def publish(self, out_groups: Sequence[Sequence[Mapping]]) -> None:
        """Writes the output groups to the lifted scopes (immutable collections are skipped).

        Names are written sorted and dicts within values rebuilt with sorted keys, as Flax's
        lifted variables come out of a JAX transform (``tree_unflatten`` sorts dict keys).
        """
        for group in out_groups:
            for scope, collections in zip(self.scopes, group):
                for col, collection in collections.items():
                    if scope.is_mutable_collection(col):
                        for name in sorted(collection):
                            value = tree_util.tree_map(lambda x: x, collection[name])
                            scope.put_variable(col, name, value)


def _transpose(per_scope: Sequence[Sequence[Any]], n_groups: int) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(groups[g] for groups in per_scope) for g in range(n_groups))


def _merge_groups(a: Sequence[Mapping], b: Sequence[Mapping]) -> tuple[dict, ...]:
    return tuple({**x, **y} for x, y in zip(a, b))


def _split_rng_groups(
    rng_groups: Sequence[Sequence[Mapping]],
    splits: Sequence[bool],
    split: Callable[[Array], Array],
) -> tuple:
    """Applies ``split`` to the keys of the groups whose flag in ``splits`` is set."""
    return tuple(
        tuple({name: split(key) if do_split else key for name, key in g.items()} for g in group)
        for group, do_split in zip(rng_groups, splits)
    )


def _prefix_pairs(prefix: Any, tree: Any) -> list[tuple[Any, Any]]:
    """``(axis, leaf)`` for every leaf of ``tree``, with ``prefix`` broadcast over subtrees."""
    if prefix is None or isinstance(prefix, (int, _Broadcast)):
        return [(prefix, leaf) for leaf in tree_util.tree_leaves(tree)]
    nested = tree_util.tree_map(
        lambda ax, sub: [(ax, leaf) for leaf in tree_util.tree_leaves(sub)],
        prefix,
        tree,
        is_leaf=lambda x: x is None or isinstance(x, _Broadcast),
    )
    return [
        pair
        for pairs in tree_util.tree_leaves(nested, is_leaf=lambda x: isinstance(x, list))
        for pair in pairs
    ]


def _map_prefix(fn: Callable[[Any, Any], Any], prefix: Any, tree: Any) -> Any:
    """``fn(axis, leaf)`` over ``tree`` with ``prefix`` broadcast over subtrees."""
    if prefix is None or isinstance(prefix, (int, _Broadcast)):
        return tree_util.tree_map(lambda leaf: fn(prefix, leaf), tree)
    return tree_util.tree_map(
        lambda ax, sub: tree_util.tree_map(lambda leaf: fn(ax, leaf), sub),
        prefix,
        tree,
        is_leaf=lambda x: x is None or isinstance(x, _Broadcast),
    )


def _first_step(v: Any, reverse: bool) -> Any:
    """The slice a scan's first step reads; zeros (or zero keys) of its shape when the scan
    has no steps (Flax traces the body on the slice's shape then, and gives empty outputs)."""
    if v.shape[0]:
        return v[-1 if reverse else 0]
    if core.dtypes.issubdtype(v.dtype, core.dtypes.prng_key):
        data = random.key_data(v)
        zeros = jnp.zeros(data.shape[1:], data.dtype)
        return random.wrap_key_data(zeros, impl=random.key_impl(v))
    return jnp.zeros(v.shape[1:], v.dtype)


def _axis_size(pairs: list[tuple[Any, Any]], given: int | None, what: str, path: str) -> int:
    sizes = {jnp.shape(leaf)[ax] for ax, leaf in pairs if isinstance(ax, int)}
    if given is not None:
        sizes.add(int(given))
    if len(sizes) != 1:
        raise errors.TransformAxisSizeError(what, sorted(sizes), path)
    return sizes.pop()


def _split_axes(variable_axes: Mapping[CollectionFilter, Any]) -> tuple[tuple, tuple]:
    return tuple(variable_axes.keys()), tuple(variable_axes.values())


# ---------------------------------------------------------------------------------------------
# Scope-level transforms: fn(scope, *args) -> lifted(scope, *args)


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
        lift = _Lift(scopes, var_filters, var_filters, rng_filters)
        var_groups = _meta_axes(meta.remove_axis, lift.var_groups, var_axes, metadata_params)
        pairs = _prefix_pairs((var_axes, in_axes), (var_groups, args))
        size = _axis_size(pairs, axis_size, "vmap", scopes[0].path_text)
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
            axis_size=size,
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
) -> Callable[..., Any]:
    """``lax.scan`` of ``fn(scope, carry, *xs) -> (carry, ys)``; see :func:`scan`."""
    var_filters, var_axes = _split_axes(variable_axes or {})
    rng_filters, rng_splits = _split_axes(split_rngs or {})
    in_filters = (variable_broadcast, variable_carry) + var_filters

    def lifted(scopes: Sequence[Scope], init: Any, *args: Any, **kwargs: Any) -> Any:
        kwargs = _ignored("scan", kwargs)
        lift = _Lift(scopes, in_filters, in_filters, rng_filters)
        bvars, cvars, *svars = lift.var_groups
        axes = _per_arg_axes(in_axes, len(args))
        pairs = [(ax, leaf) for ax, a in zip(axes, args) for leaf in tree_util.tree_leaves(a)]
        n = _axis_size(pairs, length, "scan", scopes[0].path_text)
        svars = tuple(
            tree_util.tree_map(lambda v, ax=ax: _move(v, ax, 0), g)
            for g, ax in zip(
                _meta_axes(meta.remove_axis, svars, var_axes, metadata_params), var_axes
            )
        )
        xs = tuple(
            None if ax is broadcast else tree_util.tree_map(lambda v, ax=ax: _move(v, ax, 0), a)
            for ax, a in zip(axes, args)
        )
        rngs = _split_rng_groups(lift.rng_groups, rng_splits, lambda k: random.split(k, n))
        empty = tuple({} for _ in scopes)
        rng_xs = tuple(g if s else empty for g, s in zip(rngs, rng_splits))
        rng_consts = tuple(empty if s else g for g, s in zip(rngs, rng_splits))

        def body(bvars_in: tuple, carry: tuple, x: tuple) -> tuple:
            cvars_in, c = carry
            svars_x, rng_x, args_x = x
            step_args = [a if ax is broadcast else ax_x for ax, a, ax_x in zip(axes, args, args_x)]
            step_rngs = tuple(_merge_groups(a, b) for a, b in zip(rng_x, rng_consts))
            inner = lift.scope_fn((bvars_in, cvars_in, *svars_x), step_rngs)
            c, y = fn(inner, c, *step_args, **kwargs)
            b_out, c_out, *s_out = lift.repack(inner)
            return _merge_groups(bvars_in, b_out), (c_out, c), (y, tuple(s_out))

        # Broadcast variables are created by one call on the first step (Flax's extra trace
        # of the body), then read by every step; without any to create, the call is abstract
        # (it only advances the RNG counters, as Flax's trace does).
        first = tree_util.tree_map(lambda v: _first_step(v, reverse), (svars, rng_xs, xs))
        if all(
            scope_lib.is_filter_empty(scope_lib.intersect_filters(m, variable_broadcast))
            for m in lift.mutables
        ):
            core.eval_shape(lambda b, c, x: body(b, c, x)[1], bvars, (cvars, init), first)
        else:
            bvars = body(bvars, (cvars, init), first)[0]

        def step(carry: tuple, x: tuple) -> tuple:
            _, carry, out = body(bvars, carry, x)
            return carry, out

        (cvars, c), (ys, svars_out) = lax.scan(
            step, (cvars, init), (svars, rng_xs, xs), length=n, reverse=reverse, unroll=unroll
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


def _per_arg_axes(in_axes: Any, n_args: int) -> list[Any]:
    """``in_axes`` of ``nn.scan`` as one entry (an int or ``nn.broadcast``) per argument."""
    if isinstance(in_axes, (int, _Broadcast)):
        return [in_axes] * n_args
    if (
        isinstance(in_axes, (tuple, list))
        and len(in_axes) == n_args
        and all(isinstance(ax, (int, _Broadcast)) for ax in in_axes)
    ):
        return list(in_axes)
    raise errors.ScanAxesError(in_axes, n_args)


class _JitContext(threading.local):
    def __init__(self) -> None:
        self.stack: list[tuple[Callable, _Lift, Any]] = []


def _hashable(x: Any) -> Any:
    """``x`` if hashable, else a token that is equal only to itself (forces a retrace)."""
    try:
        hash(x)
        return x
    except TypeError:
        return object()


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
        lift = _Lift(scopes, (variables,), (variables,), (rngs,))
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
        lift = _Lift(scopes, (variables,), (variables,), (rngs,))
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
        lift = _Lift(scopes, (variables,), (variables,), (rngs,))
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


# ---------------------------------------------------------------------------------------------
# From scope functions to modules


def _external_modules(module: Module) -> list[Module]:
    """Modules in ``module``'s fields bound outside its scope (they bring their own scopes)."""
    own = module.scope
    found: dict[int, Module] = {}

    def visit(_: str, m: Module) -> Module:
        s = m.scope
        inside = s is not None and s.root is own.root and s.path[: len(own.path)] == own.path
        if s is not None and not inside:
            found.setdefault(m._id, m)
        return m

    for f in dataclasses.fields(module):
        if f.init and f.name not in ("parent", "name"):
            module_lib._map_over_modules(visit, getattr(module, f.name))
    return list(found.values())


def _module_scopes(module: Module, what: str, multi_scope: bool = True) -> list[Scope]:
    """The scopes a transform of ``module`` lifts: its own, then its external field modules'."""
    scope = module._require_scope(f"run nn.{what}")
    external = _external_modules(module)
    if external and not multi_scope:
        raise errors.MultiScopeTransformError(what, [type(m).__name__ for m in external])
    return [scope] + [m.scope for m in external]


def _bind_clone(module: Module, scopes: Sequence[Scope], cls: type | None = None) -> Module:
    """A copy of ``module`` (as class ``cls``) bound to ``scopes[0]``.

    Field submodules bound outside the module (see :func:`_external_modules`) are bound to
    the matching ``scopes[1:]``; the others are cloned unbound and adopted again, so they
    land at the same names under the new scope.
    """
    external = {m._id: s for m, s in zip(_external_modules(module), scopes[1:])}
    cache: dict[int, Module] = {}

    def clone_fn(_: str, m: Module) -> Module:
        if m._id not in cache:
            if m._id in external:
                cache[m._id] = m.clone(parent=external[m._id], _deep_clone=True)
            else:
                cache[m._id] = m.clone(_deep_clone=cache)
        return cache[m._id]

    attrs = {
        f.name: module_lib._map_over_modules(clone_fn, getattr(module, f.name))
        for f in dataclasses.fields(module)
        if f.init and f.name != "parent"
    }
    return (cls or type(module))(parent=scopes[0], **attrs)


def _call_on_clone(
    fn: Callable,
    module: Module,
    scopes: Sequence[Scope],
    cls: type | None,
    args: tuple,
    kwargs: dict,
    cursor: dict,
) -> Any:
    """Runs ``fn`` (a wrapped method) on a clone of ``module`` bound to ``scopes``.

    Called from inside a compact method (the functional form), the clone may define
    submodules too: it starts from the auto-name counters ``cursor`` the module had when the
    transform was called (a transform may trace its body more than once, e.g. ``scan``, and
    every trace must name submodules alike), and the counters flow back so later names stay
    unique.
    """
    clone = _bind_clone(module, scopes, cls)
    in_compact = module._state.in_compact_method
    if in_compact:
        clone._state.in_compact_method = True
        clone._state.autoname_cursor = dict(cursor)
    y = fn(clone, *args, **kwargs)
    if in_compact:
        module._state.autoname_cursor.update(clone._state.autoname_cursor)
    _check_outputs(y, getattr(fn, "__name__", "method"))
    return y


def _check_outputs(tree: Any, method: str) -> None:
    leaves = tree_util.tree_leaves(tree, is_leaf=lambda x: isinstance(x, Module))
    if any(isinstance(x, Module) for x in leaves):
        raise errors.TransformedMethodReturnValueError(method)


def _module_fingerprint(module: Module) -> Any:
    return (
        type(module),
        tuple(
            (f.name, _hashable(getattr(module, f.name)))
            for f in dataclasses.fields(module)
            if f.init and f.name != "parent"
        ),
    )


def _lift_method(
    lift_fn: Callable[..., Callable], fn: Callable, cls: type | None, fingerprint: bool = False
) -> Callable:
    """``fn(module, *args)`` → a method running ``fn`` on a clone bound to the lifted scope.

    ``lift_fn(body)`` is a scope-level transform (``body(scopes, *args)``). With ``cls``, the
    clone is made of that class (the untransformed one, for class transforms).
    """
    prewrapped = module_lib._wrap_method(fn)
    name = getattr(fn, "__name__", "method")

    def body(module: Module, cursor: dict, scopes: list[Scope], *args: Any, **kwargs: Any) -> Any:
        return _call_on_clone(prewrapped, module, scopes, cls, args, kwargs, cursor)

    if fingerprint:
        # jit: one compiled body per method; the module travels through the context.
        lifted = lift_fn(
            lambda scopes, static, *a, **k: body(static.module, static.cursor, scopes, *a, **k)
        )

        def run(module: Module, *args: Any, **kwargs: Any) -> Any:
            with _fork_rngs(module):
                scopes = _module_scopes(module, name)
                return lifted(scopes, _JitModule(module), *args, **kwargs)

    else:

        def run(module: Module, *args: Any, **kwargs: Any) -> Any:
            scopes = _module_scopes(module, name)
            cursor = dict(module._state.autoname_cursor)
            return lift_fn(functools.partial(body, module, cursor))(scopes, *args, **kwargs)

    functools.update_wrapper(run, fn)
    run.__dict__.pop("compact", None)
    return run


@contextlib.contextmanager
def _fork_rngs(module: Module):
    """Flax's ``fork_rngs`` around ``nn.jit``: while the jitted method runs, each RNG stream of the
    module's scope is a key drawn from it (``make_rng``, so the stream's counter moves on by
    one), so keys made inside are those of Flax, not of the untransformed module."""
    scope = module.scope
    if scope is None:
        yield
        return
    saved = scope.rngs
    scope.rngs = {n: LazyRng(scope.make_rng(n)) for n in saved}
    try:
        yield
    finally:
        scope.rngs = saved


class _JitModule:
    """The module of a jitted call: static data compared by the module's fields."""

    def __init__(self, module: Module):
        self.module = module
        self.cursor = dict(module._state.autoname_cursor)
        scope = module.scope
        # Flax's fingerprint holds the scope's make_rng counts (after fork_rngs moved them on):
        # a call with other counts traces again, its keys folded from them
        counts = () if scope is None else tuple(sorted(scope.rng_counters.streams.items()))
        self.key = (_module_fingerprint(module), tuple(sorted(self.cursor.items())), counts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _JitModule) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


def _transform(
    lift_factory: Callable[..., Callable],
    target: Any,
    name: str,
    methods: Any = None,
    fingerprint: bool = False,
    **trafo_kwargs: Any,
) -> Any:
    """Applies a lifted transform to a module class (→ subclass) or a function of a module."""
    if isinstance(target, functools.partial) and _is_module_class(target.func):
        cls = _transform(lift_factory, target.func, name, methods, fingerprint, **trafo_kwargs)
        return functools.partial(cls, *target.args, **target.keywords)
    if _is_module_class(target):
        if methods is None:
            per_method = {"__call__": trafo_kwargs}
        elif isinstance(methods, Mapping):
            per_method = dict(methods)
        elif isinstance(methods, (list, tuple)):
            per_method = {m: trafo_kwargs for m in methods}
        else:
            raise errors.TransformMethodsError(methods)
        namespace = {
            m: _lift_method(
                functools.partial(lift_factory, **kw),
                getattr(target, m),
                target,
                fingerprint,
            )
            for m, kw in per_method.items()
        }
        return type(name.capitalize() + target.__name__, (target,), namespace)
    if not callable(target) or isinstance(target, Module):
        raise errors.TransformTargetError(name, target)
    return _lift_method(functools.partial(lift_factory, **trafo_kwargs), target, None, fingerprint)


def _is_module_class(target: Any) -> bool:
    return inspect.isclass(target) and issubclass(target, Module)


# ---------------------------------------------------------------------------------------------
# Public transforms


def vmap(
    target: Any,
    variable_axes: Mapping[CollectionFilter, int | None] | None = None,
    split_rngs: Mapping[CollectionFilter, bool] | None = None,
    in_axes: Any = 0,
    out_axes: Any = 0,
    axis_size: int | None = None,
    axis_name: str | None = None,
    spmd_axis_name: str | None = None,
    metadata_params: Mapping | None = None,
    methods: Any = None,
) -> Any:
    """Vectorizes a module (or a function of one) over an axis, lifting its variables.

    Args:
      target: a ``Module`` class or a function ``f(module, *args)``.
      variable_axes: ``{collection_filter: axis}``: collections mapped along ``axis`` (one set
        of variables per index) or shared (``None``). Collections not listed are not visible.
      split_rngs: ``{stream_filter: bool}``: streams given a different key per index (True)
        or the same key (False). Streams not listed are not visible.
      in_axes: the mapped axes of the positional arguments (as ``core.vmap``).
      out_axes: the mapped axes of the outputs.
      axis_size: the size, when no input is mapped.
      axis_name: a name for collectives (``lax.psum(x, axis_name)``).
      spmd_axis_name: accepted for Flax compatibility.
      metadata_params: passed to the ``nn.meta`` boxes of mapped variables
        (``{nn.PARTITION_NAME: "layers"}`` names the new axis of partitioned params).
      methods: for a class, the methods to transform (default ``__call__``).

    Returns:
      The transformed class (named ``Vmap<Class>``) or function.

    Example::

        >>> Dense3 = nn.vmap(nn.Dense, variable_axes={"params": 0},
        ...                  split_rngs={"params": True}, in_axes=None, axis_size=3)
        >>> v = Dense3(2).init(core.random.key(0), jnp.ones((1, 4)))
        >>> core.tree_util.tree_map(jnp.shape, v)["params"]
        {'bias': (3, 2), 'kernel': (3, 4, 2)}
    """
    del spmd_axis_name
    return _transform(
        lift_vmap,
        target,
        "vmap",
        methods,
        variable_axes=dict(variable_axes or {}),
        split_rngs=dict(split_rngs or {}),
        in_axes=in_axes,
        out_axes=out_axes,
        axis_size=axis_size,
        axis_name=axis_name,
        metadata_params=metadata_params,
    )


def scan(
    target: Any,
    variable_axes: Mapping[CollectionFilter, int] | None = None,
    variable_broadcast: CollectionFilter = False,
    variable_carry: CollectionFilter = False,
    split_rngs: Mapping[CollectionFilter, bool] | None = None,
    in_axes: Any = 0,
    out_axes: Any = 0,
    length: int | None = None,
    reverse: bool = False,
    unroll: int = 1,
    data_transform: Callable | None = None,
    metadata_params: Mapping | None = None,
    methods: Any = None,
    _split_transpose: bool = False,
    check_constancy_invariants: bool = True,
) -> Any:
    """Loops a module over the leading axis of its inputs with ``lax.scan``, lifting variables.

    The transformed method has the signature ``(carry, *xs) -> (carry, ys)``.

    Args:
      target: a ``Module`` class or a function ``f(module, carry, *xs)``.
      variable_axes: collections with one set of variables per step, stacked along the axis.
      variable_broadcast: collections shared by all steps (created on the first step, e.g.
        ``'params'`` for an RNN cell); read-only inside the loop.
      variable_carry: collections carried (and updated) from step to step.
      split_rngs: ``{stream_filter: bool}``: a different key per step (True) or the same.
      in_axes: the scanned axis of each argument after the carry; ``nn.broadcast`` passes an
        argument whole to every step.
      out_axes: the axis of the stacked outputs (ints).
      length: the number of steps, when no argument is scanned.
      reverse: run from the last step to the first.
      unroll: steps per loop iteration in compiled code.
      data_transform: not supported (must be ``None``).
      metadata_params: passed to the ``nn.meta`` boxes of scanned variables (see ``vmap``).
      methods: for a class, the methods to transform.
      _split_transpose: accepted for Flax compatibility.
      check_constancy_invariants: accepted for Flax compatibility.

    Returns:
      The transformed class (named ``Scan<Class>``) or function.

    Example::

        >>> LSTM = nn.scan(nn.LSTMCell, variable_broadcast="params",
        ...                split_rngs={"params": False}, in_axes=1, out_axes=1)
        >>> cell = LSTM(4)
        >>> carry = cell.initialize_carry(core.random.key(1), (2, 3))
        >>> v = cell.init(core.random.key(0), carry, jnp.ones((2, 5, 3)))
        >>> cell.apply(v, carry, jnp.ones((2, 5, 3)))[1].shape
        (2, 5, 4)
    """
    del _split_transpose, check_constancy_invariants
    if data_transform is not None:
        raise NotImplementedError("nn.scan's data_transform is not supported.")
    return _transform(
        lift_scan,
        target,
        "scan",
        methods,
        variable_axes=dict(variable_axes or {}),
        variable_broadcast=variable_broadcast,
        variable_carry=variable_carry,
        split_rngs=dict(split_rngs or {}),
        in_axes=in_axes,
        out_axes=out_axes,
        length=length,
        reverse=reverse,
        unroll=unroll,
        metadata_params=metadata_params,
    )


def jit(
    target: Any,
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
    static_argnums: int | Sequence[int] = (),
    static_argnames: str | Sequence[str] = (),
    donate_argnums: int | Sequence[int] = (),
    device: Any = None,
    backend: str | None = None,
    methods: Any = None,
) -> Any:
    """Compiles a module's method (or a function of a module) with ``core.jit``.

    Args:
      target: a ``Module`` class or a function ``f(module, *args)``.
      variables: the collections lifted into the compiled function (default all).
      rngs: the RNG streams lifted (default all).
      static_argnums: positions of compile-time constant arguments, counting the module as 0.
      static_argnames: names of compile-time constant keyword arguments.
      donate_argnums: accepted for Flax compatibility.
      device: accepted for Flax compatibility.
      backend: accepted for Flax compatibility.
      methods: for a class, the methods to jit.

    Returns:
      The transformed class (named ``Jit<Class>``) or function.
    """
    del donate_argnums, device, backend
    return _transform(
        lift_jit,
        target,
        "jit",
        methods,
        fingerprint=True,
        variables=variables,
        rngs=rngs,
        static_argnums=static_argnums,
        static_argnames=static_argnames,
    )


def fold_rngs(target: Any, variables: CollectionFilter = True, rngs: CollectionFilter = True):
    """Runs a module's method (or a function of a module) with its RNG streams handed in as
    keys, as `jit` does, without compiling: keys drawn inside are those `nn.jit` would give
    (Flax's ``fold_rngs``), and the outer module's RNG counters do not move.

    Args:
      target: a ``Module`` class or a function ``f(module, *args)``.
      variables: the collections lifted (default all).
      rngs: the RNG streams lifted (default all).

    Returns:
      The transformed class (named ``Fold_rngs<Class>``) or function.
    """
    return _transform(
        lift_fold_rngs, target, "fold_rngs", None, fingerprint=True, variables=variables, rngs=rngs
    )


def checkpoint(
    target: Any,
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
    concrete: bool = False,
    prevent_cse: bool = True,
    static_argnums: int | Sequence[int] = (),
    policy: Callable[..., bool] | None = None,
    methods: Any = None,
) -> Any:
    """Gradient checkpointing of a module (``core.checkpoint`` on its variables and inputs).

    Args:
      target: a ``Module`` class or a function ``f(module, *args)``.
      variables: the collections lifted (default all).
      rngs: the RNG streams lifted (default all).
      concrete: accepted for Flax compatibility.
      prevent_cse: passed to ``core.checkpoint``.
      static_argnums: positions of non-array arguments, counting the module as 0.
      policy: which intermediates may be saved (``core.checkpoint_policies``).
      methods: for a class, the methods to transform.

    Returns:
      The transformed class (named ``Checkpoint<Class>``) or function.
    """
    del concrete
    return _transform(
        lift_checkpoint,
        target,
        "checkpoint",
        methods,
        variables=variables,
        rngs=rngs,
        prevent_cse=prevent_cse,
        static_argnums=static_argnums,
        policy=policy,
    )


remat = checkpoint


def _run_lifted(
    mdl: Module,
    what: str,
    in_filters: Sequence[CollectionFilter],
    out_filters: Sequence[CollectionFilter],
    rng_filters: Sequence[CollectionFilter],
    inner: Callable[[_Lift, Callable[[Callable, Any], Callable]], tuple[Any, Any]],
    multi_scope: bool = True,
) -> Any:
    """Lifts ``mdl``'s scopes and runs ``inner(lift, as_scope_fn)`` (→ ``(y, out_groups)``).

    ``as_scope_fn(fn)`` turns ``fn(module, *args)`` into ``g(scopes, *args)`` running ``fn``
    on a clone of ``mdl`` bound to ``scopes``. Without ``multi_scope`` only ``mdl``'s own
    scope is lifted (each group then holds one dict).
    """
    lift = _Lift(_module_scopes(mdl, what, multi_scope), in_filters, out_filters, rng_filters)
    cursor = dict(mdl._state.autoname_cursor)

    def as_scope_fn(fn: Callable) -> Callable:
        prewrapped = module_lib._wrap_method(fn)

        def scope_fn(s: list[Scope], *args: Any) -> Any:
            return _call_on_clone(prewrapped, mdl, s, None, args, {}, cursor)

        return scope_fn

    y, out_groups = inner(lift, as_scope_fn)
    lift.publish(out_groups)
    return y


def cond(
    pred: Any,
    true_fun: Callable[..., Any],
    false_fun: Callable[..., Any],
    mdl: Module,
    *operands: Any,
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
) -> Any:
    """``lax.cond`` with ``true_fun(mdl, *operands)`` / ``false_fun(mdl, *operands)``.

    Both branches must return the same structure and create the same variables (at
    ``init`` both run while tracing, so define variables in both or before the ``cond``).

    Args:
      pred: a boolean scalar.
      true_fun: the branch run when ``pred`` is true.
      false_fun: the branch run otherwise.
      mdl: the module whose variables and RNG streams the branches use.
      *operands: the branch arguments.
      variables: the collections lifted (default all).
      rngs: the RNG streams lifted (default all).

    Returns:
      The output of the branch taken.
    """
    return switch(
        jnp.asarray(pred).astype(jnp.int32),
        [false_fun, true_fun],
        mdl,
        *operands,
        variables=variables,
        rngs=rngs,
    )


def switch(
    index: Any,
    branches: Sequence[Callable[..., Any]],
    mdl: Module,
    *operands: Any,
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
) -> Any:
    """``lax.switch`` over functions ``branch(mdl, *operands)``; see :func:`cond`.

    Args:
      index: the branch number (clamped to the valid range).
      branches: the branch functions.
      mdl: the module whose variables and RNG streams the branches use.
      *operands: the branch arguments.
      variables: the collections lifted (default all).
      rngs: the RNG streams lifted (default all).

    Returns:
      The output of the selected branch.
    """

    def inner(lift: _Lift, as_scope_fn: Callable) -> tuple[Any, Any]:
        def branch(fn: Callable) -> Callable:
            scope_fn = as_scope_fn(fn)

            def run(*ops: Any) -> Any:
                s = lift.scope_fn(lift.var_groups, lift.rng_groups)
                y = scope_fn(s, *ops)
                return y, lift.repack(s)

            return run

        return lax.switch(index, [branch(f) for f in branches], *operands)

    return _run_lifted(mdl, "switch", (variables,), (variables,), (rngs,), inner)


def while_loop(
    cond_fn: Callable[[Module, Any], Any],
    body_fn: Callable[[Module, Any], Any],
    mdl: Module,
    init: Any,
    carry_variables: CollectionFilter = False,
    broadcast_variables: CollectionFilter = True,
    split_rngs: Mapping[CollectionFilter, bool] | None = None,
) -> Any:
    """``lax.while_loop`` with ``cond_fn(mdl, c)`` and ``body_fn(mdl, c)``.

    Variables cannot be created in the loop: call ``body_fn`` once before if needed.

    Args:
      cond_fn: the loop condition (reads variables only).
      body_fn: the loop body.
      mdl: the module whose variables and RNG streams the functions use.
      init: the initial carry.
      carry_variables: collections updated by the body and carried (default none).
      broadcast_variables: collections read by the loop (default all).
      split_rngs: ``{stream_filter: bool}``: a different key per iteration (the root key
        folded with the iteration number, as Flax) or the same.

    Returns:
      The final carry.
    """
    rng_filters, rng_splits = _split_axes(split_rngs or {})
    inner = while_loop_inner(cond_fn, body_fn, init, rng_splits)
    return _run_lifted(
        mdl,
        "while_loop",
        (carry_variables, broadcast_variables),
        (carry_variables,),
        rng_filters,
        inner,
    )


def while_loop_inner(
    cond_fn: Callable, body_fn: Callable, init: Any, rng_splits: tuple
) -> Callable:
    """The lifted body of `while_loop` (also `nn.core.while_loop`'s): ``inner(lift,
    as_scope_fn) -> (carry, out_groups)`` over groups (carry, broadcast)."""

    def inner(lift: _Lift, as_scope_fn: Callable) -> tuple[Any, Any]:
        cond_scope_fn, body_scope_fn = as_scope_fn(cond_fn), as_scope_fn(body_fn)
        bvars = lift.var_groups[1]

        def loop_rngs(i: Any) -> tuple:
            return _split_rng_groups(lift.rng_groups, rng_splits, lambda k: random.fold_in(k, i))

        def cond_wrapper(c: tuple) -> Any:
            i, cvars, carry = c
            s = lift.scope_fn((cvars, bvars), loop_rngs(-i), mutable_filter=False)
            return cond_scope_fn(s, carry)

        def body_wrapper(c: tuple) -> tuple:
            i, cvars, carry = c
            s = lift.scope_fn((cvars, bvars), loop_rngs(i))
            carry = body_scope_fn(s, carry)
            return i + 1, lift.repack(s)[0], carry

        c = (jnp.asarray(0, jnp.int32), lift.var_groups[0], init)
        _, cvars, carry = lax.while_loop(cond_wrapper, body_wrapper, c)
        return carry, (cvars,)

    return inner


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
      ``(value, grads)``, or ``(value, aux, grads)`` with ``has_aux``; ``grads`` is a tuple
      with one entry per primal.
    """
    del reduce_axes

    def inner(lift: _Lift, as_scope_fn: Callable) -> tuple[Any, Any]:
        scope_fn = as_scope_fn(fn)

        def wrapper(*args: Any) -> Any:
            s = lift.scope_fn(lift.var_groups, lift.rng_groups)
            out = scope_fn(s, *args)
            y, aux = out if has_aux else (out, ())
            return y, (aux, lift.repack(s))

        y, bwd, (aux, out_groups) = core.vjp(wrapper, *primals, has_aux=True)
        grads = bwd(jnp.ones_like(y))
        return ((y, aux, grads) if has_aux else (y, grads)), out_groups

    return _run_lifted(mdl, "value_and_grad", (variables,), (variables,), (rngs,), inner)


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
        _, aux, grads = out
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

        def wrapper(vjp_vars: dict, *args: Any) -> Any:
            s = lift.scope_fn(((vjp_vars,), other_vars), lift.rng_groups)
            out = scope_fn(s, *args)
            y, aux = out if has_aux else (out, ())
            return y, (aux, lift.repack(s))

        def pull_back(vjp_vars: dict, primals: tuple, ct: Any) -> tuple:
            return core.vjp(wrapper, vjp_vars, *primals, has_aux=True)[1](ct)

        (vjp_vars,) = vjp_vars
        y, _, (aux, out_groups) = core.vjp(wrapper, vjp_vars, *primals, has_aux=True)
        # A pytree (its leaves are the inputs), so it can be a custom_vjp residual; calling it
        # replays the forward pass.
        bwd = tree_util.Partial(pull_back, vjp_vars, tuple(primals))
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


def map_variables(
    target: Any,
    mapped_collections: CollectionFilter = True,
    trans_in_fn: Callable[[dict], dict] = lambda x: x,
    trans_out_fn: Callable[[dict], dict] = lambda x: x,
    init: bool = False,
    mutable: bool = False,
    rngs: CollectionFilter = True,
    variables: CollectionFilter = True,
    methods: Any = None,
) -> Any:
    """Runs a module on a transformed view of some of its collections.

    Args:
      target: a ``Module`` class or a function ``f(module, *args)``.
      mapped_collections: the collections transformed.
      trans_in_fn: maps ``{collection: tree}`` to the view the module reads.
      trans_out_fn: maps the (updated) view back, when ``init`` or ``mutable``.
      init: create the mapped variables first (running the module), then map them.
      mutable: the mapped collections may be written through the view.
      rngs: the RNG streams visible (default all).
      variables: other collections visible (default all).
      methods: for a class, the methods to transform.

    Returns:
      The transformed class (named ``Map_variables<Class>``) or function.
    """
    return _transform(
        lift_map_variables,
        target,
        "map_variables",
        methods,
        mapped_collections=mapped_collections,
        map_in_fn=trans_in_fn,
        map_out_fn=trans_out_fn,
        init=init,
        mutable=mutable,
        rngs=rngs,
        variables=variables,
    )


def add_metadata_axis(
    target: Any,
    variable_axes: Mapping[CollectionFilter, Any] | None = None,
    metadata_params: dict[Any, Any] | None = None,
) -> Any:
    """Adds an axis to the boxed axis metadata of some collections, as a lifted `vmap` or
    `scan` does across its boundary, without transforming the computation
    (`flax.linen.add_metadata_axis`): e.g. `nn.Partitioned` names gain
    `metadata_params[nn.PARTITION_NAME]` at `axis`.

    Args:
      target: a ``Module`` class or a function taking a module first.
      variable_axes: ``{collection: axis}`` of the collections whose metadata changes.
      metadata_params: passed to each box's ``add_axis``/``remove_axis``.

    Returns:
      The transformed class or function (one `map_variables` per collection).
    """
    params = {} if metadata_params is None else metadata_params
    for col_name, axis in (variable_axes or {}).items():
        target = map_variables(
            target,
            col_name,
            trans_in_fn=lambda x, a=axis: meta.remove_axis(x, a, params),
            trans_out_fn=lambda x, a=axis: meta.add_axis(x, a, params),
            mutable=True,
        )
    return target


def named_call(class_fn: Callable[..., Any], force: bool = True) -> Callable[..., Any]:
    """Labels a module method's equations with the module's name (`flax.linen.named_call`):
    `core.named_call` under ``"<module name>.<method>"`` (just the name for `__call__`).

    Args:
      class_fn: the method.
      force: accepted for compatibility (numbax always labels).

    Returns:
      The wrapped method.
    """

    @functools.wraps(class_fn)
    def wrapped(self: Module, *args: Any, **kwargs: Any) -> Any:
        if self._state.in_setup:
            return class_fn(self, *args, **kwargs)
        suffix = "" if class_fn.__name__ == "__call__" else f".{class_fn.__name__}"
        name = f"{self.name or type(self).__name__}{suffix}"
        return core.named_call(class_fn, name=name)(self, *args, **kwargs)

    return wrapped


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
        lift = _Lift(scopes, in_filters, out_filters, (rngs,))
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


def remat_scan(
    target: type,
    lengths: Sequence[int] = (),
    policy: Callable[..., bool] | None = None,
    variable_broadcast: CollectionFilter = False,
    variable_carry: CollectionFilter = False,
    variable_axes: Mapping[CollectionFilter, int] | None = None,
    split_rngs: Mapping[CollectionFilter, bool] | None = None,
) -> type:
    """Nested ``scan(remat(target))``: ``prod(lengths)`` steps ``x = target()(x)``.

    The variables get one leading axis per entry of ``lengths``.

    Args:
      target: a ``Module`` class whose ``__call__(x)`` returns the next ``x``.
      lengths: the number of steps per nesting level.
      policy: the checkpoint policy.
      variable_broadcast: collections shared by all steps.
      variable_carry: collections carried from step to step.
      variable_axes: collections stacked per step (default all, axis 0).
      split_rngs: streams split per step (default all).

    Returns:
      A module class named ``Remat_scan<Class>`` (an ``x -> x`` module).
    """
    variable_axes = {True: 0} if variable_axes is None else dict(variable_axes)
    split_rngs = {True: True} if split_rngs is None else dict(split_rngs)
    fn = module_lib._wrap_method(target.__call__)

    def call(self: Module, x: Any) -> Any:
        cursor = dict(self._state.autoname_cursor)

        def step(scopes: list[Scope], x: Any) -> tuple[Any, None]:
            return _call_on_clone(fn, self, scopes, target, (x,), {}, cursor), None

        scanned: Callable = lift_checkpoint(step, policy=policy)
        for length in reversed(lengths):
            scanned = _drop_ys(
                lift_scan(
                    scanned,
                    variable_axes=variable_axes,
                    variable_broadcast=variable_broadcast,
                    variable_carry=variable_carry,
                    split_rngs=split_rngs,
                    length=length,
                )
            )
        return scanned(_module_scopes(self, "remat_scan"), x)[0]

    functools.update_wrapper(call, target.__call__)
    call.__dict__.pop("compact", None)
    return type("Remat_scan" + target.__name__, (target,), {"__call__": call})


def _drop_ys(fn: Callable) -> Callable:
    def dropped(scopes: list[Scope], x: Any) -> tuple[Any, None]:
        return fn(scopes, x)[0], None

    return dropped
