"""How compiled code cuts parallel work into chunks and hands the chunks to threads.

numba's `prange` splits its iterations into one equal share per thread by default. Next to a
busy process that is as slow as one thread: the thread that shares its core with the other
process gets half a core, and the loop waits for its share (with one competing process the
transformer's and ResNet-10's train steps took 1.7x their idle time, more than on one thread).
So every parallel loop of numbax's compiled code (the products' bands, `products.py`; batched
products' runs, `bgemm.py`; a convolution's parts, `library/conv.py`; large fused loops and
chunked reductions, `loops.py`) is cut into more chunks than threads, and the threads take
them dynamically: `dynamic(n)` sets the calling thread's numba parallel chunk size before the
loop (numba then schedules `n` iterations per entry, and its TBB layer hands the entries to
whichever thread is free, idle threads stealing from busy ones), and restores it after. A
thread that loses its core then holds back one chunk, the others take the rest.

The chunks' boundaries depend on the sizes only, never on the thread count (`parts`), so a
chunk computes the same elements the same way on any number of threads: results do not depend
on the thread count (a kernel gradient's partial sums are one per part, added in part order).
More chunks are not free: each BLAS call packs its shared operand anew, each part of a
convolution packs the weights; the sizes below keep that within a few percent of one call.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, register_jitable
from numba.np.ufunc import parallel

from core.backends.llvm.parallel import desk_helpers

# Parallel work of at least this many multiply-adds (~80 us on one core here) is cut into parts
# (and runs on several threads when the caller has them); below it, one call on the caller's
# thread: handing a part to another thread costs more than it saves whenever that thread has to
# wait for a core (the LSTM's 16x256x1024 step products stay one call).
PARALLEL_FLOPS = 1 << 23
# A part has at least this many multiply-adds (~350 us here), two parts at least, eight at most.
PART_FLOPS = 1 << 24
MAX_PARTS = 8


@register_jitable
def parts(work, items, least=1):
    """Into how many parts `items` independent pieces of `work` multiply-adds in all are cut:
    one below `PARALLEL_FLOPS`, else one per `PART_FLOPS` multiply-adds, at least two, at most
    `MAX_PARTS` and the pieces, and at most `items // least` (parts of `least` pieces at
    least). The sizes decide, not the thread count."""
    if work < PARALLEL_FLOPS:
        return 1
    most = min(MAX_PARTS, items // max(least, 1))
    return max(1, min(most, max(2, work // PART_FLOPS)))


@register_jitable
def threads():
    """The calling thread's share of numba's pool. Library code runs its parts in order, with
    no parallel region, on one thread: starting one costs ~10 us of wall time here even then."""
    return parallel._iget_num_threads()


@intrinsic
def helpers(typingctx):
    """How many pmap devices wait at a collective's barrier, ready to run pieces of the calling
    thread's parallel loops (`core/backends/llvm/pool.py`'s desk; 0 without one): a loop on
    one thread goes parallel while one does."""

    def codegen(context, builder, signature, args):
        return desk_helpers(builder)

    return types.intp(), codegen


@intrinsic
def dynamic(typingctx, n):
    """Sets the calling thread's numba parallel chunk size to `n` iterations (0: numba's one
    equal share per thread) for the `prange` loops it runs next; returns the previous one.

    Declared like numba's own parfor lowering declares the two C functions, so that the module
    of a kernel with both agrees on their types (`set` returns nothing there).
    """
    if not isinstance(n, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        size_t = cgutils.intp_t
        get = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(size_t, []), "get_parallel_chunksize"
        )
        put = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [size_t]), "set_parallel_chunksize"
        )
        old = builder.call(get, [])
        builder.call(put, [context.cast(builder, args[0], signature.args[0], types.intp)])
        return old

    return types.intp(n), codegen
