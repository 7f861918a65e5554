"""Special functions of `jax.lax` written as compositions of primitives, with custom derivatives.

* `igamma`/`igammac` (regularized incomplete gamma P and Q): the power series for P when
  `x < 1 or x < a`, the continued fraction for Q otherwise (Cephes' split, as XLA does); the
  same loops also carry d/da for `igamma_grad_a` and `random_gamma_grad`.
* `betainc`: the continued fraction of DLMF 8.17.22 evaluated with the modified Lentz method,
  using the symmetry `I_x(a, b) = 1 - I_{1-x}(b, a)` where it converges slowly.
* `erfc`: on float32 XLA's own (Cephes' erfcf, `_erfc_f32`); others `1 - erf(x)` near 0,
  `Q(1/2, x^2)` in the tails (no cancellation).
* `zeta`: Hurwitz zeta by Euler-Maclaurin summation (ten terms, then twelve Bernoulli terms).
* `bessel_i0e`/`bessel_i1e`: power series up to |x| = 15, the asymptotic series beyond.

Each is JAX's primitive (`igamma_p`, `igammac_p`, `igamma_grad_a_p`,
`regularized_incomplete_beta_p`, `zeta_p`, `bessel_i0e_p`, `bessel_i1e_p`, `erfc_p`), declared
by `elementwise.composed`: jaxprs print JAX's one equation, and eager calls and `jit` run the
composition. Loops are `while_loop`s over whole arrays until every element has converged
(elements that have converged stop changing), so they batch and lower to numba. Derivatives are
JAX's jvp rules: d/dx everywhere, d/da of igamma/igammac via `igamma_grad_a` (itself not
differentiable), none with respect to a and b of `betainc` (errors, as in JAX). `zeta` has
d/dq (JAX's primitive has no jvp at all) and raises for x. `random_gamma_grad`, which JAX
computes without a primitive, stays a `custom_jvp` function. As in JAX, igamma, igammac,
igamma_grad_a and betainc compute float16/bfloat16 operands in float32 (`_in_float32`).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any

import numpy as np

from core import dtypes
from core.custom_derivatives import custom_jvp
from core.errors import DTypeError, NumbaxError
from core.interpreters.jvp import defjvp, defjvp2
from core.numpy._util import promote_args_inexact
from core.prims import elementwise as ew
from core.prims import reductions as red
from core.prims import shapes
from core.prims.control_flow import while_loop
from core.trace import get_aval


def _args(name: str, *xs: Any, same: str | None = None) -> list[Any]:
    """Float arrays of one dtype (the promoting front door).
    Integers, bools and complex numbers raise JAX's TypeError (`jax.scipy.special` promotes
    integers before calling these); with `same` (JAX's primitive name) operands of different
    float dtypes do too, as JAX's primitive does (a Python float counts as float32)."""
    for i, x in enumerate(xs):
        dt = dtypes.dtype_and_weak(x)[0]
        if dtypes.kind(dt) != "f":
            at = f" at position {i}" if len(xs) > 1 else ""
            raise TypeError(
                f"{name} does not accept dtype {dtypes.canonicalize_dtype(dt)}{at}. Accepted "
                f"dtypes{at} are subtypes of floating."
            )
    dts = [dtypes.canonicalize_dtype(dtypes.dtype_and_weak(x)[0]) for x in xs]
    if same and len(set(dts)) > 1:
        raise DTypeError(
            f"lax.{same} requires arguments to have the same dtypes, got "
            f"{', '.join(map(str, dts))}.\nConvert them to one dtype first, "
            "or call jax.scipy.special's version, which promotes."
        )
    # the primitives broadcast rank-0 operands and size-1 axes, as JAX's do (operands of
    # other ranks get leading size-1 axes here; JAX's lax raises)
    return list(promote_args_inexact(name, *xs, lax_shapes=True))


def _quiet(fn):
    """Masked-out lanes may overflow or divide by zero eagerly; their results are discarded."""

    @functools.wraps(fn)
    def wrapper(*args):
        with np.errstate(all="ignore"):
            return fn(*args)

    return wrapper


def _in_float32(fn):
    """Run `fn` on float32 copies of float16/bfloat16 operands, as JAX lowers igamma, igammac,
    igamma_grad_a and betainc (`_up_and_broadcast`): the series and continued fractions lose
    too much in 16 bits. `ew.composed` converts the result back to the operands' dtype."""

    @functools.wraps(fn)
    def wrapper(*args):
        if np.dtype(get_aval(args[0]).dtype).itemsize == 2:
            args = [shapes.convert_element_type(x, np.float32) for x in args]
        return fn(*args)

    return wrapper


def _c(x: Any, v: float) -> Any:
    return ew.full_like(x, v)


def _any(pred: Any) -> Any:
    return red.reduce_or(pred, tuple(range(get_aval(pred).ndim)))


def _eps(x: Any) -> float:
    return float(dtypes.finfo(get_aval(x).dtype).eps)


def _isnan(x: Any) -> Any:
    return ew.ne(x, x)


def _or(*ps: Any) -> Any:
    out = ps[0]
    for p in ps[1:]:
        out = ew.bitwise_or(out, p)
    return out


# ---------------------------------------------------------------------------------------------
# Incomplete gamma


def _log_ax(a: Any, x: Any) -> Any:
    """`a log x - x - lgamma(a)`: the log of the common prefactor `x^a e^-x / Gamma(a)`."""
    return ew.sub(ew.sub(ew.mul(a, ew.log(x)), x), ew.lgamma(a))


def _series(ax: Any, x: Any, a: Any, enabled: Any, deriv: bool) -> Any:
    """P(a, x) = ax/a * sum_n x^n / ((a+1)...(a+n)); with `deriv`, d/da of it."""
    eps = _eps(x)

    def cond(v):
        return _any(v[0])

    def body(v):
        on, r, c, ans, dc, dans = v
        r2 = ew.add(r, _c(r, 1))
        dc2 = ew.sub(ew.mul(dc, ew.div(x, r2)), ew.div(ew.mul(c, x), ew.mul(r2, r2)))
        c2 = ew.mul(c, ew.div(x, r2))
        ans2, dans2 = ew.add(ans, c2), ew.add(dans, dc2)
        err = ew.abs(ew.div(dc2, dans2)) if deriv else ew.div(c2, ans2)
        keep = ew.bitwise_and(on, ew.gt(err, _c(err, eps)))
        return (
            keep,
            ew.select(on, r2, r),
            ew.select(on, c2, c),
            ew.select(on, ans2, ans),
            ew.select(on, dc2, dc),
            ew.select(on, dans2, dans),
        )

    one, zero = _c(a, 1), _c(a, 0)
    _, _, _, ans, _, dans = while_loop(cond, body, (enabled, a, one, one, zero, zero))
    if not deriv:
        return ew.div(ew.mul(ans, ax), a)
    dlogax = ew.sub(ew.log(x), ew.digamma(ew.add(a, one)))
    return ew.div(ew.mul(ax, ew.add(ew.mul(ans, dlogax), dans)), a)


def _continued_fraction(ax: Any, x: Any, a: Any, enabled: Any, deriv: bool) -> Any:
    """Q(a, x) by Legendre's continued fraction (Cephes igamc); with `deriv`, d/da of it."""
    eps = _eps(x)
    big = 1.0 / eps

    def cond(v):
        return _any(ew.bitwise_and(v[0], ew.lt(v[5], _c(v[5], 2000))))

    def body(v):
        on, ans, y, z, t, it, pkm1, qkm1, pkm2, qkm2, dpkm1, dqkm1, dpkm2, dqkm2, dans = v
        c = ew.add(it, _c(it, 1))
        y2, z2 = ew.add(y, _c(y, 1)), ew.add(z, _c(z, 2))
        yc = ew.mul(y2, c)
        pk = ew.sub(ew.mul(pkm1, z2), ew.mul(pkm2, yc))
        qk = ew.sub(ew.mul(qkm1, z2), ew.mul(qkm2, yc))
        nz = ew.ne(qk, _c(qk, 0))
        safe_qk = ew.select(nz, qk, _c(qk, 1))
        r = ew.div(pk, safe_qk)
        t2 = ew.select(nz, ew.abs(ew.div(ew.sub(ans, r), r)), _c(r, 1))
        ans2 = ew.select(nz, r, ans)
        dpk = ew.add(ew.sub(ew.sub(ew.mul(dpkm1, z2), pkm1), ew.mul(dpkm2, yc)), ew.mul(pkm2, c))
        dqk = ew.add(ew.sub(ew.sub(ew.mul(dqkm1, z2), qkm1), ew.mul(dqkm2, yc)), ew.mul(qkm2, c))
        dans2 = ew.select(nz, ew.div(ew.sub(dpk, ew.mul(ans2, dqk)), safe_qk), dans)
        gerr = ew.select(nz, ew.abs(ew.sub(dans2, dans)), _c(dans, 1))
        rescale = ew.gt(ew.abs(pk), _c(pk, big))

        def scaled(u):
            return ew.select(rescale, ew.mul(u, _c(u, eps)), u)

        new = [pk, qk, pkm1, qkm1, dpk, dqk, dpkm1, dqkm1]
        new = [scaled(u) for u in new]
        err = gerr if deriv else t2
        keep = ew.bitwise_and(on, ew.gt(err, _c(err, eps)))
        olds = [pkm1, qkm1, pkm2, qkm2, dpkm1, dqkm1, dpkm2, dqkm2]
        return (
            keep,
            ew.select(on, ans2, ans),
            ew.select(on, y2, y),
            ew.select(on, z2, z),
            ew.select(on, t2, t),
            c,
            *[ew.select(on, n, o) for n, o in zip(new, olds)],
            ew.select(on, dans2, dans),
        )

    one = _c(x, 1)
    y = ew.sub(one, a)
    z = ew.add(ew.add(x, y), one)
    pkm2, qkm2 = one, x
    pkm1, qkm1 = ew.add(x, one), ew.mul(z, x)
    ans = ew.div(pkm1, qkm1)
    zero = _c(x, 0)
    dqkm1 = ew.neg(x)
    dans = ew.div(ew.neg(ew.mul(ans, dqkm1)), qkm1)
    init = (enabled, ans, y, z, one, zero, pkm1, qkm1, pkm2, qkm2, zero, dqkm1, zero, zero, dans)
    out = while_loop(cond, body, init)
    ans, dans = out[1], out[14]
    if not deriv:
        return ew.mul(ans, ax)
    dlogax = ew.sub(ew.log(x), ew.digamma(a))
    return ew.mul(ax, ew.add(ew.mul(ans, dlogax), dans))


def _prefactor(a: Any, x: Any) -> tuple[Any, Any]:
    """`exp(log_ax)` (with log x of non-positive x made harmless) and its underflow mask."""
    safe_x = ew.select(ew.gt(x, _c(x, 0)), x, _c(x, 1))
    safe_a = ew.select(ew.gt(a, _c(a, 0)), a, _c(a, 1))
    lax_ = _log_ax(safe_a, safe_x)
    underflow = ew.lt(lax_, _c(lax_, -math.log(float(dtypes.finfo(get_aval(x).dtype).max))))
    return ew.exp(lax_), underflow


@_quiet
def _igamma_value(a: Any, x: Any) -> Any:
    zero = _c(x, 0)
    is_nan = _or(_isnan(a), _isnan(x))
    x_inf = ew.eq(x, _c(x, np.inf))
    x_zero = ew.eq(x, zero)
    domain = _or(ew.lt(x, zero), ew.lt(a, zero), ew.bitwise_and(ew.eq(a, zero), x_zero), is_nan)
    use_q = ew.bitwise_and(ew.ge(x, _c(x, 1)), ew.gt(x, a))
    ax, underflow = _prefactor(a, x)
    enabled = ew.bitwise_not(_or(x_zero, domain, underflow, x_inf, ew.eq(a, zero)))
    q = _continued_fraction(ax, x, a, ew.bitwise_and(enabled, use_q), False)
    p = _series(ax, x, a, ew.bitwise_and(enabled, ew.bitwise_not(use_q)), False)
    out = ew.select(use_q, ew.sub(_c(q, 1), q), p)
    out = ew.select(ew.bitwise_and(underflow, ew.bitwise_not(use_q)), zero, out)
    out = ew.select(ew.bitwise_and(underflow, use_q), _c(x, 1), out)
    out = ew.select(x_zero, zero, out)
    # a == 0: JAX's continued fraction gives 1 where x >= 1; its series divides its (underflowed)
    # sum by a, 0 / 0, so NaN for 0 < x < 1
    at_zero = ew.select(use_q, _c(x, 1), _c(x, np.nan))
    out = ew.select(ew.bitwise_and(ew.eq(a, zero), ew.gt(x, zero)), at_zero, out)
    out = ew.select(x_inf, _c(x, 1), out)
    return ew.select(domain, _c(x, np.nan), out)


@_quiet
def _igammac_value(a: Any, x: Any) -> Any:
    zero = _c(x, 0)
    is_nan = _or(_isnan(a), _isnan(x))
    x_inf = ew.eq(x, _c(x, np.inf))
    a_zero = ew.eq(a, zero)
    domain = _or(ew.lt(x, zero), ew.lt(a, zero), ew.bitwise_and(a_zero, ew.eq(x, zero)), is_nan)
    use_p = _or(ew.lt(x, _c(x, 1)), ew.lt(x, a))
    ax, underflow = _prefactor(a, x)
    enabled = ew.bitwise_not(_or(domain, underflow, x_inf, a_zero, ew.eq(x, zero)))
    p = _series(ax, x, a, ew.bitwise_and(enabled, use_p), False)
    q = _continued_fraction(ax, x, a, ew.bitwise_and(enabled, ew.bitwise_not(use_p)), False)
    out = ew.select(use_p, ew.sub(_c(p, 1), p), q)
    out = ew.select(ew.bitwise_and(underflow, use_p), _c(x, 1), out)
    out = ew.select(ew.bitwise_and(underflow, ew.bitwise_not(use_p)), zero, out)
    out = ew.select(ew.eq(x, zero), _c(x, 1), out)
    out = ew.select(_or(x_inf, a_zero), zero, out)
    return ew.select(domain, _c(x, np.nan), out)


@_quiet
def _igamma_deriv(a: Any, x: Any, sample: bool) -> Any:
    zero = _c(x, 0)
    is_nan = _or(_isnan(a), _isnan(x))
    x_zero = ew.eq(x, zero)
    domain = _or(ew.lt(x, zero), ew.le(a, zero))
    use_q = ew.bitwise_and(ew.gt(x, _c(x, 1)), ew.gt(x, a))
    ax, underflow = _prefactor(a, x)
    enabled = ew.bitwise_not(_or(x_zero, domain, underflow, is_nan))
    dq = _continued_fraction(ax, x, a, ew.bitwise_and(enabled, use_q), True)
    dp = _series(ax, x, a, ew.bitwise_and(enabled, ew.bitwise_not(use_q)), True)
    out = ew.select(use_q, ew.neg(dq), dp)
    if sample:
        # d sample / d a = -(dP/da) / (dP/dx), with dP/dx = x^(a-1) e^-x / Gamma(a) = ax / x.
        safe_ax = ew.select(ew.bitwise_or(underflow, x_zero), _c(x, 1), ax)
        out = ew.neg(ew.div(ew.mul(out, x), safe_ax))
    out = ew.select(ew.bitwise_or(x_zero, underflow), zero, out)
    return ew.select(ew.bitwise_or(domain, is_nan), _c(x, np.nan), out)


class IgammaGradientError(NumbaxError, ValueError):
    """`igamma_grad_a` and `random_gamma_grad` have no derivatives of their own (as in JAX).

    Failing code: ``grad(lambda a: lax.igamma_grad_a(a, 1.0))(2.0)``. Fix: differentiate
    ``lax.igamma`` once (its derivative is ``igamma_grad_a``); ``stop_gradient`` the rest.
    """


def _no_derivative(name: str):
    def jvp(*_):
        raise IgammaGradientError(
            f"{name} is not differentiable (JAX defines no derivative for it either); "
            "higher derivatives of igamma/igammac with respect to `a` are not available"
        )

    return jvp


@custom_jvp
def _random_gamma_grad(a: Any, x: Any) -> Any:
    return _igamma_deriv(a, x, True)


_random_gamma_grad.defjvp(_no_derivative("random_gamma_grad"))

# JAX's primitives: jaxprs print one `igamma`, ..., `jit` compiles the compositions
igamma_p = ew.composed("igamma", _in_float32(_igamma_value), 2, "f")
igammac_p = ew.composed("igammac", _in_float32(_igammac_value), 2, "f")
igamma_grad_a_p = ew.composed(
    "igamma_grad_a", _in_float32(lambda a, x: _igamma_deriv(a, x, False)), 2, "f"
)
igamma_grad_a_p.def_jvp(_no_derivative("igamma_grad_a"))


def _igamma_grada(g: Any, a: Any, x: Any) -> Any:
    return ew.mul(g, igamma_grad_a_p.bind(a, x))


def _igamma_gradx(g: Any, a: Any, x: Any) -> Any:
    # JAX's: g * exp(-x + (a - 1) * log(x) - lgamma(a))
    log_px = ew.sub(ew.add(ew.neg(x), ew.mul(ew.sub(a, _c(a, 1)), ew.log(x))), ew.lgamma(a))
    return ew.mul(g, ew.exp(log_px))


defjvp(igamma_p, _igamma_grada, _igamma_gradx)
defjvp(
    igammac_p,
    lambda g, a, x: ew.neg(_igamma_grada(g, a, x)),
    lambda g, a, x: ew.neg(_igamma_gradx(g, a, x)),
)


def igamma(a: Any, x: Any) -> Any:
    """`lax.igamma`: the regularized lower incomplete gamma function P(a, x).

    Differentiable in both arguments (d/da by `igamma_grad_a`, which itself is not
    differentiable, as in JAX).
    """
    return igamma_p.bind(*_args("igamma", a, x, same="igamma"))


def igammac(a: Any, x: Any) -> Any:
    """`lax.igammac`: the regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    return igammac_p.bind(*_args("igammac", a, x, same="igammac"))


def igamma_grad_a(a: Any, x: Any) -> Any:
    """`lax.igamma_grad_a`: dP(a, x)/da (differentiating it raises `IgammaGradientError`)."""
    return igamma_grad_a_p.bind(*_args("igamma_grad_a", a, x))


def random_gamma_grad(a: Any, x: Any) -> Any:
    """`lax.random_gamma_grad`: d(sample)/da of a Gamma(a) sample `x` (implicit derivative).

    Not differentiable itself (raises `IgammaGradientError`), as in JAX.
    """
    return _random_gamma_grad(*_args("random_gamma_grad", a, x))


# ---------------------------------------------------------------------------------------------
# erfc


# XLA's float32 erfc (its CHLO expansion, Cephes' erfcf), highest degree first: 1 - x P(x**2)
# for |x| < 1, else exp(-x**2) / |x| Q(1/x**2) (Q's coefficients switch at |x| = 2), 0 once x**2
# passes exp's range, and 2 minus that for x < 0
_ERFC_P = (7.85386146e-05, -0.000801019371, 0.00518832775, -0.0268538129, 0.112835854)
_ERFC_P += (-0.37612626, 1.12837911)
_ERFC_Q_NEAR = (0.0232682, -0.138703942, 0.368742466, -0.582473278, 0.621000469, -0.494451523)
_ERFC_Q_NEAR += (0.340488, -0.274112701, 0.563825965)
_ERFC_Q_FAR = (-10.477664, 12.9772, -7.49551868, 2.92101908, -1.01526523, 0.42184633)
_ERFC_Q_FAR += (-0.282076746, 0.564189494)


def _horner(x: Any, coeffs: tuple[float, ...]) -> Any:
    p = _c(x, coeffs[0])
    for c in coeffs[1:]:
        p = ew.add(ew.mul(p, x), _c(x, c))
    return p


def _erfc_f32(x: Any) -> Any:
    """XLA's float32 erfc, operation for operation: `jit` fuses its products into the adds as
    XLA's code does (bit for bit on JAX's); eagerly each operation rounds, a float32 ulp apart
    in places. Denormal results are flushed, as on XLA's threads."""
    ax = ew.abs(x)
    x2 = ew.mul(x, x)
    small = ew.sub(_c(x, 1), ew.mul(x, _horner(x2, _ERFC_P)))
    z = ew.div(_c(x, 1), x2)
    q = ew.select(ew.lt(ax, _c(x, 2)), _horner(z, _ERFC_Q_NEAR), _horner(z, _ERFC_Q_FAR))
    nx2 = ew.neg(x2)
    y = ew.mul(ew.mul(ew.exp(nx2), ew.div(_c(x, 1), ax)), q)
    tiny = float(dtypes.finfo(np.float32).tiny)
    y = ew.select(ew.lt(nx2, _c(x, -88.7228394)), _c(x, 0), y)
    y = ew.select(ew.lt(y, _c(x, tiny)), _c(x, 0), y)
    y = ew.select(ew.lt(x, _c(x, 0)), ew.sub(_c(x, 2), y), y)
    return ew.select(ew.lt(ax, _c(x, 1)), small, y)


