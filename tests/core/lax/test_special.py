"""core.lax special functions against scipy.special, in float32 and float64, with derivatives."""

import numpy as np
import pytest
import scipy.special as sp

import core
import core.numpy as jnp
from core import lax

A = np.array([0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 100.0, 3.0, 0.7])
XG = np.array([0.01, 0.3, 1.5, 2.0, 7.0, 3.0, 45.0, 90.0, 0.0, 200.0])
XE = np.array([-6.0, -3.0, -1.0, -0.4, 0.0, 0.2, 0.5, 0.7, 1.0, 2.0, 5.0, 9.0])
BA = np.array([0.5, 2.0, 10.0, 100.0, 0.1, 1.0, 3.0, 0.5])
BB = np.array([0.5, 3.0, 1.0, 50.0, 4.0, 1.0, 7.0, 20.0])
BX = np.array([0.2, 0.5, 0.9, 0.6, 0.999, 0.3, 0.0, 1.0])
ZX = np.array([2.0, 3.0, 4.5, 1.5, 10.0, 1.01, 7.0])
ZQ = np.array([1.0, 2.0, 0.5, 3.0, 0.1, 1.0, 25.0])
XB = np.array([-20.0, -3.0, -0.1, 0.0, 1e-5, 0.5, 2.0, 14.0, 15.5, 16.0, 40.0, 500.0])

CASES = [
    ("igamma", lax.igamma, sp.gammainc, (A, XG)),
    ("igammac", lax.igammac, sp.gammaincc, (A, XG)),
    ("erfc", lax.erfc, sp.erfc, (XE,)),
    ("betainc", lax.betainc, sp.betainc, (BA, BB, BX)),
    ("zeta", lax.zeta, sp.zeta, (ZX, ZQ)),
    ("bessel_i0e", lax.bessel_i0e, sp.i0e, (XB,)),
    ("bessel_i1e", lax.bessel_i1e, sp.i1e, (XB,)),
    (
        "polygamma",
        lax.polygamma,
        sp.polygamma,
        (np.array([0.0, 1.0, 2.0, 3.0]), np.array([0.5, 2.0, 3.5, 10.0])),
    ),
]


