"""The scipy.special functions ported for JAX parity (core/scipy/special.py): expi, expn,
sici, fresnel, wofz, owens_t, bessel_jn, hyp1f1, hyp2f1, sph_harm_y. Values against
scipy.special in float64 and float32, derivatives by finite differences, JAX's conventions."""

import numpy as np
import pytest
import scipy.special as ss

import core
from core.scipy import special as sp
from core.test_util import check_grads

X_EXPI = np.array([-30.0, -3.0, -0.5, 1e-3, 0.7, 1.0, 2.0, 5.0, 20.0, 39.0, 41.0, 80.0, 700.0])
X_POS = np.array([0.0, 1e-3, 0.1, 0.5, 1.0, 1.0001, 1.5, 3.0, 10.0, 50.0])
X_SICI = np.array([-10.0, -1.0, 0.5, 1.0, 3.9, 4.1, 10.0, 100.0, 1e4])
X_FRESNEL = np.array([-3.0, -1.0, 0.0, 0.5, 1.0, 1.49, 1.51, 3.0, 10.0, 100.0])
Z_WOFZ = np.array([0, 1 + 1j, -2 + 0.5j, 3 - 2j, -1 - 1j, 10 + 10j, 0.1j, -5, 30j, 100 + 0.1j])
H, A = (
    g.ravel() for g in np.meshgrid([0.0, 0.5, 1.0, -2.0, 3.0, 10.0], [0.3, 1.0, 2.0, -0.5, 5.0])
)
J_Z = np.array([0.1, 1.0, 2.5, 10.0, -3.0, 20.0])
F1 = [
    np.array(v)
    for v in ([0.5, 1, 2, 0, 3, 1.5, 2.5], [1, 2, 3, 1, 3, 0.5, 4], [0.5, 1, -2, 3, 5, 120, -0.5])
]
F2 = [
    np.array(v)
    for v in (
        [0.5, 1, 2, -3, 1.5, 1, 0.2, 1, 2, 1, 0.5, 2, -2],
        [1, 2, 1, 2, 0.5, 1, 0.3, 1, 3, 1, 1.5, 1, 1.5],
        [1.5, 3, 4, 2.5, 3, 2, 1, 3, 1.5, 3, 1, 2, 3],
        [0.3, -0.5, 0.95, 0.7, 1, 0.99, 0.5, 0.95, -0.9, 0.97, 0.93, 0.91, 0.95],
    )
]
SPH = (
    np.array([0, 1, 1, 2, 2, 3, 5, 5, 4, 6]),
    np.array([0, 0, 1, -1, 2, -3, 2, -5, 0, 3]),
    np.linspace(0.1, 3.0, 10),
    np.linspace(0.2, 6.0, 10),
)

# (name, numbax function, scipy function, arguments, float64 rtol)
CASES = [
    ("expi", sp.expi, ss.expi, (X_EXPI,), 1e-12),
    *[
        (
            f"expn{n}",
            lambda x, n=n: sp.expn(n, x),
            lambda x, n=n: ss.expn(n, x),
            (X_POS[1:],),
            1e-13,
        )  # fmt: skip (x = 0: JAX's 1 / n, test_jaxs_conventions)
        for n in (0, 1, 2, 5, 40)
    ],
    ("si", lambda x: sp.sici(x)[0], lambda x: ss.sici(x)[0], (X_SICI,), 1e-13),
    ("ci", lambda x: sp.sici(x)[1], lambda x: ss.sici(np.abs(x))[1], (X_SICI,), 1e-12),
    ("fresnel_s", lambda x: sp.fresnel(x)[0], lambda x: ss.fresnel(x)[0], (X_FRESNEL,), 1e-13),
    ("fresnel_c", lambda x: sp.fresnel(x)[1], lambda x: ss.fresnel(x)[1], (X_FRESNEL,), 1e-13),
    ("wofz", sp.wofz, ss.wofz, (Z_WOFZ,), 1e-11),
    ("owens_t", sp.owens_t, ss.owens_t, (H, A), 1e-13),
    (
        "bessel_jn",
        lambda z: sp.bessel_jn(z, v=5),
        lambda z: np.stack([ss.jv(k, z) for k in range(6)]),
        (J_Z,),
        1e-13,
    ),
    ("hyp1f1", sp.hyp1f1, ss.hyp1f1, F1, 1e-13),
    ("hyp2f1", sp.hyp2f1, ss.hyp2f1, F2, 1e-12),
    ("sph_harm_y", sp.sph_harm_y, ss.sph_harm_y, SPH, 1e-13),
]


