"""Numba lowering of the elementwise primitives: one scalar expression each.

Arguments are names or typed constants of the generated code, so a rule may repeat them. The
code generator casts every result to the output dtype, so rules need not undo numba's integer
widening. float32 transcendentals call `core.jit.vecmath` (`vm.`) so fused loops vectorize;
float64 and complex use numpy's libm functions; integer division, remainder and bit counting
call `core.jit.runtime` (`rt.`), as do Threefry-2x32 (two outputs) and bit casts.
"""

from __future__ import annotations

import numpy as np

from core.jit.lowering import Scalar, ScalarCtx, const
from core.prims import elementwise as ew
from core.prims import random_bits, shapes

_F32 = np.dtype(np.float32)


def _is_float(ctx: ScalarCtx) -> bool:
    return ctx.dtype.kind in "fc"


def _binop(op: str):
    return lambda ctx, a, b: f"({a} {op} {b})"


def _transcendental(vm_name: str, np_name: str):
    """float32 -> the vectorizable `vm.<name>_f32`; other dtypes -> `np.<np_name>`."""

    def rule(ctx, x):
        if ctx.dtype == _F32:
            return f"vm.{vm_name}_f32({x})"
        return f"np.{np_name}({x})"

    return rule


def _div(ctx, a, b):
    if _is_float(ctx):
        return f"({a} / {b})"
    return f"rt.{'idiv' if ctx.dtype.kind == 'i' else 'udiv'}({a}, {b})"


def _rem(ctx, a, b):
    return f"np.fmod({a}, {b})" if _is_float(ctx) else f"rt.irem({a}, {b})"


def _extremum(vm_name: str, op: str):
    def rule(ctx, a, b):
        if ctx.dtype.kind == "f":
            return f"vm.{vm_name}({a}, {b})"
        if ctx.dtype == np.bool_:
            return f"({a} {'|' if op == '>' else '&'} {b})"
        return f"({a} if {a} {op} {b} else {b})"

    return rule


def _sign(ctx, x):
    one, zero = ctx.const(1), ctx.const(0)
    if ctx.dtype.kind == "u":
        return f"({one} if {x} > {zero} else {zero})"
    return f"({one} if {x} > {zero} else ({ctx.const(-1)} if {x} < {zero} else {x}))"


def _round(ctx, x, rounding_method=0):
    if rounding_method != 0:
        return f"np.rint({x})"
    t = ctx.tmp(f"np.trunc({x})")
    half, one = ctx.const(0.5), ctx.const(1)
    return f"({t} + np.copysign({one}, {x}) if np.abs({x} - {t}) >= {half} else {t})"


def _logistic(ctx, x):
    if ctx.dtype == _F32:
        return f"vm.logistic_f32({x})"
    one = ctx.const(1)
    return f"({one} / ({one} + np.exp(-{x})))"


def _erf(ctx, x):
    return f"vm.erf_f32({x})" if ctx.dtype == _F32 else f"math.erf({x})"


def _erf_inv(ctx, x):
    return f"vm.erf_inv_f32({x})" if ctx.dtype == _F32 else f"rt.erf_inv_f64({x})"


def _integer_pow(ctx, x, *, y):
    """x**y by repeated squaring (what XLA emits), 1/x**-y for negative y."""
    n, acc, base = abs(y), None, x
    while n:
        if n & 1:
            acc = base if acc is None else ctx.tmp(f"{acc} * {base}")
        n >>= 1
        if n:
            base = ctx.tmp(f"{base} * {base}")
    acc = ctx.const(1) if acc is None else acc
    return f"({ctx.const(1)} / {acc})" if y < 0 else acc


def _bits(ctx) -> int:
    return ctx.dtype.itemsize * 8


def _shift_left(ctx, a, b):
    return f"(({a} << {b}) if ({b} >= 0) & ({b} < {_bits(ctx)}) else {ctx.const(0)})"


def _shift_right_logical(ctx, a, b):
    u = f"np.uint{_bits(ctx)}"
    shifted = f"({a} >> {b})" if ctx.dtype.kind == "u" else f"({u}({a}) >> {u}({b}))"
    return f"({shifted} if ({b} >= 0) & ({b} < {_bits(ctx)}) else {ctx.const(0)})"


def _shift_right_arithmetic(ctx, a, b):
    s = f"np.int{_bits(ctx)}"
    amount = f"min(max({b}, 0), {_bits(ctx) - 1})"
    return f"({a} >> {amount})" if ctx.dtype.kind == "i" else f"({s}({a}) >> {amount})"


def _not(ctx, x):
    return f"(not {x})" if ctx.dtype == np.bool_ else f"(~{x})"


def _select_n(ctx, which, *cases):
    if ctx.in_dtypes[0] == np.bool_:
        return f"rt.where({which}, {cases[1]}, {cases[0]})" if len(cases) == 2 else cases[0]
    expr = cases[-1]
    for i in range(len(cases) - 2, -1, -1):
        expr = f"rt.where({which} <= {i}, {cases[i]}, {expr})"
    return expr