# XLA's float64 erfc (its CHLO expansion, Cephes' erfc), highest degree first, the monic
# denominators with their leading 1: 1 - x T(x**2) / U(x**2) for |x| < 1, else
# exp(-x**2) P(|x|) / Q(|x|) below 8 and exp(-x**2) R(|x|) / S(|x|) beyond
_ERFC64_T = (9.6049737398705162, 90.026019720384269, 2232.0053459468431, 7003.3251411280507)
_ERFC64_T += (55592.301301039493,)
_ERFC64_U = (1.0, 33.561714164750313, 521.35794978015269, 4594.3238297098014)
_ERFC64_U += (22629.000061389095, 49267.394260863592)
_ERFC64_P = (2.4619698147353052e-10, 0.56418956483106886, 7.4632105644226989)
_ERFC64_P += (48.637197098568137, 196.5208329560771, 526.44519499547732, 934.52852717195765)
_ERFC64_P += (1027.5518868951572, 557.53533536939938)
_ERFC64_Q = (1.0, 13.228195115474499, 86.707214088598974, 354.93777888781989)
_ERFC64_Q += (975.70850174320549, 1823.9091668790973, 2246.3376081871097, 1656.6630919416134)
_ERFC64_Q += (557.53534081772773,)
_ERFC64_R = (0.56418958354775506, 1.275366707599781, 5.0190504225118051, 6.160210979930536)
_ERFC64_R += (7.4097426995044895, 2.9788666537210022)
_ERFC64_S = (1.0, 2.2605286322011726, 9.3960352493800148, 12.048953980809666)
_ERFC64_S += (17.081445074756591, 9.6089680906328585, 3.3690764510008151)


