"""Numba lowering of the elementwise primitives (`core/prims/elementwise.py`).

Each elementwise primitive is one scalar expression of the generated code (a `Scalar` rule): float32
and float64 transcendentals call `core.jit.vecmath` (`vm.`; the table is `transcendentals.py`, whose
eager impls run the same kernels) so fused loops vectorize and give XLA's bits, other dtypes and
functions numpy's libm functions; integer division, remainder and bit counting call
`core.jit.runtime` (`rt.`). The code generator casts every result to the output dtype, so rules
need not undo numba's integer widening.
"""

from __future__ import annotations

import numpy as np

from core.backends.numba.context import ScalarCtx
from core.backends.numba.registry import Scalar, register_lowering
from core.backends.numba.rules.complex_math import RULES as COMPLEX_RULES
from core.backends.numba.transcendentals import vm_kernel
from core.prims.elementwise import (
    abs_p,
    acos_p,
    acosh_p,
    add_p,
    and_p,
    asin_p,
    asinh_p,
    atan2_p,
    atan_p,
    atanh_p,
    cbrt_p,
    ceil_p,
    clamp_p,
    complex_p,
    cos_p,
    cosh_p,
    digamma_p,
    div_p,
    eq_p,
    erf_inv_p,
    erf_p,
    exp2_p,
    exp_p,
    expm1_p,
    floor_p,
    ge_p,
    gt_p,
    imag_p,
    integer_pow_p,
    is_finite_p,
    le_p,
    lgamma_p,
    log1p_p,
    log_p,
    logistic_p,
    lt_p,
    max_p,
    min_p,
    mul_p,
    ne_p,
    neg_p,
    not_p,
    or_p,
    population_count_p,
    pow_p,
    real_p,
    rem_p,
    round_p,
    rsqrt_p,
    select_n_p,
    shift_left_p,
    shift_right_arithmetic_p,
    shift_right_logical_p,
    sign_p,
    sin_p,
    sinh_p,
    sqrt_p,
    square_p,
    stop_gradient_p,
    sub_p,
    tan_p,
    tanh_p,
    xor_p,
)

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)


def _is_float(ctx: ScalarCtx) -> bool:
    return ctx.dtype.kind in "fc"


def _infix(op: str):
    return lambda ctx, a, b: f"({a} {op} {b})"


def _np(name: str):
    return lambda ctx, x: f"np.{name}({x})"


def _transcendental(prim, otherwise):
    """The `vm.` kernel where `transcendentals.vm_kernel` has one for the dtype (eager impls
    run the same), XLA's expansion of a complex operand where `complex_math` has one, else the
    expression `otherwise(ctx, *operands)`."""

    def rule(ctx, *xs):
        if ctx.dtype.kind == "c" and prim in COMPLEX_RULES:
            return COMPLEX_RULES[prim](ctx, *xs)
        kernel = vm_kernel(prim, ctx.dtype)
        return f"vm.{kernel}({', '.join(xs)})" if kernel is not None else otherwise(ctx, *xs)

    return Scalar(rule)


def _ordered(ctx, a, op: str, b) -> str:
    """`a op b` for a comparison `op`: complex numbers compare lexicographically (real parts,
    then imaginary parts), as XLA orders them; numba has no complex `<`."""
    if ctx.dtype.kind != "c":
        return f"({a} {op} {b})"
    ar, br = ctx.tmp(f"{a}.real"), ctx.tmp(f"{b}.real")
    return f"(({ar} {op[0]} {br}) | (({ar} == {br}) & ({a}.imag {op} {b}.imag)))"


def _compare(op: str):
    return lambda ctx, a, b: _ordered(ctx, a, op, b)


def _extremum(vm_name: str, op: str):
    def rule(ctx, a, b):
        if ctx.dtype.kind == "f":
            return f"vm.{vm_name}({a}, {b})"
        if ctx.dtype == np.bool_:
            return f"({a} {'|' if op == '>' else '&'} {b})"
        if ctx.dtype.kind == "c":
            return f"({a} if {_ordered(ctx, a, op, b)} else {b})"
        return f"({a} if {a} {op} {b} else {b})"

    return rule


def _bits(ctx) -> int:
    return ctx.dtype.itemsize * 8


register_lowering(add_p, Scalar(_infix("+")))
register_lowering(sub_p, Scalar(_infix("-")))


