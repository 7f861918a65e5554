"""Pytrees: nested containers flattened to a list of leaves plus a hashable structure.

The semantics copy `jax.tree_util`: tuples, lists, dicts (sorted keys), ``None`` (a node with
no children), namedtuples, ``OrderedDict`` and ``defaultdict`` are built-in nodes; other types
join through `register_pytree_node` and friends; everything else is a leaf.

A structure is stored as nested plain tuples, so equality and hashing run at C speed:
a leaf is the `_LEAF` marker and a node is ``(nodetype, aux_data, children)``. `PyTreeDef`
wraps the root of that tuple. Flattening has a fast path for the built-in containers
(``jit`` flattens its arguments on every call), and a per-type cache of registrations so a
leaf costs one dict lookup. Key paths (``tree_flatten_with_path``) take a slower generic path.
"""

from __future__ import annotations

import collections
import difflib
import functools
import operator
import textwrap
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, fields, is_dataclass
from itertools import islice
from keyword import iskeyword
from typing import Any, NamedTuple

from core.errors import NumbaxError

__all__ = [
    "DictKey",
    "FlattenedIndexKey",
    "GetAttrKey",
    "Partial",
    "PyTreeDef",
    "PyTreeRegistry",
    "SequenceKey",
    "all_leaves",
    "default_registry",
    "flatten_one_level",
    "flatten_one_level_with_keys",
    "is_tree_node",
    "keystr",
    "register_dataclass",
    "register_pytree_node",
    "register_pytree_node_class",
    "register_pytree_with_keys",
    "register_pytree_with_keys_class",
    "register_static",
    "tree_all",
    "tree_broadcast",
    "tree_flatten",
    "tree_flatten_with_path",
    "tree_leaves",
    "tree_leaves_with_path",
    "tree_map",
    "tree_map_with_path",
    "tree_reduce",
    "tree_reduce_associative",
    "tree_structure",
    "tree_transpose",
    "tree_unflatten",
    "treedef_children",
    "treedef_is_leaf",
    "treedef_tuple",
]


# --------------------------------------------------------------------------------------------
# Errors (ValueError/TypeError subclasses, so code written against JAX keeps working)


class PyTreeStructureError(NumbaxError, ValueError):
    """A pytree does not have the structure (or prefix structure) that was required.

    Failing code: ``tree_map(lambda a, b: a + b, {"a": 1}, {"b": 2})``. Fix: trees of one
    structure (the message names the key path where they differ).
    """


class PyTreeKeySortError(NumbaxError, ValueError):
    """A dict in a pytree has keys that cannot be sorted (e.g. mixed ``str`` and ``int``).

    Failing code: ``tree_leaves({"a": 1, 2: 3})``. Fix: keys of one sortable type
    (``{"a": 1, "2": 3}``).
    """


class PyTreeLeafCountError(NumbaxError, ValueError):
    """`PyTreeDef.unflatten` got a number of leaves different from ``num_leaves``.

    Failing code: ``tree_unflatten(tree_structure({"a": 1, "b": 2}), [1])``. Fix: pass
    ``treedef.num_leaves`` leaves, in ``tree_leaves`` order.
    """


class PyTreeRegistrationError(NumbaxError, ValueError):
    """A type was registered as a pytree node twice.

    Failing code: ``register_pytree_node(Point, flatten, unflatten)`` run twice (e.g. a module
    re-executed). Fix: register each type once, at import time of the module defining it.
    """


# --------------------------------------------------------------------------------------------
# Key path entries


@dataclass(frozen=True)
class SequenceKey:
    """Key of a child of a tuple or list: prints as ``[idx]``."""

    idx: int

    def __str__(self) -> str:
        return f"[{self.idx!r}]"


@dataclass(frozen=True)
class DictKey:
    """Key of a child of a dict-like node: prints as ``['key']``."""

    key: Hashable

    def __str__(self) -> str:
        return f"[{self.key!r}]"


@dataclass(frozen=True)
class GetAttrKey:
    """Key of an attribute child (namedtuples, dataclasses): prints as ``.name``."""

    name: str

    def __str__(self) -> str:
        return f".{self.name}"


@dataclass(frozen=True)
class FlattenedIndexKey:
    """Key of a child of a custom node registered without keys: prints as ``[<flat index k>]``."""

    key: int

    def __str__(self) -> str:
        return f"[<flat index {self.key}>]"


KeyEntry = Any
KeyPath = tuple[KeyEntry, ...]


def _simple_key(k: KeyEntry) -> str:
    if isinstance(k, SequenceKey):
        return str(k.idx)
    if isinstance(k, (DictKey, FlattenedIndexKey)):
        return str(k.key)
    if isinstance(k, GetAttrKey):
        return k.name
    return str(k)


def keystr(keys: KeyPath, *, simple: bool = False, separator: str = "") -> str:
    """Formats a key path as a string.

    Args:
      keys: a key path, as produced by `tree_flatten_with_path`.
      simple: if True, print each key bare (``a/0/x``) instead of ``['a'][0].x``.
      separator: string placed between the keys.

    Returns:
      The formatted path, e.g. ``"['params']['kernel']"``.
    """
    fmt = _simple_key if simple else str
    return separator.join(fmt(k) for k in keys)


# --------------------------------------------------------------------------------------------
# Registry


class _Registration(NamedTuple):
    nodetype: type
    # x -> (children, aux_data)
    flatten: Callable[[Any], tuple[Iterable[Any], Any]]
    # (aux_data, children tuple) -> x
    unflatten: Callable[[Any, tuple[Any, ...]], Any]
    # x -> ([(key, child), ...], aux_data), or None: keys are FlattenedIndexKey(i)
    flatten_with_keys: Callable[[Any], tuple[Iterable[tuple[KeyEntry, Any]], Any]] | None
    # label used in PyTreeDef reprs of custom nodes (``CustomNode(label[aux], [...])``)
    label: str
    # (data field names, meta field names) of `register_dataclass` nodes, else None
    fields: tuple[tuple[str, ...], tuple[str, ...]] | None = None


_registry: dict[type, _Registration] = {}
# type -> registration or _LEAF_KIND; cleared whenever the registry changes.
_kind_cache: dict[type, Any] = {}
_kind_get = _kind_cache.get
_LEAF_KIND = object()
_NoneType = type(None)


def _key_sort_error(d: dict) -> PyTreeKeySortError:
    return PyTreeKeySortError(
        "Comparator raised exception while sorting pytree dictionary keys.\n"
        f"Keys {list(d)!r} cannot be ordered; use keys of one comparable type (e.g. all str)."
    )


