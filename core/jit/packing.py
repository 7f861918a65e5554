"""How a compiled kernel returns its outputs: small outputs of one dtype packed into one array
(`output_layout`), and the generated Python that names the results and views the packs
(`unpack_exprs`, `unpacker`). Plain Python, no numba: `jit`'s call path and the profiler read
the layout without loading the compiler."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from core.ir import Jaxpr, Var

__all__ = ["PACK_MAX", "output_layout", "unpack_exprs", "unpack_results", "unpacker"]

# Outputs this small (elements) are packed: returning an array from numba costs about 0.5 us
# (boxing), a view of a packed buffer 0.07 us (a 20-leaf output tree: 8.3 -> 2.3 us).
PACK_MAX = 1024


def output_layout(
    outvars: Sequence[Var], pack_arrays: bool = True
) -> tuple[list[list[int]], list[int]]:
    """How the kernel returns its outputs: `(packs, singles)`.

    Each pack is a group of at least two outputs of one dtype returned in one array, which the
    caller views: 0-d outputs are the elements of a vector; with `pack_arrays`, vectors of at
    most `PACK_MAX` elements are the consecutive segments of one (each starts where the one
    before ends, so where they lie is a sum of sizes and which outputs share a pack does not
    depend on sizes being equal). The kernel returns the packs first, then the `singles`
    (output positions) one array each. A whole program's small outputs are mostly biases and
    their optimizer states and scalars: packed, they save their boxing on every call. The
    kernels of a split program pack 0-d outputs only (`pack_arrays=False`).
    """
    groups: dict[tuple, list[int]] = {}
    for k, v in enumerate(outvars):
        if v.aval.shape == () or pack_arrays and v.aval.ndim == 1 and 0 < v.aval.size <= PACK_MAX:
            groups.setdefault((v.aval.dtype, v.aval.ndim), []).append(k)
    packs = [g for g in groups.values() if len(g) > 1]
    packed = {k for g in packs for k in g}
    return packs, [k for k in range(len(outvars)) if k not in packed]


def unpack_exprs(jaxpr: Jaxpr, pack_arrays: bool = True) -> tuple[int, list[str]]:
    """`(n, exprs)`: the kernel (its outputs packed as `output_layout(..., pack_arrays)` says)
    returns `n` arrays `r0, ..., r{n-1}`; output k is `exprs[k]`."""
    packs, singles = output_layout(jaxpr.outvars, pack_arrays)
    exprs = [""] * len(jaxpr.outvars)
    for p, group in enumerate(packs):
        start = 0
        for i, k in enumerate(group):
            n = jaxpr.outvars[k].aval.size
            exprs[k] = (
                f"r{p}[{start}:{start + n}]" if jaxpr.outvars[k].aval.ndim else f"r{p}[{i}, ...]"
            )
            start += n
    for j, k in enumerate(singles):
        exprs[k] = f"r{len(packs) + j}"
    return len(packs) + len(singles), exprs


def unpacker(n: int, exprs: list[str]) -> Callable[[tuple], list[np.ndarray]]:
    """A function from a kernel's result tuple (`n` arrays) to the list of its outputs
    (`exprs`, see `unpack_exprs`): generated straight-line Python."""
    namespace: dict = {}
    exec(f"def unpack(r):\n    {unpack_results(n)}return [{', '.join(exprs)}]\n", namespace)
    return namespace["unpack"]


def unpack_results(n: int) -> str:
    """The statement (and the indentation of the next) naming the kernel's `n` results `r0, ...`
    (none if it returns nothing)."""
    return "".join(f"r{i}, " for i in range(n)) + "= r\n    " if n else ""
