"""Elementwise primitives: operands of one dtype (type promotion happens above, in
`core.numpy`) and, for the n-ary arithmetic, comparison and bitwise ones, shapes that broadcast
as JAX's lax broadcasts them: rank-0 operands beside arrays of any shape, and operands of one
rank whose axes are equal or 1 (`broadcast_shape`). So `x * 2.0` stages `mul a 2.0:f32[]` and a
vmapped product `mul b c` of `f32[1,3]` and `f32[4,1]`, as in JAX. The rules follow: a jvp
contribution of an operand smaller than the result is broadcast to it (`jvp.defjvp`), a
cotangent summed back to its operand's shape (`transpose.backward_pass`), a batched operand of
another rank moved to the front and given size-1 axes (`batching.broadcasting_batcher`), and
the compiler makes every broadcast explicit before it generates code
(`core/jit/canonical.py`). `select_n`, `complex` and the unary primitives keep
one shape for all operands.

Each primitive is declared by `unop`/`binop` (impl and abstract eval) and gets its jvp, transpose
and batching rules right below it; `composed` declares one of JAX's that numbax computes from
the others (`igamma`, `nextafter`, ...: its composition is its value, eagerly and compiled).
A primitive's numba lowering, a scalar expression per primitive so that elementwise chains fuse
into one loop, is in `core/backends/numba/rules/elementwise.py`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import dtypes
from core.ad_util import Zero, instantiate
from core.array import Array
from core.avals import ShapedArray
from core.errors import DTypeError, NonlinearDivTransposeError, ShapeError
from core.interpreters import batching
from core.interpreters.jvp import broadcast_tangent, defjvp, defjvp2, defjvp_zero, tangent_aval
from core.interpreters.transpose import check_one_linear, is_undefined
from core.primitive import Primitive, composition_impl, jax_params
from core.prims.options import check_accuracy
from core.prims.shapes import (
    broadcast_in_dim,
    convert_element_type,
    convert_element_type_p,
    full,
    iota,
)
from core.trace import Tracer, current_trace, eval_trace, get_aval, varying_like

# ---------------------------------------------------------------------------------------------
# Declaration helpers


def _check_same(name: str, avals: tuple[ShapedArray, ...]) -> None:
    a0 = avals[0]
    for a in avals[1:]:
        if a.shape != a0.shape:
            raise ShapeError(
                f"{name} requires operands of the same shape, got {a0.shape} and {a.shape}; "
                "use the broadcasting functions of core.numpy (jnp) for mixed shapes."
            )
        if a.dtype != a0.dtype:
            raise DTypeError(
                f"{name} requires operands of the same dtype, got {a0.dtype} and {a.dtype}; "
                "convert with `x.astype(dtype)` or use core.numpy, which promotes types."
            )


def check_same_dtypes(name: str, dts: Sequence[Any], equivalent: str | None = None) -> None:
    """Raises lax's DTypeError (JAX's first line) unless the dtypes `dts` of `name`'s
    operands are one dtype; `equivalent` names the jnp function that promotes instead."""
    if all(d == dts[0] for d in dts):
        return
    tip = (
        f" (Tip: jnp.{equivalent} is a similar function that does automatic type promotion on "
        "inputs)."
        if equivalent
        else ""
    )
    raise DTypeError(
        f"lax.{name} requires arguments to have the same dtypes, got "
        f"{', '.join(str(d) for d in dts)}.{tip}\nConvert with `x.astype(dtype)`."
    )


def broadcast_shape(name: str, shapes: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The result shape of an n-ary elementwise primitive on operands of `shapes`, as JAX's
    lax broadcasts: rank-0 operands fit any shape; the others must have one rank, and each
    axis one size or 1 (the result takes the size).

    Raises:
      ShapeError: ranks that differ, or sizes that neither match nor are 1 (JAX's TypeError
        texts).
    """
    ranked = [s for s in shapes if s]
    if not ranked:
        return ()
    first = ranked[0]
    if all(s == first for s in ranked):
        return first
    ranks = {len(s) for s in ranked}
    if len(ranks) > 1:
        raise ShapeError(
            f"{name}: arrays must have the same number of dimensions, got {ranks}\nBroadcast "
            "them first (`jnp.broadcast_to`, or the broadcasting functions of core.numpy)."
        )
    out = []
    for sizes in zip(*ranked):
        big = {d for d in sizes if d != 1}
        if len(big) > 1:
            raise ShapeError(
                f"{name} got incompatible shapes for broadcasting: "
                f"{', '.join(str(tuple(s)) for s in shapes)}."
            )
        out.append(big.pop() if big else 1)
    return tuple(out)


def _kind_names(kinds: str) -> str:
    """JAX's names of the accepted dtype classes, in its order: `integer, floating, bool`;
    abs (signed integers only) lists `signedinteger` last, as JAX does."""
    ints = "i" in kinds and "u" in kinds
    names = ["integer"] if ints else ["unsignedinteger"] if "u" in kinds else []
    names += [n for k, n in (("f", "floating"), ("c", "complexfloating")) if k in kinds]
    if "i" in kinds and not ints:
        names.append("signedinteger")
    return ", ".join(names + (["bool"] if "b" in kinds else []))


def reject_dtype(name: str, dtype: np.dtype, kinds: str, position: int | None = None) -> None:
    """Raises the DTypeError of an operation given a dtype outside its accepted `kinds`, with
    JAX's first line (`at position i` for an operand of several)."""
    at = "" if position is None else f" at position {position}"
    raise DTypeError(
        f"{name} does not accept dtype {dtype}{at}. Accepted dtypes{at} are subtypes of "
        f"{_kind_names(kinds)}.\nConvert the operand with `x.astype(...)` first."
    )


# Eager impls a back end computes itself, by primitive (`register_eager_kernel`).
_eager_kernels: dict[Primitive, Callable] = {}


def register_eager_kernel(prim: Primitive, kernel: Callable) -> None:
    """Lets a back end compute eager results of `prim` (declared by `unop`/`binop`), so that they
    equal its compiled ones bit for bit (`core/backends/numba/transcendentals.py`).

    Args:
      prim: the primitive.
      kernel: `kernel(*operands)` returns the result array, or None for operands it leaves to
        the numpy impl (dtypes it does not compute).
    """
    _eager_kernels[prim] = kernel


def _nary(name: str, np_fn, nargs: int, out_dtype=None, kinds: str | None = None) -> Primitive:
    prim = Primitive(name, dtype_kinds=kinds, elementwise=True)
    prim.np_fn = np_fn
    prim.nargs = nargs

    def impl(*args):
        kernel = _eager_kernels.get(prim)
        if kernel is not None:
            if nargs > 1 and any(a.shape != args[0].shape for a in args[1:]):
                shape = np.broadcast_shapes(*(a.shape for a in args))
                args = tuple(np.ascontiguousarray(np.broadcast_to(a, shape)) for a in args)
            if (out := kernel(*args)) is not None:
                return out
        out = np_fn(*args)
        dt = args[0].dtype if out_dtype is None else out_dtype
        return np.asarray(out, dtype=dt) if out.dtype != dt else out

    def abstract_eval(*avals):
        a0 = avals[0]
        shape = a0.shape
        for a in avals[1:]:
            if a.dtype != a0.dtype:
                raise DTypeError(
                    f"{name} requires operands of the same dtype, got {a0.dtype} and {a.dtype}; "
                    "convert with `x.astype(dtype)` or use core.numpy, which promotes types."
                )
            if a.shape != shape:
                shape = broadcast_shape(name, [b.shape for b in avals])
        if kinds is not None and dtypes.kind(a0.dtype) not in kinds:
            reject_dtype(name, a0.dtype, kinds, 0 if nargs > 1 else None)
        if name in _ORDERED and type(a0.dtype) is dtypes.KeyDType:  # keys have no order
            reject_dtype(name, a0.dtype, _ORDERED[name], 0)
        weak = all(a.weak_type for a in avals)
        if out_dtype is None:
            if weak == a0.weak_type and shape == a0.shape:
                return a0  # avals are immutable: the operand's serves (eager speed)
            return ShapedArray(shape, a0.dtype, weak)
        return ShapedArray(shape, out_dtype, weak)

    prim.def_impl(impl)
    prim.def_abstract_eval(abstract_eval)
    if nargs > 1:
        prim.broadcasting = True
        batching.broadcasting_batcher(prim)
    else:
        batching.broadcast_batcher(prim)
    return prim


def unop(name: str, np_fn, kinds: str | None = None, out_dtype=None) -> Primitive:
    return _nary(name, np_fn, 1, out_dtype, kinds)


def binop(name: str, np_fn, kinds: str | None = None, out_dtype=None) -> Primitive:
    return _nary(name, np_fn, 2, out_dtype, kinds)