def _sorted_keys(d: dict) -> tuple:
    try:
        return tuple(sorted(d))
    except TypeError as e:
        raise _key_sort_error(d) from e


def _register(reg: _Registration) -> None:
    if reg.nodetype in _registry:
        raise PyTreeRegistrationError(
            f"Duplicate custom PyTreeDef type registration for {reg.nodetype}."
        )
    _registry[reg.nodetype] = reg
    _kind_cache.clear()


def _flatten_namedtuple(x):
    return tuple(x), None


def _unflatten_namedtuple_factory(nodetype):
    return lambda _, children: nodetype(*children)


def _flatten_dict_with_keys(d):
    keys = _sorted_keys(d)
    return [(DictKey(k), d[k]) for k in keys], keys


def _flatten_defaultdict(d):
    keys = _sorted_keys(d)
    return [d[k] for k in keys], (d.default_factory, keys)


def _flatten_defaultdict_with_keys(d):
    keys = _sorted_keys(d)
    return [(DictKey(k), d[k]) for k in keys], (d.default_factory, keys)


def _builtin(nodetype, flatten, unflatten, flatten_with_keys, label=""):
    reg = _Registration(nodetype, flatten, unflatten, flatten_with_keys, label)
    _registry[nodetype] = reg
    return reg


_TUPLE = _builtin(
    tuple,
    lambda x: (x, None),
    lambda _, c: tuple(c),
    lambda x: ([(SequenceKey(i), v) for i, v in enumerate(x)], None),
)
_LIST = _builtin(
    list,
    lambda x: (x, None),
    lambda _, c: list(c),
    lambda x: ([(SequenceKey(i), v) for i, v in enumerate(x)], None),
)
_DICT = _builtin(
    dict,
    lambda d: _flatten_dict(d),
    lambda keys, c: dict(zip(keys, c)),
    _flatten_dict_with_keys,
)
_NONE = _builtin(_NoneType, lambda _: ((), None), lambda _a, _c: None, lambda _: ((), None))
_builtin(
    collections.OrderedDict,
    lambda d: (list(d.values()), tuple(d)),
    lambda keys, c: collections.OrderedDict(zip(keys, c)),
    lambda d: ([(DictKey(k), v) for k, v in d.items()], tuple(d)),
    "OrderedDict",
)
_builtin(
    collections.defaultdict,
    _flatten_defaultdict,
    lambda aux, c: collections.defaultdict(aux[0], zip(aux[1], c)),
    _flatten_defaultdict_with_keys,
    "defaultdict",
)


def _classify(t: type) -> Any:
    """Registration for type ``t`` (or `_LEAF_KIND`), cached."""
    reg = _registry.get(t)
    if reg is None:
        if issubclass(t, tuple) and hasattr(t, "_fields"):
            fields_ = t._fields
            reg = _Registration(
                t,
                _flatten_namedtuple,
                _unflatten_namedtuple_factory(t),
                lambda x: ([(GetAttrKey(f), v) for f, v in zip(fields_, x)], None),
                f"namedtuple[{t.__name__}]",
            )
        else:
            reg = _LEAF_KIND
    _kind_cache[t] = reg
    return reg


def is_tree_node(typ: type) -> bool:
    """Returns True if ``typ`` is a registered pytree node type (built-in, custom, namedtuple)."""
    return _classify(typ) is not _LEAF_KIND


def register_pytree_node(
    nodetype: type,
    flatten_func: Callable[[Any], tuple[Iterable[Any], Any]],
    unflatten_func: Callable[[Any, Iterable[Any]], Any],
    flatten_with_keys_func: Callable[[Any], tuple[Iterable[tuple[KeyEntry, Any]], Any]]
    | None = None,
) -> None:
    """Registers ``nodetype`` as a pytree node.

    Args:
      nodetype: the class to register (exact type; subclasses are not covered).
      flatten_func: ``x -> (children, aux_data)``; ``aux_data`` should be hashable.
      unflatten_func: ``(aux_data, children) -> x``.
      flatten_with_keys_func: optional ``x -> ([(key, child), ...], aux_data)`` giving key
        paths; without it, children get `FlattenedIndexKey` keys.
    """
    _register(
        _Registration(
            nodetype, flatten_func, unflatten_func, flatten_with_keys_func, nodetype.__name__
        )
    )


def register_pytree_with_keys(
    nodetype: type,
    flatten_with_keys: Callable[[Any], tuple[Iterable[tuple[KeyEntry, Any]], Any]],
    unflatten_func: Callable[[Any, Iterable[Any]], Any],
    flatten_func: Callable[[Any], tuple[Iterable[Any], Any]] | None = None,
) -> None:
    """Registers ``nodetype`` as a pytree node whose children have key path entries.

    Args:
      nodetype: the class to register.
      flatten_with_keys: ``x -> ([(key, child), ...], aux_data)``.
      unflatten_func: ``(aux_data, children) -> x``.
      flatten_func: optional faster ``x -> (children, aux_data)``; derived when omitted.
    """
    if flatten_func is None:

        def flatten_func(x):
            key_children, aux = flatten_with_keys(x)
            return [c for _, c in key_children], aux

    register_pytree_node(nodetype, flatten_func, unflatten_func, flatten_with_keys)


def register_pytree_node_class(cls: type) -> type:
    """Class decorator: registers ``cls`` using its ``tree_flatten`` / ``tree_unflatten``.

    Args:
      cls: a class with a method ``tree_flatten(self) -> (children, aux_data)`` and a
        classmethod ``tree_unflatten(cls, aux_data, children)``.

    Returns:
      ``cls`` unchanged.
    """
    register_pytree_node(cls, lambda x: x.tree_flatten(), cls.tree_unflatten)
    return cls


def register_pytree_with_keys_class(cls: type) -> type:
    """Class decorator: registers ``cls`` using ``tree_flatten_with_keys`` / ``tree_unflatten``.

    Args:
      cls: a class with ``tree_flatten_with_keys(self) -> ([(key, child)], aux_data)``, a
        classmethod ``tree_unflatten(cls, aux_data, children)`` and optionally
        ``tree_flatten(self)``.

    Returns:
      ``cls`` unchanged.
    """
    flatten_func = (lambda x: x.tree_flatten()) if hasattr(cls, "tree_flatten") else None
    register_pytree_with_keys(
        cls, lambda x: x.tree_flatten_with_keys(), cls.tree_unflatten, flatten_func
    )
    return cls


