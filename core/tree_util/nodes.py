"""The node tuples a structure is stored as, and the walks over them.

A leaf is the `_LEAF` marker and a node is ``(nodetype, aux_data, children tuple)``, nested
plain tuples, so equality and hashing of structures run at C speed. Here: their repr (JAX's
``PyTreeDef(...)`` text), counts, the structural hash used when some aux data is unhashable,
composition, unflattening, and `_builder_source`, the Python expression that builds a tree of
a structure (jit's cache-hit path).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from core.tree_util.registry import _LEAF_KIND, _classify, _kind_get, _NoneType

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