def composed(
    name: str, composition: Callable, nargs: int, kinds: str | None = None, out_dtype=None
) -> Primitive:
    """JAX's elementwise primitive `name`, which numbax computes from other primitives.

    Jaxprs print JAX's one equation; `composition(*operands)` (operands of one shape and
    dtype) binds the others, and is what eager calls run and what `jit` compiles in its place
    (`Primitive.def_composition`). Abstract eval and batching are the elementwise ones of
    `unop`/`binop`; the caller adds the jvp (and transpose) rules.

    Args:
      name: JAX's name of the primitive.
      composition: computes the result from operands broadcast to one shape.
      nargs: the number of operands.
      kinds: the dtype kinds the operands may have (`reject_dtype`'s message otherwise).
      out_dtype: the result's dtype where it is not the operands' (comparisons: bool).

    Returns:
      The primitive.
    """

    def broadcast_composition(*xs):
        avals = [get_aval(x) for x in xs]
        shape = broadcast_shape(name, [a.shape for a in avals]) if nargs > 1 else avals[0].shape
        xs = [
            x if a.shape == shape else broadcast_in_dim(x, shape, tuple(range(a.ndim)))
            for x, a in zip(xs, avals)
        ]
        out, want = composition(*xs), prim.abstract_eval(*avals)
        got = get_aval(out)
        if (got.dtype, got.weak_type) != (want.dtype, want.weak_type):
            out = convert_element_type(out, want.dtype, want.weak_type)
        return out

    prim = _nary(name, composition_impl(broadcast_composition), nargs, out_dtype, kinds)
    prim.def_composition(broadcast_composition)
    return prim


# The comparisons take every dtype but key dtypes (`eq`/`ne` compare keys): JAX's kinds
_ORDERED = {"lt": "iufb", "le": "iufb", "gt": "iufb", "ge": "iufb"}
_F = "fc"  # inexact kinds
_NUM = "iufc"
_INT = "iub"


def _errstate(fn):
    """`fn` without numpy's floating-point warnings (JAX returns inf/nan silently)."""

    def wrapped(*args):
        with np.errstate(all="ignore"):
            return fn(*args)

    return wrapped


# ---------------------------------------------------------------------------------------------
# Arithmetic

add_p = binop("add", _errstate(np.add), _NUM)


def _add_sub_jvp(prim, neg_y: bool):
    """JAX's jvps of add and sub: one tangent broadcast to the result (negated for sub's
    second), or the primitive on both tangents (so sub's cotangent is negated before it is
    summed back to a broadcast operand, as JAX's)."""

    def rule(primals, tangents):
        out = prim.bind(*primals)
        tx, ty = tangents
        shape = get_aval(out).shape
        if type(tx) is Zero and type(ty) is Zero:
            return out, Zero(tangent_aval(get_aval(out)))
        if type(tx) is Zero:
            return out, broadcast_tangent(neg(ty) if neg_y else ty, shape)
        if type(ty) is Zero:
            return out, broadcast_tangent(tx, shape)
        return out, prim.bind(tx, ty)

    return rule


add_p.def_jvp(_add_sub_jvp(add_p, False))
add_p.def_transpose(lambda ct, x, y: [ct, ct])
add_p.linear = True

# JAX's `add_any` (`add_jaxvals`): the sum with which the AD interpreters accumulate tangents
# and cotangents (`ad_util.add_any`), so grads print `add_any` as JAX's do; operands of one
# shape; it computes as `add` (`jit` compiles it as one: `core/jit/canonical.py`).
add_any_p = Primitive("add_any", elementwise=True)
add_any_p.def_impl(add_p.impl)


def _add_any_abstract_eval(x, y):
    """The first operand's type, weak or not (JAX's `add_jaxvals`): a transposed loop body's
    carry keeps the cotangent's weak type whatever the terms added to it."""
    _check_same("add_any", (x, y))
    return x


add_any_p.def_abstract_eval(_add_any_abstract_eval)
defjvp(add_any_p, lambda g, x, y: g, lambda g, x, y: g)
add_any_p.def_transpose(lambda ct, x, y: [ct, ct])
add_any_p.linear = True
batching.broadcast_batcher(add_any_p)

sub_p = binop("sub", _errstate(np.subtract), _NUM)
sub_p.def_jvp(_add_sub_jvp(sub_p, True))
sub_p.def_transpose(lambda ct, x, y: [ct, neg(ct)])
sub_p.linear = True


def _fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """`a * b + c` rounded once (numpy has no fma): float32 in float64, where its products are
    exact; float64 by Dekker's exact product and Knuth's exact sum (non-finite results, where
    the splits overflow, fall back to `a * b + c`)."""
    if a.dtype == np.float32:
        return (a.astype(np.float64) * b + c).astype(np.float32)
    with np.errstate(all="ignore"):
        p = a * b

        def split(x):
            t = 134217729.0 * x  # 2**27 + 1: Veltkamp's splitter halves the mantissa
            hi = t - (t - x)
            return hi, x - hi

        (ah, al), (bh, bl) = split(a), split(b)
        e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
        s = p + c
        bb = s - p
        t = (p - (s - bb)) + (c - bb)
        out = s + (t + e)
        return np.where(np.isfinite(out), out, p + c)


def _mul_impl(x, y):
    """`x * y`; complex as XLA's CPU code rounds it, with two fused multiply-adds: real
    `fma(ar, br, -(ai bi))`, imaginary `fma(ai, br, ar bi)` (numpy rounds every product)."""
    if x.dtype.kind != "c":
        return np.multiply(x, y)
    x, y = np.broadcast_arrays(x, y)
    out = np.empty(x.shape, x.dtype)
    out.real = _fma(x.real, y.real, -(x.imag * y.imag))
    out.imag = _fma(x.imag, y.real, x.real * y.imag)
    return out


mul_p = binop("mul", _errstate(_mul_impl), _NUM + "b")
_same_dtype_mul_impl, _same_dtype_mul_eval = mul_p.impl, mul_p.abstract_eval


# `out_dtype` (JAX's parameter of `mul`, None in every product numbax's own code computes): the
# operands, which may then have different dtypes, are converted to it and multiplied there,
# as JAX's lowering converts them (`core.jit.canonical.explicit_mul_dtype` when compiled).
@mul_p.def_impl
def _mul_out_dtype_impl(x, y, *, out_dtype=None):
    if out_dtype is not None:
        dt = dtypes.canonicalize_dtype(out_dtype)
        x, y = (convert_element_type_p.impl(v, new_dtype=dt, weak_type=False) for v in (x, y))
    return _same_dtype_mul_impl(x, y)


@mul_p.def_abstract_eval
def _mul_out_dtype_abstract_eval(x, y, *, out_dtype=None):
    if out_dtype is None:
        return _same_dtype_mul_eval(x, y)
    for i, a in enumerate((x, y)):  # each operand of a kind mul takes, as JAX checks them
        if dtypes.kind(a.dtype) not in mul_p.dtype_kinds:
            reject_dtype("mul", a.dtype, mul_p.dtype_kinds, i)
    dt = dtypes.canonicalize_dtype(out_dtype)
    return _same_dtype_mul_eval(x.update(dtype=dt), y.update(dtype=dt))


defjvp(
    mul_p,
    lambda g, x, y, out_dtype=None: mul(g, y, out_dtype),
    lambda g, x, y, out_dtype=None: mul(x, g, out_dtype),
)


def _mul_transpose(ct, x, y, *, out_dtype=None):
    # a product given an out_dtype converts its cotangent back to the operand's dtype
    check_one_linear("mul", x, y)
    if is_undefined(x):
        return [mul(ct, y, None if out_dtype is None else x.aval.dtype), None]
    return [None, mul(x, ct, None if out_dtype is None else y.aval.dtype)]


mul_p.def_transpose(_mul_transpose)
mul_p.linear = True  # in each operand separately


def _complex_div(a, b):
    """Complex `a / b` as XLA (and the kernels' `rt.cdiv`) divide: Smith's algorithm, and where
    both parts come out NaN, C99's infinities and zeros: a zero divisor gives inf times the
    dividend, an infinite dividend over a finite divisor inf, a finite dividend over an
    infinite divisor 0 ((nan+infj) / 7 is nan+infj, where numpy gives nan+nanj)."""
    a, b = np.broadcast_arrays(a, b)
    ar, ai, br, bi = a.real, a.imag, b.real, b.imag
    one, inf = np.ones((), ar.dtype), np.asarray(np.inf, ar.dtype)
    by_imag = np.abs(br) < np.abs(bi)
    t = np.where(by_imag, br / bi, bi / br)
    # `p * t + q` fused (one rounding), as XLA and the kernels contract it (x/x of -1.5+0.5j is
    # 1+8.9e-9j, as in JAX)

    def fma(p, q):
        return _fma(p, t, q)

    d = np.where(by_imag, fma(br, bi), fma(bi, br))
    r = np.where(by_imag, fma(ar, ai), fma(ai, ar)) / d
    i = np.where(by_imag, fma(ai, -ar), fma(-ar, ai)) / d

    def unit(v):  # +-1 where v is infinite, +-0 elsewhere
        return np.copysign(np.where(np.isinf(v), one, 0 * one), v)

    sr, si, tr, ti = unit(ar), unit(ai), unit(br), unit(bi)
    zero_div = (br == 0) & (bi == 0) & ~(np.isnan(ar) & np.isnan(ai))
    inf_num = (np.isinf(ar) | np.isinf(ai)) & np.isfinite(br) & np.isfinite(bi)
    inf_den = (np.isinf(br) | np.isinf(bi)) & np.isfinite(ar) & np.isfinite(ai)
    s = np.copysign(inf, br)
    conds = [zero_div, inf_num, inf_den]
    r_sp = np.select(conds, [s * ar, inf * (sr * br + si * bi), 0 * (ar * tr + ai * ti)], r)
    i_sp = np.select(conds, [s * ai, inf * (si * br - sr * bi), 0 * (ai * tr - ar * ti)], i)
    nan = np.isnan(r) & np.isnan(i)
    out = np.empty(a.shape, a.dtype)
    out.real, out.imag = np.where(nan, r_sp, r), np.where(nan, i_sp, i)
    return out