def register_dataclass(
    nodetype: type,
    data_fields: Iterable[str] | None = None,
    meta_fields: Iterable[str] | None = None,
    drop_fields: Iterable[str] = (),
) -> type:
    """Registers a dataclass as a pytree node: data fields are children, meta fields aux data.

    Args:
      nodetype: the class; must be a dataclass when the field lists are omitted.
      data_fields: names of the child fields. If both lists are None they are inferred from
        the dataclass fields: ``field(metadata={'static': True})`` marks a meta field.
      meta_fields: names of the static fields (hashable; part of the treedef).
      drop_fields: ``init=True`` fields that are neither (they take their defaults back).

    Returns:
      ``nodetype`` unchanged, so this works as a decorator.
    """
    if data_fields is None and meta_fields is None:
        if not is_dataclass(nodetype):
            raise TypeError(
                "register_dataclass: data_fields and meta_fields are required when nodetype "
                f"is not a dataclass. Got nodetype={nodetype!r}."
            )
        data_fields, meta_fields = [], []
        for f in fields(nodetype):
            if not f.init:
                continue
            (meta_fields if f.metadata.get("static", False) else data_fields).append(f.name)
    elif data_fields is None or meta_fields is None:
        raise TypeError(
            "register_dataclass: pass both data_fields and meta_fields, or neither (to infer "
            f"them from the dataclass fields). Got data_fields={data_fields!r}, "
            f"meta_fields={meta_fields!r}."
        )
    data_fields, meta_fields = tuple(data_fields), tuple(meta_fields)
    if is_dataclass(nodetype):
        init_fields = {f.name for f in fields(nodetype) if f.init}
        missing = init_fields - set(data_fields) - set(meta_fields) - set(drop_fields)
        if missing:
            raise ValueError(
                "data_fields and meta_fields must include all dataclass fields with "
                f"``init=True`` and only them. Missing fields: {missing}. Add them to "
                "drop_fields to suppress this error."
            )
    if nodetype in _registry:
        raise PyTreeRegistrationError(
            f"Duplicate custom dataclass PyTreeDef type registration for {nodetype}."
        )

    bad = [n for n in (*data_fields, *meta_fields) if not n.isidentifier() or iskeyword(n)]
    if bad:
        raise ValueError(f"register_dataclass: field names must be identifiers, got {bad!r}.")
    # flatten/unflatten are generated straight-line code (field names are identifiers): the
    # train state of a model is flattened and rebuilt at every jitted step.
    get = "".join(f"x.{n}, " for n in data_fields)
    meta = "".join(f"x.{n}, " for n in meta_fields)
    kwargs = [f"{n}=children[{i}]" for i, n in enumerate(data_fields)]
    kwargs += [f"{n}=meta[{i}]" for i, n in enumerate(meta_fields)]
    namespace = {"nodetype": nodetype}
    exec(
        f"def flatten(x):\n    return ({get}), ({meta})\n\n"
        f"def unflatten(meta, children):\n    return nodetype({', '.join(kwargs)})\n",
        namespace,
    )

    def flatten_with_keys(x):
        keyed = [(GetAttrKey(n), getattr(x, n)) for n in data_fields]
        return keyed, tuple(getattr(x, n) for n in meta_fields)

    _register(
        _Registration(
            nodetype,
            namespace["flatten"],
            namespace["unflatten"],
            flatten_with_keys,
            nodetype.__name__,
            (data_fields, meta_fields),
        )
    )
    return nodetype


def register_static(cls: type) -> type:
    """Registers ``cls`` as a node with no children: the whole object is aux data.

    Args:
      cls: a class whose instances are hashable and comparable with ``==``.

    Returns:
      ``cls`` unchanged.
    """
    register_pytree_node(cls, lambda x: ((), x), lambda aux, _: aux, lambda x: ((), x))
    return cls


# --------------------------------------------------------------------------------------------
# PyTreeDef

# Marker for a leaf inside node tuples. A node is (nodetype, aux_data, children tuple).
_LEAF = "*"
_NONE_NODE = (_NoneType, None, ())


def _node_repr(node) -> str:
    if node is _LEAF:
        return "*"
    t, aux, kids = node
    if t is _NoneType:
        return "None"
    if t is tuple:
        inner = ", ".join(_node_repr(k) for k in kids)
        return f"({inner},)" if len(kids) == 1 else f"({inner})"
    if t is list:
        return "[" + ", ".join(_node_repr(k) for k in kids) + "]"
    if t is dict:
        return "{" + ", ".join(f"{k!r}: {_node_repr(c)}" for k, c in zip(aux, kids)) + "}"
    reg = _kind_get(t) or _classify(t)
    label = reg.label if reg is not _LEAF_KIND else t.__name__
    if not (issubclass(t, tuple) and aux is None):  # namedtuples print no aux data
        label = f"{label}[{aux}]"
    return f"CustomNode({label}, [{', '.join(_node_repr(k) for k in kids)}])"


def _count(node) -> tuple[int, int]:
    """(num_leaves, num_nodes) of a node tuple."""
    if node is _LEAF:
        return 1, 1
    leaves, nodes = 0, 1
    for k in node[2]:
        a, b = _count(k)
        leaves += a
        nodes += b
    return leaves, nodes


def _structural_hash(node) -> int:
    # Fallback when some aux data is unhashable: like JAX, custom aux data is not hashed.
    if node is _LEAF:
        return hash(_LEAF)
    t, aux, kids = node
    try:
        h = hash(aux)
    except TypeError:
        h = 0
    return hash((t, h, tuple(_structural_hash(k) for k in kids)))


def _compose(node, inner):
    if node is _LEAF:
        return inner
    t, aux, kids = node
    return (t, aux, tuple([_compose(k, inner) for k in kids]))


def _unflatten(node, it):
    if node is _LEAF:
        return next(it)
    t, aux, kids = node
    n = len(kids)
    if kids.count(_LEAF) == n:
        if t is dict:
            return dict(zip(aux, it))  # zip pulls aux first: takes exactly n leaves
        vals = list(islice(it, n))
    else:
        vals = [next(it) if k is _LEAF else _unflatten(k, it) for k in kids]
    if t is dict:
        return dict(zip(aux, vals))
    if t is tuple:
        return tuple(vals)
    if t is list:
        return vals
    if t is _NoneType:
        return None
    reg = _kind_get(t) or _classify(t)
    return reg.unflatten(aux, tuple(vals))


