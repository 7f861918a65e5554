"""Flattening nested dicts to ``{path_tuple: leaf}`` and back (``flax.traverse_util``).

Used for optimizer masks, parameter overviews and weight import: every leaf of a nested
parameter dict gets a key path such as ``('Dense_0', 'kernel')`` or, with ``sep='/'``,
``'Dense_0/kernel'``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

empty_node: dict = {}


def flatten_dict(
    xs: Mapping,
    keep_empty_nodes: bool = False,
    is_leaf: Callable[[tuple, Any], bool] | None = None,
    sep: str | None = None,
) -> dict:
    """Flattens a nested dict to ``{path: leaf}``.

    Args:
      xs: the nested dict.
      keep_empty_nodes: keep empty sub-dicts as leaves (the value is ``empty_node``).
      is_leaf: ``is_leaf(path, value)`` stops the descent at ``value`` when true.
      sep: join path keys with this separator instead of returning tuples.

    Returns:
      The flat dict.

    Example::

        >>> flatten_dict({"a": {"b": 1, "c": 2}})
        {('a', 'b'): 1, ('a', 'c'): 2}
    """
    out: dict = {}

    def visit(x: Any, prefix: tuple) -> None:
        if not isinstance(x, Mapping) or (is_leaf is not None and is_leaf(prefix, x)):
            out[_key(prefix, sep)] = x
            return
        if not x:
            if keep_empty_nodes and prefix:
                out[_key(prefix, sep)] = empty_node
            return
        for k, v in x.items():
            visit(v, prefix + (k,))

    visit(xs, ())
    return out


def _key(path: tuple, sep: str | None) -> Any:
    return path if sep is None else sep.join(str(k) for k in path)


def unflatten_dict(xs: Mapping, sep: str | None = None) -> dict:
    """Inverse of :func:`flatten_dict`.

    Args:
      xs: ``{path: leaf}`` with tuple paths (or ``sep``-joined strings).
      sep: the separator used to join string paths.

    Returns:
      The nested dict.
    """
    out: dict = {}
    for path, value in xs.items():
        keys = tuple(path.split(sep)) if sep is not None else path
        cursor = out
        for k in keys[:-1]:
            cursor = cursor.setdefault(k, {})
        cursor[keys[-1]] = {} if value is empty_node else value
    return out


def path_aware_map(f: Callable[[tuple, Any], Any], nested_dict: Mapping) -> dict:
    """Maps ``f(path, leaf)`` over a nested dict, keeping its structure."""
    flat = flatten_dict(nested_dict, keep_empty_nodes=True)
    return unflatten_dict({k: v if v is empty_node else f(k, v) for k, v in flat.items()})