def _div_impl(x, y):
    if x.dtype.kind == "c":
        with np.errstate(all="ignore"):
            return _complex_div(x, y)
    if x.dtype.kind in "iu":  # lax.div on integers rounds towards zero, like C
        # in integers (a float quotient loses int64's low bits); MIN // -1 wraps to MIN, as XLA
        safe = np.where(y == 0, 1, y).astype(x.dtype)
        with np.errstate(all="ignore"):
            q = np.floor_divide(x, safe)
            q = q + ((np.remainder(x, safe) != 0) & ((x < 0) != (safe < 0))).astype(x.dtype)
        return np.where(y == 0, -1 if x.dtype.kind == "i" else np.iinfo(x.dtype).max, q)
    with np.errstate(all="ignore"):  # 1e30 / 1e-10 overflows to inf silently, as in XLA
        return np.true_divide(x, y)


div_p = binop("div", _div_impl, _NUM)
defjvp(div_p, lambda g, x, y: div(g, y), lambda g, x, y: mul(mul(neg(g), x), integer_pow(y, -2)))


def _div_transpose(ct, x, y):
    if is_undefined(y):
        raise NonlinearDivTransposeError(
            "nonlinear div can't be transposed\nThe function divides by a value that depends "
            "linearly on its input: it is not linear; transpose a function linear in its inputs, "
            "or use `vjp`."
        )
    return [div(ct, y), None]


div_p.def_transpose(_div_transpose)
div_p.linear = True  # in the numerator