def _builder_source(node, leaf_exprs: Iterator[str], namespace: dict) -> str:
    if node is _LEAF:
        return next(leaf_exprs)
    t, aux, kids = node
    parts = [_builder_source(k, leaf_exprs, namespace) for k in kids]
    if t is tuple:
        return "(" + "".join(p + ", " for p in parts) + ")"
    if t is list:
        return "[" + ", ".join(parts) + "]"
    if t is _NoneType:
        return "None"
    name = f"_n{len(namespace)}"
    if t is dict:
        namespace.update({f"{name}_{i}": k for i, k in enumerate(aux)})
        return "{" + ", ".join(f"{name}_{i}: {p}" for i, p in enumerate(parts)) + "}"
    namespace[name] = (_kind_get(t) or _classify(t)).unflatten
    namespace[name + "_aux"] = aux
    return f"{name}({name}_aux, (" + "".join(p + ", " for p in parts) + "))"


def guard_source(treedef: PyTreeDef, expr: str, namespace: dict, lines: list[str]) -> list[str]:
    """Straight-line checks that the object `expr` has the structure `treedef`, and its leaves.

    Code generators (jit's cache-hit guards) use it to skip flattening: the statements appended
    to `lines` `return None` unless the object has exactly this structure (types by identity,
    dict keys, sequence lengths, dataclass meta fields by identity), and may raise LookupError,
    AttributeError or TypeError on objects of another shape. Names they need are added to
    `namespace`.

    Returns:
      The expressions of the leaves, in flatten order, or None when some node cannot be
      checked this way (custom nodes other than namedtuples and `register_dataclass` ones).
    """
    leaves: list[str] = []
    ok = _guard_node(treedef._node, expr, namespace, lines, leaves)
    return leaves if ok else None


def _guard_node(node, expr: str, ns: dict, lines: list[str], leaves: list[str]) -> bool:
    if node is _LEAF:
        leaves.append(expr)
        return True
    t, aux, kids = node
    var = f"_g{len(ns)}"  # unique: every node adds at least its type below
    tname = f"{var}_t"
    ns[tname] = t
    lines.append(f"{var} = {expr}")
    if t is _NoneType:
        lines.append(f"if {var} is not None: return None")
        return True
    lines.append(f"if type({var}) is not {tname}: return None")
    if t is dict:
        lines.append(f"if len({var}) != {len(aux)}: return None")
        ns.update({f"{var}_k{i}": k for i, k in enumerate(aux)})
        children = [f"{var}[{var}_k{i}]" for i in range(len(aux))]
    elif t is tuple or t is list:
        lines.append(f"if len({var}) != {len(kids)}: return None")
        children = [f"{var}[{i}]" for i in range(len(kids))]
    else:
        reg = _kind_get(t) or _classify(t)
        if reg.fields is not None:
            data, meta = reg.fields
            for j, name in enumerate(meta):
                ns[f"{var}_m{j}"] = aux[j]
                lines.append(f"if {var}.{name} is not {var}_m{j}: return None")
            children = [f"{var}.{name}" for name in data]
        elif reg.flatten is _flatten_namedtuple:
            children = [f"{var}[{i}]" for i in range(len(kids))]
        else:
            return False
    return all(_guard_node(k, c, ns, lines, leaves) for k, c in zip(kids, children, strict=True))


class PyTreeDef:
    """The structure of a pytree: hashable, comparable, and able to rebuild trees from leaves."""

    __slots__ = ("_node", "_num_leaves", "_num_nodes", "_hash")

    def __init__(self, node, num_leaves: int | None = None):
        self._node = node
        self._num_leaves = num_leaves
        self._num_nodes = None
        self._hash = None

    @property
    def num_leaves(self) -> int:
        """Number of leaves."""
        if self._num_leaves is None:
            self._num_leaves, self._num_nodes = _count(self._node)
        return self._num_leaves

    @property
    def num_nodes(self) -> int:
        """Number of nodes, counting leaves and ``None`` nodes."""
        if self._num_nodes is None:
            self._num_leaves, self._num_nodes = _count(self._node)
        return self._num_nodes

    def children(self) -> list[PyTreeDef]:
        """The treedefs of the root's children (empty for a leaf)."""
        if self._node is _LEAF:
            return []
        return [PyTreeDef(k) for k in self._node[2]]

    def node_data(self) -> tuple[type, Any] | None:
        """``(nodetype, aux_data)`` of the root, or None for a leaf."""
        if self._node is _LEAF:
            return None
        t, aux, _ = self._node
        return (t, list(aux)) if t is dict else (t, aux)

    def unflatten(self, leaves: Iterable[Any]) -> Any:
        """Builds the pytree with this structure from ``leaves``.

        Args:
          leaves: an iterable of exactly ``num_leaves`` leaves, in flatten order.

        Returns:
          The rebuilt pytree.
        """
        leaves = leaves if isinstance(leaves, list) else list(leaves)
        n = self.num_leaves
        if len(leaves) < n:
            raise PyTreeLeafCountError(
                f"Too few leaves for PyTreeDef; expected {n}, got {len(leaves)}. "
                f"The structure is {self}."
            )
        if len(leaves) > n:  # JAX's first line, then the count and the structure
            raise PyTreeLeafCountError(
                f"Too many leaves for PyTreeDef; expected {n}.\n"
                f"Got {len(leaves)}; the structure is {self}."
            )
        return _unflatten(self._node, iter(leaves))

    def builder_source(self, leaf_exprs: list[str], namespace: dict) -> str:
        """A Python expression that builds a tree of this structure from `leaf_exprs`.

        Code generators (jit's cache-hit path) use it to build output trees with no loop over
        the structure. Names the expression needs are added to `namespace`.
        """
        return _builder_source(self._node, iter(leaf_exprs), namespace)

    def flatten_up_to(self, tree: Any) -> list[Any]:
        """Flattens ``tree`` down to this structure: each leaf here takes a whole subtree.

        Args:
          tree: a pytree that has this treedef as a prefix of its structure.

        Returns:
          The list of ``num_leaves`` subtrees of ``tree``.
        """
        out: list[Any] = []
        fail = _flatten_up_to(self._node, tree, out, ())
        if fail is not None:
            raise PyTreeStructureError(_up_to_message(*fail[1:]))
        return out

    def compose(self, inner: PyTreeDef) -> PyTreeDef:
        """This structure with each leaf replaced by ``inner`` (a tree of trees).

        Args:
          inner: the treedef put in place of every leaf.

        Returns:
          The composed treedef: ``num_leaves`` is ``self.num_leaves * inner.num_leaves``.
        """
        if not isinstance(inner, PyTreeDef):
            raise TypeError(
                f"compose(): incompatible function arguments; expected a PyTreeDef, got {inner!r}."
            )
        return PyTreeDef(_compose(self._node, inner._node))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PyTreeDef):
            return NotImplemented
        return self._node == other._node

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, PyTreeDef):
            return NotImplemented
        return self._node != other._node

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            try:
                h = hash(self._node)
            except TypeError:
                h = _structural_hash(self._node)
            self._hash = h
        return h

    def __repr__(self) -> str:
        return f"PyTreeDef({_node_repr(self._node)})"


