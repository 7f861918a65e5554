"""JAX's check of a loop body's carry (`_check_carry_type`): the output carry must have the
input carry's structure and, leaf by leaf, its shape and dtype; the error names each
differing component by the body's first parameter and its key path, in JAX's words."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

from core import tree_util
from core.prims.control_flow.errors import CarryTypeError


def _component(body_fun: Callable) -> Callable[[tuple], str]:
    """How JAX names the carry at a key path: by the body's first parameter if it has one."""
    try:
        params = list(inspect.signature(body_fun).parameters)
    except (ValueError, TypeError):
        params = []
    if params:
        name = params[0]
        return lambda p: (
            f"the input carry component {name}{tree_util.keystr(p)}"
            if p
            else f"the input carry {name}"
        )
    return lambda p: f"the input carry at path {tree_util.keystr(p)}" if p else "the input carry"


def _is_leaf(tree: Any) -> bool:
    """A strict leaf (JAX's `treedef_is_strict_leaf`: one node, one leaf; None is not)."""
    treedef = tree_util.tree_structure(tree)
    return treedef.num_nodes == 1 and treedef.num_leaves == 1


def _structure_diffs(path: tuple, t1: Any, t2: Any) -> Iterator[tuple]:
    """(path, thing1, thing2, explanation) for each structural difference (JAX's
    `equality_errors`)."""
    if _is_leaf(t1) and _is_leaf(t2):
        return
    if type(t1) is not type(t2):
        yield path, str(type(t1)), str(type(t2)), "their Python types differ"
        return
    if isinstance(t1, (list, tuple)) and len(t1) != len(t2):
        yield (path, f"{type(t1).__name__} of length {len(t1)}",
               f"{type(t2).__name__} of length {len(t2)}", "the lengths do not match")  # fmt: skip
        return
    kids1, meta1 = tree_util.flatten_one_level_with_keys(t1)
    kids2, meta2 = tree_util.flatten_one_level_with_keys(t2)
    if len(kids1) != len(kids2):
        keys = {k for k, _ in kids1} ^ {k for k, _ in kids2}
        diff = " ".join(repr(getattr(k, "key", k)) for k in keys)

        def things(kids: list, t: Any) -> str:
            return f"{type(t)} with {len(kids)} child{'ren' if len(kids) > 1 else ''}"

        yield (path, things(kids1, t1), things(kids2, t2),
               "the numbers of children do not match"
               + (diff and f", with the symmetric difference of key sets: {{{diff}}}"))  # fmt: skip
        return
    if meta1 != meta2:
        yield (path, f"{type(t1)} with pytree metadata {meta1}",
               f"{type(t2)} with pytree metadata {meta2}",
               "the pytree node metadata does not match")  # fmt: skip
        return
    for (k, c1), (_, c2) in zip(kids1, kids2):
        yield from _structure_diffs((*path, k), c1, c2)


def _join(diffs: list[str]) -> str:
    if len(diffs) == 1:
        return f"{diffs[0][0].upper()}{diffs[0][1:]}.\n"
    return "\n".join(f"  * {d};\n" for d in diffs[:-1]) + f"  * {diffs[-1]}.\n"


def _mismatch(a: Any, b: Any) -> str:
    """JAX's `aval_mismatch_extra`: what differs between two avals."""
    found = []
    if a.dtype != b.dtype:
        found.append("the dtypes do not match")
    if a.shape != b.shape:
        found.append("the shapes do not match")
    if not found:
        return ""
    return ", so " + (found[0] if len(found) == 1 else f"{found[0]}, and {found[1]}")


def check_carry_type(
    name: str, body_fun: Callable, in_tree: Any, in_avals: list, out_tree: Any, out_avals: list
) -> None:
    """Raises `CarryTypeError` with JAX's message when the body's output carry (`out_tree`,
    `out_avals`) differs from its input carry in structure, shape or dtype (weak types are
    not compared, as in JAX's `typematch`).

    Args:
      name: the loop, as JAX names it ('while_loop body', 'scan body').
      body_fun: the user's body function (its first parameter names the carry).
      in_tree, in_avals: the input carry's treedef and leaves' avals.
      out_tree, out_avals: the output carry's.
    """
    component = _component(body_fun)
    if in_tree != out_tree:
        try:
            out_value = tree_util.tree_unflatten(out_tree, out_avals)
            diffs = [
                f"{component(p)} is a {a} but the corresponding component of the carry output "
                f"is a {b}, so {why}"
                for p, a, b, why in _structure_diffs(
                    (), tree_util.tree_unflatten(in_tree, in_avals), out_value
                )
            ]
            differences = _join(diffs) if diffs else ""
        except Exception:  # a node type that cannot be rebuilt from avals
            differences = ""
        if not differences:
            differences = (
                f"the input tree structure is:\n{in_tree}\n"
                f"the output tree structure is:\n{out_tree}\n"
            )
        raise CarryTypeError(
            f"{name} function carry input and carry output must have the same pytree "
            f"structure, but they differ:\n\n{differences}\nRevise the function so that the "
            "carry output has the same pytree structure as the carry input."
        )
    paths = [p for p, _ in tree_util.tree_flatten_with_path(tree_util.tree_unflatten(
        in_tree, in_avals))[0]]  # fmt: skip
    diffs = [
        f"{component(p)} has type {a.str_short(short_dtypes=False)} but the corresponding "
        f"output carry component has type {b.str_short(short_dtypes=False)}{_mismatch(a, b)}"
        for p, a, b in zip(paths, in_avals, out_avals)
        if (a.shape, a.dtype) != (b.shape, b.dtype)
    ]
    if diffs:
        raise CarryTypeError(
            f"{name} function carry input and carry output must have equal types, but they "
            f"differ:\n\n{_join(diffs)}\nRevise the function so that all output types match "
            "the corresponding input types."
        )