def _erfc_f64(x: Any) -> Any:
    """XLA's float64 erfc, operation for operation (`jit` fuses products into adds as XLA's
    code does; eagerly each operation rounds); 0 once -x**2 is below exp's range."""
    ax = ew.abs(x)
    x2 = ew.mul(x, x)
    small = ew.sub(_c(x, 1), ew.div(ew.mul(x, _horner(x2, _ERFC64_T)), _horner(x2, _ERFC64_U)))
    nx2 = ew.neg(x2)
    e = ew.exp(nx2)
    near = ew.div(ew.mul(e, _horner(ax, _ERFC64_P)), _horner(ax, _ERFC64_Q))
    far = ew.div(ew.mul(e, _horner(ax, _ERFC64_R)), _horner(ax, _ERFC64_S))
    y = ew.select(ew.lt(ax, _c(x, 8)), near, far)
    y = ew.select(ew.lt(nx2, _c(x, -709.782712893384)), _c(x, 0), y)
    y = ew.select(ew.lt(x, _c(x, 0)), ew.sub(_c(x, 2), y), y)
    return ew.select(ew.lt(ax, _c(x, 1)), small, y)


def _erfc(x: Any) -> Any:
    """erfc from the primitives: what `jit` compiles for the `erfc` primitive."""
    if get_aval(x).dtype == np.float32:
        return _erfc_f32(x)
    if get_aval(x).dtype == np.float64:
        return _erfc_f64(x)
    ax = ew.abs(x)
    small = ew.lt(ax, _c(x, 0.5))
    safe = ew.select(small, _c(x, 1), ax)
    q = _igammac_value(_c(x, 0.5), ew.mul(safe, safe))
    tail = ew.select(ew.lt(x, _c(x, 0)), ew.sub(_c(q, 2), q), q)
    return ew.select(small, ew.sub(_c(x, 1), ew.erf(x)), tail)


