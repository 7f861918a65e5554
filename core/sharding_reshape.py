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
    """Whether `op_shape -> new_sizes` splits one axis (JAX's `_split_on_one_axis`), with,
    per operand axis, its size or the list of sizes it splits into."""
    op_shape, new_sizes = list(op_shape), list(new_sizes)
    if len(new_sizes) <= len(op_shape):
        return False, []
    num_1s = 0
    while op_shape[-1] == 1 and new_sizes[-1] == 1:
        num_1s += 1
        op_shape, new_sizes = op_shape[:-1], new_sizes[:-1]
    i, j, count, out = 0, 0, 0, []
    while j < len(new_sizes):
        if op_shape[i] == new_sizes[j]:
            out.append(op_shape[i])
        else:
            count += 1
            if count > 1:
                raise _Unsupported
            temp = [new_sizes[j]]
            next_j, next_i = j + 1, i + 1
            while math.prod(temp) != op_shape[i] or (
                next_j < len(new_sizes) and new_sizes[next_j] == 1
            ):
                if math.prod(temp) > op_shape[i]:
                    return False, []
                if (
                    math.prod(temp) == op_shape[i]
                    and next_i < len(op_shape)
                    and new_sizes[next_j] == op_shape[next_i]
                ):
                    break
                j += 1
                if j >= len(new_sizes):
                    return False, []
                temp.append(new_sizes[j])
                next_j += 1
            out.append(temp)
        i += 1
        j += 1
    return True, out + [1] * num_1s


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
