"""Batched matrix products of generated kernels: strided operands, batches shared between the
threads of numba's pool.

A batched `dot_general` (attention's `q @ k.T` and `p @ v` over batch and heads) is many small
products. The kernel passes each operand as the C-contiguous array it lives in, plus per batch
element the offset of its matrix there, a leading dimension and whether it is stored
transposed, so the heads of a `(batch, seq, heads, dim)` array are read in place (no transposing
copy; the kernel computes the offsets, `core/backends/numba/rules/linalg.py`), to the library
function `gemm_batched` (`core/backends/numba/library/bands.py`, compiled once per dtype and
called through its symbol). The products are one BLAS call each (`strided_block`); when there
are enough multiply-adds (`PARALLEL_FLOPS`), contiguous runs of batch elements (`runs`: about
`RUN_FLOPS` multiply-adds each, by the sizes alone) are taken dynamically by the caller's share
of numba's pool (`core/jit/schedule.py`), else they run in order on the calling thread. Each
product is one BLAS call however the runs fall, so the results do not depend on the threads.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic, register_jitable

from core.jit.array_struct import array_struct
from core.jit.gemm import emit_call

# Batched products of at least this many multiply-adds in all run on several threads: each of
# their products is one BLAS call, so a thread's share costs no more than in one call (the
# transformer's 64 attention products of 64x32x64 each: 8M).
PARALLEL_FLOPS = 1 << 21
# Multiply-adds per run of batch elements (~25 us): a thread that loses its core to another
# process holds up one small run, the others take the rest.
RUN_FLOPS = 1 << 20
MAX_RUNS = 16


@register_jitable
def runs(work, items):
    """Into how many runs `items` batch elements of `work` multiply-adds in all are cut: one
    (the calling thread, in order) below `PARALLEL_FLOPS`, else one per `RUN_FLOPS`, at most
    `MAX_RUNS` and the items."""
    if items < 2 or work < PARALLEL_FLOPS:
        return 1
    return max(2, min(MAX_RUNS, items, work // RUN_FLOPS))


@intrinsic
def strided_block(typingctx, x, xo, y, yo, out, b, p):
    """`out[b] = X_b @ Y_b`, one BLAS call: X_b is the (m, k) matrix of flat `x` that starts at
    element `xo[b]`, leading dimension p[3], stored column-major (as a `.T`) if p[5] != 0;
    Y_b (k, n) of `y` likewise (`yo`, p[4], p[6]); `out` holds the C-contiguous (m, n) results
    one after the other; p[:3] = (m, k, n), all > 0 (unchecked)."""

    def codegen(context, builder, signature, args):
        xa, xoa, ya, yoa, oa, pa = (
            array_struct(t)(context, builder, v)
            for t, v in zip((x, xo, y, yo, out, p), (*args[:5], args[6]))
        )
        bi = context.cast(builder, args[5], signature.args[5], types.intp)
        m, k, n, ldx, ldy, tx, ty = (
            builder.load(builder.gep(pa.data, [ir.Constant(ir.IntType(64), i)])) for i in range(7)
        )
        zero = ir.Constant(tx.type, 0)
        offs = [builder.load(builder.gep(o.data, [bi])) for o in (xoa, yoa)]
        emit_call(
            context,
            builder,
            out.dtype,
            (builder.gep(xa.data, [offs[0]]), ldx, builder.icmp_signed("!=", tx, zero)),
            (builder.gep(ya.data, [offs[1]]), ldy, builder.icmp_signed("!=", ty, zero)),
            (builder.gep(oa.data, [builder.mul(bi, builder.mul(m, n))]), n),
            (m, k, n),
        )
        return context.get_dummy_value()

    return types.none(x, xo, y, yo, out, b, p), codegen