# JAX's primitive: jaxprs print one `erfc`, `jit` compiles its composition `_erfc`
erfc_p = ew.composed("erfc", _erfc, 1, "f")
defjvp(
    erfc_p,
    lambda g, x: ew.mul(
        ew.full_like(x, -2.0 / np.sqrt(np.pi), shape=()), ew.mul(g, ew.exp(ew.neg(ew.square(x))))
    ),
)


def erfc(x: Any) -> Any:
    """`lax.erfc`: the complementary error function `1 - erf(x)`, accurate in the tails."""
    return erfc_p.bind(*_args("erfc", x))


# ---------------------------------------------------------------------------------------------
# Regularized incomplete beta


@_quiet
def _betainc_value(a: Any, b: Any, x: Any) -> Any:
    """I_x(a, b) as JAX computes it: the continued fraction of DLMF 8.17.22 (of 1 - x, b and a
    where x >= (a + 1)/(a + b + 2)) by Lentz's algorithm, every element stepping until the last
    one converges (up to 200 steps, 600 in float64), times `x**a (1 - x)**b / (a B(a, b))`,
    then the edge values (0, 1 and NaN) selected in."""
    dt = get_aval(x).dtype
    shape = get_aval(x).shape
    small = _c(x, _eps(x) / 2)
    zero, one, two = _c(x, 0), _c(x, 1), _c(x, 2)
    inf = _c(x, np.inf)
    a_zero = _or(ew.eq(a, zero), ew.eq(b, inf))
    b_zero = _or(ew.eq(b, zero), ew.eq(a, inf))
    x_zero, x_one = ew.eq(x, zero), ew.eq(x, one)
    is_zero = _or(ew.bitwise_and(b_zero, ew.bitwise_not(x_one)), ew.bitwise_and(a_zero, x_zero))
    is_one = _or(ew.bitwise_and(a_zero, ew.bitwise_not(x_zero)), ew.bitwise_and(b_zero, x_one))
    is_nan = _or(
        ew.lt(a, zero),
        ew.lt(b, zero),
        ew.lt(x, zero),
        ew.gt(x, one),
        ew.bitwise_and(a_zero, b_zero),
        _or(_isnan(a), _isnan(b), _isnan(x)),
    )
    fast = ew.lt(x, ew.div(ew.add(a, one), ew.add(ew.add(a, b), two)))
    a, b = ew.select(fast, a, b), ew.select(fast, b, a)
    x = ew.select(fast, x, ew.sub(one, x))
    max_iter = 200 if dt == np.float32 else 600

    def numerator(it):
        """d_1 = 1, d_{2m+1} = -(a+m)(a+b+m)x / ((a+2m)(a+2m+1)) (`-(a+b)x / (a+1)` at m = 0),
        d_{2m} = m(b-m)x / ((a+2m-1)(a+2m))."""
        it = shapes.broadcast_in_dim(it, shape, ())
        m_int = ew.div(ew.sub(it, _c(it, 1)), _c(it, 2))
        m = shapes.convert_element_type(m_int, dt)
        two_m = ew.mul(two, m)
        first = ew.div(ew.mul(ew.neg(ew.add(a, b)), x), ew.add(a, one))
        even = ew.div(
            ew.mul(ew.mul(ew.neg(ew.add(a, m)), ew.add(ew.add(a, b), m)), x),
            ew.mul(ew.add(a, two_m), ew.add(ew.add(a, two_m), one)),
        )
        even = ew.select(ew.eq(m_int, _c(m_int, 0)), first, even)
        odd = ew.div(
            ew.mul(ew.mul(m, ew.sub(b, m)), x),
            ew.mul(ew.sub(ew.add(a, two_m), one), ew.add(a, two_m)),
        )
        out = ew.select(ew.eq(ew.rem(it, _c(it, 2)), _c(it, 0)), even, odd)
        return ew.select(ew.eq(it, _c(it, 1)), one, out)

    def cond(v):
        return ew.bitwise_and(ew.lt(v[0], _c(v[0], max_iter)), v[1])

    def body(v):
        it, _, c, d, h = v
        num = numerator(it)
        c = ew.add(one, ew.div(num, c))
        c = ew.select(ew.lt(ew.abs(c), small), small, c)
        d = ew.add(one, ew.mul(num, d))
        d = ew.div(one, ew.select(ew.lt(ew.abs(d), small), small, d))
        delta = ew.mul(c, d)
        unconverged = _any(ew.ge(ew.abs(ew.sub(delta, one)), small))
        return ew.add(it, _c(it, 1)), unconverged, c, d, ew.mul(h, delta)

    # The 0th partial denominator is 0, replaced by `small`; the others are 1.
    it0 = shapes.full((), 1, np.int32)
    start = (it0, shapes.full((), True, np.bool_), small, zero, small)
    cf = while_loop(cond, body, start)[4]
    lbeta_small_a = ew.sub(ew.lgamma(b), ew.lgamma(ew.add(a, b)))
    lbeta = ew.add(ew.lgamma(a), lbeta_small_a)
    log1m_x = ew.log1p(ew.neg(x))
    factor = ew.select(
        ew.lt(a, _c(x, float(dtypes.finfo(dt).tiny) * 2)),
        ew.exp(ew.sub(ew.mul(log1m_x, b), lbeta_small_a)),
        ew.div(ew.exp(ew.sub(ew.add(ew.mul(ew.log(x), a), ew.mul(log1m_x, b)), lbeta)), a),
    )
    result = ew.mul(cf, factor)
    result = ew.select(fast, result, ew.sub(one, result))
    result = ew.select(is_zero, zero, result)
    result = ew.select(is_one, one, result)
    return ew.select(is_nan, _c(x, np.nan), result)


