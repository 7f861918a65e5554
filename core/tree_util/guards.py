"""`guard_source`: straight-line Python that checks an object has a given structure.

jit's cache-hit path compiles these checks into its guard instead of flattening the
arguments: types by identity, dict keys, sequence lengths, the meta fields of
`register_dataclass` nodes by identity, then the leaves' expressions in flatten order.
"""

from __future__ import annotations

from core.tree_util.nodes import _LEAF
from core.tree_util.registry import _classify, _flatten_namedtuple, _kind_get, _NoneType
from core.tree_util.treedef import PyTreeDef


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
