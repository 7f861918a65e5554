"""The functional core of lifting: a scope's variables and RNG streams packed into groups and back.

`_Lift` splits the variables of some scopes into groups by collection filters, and their RNG
streams into groups of raw root keys, laid out as Flax's (``var_groups[g][k]`` is group ``g``
of scope ``k``), so a core transform can take them as explicit arguments; inside, `scope_fn`
builds parentless scopes at the same paths over the groups, `repack` groups what they wrote,
and outside `publish` writes it back. The helpers map per-group axis specs (prefix trees) over
the groups and split keys per mapped index or scan step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import core
import core.numpy as jnp
from core import random, tree_util
from nn import errors
from nn import scope as scope_lib
from nn.scope import CollectionFilter, LazyRng, Scope

Array = Any


class _Broadcast:
    """The ``in_axes`` marker of a scan argument passed whole to every step."""

    def __repr__(self) -> str:
        return "nn.broadcast"


broadcast = _Broadcast()


class _Lift:
    """The variables and RNG streams of some scopes split into groups, and the way back.

    Groups are laid out as Flax's: ``var_groups[g][k]`` is the ``{collection: tree}`` dict of
    group ``g`` for scope ``k`` (likewise ``rng_groups[g][k]`` is ``{stream: root_key}``), so
    a per-group axis spec is a prefix of the group's tuple over scopes.

    Scopes nested in others lifted beside them are lifted once, inside their outermost
    lifted ancestor (Flax's ``_dedup_scopes``): ``scopes`` lists the given scopes, ``places``
    where each is (the index of that ancestor in ``scopes``, the names down to it), and
    `scope_fn` hands out one inner scope per given scope, the nested ones children of their
    ancestor's, so a write through either is seen by both.

    Args:
      scopes: the scopes being lifted (the module's own first, then those of modules held in
        its fields that are bound elsewhere, then those of modules and variables passed as
        arguments).
      in_filters: one collection filter per input variable group.
      out_filters: one filter per output group (the collections the body may write).
      rng_filters: one filter per RNG group (streams matching no filter are not lifted).
      name: the transform's name, which errors raised inside show in the scope's path.
    """

    def __init__(
        self,
        scopes: Sequence[Scope],
        in_filters: Sequence[CollectionFilter],
        out_filters: Sequence[CollectionFilter],
        rng_filters: Sequence[CollectionFilter],
        name: str = "",
    ):
        self.scopes, self.places = _dedup_scopes(scopes)
        self.name = name
        self.out_filters = tuple(out_filters)
        mutable: CollectionFilter = False
        for out_filter in self.out_filters:
            mutable = scope_lib.union_filters(mutable, out_filter)
        self.mutables = [scope_lib.intersect_filters(s.mutable, mutable) for s in self.scopes]
        per_scope = []
        for s in self.scopes:
            # as Flax's `_populate_collections`: the collections holding this scope's dict,
            # even empty (an empty collection it never wrote stays out, so modules alike
            # trace alike, wherever they are)
            visible = {col: s._collection(col) for col in s.root._variables}
            visible = {c: v for c, v in visible.items() if v or c in s._variables}
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
        return self.mutables[self.places[0][0]]

    def static_key(self) -> tuple:
        """What the traced body depends on besides the groups' values (for jit caching): not
        the scopes' paths (variables and keys inside are relative to them), as Flax's."""
        return tuple(
            (
                _hashable(tuple(sorted(s.flags.items()))),
                _filter_key(m),
                tuple(sorted(suffixes.items())),
            )
            for s, m, suffixes in zip(self.scopes, self.mutables, self.suffixes)
        ) + tuple(self.places)

    def scope_fn(
        self,
        var_groups: Sequence[Sequence[Mapping]],
        rng_groups: Sequence[Sequence[Mapping]],
        mutable_filter: CollectionFilter = True,
    ) -> list[Scope]:
        """Parentless scopes at the lifted scopes' paths over the given groups, one per given
        scope (a nested one as a child of its ancestor's)."""
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
            if self.name:
                last = outer.debug_path[-1] if outer.debug_path else ""
                inner.debug_path = outer.debug_path[:-1] + (f"{self.name}({last})",)
            else:
                inner.debug_path = outer.debug_path
            inner_scopes.append(inner)
        given = []
        for k, names in self.places:
            inner = inner_scopes[k]
            for name in names:
                inner = inner.push(name, reuse=True)
            given.append(inner)
        return given

    def roots(self, inner_scopes: Sequence[Scope]) -> list[Scope]:
        """The inner scopes of `scopes` among those `scope_fn` handed out."""
        return [inner_scopes[self.places.index((k, ()))] for k in range(len(self.scopes))]

    def repack(self, inner_scopes: Sequence[Scope]) -> tuple[tuple[dict, ...], ...]:
        """The mutable collections of the inner scopes, grouped by the output filters."""
        inner_scopes = self.roots(inner_scopes)
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


def _filter_key(f: CollectionFilter) -> Any:
    """A collection filter as a hashable value equal for equal filters (sets have no order)."""
    if isinstance(f, (bool, str)):
        return f
    if isinstance(f, scope_lib.DenyList):
        return ("deny", _filter_key(f.deny))
    return frozenset(f)


def _dedup_scopes(scopes: Sequence[Scope]) -> tuple[list[Scope], list[tuple[int, tuple]]]:
    """The outermost of ``scopes`` (a scope inside another of them, by root and path, is
    dropped; the first of equal ones stays), and where each given scope lies in them."""

    def outermost(s: Scope) -> Scope:
        holders = [a for a in scopes if a.root is s.root and s.path[: len(a.path)] == a.path]
        return min(holders, key=lambda a: len(a.path))

    tops = [outermost(s) for s in scopes]
    kept: list[Scope] = []
    for s, top in zip(scopes, tops):
        if top is s and not any(s is k for k in kept):
            kept.append(s)
    places = [(kept.index(top), s.path[len(top.path) :]) for s, top in zip(scopes, tops)]
    return kept, places


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


def _axis_size(prefix: Any, tree: Any, given: int | None, what: str, path: str) -> int:
    """The mapped size of ``nn.vmap``/``nn.scan``, found as Flax finds it: the size along
    the axis of the first leaf under each mapped entry of the axis ``prefix`` (``given`` if
    passed). The other leaves are checked by ``jax.vmap``/``lax.scan`` themselves."""
    if prefix is None or isinstance(prefix, (int, _Broadcast)):
        entries = [(prefix, tree)]
    else:
        nested = tree_util.tree_map(
            lambda ax, sub: [(ax, sub)],
            prefix,
            tree,
            is_leaf=lambda x: x is None or isinstance(x, _Broadcast),
        )
        groups = tree_util.tree_leaves(nested, is_leaf=lambda x: isinstance(x, list))
        entries = [e for es in groups for e in es]
    sizes = []
    for ax, sub in entries:
        leaves = tree_util.tree_leaves(sub)
        if isinstance(ax, int) and leaves:
            sizes.append(leaves[0].shape[ax])  # Flax's lookup, and its errors for non-arrays
    found = set(sizes)
    if len(found) > 1 or (given is None and not found):
        raise errors.TransformAxisSizeError(what, found, path)
    return int(given) if given is not None else found.pop()


def _split_axes(variable_axes: Mapping[CollectionFilter, Any]) -> tuple[tuple, tuple]:
    return tuple(variable_axes.keys()), tuple(variable_axes.values())


def _hashable(x: Any) -> Any:
    """``x`` if hashable, else a token that is equal only to itself (forces a retrace)."""
    try:
        hash(x)
        return x
    except TypeError:
        return object()