# --------------------------------------------------------------------------------------------
# Flattening


# insertion-ordered keys -> (sorted keys, getter of the values in that order); bounded.
_dict_orders: dict[tuple, tuple[tuple, Callable[[dict], Any]]] = {}


def _dict_order(d: dict) -> tuple[tuple, Callable[[dict], Any]]:
    """A dict's sorted keys and a C-level getter of its values in that order, memoized on
    its keys in insertion order (sorting 20 string keys costs more than the lookup)."""
    order = tuple(d)
    hit = _dict_orders.get(order)
    if hit is None:
        keys = _sorted_keys(d)
        getter = operator.itemgetter(*keys) if len(keys) > 1 else lambda x: [x[k] for k in keys]
        hit = (keys, getter)
        # Only str keys: 1, 1.0 and True are equal dict keys but must stay distinct here.
        if all(type(k) is str for k in keys):
            if len(_dict_orders) > 4096:
                _dict_orders.clear()
            _dict_orders[order] = hit
    return hit


def _flatten_dict(d: dict) -> tuple[Any, tuple]:
    keys, getter = _dict_order(d)
    return getter(d), keys


def _flatten(x, leaves):
    """Fast flatten without is_leaf: appends leaves, returns the node tuple."""
    t = type(x)
    reg = _kind_get(t) or _classify(t)
    if reg is _LEAF_KIND:
        leaves.append(x)
        return _LEAF
    if reg is _DICT:
        keys, getter = _dict_order(x)
        vals = getter(x)
        # Common case first: all children are leaves of already-classified types.
        for leaf_type in set(map(type, vals)):
            if _kind_get(leaf_type) is not _LEAF_KIND:
                return (dict, keys, _flatten_children(vals, leaves))
        leaves.extend(vals)
        return (dict, keys, (_LEAF,) * len(vals))
    if reg is _TUPLE or reg is _LIST:
        for v in x:
            if _kind_get(type(v)) is not _LEAF_KIND:
                return (t, None, _flatten_children(x, leaves))
        leaves.extend(x)
        return (t, None, (_LEAF,) * len(x))
    if reg is _NONE:
        return _NONE_NODE
    children, aux = reg.flatten(x)
    return (t, aux, _flatten_children(children, leaves))


def _flatten_children(children, leaves) -> tuple:
    kids = []
    for c in children:
        if _kind_get(type(c)) is _LEAF_KIND:  # inline the common case: no call per leaf
            leaves.append(c)
            kids.append(_LEAF)
        else:
            kids.append(_flatten(c, leaves))
    return tuple(kids)


def _flatten_is_leaf(x, leaves, is_leaf):
    if is_leaf(x):
        leaves.append(x)
        return _LEAF
    t = type(x)
    reg = _kind_get(t) or _classify(t)
    if reg is _LEAF_KIND:
        leaves.append(x)
        return _LEAF
    if reg is _NONE:
        return _NONE_NODE
    children, aux = reg.flatten(x)
    return (t, aux, tuple([_flatten_is_leaf(c, leaves, is_leaf) for c in children]))


def tree_flatten(
    tree: Any, is_leaf: Callable[[Any], bool] | None = None
) -> tuple[list[Any], PyTreeDef]:
    """Flattens a pytree into its leaves and its structure.

    Args:
      tree: the pytree.
      is_leaf: optional predicate; a subtree for which it returns True is a leaf.

    Returns:
      ``(leaves, treedef)``; ``treedef.unflatten(leaves)`` rebuilds ``tree``.
    """
    leaves: list[Any] = []
    if is_leaf is None:
        node = _flatten(tree, leaves)
    else:
        node = _flatten_is_leaf(tree, leaves, is_leaf)
    return leaves, PyTreeDef(node, len(leaves))


def tree_unflatten(treedef: PyTreeDef, leaves: Iterable[Any]) -> Any:
    """Rebuilds a pytree from its structure and leaves (see `PyTreeDef.unflatten`)."""
    return treedef.unflatten(leaves)


def tree_leaves(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> list[Any]:
    """Returns the list of leaves of ``tree`` in flatten order."""
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> PyTreeDef:
    """Returns the `PyTreeDef` of ``tree``."""
    return tree_flatten(tree, is_leaf)[1]


def flatten_one_level(tree: Any) -> tuple[Iterable[Any], Any]:
    """Returns ``(children, aux_data)`` of the root node of ``tree``.

    Raises:
      ValueError: if ``tree`` is a leaf.
    """
    reg = _kind_get(type(tree)) or _classify(type(tree))
    if reg is _LEAF_KIND:
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    children, aux = reg.flatten(tree)
    return tuple(children), aux


def _key_children(reg: _Registration, x: Any) -> tuple[list[tuple[KeyEntry, Any]], Any]:
    if reg.flatten_with_keys is not None:
        keyed, aux = reg.flatten_with_keys(x)
        return list(keyed), aux
    children, aux = reg.flatten(x)
    return [(FlattenedIndexKey(i), c) for i, c in enumerate(children)], aux


def flatten_one_level_with_keys(tree: Any) -> tuple[list[tuple[KeyEntry, Any]], Any]:
    """Returns ``([(key, child), ...], aux_data)`` of the root node of ``tree``.

    Raises:
      ValueError: if ``tree`` is a leaf.
    """
    reg = _kind_get(type(tree)) or _classify(type(tree))
    if reg is _LEAF_KIND:
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    keyed, aux = _key_children(reg, tree)
    return tuple(keyed), aux


def _flatten_with_path(x, path, out, is_leaf, takes_path):
    if is_leaf is not None and (is_leaf(path, x) if takes_path else is_leaf(x)):
        out.append((path, x))
        return _LEAF
    t = type(x)
    reg = _kind_get(t) or _classify(t)
    if reg is _LEAF_KIND:
        out.append((path, x))
        return _LEAF
    keyed, aux = _key_children(reg, x)
    kids = tuple([_flatten_with_path(c, (*path, k), out, is_leaf, takes_path) for k, c in keyed])
    return (t, aux, kids)


def tree_flatten_with_path(
    tree: Any,
    is_leaf: Callable[..., bool] | None = None,
    is_leaf_takes_path: bool = False,
) -> tuple[list[tuple[KeyPath, Any]], PyTreeDef]:
    """Flattens ``tree`` into ``[(key_path, leaf), ...]`` and its structure.

    Args:
      tree: the pytree.
      is_leaf: optional predicate; ``is_leaf(x)``, or ``is_leaf(path, x)`` when
        ``is_leaf_takes_path`` is True.
      is_leaf_takes_path: whether ``is_leaf`` takes the key path as first argument.

    Returns:
      ``(path_leaf_pairs, treedef)``.
    """
    out: list[tuple[KeyPath, Any]] = []
    node = _flatten_with_path(tree, (), out, is_leaf, is_leaf_takes_path)
    return out, PyTreeDef(node, len(out))


def tree_leaves_with_path(
    tree: Any, is_leaf: Callable[..., bool] | None = None, is_leaf_takes_path: bool = False
) -> list[tuple[KeyPath, Any]]:
    """Returns ``[(key_path, leaf), ...]`` (see `tree_flatten_with_path`)."""
    return tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)[0]


