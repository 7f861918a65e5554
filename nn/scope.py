"""The functional core under ``nn.Module``: scopes, collections, filters and RNG streams.

A :class:`Scope` is a cursor into one nested variable dict ``{collection: {name: ...}}``
owned by the root scope; ``push(name)`` makes a child cursor one level down. Names are
reserved per scope so two submodules or variables cannot collide (the same name may be used
in different collections). Which collections may be written is decided by a filter
(``True``/``False``, a name, a list of names, or :class:`DenyList`).

RNG streams are derived exactly like Flax's ``LazyRng``: every scope carries, per stream, the
root key plus the path of names below the root; ``make_rng`` appends a per-scope counter and
folds the SHA-1 hash of that path into the key. So ``init`` with the same key and the same
model gives the same parameters as Flax, and keys never need threading through user code.
"""

from __future__ import annotations

import functools
import hashlib
import weakref
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Union

import numpy as np

import core
from core import random, tree_util
from nn import errors, meta
from nn.frozen_dict import freeze
from nn.variables import Variable

CollectionFilter = Union[bool, str, Iterable[str], "DenyList"]


class DenyList:
    """A collection filter that matches every collection except the ``deny`` ones.

    Args:
      deny: a collection name, several, or a bool (Flax's algebra gives ``DenyList(False)``,
        which matches every collection, and ``DenyList(True)``, which matches none).
    """

    def __init__(self, deny: bool | str | Iterable[str]):
        if isinstance(deny, bool):
            self.deny: bool | frozenset[str] = deny
        else:
            self.deny = frozenset([deny] if isinstance(deny, str) else deny)

    def __repr__(self) -> str:
        deny = self.deny if isinstance(self.deny, bool) else sorted(self.deny)
        return f"DenyList({deny!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DenyList) and other.deny == self.deny

    def __hash__(self) -> int:
        return hash(("DenyList", self.deny))


def in_filter(filter_like: CollectionFilter, col: str) -> bool:
    """Returns whether collection ``col`` matches ``filter_like``."""
    if isinstance(filter_like, bool):
        return filter_like
    if isinstance(filter_like, str):
        return col == filter_like
    if isinstance(filter_like, DenyList):
        return not in_filter(filter_like.deny, col)
    try:
        return col in set(filter_like)
    except TypeError:
        raise errors.CollectionFilterError(filter_like) from None


def filter_to_set(filter_like: CollectionFilter) -> set[str]:
    """The collections a finite filter matches (Flax's ``filter_to_set``).

    Args:
      filter_like: ``False``, a collection name or several (not ``True`` or a `DenyList`).

    Returns:
      The set of names.
    """
    if filter_like is True or isinstance(filter_like, DenyList):
        raise AssertionError("Infinite set")
    if filter_like is False:
        return set()
    if isinstance(filter_like, str):
        return {filter_like}
    try:
        return set(filter_like)
    except TypeError:
        raise errors.CollectionFilterError(filter_like) from None


# The filter algebra is Flax's: finite results are sets, `True`/`DenyList` the infinite ones.
def union_filters(a: CollectionFilter, b: CollectionFilter) -> CollectionFilter:
    """Returns a filter matching the collections matched by ``a`` or by ``b``."""
    if a is True or b is True:
        return True
    if isinstance(a, DenyList) and isinstance(b, DenyList):
        return DenyList(intersect_filters(a.deny, b.deny))
    if isinstance(b, DenyList):
        a, b = b, a
    if isinstance(a, DenyList):
        return DenyList(subtract_filters(a.deny, b))
    return filter_to_set(a) | filter_to_set(b)


def intersect_filters(a: CollectionFilter, b: CollectionFilter) -> CollectionFilter:
    """Returns a filter matching the collections matched by both ``a`` and ``b``."""
    if a is True:
        return b
    if b is True:
        return a
    if isinstance(a, DenyList) and isinstance(b, DenyList):
        return DenyList(union_filters(b.deny, a.deny))
    if isinstance(b, DenyList):
        a, b = b, a
    if isinstance(a, DenyList):
        return subtract_filters(b, a.deny)
    return filter_to_set(a) & filter_to_set(b)