class BetaincGradientError(NumbaxError, ValueError):
    """`betainc` has no derivative with respect to `a` or `b` (as in JAX).

    Failing code: ``grad(lambda a: lax.betainc(a, 2.0, 0.5))(1.0)``. Fix: differentiate with
    respect to ``x`` only; wrap ``a`` and ``b`` in ``lax.stop_gradient``.
    """


def _betainc_grad_ab(g: Any, a: Any, b: Any, x: Any) -> Any:
    raise BetaincGradientError(
        "Betainc gradient with respect to a and b not supported (as in JAX); wrap a and b "
        "in lax.stop_gradient or differentiate with respect to x only."
    )


def _betainc_gradx(g: Any, a: Any, b: Any, x: Any) -> Any:
    # JAX's: exp((b - 1) * log1p(-x) + (a - 1) * log(x) - lbeta) * g
    lbeta = ew.sub(ew.add(ew.lgamma(a), ew.lgamma(b)), ew.lgamma(ew.add(a, b)))
    one = ew.full_like(a, 1, shape=())
    log_dx = ew.add(ew.mul(ew.sub(b, one), ew.log1p(ew.neg(x))), ew.mul(ew.sub(a, one), ew.log(x)))
    return ew.mul(ew.exp(ew.sub(log_dx, lbeta)), g)