def all_leaves(iterable: Iterable[Any], is_leaf: Callable[[Any], bool] | None = None) -> bool:
    """Returns True if every element of ``iterable`` is a leaf (``None`` is not a leaf)."""
    if is_leaf is None:
        return all((_kind_get(type(x)) or _classify(type(x))) is _LEAF_KIND for x in iterable)
    items = list(iterable)
    return items == tree_leaves(items, is_leaf)


# --------------------------------------------------------------------------------------------
# Prefix matching (tree_map with several trees) and its errors


def _key_label(k: KeyEntry) -> str:
    return str(k.name if isinstance(k, GetAttrKey) else getattr(k, "key", getattr(k, "idx", k)))


def _mismatch(path, node, full) -> Callable[[str], PyTreeStructureError]:
    """Error factory describing why ``full`` does not match the prefix ``node`` at ``path``."""
    t, aux, kids = node
    where = keystr(path)
    if type(full) is not t:
        return lambda name: PyTreeStructureError(
            "pytree structure error: different types at key path\n"
            f"    {name}{where}\n"
            f"At that key path, the prefix pytree {name} has a subtree of type\n"
            f"    {t}\n"
            "but at the same key path the full pytree has a subtree of different type\n"
            f"    {type(full)}."
        )
    reg = _kind_get(t) or _classify(t)
    if t is tuple or t is list:
        return lambda name: PyTreeStructureError(
            f"pytree structure error: different lengths of {t.__name__} at key path\n"
            f"    {name}{where}\n"
            f"At that key path, the prefix pytree {name} has a subtree of type "
            f"{t.__name__} of length {len(kids)}, but the full pytree has a subtree of the "
            f"same type but of length {len(full)}."
        )
    full_keyed, full_aux = _key_children(reg, full)
    if len(full_keyed) != len(kids):
        prefix_keys = _prefix_keys(reg, node)
        full_keys = [k for k, _ in full_keyed]
        try:
            diff = " ".join(_key_label(k) for k in set(prefix_keys) ^ set(full_keys))
            diff = f"so the symmetric difference on key sets is\n    {diff}"
        except TypeError:
            diff = ""
        return lambda name: PyTreeStructureError(
            "pytree structure error: different numbers of pytree children at key path\n"
            f"    {name}{where}\n"
            f"At that key path, the prefix pytree {name} has a subtree of type\n"
            f"    {t}\n"
            f"with {len(kids)} child keys\n"
            f"    {' '.join(_key_label(k) for k in prefix_keys)}\n"
            "but at the same key path the full pytree has a subtree of the same type but "
            f"with {len(full_keyed)} child keys\n"
            f"    {' '.join(_key_label(k) for k in full_keys)}\n" + diff
        )
    a, b = str(aux), str(full_aux)
    meta_diff = textwrap.indent("\n".join(difflib.ndiff(a.splitlines(), b.splitlines())), "    ")
    return lambda name: PyTreeStructureError(
        "pytree structure error: different pytree metadata at key path\n"
        f"    {name}{where}\n"
        f"At that key path, the prefix pytree {name} has a subtree of type\n"
        f"    {t}\n"
        "with metadata\n"
        f"    {a}\n"
        "but at the same key path the full pytree has a subtree of the same type but with "
        "metadata\n"
        f"    {b}\n"
        "so the diff in the metadata at these pytree nodes is\n"
        f"{meta_diff}"
    )


_NONE_PREFIX_NOTE = (
    "\n\nIn previous releases of JAX, flatten-up-to used to consider None to be a tree-prefix "
    "of non-None values. To obtain the previous behavior, you can usually write:\n"
    "  jax.tree.map(lambda x, y: None if x is None else f(x, y), a, b, "
    "is_leaf=lambda x: x is None)"
)


def _up_to_message(node, full) -> str:
    """`PyTreeDef.flatten_up_to`'s message (JAX's C++ pytree's) for ``full`` not matching
    the prefix ``node``, found at that node by `_flatten_up_to`."""
    t, aux, kids = node
    if t is _NoneType:
        return f"Expected None, got {full!r}.{_NONE_PREFIX_NOTE}"
    if t in (tuple, list, dict):
        if type(full) is not t:
            return f"Expected {t.__name__}, got {full!r}."
        if t is dict:
            return (
                f"Dict key mismatch; expected keys: {list(aux)}; "
                f"present keys: {list(_sorted_keys(full))}."
            )
        name = t.__name__
        return f"{name.title()} arity mismatch: {len(full)} != {len(kids)}; {name}: {full!r}."
    reg = _kind_get(t) or _classify(t)
    if reg.flatten is _flatten_namedtuple:
        if not (isinstance(full, tuple) and hasattr(full, "_fields")):
            return f"Expected named tuple, got {full!r}."
        return f"Named tuple type mismatch: expected type: {t!r}, tuple: {full!r}."
    kind = "custom dataclass node" if reg.fields is not None else "custom node"
    if type(full) is not t:
        return f"{kind.capitalize()} type mismatch: expected type: {t!r}, value: {full!r}."
    keyed, full_aux = _key_children(reg, full)
    if full_aux != aux:
        return f"Mismatch {kind} data: {aux!r} != {full_aux!r}; value: {full!r}."
    return f"Custom type arity mismatch: {len(keyed)} != {len(kids)}; value: {full!r}."


