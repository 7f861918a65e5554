"""Complex numbers in lean IR: a complex64/complex128 value is numba's `{float, float}` (or
`{double, double}`) pair, real part first, and each operation here is written on the parts.

The kernel language spells complex products and quotients `rt.cmul(a, b)` and `rt.cdiv(a, b)`
(`core/backends/numba/rules/elementwise.py`), which `core/jit/runtime.py` compiles with numba;
`multiply` and `divide` emit the same computation inline (same operations, same fused
multiply-adds), so a lean nest rounds as numba's kernel does and as XLA does: a product is two
FMAs, a quotient Smith's algorithm with C99's infinities and zeros where it gives NaN + NaN i
(`core/prims/elementwise._complex_div`, the eager division). Both branches of Smith's algorithm
and the special cases are computed and selected (no control flow: an element's result does not
depend on which it takes). `settle.py` then settles the few sums of products left (exact ones:
a unit times a finite number).
"""

from __future__ import annotations

from llvmlite import ir

from core.backends.llvm.float_ir import _f, _Fp


def parts(builder: ir.IRBuilder, value) -> tuple:
    """The real and imaginary parts of complex `value`."""
    return builder.extract_value(value, 0), builder.extract_value(value, 1)


def pack(builder: ir.IRBuilder, real, imag):
    """The complex value of parts `real` and `imag` (floats of one type)."""
    pair = ir.LiteralStructType([real.type, real.type])
    return builder.insert_value(builder.insert_value(ir.Constant(pair, ir.Undefined), real, 0),
                                imag, 1)  # fmt: skip


def multiply(builder: ir.IRBuilder, a, b):
    """`a * b` as `rt.cmul`: real `fma(ar, br, -(ai bi))`, imaginary `fma(ai, br, ar bi)`."""
    e = _Fp(builder, ())
    (ar, ai), (br, bi) = parts(builder, a), parts(builder, b)
    real = e.intrinsic("fma", ar, br, e.neg(e.mul(ai, bi)))
    imag = e.intrinsic("fma", ai, br, e.mul(ar, bi))
    return pack(builder, real, imag)


def _isnan(e: _Fp, x):
    return e.b.fcmp_unordered("uno", x, x)


def _isinf(e: _Fp, x):
    return e.b.fcmp_ordered("==", e.intrinsic("fabs", x), _f(x.type, float("inf")))


def _isfinite(e: _Fp, x):
    return e.b.fcmp_ordered("<", e.intrinsic("fabs", x), _f(x.type, float("inf")))


def _unit(e: _Fp, x):
    """+-1 (the sign of `x`) where `x` is infinite, +-0 elsewhere."""
    one, zero = _f(x.type, 1.0), _f(x.type, 0.0)
    return e.intrinsic("copysign", e.b.select(_isinf(e, x), one, zero), x)


def divide(builder: ir.IRBuilder, a, b):
    """`a / b` as `rt.cdiv` (see the module docstring)."""
    e = _Fp(builder, ())
    b_ = builder
    (ar, ai), (br, bi) = parts(builder, a), parts(builder, b)
    by_imag = e.cmp("<", e.intrinsic("fabs", br), e.intrinsic("fabs", bi))
    p, q = b_.select(by_imag, br, bi), b_.select(by_imag, bi, br)
    t = e.div(p, q)
    d = e.intrinsic("fma", p, t, q)
    minus_ar = e.neg(ar)
    real = e.div(e.intrinsic("fma", b_.select(by_imag, ar, ai), t, b_.select(by_imag, ai, ar)), d)
    imag = e.div(
        e.intrinsic("fma", b_.select(by_imag, ai, minus_ar), t, b_.select(by_imag, minus_ar, ai)),
        d,
    )
    inf, zero = _f(ar.type, float("inf")), _f(ar.type, 0.0)
    # a zero divisor: inf times the dividend (with the divisor's sign); not for NaN + NaN i
    both_zero = b_.and_(e.cmp("==", br, zero), e.cmp("==", bi, zero))
    zero_div = b_.and_(both_zero, b_.not_(b_.and_(_isnan(e, ar), _isnan(e, ai))))
    s = e.intrinsic("copysign", inf, br)
    zr, zi = e.mul(s, ar), e.mul(s, ai)
    # an infinite dividend over a finite divisor: infinite
    a_inf = b_.or_(_isinf(e, ar), _isinf(e, ai))
    b_finite = b_.and_(_isfinite(e, br), _isfinite(e, bi))
    inf_num = b_.and_(a_inf, b_finite)
    sr, si = _unit(e, ar), _unit(e, ai)
    nr = e.mul(inf, e.add(e.mul(sr, br), e.mul(si, bi)))
    ni = e.mul(inf, e.sub(e.mul(si, br), e.mul(sr, bi)))
    # a finite dividend over an infinite divisor: zero
    b_inf = b_.or_(_isinf(e, br), _isinf(e, bi))
    a_finite = b_.and_(_isfinite(e, ar), _isfinite(e, ai))
    inf_den = b_.and_(b_inf, a_finite)
    tr, ti = _unit(e, br), _unit(e, bi)
    dr = e.mul(zero, e.add(e.mul(ar, tr), e.mul(ai, ti)))
    di = e.mul(zero, e.sub(e.mul(ai, tr), e.mul(ar, ti)))
    special_r = b_.select(zero_div, zr, b_.select(inf_num, nr, b_.select(inf_den, dr, real)))
    special_i = b_.select(zero_div, zi, b_.select(inf_num, ni, b_.select(inf_den, di, imag)))
    nan = b_.and_(_isnan(e, real), _isnan(e, imag))
    return pack(builder, b_.select(nan, special_r, real), b_.select(nan, special_i, imag))
