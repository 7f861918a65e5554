"""The matrix product of generated kernels, `lib.dot(a, b, out)`: one BLAS call inlined, or the
library function `gemm_bands` (bands on numba's pool, `bands.py`) called through its symbol.

It lives beside the library, not in `core/jit/gemm.py` with the BLAS emitters it uses, because
its threaded path calls a library function: the library sits above `core.jit` (its functions
are built from `core.jit`'s runtime), so `core.jit` never imports it. Kernels reach it as `lib.dot`
(the module a kernel with a product imports, `entry.requirements`).
"""

from __future__ import annotations

import functools

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.numpy_support import as_dtype

from core.backends.numba.library.entry import call_emitter, dispatcher, flat_view
from core.jit.array_struct import array_struct
from core.jit.gemm import check_operands, emit_gemm, is_fortran
from core.jit.schedule import PARALLEL_FLOPS


@intrinsic
def dot(typingctx, a, b, out):
    """`np.dot(a, b, out)` on 2-d matrices of one float or complex dtype.

    `a` and `b` are C- or F-contiguous, `out` is C-contiguous, and the shapes agree
    (unchecked). A product of `PARALLEL_FLOPS` multiply-adds or more runs as bands on the
    caller's share of numba's pool (the library function `gemm_bands`, compiled once per
    dtype and called through its symbol, `core/backends/numba/library/bands.py`), whatever
    the thread count (the bands are the same on one thread); the rest is one BLAS call
    inlined here. An intrinsic: a kernel compiles no function of its
    own per operand layout, and it calls no cached dispatcher by name (a kernel calling one
    holds that helper's lock, `disk_cache._compile_lock`). A module with
    a kernel calling it loads `gemm_bands` first (`library.requirements`).
    """
    check_operands(a, b, out)
    flat = types.Array(out.dtype, 1, "C")
    intp = types.intp
    params = types.UniTuple(types.int64, 5)
    code = np.dtype(as_dtype(out.dtype)).str[1:]
    call_bands = call_emitter(f"gemm_bands__{code}", flat, flat, flat, params)

    def codegen(context, builder, signature, args):
        x, y, o = (array_struct(t)(context, builder, v) for t, v in zip((a, b, out), args))
        m, k = cgutils.unpack_tuple(builder, x.shape)
        n = cgutils.unpack_tuple(builder, y.shape)[1]
        const = functools.partial(context.get_constant, intp)
        big = builder.icmp_signed(">=", builder.mul(builder.mul(m, n), k), const(PARALLEL_FLOPS))
        fortran_flags = (is_fortran(a.layout), is_fortran(b.layout))
        with builder.if_else(big) as (threaded, single):
            with threaded:
                views = [flat_view(context, builder, t, flat, v) for t, v in zip((a, b, out), args)]
                flags = [builder.zext(f, ir.IntType(64)) for f in fortran_flags]
                p = (m, k, n, *flags)
                call_bands(context, builder, None, [*views, context.make_tuple(builder, params, p)])
            with single:
                emit_gemm(
                    context,
                    builder,
                    out.dtype,
                    (x.data, y.data, o.data),
                    (m, k, n),
                    fortran_flags,
                    (const(0), m),
                    (const(0), n),
                )
        return context.get_dummy_value()

    return types.none(a, b, out), codegen


def bands(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    """`out[...] = a @ b` as `gemm_bands` computes it (bands by `band_plan`, on the calling
    thread's share of numba's pool), from Python (tests and benchmarks; kernels call `dot`).

    Args:
      a: an (m, k) C- or F-contiguous matrix of a BLAS dtype.
      b: a (k, n) C- or F-contiguous matrix of the same dtype.
      out: the (m, n) C-contiguous result, written in place.
    """
    fortran = [int(not x.flags.c_contiguous) for x in (a, b)]
    p = np.array([a.shape[0], a.shape[1], b.shape[1], *fortran], np.int64)
    flat = [x.ravel(order="K") for x in (a, b, out)]
    dispatcher(f"gemm_bands__{out.dtype.str[1:]}")(*flat, p)
