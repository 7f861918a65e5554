"""JAX's sharding rule of `reshape` over `Explicit` mesh axes (its `_reshape_sharding_rule`).

An operand sharded only over `Explicit` axes is reshaped as JAX types it: axes of size 1
added or removed keep the others' shardings; a reshape that splits one axis into adjacent
axes gives the split axes the sharded axis's mesh axes, major first, as far as their sizes
divide; one that merges adjacent axes gives the merged axis the mesh axes of all of them (an
unsharded axis may only follow the sharded ones). Anything else, or sizes the mesh axes do
not divide, is ambiguous: no spec, which the caller raises as `ReshapeShardingError`
(`core/errors.py`), asking for an `out_sharding`
(`jnp.reshape(x, shape, out_sharding=...)`). Over `Auto` axes the compiler's choice is
followed instead (`core/sharding_propagation.py`'s `_reshape`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Spec = tuple  # one entry per array axis: None or a tuple of mesh axis names


class _Unsupported(Exception):
    """The reshape's result sharding is ambiguous (control flow inside this module)."""


def _split_on_one_axis(op_shape: Sequence[int], new_sizes: Sequence[int]) -> tuple[bool, list]:
    """Whether `op_shape -> new_sizes` splits exactly one axis into adjacent axes, with, per
    operand axis, its size or the list of sizes it splits into (trailing size-1 axes common to
    both shapes are set aside and given back as 1s). Splitting two axes is ambiguous
    (`_Unsupported`)."""
    old, new = list(op_shape), list(new_sizes)
    if len(new) <= len(old):
        return False, []
    trailing_ones = 0
    while old[-1] == 1 and new[-1] == 1:
        trailing_ones += 1
        old.pop()
        new.pop()
    per_axis: list = []
    start, split_seen = 0, False
    for axis in range(len(new)):
        if start >= len(new):
            break
        size = old[axis]
        if new[start] == size:
            per_axis.append(size)
            start += 1
            continue
        if split_seen:
            raise _Unsupported
        split_seen = True
        following = old[axis + 1] if axis + 1 < len(old) else None
        end = _split_group_end(new, start, size, following)
        if end is None:
            return False, []
        per_axis.append(new[start:end])
        start = end
    return True, per_axis + [1] * trailing_ones


def _split_group_end(new: list, start: int, size: int, following: int | None) -> int | None:
    """Where the run of `new` from `start` whose product is `size` ends (exclusive), taking in
    the 1s after it unless the next size is the next operand axis's `following` size; None if
    no run multiplies to `size`."""
    end = start + 1
    while True:
        product = math.prod(new[start:end])
        more_ones = end < len(new) and new[end] == 1
        if product == size and not more_ones:
            return end
        if product > size:
            return None
        if product == size and following is not None and new[end] == following:
            return end
        if end >= len(new):
            return None
        end += 1


def _split_partitions(names: Sequence[str], sizes: Sequence[int], mesh: dict, fail) -> list:
    """The mesh axes `names` dealt out, major first, to axes of `sizes` they divide."""
    it = iter(names)
    partitions = []
    for size in sizes:
        taken = []
        while size > 1:
            name = next(it, None)
            if name is None:
                break
            size, remainder = divmod(size, mesh[name])
            if remainder:
                fail()
            taken.append(name)
        partitions.append(tuple(taken) or None)
    if next(it, None) is not None:
        fail()
    return partitions


def reshape_spec(
    spec: Spec, shape: Sequence[int], new_sizes: Sequence[int], mesh: dict
) -> Spec | None:
    """The spec JAX's type rule gives a reshape of an array of `shape` sharded by `spec` (over
    `Explicit` mesh axes only).

    Args:
      spec: the operand's spec, one entry per axis (None or a tuple of mesh axis names).
      shape: the operand's shape.
      new_sizes: the result's shape.
      mesh: the mesh's axis sizes by name.

    Returns:
      The result's spec, or None if it is ambiguous.
    """
    try:
        return _reshape_spec(spec, tuple(shape), tuple(new_sizes), mesh)
    except _Unsupported:
        return None


def _reshape_spec(spec: Spec, shape: tuple, new_sizes: tuple, mesh: dict) -> Spec:
    """`reshape_spec`, raising `_Unsupported` when ambiguous (JAX's `_reshape_sharding_rule`)."""
    if all(e is None for e in spec):
        return (None,) * len(new_sizes)

    def fail() -> None:
        raise _Unsupported

    if [s for s in shape if s != 1] == [s for s in new_sizes if s != 1]:
        kept = iter(e for e, s in zip(spec, shape) if s != 1)
        return tuple(None if n == 1 else next(kept) for n in new_sizes)
    is_split, split = _split_on_one_axis(shape, new_sizes)
    is_merge, merge = (False, []) if is_split else _split_on_one_axis(new_sizes, shape)
    if is_split:
        out: list = []
        for sizes, entry in zip(split, spec):
            if not isinstance(sizes, list):
                out.append(entry)
            elif entry is None:
                out.extend([None] * len(sizes))
            else:
                out.extend(_split_partitions(entry, sizes, mesh, fail))
        return tuple(out)
    if is_merge:
        out = []
        entries = iter(spec)
        for size, merged in zip(new_sizes, merge):
            if not isinstance(merged, list):
                out.append(next(entries))
                continue
            group = [next(entries) for _ in merged]
            if all(e is None for e in group):
                out.append(None)
                continue
            names: list = []
            for e in group:
                names.extend(e if e is not None else [None])
            while names[-1] is None:
                names.pop()
            if None in names:
                fail()
            out.extend(_split_partitions(names, [size], mesh, fail))
        return tuple(out)
    raise _Unsupported
