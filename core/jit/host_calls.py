"""Python functions called from compiled kernels (`pure_callback`, `debug.print`).

A kernel reaches Python through a numba `objmode` block that calls `call(key, *args)`; the key
is a string in the generated source naming a function registered here when the source was
generated. Keys are `<qualified name>#<n>` (n counts functions of that name registered in this
process), so a new process running the same program generates the same source and loads the
machine code from the disk cache, while two live functions never share a key. Registered
functions stay alive as long as the process (a compiled kernel may call them at any time).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from core.avals import ShapedArray

# key -> (function of a list of arrays returning a list of arrays, input avals, output avals,
# whether it borrows its inputs)
_FUNCTIONS: dict[str, tuple[Callable, tuple, tuple, bool]] = {}
# (id of the owner object, input avals, output avals) -> key; the owner is kept alive in `_OWNERS`
_KEYS: dict[tuple, str] = {}
_OWNERS: list[object] = []
_COUNTS: dict[str, int] = {}


def register(
    owner: object,
    fun: Callable[[list[np.ndarray]], list[np.ndarray]],
    in_avals: Sequence[ShapedArray],
    out_avals: Sequence[ShapedArray],
    borrow: bool = False,
) -> str:
    """The key under which kernels call `fun` (the same key for the same owner and avals).

    Args:
      owner: the object the call stands for (the callback parameter of the equation); its
        qualified name names the key.
      fun: takes the list of input arrays and returns the list of output arrays.
      in_avals: the inputs' avals (the kernel passes 0-d inputs as scalars; `call` restores
        their dtypes).
      out_avals: the outputs' avals.
      borrow: `fun` reads its inputs only while it runs and never writes them (pmap's
        collectives): they are handed over without a copy.

    Returns:
      The key, a string safe to write into generated source.
    """
    ident = (id(owner), tuple(in_avals), tuple(out_avals))
    key = _KEYS.get(ident)
    if key is None:
        inner = getattr(owner, "fun", owner)
        name = getattr(inner, "__qualname__", type(inner).__qualname__)
        name = "".join(c if c.isalnum() or c in "._<>" else "_" for c in name)
        n = _COUNTS[name] = _COUNTS.get(name, 0) + 1
        key = _KEYS[ident] = f"{name}#{n}"
        _OWNERS.append(owner)
        _FUNCTIONS[key] = (fun, tuple(in_avals), tuple(out_avals), borrow)
    return key


def call(key: str, *args):
    """Runs the function registered as `key` on copies of `args` (kernels reuse their buffers,
    and a callback may keep what it is given) or, if it borrows them, on `args` themselves;
    returns its outputs as the kernel expects them: a tuple of C-contiguous arrays, numpy
    scalars for 0-d outputs."""
    fun, in_avals, out_avals, borrow = _FUNCTIONS[key]
    take = np.asarray if borrow else np.array
    arrays = [take(a, dtype=av.dtype) for a, av in zip(args, in_avals, strict=True)]
    outs = [
        np.ascontiguousarray(o, dtype=av.dtype) if av.shape else np.asarray(o, av.dtype)[()]
        for o, av in zip(fun(arrays), out_avals, strict=True)
    ]
    return tuple(outs)