def _complex(ctx, expr: str) -> str:
    """`expr`, a Python `complex` (complex128 in numba), as a complex64 where the result is one:
    a wider value would widen the fused operations that read it (and mix float and double)."""
    return f"np.complex64({expr})" if ctx.dtype == np.complex64 else expr


def _mul_lowering(ctx, a, b, out_dtype=None):
    # an `out_dtype` became conversions of the operands (`core.jit.canonical.explicit_mul_dtype`)
    if ctx.dtype == np.bool_:
        return f"({a} & {b})"
    if ctx.dtype.kind == "c":  # XLA's fused multiply-adds, not LLVM's choice of them
        return _complex(ctx, f"rt.cmul({a}, {b})")
    return f"({a} * {b})"


register_lowering(mul_p, Scalar(_mul_lowering))


def _div_lowering(ctx, a, b):
    if ctx.dtype.kind == "c":  # numba's complex division raises ZeroDivisionError
        return _complex(ctx, f"rt.cdiv({a}, {b})")
    if _is_float(ctx):
        return f"({a} / {b})"
    return f"rt.{'idiv' if ctx.dtype.kind == 'i' else 'udiv'}({a}, {b})"


register_lowering(div_p, Scalar(_div_lowering))


def _rem_lowering(ctx, a, b):
    return f"np.fmod({a}, {b})" if _is_float(ctx) else f"rt.irem({a}, {b})"


register_lowering(rem_p, Scalar(_rem_lowering))


def _pow_lowering(ctx, a, b):
    if ctx.dtype == _F32:  # in double precision, as XLA's CPU pow and the numpy impl
        return f"np.float32(np.float64({a}) ** np.float64({b}))"
    return f"({a} ** {b})"


register_lowering(pow_p, _transcendental(pow_p, _pow_lowering))  # float64: XLA's flushing
register_lowering(max_p, Scalar(_extremum("maximum", ">")))
register_lowering(min_p, Scalar(_extremum("minimum", "<")))
register_lowering(
    clamp_p,
    Scalar(
        lambda ctx, lo, x, hi: _extremum("minimum", "<")(
            ctx, ctx.tmp(_extremum("maximum", ">")(ctx, x, lo)), hi
        )
    ),
)
register_lowering(neg_p, Scalar(lambda ctx, x: f"(-{x})"))


def _sign_lowering(ctx, x):
    if ctx.dtype.kind == "c":  # x / |x|, 0 at 0
        m = ctx.tmp(f"{ctx.tmp(_abs_lowering(ctx, x))}.real")
        return _complex(ctx, f"rt.where({m} == 0, {x}, complex({x}.real / {m}, {x}.imag / {m}))")
    one, zero = ctx.const(1), ctx.const(0)
    if ctx.dtype.kind == "u":
        return f"({one} if {x} > {zero} else {zero})"
    return f"({one} if {x} > {zero} else ({ctx.const(-1)} if {x} < {zero} else {x}))"


register_lowering(sign_p, Scalar(_sign_lowering))
register_lowering(floor_p, Scalar(lambda ctx, x: f"np.floor({x})"))
register_lowering(ceil_p, Scalar(lambda ctx, x: f"np.ceil({x})"))


def _round_lowering(ctx, x, rounding_method=0):
    if rounding_method != 0:
        return f"np.rint({x})"
    t = ctx.tmp(f"np.trunc({x})")
    half, one = ctx.const(0.5), ctx.const(1)
    return f"({t} + np.copysign({one}, {x}) if np.abs({x} - {t}) >= {half} else {t})"


register_lowering(round_p, Scalar(_round_lowering))
register_lowering(stop_gradient_p, Scalar(lambda ctx, x: x))
register_lowering(is_finite_p, Scalar(lambda ctx, x: f"np.isfinite({x})"))


def _abs_lowering(ctx, x):
    """|x|; a complex modulus (of the complex dtype, as the primitive's) as XLA computes it:
    `big * sqrt(1 + (small / big)**2)` of the parts' magnitudes, 0 at 0, inf where `big` is
    (NaN where a part is NaN); numba's is the C library's hypot."""
    if ctx.dtype.kind != "c":
        return f"np.abs({x})"
    part = np.finfo(ctx.dtype).dtype
    zero, one, inf = (ctx.const(v, part) for v in (0, 1, np.inf))
    a, b = ctx.tmp(f"np.abs({x}.real)"), ctx.tmp(f"np.abs({x}.imag)")
    big, small = ctx.tmp(f"vm.maximum({a}, {b})"), ctx.tmp(f"vm.minimum({a}, {b})")
    at_zero = ctx.tmp(f"({big} == {zero})")
    ratio = ctx.tmp(f"({small} / rt.where({at_zero}, {one}, {big}))")
    out = ctx.tmp(f"({big} * np.sqrt({one} + {ratio} * {ratio}))")
    out = ctx.tmp(f"rt.where({at_zero}, {zero}, rt.where({big} == {inf}, {inf}, {out}))")
    return _complex(ctx, f"complex({out}, {zero})")