def _prefix_keys(reg: _Registration, node) -> list[KeyEntry]:
    """Child keys of a prefix node, for error messages."""
    t, aux, kids = node
    if t is dict or t is collections.OrderedDict:
        return [DictKey(k) for k in aux]
    if t is collections.defaultdict:
        return [DictKey(k) for k in aux[1]]
    try:  # rebuild the node with placeholder leaves and ask it for its keys
        placeholders = iter([None] * _count(node)[0])
        return [k for k, _ in _key_children(reg, _unflatten(node, placeholders))[0]]
    except Exception:
        return [FlattenedIndexKey(i) for i in range(len(kids))]


def _flatten_up_to(node, x, out, path):
    """Appends the subtrees of ``x`` at the leaves of ``node``; returns None, or where it failed:
    ``(key path, prefix node, full subtree)``."""
    if node is _LEAF:
        out.append(x)
        return None
    t, aux, kids = node
    if type(x) is not t:
        return (path, node, x)
    if t is dict:
        if len(x) != len(kids) or _sorted_keys(x) != aux:
            return (path, node, x)
        for k, c in zip(aux, kids):
            if c is _LEAF:
                out.append(x[k])
            else:
                fail = _flatten_up_to(c, x[k], out, (*path, DictKey(k)))
                if fail is not None:
                    return fail
        return None
    if t is tuple or t is list:
        if len(x) != len(kids):
            return (path, node, x)
        keyed = [(SequenceKey(i), v) for i, v in enumerate(x)]
    elif t is _NoneType:
        return None
    else:
        reg = _kind_get(t) or _classify(t)
        keyed, full_aux = _key_children(reg, x)
        if len(keyed) != len(kids) or full_aux != aux:
            return (path, node, x)
    for (k, v), c in zip(keyed, kids):
        if c is _LEAF:
            out.append(v)
        else:
            fail = _flatten_up_to(c, v, out, (*path, k))
            if fail is not None:
                return fail
    return None


def _flatten_rest(treedef: PyTreeDef, rest: tuple, name: str) -> list[list[Any]]:
    all_rest = []
    for r in rest:
        out: list[Any] = []
        fail = _flatten_up_to(treedef._node, r, out, ())
        if fail is not None:
            raise _mismatch(*fail)(name) from None
        all_rest.append(out)
    return all_rest


def tree_map(
    f: Callable[..., Any],
    tree: Any,
    *rest: Any,
    is_leaf: Callable[[Any], bool] | None = None,
) -> Any:
    """Applies ``f`` to the leaves of ``tree`` (and the matching subtrees of ``rest``).

    Args:
      f: function of ``1 + len(rest)`` arguments.
      tree: the pytree whose structure the result has.
      *rest: pytrees with the structure of ``tree``, or with ``tree`` as a prefix (then ``f``
        receives whole subtrees of them).
      is_leaf: optional predicate marking subtrees of ``tree`` as leaves.

    Returns:
      A pytree with the structure of ``tree`` holding ``f(leaf, *rest_leaves)``.
    """
    leaves, treedef = tree_flatten(tree, is_leaf)
    if not rest:
        return treedef.unflatten([f(x) for x in leaves])
    all_rest = _flatten_rest(treedef, rest, "tree_map tree")
    return treedef.unflatten([f(*xs) for xs in zip(leaves, *all_rest)])


def tree_map_with_path(
    f: Callable[..., Any],
    tree: Any,
    *rest: Any,
    is_leaf: Callable[..., bool] | None = None,
    is_leaf_takes_path: bool = False,
) -> Any:
    """Like `tree_map`, but ``f`` receives the key path first: ``f(path, leaf, *rest)``.

    Args:
      f: function of ``2 + len(rest)`` arguments.
      tree: the pytree whose structure the result has.
      *rest: pytrees with ``tree``'s structure or ``tree`` as a prefix.
      is_leaf: optional predicate marking subtrees of ``tree`` as leaves.
      is_leaf_takes_path: whether ``is_leaf`` takes ``(path, x)``.

    Returns:
      A pytree with the structure of ``tree``.
    """
    path_leaves, treedef = tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)
    all_rest = _flatten_rest(treedef, rest, "tree_map_with_path tree")
    return treedef.unflatten(
        [f(p, x, *xs) for (p, x), *xs in zip(path_leaves, *all_rest)]
        if rest
        else [f(p, x) for p, x in path_leaves]
    )


class _Unspecified:
    def __repr__(self) -> str:
        return "<unspecified>"


_UNSPECIFIED = _Unspecified()


def tree_reduce(
    function: Callable[[Any, Any], Any],
    tree: Any,
    initializer: Any = _UNSPECIFIED,
    is_leaf: Callable[[Any], bool] | None = None,
) -> Any:
    """Reduces the leaves of ``tree`` with ``function`` (``functools.reduce`` semantics).

    Args:
      function: binary function.
      tree: the pytree.
      initializer: optional start value (required when ``tree`` has no leaves).
      is_leaf: optional predicate marking subtrees as leaves.

    Returns:
      The reduced value.
    """
    leaves = tree_leaves(tree, is_leaf)
    if initializer is _UNSPECIFIED:
        return functools.reduce(function, leaves)
    return functools.reduce(function, leaves, initializer)


def tree_reduce_associative(
    operation: Callable[[Any, Any], Any],
    tree: Any,
    *,
    identity: Any = _UNSPECIFIED,
    is_leaf: Callable[[Any], bool] | None = None,
) -> Any:
    """Reduces the leaves of ``tree`` with an associative ``operation`` as a balanced tree.

    Args:
      operation: associative binary function.
      tree: the pytree.
      identity: returned when ``tree`` has no leaves (required then).
      is_leaf: optional predicate marking subtrees as leaves.

    Returns:
      The reduced value.
    """

    def reduce(seq):
        if len(seq) == 1:
            return seq[0]
        half = len(seq) // 2
        return operation(reduce(seq[:half]), reduce(seq[half:]))

    leaves = tree_leaves(tree, is_leaf)
    if not leaves:
        if identity is _UNSPECIFIED:
            raise TypeError("Must specify identity for parallel reduction of empty sequence.")
        return identity
    return reduce(leaves)


