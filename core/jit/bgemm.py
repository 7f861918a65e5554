"""Batched matrix products of generated kernels (`rt.batched_dot`): strided operands, batches
shared between the threads of numba's pool.

A batched `dot_general` (attention's `q @ k.T` and `p @ v` over batch and heads) is many small
products. `batched_dot` takes each operand as the C-contiguous array it lives in, plus per
batch element the offset of its matrix there, a leading dimension and whether it is stored
transposed, so the heads of a `(batch, seq, heads, dim)` array are read in place (no transposing
copy; the kernel computes the offsets, `core/backends/numba/rules/linalg.py`). The products are
one BLAS call each; when there are enough multiply-adds (`PARALLEL_FLOPS`), contiguous runs of
batch elements (a few per thread) go to the caller's share of numba's pool (`_products`,
compiled once per dtype and cached), else they run in order on the calling thread.
"""

from __future__ import annotations

from llvmlite import ir
from numba import prange, types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic
from numba.np import linalg
from numba.np.arrayobj import make_array
from numba.np.ufunc import parallel

from core.jit.gemm import _BLAS_DTYPES, _OPTS, _flat_view, emit_call
from core.jit.numba_cache import cached_njit

# Batched products of at least this many multiply-adds in all run on several threads: each of
# their products is one BLAS call, so a thread's share costs no more than in one call (the
# transformer's 64 attention products of 64x32x64 each: 8M).
PARALLEL_FLOPS = 1 << 21
# Runs of batch elements per thread: a thread that loses its core to another process holds up
# only a small run, which TBB's idle threads do not wait for (they take the next runs).
RUNS_PER_THREAD = 4


def _check(x, y, out, offsets) -> None:
    arrays = all(
        isinstance(t, types.Array) and t.layout == "C" and t.dtype == out.dtype for t in (x, y)
    )
    offsets_ok = all(
        isinstance(t, types.Array) and t.ndim == 1 and t.dtype == types.intp for t in offsets
    )
    out_ok = isinstance(out, types.Array) and out.ndim == 3 and out.layout == "C"
    if not (arrays and offsets_ok and out_ok and out.dtype in _BLAS_DTYPES):
        raise TypingError(
            "rt.batched_dot takes C-contiguous float arrays, intp offsets and a 3-d out, got "
            f"{(x, y, out, *offsets)}"
        )
    linalg.ensure_blas()


@intrinsic
def _one(typingctx, x, xo, y, yo, out, b, lds, flags, k):
    """`out[b] = X_b @ Y_b`: one BLAS call; X_b starts at `x`'s element `xo[b]` with leading
    dimension lds[0], stored transposed if flags[0] (and Y_b likewise)."""

    def codegen(context, builder, signature, args):
        xa, xoa, ya, yoa, oa = (
            make_array(t)(context, builder, v) for t, v in zip(signature.args[:5], args[:5])
        )
        bi = context.cast(builder, args[5], signature.args[5], types.intp)
        ldx, ldy = cgutils.unpack_tuple(builder, args[6])
        tx, ty = (builder.trunc(f, ir.IntType(1)) for f in cgutils.unpack_tuple(builder, args[7]))
        kk = context.cast(builder, args[8], signature.args[8], types.intp)
        _, m, n = cgutils.unpack_tuple(builder, oa.shape)
        offs = [builder.load(builder.gep(o.data, [bi])) for o in (xoa, yoa)]
        emit_call(
            context,
            builder,
            out.dtype,
            (builder.gep(xa.data, [offs[0]]), ldx, tx),
            (builder.gep(ya.data, [offs[1]]), ldy, ty),
            (builder.gep(oa.data, [builder.mul(bi, builder.mul(m, n))]), n),
            (m, kk, n),
        )
        return context.get_dummy_value()

    return types.none(x, xo, y, yo, out, b, lds, flags, k), codegen


@cached_njit(parallel=True, **_OPTS)
def _products(x, xo, y, yo, out, lds, flags, k):
    """Every product of `batched_dot` (flat x and y): in contiguous runs of batch elements on
    the caller's share of numba's pool when there are enough multiply-adds, else in order."""
    nb, m, n = out.shape
    threads = parallel._iget_num_threads()
    if threads < 2 or nb < 2 or nb * m * n * k < PARALLEL_FLOPS:
        for b in range(nb):
            _one(x, xo, y, yo, out, b, lds, flags, k)
        return
    parts = min(RUNS_PER_THREAD * threads, nb)
    step = -(-nb // parts)
    for p in prange(parts):
        for b in range(p * step, min(nb, (p + 1) * step)):
            _one(x, xo, y, yo, out, b, lds, flags, k)


@intrinsic
def batched_dot(typingctx, x, xo, ldx, tx, y, yo, ldy, ty, k, out):
    """`out[b] = X_b @ Y_b` for every b < out.shape[0], X_b the (m, k) matrix of `x` that starts
    at element `xo[b]` of its buffer with leading dimension `ldx`, stored column-major (as a
    `.T`) if `tx` (Y_b (k, n) of `y` likewise); `out` is a C-contiguous (batch, m, n) array.

    `x` and `y` are C-contiguous arrays of any rank (their buffers are what counts), `xo`/`yo`
    intp arrays of batch offsets; nothing is checked against their sizes. m, n and k > 0 (the
    lowering handles empty products). An intrinsic, like `rt.dot`: kernels link the one cached
    `_products` of the dtype instead of calling a dispatcher by name.
    """
    _check(x, y, out, (xo, yo))
    flat = types.Array(out.dtype, 1, "C")
    intp = types.intp
    lds_t, flags_t = types.UniTuple(intp, 2), types.UniTuple(types.int8, 2)
    products = typingctx.resolve_value_type(_products)
    sig = typingctx.resolve_function_type(
        products, (flat, xo, flat, yo, out, lds_t, flags_t, intp), {}
    )

    def codegen(context, builder, signature, args):
        def arg(i, t=intp):
            return context.cast(builder, args[i], signature.args[i], t)

        xa, ya = (make_array(t)(context, builder, args[i]) for t, i in ((x, 0), (y, 4)))
        call = [
            _flat_view(context, builder, flat, xa, xa.nitems),
            args[1],
            _flat_view(context, builder, flat, ya, ya.nitems),
            args[5],
            args[9],
            context.make_tuple(builder, lds_t, (arg(2), arg(6))),
            context.make_tuple(builder, flags_t, (arg(3, types.int8), arg(7, types.int8))),
            arg(8),
        ]
        context.get_function(products, sig)(builder, call)
        return context.get_dummy_value()

    return types.none(x, xo, ldx, tx, y, yo, ldy, ty, k, out), codegen
