"""Matrix products of generated kernels (`rt.dot`): one BLAS call, or blocks on numba's pool.

OpenBLAS runs single-threaded under numbax (`core/jit/threads.py`): its own thread pool
splits every product statically between threads that busy-wait for work and for each other,
so a product whose second thread lost its core to another process waits a scheduler time
slice (measured on this 2-core machine with one competing process: a 1024x512x128 sgemm 1.3 ms
on one thread, 10 ms on two OpenBLAS threads). Instead `dot` cuts a large product into blocks
of rows (or of columns, when the output is wider than tall) and runs one single-threaded BLAS
call per block under `prange`, on numba's threading layer (TBB, whose idle workers sleep and
steal each other's blocks): one pool for fused loops and products, sized by the thread policy,
never more threads than the caller's share (`numba.get_num_threads()`, per device thread).
Products below `PARALLEL_FLOPS` (8M) multiply-adds run as one call on the caller's thread: for
them the hand-off costs more than the second core gives.

Library code that parallelizes at a coarser grain (a convolution's batch chunks, each filled
into the worker's own buffer and multiplied there) asks `workers(work, chunks)` how many
threads to run under `prange` and multiplies with `gemm_block` (one BLAS call, no nested
blocks); `rt` re-exports the three.
"""

from __future__ import annotations

from llvmlite import ir
from numba import prange, types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic, register_jitable
from numba.np import linalg
from numba.np.arrayobj import make_array
from numba.np.ufunc import parallel

from core.jit import fork_safety
from core.jit.numba_cache import cached_njit

# The pool starts now, not at the first call: cached code that asks for the caller's thread count
# links against the symbols that starting it registers.
fork_safety.configure()
parallel._launch_threads()
_OPTS = dict(error_model="numpy", cache=True, nogil=True)
_BLAS_DTYPES = (types.float32, types.float64, types.complex64, types.complex128)
_I8 = ir.IntType(8)
# Products of at least this many multiply-adds (~80 us on one core here) run as blocks on several
# threads, each block at least BAND rows (or columns) wide, so that BLAS's micro-kernels stay
# efficient. Below it, handing a block to another thread costs more than it saves whenever that
# thread has to wait for a core (the LSTM's 16x256x1024 step products stay one call).
PARALLEL_FLOPS = 1 << 23
BAND = 32


def _gemm_fn(builder: ir.IRBuilder) -> ir.Function:
    """numba's `numba_xxgemm` helper: a column-major `?gemm` of the BLAS scipy loads."""
    void_p, intp = cgutils.voidptr_t, cgutils.intp_t
    fnty = ir.FunctionType(
        ir.IntType(32),
        [_I8, _I8, _I8, intp, intp, intp, void_p, void_p, intp, void_p, intp, void_p]
        + [void_p, intp],
    )
    return cgutils.get_or_insert_function(builder.module, fnty, "numba_xxgemm")