@pytest.mark.parametrize("name,fn,ref,args", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_against_scipy(name, fn, ref, args, dt):
    with core.enable_x64(dt == np.float64):
        got = fn(*[a.astype(dt) for a in args])
    assert got.dtype == dt
    want = ref(*args).astype(dt)
    rtol = 2e-5 if dt == np.float32 else 1e-12
    if name in ("erfc", "igammac") and dt == np.float32:
        rtol = 5e-5  # tiny tail values near float32's normal range
    if name == "betainc" and dt == np.float32:
        # its log-beta prefactor is XLA's float32 lgamma (as JAX's): at (100, 50, 0.6) JAX
        # 0.10.2 gives 0.04442107, scipy 0.04442410
        rtol = 1e-4
    np.testing.assert_allclose(got, want, rtol=rtol, atol=np.finfo(dt).tiny)


@pytest.mark.parametrize(
    "fn,args,want",
    [
        (lax.igamma, (np.float32(0.0), np.float32(1.0)), 1.0),
        (lax.igamma, (np.float32(1.0), np.float32(0.0)), 0.0),
        (lax.igamma, (np.float32(2.0), np.float32(np.inf)), 1.0),
        (lax.igamma, (np.float32(-1.0), np.float32(1.0)), np.nan),
        (lax.igamma, (np.float32(1.0), np.float32(-1.0)), np.nan),
        (lax.igammac, (np.float32(2.0), np.float32(np.inf)), 0.0),
        (lax.igammac, (np.float32(1.0), np.float32(0.0)), 1.0),
        (lax.igammac, (np.float32(0.0), np.float32(0.0)), np.nan),
        (lax.betainc, (np.float32(2.0), np.float32(3.0), np.float32(1.5)), np.nan),
        (lax.betainc, (np.float32(0.0), np.float32(3.0), np.float32(0.5)), 1.0),
        (lax.betainc, (np.float32(2.0), np.float32(0.0), np.float32(0.5)), 0.0),
        (lax.zeta, (np.float32(1.0), np.float32(2.0)), np.inf),
        (lax.zeta, (np.float32(0.5), np.float32(2.0)), np.nan),
        (lax.erfc, (np.float32(np.inf),), 0.0),
        (lax.erfc, (np.float32(-np.inf),), 2.0),
    ],
)
def test_edge_values(fn, args, want):
    np.testing.assert_array_equal(fn(*args), np.float32(want))


def _fd(f, x, eps=1e-6):
    return (f(x + eps) - f(x - eps)) / (2 * eps)


@pytest.mark.parametrize("a,x", [(0.5, 0.3), (2.0, 3.0), (5.0, 2.0), (10.0, 15.0)])
def test_igamma_gradients(a, x):
    with core.enable_x64():
        ga, gx = core.grad(lax.igamma, argnums=(0, 1))(a, x)
        gca, gcx = core.grad(lax.igammac, argnums=(0, 1))(a, x)
        np.testing.assert_allclose(ga, _fd(lambda a: sp.gammainc(a, x), a), rtol=1e-6)
        np.testing.assert_allclose(gx, _fd(lambda x: sp.gammainc(a, x), x), rtol=1e-6)
        np.testing.assert_allclose(gca, -ga, rtol=1e-12)
        np.testing.assert_allclose(gcx, -gx, rtol=1e-12)
        np.testing.assert_allclose(lax.igamma_grad_a(a, x), ga, rtol=1e-12)


def test_second_derivatives():
    with core.enable_x64():
        a, x = 2.0, 1.5
        h = core.hessian(lambda x: lax.igamma(a, x))(x)
        np.testing.assert_allclose(
            h, _fd(lambda x: _fd(lambda y: sp.gammainc(a, y), x, 1e-4), x, 1e-4), rtol=1e-5
        )
        hb = core.hessian(lambda x: lax.betainc(2.0, 3.0, x))(0.3)
        np.testing.assert_allclose(
            hb, 12 * (1 - 0.3) * (1 - 3 * 0.3), rtol=1e-8
        )  # d/dx of 12x(1-x)^2
        with pytest.raises(lax.IgammaGradientError, match="not differentiable"):
            core.hessian(lambda a: lax.igamma(a, x))(a)


def test_random_gamma_grad():
    a, x = 2.5, 1.7
    with core.enable_x64():
        got = lax.random_gamma_grad(a, x)
    # Implicit derivative of the sample x(a) with P(a, x) fixed: -dP/da / dP/dx.
    dpda = _fd(lambda a: sp.gammainc(a, x), a)
    dpdx = _fd(lambda x: sp.gammainc(a, x), x)
    np.testing.assert_allclose(got, -dpda / dpdx, rtol=1e-6)


@pytest.mark.parametrize(
    "fn,ref,x",
    [
        (lax.erfc, sp.erfc, 0.7),
        (lax.erfc, sp.erfc, -2.0),
        (lax.bessel_i0e, sp.i0e, 0.7),
        (lax.bessel_i0e, sp.i0e, -18.0),
        (lax.bessel_i1e, sp.i1e, 0.7),
        (lax.bessel_i1e, sp.i1e, -18.0),
    ],
)
def test_unary_gradients(fn, ref, x):
    with core.enable_x64():
        np.testing.assert_allclose(core.grad(fn)(x), _fd(ref, x), rtol=1e-6)


def test_bessel_i1e_gradient_at_zero():
    assert float(core.grad(lax.bessel_i1e)(0.0)) == 0.5


def test_betainc_and_zeta_gradients():
    with core.enable_x64():
        g = core.grad(lambda x: lax.betainc(2.0, 3.0, x))(0.4)
        np.testing.assert_allclose(g, _fd(lambda x: sp.betainc(2, 3, x), 0.4), rtol=1e-6)
        gq = core.grad(lambda q: lax.zeta(3.0, q))(1.5)
        np.testing.assert_allclose(gq, -3.0 * sp.zeta(4.0, 1.5), rtol=1e-10)
    with pytest.raises(lax.BetaincGradientError, match="not supported"):
        core.grad(lambda a: lax.betainc(a, 3.0, 0.4))(2.0)
    with pytest.raises(NotImplementedError, match="Differentiation rule for 'zeta'"):
        core.grad(lambda x: lax.zeta(x, 1.5))(3.0)


def test_broadcasting_and_promotion():
    got = lax.igamma(2.0, jnp.array([0.5, 1.0, 4.0]))
    assert got.dtype == np.float32 and got.shape == (3,)
    np.testing.assert_allclose(got, sp.gammainc(2.0, [0.5, 1.0, 4.0]), rtol=2e-6)


def test_jit_and_vmap():
    a = np.array([0.5, 2.0, 8.0], np.float32)
    x = np.array([0.3, 3.0, 4.0], np.float32)
    jitted = core.jit(lax.igamma, backend="python")
    np.testing.assert_allclose(jitted(a, x), sp.gammainc(a, x), rtol=2e-6)
    np.testing.assert_allclose(core.vmap(lax.igammac)(a, x), sp.gammaincc(a, x), rtol=2e-6)
    np.testing.assert_allclose(
        core.vmap(lambda x: lax.betainc(2.0, 3.0, x))(np.float32([0.1, 0.8])),
        sp.betainc(2.0, 3.0, [0.1, 0.8]),
        rtol=2e-6,
    )


def test_primitives_compile_with_numba():
    # JAX's primitives compile as their compositions (while loops over whole arrays): one
    # program, so one compile
    a, b = np.float32([0.5, 2.0, 8.0]), np.float32([3.0, 4.0, 0.5])
    x = np.float32([0.3, 3.0, 4.0])

    def f(a, b, x):
        return (
            lax.igamma(a, x),
            lax.igammac(a, x),
            lax.betainc(a, b, x / 5),
            lax.zeta(a + 1.5, x),
            lax.bessel_i0e(x),
            lax.bessel_i1e(-x),
        )

    refs = (
        sp.gammainc(a, x),
        sp.gammaincc(a, x),
        sp.betainc(a, b, x / 5),
        sp.zeta(a + 1.5, x),
        sp.i0e(x),
        sp.i1e(-x),
    )
    for got, want in zip(core.jit(f)(a, b, x), refs, strict=True):
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=1e-5)


