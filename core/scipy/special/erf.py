"""The error function family: `erf`, `erfc`, `erfinv`, the scaled `erfcx` and Dawson's
integral `dawsn` (JAX's implementations: Cephes' series and Cody, Paciorek and Thacher's
rational approximations, with JAX's custom derivatives), and the Faddeeva function `wofz`
(Weideman's rational approximation, its coefficients computed here with numpy's FFT).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax
from core.custom_derivatives import custom_jvp
from core.numpy._util import check_arraylike, promote_args_inexact
from core.scipy.special._util import _dtype, _quiet


def erf(x: Any) -> Any:
    """The error function.

    Args:
      x: real input.

    Returns:
      `erf(x)`.
    """
    (x,) = promote_args_inexact("erf", x)
    return lax.erf(x)


def erfc(x: Any) -> Any:
    """The complementary error function `1 - erf(x)`, accurate in the tails.

    Args:
      x: real input.

    Returns:
      `erfc(x)`.
    """
    return lax.erfc(*promote_args_inexact("erfc", x))


def erfinv(x: Any) -> Any:
    """The inverse error function on `(-1, 1)` (`+-inf` at `+-1`, NaN outside).

    Args:
      x: real input.

    Returns:
      `y` with `erf(y) = x`.
    """
    (x,) = promote_args_inexact("erfinv", x)
    return lax.erf_inv(x)


@_quiet
def _erfcx_impl(x: Any, nterms: int) -> Any:
    # Above sqrt(log(max)) exp(x^2) overflows: the asymptotic series
    # erfcx(x) ~ P(1/x^2) / (sqrt(pi) x), P's coefficients (-1)^k (2k-1)!! / 2^k.
    coeffs = [7918.06640625, -1055.7421875, 162.421875, -29.53125, 6.5625, -1.875, 0.75, -0.5, 1.0]
    large = x > float(np.sqrt(np.log(jnp.finfo(x.dtype).max)))
    safe = jnp.where(large, jnp.ones_like(x), x)
    direct = jnp.exp(safe * safe) * lax.erfc(safe)
    t = 1.0 / (x * x)
    asymp = jnp.polyval(np.array(coeffs[-nterms:], dtype=x.dtype), t) / (x * math.sqrt(math.pi))
    return jnp.where(large, asymp, direct)


@custom_jvp
def _erfcx(x: Any) -> Any:
    if x.dtype == np.float64:
        return _erfcx_impl(x, 9)
    if x.dtype == np.float32:
        return _erfcx_impl(x, 5)
    return _erfcx_impl(x.astype(np.float32), 5).astype(x.dtype)


@_erfcx.defjvp
def _erfcx_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    ans = _erfcx(x)
    return ans, t * (2 * x * ans - 2.0 / math.sqrt(math.pi))


def erfcx(x: Any) -> Any:
    """The scaled complementary error function `exp(x^2) erfc(x)`; of a complex `x`, the
    Faddeeva function `wofz(i x)`, as JAX's.

    Args:
      x: real or complex values.

    Returns:
      `erfcx(x)`, finite for large `x` (an asymptotic series past `exp`'s overflow).
    """
    (x,) = promote_args_inexact("erfcx", x)
    if jnp.issubdtype(x.dtype, np.complexfloating):
        return _wofz(lax.complex(-jnp.imag(x), jnp.real(x)))
    return _erfcx(x)


# Cody, Paciorek and Thacher (1970): rational approximations on |x| < 3.25, < 6.25 and beyond.
_DAWSN_AN = [1.1368149897175597e-11, 8.492622676674738e-10, 1.9443420417555306e-08,
             9.531517412544844e-07, 3.078283098749132e-06, 0.00035251336852028877,
             -0.0008501498467244109, 0.04226182230055466, -0.09174803717734524, 1.0]  # fmt: skip
_DAWSN_AD = [2.403720730667626e-11, 1.488646813684934e-09, 5.212652810105416e-08,
             1.2725847827318697e-06, 2.324902498207895e-05, 0.00032552474182605793,
             0.003488058146571626, 0.027944853119882897, 0.15887424196012057,
             0.5749186294893204, 1.0]  # fmt: skip
_DAWSN_BN = [0.5089551564179009, -0.24475441814269785, 0.09415123353035344,
             -0.021871125514203903, 0.003662076123295692, -0.0004232091144603888,
             3.5964130479389666e-05, -2.1464035171996896e-06, 9.100107800763914e-08,
             -2.4027452082825098e-09, 3.592333854409284e-11]  # fmt: skip
_DAWSN_BD = [1.0, -0.6318398698733682, 0.2367067882282487, -0.053180636700322324,
             0.008480417185862954, -0.0009479967684866654, 7.810255929445524e-05,
             -4.558751532524426e-06, 1.8910035811142186e-07, -4.913246913319206e-09,
             7.184664032357345e-11]  # fmt: skip
_DAWSN_CN = [-0.5905928605347732, 0.6292352427243688, -0.17285897538038814,
             0.016483704782518965, -0.0004868276130204627]  # fmt: skip
_DAWSN_CD = [1.0, -2.698200571975449, 1.7327079904594784, -0.3937085822819395,
             0.03442789240412334, -0.0009736552260409412]  # fmt: skip


@_quiet
def _dawsn_impl(x: Any) -> Any:
    ax = jnp.abs(x)
    one = jnp.ones_like(ax)
    dt = x.dtype

    def ratio(num: list, den: list, v: Any) -> Any:
        return jnp.polyval(np.array(num, dt), v) / jnp.polyval(np.array(den, dt), v)

    r1 = jnp.where(ax < 3.25, ax, one)
    val1 = r1 * ratio(_DAWSN_AN, _DAWSN_AD, r1 * r1)
    middle = (ax >= 3.25) & (ax < 6.25)
    t = 1.0 / (ax * ax)
    t2, a2 = jnp.where(middle, t, one), jnp.where(middle, ax, one)
    val2 = 0.5 / a2 * (1.0 + t2 * ratio(_DAWSN_BN, _DAWSN_BD, t2))
    far = ax >= 6.25
    t3, a3 = jnp.where(far, t, one), jnp.where(far, ax, one)
    val3 = 0.5 / a3 * (1.0 + t3 * ratio(_DAWSN_CN, _DAWSN_CD, t3))
    return jnp.sign(x) * jnp.where(ax < 3.25, val1, jnp.where(ax < 6.25, val2, val3))


@custom_jvp
def _dawsn(x: Any) -> Any:
    if x.dtype in (np.float32, np.float64):
        return _dawsn_impl(x)
    return _dawsn_impl(x.astype(np.float32)).astype(x.dtype)


@_dawsn.defjvp
def _dawsn_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    ans = _dawsn(x)
    return ans, t * (1.0 - 2.0 * x * ans)


def dawsn(x: Any) -> Any:
    """Dawson's integral `exp(-x^2) * integral_0^x exp(t^2) dt`.

    Args:
      x: real values.

    Returns:
      `dawsn(x)`.

    Raises:
      ValueError: complex `x` (as in JAX).
    """
    (x,) = promote_args_inexact("dawsn", x)
    if jnp.issubdtype(x.dtype, np.complexfloating):
        raise ValueError("dawsn does not support complex-valued inputs.")
    return _dawsn(x)


def _weideman_coefficients(n: int) -> tuple[float, np.ndarray]:
    """Weideman's (1994) rational approximation of the Faddeeva function with `n` terms:
    `w(z) = 2 p(Z) / (L - i z)^2 + 1 / (sqrt(pi) (L - i z))`, `Z = (L + i z) / (L - i z)`, with
    `p` the polynomial of the returned coefficients (highest power first) and `L` the returned
    scale. The coefficients are the FFT of `exp(-t^2) (L^2 + t^2)` on the mapped grid."""
    m = 2 * n
    scale = np.sqrt(n / np.sqrt(2))
    k = np.arange(-m + 1, m)
    t = scale * np.tan(k * np.pi / (2 * m))
    f = np.concatenate([[0.0], np.exp(-t * t) * (scale * scale + t * t)])
    a = np.real(np.fft.fft(np.fft.fftshift(f))) / (2 * m)
    return float(scale), a[1 : n + 1][::-1].tolist()  # Python floats: weakly typed


_WOFZ_L, _WOFZ_C = _weideman_coefficients(32)


def _wofz_upper(z: Any) -> Any:
    iz = 1j * z
    denom = _WOFZ_L - iz
    big_z = (_WOFZ_L + iz) / denom
    p = jnp.zeros_like(big_z)
    for c in _WOFZ_C:
        p = p * big_z + c
    return 2 * p / (denom * denom) + (1 / math.sqrt(math.pi)) / denom


@custom_jvp
def _wofz(z: Any) -> Any:
    upper = jnp.imag(z) >= 0
    zu = jnp.where(upper, z, -z)
    w = _wofz_upper(zu)
    return jnp.where(upper, w, 2 * jnp.exp(-(z * z)) - w)


@_wofz.defjvp
def _wofz_jvp(primals, tangents):
    (z,), (dz,) = primals, tangents
    w = _wofz(z)
    return w, (-2 * z * w + 2j / math.sqrt(math.pi)) * dz


def wofz(z: Any) -> Any:
    """The Faddeeva function `w(z) = exp(-z^2) erfc(-i z)`, as `jax.scipy.special.wofz`.

    Weideman's rational approximation with 32 terms in the upper half plane and
    `w(z) = 2 exp(-z^2) - w(-z)` in the lower one; the derivative is `-2 z w + 2i / sqrt(pi)`.

    Args:
      z: real or complex input.

    Returns:
      complex `w(z)` (complex64, or complex128 with x64).
    """
    check_arraylike("wofz", z)
    (z,) = promote_args_inexact("wofz", z)
    dt = _dtype(z)
    if dt.kind != "c":
        z = z.astype(np.complex128 if dt == np.float64 else np.complex64)
    return _wofz(z)
