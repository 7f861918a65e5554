"""Prefix matching: the subtrees of a tree at the leaves of a prefix structure, and its errors.

`_flatten_up_to` walks a prefix node and a full tree together (what `PyTreeDef.flatten_up_to`
and `tree_map` with several trees use) and returns where they first differ; the messages are
JAX's: `_up_to_message` is its C++ pytree's for `flatten_up_to`, `_mismatch` its Python
`tree_map` error naming the key path.
"""

from __future__ import annotations

import collections
import difflib
import textwrap
from collections.abc import Callable

from core.tree_util.errors import PyTreeStructureError
from core.tree_util.keys import (
    DictKey,
    FlattenedIndexKey,
    GetAttrKey,
    KeyEntry,
    SequenceKey,
    keystr,
)
from core.tree_util.nodes import _LEAF, _count, _unflatten
from core.tree_util.registry import (
    _classify,
    _flatten_namedtuple,
    _key_children,
    _kind_get,
    _NoneType,
    _Registration,
    _sorted_keys,
)


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


def _matching_children(node, x) -> list | None:
    """The ``(key, child)`` pairs of ``x`` when its root matches the root of the prefix
    ``node`` (type, length, keys, metadata), else None."""
    t, aux, kids = node
    if type(x) is not t:
        return None
    if t is dict:
        if len(x) != len(kids) or _sorted_keys(x) != aux:
            return None
        return [(DictKey(k), x[k]) for k in aux]
    if t is tuple or t is list:
        return None if len(x) != len(kids) else [(SequenceKey(i), v) for i, v in enumerate(x)]
    if t is _NoneType:
        return []
    keyed, full_aux = _key_children(_kind_get(t) or _classify(t), x)
    return keyed if len(keyed) == len(kids) and full_aux == aux else None


def _flatten_up_to(node, x, out, path):
    """Appends the subtrees of ``x`` at the leaves of ``node``; returns None, or where it failed:
    ``(key path, prefix node, full subtree)``."""
    if node is _LEAF:
        out.append(x)
        return None
    keyed = _matching_children(node, x)
    if keyed is None:
        return (path, node, x)
    for (k, v), c in zip(keyed, node[2]):
        if c is _LEAF:
            out.append(v)
        else:
            fail = _flatten_up_to(c, v, out, (*path, k))
            if fail is not None:
                return fail
    return None


def prefix_errors(node, x, path=()) -> list[Callable[[str], PyTreeStructureError]]:
    """Every place where ``x`` does not match the prefix ``node`` (JAX's `prefix_errors`: one
    error factory per mismatching subtree, none looked for below a mismatch)."""
    if node is _LEAF:
        return []
    keyed = _matching_children(node, x)
    if keyed is None:
        return [_mismatch(path, node, x)]
    return [e for (k, v), c in zip(keyed, node[2]) for e in prefix_errors(c, v, (*path, k))]