def test_jax_primitives_in_jaxprs():
    # the equation holds the primitive object (an interpreter matching `eqn.primitive is
    # lax.igamma_p` finds it), as in JAX
    jaxpr = core.make_jaxpr(lambda a, x: lax.igammac(a, lax.igamma(a, x)))(1.0, 2.0).jaxpr
    assert [e.prim for e in jaxpr.eqns] == [lax.igamma_p, lax.igammac_p]


def test_public_function_under_numba_jit():
    np.testing.assert_allclose(
        core.jit(lax.erfc)(np.float32([0.5, 2.0])), sp.erfc([0.5, 2.0]), rtol=2e-6
    )


def test_half_precision_special_functions_and_reduce_precision():
    # jax 0.10.2 on bfloat16 (numbax raised numpy's "not inexact" on bfloat16 before);
    # numbax's erfc computes its steps in bfloat16 (XLA too, with its own steps): a few
    # bfloat16 ulps apart where small; igamma computes in float32, as JAX does
    x = jnp.asarray(np.array([0.3, 1.5, -2.25, 7.0, 1e-3], jnp.bfloat16))
    out = lax.reduce_precision(x, 5, 4)
    assert out.dtype == jnp.bfloat16
    want = [0.296875, 1.5, -2.25, 7, 0.000976562]  # printed with 6 digits
    np.testing.assert_allclose(np.float32(out), want, rtol=1e-5)
    erfc = lax.erfc(x)
    assert erfc.dtype == jnp.bfloat16
    want = [0.671875, 0.0339355, 2, 1]
    np.testing.assert_allclose(np.float32(erfc)[[0, 1, 2, 4]], want, rtol=8e-3)
    igamma = lax.igamma(jnp.abs(x), jnp.abs(x))
    want = [0.726562, 0.609375, 0.589844, 0.550781, 0.992188]
    np.testing.assert_allclose(np.float32(igamma), want, rtol=0.03)


def test_half_precision_rsqrt_is_rounded_once():
    # jax 0.10.2 (XLA's CPU: float32 inside, one rounding): equal to these for all 2048 values;
    # 1 / sqrt(x) in float16 was an ulp off for 29% of them
    v = (np.random.RandomState(0).rand(2048) * 1.8 + 0.1).astype(np.float16)
    for dt in (np.float16, jnp.bfloat16):
        x = v.astype(dt)
        want = (1 / np.sqrt(x.astype(np.float32))).astype(dt)
        got = lax.rsqrt(x)
        assert got.dtype == dt
        np.testing.assert_array_equal(np.float32(got), np.float32(want))