def subtract_filters(a: CollectionFilter, b: CollectionFilter) -> CollectionFilter:
    """Returns a filter matching the collections matched by ``a`` but not by ``b``."""
    if b is True:
        return False
    if a is True:
        return DenyList(b)
    if isinstance(a, DenyList) and isinstance(b, DenyList):
        return subtract_filters(b.deny, a.deny)
    if isinstance(a, DenyList):
        return DenyList(union_filters(a.deny, b))
    if isinstance(b, DenyList):
        return intersect_filters(a, b.deny)
    return filter_to_set(a) - filter_to_set(b)


def is_filter_empty(filter_like: CollectionFilter) -> bool:
    """Returns whether ``filter_like`` matches no collection."""
    if isinstance(filter_like, bool):
        return not filter_like
    if isinstance(filter_like, str):
        return False
    if isinstance(filter_like, DenyList):  # empty when it denies every name (`True`)
        return in_filter(filter_like.deny, "__any_collection__")
    return not list(filter_like)


def group_collections(
    xs: Mapping[str, Any], filters: Iterable[CollectionFilter]
) -> tuple[dict[str, Any], ...]:
    """Splits ``{collection: value}`` into one dict per filter; each goes to the first match."""
    remaining = dict(xs)
    groups = []
    for filter_like in filters:
        group = {col: v for col, v in remaining.items() if in_filter(filter_like, col)}
        for col in group:
            del remaining[col]
        groups.append(group)
    return tuple(groups)


# Flax's `flax_fix_rng_separator` flag (set through `flaxport.config`): a zero byte before each
# path element, so that ("ab", "c") and ("a", "bc") hash differently. Off by default, as in Flax.
_rng_separator = [False]


# Flax's `flax_return_frozendict` flag (set through `flaxport.config`): `init`, `apply` and
# `Module.variables` return `FrozenDict`s (Flax before 0.7.1). Off by default, as in Flax.
_return_frozendict = [False]


def set_return_frozendict(on: bool) -> None:
    """Turns Flax's ``flax_return_frozendict`` on or off."""
    _return_frozendict[0] = bool(on)


def set_rng_separator(on: bool) -> None:
    """Turns Flax's ``flax_fix_rng_separator`` hashing of RNG paths on or off."""
    _rng_separator[0] = bool(on)