regularized_incomplete_beta_p = ew.composed(
    "regularized_incomplete_beta", _in_float32(_betainc_value), 3, "f"
)
defjvp(regularized_incomplete_beta_p, _betainc_grad_ab, _betainc_grad_ab, _betainc_gradx)


def betainc(a: Any, b: Any, x: Any) -> Any:
    """`lax.betainc`: the regularized incomplete beta function I_x(a, b).

    Differentiable with respect to `x` only; a tangent for `a` or `b` raises
    `BetaincGradientError`, as JAX does.
    """
    args = _args("betainc", a, b, x, same="regularized_incomplete_beta")
    return regularized_incomplete_beta_p.bind(*args)


# ---------------------------------------------------------------------------------------------
# Hurwitz zeta


# The Bernoulli numbers B_2, B_4, ..., B_24, exact (kept here so `import core` needs no scipy).
_BERNOULLI_EVEN = (
    Fraction(1, 6),
    Fraction(-1, 30),
    Fraction(1, 42),
    Fraction(-1, 30),
    Fraction(5, 66),
    Fraction(-691, 2730),
    Fraction(7, 6),
    Fraction(-3617, 510),
    Fraction(43867, 798),
    Fraction(-174611, 330),
    Fraction(854513, 138),
    Fraction(-236364091, 2730),
)


def _zeta_coefficients() -> list[float]:
    """(2k)! / B_2k for k = 1..12 (the Euler-Maclaurin denominators)."""
    return [float(math.factorial(2 * k) / b) for k, b in enumerate(_BERNOULLI_EVEN, start=1)]


_ZETA_A = _zeta_coefficients()


@_quiet
def _zeta_value(x: Any, q: Any) -> Any:
    dtype = get_aval(x).dtype
    if dtype.itemsize == 2:  # the Euler-Maclaurin coefficients overflow 16-bit floats
        up = [shapes.convert_element_type(v, np.float32) for v in (x, q)]
        return shapes.convert_element_type(_zeta_value(*up), dtype)
    zero, one = _c(x, 0), _c(x, 1)
    q_pos = ew.gt(q, zero)
    q_int = ew.eq(q, ew.floor(q))
    x_int = ew.eq(x, ew.floor(x))
    # a negative non-integer q with an integer order still sums (q + k)^-x, as XLA's zeta
    summed = ew.bitwise_or(q_pos, ew.bitwise_and(ew.bitwise_not(q_int), x_int))
    safe_q = ew.select(summed, q, one)
    s = zero
    a = safe_q
    b = zero
    for _ in range(10):  # s = sum_{k=0}^{9} (q + k)^-x
        b = ew.pow(a, ew.neg(x))
        s = ew.add(s, b)
        a = ew.add(a, one)
    w = ew.sub(a, one)
    s = ew.add(s, ew.div(ew.mul(b, w), ew.sub(x, one)))
    s = ew.sub(s, ew.mul(_c(x, 0.5), b))
    fac = one
    k = 0.0
    for coef in _ZETA_A:
        fac = ew.mul(fac, ew.add(x, _c(x, k)))
        b = ew.div(b, w)
        s = ew.add(s, ew.div(ew.mul(fac, b), _c(x, coef)))
        k += 1
        fac = ew.mul(fac, ew.add(x, _c(x, k)))
        b = ew.div(b, w)
        k += 1
    # XLA's order: x < 1 (nan), then q <= 0 (at integers: inf for even integer orders, else
    # nan), then x = 1 (the pole)
    half = ew.mul(x, _c(x, 0.5))
    x_even = ew.bitwise_and(ew.eq(half, ew.floor(half)), ew.lt(x, _c(x, np.inf)))
    pole = ew.bitwise_and(q_int, x_even)
    bad_q = ew.select(pole, _c(x, np.inf), _c(x, np.nan))
    out = ew.select(ew.lt(x, one), _c(x, np.nan), s)
    out = ew.select(ew.bitwise_not(summed), bad_q, out)
    return ew.select(ew.eq(x, one), _c(x, np.inf), out)