def _convert(ctx, x, *, new_dtype, weak_type):
    src, dst = ctx.dtype, np.dtype(new_dtype)
    if src == dst:
        return x
    if dst == np.bool_:
        return f"({x} != {ctx.const(0)})"
    if src == np.bool_:
        return f"rt.where({x}, {const(1, dst)}, {const(0, dst)})"
    if src.kind == "c" and dst.kind != "c":
        return f"{x}.real"
    if src.kind == "f" and dst.kind in "iu":  # saturate, NaN -> 0 (like the numpy impl)
        info = np.iinfo(dst)
        lo, hi = const(float(info.min), src), const(float(info.max) + 1, src)
        return (
            f"({const(info.min, dst)} if {x} <= {lo} else ({const(info.max, dst)} if {x} >= {hi} "
            f"else ({const(0, dst)} if {x} != {x} else {x})))"
        )
    return x


def _threefry(ctx, k0, k1, x0, x1):
    y = ctx.tmp(f"rt.threefry2x32({k0}, {k1}, {x0}, {x1})")
    return [f"{y}[0]", f"{y}[1]"]


def _bitcast(ctx, x, *, new_dtype):
    dst = np.dtype(new_dtype)
    if ctx.dtype == np.bool_ or dst == np.bool_:
        return (
            f"({x} != 0)" if dst == np.bool_ else f"({const(1, dst)} if {x} else {const(0, dst)})"
        )
    return f"rt.bitcast({x}, {const(0, dst)})"


_RULES = {
    ew.add_p: _binop("+"),
    ew.sub_p: _binop("-"),
    ew.mul_p: lambda ctx, a, b: f"({a} & {b})" if ctx.dtype == np.bool_ else f"({a} * {b})",
    ew.div_p: _div,
    ew.rem_p: _rem,
    ew.pow_p: lambda ctx, a, b: f"({a} ** {b})",
    ew.max_p: _extremum("maximum", ">"),
    ew.min_p: _extremum("minimum", "<"),
    ew.neg_p: lambda ctx, x: f"(-{x})",
    ew.sign_p: _sign,
    ew.floor_p: lambda ctx, x: f"np.floor({x})",
    ew.ceil_p: lambda ctx, x: f"np.ceil({x})",
    ew.round_p: _round,
    ew.stop_gradient_p: lambda ctx, x: x,
    ew.is_finite_p: lambda ctx, x: f"np.isfinite({x})",
    ew.abs_p: lambda ctx, x: f"np.abs({x})",
    ew.exp_p: _transcendental("exp", "exp"),
    ew.exp2_p: _transcendental("exp2", "exp2"),
    ew.log_p: _transcendental("log", "log"),
    ew.log1p_p: _transcendental("log1p", "log1p"),
    ew.expm1_p: _transcendental("expm1", "expm1"),
    ew.sqrt_p: lambda ctx, x: f"np.sqrt({x})",
    ew.rsqrt_p: lambda ctx, x: f"({ctx.const(1)} / np.sqrt({x}))",
    ew.cbrt_p: lambda ctx, x: f"np.cbrt({x})",
    ew.tanh_p: _transcendental("tanh", "tanh"),
    ew.logistic_p: _logistic,
    ew.sin_p: _transcendental("sin", "sin"),
    ew.cos_p: _transcendental("cos", "cos"),
    ew.tan_p: _transcendental("tan", "tan"),
    ew.asin_p: lambda ctx, x: f"np.arcsin({x})",
    ew.acos_p: lambda ctx, x: f"np.arccos({x})",
    ew.atan_p: lambda ctx, x: f"np.arctan({x})",
    ew.sinh_p: lambda ctx, x: f"np.sinh({x})",
    ew.cosh_p: lambda ctx, x: f"np.cosh({x})",
    ew.asinh_p: lambda ctx, x: f"np.arcsinh({x})",
    ew.acosh_p: lambda ctx, x: f"np.arccosh({x})",
    ew.atanh_p: lambda ctx, x: f"np.arctanh({x})",
    ew.atan2_p: lambda ctx, a, b: f"np.arctan2({a}, {b})",
    ew.erf_p: _erf,
    ew.erf_inv_p: _erf_inv,
    ew.lgamma_p: lambda ctx, x: f"math.lgamma({x})",
    ew.digamma_p: lambda ctx, x: f"rt.digamma({x})",
    ew.polygamma_p: lambda ctx, m, x: f"rt.polygamma({m}, {x})",
    ew.integer_pow_p: _integer_pow,
    ew.eq_p: _binop("=="),
    ew.ne_p: _binop("!="),
    ew.lt_p: _binop("<"),
    ew.le_p: _binop("<="),
    ew.gt_p: _binop(">"),
    ew.ge_p: _binop(">="),
    ew.and_p: _binop("&"),
    ew.or_p: _binop("|"),
    ew.xor_p: _binop("^"),
    ew.not_p: _not,
    ew.shift_left_p: _shift_left,
    ew.shift_right_logical_p: _shift_right_logical,
    ew.shift_right_arithmetic_p: _shift_right_arithmetic,
    ew.population_count_p: lambda ctx, x: (
        f"rt.popcount(np.uint64({x}) & np.uint64({(1 << _bits(ctx)) - 1}))"
    ),
    ew.select_n_p: _select_n,
    shapes.convert_element_type_p: _convert,
    random_bits.threefry2x32_p: _threefry,
    random_bits.bitcast_convert_type_p: _bitcast,
}

_WIDENING = {shapes.convert_element_type_p, ew.lgamma_p, ew.digamma_p, ew.polygamma_p}
for _prim, _fn in _RULES.items():
    _prim.def_lowering(Scalar(_fn, exact=_prim not in _WIDENING))
