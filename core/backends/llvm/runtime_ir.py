"""The IR of `core/jit/runtime.py`'s scalar functions (`rt.idiv`, `rt.udiv`, `rt.irem`,
`rt.erf_inv_f64`, `rt.digamma`, `rt.threefry2x32`) with numba's integer typing (small integers
widen to 64 bits) and the caller's fast-math flags; a division whose divisor the source tests
for 0 divides by a safe divisor (x86 traps), numba's `//` of the int64 minimum by -1 gives 0
(`rt.idiv` tests for -1 and negates, as XLA wraps). `rt.digamma` keeps numba's branches and loop.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir

from core.backends.llvm.float_ir import (
    _F64,
    _I32T,
    _I64T,
    _f,
    _Fp,
    _i,
)
from core.backends.llvm.numpy_ir import _np_isfinite
from core.backends.llvm.vm_f32 import (
    _vm_erf_inv,
)


def _widen(b: ir.IRBuilder, x, dtype):
    if dtype.itemsize == 8:
        return x
    return (b.sext if dtype.kind == "i" else b.zext)(x, _I64T)


def _safe_divisor(b: ir.IRBuilder, x, y, signed: bool):
    """`y`, with 1 where numba's `//`/`%` would not divide (y == 0 is guarded by the caller,
    and numba gives 0 for MIN // -1, which traps on x86); and that second condition."""
    zero = b.icmp_signed("==", y, _i(y.type, 0))
    if not signed:
        return b.select(zero, _i(y.type, 1), y), None
    over = b.and_(
        b.icmp_signed("==", x, _i(x.type, -(1 << 63))), b.icmp_signed("==", y, _i(y.type, -1))
    )
    return b.select(b.or_(zero, over), _i(y.type, 1), y), over


def _floor_divmod(b: ir.IRBuilder, x, y):
    """numba's signed `x // y`, `x % y` (Python's floor semantics; 0, 0 for MIN // -1)."""
    ys, over = _safe_divisor(b, x, y, True)
    q, r = b.sdiv(x, ys), b.srem(x, ys)
    fix = b.and_(
        b.icmp_signed("!=", r, _i(r.type, 0)),
        b.icmp_signed("<", b.xor(ys, r), _i(r.type, 0)),
    )
    q = b.select(fix, b.sub(q, _i(q.type, 1)), q)
    r = b.select(fix, b.add(r, ys), r)
    zero = _i(q.type, 0)
    return b.select(over, zero, q), b.select(over, zero, r)


def _rt_idiv(e: _Fp, a, b_, dtypes):
    b = e.b
    x, y = _widen(b, a, dtypes[0]), _widen(b, b_, dtypes[1])
    q, _ = _floor_divmod(b, x, y)
    up = b.and_(b.icmp_signed("<", q, _i(_I64T, 0)), b.icmp_signed("!=", b.mul(q, y), x))
    q = b.select(up, b.add(q, _i(_I64T, 1)), q)
    q = b.select(b.icmp_signed("==", y, _i(_I64T, -1)), b.neg(x), q)  # MIN / -1 == MIN
    return b.select(b.icmp_signed("==", y, _i(_I64T, 0)), _i(_I64T, -1), q)


def _rt_udiv(e: _Fp, a, b_, dtypes):
    b = e.b
    x, y = _widen(b, a, dtypes[0]), _widen(b, b_, dtypes[1])
    q = b.udiv(x, _safe_divisor(b, x, y, False)[0])
    return b.select(b.icmp_unsigned("!=", y, _i(_I64T, 0)), q, _i(_I64T, -1))


def _rt_irem(e: _Fp, a, b_, dtypes):
    b = e.b
    x, y = _widen(b, a, dtypes[0]), _widen(b, b_, dtypes[1])
    if dtypes[0].kind == "u":
        r = b.urem(x, _safe_divisor(b, x, y, False)[0])
    else:
        _, r = _floor_divmod(b, x, y)
        zero = _i(_I64T, 0)
        fix = b.and_(
            b.icmp_signed("!=", r, zero),
            b.xor(b.icmp_signed("<", r, zero), b.icmp_signed("<", x, zero)),
        )
        r = b.select(fix, b.sub(r, y), r)
    return b.select(b.icmp_signed("==", y, _i(_I64T, 0)), x, r)