@intrinsic
def gemm_block(typingctx, a, b, out, r0, r1, c0, c1):
    """`out[r0:r1, c0:c1] = a[r0:r1] @ b[:, c0:c1]`: one BLAS gemm call on the block, in place.

    `a` (m, k) and `b` (k, n) are C- or F-contiguous (a `.T` of a C-contiguous array is F),
    `out` (m, n) is C-contiguous, the shapes agree and the bounds are in range (unchecked).
    An empty block does nothing; an empty contraction (k == 0) writes zeros.
    """
    arrays = (a, b, out)
    if not (
        all(isinstance(t, types.Array) and t.ndim == 2 and t.dtype == out.dtype for t in arrays)
        and out.dtype in _BLAS_DTYPES
        and a.layout in "CF"
        and b.layout in "CF"
        and out.layout == "C"
    ):
        raise TypingError(f"rt.dot takes 2-d C/F-contiguous float matrices, got {arrays}")
    linalg.ensure_blas()

    def codegen(context, builder, signature, args):
        x, y, o = (make_array(t)(context, builder, v) for t, v in zip(arrays, args))
        lo_r, hi_r, lo_c, hi_c = args[3:]
        m, k = cgutils.unpack_tuple(builder, x.shape)
        n = cgutils.unpack_tuple(builder, y.shape)[1]
        rows, cols = builder.sub(hi_r, lo_r), builder.sub(hi_c, lo_c)
        zero = context.get_constant(types.intp, 0)
        c_ptr = builder.gep(o.data, [builder.add(builder.mul(lo_r, n), lo_c)])
        empty = builder.or_(
            builder.icmp_signed("<=", rows, zero), builder.icmp_signed("<=", cols, zero)
        )
        with builder.if_else(builder.icmp_signed("==", k, zero)) as (no_k, some_k):
            with no_k, cgutils.for_range(builder, builder.select(empty, zero, rows)) as loop:
                row = builder.gep(c_ptr, [builder.mul(loop.index, n)])
                cgutils.memset(builder, row, builder.mul(cols, o.itemsize), 0)
            with some_k, builder.if_then(builder.not_(empty)):
                # Row-major out = a @ b is column-major out.T = b.T @ a.T: BLAS's first
                # operand is b, whose C layout is a column-major b.T (leading dimension n).
                if b.layout == "C":
                    tb, b_ptr, ldb = "n", builder.gep(y.data, [lo_c]), n
                else:
                    tb, b_ptr, ldb = "t", builder.gep(y.data, [builder.mul(lo_c, k)]), k
                if a.layout == "C":
                    ta, a_ptr, lda = "n", builder.gep(x.data, [builder.mul(lo_r, k)]), k
                else:
                    ta, a_ptr, lda = "t", builder.gep(x.data, [lo_r]), m
                dtype = out.dtype
                one, nil = (linalg.make_constant_slot(context, builder, dtype, v) for v in (1, 0))
                void_p = cgutils.voidptr_t
                operands = [ir.Constant(_I8, ord(c)) for c in (linalg.get_blas_kind(dtype), tb, ta)]
                operands += [cols, rows, k, builder.bitcast(one, void_p)]
                operands += [builder.bitcast(b_ptr, void_p), ldb, builder.bitcast(a_ptr, void_p)]
                operands += [lda, builder.bitcast(nil, void_p), builder.bitcast(c_ptr, void_p), n]
                res = builder.call(_gemm_fn(builder), operands)
                linalg.check_blas_return(context, builder, res)
        return context.get_dummy_value()

    return types.none(a, b, out, r0, r1, c0, c1), codegen


@cached_njit(parallel=True, **_OPTS)
def _blocks(a, b, out, parts, by_rows):
    """`out = a @ b` as `parts` gemm calls on numba's pool, on bands of rows or columns."""
    m, n = out.shape
    size = m if by_rows else n
    step = -(-size // parts)
    for p in prange(parts):
        lo = p * step
        hi = min(size, lo + step)
        if by_rows:
            gemm_block(a, b, out, lo, hi, 0, n)
        else:
            gemm_block(a, b, out, 0, m, lo, hi)


@register_jitable
def split(work, items, threads):
    """How many of `threads` threads should share `items` independent pieces of `work`
    multiply-adds in all: one below `PARALLEL_FLOPS`, never more than the pieces."""
    if threads <= 1 or work < PARALLEL_FLOPS:
        return 1
    return max(1, min(threads, items))


@register_jitable
def workers(work, items):
    """`split` over the calling thread's share of numba's pool (`rt.workers`): how many threads
    library code that runs independent chunks under `prange` (a convolution's batch chunks,
    each filling its own buffer and multiplying it with `gemm_block`) should use."""
    return split(work, items, parallel._iget_num_threads())


@register_jitable
def dot(a, b, out):
    """`np.dot(a, b, out)` on 2-d matrices of one float or complex dtype.

    `a` and `b` are C- or F-contiguous, `out` is C-contiguous, and the shapes agree
    (unchecked). A large product runs as blocks on the caller's share of numba's pool.
    Compiled into each kernel (not a cached dispatcher of its own: a kernel calling one takes
    the cache directory's lock exclusively, `disk_cache._compile_lock`).
    """
    m, k = a.shape
    n = b.shape[1]
    p = workers(m * n * k, max(m, n) // BAND)
    if p > 1:
        _blocks(a, b, out, p, m >= n)
    else:
        gemm_block(a, b, out, 0, m, 0, n)