@pytest.mark.parametrize("name, fn, ref, args, rtol", CASES, ids=[c[0] for c in CASES])
def test_float64_values_match_scipy(name, fn, ref, args, rtol):
    with core.enable_x64():
        out = np.asarray(fn(*args))
    want = ref(*args)
    np.testing.assert_allclose(out, want, rtol=rtol, atol=1e-300)


@pytest.mark.parametrize("name, fn, ref, args, rtol", CASES, ids=[c[0] for c in CASES])
def test_float32_values_and_dtypes(name, fn, ref, args, rtol):
    if name == "bessel_jn":  # Miller's recurrence overflows float32 for small z, in JAX too
        args = (np.array([10.0, 20.0]),)  # JAX 0.10.2: NaN at 2.5 and -3.0 as well
    if name == "expi":
        args = (X_EXPI[:-1],)  # Ei(700) overflows float32
    if name == "hyp1f1":
        args = [a[[0, 1, 2, 3, 4, 6]] for a in args]  # 1F1(1.5, 0.5, 120) overflows float32
    out = fn(*[a.astype(np.complex64 if a.dtype.kind == "c" else np.float32) for a in args])
    want = ref(*args)
    assert out.dtype == (np.complex64 if np.iscomplexobj(want) else np.float32)
    np.testing.assert_allclose(np.asarray(out), want, rtol=5e-5, atol=1e-6)


def test_jaxs_conventions():
    assert float(sp.hyp1f1(0.0, 0.0, 2.0)) == 1.0  # scipy differs, as JAX's docstring says
    assert float(sp.hyp2f1(1.0, 1.0, 2.0, 1.5)) == np.inf
    assert np.isnan(sp.expi(0.0))  # JAX 0.10.2's (scipy: -inf)
    assert np.isnan(sp.expn(-1, 1.0)) and np.isnan(sp.expn(1, -1.0))
    # JAX 0.10.2's E_n(0) is 1 / n (scipy's 1 / (n - 1))
    assert float(sp.expn(1, 0.0)) == np.inf and float(sp.expn(3, 0.0)) == np.float32(1 / 3)
    # JAX 0.10.2 returns NaN for bessel_jn(1.0, v=1) in float32 (the recurrence overflows)
    assert np.isnan(np.asarray(sp.bessel_jn(np.float32(1.0), v=1))).all()
    assert sp.bessel_jn(np.ones((2, 3)), v=3).shape == (4, 2, 3)
    assert sp.sph_harm_y(np.array([3]), np.array([1]), 0.5, 0.5).shape == (1,)
    si, ci = sp.sici(np.array([-np.inf, 0.0, np.inf]))
    np.testing.assert_allclose(np.asarray(si), [-np.pi / 2, 0.0, np.pi / 2], rtol=1e-7)
    np.testing.assert_array_equal(np.asarray(ci), [np.nan, -np.inf, 0.0])


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: sp.expi(1j), ValueError, "complex"),
        (lambda: sp.sici(1j), ValueError, "real-valued"),
        (lambda: sp.hyp1f1(1.0, 1.0, 1j), ValueError, "complex"),
        (lambda: sp.bessel_jn(1j, v=1), ValueError, "complex input not supported"),
        (lambda: sp.sph_harm_y(1, 1, 0.1, 0.1, diff_n=1), NotImplementedError, "diff_n"),
    ],
)
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


GRAD_CASES = [
    ("expi", sp.expi, (1.3,)),
    ("expn", lambda x: sp.expn(2, x), (1.7,)),
    ("sici", lambda x: sum(sp.sici(x)), (2.5,)),
    ("fresnel", lambda x: sum(sp.fresnel(x)), (1.2,)),
    ("wofz", lambda x: sp.wofz(x * (1 + 0.5j)).real, (0.8,)),
    ("owens_t", sp.owens_t, (0.5, 2.0)),
    ("hyp1f1", sp.hyp1f1, (1.0, 2.0, 0.5)),
    ("hyp2f1", sp.hyp2f1, (1.0, 2.0, 3.0, 0.5)),
]


@pytest.mark.parametrize("name, fn, args", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_gradients(name, fn, args):
    with core.enable_x64():
        check_grads(fn, [np.float64(a) for a in args], order=1, modes=("fwd", "rev"), eps=1e-5)


def test_jit_and_vmap():
    x = np.array([0.5, 1.0, 2.0], np.float32)
    np.testing.assert_allclose(core.jit(sp.expi)(x), ss.expi(x), rtol=1e-5)
    np.testing.assert_allclose(
        core.vmap(lambda t: sp.hyp1f1(1.0, 2.0, t))(x), ss.hyp1f1(1, 2, x), rtol=1e-5
    )
    np.testing.assert_allclose(core.jit(sp.owens_t)(x, x), ss.owens_t(x, x), rtol=1e-5, atol=1e-7)