def _rt_erf_inv_f64(e: _Fp, x):
    b, d = e.b, x.type
    y = b.fpext(_vm_erf_inv(e, b.fptrunc(x, ir.FloatType())), d)
    ok = b.and_(_np_isfinite(e, y, _F64), e.cmp("<", e.intrinsic("fabs", x), _f(d, 1)))
    refined = y
    for _ in range(2):
        step = e.div(
            e.sub(e.libm("erf", refined), x),
            e.mul(_f(d, 1.1283791670955126), e.intrinsic("exp", e.mul(e.neg(refined), refined))),
        )
        refined = e.sub(refined, step)
    return b.select(ok, refined, y)


def _rt_digamma(e: _Fp, x):
    """`runtime.digamma`, with its control flow (the builder ends in a new block). The pole
    test compares `floor(x)` with x in x's type, as numba's `np.floor` does. The checks before
    `x = 1.0 - x` are in `x`'s own type (numba types each version of a variable), the rest in
    float64."""
    b, d = e.b, ir.DoubleType()
    fn = b.block.function
    check, main, loop, tail, end = (
        fn.append_basic_block(f"digamma.{s}") for s in ("check", "main", "loop", "tail", "end")
    )
    xd = b.fpext(x, d) if isinstance(x.type, ir.FloatType) else x
    b.cbranch(e.cmp("<=", x, _f(x.type, 0)), check, main)
    b.position_at_end(check)
    b.cbranch(e.cmp("==", e.intrinsic("floor", x), x), end, main)
    b.position_at_end(main)
    small = e.cmp("<", x, _f(x.type, 0.5))
    reflected = e.div(e.neg(_f(d, np.pi)), e.libm("tan", e.mul(_f(d, np.pi), xd)))
    acc = b.select(small, reflected, _f(d, 0))
    x0 = b.select(small, e.sub(_f(d, 1), xd), xd)
    b.cbranch(e.cmp("<", x0, _f(d, 6)), loop, tail)
    b.position_at_end(loop)
    xl, al = b.phi(d), b.phi(d)
    a1, x1 = e.sub(al, e.div(_f(d, 1), xl)), e.add(xl, _f(d, 1))
    b.cbranch(e.cmp("<", x1, _f(d, 6)), loop, tail)
    b.position_at_end(tail)
    xf, af = b.phi(d), b.phi(d)
    for phis in ((xl, al), (xf, af)):
        for phi, start, step in zip(phis, (x0, acc), (x1, a1)):
            phi.add_incoming(start, main)
            phi.add_incoming(step, loop)
    z = e.div(_f(d, 1), e.mul(xf, xf))
    series = e.mul(z, _f(d, 1 / 132))
    for c in (1 / 240, 1 / 252, 1 / 120, 1 / 12):
        series = e.mul(z, e.sub(_f(d, c), series))
    y = e.sub(e.sub(e.add(af, e.intrinsic("log", xf)), e.div(_f(d, 0.5), xf)), series)
    b.branch(end)
    b.position_at_end(end)
    result = b.phi(d)
    result.add_incoming(_f(d, np.nan), check)
    result.add_incoming(y, tail)
    return result


_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))


def _rt_threefry2x32(e: _Fp, k0, k1, x0, x1):
    """Threefry-2x32 on i32 values (`runtime.threefry2x32`): numba's uint arithmetic wraps
    modulo 2**32 after each `np.uint32`, so i32 arithmetic gives the same bits."""
    b = e.b
    ks = (k0, k1, b.xor(b.xor(k0, k1), _i(_I32T, 0x1BD11BDA)))
    x0, x1 = b.add(x0, ks[0]), b.add(x1, ks[1])
    for i in range(5):
        for r in _ROTATIONS[i % 2]:
            x0 = b.add(x0, x1)
            rot = b.or_(b.shl(x1, _i(_I32T, r)), b.lshr(x1, _i(_I32T, 32 - r)))
            x1 = b.xor(rot, x0)
        x0 = b.add(x0, ks[(i + 1) % 3])
        x1 = b.add(b.add(x1, ks[(i + 2) % 3]), _i(_I32T, i + 1))
    pair = ir.Constant(ir.ArrayType(_I32T, 2), ir.Undefined)
    return b.insert_value(b.insert_value(pair, x0, 0), x1, 1)