register_lowering(abs_p, Scalar(_abs_lowering))


register_lowering(exp_p, _transcendental(exp_p, _np("exp")))
register_lowering(exp2_p, _transcendental(exp2_p, _np("exp2")))
register_lowering(log_p, _transcendental(log_p, _np("log")))
register_lowering(log1p_p, _transcendental(log1p_p, _np("log1p")))
register_lowering(expm1_p, _transcendental(expm1_p, _np("expm1")))
register_lowering(sqrt_p, _transcendental(sqrt_p, _np("sqrt")))


def _rsqrt_otherwise(ctx, x):
    return _div_lowering(ctx, ctx.const(1), f"np.sqrt({x})")


register_lowering(rsqrt_p, _transcendental(rsqrt_p, _rsqrt_otherwise))  # XLA's estimate
register_lowering(cbrt_p, _transcendental(cbrt_p, _np("cbrt")))
register_lowering(tanh_p, _transcendental(tanh_p, _np("tanh")))


def _logistic(ctx, x):
    one = ctx.const(1)
    return f"({one} / ({one} + np.exp(-{x})))"


register_lowering(logistic_p, _transcendental(logistic_p, _logistic))
register_lowering(sin_p, _transcendental(sin_p, _np("sin")))
register_lowering(cos_p, _transcendental(cos_p, _np("cos")))
register_lowering(tan_p, _transcendental(tan_p, _np("tan")))


register_lowering(asin_p, _transcendental(asin_p, _np("arcsin")))
register_lowering(acos_p, _transcendental(acos_p, _np("arccos")))
register_lowering(atan_p, _transcendental(atan_p, _np("arctan")))  # atanf, atan, as XLA
register_lowering(sinh_p, _transcendental(sinh_p, _np("sinh")))
register_lowering(cosh_p, _transcendental(cosh_p, _np("cosh")))
register_lowering(asinh_p, _transcendental(asinh_p, _np("arcsinh")))
register_lowering(acosh_p, _transcendental(acosh_p, _np("arccosh")))
register_lowering(atanh_p, _transcendental(atanh_p, _np("arctanh")))


def _atan2_lowering(ctx, a, b):
    if ctx.dtype.kind == "c":
        return f"rt.catan2({a}, {b})"
    return f"vm.atan2_f32({a}, {b})" if ctx.dtype == _F32 else f"np.arctan2({a}, {b})"


register_lowering(atan2_p, _transcendental(atan2_p, _atan2_lowering))  # float64 in the table


register_lowering(erf_p, _transcendental(erf_p, lambda ctx, x: f"math.erf({x})"))
register_lowering(erf_inv_p, _transcendental(erf_inv_p, lambda ctx, x: f"rt.erf_inv_f64({x})"))
# float32: XLA's Lanczos expansions (`vm.lgamma_f32`); math.lgamma computes in float64: a cast
_lgamma = _transcendental(lgamma_p, lambda ctx, x: f"math.lgamma({x})")
_digamma = _transcendental(digamma_p, lambda ctx, x: f"rt.digamma({x})")
register_lowering(lgamma_p, Scalar(_lgamma.fn, exact=False))
register_lowering(digamma_p, Scalar(_digamma.fn, exact=False))


def _integer_pow_lowering(ctx, x, *, y):
    """x**y by repeated squaring (what XLA emits), 1/x**-y for negative y; complex products as
    `mul`'s (XLA's fused multiply-adds)."""
    complex_ = ctx.dtype.kind == "c"
    mul = lambda a, b: _mul_lowering(ctx, a, b) if complex_ else f"{a} * {b}"  # noqa: E731
    n, acc, base = abs(y), None, x
    while n:
        if n & 1:
            acc = base if acc is None else ctx.tmp(mul(acc, base))
        n >>= 1
        if n:
            base = ctx.tmp(mul(base, base))
    acc = ctx.const(1) if acc is None else acc
    if y >= 0:
        return acc
    one = ctx.const(1)
    return _complex(ctx, f"rt.cdiv({one}, {acc})") if ctx.dtype.kind == "c" else f"({one} / {acc})"