def tree_all(tree: Any, *, is_leaf: Callable[[Any], bool] | None = None) -> bool:
    """Returns True if every leaf of ``tree`` is truthy (True for no leaves)."""
    return all(tree_leaves(tree, is_leaf))


def tree_broadcast(
    prefix_tree: Any, full_tree: Any, is_leaf: Callable[[Any], bool] | None = None
) -> Any:
    """Broadcasts the leaves of ``prefix_tree`` over the matching subtrees of ``full_tree``.

    Args:
      prefix_tree: a pytree that is a prefix of ``full_tree``.
      full_tree: the pytree whose structure the result has.
      is_leaf: optional predicate marking subtrees of ``prefix_tree`` as leaves.

    Returns:
      A pytree shaped like ``full_tree`` whose leaves are the prefix leaves above them.
    """
    leaves, treedef = tree_flatten(prefix_tree, is_leaf)
    subtrees = _flatten_rest(treedef, (full_tree,), "broadcast_prefix prefix_tree")[0]
    return treedef.unflatten([tree_map(lambda _, x=x: x, s) for x, s in zip(leaves, subtrees)])


def tree_transpose(
    outer_treedef: PyTreeDef, inner_treedef: PyTreeDef | None, pytree_to_transpose: Any
) -> Any:
    """Turns an outer-of-inner pytree into an inner-of-outer pytree.

    Args:
      outer_treedef: the structure of the outer level.
      inner_treedef: the structure of the inner level; inferred from the first outer
        leaf when None.
      pytree_to_transpose: a pytree with structure ``outer`` composed with ``inner``.

    Returns:
      The transposed pytree.
    """
    flat, treedef = tree_flatten(pytree_to_transpose)
    if inner_treedef is None:
        inner_treedef = tree_structure(outer_treedef.flatten_up_to(pytree_to_transpose)[0])
    inner_size, outer_size = inner_treedef.num_leaves, outer_treedef.num_leaves
    if treedef.num_leaves != inner_size * outer_size:
        expected = tree_structure(
            outer_treedef.unflatten([inner_treedef.unflatten([0] * inner_size)] * outer_size)
        )
        raise TypeError(f"Mismatch\n{treedef}\n != \n{expected}")
    rows = [flat[i * inner_size : (i + 1) * inner_size] for i in range(outer_size)]
    return inner_treedef.unflatten([outer_treedef.unflatten(col) for col in zip(*rows)])


# --------------------------------------------------------------------------------------------
# Treedef helpers


def treedef_children(treedef: PyTreeDef) -> list[PyTreeDef]:
    """Returns the treedefs of the root's children."""
    return treedef.children()


def treedef_is_leaf(treedef: PyTreeDef) -> bool:
    """Returns True if ``treedef`` has no nodes below its root (a leaf, ``None``, ``()``...)."""
    return treedef.num_nodes == 1


def treedef_tuple(treedefs: Iterable[PyTreeDef]) -> PyTreeDef:
    """Returns the treedef of a tuple whose children have the given treedefs."""
    return PyTreeDef((tuple, None, tuple(td._node for td in treedefs)))


# --------------------------------------------------------------------------------------------
# Partial


class _HashableCallableShim:
    """Boxes a partial so `functools.partial` does not merge its arguments into ours."""

    def __init__(self, fun):
        self.fun = fun

    def __call__(self, *args, **kw):
        return self.fun(*args, **kw)

    def __hash__(self):
        return hash(self.fun)

    def __eq__(self, other):
        if isinstance(other, _HashableCallableShim):
            return self.fun == other.fun
        return self.fun == other

    def __repr__(self):
        return f"_HashableCallableShim({self.fun!r})"


class Partial(functools.partial):
    """A `functools.partial` that is a pytree: ``func`` is static, args/keywords are children.

    Bound arguments are leaves, so a ``Partial`` can be passed through ``jit``/``grad``.
    """

    def __new__(cls, func, *args, **kw):
        if isinstance(func, functools.partial):
            func = _HashableCallableShim(func)
        return super().__new__(cls, func, *args, **kw)


register_pytree_node(
    Partial,
    lambda p: ((p.args, p.keywords), p.func),
    lambda func, xs: Partial(func, *xs[0], **xs[1]),
)


class PyTreeRegistry:
    """The registry of pytree node types, as `jax.tree_util.default_registry` (JAX's
    `PyTreeRegistry` methods over numbax's one process-wide registry)."""

    def flatten(self, tree: Any, leaf_predicate: Callable[[Any], bool] | None = None) -> tuple:
        """`tree_flatten(tree, is_leaf=leaf_predicate)`."""
        return tree_flatten(tree, is_leaf=leaf_predicate)

    def flatten_with_path(
        self, tree: Any, leaf_predicate: Callable[[Any, Any], bool] | None = None
    ) -> tuple:
        """`tree_flatten_with_path`, the predicate seeing `(path, node)`."""
        return tree_flatten_with_path(tree, leaf_predicate, is_leaf_takes_path=True)

    def flatten_one_level(self, tree: Any) -> tuple | None:
        """`(children, aux_data)` of the root node, None for a leaf."""
        return flatten_one_level(tree) if is_tree_node(type(tree)) else None

    def flatten_one_level_with_keys(self, tree: Any) -> tuple | None:
        """`((key, child), ...), aux_data` of the root node, None for a leaf."""
        return flatten_one_level_with_keys(tree) if is_tree_node(type(tree)) else None

    def is_node(self, type: type) -> bool:  # noqa: A002  (JAX's name)
        """Whether `type` is registered as a pytree node."""
        return is_tree_node(type)

    def register_node(
        self,
        type: type,  # noqa: A002  (JAX's name)
        to_iterable: Callable,
        from_iterable: Callable,
        to_iterable_with_keys: Callable | None = None,
    ) -> None:
        """`register_pytree_node` (with keys when `to_iterable_with_keys` is given)."""
        if to_iterable_with_keys is None:
            register_pytree_node(type, to_iterable, from_iterable)
        else:
            register_pytree_with_keys(type, to_iterable_with_keys, from_iterable, to_iterable)

    def register_dataclass_node(
        self,
        type: type,  # noqa: A002  (JAX's name)
        data_fields: Sequence[str],
        meta_fields: Sequence[str],
        /,
    ) -> None:
        """`register_dataclass(type, data_fields, meta_fields)`."""
        register_dataclass(type, data_fields, meta_fields)


default_registry = PyTreeRegistry()