def _rem_impl(x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        if x.dtype.kind in "iu":
            safe = np.where(y == 0, 1, y)
            r = np.fmod(x, safe)
            return np.where(y == 0, x, r)
        return np.fmod(x, y)


rem_p = binop("rem", _rem_impl, "iuf")
defjvp(rem_p, lambda g, x, y: g, lambda g, x, y: mul(neg(g), round(div(sub(x, rem(x, y)), y))))


def _complex_pow(x, y):
    """XLA's complex power: `|x|^c exp(-d arg x) * cis(c arg x + d/2 log|x|^2)` for y = c + di,
    in the component dtype (1j**2 is -1 - 8.7e-8j, as in JAX); a real exponent leaves out the
    log term (so (1e30+1e30j)**-2 is 0, not NaN) and x**0 is 1 for every x."""
    a, b, c, d = x.real, x.imag, y.real, y.imag
    norm2 = a * a + b * b
    arg = np.arctan2(b, a)
    coeff = _pow_impl(norm2, c * c.dtype.type(0.5)) * np.exp(-d * arg)
    angle = c * arg + np.where(d == 0, 0, d * d.dtype.type(0.5) * np.log(norm2)).astype(c.dtype)
    out = (coeff * np.cos(angle) + 1j * (coeff * np.sin(angle))).astype(x.dtype)
    return np.where((c == 0) & (d == 0), np.ones_like(out), out)


def _pow_impl(x, y):
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if x.dtype.kind == "c":
            return _complex_pow(*np.broadcast_arrays(x, y))
        if x.dtype == np.float32:  # as XLA on the CPU: float32 pow computed in double precision
            return np.power(x.astype(np.float64), y.astype(np.float64)).astype(np.float32)
        return np.power(x, y)


pow_p = binop("pow", _pow_impl, _F)


def _const(x: Any, value: Any) -> Any:
    """`value` as a rank-0 array of `x`'s dtype: the constants of the jvp rules, which the
    primitives broadcast (JAX's `_const`: `div 0.5:f32[] b` in sqrt's)."""
    return full_like(x, value, shape=())


def _pow_jvp_x(g, x, y):
    # d/dx x**y = y * x**(y-1), JAX's rule for an inexact exponent (nan at 0**0); integer
    # exponents go through `pow_integer_exponent`, whose y == 0 case is exact as in JAX. As
    # JAX, the operands are first made strongly typed, so the gradient is strong.
    dt = get_aval(x).dtype
    x, y = convert_element_type(x, dt), convert_element_type(y, dt)
    return mul(g, mul(y, pow(x, sub(y, _const(y, 1)))))


def _pow_jvp_y(g, x, y):
    zero = full_like(x, 0)
    logx = select_n(eq(x, zero), log(x), zero)
    return mul(g, mul(pow(x, y), logx))


defjvp(pow_p, _pow_jvp_x, _pow_jvp_y)


def complex_pick(x: np.ndarray, y: np.ndarray, take_x) -> np.ndarray:
    """XLA's complex max/min: `x` where `take_x` (`np.greater` for max, `np.less` for min)
    holds of the real parts, or of the imaginary parts when the real parts are equal; else
    `y`. A NaN compares false, so it is taken only from `y` (JAX: maximum(nan, 0j) is 0j)."""
    with np.errstate(invalid="ignore"):
        pick_x = np.where(x.real == y.real, take_x(x.imag, y.imag), take_x(x.real, y.real))
    return np.where(pick_x, x, y)


def _extremum(np_fn, take_x):
    def impl(x, y):
        if np.result_type(x, y).kind == "c":
            x, y = np.broadcast_arrays(x, y)
            return complex_pick(x, y, take_x)
        return np_fn(x, y)

    return impl


max_p = binop("max", _extremum(np.maximum, np.greater), _NUM + "b")
min_p = binop("min", _extremum(np.minimum, np.less), _NUM + "b")


def _balanced_eq(x, z, y):
    """JAX's: 1 where `x` is the result `z`, halved where `y` is it too (ties split evenly)."""
    hit, one, zero = eq(x, z), full_like(z, 1), full_like(z, 0)
    num = select_n(hit, zero, one)
    tie, two, one = eq(y, z), full_like(z, 2), full_like(z, 1)
    return div(num, select_n(tie, one, two))


# JAX's derivatives of max and min: from the result (ties split the gradient evenly)
for _p in (max_p, min_p):
    defjvp2(
        _p,
        lambda g, ans, x, y: mul(g, _balanced_eq(x, ans, y)),
        lambda g, ans, x, y: mul(g, _balanced_eq(y, ans, x)),
    )

neg_p = unop("neg", np.negative, _NUM)
defjvp(neg_p, lambda g, x: neg(g))
neg_p.def_transpose(lambda ct, x: [neg(ct)])
neg_p.linear = True


def _sign_impl(x):
    if (
        dtypes.kind(x.dtype) == "f"
    ):  # signed zeros and NaN come back as they are (np.sign(-0.0) is 0.0)
        return np.where(x == 0, x, np.sign(x)).astype(x.dtype)
    if dtypes.kind(x.dtype) == "c":  # x / |x| with XLA's modulus (as the kernels), 0 at 0
        m = _abs_impl(x)
        out = np.empty(x.shape, x.dtype)
        out.real, out.imag = x.real / m, x.imag / m
        return np.where(m == 0, x, out)
    return np.sign(x)


sign_p = unop("sign", _errstate(_sign_impl), _NUM)
defjvp_zero(sign_p)


floor_p = unop("floor", np.floor, "f")
defjvp_zero(floor_p)
ceil_p = unop("ceil", np.ceil, "f")
defjvp_zero(ceil_p)


def _round_impl(x, rounding_method=0):
    if rounding_method == 0:  # away from zero
        return np.trunc(x + np.copysign(np.asarray(0.5, x.dtype), x)).astype(x.dtype)
    return np.round(x)


round_p = Primitive("round", elementwise=True)
round_p.def_impl(_round_impl)
round_p.def_abstract_eval(lambda x, rounding_method=0: x)
batching.broadcast_batcher(round_p)
defjvp_zero(round_p)


stop_gradient_p = unop("stop_gradient", lambda x: x)


def _stop_gradient_jvp(primals, tangents):
    # a concrete primal is given back itself, as JAX's identity, so that an input stopped under
    # eager `jvp` comes out as given; a traced one is staged
    (x,) = primals
    out = stop_gradient_p.bind(x) if isinstance(x, Tracer) else x
    return out, Zero(tangent_aval(get_aval(x)))


stop_gradient_p.def_jvp(_stop_gradient_jvp)

is_finite_p = unop("is_finite", np.isfinite, _F, out_dtype=dtypes.bool_)
defjvp_zero(is_finite_p)


def _abs_impl(x):
    """|x|; a complex modulus as XLA computes it (and the kernels): `big * sqrt(1 + r * r)`
    with `r = small / big` of the parts' magnitudes and one rounding for `1 + r * r`, 0 at 0,
    inf where `big` is, NaN where a part is NaN (numpy's is the C library's hypot)."""
    if x.dtype.kind != "c":
        return np.abs(x)
    a, b = np.abs(x.real), np.abs(x.imag)
    big, small = np.maximum(a, b), np.minimum(a, b)
    one = np.ones((), big.dtype)
    at_zero = big == 0
    ratio = small / np.where(at_zero, one, big)
    out = big * np.sqrt(_fma(ratio, ratio, np.broadcast_to(one, ratio.shape)))
    return np.where(at_zero, 0 * one, np.where(big == np.inf, np.inf * one, out))


abs_p = unop("abs", _errstate(_abs_impl), "ifc")  # JAX's: no unsigned (jnp.abs: unchanged)
_abs_kinds_eval = abs_p.abstract_eval


def _abs_abstract_eval(x):
    # JAX's abs (its only unop so) refuses the sub-byte integers, after its kinds check
    out = _abs_kinds_eval(x)
    if x.dtype.name in dtypes.INTN_NAMES:
        raise DTypeError(
            f"abs does not accept dtype {x.dtype.name}. Support for narrow-width integers is "
            "platform-dependent and limited to a few specific operations, e.g. basic "
            "arithmetic and type casting."
        )
    return out


abs_p.def_abstract_eval(_abs_abstract_eval)


def _abs_jvp(g, x):
    if dtypes.kind(get_aval(x).dtype) == "c":
        # JAX's: g * conj(x) / |x| (its real part is the tangent; 0 at x = 0), the modulus
        # cast to a strongly typed complex, so the tangent is strongly typed
        dt = get_aval(x).dtype
        modulus = convert_element_type(abs_p.bind(x), dt, False)
        safe = select_n(eq(modulus, full_like(modulus, 0)), modulus, full_like(modulus, 1))
        conj = complex_p.bind(real_p.bind(x), neg(imag_p.bind(x)))
        return mul(g, div(conj, safe))
    return select_n(ge(x, _const(x, 0)), neg(g), g)  # JAX: slope +1 at 0 and -0.0


defjvp(abs_p, _abs_jvp)

# ---------------------------------------------------------------------------------------------
# Transcendental


exp_p = unop("exp", _errstate(np.exp), _F)
defjvp2(exp_p, lambda g, ans, x: mul(g, ans))
exp2_p = unop("exp2", _errstate(np.exp2), _F)
defjvp2(exp2_p, lambda g, ans, x: mul(log(_const(x, 2)), mul(g, ans)))
log_p = unop("log", _errstate(np.log), _F)
defjvp(log_p, lambda g, x: div(g, x))
log1p_p = unop("log1p", _errstate(np.log1p), _F)
defjvp(log1p_p, lambda g, x: div(g, add(x, _const(x, 1))))
expm1_p = unop("expm1", _errstate(np.expm1), _F)
defjvp2(expm1_p, lambda g, ans, x: mul(g, add(ans, _const(ans, 1))))
sqrt_p = unop("sqrt", _errstate(np.sqrt), _F)
defjvp2(sqrt_p, lambda g, ans, x: mul(g, div(_const(x, 0.5), ans)))  # JAX's form


def _rsqrt_impl(x):
    with np.errstate(all="ignore"):
        if x.dtype == np.float16 or dtypes.is_ml_float(x.dtype):  # rounded once, as XLA's
            return (1 / np.sqrt(x.astype(np.float32))).astype(x.dtype)
        return np.asarray(1, x.dtype) / np.sqrt(x)


rsqrt_p = unop("rsqrt", _rsqrt_impl, _F)
defjvp2(rsqrt_p, lambda g, ans, x: mul(g, mul(_const(x, -0.5), div(ans, x))))
cbrt_p = unop("cbrt", np.cbrt, "f")
defjvp2(cbrt_p, lambda g, ans, x: mul(g, mul(_const(x, 1 / 3), integer_pow(ans, -2))))
tanh_p = unop("tanh", np.tanh, _F)
# JAX's form (1 + ans) g (1 - ans), not g (1 - ans**2): its gradients' bits
defjvp2(tanh_p, lambda g, ans, x: mul(add(g, mul(g, ans)), sub(_const(x, 1), ans)))


def _logistic_impl(x):
    with np.errstate(over="ignore"):
        return (np.asarray(1, x.dtype) / (np.asarray(1, x.dtype) + np.exp(-x))).astype(x.dtype)


logistic_p = unop("logistic", _logistic_impl, _F)
defjvp2(logistic_p, lambda g, ans, x: mul(g, mul(ans, sub(_const(ans, 1), ans))))


sin_p = unop("sin", _errstate(np.sin), _F)
defjvp(sin_p, lambda g, x: mul(g, cos(x)))
cos_p = unop("cos", _errstate(np.cos), _F)
defjvp(cos_p, lambda g, x: neg(mul(g, sin(x))))
tan_p = unop("tan", _errstate(np.tan), _F)
defjvp2(tan_p, lambda g, ans, x: mul(g, add(_const(ans, 1), mul(ans, ans))))
# JAX's `accuracy` picks among XLA's approximations; numbax has one implementation each.
for _p in (exp_p, exp2_p, log_p, log1p_p, expm1_p, sqrt_p, rsqrt_p, cbrt_p, tanh_p, logistic_p):
    jax_params(_p, accuracy=check_accuracy)
for _p in (sin_p, cos_p, tan_p):
    jax_params(_p, accuracy=check_accuracy)
asin_p = unop("asin", _errstate(np.arcsin), _F)
defjvp(asin_p, lambda g, x: mul(g, rsqrt(sub(_const(x, 1), square(x)))))
acos_p = unop("acos", _errstate(np.arccos), _F)
defjvp(acos_p, lambda g, x: mul(g, neg(rsqrt(sub(_const(x, 1), square(x))))))
atan_p = unop("atan", np.arctan, _F)
defjvp(atan_p, lambda g, x: div(g, add(_const(x, 1), mul(x, x))))
sinh_p = unop("sinh", _errstate(np.sinh), _F)
defjvp(sinh_p, lambda g, x: mul(g, cosh(x)))
cosh_p = unop("cosh", _errstate(np.cosh), _F)
defjvp(cosh_p, lambda g, x: mul(g, sinh(x)))
asinh_p = unop("asinh", np.arcsinh, _F)
defjvp(asinh_p, lambda g, x: mul(g, rsqrt(add(square(x), _const(x, 1)))))
acosh_p = unop("acosh", _errstate(np.arccosh), _F)
defjvp(acosh_p, lambda g, x: mul(g, rsqrt(sub(square(x), _const(x, 1)))))
atanh_p = unop("atanh", _errstate(np.arctanh), _F)
defjvp(
    atanh_p,
    lambda g, x: mul(integer_pow(add(_const(x, 1), x), -1), div(g, sub(_const(x, 1), x))),
)


def _atan2_impl(x, y):
    """atan2(x, y), the angle of the point (y, x); for complex operands XLA's
    `-i log((y + i x) / sqrt(y^2 + x^2))`, which JAX computes too."""
    if x.dtype.kind != "c":
        return np.arctan2(x, y)
    with np.errstate(all="ignore"):
        return (-1j * np.log((y + 1j * x) / np.sqrt(y * y + x * x))).astype(x.dtype)


atan2_p = binop("atan2", _atan2_impl, _F)
defjvp(
    atan2_p,
    lambda g, x, y: mul(g, div(y, add(mul(x, x), mul(y, y)))),
    lambda g, x, y: mul(g, div(neg(x), add(mul(x, x), mul(y, y)))),
)


def _erf_impl(x):
    from scipy import special  # noqa: PLC0415 (scipy: on first use)

    return special.erf(x).astype(x.dtype)


def _erf_inv_impl(x):
    from scipy import special  # noqa: PLC0415 (scipy: on first use)

    with np.errstate(all="ignore"):
        return np.where(x == 0, x, special.erfinv(x)).astype(x.dtype)  # keeps -0.0


def _lgamma_impl(x):
    from scipy import special  # noqa: PLC0415 (scipy: on first use)

    return np.where(x == -np.inf, np.inf, special.gammaln(x)).astype(x.dtype)


def _digamma_impl(x):
    from scipy import special  # noqa: PLC0415 (scipy: on first use)

    poles = (x <= 0) & (np.floor(x) == x)  # nan at 0 and the negative integers, as JAX
    return np.where(poles, np.nan, special.digamma(x)).astype(x.dtype)


erf_p = unop("erf", _erf_impl, "f")
defjvp(erf_p, lambda g, x: mul(_const(x, 2 / np.sqrt(np.pi)), mul(g, exp(neg(square(x))))))


erf_inv_p = unop("erf_inv", _erf_inv_impl, "f")
defjvp2(
    erf_inv_p,
    lambda g, ans, x: mul(_const(x, np.sqrt(np.pi) / 2), mul(g, exp(square(ans)))),
)


# XLA expands polygamma through zeta, which `core.lax.special` composes from this layer's
# primitives: that module installs its expansion here when `core` is imported (a lower layer
# does not import an upper one)
polygamma_expansion: Callable | None = None


def _polygamma_composition(m, x):
    return polygamma_expansion(m, x)


lgamma_p = unop("lgamma", _lgamma_impl, "f")
digamma_p = unop("digamma", _digamma_impl, "f")
polygamma_p = composed("polygamma", _polygamma_composition, 2, "f")  # XLA's expansion
defjvp(lgamma_p, lambda g, x: mul(g, digamma(x)))
defjvp(digamma_p, lambda g, x: mul(g, polygamma(_const(x, 1), x)))
# The order m is an integer-valued array: no derivative with respect to it (as in JAX).
defjvp(polygamma_p, None, lambda g, m, x: mul(g, polygamma(add(m, _const(m, 1)), x)))


def _integer_pow_impl(x, *, y):
    # Repeated squaring, rounding each product as XLA (and the numba lowering) do.
    with np.errstate(all="ignore"):
        n, acc, base = abs(y), None, x
        while n:
            if n & 1:
                acc = base if acc is None else np.multiply(acc, base, dtype=x.dtype)
            n >>= 1
            if n:
                base = np.multiply(base, base, dtype=x.dtype)
        one = np.ones_like(x)
        acc = one if acc is None else acc
        if y < 0:  # complex: XLA's division (reciprocal(inf + nan j) is 0, numpy's nan)
            acc = _complex_div(one, acc) if x.dtype.kind == "c" else np.divide(one, acc)
        return np.asarray(acc, x.dtype)


def _square_impl(x):
    """`x * x`; complex as JAX lowers it, `(a - b)(a + b) + 2ab i` (numpy's square rounds
    `a a - b b`), the real part 0 where `|a| = |b|` is finite (no `0 * inf` overflow)."""
    if x.dtype.kind != "c":
        return np.square(x)
    out = np.empty(x.shape, x.dtype)
    a, b = x.real, x.imag
    re = np.where((np.abs(a) == np.abs(b)) & np.isfinite(a), 0, (a - b) * (a + b))
    out.real, out.imag = re, (a * b) * 2
    return out


square_p = unop("square", _errstate(_square_impl), _NUM)
defjvp(square_p, lambda g, x: mul(g, mul(_const(x, 2), x)))  # JAX's: 2x, not x + x

integer_pow_p = Primitive("integer_pow", elementwise=True)
integer_pow_p.def_impl(_integer_pow_impl)
integer_pow_p.def_abstract_eval(lambda x, *, y: x)
batching.broadcast_batcher(integer_pow_p)


def _integer_pow_jvp(g, x, *, y):
    if y in (0, 1):  # a constant, or x itself
        return full_like(g, 0) if y == 0 else g
    # d(x**y) = y * x**(y - 1) dx, with x**1 taken as x itself (no primitive).
    factor = _const(x, y)
    lower_power = x if y == 2 else integer_pow(x, y - 1)
    return mul(g, mul(factor, lower_power))


defjvp(integer_pow_p, _integer_pow_jvp)


# ---------------------------------------------------------------------------------------------
# Comparison, logic and bits (no derivatives)

eq_p = binop("eq", np.equal, out_dtype=dtypes.bool_)
ne_p = binop("ne", np.not_equal, out_dtype=dtypes.bool_)
lt_p = binop("lt", _errstate(np.less), out_dtype=dtypes.bool_)
le_p = binop("le", _errstate(np.less_equal), out_dtype=dtypes.bool_)
gt_p = binop("gt", _errstate(np.greater), out_dtype=dtypes.bool_)
ge_p = binop("ge", _errstate(np.greater_equal), out_dtype=dtypes.bool_)
and_p = binop("and", np.bitwise_and, _INT)
or_p = binop("or", np.bitwise_or, _INT)
xor_p = binop("xor", np.bitwise_xor, _INT)
not_p = unop("not", np.invert, _INT)


def _shift_left_impl(x, y):
    bits = x.dtype.itemsize * 8
    out = np.left_shift(x, np.minimum(y, bits - 1).astype(x.dtype))
    return np.where((y < 0) | (y >= bits), np.zeros_like(x), out)


def _shift_right_logical_impl(x, y):
    bits = x.dtype.itemsize * 8
    ux = x.view(np.dtype(f"u{x.dtype.itemsize}"))
    out = np.right_shift(ux, np.minimum(y, bits - 1).astype(ux.dtype)).view(x.dtype)
    return np.where((y < 0) | (y >= bits), np.zeros_like(x), out)


def _shift_right_arithmetic_impl(x, y):
    bits = x.dtype.itemsize * 8
    sx = x.view(np.dtype(f"i{x.dtype.itemsize}"))
    amount = np.where((y < 0) | (y >= bits), bits - 1, y)  # out of range: the sign fills
    return np.right_shift(sx, amount.astype(sx.dtype)).view(x.dtype)


shift_left_p = binop("shift_left", _shift_left_impl, "iu")
shift_right_logical_p = binop("shift_right_logical", _shift_right_logical_impl, "iu")
shift_right_arithmetic_p = binop("shift_right_arithmetic", _shift_right_arithmetic_impl, "iu")


def _population_count_impl(x):
    # np.bitwise_count counts the bits of |x|; XLA counts the two's-complement bits.
    unsigned = x.view(np.dtype(f"u{x.dtype.itemsize}")) if x.dtype.kind == "i" else x
    return np.bitwise_count(unsigned).astype(x.dtype)


population_count_p = unop("population_count", _population_count_impl, "iu")
for _p in (
    eq_p,
    ne_p,
    lt_p,
    le_p,
    gt_p,
    ge_p,
    and_p,
    or_p,
    xor_p,
    not_p,
    shift_left_p,
    shift_right_logical_p,
    shift_right_arithmetic_p,
    population_count_p,
):
    defjvp_zero(_p)


del _p

# ---------------------------------------------------------------------------------------------
# select_n: out = cases[which] elementwise (which is bool or int32)

select_n_p = Primitive("select_n", elementwise=True)


def _select_n_impl(which, *cases):
    if which.dtype == np.bool_:
        if len(cases) == 1:
            return cases[0].copy()
        return _blend(which, cases[1], cases[0])
    return np.choose(np.clip(which, 0, len(cases) - 1), cases)


def _blend(which: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`np.where(which, a, b)`. numpy's `where` branches per element: on large arrays with an
    unpredictable mask (relu, selu) it is 6x slower than this branchless bit blend (same bits)."""
    if a.size < 4096 or which.shape != a.shape or a.dtype.itemsize not in (1, 2, 4, 8):
        return np.where(which, a, b)
    u = np.dtype(f"u{a.dtype.itemsize}")
    mask = which.astype(u)
    np.negative(mask, out=mask)  # all ones where `which`
    a_bits, b_bits = np.ascontiguousarray(a).view(u), np.ascontiguousarray(b).view(u)
    out = np.bitwise_xor(a_bits, b_bits)
    out &= mask
    out ^= b_bits
    return out.view(a.dtype)


def _select_n_abstract_eval(which, *cases):
    # JAX's shape rule, then its dtype rule (their messages)
    if any(c.shape != cases[0].shape for c in cases):
        shapes = ", ".join(str(c.shape) for c in cases)
        raise ShapeError(f"select cases must have the same shapes, got [{shapes}].")
    if which.shape and which.shape != cases[0].shape:  # a rank-0 predicate picks for all
        raise ShapeError(
            "select `which` must be scalar or have the same shape as cases, got `which` shape "
            f"{which.shape} but case shape {cases[0].shape}."
        )
    check_same_dtypes("select", [c.dtype for c in cases], "where")
    if dtypes.kind(which.dtype) not in "biu":
        raise DTypeError(f"select `which` must be boolean or integer type, got {which.dtype}.")
    if which.dtype == np.bool_ and len(cases) > 2:
        raise DTypeError("select with boolean `which` cannot have > 2 cases.")
    return ShapedArray(cases[0].shape, cases[0].dtype, all(c.weak_type for c in cases))


def _select_n_jvp(primals, tangents):
    which, *cases = primals
    out = select_n(which, *cases)
    case_ts = tangents[1:]
    if all(type(t) is Zero for t in case_ts):
        return out, Zero(get_aval(out))
    return out, select_n(which, *[instantiate(t) for t in case_ts])


def _select_n_transpose(ct, which, *cases):
    zeros = full_like(ct, 0)
    outs = [None]
    for i, c in enumerate(cases):
        if is_undefined(c):
            picks = [zeros] * len(cases)
            picks[i] = ct
            outs.append(select_n(which, *picks))
        else:
            outs.append(None)
    return outs


def _select_n_batch(args, dims):
    """JAX's `_select_batch_rule`: a rank-0 predicate stays rank-0 while it is the same for
    every example, and is broadcast to the cases' shape once it is batched."""
    (which, *cases), (wd, *cds) = args, dims
    size = batching.batch_size(args, dims)
    case_shape = get_aval(cases[0]).shape
    if all(d == wd for d in cds):
        if get_aval(which).shape != case_shape:  # each example's predicate is rank-0
            which = broadcast_in_dim(which, case_shape, (wd,))
        return select_n_p.bind(which, *cases), wd
    if not get_aval(which).shape and all(d is not None for d in cds):
        return select_n_p.bind(
            which, *[batching.moveaxis(c, d, cds[0], size) for c, d in zip(cases, cds)]
        ), cds[0]
    if get_aval(which).shape:
        which = batching.moveaxis(which, wd, 0, size)
    if any(get_aval(c).shape for c in cases):
        cases = [batching.moveaxis(c, d, 0, size) for c, d in zip(cases, cds)]
    shape = get_aval(cases[0]).shape
    if 0 < get_aval(which).ndim < len(shape):  # each example's predicate is rank-0
        which = broadcast_in_dim(which, shape, (0,))
    elif get_aval(which).ndim > len(shape):  # rank-0 unbatched cases
        cases = [broadcast_in_dim(c, get_aval(which).shape, ()) for c in cases]
    return select_n_p.bind(which, *cases), 0


select_n_p.def_impl(_select_n_impl)
select_n_p.def_abstract_eval(_select_n_abstract_eval)
select_n_p.def_jvp(_select_n_jvp)
select_n_p.def_transpose(_select_n_transpose)
select_n_p.linear = True  # in the cases
select_n_p.def_batch(_select_n_batch)


# ---------------------------------------------------------------------------------------------
# clamp: `x` limited to [lo, hi] as XLA computes it, min(max(x, lo), hi) (NaN stays NaN, and
# lo > hi gives hi); rank-0 bounds broadcast

clamp_p = Primitive("clamp", dtype_kinds=_NUM + "b", elementwise=True)
clamp_p.broadcasting = True  # rank-0 bounds; `core/jit/canonical.py` widens them


def _clamp_impl(lo, x, hi):
    return min_p.impl(max_p.impl(x, lo), hi)


def _clamp_abstract_eval(lo, x, hi):
    for name, b in (("min", lo), ("max", hi)):
        if b.shape and b.shape != x.shape:
            raise ShapeError(
                f"clamp requires {name}.shape == operand.shape or {name}.shape == (), got "
                f"{name}.shape={b.shape}, operand.shape={x.shape}."
            )
    check_same_dtypes("clamp", [lo.dtype, x.dtype, hi.dtype])
    return ShapedArray(x.shape, x.dtype, lo.weak_type and x.weak_type and hi.weak_type)


def _clamp_jvp_bound(strictly):
    """The tangent of a bound where it is strictly the result (JAX's rule: at a bound,
    nobody's)."""

    def jvp(g, lo, x, hi):
        shape = get_aval(x).shape
        g = broadcast_in_dim(g, shape, ()) if get_aval(g).shape != shape else g
        return select(strictly(lo, x, hi), g, full_like(x, 0))

    return jvp


def _clamp_batch(args, dims, **params):
    """JAX's batch rule of clamp: rank-0 bounds stay scalars where they can, other operands
    move their batch axis to the front and bounds of rank 1 (the batch axis) widen to x's
    shape."""
    lo, x, hi = args
    lo_d, x_d, hi_d = dims
    shape = lambda v: get_aval(v).shape  # noqa: E731
    size = next(shape(a)[d] for a, d in zip(args, dims) if d is not None)
    if lo_d == x_d == hi_d:
        if shape(lo) == shape(x) == shape(hi) or len(shape(lo)) == len(shape(hi)) == 0:
            return clamp_p.bind(lo, x, hi), x_d
        if len(shape(lo)) == len(shape(hi)) == 1:
            lo = broadcast_in_dim(lo, shape(x), (lo_d,))
            hi = broadcast_in_dim(hi, shape(x), (hi_d,))
            return clamp_p.bind(lo, x, hi), x_d
    elif not shape(lo) and not shape(hi) and x_d is not None:
        return clamp_p.bind(lo, x, hi), x_d
    lo = batching.bdim_at_front(lo, lo_d, size) if shape(lo) else lo
    hi = batching.bdim_at_front(hi, hi_d, size) if shape(hi) else hi
    x = batching.bdim_at_front(x, x_d, size) if shape(x) else x
    if not shape(lo) and shape(x):
        lo = broadcast_in_dim(lo, shape(x), ())
    if not shape(hi) and shape(x):
        hi = broadcast_in_dim(hi, shape(x), ())
    if 0 < len(shape(lo)) < len(shape(x)):
        lo = broadcast_in_dim(lo, shape(x), (0,))
    if 0 < len(shape(hi)) < len(shape(x)):
        hi = broadcast_in_dim(hi, shape(x), (0,))
    if len(shape(lo)) > len(shape(x)):
        x = broadcast_in_dim(x, shape(lo), ())
    return clamp_p.bind(lo, x, hi), 0


clamp_p.def_impl(_clamp_impl)
clamp_p.def_abstract_eval(_clamp_abstract_eval)
clamp_p.def_batch(_clamp_batch)
defjvp(
    clamp_p,
    _clamp_jvp_bound(lambda lo, x, hi: bitwise_and(gt(lo, x), lt(lo, hi))),
    lambda g, lo, x, hi: select(bitwise_and(gt(x, lo), lt(x, hi)), g, full_like(x, 0)),
    _clamp_jvp_bound(lambda lo, x, hi: lt(hi, x)),
)


def clamp(lo: Any, x: Any, hi: Any) -> Any:
    """`lax.clamp`: `x` limited to `[lo, hi]` elementwise (rank-0 bounds broadcast)."""
    return clamp_p.bind(lo, x, hi)


# ---------------------------------------------------------------------------------------------
# Complex parts: real/imag take a complex array apart, complex builds one (no arithmetic, so
# infinities and NaNs stay in their own part, as in XLA)


def _part_dtype(dtype: np.dtype) -> np.dtype:
    return np.dtype(np.float64 if dtype == np.complex128 else np.float32)


def _complex_dtype(dtype: np.dtype) -> np.dtype:
    """The complex dtype of a float or complex `dtype`'s precision (complex128 for float64 and
    complex128, else complex64)."""
    return np.dtype(np.complex128 if dtype in (np.float64, np.complex128) else np.complex64)


def _part(name: str, np_fn) -> Primitive:
    prim = Primitive(name, elementwise=True)

    def abstract_eval(x):
        if x.dtype.kind != "c":
            reject_dtype(name, x.dtype, "c")
        return ShapedArray(x.shape, _part_dtype(x.dtype), x.weak_type)

    prim.def_impl(lambda x: np.array(np_fn(x)))  # a copy, not a strided view
    prim.def_abstract_eval(abstract_eval)
    batching.broadcast_batcher(prim)
    prim.linear = True
    return prim


real_p = _part("real", np.real)
defjvp(real_p, lambda g, x: real_p.bind(g))
# JAX's transposes pair the cotangent with a strongly typed zero: a strong complex result
real_p.def_transpose(lambda ct, x: [complex_p.bind(ct, full_like(ct, 0, get_aval(ct).dtype))])

imag_p = _part("imag", np.imag)
defjvp(imag_p, lambda g, x: imag_p.bind(g))
imag_p.def_transpose(lambda ct, x: [complex_p.bind(full_like(ct, 0, get_aval(ct).dtype), neg(ct))])

complex_p = Primitive("complex", elementwise=True)


def _complex_impl(x, y):
    out = np.empty(x.shape, _complex_dtype(x.dtype))
    out.real, out.imag = x, y
    return out


def _complex_abstract_eval(x, y):
    _check_same("complex", (x, y))
    if x.dtype not in (np.float32, np.float64):  # no complex32: half floats raise, as in JAX
        raise DTypeError(
            f"complex does not accept dtype {x.dtype} at position 0. Accepted dtypes at "
            "position 0 are subtypes of float32, float64.\nConvert the operands with "
            "`x.astype(jnp.float32)` first."
        )
    return ShapedArray(x.shape, _complex_dtype(x.dtype), x.weak_type and y.weak_type)


def _complex_transpose(ct, x, y):
    return [
        real_p.bind(ct) if is_undefined(x) else None,
        neg(imag_p.bind(ct)) if is_undefined(y) else None,
    ]


complex_p.def_impl(_complex_impl)
complex_p.def_abstract_eval(_complex_abstract_eval)
complex_p.def_transpose(_complex_transpose)
batching.broadcast_batcher(complex_p)
complex_p.linear = True
defjvp(
    complex_p,
    lambda g, x, y: complex_p.bind(g, full_like(g, 0)),
    lambda g, x, y: complex_p.bind(full_like(g, 0), g),
)

# ---------------------------------------------------------------------------------------------
# The lax-style wrappers: operands of one shape and dtype, except that a Python scalar becomes
# an array of the other operand's dtype.


_SCALARS = (int, float, bool, complex)


def _operands(*args: Any) -> Any:
    """The operands of a lax binary function: Python scalars become rank-0 arrays of the
    other operand's dtype (which the primitive broadcasts, as `lax.mul(x, 2.0)` stages
    `mul a 2.0:f32[]` in JAX)."""
    if not any(type(a) in _SCALARS for a in args):
        return args
    ref = next((a for a in args if not isinstance(a, _SCALARS)), None)
    if ref is None:
        return list(args)
    return [full_like(ref, a, shape=()) if isinstance(a, _SCALARS) else a for a in args]


def _binds(prim: Primitive) -> Callable[[Callable], Callable]:
    """Marks a wrapper as binding `prim`: `core.lax.checked` reads the primitive's facts
    (its `dtype_kinds`) through `fn.primitive`."""

    def mark(fn: Callable) -> Callable:
        fn.primitive = prim
        return fn

    return mark


@_binds(add_p)
def add(x: Any, y: Any) -> Any:
    """Elementwise `x + y`."""
    return add_p.bind(*_operands(x, y))


def add_any(x: Any, y: Any) -> Any:
    """`x + y` of two tangents or cotangents of one shape (JAX's `add_any`)."""
    return add_any_p.bind(x, y)


def eye(n: int, m: int, k: int, dtype: Any) -> Any:
    """JAX's `lax._eye`: ones on the `k`-th diagonal of an `(n, m)` array of `dtype`, a constant
    when evaluated and staged as an iota comparison under a trace (`jnp.eye`, the basis of
    `jacfwd`/`jacrev`).

    Args:
      n: the number of rows.
      m: the number of columns.
      k: the diagonal (positive: above the main one).
      dtype: the dtype (strongly typed).

    Returns:
      The array.
    """
    if current_trace() is eval_trace:
        return Array(np.eye(n, m, k, dtype=dtype))
    rows, cols = iota(dtypes.int32, (n, m), 0), iota(dtypes.int32, (n, m), 1)
    return convert_element_type(eq(add(rows, Array(np.int32(k))), cols), dtype)


@_binds(sub_p)
def sub(x: Any, y: Any) -> Any:
    """Elementwise `x - y`."""
    return sub_p.bind(*_operands(x, y))


@_binds(mul_p)
def mul(x: Any, y: Any, out_dtype: Any = None) -> Any:
    """Elementwise `x * y`; given `out_dtype`, the operands (of any dtypes) are converted to it
    first (JAX's `out_dtype` parameter, None in every `mul` equation but those)."""
    return mul_p.bind(*_operands(x, y), out_dtype=out_dtype)


@_binds(div_p)
def div(x: Any, y: Any) -> Any:
    """Elementwise `x / y` (integers: rounded toward zero, as C)."""
    return div_p.bind(*_operands(x, y))


def div_like_xla(x: Any, y: Any, y_shape: tuple[int, ...] | None) -> Any:
    """`div(x, y)` rounded as JAX's eager `jnp` functions (XLA programs) round it.

    XLA's algebraic simplifier multiplies by the reciprocal where the divisor is a broadcast or
    a constant (`A / Broadcast(B) => A * Broadcast(1 / B)`, `A / C => A * (1 / C)`): `x / 100`
    for an array `x` and `jnp.mean`'s division by the count are `x * (1 / 100)`, so 15 / 100 is
    0.14999999 where numpy's division gives 0.15. Eagerly (no tracer) this does the same; a
    traced division is left to the kernel (and its derivative to `div`'s rule). XLA's CPU
    backend computes bfloat16 arithmetic in float32 (rounding once, to bfloat16, at the end),
    where the reciprocal's product rounds as the division does (`x / 3` of 5 is 1.6640625, not
    `5 * bf16(1 / 3)` = 1.671875): bfloat16 divides.

    Args:
      x: the dividend, of the result's shape or broadcasting to it (`Primitive.broadcasting`).
      y: the divisor, of the result's shape or broadcasting to it.
      y_shape: the divisor's shape before broadcasting; None for a constant (a count).

    Returns:
      `x / y`.
    """
    aval = get_aval(x)
    try:
        shape = np.broadcast_shapes(aval.shape, get_aval(y).shape)
    except ValueError:
        return div(x, y)  # operands that do not broadcast: div's error, JAX's
    if (
        dtypes.kind(aval.dtype) == "f"
        and aval.dtype != dtypes.bfloat16
        and not isinstance(x, Tracer)
        and not isinstance(y, Tracer)
        and (y_shape is None or tuple(y_shape) != shape)
    ):
        return mul(x, div(full_like(y, 1), y))
    return div(x, y)


def mul_like_xla(x: Any, y: Any) -> Any:
    """`mul(x, y)` rounded as JAX's eager `jnp` functions (XLA programs) round it.

    XLA's CPU loop over a complex product whose right operand is broadcast along the minor
    axis (a scalar, a column `(n, 1)`) computes it with the operands swapped: the imaginary part
    is `fma(ar, bi, ai br)` there, `fma(ai, br, ar bi)` elsewhere (`_mul_impl`). Eagerly (no
    tracer) this binds `mul(y, x)` in that case; under `jit` the compiler swaps them
    (`core.jit.simplify.swap_complex_products`).

    Args:
      x: the left operand, of the result's rank (or a scalar).
      y: the right operand, of the result's rank (or a scalar).

    Returns:
      `x * y`.
    """
    xs, ys = get_aval(x).shape, get_aval(y).shape
    if (
        dtypes.kind(get_aval(x).dtype) == "c"
        and any(d != 1 for d in xs[-1:] + ys[-1:])  # the result's minor axis is not 1
        and (not ys or ys[-1] == 1)
        and not isinstance(x, Tracer)
        and not isinstance(y, Tracer)
    ):
        return mul(y, x)
    return mul(x, y)


@_binds(rem_p)
def rem(x: Any, y: Any) -> Any:
    """Elementwise remainder of `x / y`, with the sign of `x` (C's fmod)."""
    return rem_p.bind(*_operands(x, y))


@_binds(pow_p)
def pow(x: Any, y: Any) -> Any:  # noqa: A001
    """Elementwise `x ** y`."""
    return pow_p.bind(*_operands(x, y))


@_binds(max_p)
def max(x: Any, y: Any) -> Any:  # noqa: A001
    """Elementwise the larger of `x` and `y` (NaN if either is)."""
    return max_p.bind(*_operands(x, y))


@_binds(min_p)
def min(x: Any, y: Any) -> Any:  # noqa: A001
    """Elementwise the smaller of `x` and `y` (NaN if either is)."""
    return min_p.bind(*_operands(x, y))


@_binds(atan2_p)
def atan2(x: Any, y: Any) -> Any:
    """Elementwise `arctan(x / y)` in the quadrant of the point `(y, x)`."""
    return atan2_p.bind(*_operands(x, y))


@_binds(eq_p)
def eq(x: Any, y: Any) -> Any:
    """Elementwise `x == y`."""
    return eq_p.bind(*_operands(x, y))


@_binds(ne_p)
def ne(x: Any, y: Any) -> Any:
    """Elementwise `x != y`."""
    return ne_p.bind(*_operands(x, y))


@_binds(lt_p)
def lt(x: Any, y: Any) -> Any:
    """Elementwise `x < y`."""
    return lt_p.bind(*_operands(x, y))


@_binds(le_p)
def le(x: Any, y: Any) -> Any:
    """Elementwise `x <= y`."""
    return le_p.bind(*_operands(x, y))


@_binds(gt_p)
def gt(x: Any, y: Any) -> Any:
    """Elementwise `x > y`."""
    return gt_p.bind(*_operands(x, y))


@_binds(ge_p)
def ge(x: Any, y: Any) -> Any:
    """Elementwise `x >= y`."""
    return ge_p.bind(*_operands(x, y))


@_binds(and_p)
def bitwise_and(x: Any, y: Any) -> Any:
    """Elementwise `x & y` (logical and of bools)."""
    return and_p.bind(*_operands(x, y))


@_binds(or_p)
def bitwise_or(x: Any, y: Any) -> Any:
    """Elementwise `x | y` (logical or of bools)."""
    return or_p.bind(*_operands(x, y))


@_binds(xor_p)
def bitwise_xor(x: Any, y: Any) -> Any:
    """Elementwise `x ^ y` (logical xor of bools)."""
    return xor_p.bind(*_operands(x, y))


@_binds(shift_left_p)
def shift_left(x: Any, y: Any) -> Any:
    """Elementwise `x << y` (0 for shifts past the width)."""
    return shift_left_p.bind(*_operands(x, y))


@_binds(shift_right_logical_p)
def shift_right_logical(x: Any, y: Any) -> Any:
    """Elementwise `x >> y` filling with zeros (0 for shifts past the width)."""
    return shift_right_logical_p.bind(*_operands(x, y))


@_binds(shift_right_arithmetic_p)
def shift_right_arithmetic(x: Any, y: Any) -> Any:
    """Elementwise `x >> y` filling with the sign bit."""
    return shift_right_arithmetic_p.bind(*_operands(x, y))


@_binds(neg_p)
def neg(x: Any) -> Any:
    """Elementwise `-x`."""
    return neg_p.bind(x)


@_binds(sign_p)
def sign(x: Any) -> Any:
    """Elementwise the sign of `x`: -1, 0 or 1 (`x / |x|` for complex)."""
    return sign_p.bind(x)


@_binds(floor_p)
def floor(x: Any) -> Any:
    """Elementwise `x` rounded down."""
    return floor_p.bind(x)


@_binds(ceil_p)
def ceil(x: Any) -> Any:
    """Elementwise `x` rounded up."""
    return ceil_p.bind(x)


@_binds(is_finite_p)
def is_finite(x: Any) -> Any:
    """Elementwise whether `x` is neither infinite nor NaN."""
    return is_finite_p.bind(x)


@_binds(abs_p)
def abs(x: Any) -> Any:  # noqa: A001
    """Elementwise `|x|` (of a complex `x`: complex, see `core.lax.abs`)."""
    return abs_p.bind(x)


@_binds(exp_p)
def exp(x: Any, accuracy: Any = None) -> Any:
    """Elementwise `e ** x`; `accuracy` as JAX's (prims/options.py)."""
    if accuracy is not None:
        check_accuracy(accuracy)
    return exp_p.bind(x)


@_binds(exp2_p)
def exp2(x: Any, accuracy: Any = None) -> Any:
    """Elementwise `2 ** x`; `accuracy` as JAX's (prims/options.py)."""
    if accuracy is not None:
        check_accuracy(accuracy)
    return exp2_p.bind(x)


@_binds(log_p)
def log(x: Any, accuracy: Any = None) -> Any:
    """Elementwise the natural logarithm; `accuracy` as JAX's (prims/options.py)."""
    if accuracy is not None:
        check_accuracy(accuracy)
    return log_p.bind(x)


@_binds(log1p_p)
def log1p(x: Any, accuracy: Any = None) -> Any:
    """Elementwise `log(1 + x)`, exact for small `x`; `accuracy` as JAX's (prims/options.py)."""
    if accuracy is not None:
        check_accuracy(accuracy)
    return log1p_p.bind(x)


@_binds(expm1_p)
def expm1(x: Any, accuracy: Any = None) -> Any:
    """Elementwise `exp(x) - 1`, exact for small `x`; `accuracy` as JAX's (prims/options.py)."""
    if accuracy is not None:
        check_accuracy(accuracy)
    return expm1_p.bind(x)


@_binds(sqrt_p)
def sqrt(x: Any, accuracy: Any = None) -> Any:
    """Elementwise the square root; `accuracy` as JAX's (prims/options.py)."""
    if accuracy is not None:
        check_accuracy(accuracy)
    return sqrt_p.bind(x)


@_binds(rsqrt_p)
def rsqrt(x: Any, accuracy: Any = None) -> Any:
    """Elementwise `1 / sqrt(x)`; `accuracy` as JAX's (prims/options.py)."""
    if accuracy is not None:
        check_accuracy(accuracy)
    return rsqrt_p.bind(x)


@_binds(cbrt_p)
def cbrt(x: Any, accuracy: Any = None) -> Any:
    """Elementwise the cube root; `accuracy` as JAX's (prims/options.py)."""
    if accuracy is not None:
        check_accuracy(accuracy)
    return cbrt_p.bind(x)


@_binds(tanh_p)
def tanh(x: Any, accuracy: Any = None) -> Any:
    """Elementwise the hyperbolic tangent; `accuracy` as JAX's (prims/options.py)."""
    if accuracy is not None:
        check_accuracy(accuracy)
    return tanh_p.bind(x)


@_binds(logistic_p)
def logistic(x: Any, accuracy: Any = None) -> Any:
    """Elementwise the sigmoid `1 / (1 + exp(-x))`; `accuracy` as JAX's (prims/options.py)."""
    if accuracy is not None:
        check_accuracy(accuracy)
    return logistic_p.bind(x)


@_binds(sin_p)
def sin(x: Any, accuracy: Any = None) -> Any:
    """Elementwise the sine; `accuracy` as JAX's (prims/options.py)."""
    if accuracy is not None:
        check_accuracy(accuracy)
    return sin_p.bind(x)


@_binds(cos_p)
def cos(x: Any, accuracy: Any = None) -> Any:
    """Elementwise the cosine; `accuracy` as JAX's (prims/options.py)."""
    if accuracy is not None:
        check_accuracy(accuracy)
    return cos_p.bind(x)


@_binds(tan_p)
def tan(x: Any, accuracy: Any = None) -> Any:
    """Elementwise the tangent; `accuracy` as JAX's (prims/options.py)."""
    if accuracy is not None:
        check_accuracy(accuracy)
    return tan_p.bind(x)


@_binds(asin_p)
def asin(x: Any) -> Any:
    """Elementwise the inverse sine."""
    return asin_p.bind(x)


@_binds(acos_p)
def acos(x: Any) -> Any:
    """Elementwise the inverse cosine."""
    return acos_p.bind(x)


@_binds(atan_p)
def atan(x: Any) -> Any:
    """Elementwise the inverse tangent."""
    return atan_p.bind(x)


@_binds(sinh_p)
def sinh(x: Any) -> Any:
    """Elementwise the hyperbolic sine."""
    return sinh_p.bind(x)


@_binds(cosh_p)
def cosh(x: Any) -> Any:
    """Elementwise the hyperbolic cosine."""
    return cosh_p.bind(x)


@_binds(asinh_p)
def asinh(x: Any) -> Any:
    """Elementwise the inverse hyperbolic sine."""
    return asinh_p.bind(x)


@_binds(acosh_p)
def acosh(x: Any) -> Any:
    """Elementwise the inverse hyperbolic cosine."""
    return acosh_p.bind(x)


@_binds(atanh_p)
def atanh(x: Any) -> Any:
    """Elementwise the inverse hyperbolic tangent."""
    return atanh_p.bind(x)


@_binds(erf_p)
def erf(x: Any) -> Any:
    """Elementwise the error function."""
    return erf_p.bind(x)


@_binds(erf_inv_p)
def erf_inv(x: Any) -> Any:
    """Elementwise the inverse error function."""
    return erf_inv_p.bind(x)


@_binds(lgamma_p)
def lgamma(x: Any) -> Any:
    """Elementwise `log |Gamma(x)|`."""
    return lgamma_p.bind(x)


@_binds(digamma_p)
def digamma(x: Any) -> Any:
    """Elementwise the digamma function `d/dx lgamma(x)`."""
    return digamma_p.bind(x)


@_binds(not_p)
def bitwise_not(x: Any) -> Any:
    """Elementwise `~x` (logical not of bools)."""
    return not_p.bind(x)


@_binds(population_count_p)
def population_count(x: Any) -> Any:
    """Elementwise the number of set bits."""
    return population_count_p.bind(x)


@_binds(polygamma_p)
def polygamma(m: Any, x: Any) -> Any:
    """Elementwise polygamma function of order `m`: the `m`-th derivative of digamma."""
    return polygamma_p.bind(*_operands(m, x))


def stop_gradient_prim(x: Any) -> Any:
    """`x`, through which no derivative flows (the primitive of `core.lax.stop_gradient`)."""
    return stop_gradient_p.bind(x)


class RoundingMethod(enum.IntEnum):
    """`lax.RoundingMethod`: how `round` breaks ties."""

    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


def round(x: Any, rounding_method: int = RoundingMethod.AWAY_FROM_ZERO) -> Any:
    """Rounds to the nearest integer: method 0 away from zero, 1 to even (like lax.round)."""
    dt = dtypes.dtype_and_weak(x)[0]
    if dtypes.kind(dt) in "biu":  # JAX's lax.round takes inexact operands only
        reject_dtype("round", dt, "f")
    return round_p.bind(x, rounding_method=int(rounding_method))


def square(x: Any) -> Any:
    """`x * x` (JAX's `square` primitive)."""
    return square_p.bind(x)


def integer_pow(x: Any, y: int) -> Any:
    """`x ** y` for a static Python integer `y`.

    Raises:
      DTypeError: `x` is boolean, or an integer with a negative `y` (JAX's TypeErrors).
    """
    aval = get_aval(x)
    kind = dtypes.kind(aval.dtype)
    if kind == "b":
        reject_dtype("integer_pow", aval.dtype, "iufc")
    if kind in "iu" and int(y) < 0:
        raise DTypeError(
            f"Integers cannot be raised to negative powers, got integer_pow({aval}, {int(y)})\n"
            "Convert the base to a float first: `lax.integer_pow(x.astype(jnp.float32), y)`."
        )
    return integer_pow_p.bind(x, y=int(y))


def pow_integer_exponent(x: Any, y: Any) -> Any:
    """`x ** y` for an integer-valued exponent already cast to `x`'s dtype: the value of
    `pow`, with JAX's integer-exponent derivative (exactly 0 where `y == 0`, even at x = 0)."""
    return select_n(eq(y, full_like(y, 0)), pow(x, y), full_like(x, 1))


def select_n(which: Any, *cases: Any) -> Any:
    """`cases[which]` elementwise; `which` is a bool (two cases) or integer array (indices
    past the last case pick the last), or a scalar that picks one case for every element (as
    in JAX)."""
    if not cases:
        raise ValueError("select_n() must have at least one case")
    return select_n_p.bind(which, *_operands(*cases))  # a rank-0 `which` picks for all


def select(pred: Any, on_true: Any, on_false: Any) -> Any:
    """`lax.select`: `on_true` where `pred` else `on_false`."""
    return select_n(pred, on_false, on_true)


def full_like(x: Any, fill_value: Any, dtype: Any = None, shape: Any = None) -> Any:
    """`lax.full_like`: `fill_value` in the shape and dtype of `x` (or the given ones); the
    result is weakly typed when `x` is and no `dtype` is given."""
    aval = get_aval(x)
    shape = aval.shape if shape is None else tuple(shape)
    if dtype is None:  # `x`'s dtype as it is (64 bits made in an `enable_x64` block stay)
        filled = full(shape, fill_value, aval.dtype, aval.weak_type, exact_dtype=True)
        return varying_like(filled, aval)
    return varying_like(full(shape, fill_value, dtypes.canonicalize_dtype(dtype), False), aval)