register_lowering(integer_pow_p, Scalar(_integer_pow_lowering))


def _square_lowering(ctx, x):
    """x * x; a complex square as JAX lowers it: (a - b)(a + b) + 2ab i, the real part 0
    where |a| = |b| is finite."""
    if ctx.dtype.kind != "c":
        return f"({x} * {x})"
    a, b = ctx.tmp(f"{x}.real"), ctx.tmp(f"{x}.imag")
    two = ctx.const(2, np.finfo(ctx.dtype).dtype)
    zero = ctx.const(0, np.finfo(ctx.dtype).dtype)
    same = f"(np.abs({a}) == np.abs({b})) & np.isfinite({a})"
    re = f"({zero} if {same} else ({a} - {b}) * ({a} + {b}))"
    return _complex(ctx, f"complex({re}, ({a} * {b}) * {two})")


register_lowering(square_p, Scalar(_square_lowering))
register_lowering(eq_p, Scalar(_infix("==")))
register_lowering(ne_p, Scalar(_infix("!=")))
register_lowering(lt_p, Scalar(_compare("<")))
register_lowering(le_p, Scalar(_compare("<=")))
register_lowering(gt_p, Scalar(_compare(">")))
register_lowering(ge_p, Scalar(_compare(">=")))
register_lowering(and_p, Scalar(_infix("&")))
register_lowering(or_p, Scalar(_infix("|")))
register_lowering(xor_p, Scalar(_infix("^")))


def _not_lowering(ctx, x):
    return f"(not {x})" if ctx.dtype == np.bool_ else f"(~{x})"


register_lowering(not_p, Scalar(_not_lowering))


def _shift_left_lowering(ctx, a, b):
    return f"(({a} << {b}) if ({b} >= 0) & ({b} < {_bits(ctx)}) else {ctx.const(0)})"


register_lowering(shift_left_p, Scalar(_shift_left_lowering))


def _shift_right_logical_lowering(ctx, a, b):
    u, s = f"np.uint{_bits(ctx)}", f"np.int{_bits(ctx)}"
    # a signed operand's shift back in its own type: a uint64 and an int64 branch unify as
    # float64 in numba (int64 max >> 2 lost its low bits)
    shifted = f"({a} >> {b})" if ctx.dtype.kind == "u" else f"{s}({u}({a}) >> {u}({b}))"
    return f"({shifted} if ({b} >= 0) & ({b} < {_bits(ctx)}) else {ctx.const(0)})"


register_lowering(shift_right_logical_p, Scalar(_shift_right_logical_lowering))


def _shift_right_arithmetic_lowering(ctx, a, b):
    s, u = f"np.int{_bits(ctx)}", f"np.uint{_bits(ctx)}"
    last = _bits(ctx) - 1
    if ctx.dtype.kind == "i":
        return f"({a} >> ({last} if ({b} < 0) | ({b} > {last}) else {b}))"
    # unsigned: the bits as signed, the amount too (an int literal and a uint64 amount unify
    # as float64, which numba cannot shift by), the result's bits unsigned again
    amount = f"({last} if ({s}({b}) < 0) | ({s}({b}) > {last}) else {s}({b}))"
    return f"{u}({s}({a}) >> {amount})"


register_lowering(shift_right_arithmetic_p, Scalar(_shift_right_arithmetic_lowering))
register_lowering(
    population_count_p,
    Scalar(lambda ctx, x: f"rt.popcount(np.uint64({x}) & np.uint64({(1 << _bits(ctx)) - 1}))"),
)


def _select_n_lowering(ctx, which, *cases):
    if ctx.in_dtypes[0] == np.bool_:
        return f"rt.where({which}, {cases[1]}, {cases[0]})" if len(cases) == 2 else cases[0]
    expr = cases[-1]
    for i in range(len(cases) - 2, -1, -1):
        expr = f"rt.where({which} <= {i}, {cases[i]}, {expr})"
    return expr


register_lowering(select_n_p, Scalar(_select_n_lowering))
register_lowering(real_p, Scalar(lambda ctx, x: f"{x}.real"))
register_lowering(imag_p, Scalar(lambda ctx, x: f"{x}.imag"))
register_lowering(complex_p, Scalar(lambda ctx, a, b: _complex(ctx, f"complex({a}, {b})")))