# JAX 0.10.2's float16 values at the edges: no overflow to NaN in the asymptotic series.
@pytest.mark.parametrize(
    "fn, x, want",
    [
        (lax.bessel_i0e, [np.inf, -np.inf, 65504, 1e4], [0.0, 0.0, 0.0015583, 0.0039902]),
        (lax.bessel_i1e, [np.inf, -np.inf, 65504, -1e4], [0.0, -0.0, 0.0015583, -0.0039902]),
        (jnp.i0, [np.inf, 65504, 20], [np.nan, np.inf, np.inf]),
    ],
)
def test_float16_bessel_edges(fn, x, want):
    out = fn(np.array(x, np.float16))
    assert out.dtype == np.float16
    np.testing.assert_allclose(np.asarray(out, np.float32), want, rtol=2e-3)


@pytest.mark.parametrize(
    "fn, args",
    [
        (lax.igamma, (np.int32(1), np.int32(2))),
        (lax.igammac, (np.float32(1), np.int8(2))),
        (lax.erfc, (np.array([1, 2]),)),
        (lax.bessel_i0e, (np.array([True]),)),
        (lax.bessel_i1e, (np.complex64(1),)),
        (lax.zeta, (3, 1.0)),
        (lax.betainc, (1.0, 2.0, np.int32(0))),
    ],
)
def test_lax_special_functions_refuse_non_floats_as_jax(fn, args):
    with pytest.raises(TypeError, match="Accepted dtypes"):
        fn(*args)


@pytest.mark.parametrize("x", [np.array([1, 2], np.int8), np.array([True]), -2])
def test_lax_round_refuses_integers_as_jax(x):
    with pytest.raises(TypeError, match="round does not accept dtype"):
        lax.round(x)


@pytest.mark.parametrize("dtype", [jnp.float16, jnp.bfloat16])
def test_zeta_16bit_computes_in_float32(dtype):
    # Found by tools/jax_differential's scipy_more area: the Euler-Maclaurin coefficients
    # overflowed float16 (nan); JAX gives zeta(2, 3) = 0.395 in float16. scipy's answer, rounded.
    x, q = np.array([2.0, 4.0, 3.0]), np.array([3.0, 2.5, 1.0])
    got = lax.zeta(jnp.asarray(x, dtype), jnp.asarray(q, dtype))
    assert got.dtype == dtype
    want = sp.zeta(np.asarray(jnp.asarray(x, dtype), np.float64), q)
    np.testing.assert_allclose(np.asarray(got, np.float64), want, rtol=1e-2)


@pytest.mark.parametrize("dtype", [jnp.float16, jnp.bfloat16])
@pytest.mark.parametrize(
    "fn, ref, args",
    [
        (lax.betainc, sp.betainc, (BA, BB, BX)),
        (lax.igamma, sp.gammainc, (A[:8], XG[:8])),
        (lax.igammac, sp.gammaincc, (A[:8], XG[:8])),
    ],
)
def test_16bit_incomplete_gamma_and_beta_compute_in_float32(fn, ref, args, dtype):
    # Found by JAX's lax_vmap_op_test: JAX lowers these through float32 (`_up_and_broadcast`),
    # so the 16-bit result is the float32 one rounded once; numbax's 16-bit steps were up to
    # 3% off in bfloat16 and depended on the batch (the loops stop when all lanes converge).
    xs = [jnp.asarray(a, dtype) for a in args]
    got = fn(*xs)
    assert got.dtype == dtype
    want = ref(*[np.asarray(x, np.float64) for x in xs])
    np.testing.assert_allclose(np.asarray(got, np.float64), want, rtol=float(jnp.finfo(dtype).eps))


# JAX 0.10.2 (x64): polygamma is XLA's expansion, the sign times exp(lgamma(n + 1)) times
# zeta(n + 1, x) for n >= 1 (negative non-integer x included), digamma at n = 0
POLYGAMMA_X = [-0.5, -2.4, 0.3, 2.5, -1.001]
POLYGAMMA_JAX = {
    0: [
        0.03648997397857731,
        2.090333167059192,
        -3.5025242222001336,
        0.7031566406452437,
        1000.4201391970025,
    ],
    1: [
        8.934802200544677,
        10.570024863646122,
        12.245364546107734,
        0.4903577561002349,
        1000002.6453446479,
    ],
    2: [
        -0.828796644234319,
        22.160707362543395,
        -75.27253658872594,
        -0.2362040516417271,
        1999999999.5840504,
    ],
    3: [
        193.40909103400256,
        283.5247351822413,
        743.1417646550502,
        0.22390584881725223,
        6000000000015.142,
    ],
}