def fold_in_static(key: Any, data: Iterable[str | int]) -> Any:
    """Folds a path of strings and ints into ``key`` through its SHA-1 hash (Flax's rule)."""
    data = tuple(data)
    if not data:
        return key
    m = hashlib.sha1()
    for x in data:
        if _rng_separator[0]:
            m.update(b"\0")
        if isinstance(x, str):
            m.update(x.encode("utf-8"))
        else:
            m.update(x.to_bytes((x.bit_length() + 7) // 8, byteorder="big"))
    return random.fold_in(key, np.uint32(int.from_bytes(m.digest()[:4], byteorder="big")))


class LazyRng:
    """A root key plus the static path to fold into it when a key is finally needed."""

    def __init__(self, rng: Any, suffix: tuple[str | int, ...] = ()):
        self.rng = rng
        self.suffix = suffix

    def push(self, *suffix: str | int) -> LazyRng:
        return LazyRng(self.rng, self.suffix + suffix)

    def as_key(self) -> Any:
        return fold_in_static(self.rng, self.suffix)

    as_jax_rng = as_key  # Flax's name

    @staticmethod
    def create(rng: Any, *suffix: str | int) -> LazyRng:
        """Flax's constructor: ``rng`` (a key, or a `LazyRng` to extend) with ``suffix``.

        Args:
          rng: a key or a `LazyRng`.
          *suffix: names and numbers to fold in (after ``rng``'s own suffix).

        Returns:
          The `LazyRng`.
        """
        if isinstance(rng, LazyRng):
            return rng.push(*suffix)
        return LazyRng(rng, suffix)

    def clear_suffix(self) -> LazyRng:
        """The root key with no suffix."""
        return LazyRng(self.rng, ())


class _RngCounters:
    """Per-scope ``make_rng`` counters, shared by rewound copies and found again by re-pushes."""

    def __init__(self) -> None:
        self.streams: dict[str, int] = {}
        self.children: dict[str, _RngCounters] = {}


def is_valid_key(rng: Any) -> bool:
    """Returns whether ``rng`` looks like a PRNG key (a typed key or a raw uint32 key array)."""
    return hasattr(rng, "shape") and hasattr(rng, "dtype") and not isinstance(rng, np.generic)


_shape_cache: dict[Any, tuple] = {}


def _init_shapes(init_fn: Callable, init_args: tuple, init_kwargs: dict) -> list[tuple]:
    """Shapes of ``init_fn(key, *args)``'s leaves, by abstract evaluation (cached)."""
    try:
        cache_key = (init_fn, init_args, tuple(sorted(init_kwargs.items())))
        hash(cache_key)
    except TypeError:
        cache_key = None
    if cache_key is not None and cache_key in _shape_cache:
        return _shape_cache[cache_key]
    out = core.eval_shape(lambda: init_fn(random.key(0), *init_args, **init_kwargs))
    shapes = [tuple(leaf.shape) for leaf in tree_util.tree_leaves(out)]
    if cache_key is not None:
        if len(_shape_cache) > 4096:
            _shape_cache.clear()
        _shape_cache[cache_key] = shapes
    return shapes


def _merge_put(target: dict, key: str, value: Any) -> None:
    """``target[key] = value``, but a mapping written over a dict is merged into it."""
    if key in target and isinstance(target[key], dict) and isinstance(value, Mapping):
        for k, v in value.items():
            _merge_put(target[key], k, v)
    else:
        target[key] = value


class Scope:
    """A cursor into a variable dict, with name reservations, RNG streams and mutability.

    Args:
      variables: the root variable dict ``{collection: {...}}`` (root scopes only).
      rngs: ``{stream: key}``, or the :class:`LazyRng` of a parent.
      name: this scope's name in its parent (``None`` for the root).
      mutable: the filter of collections that may be written.
      parent: the parent scope.
      path: the names from the root to this scope.
      flags: read-only settings shared by the whole tree (e.g. ``initializing``).
    """

    def __init__(
        self,
        variables: dict,
        rngs: Mapping[str, Any] | None = None,
        name: str | None = None,
        mutable: CollectionFilter = False,
        parent: Scope | None = None,
        path: tuple[str, ...] = (),
        flags: Mapping[str, Any] | None = None,
    ):
        self._variables = variables
        self.rngs = {
            k: v if isinstance(v, LazyRng) else LazyRng(v) for k, v in (rngs or {}).items()
        }
        self.name = name
        self.mutable = mutable
        self.parent = parent
        self.path = tuple(path)
        # the path as errors show it: a lifted scope's last name carries its transform's,
        # as in Flax ("/scan()/hc", "/vmap(heads)/kernel")
        self.debug_path = self.path
        self.flags = dict(flags or {})
        self.rng_counters = _RngCounters()
        self.reservations: dict[str, set] = {}
        # (root only) clones of adopted modules, by id; weak, as a clone holds this scope
        self.adopted: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()

    @property
    def root(self) -> Scope:
        return self.parent.root if self.parent is not None else self

    @property
    def path_text(self) -> str:
        return "/" + "/".join(self.debug_path)

    def rewound(self) -> Scope:
        """A copy with no name reservations that keeps the RNG counters (for re-calls)."""
        scope = Scope(self._variables, self.rngs, self.name, self.mutable, self.parent, self.path)
        scope.flags = self.flags
        scope.rng_counters = self.rng_counters
        scope.debug_path = self.debug_path
        return scope

    def name_reserved(self, name: str, col: str | None = None) -> bool:
        """Returns whether ``name`` is taken (by a child scope, or by a variable of ``col``)."""
        taken = self.reservations.get(name)
        return bool(taken) and (None in taken or col is None or col in taken)

    def reserve(self, name: str, col: str | None = None, kind: str = "submodule") -> None:
        """Reserves ``name`` for a child scope (``col=None``) or a variable of ``col``."""
        if not isinstance(name, str):
            raise TypeError(  # Flax's first line (its "{name}" unformatted), then the fix
                f'The type of scope "{{name}}" should be string but it is {type(name)}\n'
                f"Names of submodules and variables are strings, got {name!r}."
            )
        if self.name_reserved(name, col):
            raise errors.NameInUseError(kind, name, "the module", self.path_text)
        self.reservations.setdefault(name, set()).add(col)

    def default_name(self, prefix: str) -> str:
        """The first name ``prefix0``, ``prefix1``... not yet taken in this scope."""
        i = 0
        while f"{prefix}{i}" in self.reservations:
            i += 1
        return f"{prefix}{i}"

    def push(self, name: str | None = None, prefix: str = "", reuse: bool = False) -> Scope:
        """Returns the child scope ``name`` (reserving the name unless ``reuse``).

        Args:
          name: the child's name (default: the first free ``prefix<i>``).
          prefix: the prefix of a generated name.
          reuse: return the existing child of that name instead of raising.

        Returns:
          The child scope.
        """
        if name is None:
            name = self.default_name(prefix)
        if not (reuse and name in self.reservations):
            self.reserve(name)
        child = Scope(
            {},
            {k: r.push(name) for k, r in self.rngs.items()},
            name=name,
            mutable=self.mutable,
            parent=self,
            path=self.path + (name,),
        )
        child.flags = self.flags
        child.debug_path = self.debug_path + (name,)
        child.rng_counters = self.rng_counters.children.setdefault(name, _RngCounters())
        return child

    def child(
        self,
        fn: Callable[..., Any],
        name: str | None = None,
        prefix: str | None = None,
        named_call: bool = True,
        **partial_kwargs: Any,
    ) -> Callable[..., Any]:
        """``fn`` with a child scope as its first argument (``scope.child(dense)(x, 3)``):
        every call of the result runs in the same child, so its variables are reused.

        Args:
          fn: a function of a scope.
          name: the child's name (default: ``<fn name>_<i>``, the first free one).
          prefix: the prefix of a generated name (default: ``fn.__name__ + '_'``).
          named_call: accepted for Flax compatibility (numbax's profiles name scopes anyway).
          **partial_kwargs: keyword arguments bound to ``fn``.

        Returns:
          ``wrapper(*args, **kwargs)`` running ``fn(child, *args, **partial_kwargs, **kwargs)``.
        """
        del named_call
        if name is None:
            if prefix is None:
                prefix = f"{fn.__name__}_" if hasattr(fn, "__name__") else ""
            name = self.default_name(prefix)
        child = self.push(name)

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            return fn(child.rewound(), *args, **{**partial_kwargs, **kwargs})

        return wrapper

    # -- collections -------------------------------------------------------------------------

    def is_mutable_collection(self, col: str) -> bool:
        return in_filter(self.mutable, col)

    def _collection(self, col: str) -> Mapping:
        """The read-only dict of collection ``col`` at this scope (empty if absent)."""
        if col in self._variables:
            return self._variables[col]
        if self.parent is None:
            return {}
        parent_col = self.parent._collection(col)
        if self.name not in parent_col:
            return {}
        self._variables[col] = parent_col[self.name]
        return self._variables[col]

    def _mutable_collection(self, col: str) -> dict:
        """The dict of collection ``col`` at this scope, created along the path if needed."""
        if col in self._variables:
            return self._variables[col]
        if self.parent is None:
            fresh = {}
        else:
            # A child's dict lives inside its parent's, under the child's name.
            fresh = self.parent._mutable_collection(col).setdefault(self.name, {})
        self._variables[col] = fresh
        return fresh

    def _missing(self, col: str, name: str) -> Exception:
        root_vars = self.root._variables
        # the parameter tree itself given as the variables: its top level names this module's
        # variable or the first module on its path (not collections such as 'batch_stats')
        unwrapped = name in root_vars or bool(self.path) and self.path[0] in root_vars
        if col == "params" and "params" not in root_vars and unwrapped:
            return errors.ParamsWithoutWrapperError(root_vars.keys(), self.path_text, name, col)
        if not root_vars.get(col):
            return errors.CollectionNotFoundError(col, name, self.path_text, root_vars.keys())
        return errors.VariableNotFoundError(col, name, self.path_text, self._collection(col))

    def has_variable(self, col: str, name: str) -> bool:
        return name in self._collection(col)

    def get_variable(self, col: str, name: str, default: Any = None) -> Any:
        return self._collection(col).get(name, default)

    def put_variable(self, col: str, name: str, value: Any) -> None:
        """Writes a variable; raises :class:`~nn.errors.ImmutableCollectionError` if not allowed.

        A dict written over a dict is merged into it key by key (as Flax does), so the
        existing dicts keep their key order and the references other scopes hold to them.
        """
        if not self.is_mutable_collection(col):
            raise errors.ImmutableCollectionError(col, name, self.path_text)
        _merge_put(self._mutable_collection(col), name, value)

    def variable(
        self,
        col: str,
        name: str,
        init_fn: Callable | None = None,
        *init_args,
        unbox: bool = True,
        **init_kwargs,
    ) -> Variable:
        """Returns a handle on variable ``name`` of ``col``, creating it with ``init_fn(*args)``.

        With ``unbox``, the handle reads values without their metadata boxes and writes new
        values into the existing boxes (see :mod:`nn.meta`).
        """
        self.reserve(name, col, kind="variable")
        if not self.has_variable(col, name):
            if not self.is_mutable_collection(col) or init_fn is None:
                raise self._missing(col, name)
            self.put_variable(col, name, init_fn(*init_args, **init_kwargs))
        return Variable(self, col, name, unbox)

    def param(
        self, name: str, init_fn: Callable, *init_args, unbox: bool = True, **init_kwargs
    ) -> Any:
        """Returns parameter ``name``, creating it with ``init_fn(make_rng('params'), *args)``.

        An existing parameter's shape is checked against what ``init_fn`` would produce. With
        ``unbox``, metadata boxes (``nn.Partitioned``...) are stripped from the returned value;
        the stored value keeps them.
        """
        self.reserve(name, "params", kind="parameter")
        if self.has_variable("params", name):
            value = self.get_variable("params", name)
            wanted = _init_shapes(init_fn, init_args, init_kwargs)
            for leaf, shape in zip(tree_util.tree_leaves(value), wanted):
                if tuple(np.shape(leaf)) != shape:
                    raise errors.ParamShapeError(name, self.path_text, np.shape(leaf), shape)
        elif not self.is_mutable_collection("params"):
            raise self._missing("params", name)
        else:
            value = init_fn(self.make_rng("params"), *init_args, **init_kwargs)
            self.put_variable("params", name, value)
        return meta.unbox(value) if unbox else value

    def variables(self) -> dict:
        """The variables visible at this scope, ``{collection: {...}}`` (a `FrozenDict` under
        ``flax_return_frozendict``)."""
        xs = {col: self._collection(col) for col in self.root._variables if self._collection(col)}
        return freeze(xs) if _return_frozendict[0] else xs

    def mutable_variables(self) -> dict:
        """The mutable collections of the whole tree (what ``init`` and ``apply(mutable=...)``
        return; a `FrozenDict` under ``flax_return_frozendict``)."""
        root = self.root._variables
        xs = {col: root[col] for col in root if self.is_mutable_collection(col)}
        return freeze(xs) if _return_frozendict[0] else xs

    # -- rngs ----------------------------------------------------------------------------------

    def has_rng(self, name: str) -> bool:
        return name in self.rngs

    def make_rng(self, name: str = "params") -> Any:
        """A fresh key of stream ``name`` (falls back to ``'params'`` like Flax)."""
        if name not in self.rngs:
            if "params" not in self.rngs:
                if name in self.flags.get("unlifted_rngs", ()):
                    raise errors.UnliftedRngError(name, self.path_text, self.name)
                raise errors.MissingRngError(name, self.path_text, self.rngs.keys(), self.name)
            name = "params"
        count = self.rng_counters.streams.get(name, 0) + 1
        self.rng_counters.streams[name] = count
        return self.rngs[name].push(count).as_key()


def _copy_dicts(tree: Any) -> Any:
    return {k: _copy_dicts(v) for k, v in tree.items()} if isinstance(tree, Mapping) else tree


def _check_variables(variables: Any) -> None:
    if not isinstance(variables, Mapping) or not all(
        isinstance(k, str) and isinstance(v, Mapping) for k, v in variables.items()
    ):
        if isinstance(variables, Mapping):
            raise errors.InvalidVariablesError(variables)
        if hasattr(variables, "__iter__") or hasattr(variables, "__contains__"):
            raise errors.VariablesNotADictError(variables)
        raise errors.VariablesNotIterableError(variables)
    params = variables.get("params")
    if isinstance(params, Mapping) and isinstance(params.get("params"), Mapping):
        raise errors.ParamsDoubleWrappedError()


def _normalize_rngs(rngs: Any, where: str) -> dict:
    if rngs is None:
        return {}
    if is_valid_key(rngs):
        return {"params": rngs}
    if isinstance(rngs, Mapping) and all(
        isinstance(k, str) and (is_valid_key(v) or isinstance(v, LazyRng)) for k, v in rngs.items()
    ):
        return dict(rngs)
    if isinstance(rngs, Mapping):
        raise errors.InvalidRngsDictError(rngs, where)
    raise errors.InvalidRngsError(rngs, where)


def bind(
    variables: Mapping,
    rngs: Any = None,
    mutable: CollectionFilter = False,
    flags: Mapping | None = None,
) -> Scope:
    """A root scope over a copy of ``variables`` (mutable collections are copied)."""
    _check_variables(variables)
    new_vars = {
        col: _copy_dicts(value) if in_filter(mutable, col) else value
        for col, value in variables.items()
    }
    return Scope(new_vars, _normalize_rngs(rngs, "bind"), mutable=mutable, flags=flags)


def apply(
    fn: Callable[..., Any], mutable: CollectionFilter = False, flags: Mapping | None = None
) -> Callable[..., Any]:
    """Turns ``fn(scope, *args)`` into ``f(variables, *args, rngs=None)``.

    Returns ``y``, or ``(y, mutated_variables)`` when ``mutable`` is not ``False``.
    """

    returns_state = mutable is not False

    def run_bound(variables: Mapping, *args, rngs: Any = None, **kwargs):
        scope = bind(variables, rngs, mutable, flags)
        out = fn(scope, *args, **kwargs)
        return (out, scope.mutable_variables()) if returns_state else out

    return functools.wraps(fn)(run_bound)


def init(
    fn: Callable[..., Any], mutable: CollectionFilter = True, flags: Mapping | None = None
) -> Callable[..., Any]:
    """Turns ``fn(scope, *args)`` into ``f(rngs, *args) -> (y, variables)``."""

    @functools.wraps(fn)
    def wrapper(rngs: Any, *args, **kwargs):
        if rngs is None:  # an empty dict is valid: a model without parameters needs no key
            raise errors.InvalidRngsDictError({}, "init")
        rngs = _normalize_rngs(rngs, "init")
        return apply(fn, mutable, {**(flags or {}), "initializing": True})(
            {}, *args, rngs=rngs, **kwargs
        )

    return wrapper