def zeta(x: Any, q: Any) -> Any:
    """`lax.zeta`: the Hurwitz zeta function `sum_k (q + k)^-x` (x > 1).

    Derivatives: with respect to q, `-x * zeta(x + 1, q)`; with respect to x, none (a tangent
    for x raises JAX's NotImplementedError; `jax.scipy.special.zeta` has both).
    """
    return zeta_p.bind(*_args("zeta", x, q, same="zeta"))


class ZetaGradientError(NumbaxError, NotImplementedError):
    """`lax.zeta` has no derivative with respect to its first argument (JAX's
    NotImplementedError and first line).

    Failing code: ``grad(lambda s: lax.zeta(s, 1.0))(3.0)``. Fix: use
    ``jax.scipy.special.zeta``, differentiable in both arguments, or ``lax.stop_gradient``
    the order.
    """


def _zeta_gradx(g: Any, x: Any, q: Any) -> Any:
    raise ZetaGradientError(
        "Differentiation rule for 'zeta' not implemented\n"
        "lax.zeta has no derivative in x (the order): use jax.scipy.special.zeta, "
        "differentiable in both arguments, or stop_gradient the order"
    )


zeta_p = ew.composed("zeta", _zeta_value, 2, "f")
defjvp(
    zeta_p,
    _zeta_gradx,
    lambda g, x, q: ew.mul(g, ew.mul(ew.neg(x), zeta_p.bind(ew.add(x, _c(x, 1)), q))),
)


@_quiet
def polygamma_composition(n: Any, x: Any) -> Any:
    """`lax.polygamma` as XLA expands it (CHLO's): `digamma(x)` at n = 0, else
    `(2 (n mod 2) - 1) exp(lgamma(n + 1)) zeta(n + 1, x)` (so negative non-integer x gets the
    zeta sum's value, as in JAX), NaN for a negative or non-integer n.

    Args:
      n: the orders (floats of x's dtype and shape).
      x: the points.

    Returns:
      The polygamma values.
    """
    one, two, zero = _c(x, 1), _c(x, 2), _c(x, 0)
    sign = ew.sub(ew.mul(two, ew.rem(n, two)), one)
    n1 = ew.add(n, one)
    out = ew.mul(ew.mul(sign, ew.exp(ew.lgamma(n1))), zeta_p.bind(n1, x))
    out = ew.select(ew.eq(n, zero), ew.digamma(x), out)
    natural = ew.bitwise_and(ew.eq(n, ew.floor(n)), ew.ge(n, zero))
    return ew.select(natural, out, _c(x, np.nan))


ew.polygamma_expansion = polygamma_composition  # polygamma_p's composition (see there)


# ---------------------------------------------------------------------------------------------
# Exponentially scaled modified Bessel functions


