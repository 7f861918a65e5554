"""The registry of pytree node types and its public registration functions.

Each node type maps to a `_Registration` (flatten, unflatten, flatten with keys, the label of
its repr, the fields of `register_dataclass` nodes). The built-in nodes (tuple, list, dict
with sorted keys, None, OrderedDict, defaultdict) are registered here; namedtuples are
recognized on first sight. `_classify` caches each type's registration (or `_LEAF_KIND`) in
`_kind_cache`, cleared whenever the registry changes, so a leaf costs one dict lookup when
flattening. A dict's sorted keys are memoized on its insertion order (`_dict_order`).
"""

from __future__ import annotations

import collections
import operator
from collections.abc import Callable, Iterable
from dataclasses import fields, is_dataclass
from keyword import iskeyword
from typing import Any, NamedTuple

from core.tree_util.errors import PyTreeKeySortError, PyTreeRegistrationError
from core.tree_util.keys import DictKey, FlattenedIndexKey, GetAttrKey, KeyEntry, SequenceKey


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
    """Returns True if ``typ`` is a registered pytree node type (built-in, custom, namedtuple);
    False for anything but a type, as in JAX, whose TypeError None raises.

    Args:
      typ: a type.

    Returns:
      Whether ``typ`` is a pytree node type.
    """
    if typ is None:
        raise TypeError(
            "is_node(): incompatible function arguments. The following argument types are "
            "supported:\n    1. is_node(self, type: type) -> bool\n\nis_tree_node takes a type: "
            "is_tree_node(type(x))."
        )
    return isinstance(typ, type) and _classify(typ) is not _LEAF_KIND


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
    if (data_fields is None) != (meta_fields is None):
        raise TypeError(  # JAX's words
            "register_dataclass: data_fields and meta_fields must both be specified when "
            f"either is specified. Got data_fields={data_fields!r} meta_fields={meta_fields!r}."
        )
    if data_fields is None or meta_fields is None:
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
    data_fields, meta_fields = tuple(data_fields), tuple(meta_fields)
    if is_dataclass(nodetype):
        init_fields = {f.name for f in fields(nodetype) if f.init} - set(drop_fields)
        given = {*data_fields, *meta_fields}
        if given != init_fields:  # JAX's words
            msg = (
                "data_fields and meta_fields must include all dataclass fields with "
                "``init=True`` and only them."
            )
            if missing := init_fields - given:
                msg += (
                    f" Missing fields: {missing}. Add them to drop_fields to suppress this error."
                )
            if unexpected := given - init_fields:
                msg += f" Unexpected fields: {unexpected}."
            raise ValueError(msg)
    if overlap := set(data_fields) & set(meta_fields):
        raise ValueError(  # JAX's words
            f"data_fields and meta_fields must not overlap. Overlapping fields: {overlap}."
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


def _key_children(reg: _Registration, x: Any) -> tuple[list[tuple[KeyEntry, Any]], Any]:
    if reg.flatten_with_keys is not None:
        keyed, aux = reg.flatten_with_keys(x)
        return list(keyed), aux
    children, aux = reg.flatten(x)
    return [(FlattenedIndexKey(i), c) for i, c in enumerate(children)], aux
