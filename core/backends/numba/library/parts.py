"""`run_parts`: the one library function with a `prange`, running the parts of any other.

numba compiles a function with a `prange` through its parallel passes: the loop body becomes
a separately compiled gufunc plus scheduling code, 1-3 s of compile for a function of a few
lines, and the library had six such functions per dtype (the convolutions' three entries,
`gemm_bands`, `gemm_batched`, `skinny_dot`). Instead, a function that shares work between
threads computes its parts, stores its arguments on its stack and calls `run_parts` with the
address of a part function and of the arguments (`entry.in_parts`); `run_parts` calls that
function for each part, the parts taken dynamically by the calling thread's share of numba's
pool (`core/jit/schedule.py`), or in order on the calling thread when that share is one
thread or there is one part (a parallel region costs ~10 us of wall time even then). It takes
only integers (addresses and a count), so it compiles once, whatever the dtypes, and every
other library function compiles serial. numbax's routine of it (`core/backends/llvm/routines.py`)
runs the `prange` through numba's scheduler and threading layer without the parallel passes
(`core/backends/llvm/parallel.py`): the same pieces on the same threads.
"""

from __future__ import annotations

from llvmlite import ir
from numba import prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from core.backends.numba.library.entry import register
from core.jit import runtime as rt


@intrinsic
def _call_part(typingctx, fn, args, t):
    """Calls the function at address `fn`, a `void(i8* args, i64 t)`, with `args` and `t`."""

    def codegen(context, builder, signature, values):
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(ir.VoidType(), [cgutils.voidptr_t, i64])
        target = builder.inttoptr(values[0], fnty.as_pointer())
        builder.call(target, [builder.inttoptr(values[1], cgutils.voidptr_t), values[2]])
        return context.get_dummy_value()

    return types.none(types.int64, types.int64, types.int64), codegen


@register("i i i", parallel=True)
def run_parts(fn, args, n):
    """Calls `fn(args, t)` for t < n (`fn` and `args` addresses, see the module docstring),
    the parts taken dynamically by the calling thread's share of numba's pool (on one thread,
    also by pmap devices waiting at a collective: `rt.helpers()`)."""
    if n == 1 or rt.threads() == 1 and rt.helpers() == 0:
        for t in range(n):
            _call_part(fn, args, t)
        return
    old = rt.dynamic(1)
    for t in prange(n):
        _call_part(fn, args, t)
    rt.dynamic(old)