# Cephes' Chebyshev coefficients of exp(-x) I0(x) and exp(-x) I1(x) / x on [0, 8] (in y = x/2 - 2)
# and of sqrt(x) exp(-x) I0(x), sqrt(x) exp(-x) I1(x) beyond (in y = 32/x - 2), float64's; float32
# sums the last 18 (I0 on [0, 8]), 17 (I1 on [0, 8]) and 7 (beyond), as JAX's and XLA's do
_I0E_NEAR = (
    -4.4153416464793395e-18, 3.3307945188222384e-17, -2.4312798465479549e-16,
    1.7153912855551331e-15, -1.1685332877993451e-14, 7.6761854986049361e-14,
    -4.856446783111929e-13, 2.95505266312964e-12, -1.7268262914415559e-11,
    9.675809035373237e-11, -5.1897956016352627e-10, 2.6598237246823866e-09,
    -1.300025009986248e-08, 6.0469950225419186e-08, -2.6707938539406119e-07,
    1.1173875391201037e-06, -4.4167383584587505e-06, 1.6448448070728896e-05,
    -5.754195010082104e-05, 0.00018850288509584165, -0.00057637557453858236,
    0.0016394756169413357, -0.0043243099950505759, 0.010546460394594998,
    -0.023737414805899471, 0.049305284239670712, -0.094901097048047639,
    0.17162090152220877, -0.3046826723431984, 0.67679527440947607,
)  # fmt: skip
_I0E_FAR = (
    -7.2331804878747538e-18, -4.8305044859441819e-18, 4.46562142029676e-17,
    3.4612228676974612e-17, -2.8276239805165836e-16, -3.425485619677219e-16,
    1.7725601330565263e-15, 3.8116806693526224e-15, -9.5548466988283073e-15,
    -4.1505693472872222e-14, 1.54008621752141e-14, 3.8527783827421426e-13,
    7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11,
    -3.1499165279632416e-11, 1.1889147107846439e-11, 4.94060238822497e-10,
    3.3962320257083865e-09, 2.266668990498178e-08, 2.0489185894690638e-07,
    2.8913705208347567e-06, 6.8897583469168245e-05, 0.0033691164782556943,
    0.80449041101410879,
)  # fmt: skip
_I1E_NEAR = (
    2.7779141127610464e-18, -2.111421214358166e-17, 1.5536319577362005e-16,
    -1.1055969477353862e-15, 7.6006842947354077e-15, -5.0421855047279118e-14,
    3.2237933659455748e-13, -1.9839743977649436e-12, 1.1736186298890901e-11,
    -6.6634897235020271e-11, 3.6255902815521172e-10, -1.8872497517228294e-09,
    9.3815373864957726e-09, -4.4450591287963281e-08, 2.0032947535521353e-07,
    -8.5687202646954547e-07, 3.4702513081376785e-06, -1.3273163656039436e-05,
    4.7815651075500542e-05, -0.00016176081582589674, 0.00051228595616857576,
    -0.0015135724506312532, 0.0041564229443128882, -0.010564084894626197,
    0.024726449030626516, -0.052945981208094989, 0.10264365868984709,
    -0.17641651835783406, 0.25258718644363365,
)  # fmt: skip
_I1E_FAR = (
    7.5172963108421052e-18, 4.4143483230717077e-18, -4.6503053684893586e-17,
    -3.2095259219934238e-17, 2.96262899764595e-16, 3.3082023109209285e-16,
    -1.8803547755107825e-15, -3.8144030724370075e-15, 1.0420276984128802e-14,
    4.272440016711951e-14, -2.1015418427726643e-14, -4.0835511110921974e-13,
    -7.1985517762459084e-13, 2.0356285441470896e-12, 1.4125807436613782e-11,
    3.2526035830154884e-11, -1.8974958123505413e-11, -5.5897434621965838e-10,
    -3.835380385964237e-09, -2.6314688468895196e-08, -2.5122362378702088e-07,
    -3.8825648088776906e-06, -0.00011058893876262371, -0.0097610974913614687,
    0.77857623501828011,
)  # fmt: skip
# how many of each table float32 sums (its tail)
_F32_TERMS = {_I0E_NEAR: 18, _I0E_FAR: 7, _I1E_NEAR: 17, _I1E_FAR: 7}


def _chebyshev(y: Any, coeffs: tuple[float, ...]) -> Any:
    """Cephes' chbevl: the Chebyshev series of `coeffs` (highest order first) at `y` by
    Clenshaw's recurrence b_k = y b_{k+1} - b_{k+2} + c_k, halved difference at the end."""
    if get_aval(y).dtype == np.float32:
        coeffs = coeffs[-_F32_TERMS[coeffs] :]
    b0, b1 = _c(y, coeffs[0]), _c(y, 0)
    b2 = b1
    for c in coeffs[1:]:
        b2, b1 = b1, b0
        b0 = ew.add(ew.sub(ew.mul(y, b1), b2), _c(y, c))
    return ew.mul(ew.sub(b0, b2), _c(y, 0.5))


@_quiet
def _bessel_ie(x: Any, order: int) -> Any:
    """`exp(-|x|) I_order(|x|)` for order 0 or 1 by Cephes' Chebyshev series (JAX's i0e and
    XLA's i1e): in y = |x|/2 - 2 up to 8 (times |x| for order 1), else in y = 32/|x| - 2 times
    rsqrt(|x|); 16-bit floats are computed in float32."""
    dtype = get_aval(x).dtype
    if dtype.itemsize == 2:
        up = _bessel_ie(shapes.convert_element_type(x, np.float32), order)
        return shapes.convert_element_type(up, dtype)
    near, far = (_I1E_NEAR, _I1E_FAR) if order else (_I0E_NEAR, _I0E_FAR)
    z = ew.abs(x)
    small = _chebyshev(ew.add(ew.mul(z, _c(x, 0.5)), _c(x, -2)), near)
    small = ew.mul(z, small) if order else small
    large = _chebyshev(ew.add(ew.div(_c(x, 32), z), _c(x, -2)), far)
    return ew.select(ew.le(z, _c(x, 8)), small, ew.mul(large, ew.rsqrt(z)))


def _i1e_value(x: Any) -> Any:
    return ew.mul(ew.sign(x), _bessel_ie(x, 1))


bessel_i0e_p = ew.composed("bessel_i0e", lambda x: _bessel_ie(x, 0), 1, "f")
bessel_i1e_p = ew.composed("bessel_i1e", _i1e_value, 1, "f")
defjvp2(
    bessel_i0e_p, lambda g, y, x: ew.mul(g, ew.sub(bessel_i1e_p.bind(x), ew.mul(ew.sign(x), y)))
)


def _i1e_jvp(g: Any, y: Any, x: Any) -> Any:
    # JAX's, with its guard of |x| <= eps (the limit 1/2 there)
    eps = _eps(x)
    not_tiny = ew.gt(ew.abs(x), ew.full_like(x, eps, shape=()))
    safe = ew.select(not_tiny, x, _c(x, eps))
    d = ew.sub(bessel_i0e_p.bind(safe), ew.mul(y, ew.add(ew.sign(safe), ew.integer_pow(safe, -1))))
    return ew.mul(g, ew.select(not_tiny, d, _c(x, 0.5)))


defjvp2(bessel_i1e_p, _i1e_jvp)


def bessel_i0e(x: Any) -> Any:
    """`lax.bessel_i0e`: `exp(-|x|) I0(x)`."""
    return bessel_i0e_p.bind(*_args("bessel_i0e", x))


def bessel_i1e(x: Any) -> Any:
    """`lax.bessel_i1e`: `exp(-|x|) I1(x)`."""
    return bessel_i1e_p.bind(*_args("bessel_i1e", x))