@pytest.mark.parametrize("n", sorted(POLYGAMMA_JAX))
def test_polygamma_is_xlas_expansion(n):
    want = np.array(POLYGAMMA_JAX[n])
    with core.enable_x64():
        x = jnp.array(POLYGAMMA_X)
        eager = np.asarray(lax.polygamma(jnp.full_like(x, n), x))
        jitted = np.asarray(core.jit(lambda x: lax.polygamma(jnp.full_like(x, n), x))(x))
    np.testing.assert_allclose(eager, want, rtol=1e-14)
    np.testing.assert_allclose(jitted, want, rtol=1e-14)


def test_float32_polygamma_is_xlas_expansion():
    # JAX 0.10.2: polygamma(1, jnp.array([-0.5, -2.4, 0.3], jnp.float32))
    want = [8.934802055358887, 10.570024490356445, 12.24536418914795]
    got = np.asarray(
        lax.polygamma(jnp.ones(3, jnp.float32), jnp.array([-0.5, -2.4, 0.3], jnp.float32))
    )
    np.testing.assert_allclose(got, want, rtol=3e-7)


def test_polygamma_of_a_negative_order_is_nan():
    # JAX 0.10.2: polygamma(jnp.array([-1, 1]), jnp.array([0.5, 0.5])) = [nan, 4.93480220054468]
    got = np.asarray(lax.polygamma(jnp.array([-1.0, 1.0, 0.5]), jnp.array([0.5, 0.5, 0.5])))
    assert np.isnan(got[0]) and np.isnan(got[2]) and np.isclose(got[1], 4.93480220054468, rtol=1e-6)


BESSEL_X = [-7.1168, 0.2364, 0.99, 5.07, 8.0, 12.5, 100.0]
# JAX 0.10.2, jitted: Cephes' Chebyshev series (JAX's i0e, XLA's i1e)
BESSEL_JAX = {
    ("bessel_i0e", np.float32): [
        0.152417853474617,
        0.8005332946777344,
        0.4683535695075989,
        0.18218636512756348,
        0.14343179762363434,
        0.11402193456888199,
        0.039944376796483994,
    ],
    ("bessel_i1e", np.float32): [
        -0.14126309752464294,
        0.09396813064813614,
        0.20740346610546112,
        0.1630534678697586,
        0.13414262235164642,
        0.1093614399433136,
        0.03974415361881256,
    ],
    ("bessel_i0e", np.float64): [
        0.15241783581712978,
        0.8005332122381537,
        0.4683535654951164,
        0.1821863575391265,
        0.1434317818568503,
        0.1140219294622889,
        0.03994437929909668,
    ],
    ("bessel_i1e", np.float64): [
        -0.14126303306929022,
        0.09396812327948507,
        0.20740348795792476,
        0.16305341975030926,
        0.13414249329269812,
        0.10936143099065089,
        0.03974415302513025,
    ],
}


@pytest.mark.parametrize("name,dtype", list(BESSEL_JAX), ids=lambda v: getattr(v, "__name__", v))
def test_bessel_ie_is_cephes_chebyshev_as_jax(name, dtype):
    """jit's sums are JAX's bit for bit (the same fused multiply-adds); eager ones round each
    step, within a few ulp."""
    want = np.array(BESSEL_JAX[(name, dtype)], dtype)
    with core.enable_x64():
        x = jnp.array(BESSEL_X, dtype)
        jitted = np.asarray(core.jit(getattr(lax, name))(x))
        eager = np.asarray(getattr(lax, name)(x))
    np.testing.assert_array_equal(jitted, want)
    np.testing.assert_allclose(eager, want, rtol=8 * np.finfo(dtype).eps)


ERFC64_X = [-3.5, -0.3, 0.7, 1.5, 7.9, 12.0, 26.0]
# JAX 0.10.2 (x64), jitted: XLA's float64 erfc (Cephes' rational functions)
ERFC64_JAX = [
    1.9999992569016276,
    1.3286267594591274,
    0.32219880616258156,
    0.033894853524689274,
    5.572718056952556e-29,
    1.3562611692059042e-64,
    5.663192408856145e-296,
]


def test_float64_erfc_is_xlas_expansion():
    """jit's float64 erfc is JAX's bit for bit (was igammac's, 153 ulp off in the far tail);
    eager rounds each step, within a few ulp."""
    want = np.array(ERFC64_JAX)
    with core.enable_x64():
        x = jnp.array(ERFC64_X)
        jitted = np.asarray(core.jit(lax.erfc)(x))
        eager = np.asarray(lax.erfc(x))
    np.testing.assert_array_equal(jitted, want)
    np.testing.assert_allclose(eager, want, rtol=4e-15)
