"""The LLVM operations `core.jit.vecmath`'s kernels are written with, as numba intrinsics.

`_bits`/`_float` are bitcasts between a float and its integer bits; `fma` is
`llvm.fma` (`a * b + c` rounded once, as XLA's code fuses products into adds); `_flagged`
makes a float instruction with fast-math flags of its own (numba's fast-math pass leaves such
an instruction as it is). `radd`/`rmul` (reassociable add/multiply, `REDUCE_FLAGS`) let LLVM
vectorize a reduction loop without making the whole kernel `fastmath`; `maximum`/`minimum`
are LLVM's NaN-propagating float max/min (numpy's semantics), which vectorize too. The rsqrt
kernels' hardware estimate (`_rsqrt_estimate`) and Newton step are here too, shared by both
precisions. `F`, `I`, `_OPTS` and `_INF` are the float32 kernels' types, compile options
and infinity.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from core.jit.numba_cache import cached_njit
from core.jit.rsqrt_estimate import emit_rsqrt_estimate

F = np.float32
I = np.int32
_OPTS = dict(error_model="numpy", fastmath={"contract"}, cache=True)
_INF = F(np.inf)


def _bitcast(src, dst):
    @intrinsic
    def cast(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], context.get_value_type(dst))

        return dst(src), codegen

    return cast


_bits = _bitcast(types.float32, types.int32)
_float = _bitcast(types.int32, types.float32)


def _flagged(op, flags):
    """The float instruction `op` (`fadd`, `fmul`, ...) of two operands with these fast-math
    flags (numba's fast-math pass leaves an instruction with flags as it is)."""

    @intrinsic
    def flagged_op(typingctx, a, b):
        def codegen(context, builder, signature, args):
            return getattr(builder, op)(args[0], args[1], flags=flags)

        return a(a, b), codegen

    return flagged_op


# `contract` too: a sum of products `radd(s, x * y)` is then one fused multiply-add per step
# (the kernels' products carry `contract`; with `reassoc` alone LLVM kept a multiply and an add).
REDUCE_FLAGS = ("reassoc", "contract")
radd = _flagged("fadd", REDUCE_FLAGS)
radd.__doc__ = "`a + b` marked reassociable, so a sum loop vectorizes (float operands only)."
rmul = _flagged("fmul", REDUCE_FLAGS)


def _nan_propagating(name):
    @intrinsic
    def extremum(typingctx, a, b):
        def codegen(context, builder, signature, args):
            ty = args[0].type
            fnty = ir.FunctionType(ty, [ty, ty])
            suffix = "f32" if ty == ir.FloatType() else "f64"
            fn = cgutils.get_or_insert_function(builder.module, fnty, f"llvm.{name}.{suffix}")
            return builder.call(fn, args)

        return a(a, b), codegen

    return extremum


# np.maximum/np.minimum semantics (NaN wins) as one instruction; vectorizes in loops and reductions
maximum = _nan_propagating("maximum")
minimum = _nan_propagating("minimum")


@intrinsic
def fma(typingctx, a, b, c):
    """`a * b + c` rounded once (LLVM's `llvm.fma`), as XLA's code fuses products into adds."""

    def codegen(context, builder, signature, args):
        ty = args[0].type
        suffix = "f32" if ty == ir.FloatType() else "f64"
        fnty = ir.FunctionType(ty, [ty, ty, ty])
        fn = cgutils.get_or_insert_function(builder.module, fnty, f"llvm.fma.{suffix}")
        return builder.call(fn, args)

    return a(a, b, c), codegen


@intrinsic
def _rsqrt_estimate(typingctx, x):
    """`emit_rsqrt_estimate` of a float32 or float64 (the second needs AVX-512)."""

    def codegen(context, builder, signature, args):
        return emit_rsqrt_estimate(builder, args[0])

    return x(x), codegen


@cached_njit(inline="always", **_OPTS)
def _newton_rsqrt(x, y, minus_half, one):
    """One Newton step for 1 / sqrt(x) from `y`, in XLA's order (FMA-contracted); the
    constants come in x's type."""
    half = y * minus_half
    h = (x * y) * y - one
    return half * h + y
