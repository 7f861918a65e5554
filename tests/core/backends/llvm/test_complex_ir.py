"""Complex numbers in the lean back end (core/backends/llvm/complex_ir.py, the translator's
complex values): jitted complex programs run as LLVM shells with numba's kernels' bits, their
products, quotients, exponentials, moduli, squares and powers are XLA's (JAX 0.10.2's values
recorded on special cases), and a quotient over a grid of edge values is the eager division's,
bit for bit."""

import types
import weakref

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.config import config
from core.jit import program
from core.prims.elementwise import _complex_div

INF, NAN = np.inf, np.nan
RNG = np.random.default_rng(1)


def _c(pairs, dtype) -> np.ndarray:
    """Complex numbers of `dtype` from (real, imaginary) pairs (no arithmetic: inf * 1j is NaN)."""
    part = np.finfo(dtype).dtype
    out = np.empty(len(pairs), dtype)
    out.real, out.imag = np.array(pairs, part).T
    return out


def _random(dtype, *shape) -> np.ndarray:
    out = np.empty(shape, dtype)
    out.real, out.imag = RNG.standard_normal(shape), RNG.standard_normal(shape)
    return out


def _lru(lam, bu, c):
    """A diagonal linear recurrence by `associative_scan` and its real read-out (an LRU)."""

    def combine(left, right):
        return right[0] * left[0], right[0] * left[1] + right[1]

    _, h = lax.associative_scan(combine, (jnp.broadcast_to(lam, bu.shape), bu))
    return (h @ c.T).real


def _programs(dtype) -> dict:
    a, b, c = (_random(dtype, 5, 7) for _ in range(3))
    real = RNG.standard_normal((5, 7)).astype(np.finfo(dtype).dtype)
    lam = _c([(0.9 * np.cos(t), 0.9 * np.sin(t)) for t in np.linspace(0.1, 1.0, 7)], dtype)
    return {
        "arithmetic": (lambda a, b, c: (a * b + a / b - jnp.conj(c), -a + 2j * b), (a, b, c)),
        "parts": (lambda a, r: (a.real * r + a.imag, lax.complex(r, -r) * a), (a, real)),
        "exp_abs": (lambda a: (jnp.exp(a), jnp.abs(a), jnp.exp(0.5j * lax.abs(a))), (a,)),
        "sign": (lambda a: jnp.sign(a) * jnp.sign(a - a), (a,)),
        "reductions": (lambda a, b: (jnp.sum(a * b, 1), jnp.sum(a, 0), jnp.mean(b)), (a, b)),
        "compare": (lambda a, b: (a == b, a != a, jnp.where(a.real > 0, a, b)), (a, b)),
        "powers": (lambda a: (jnp.square(a), a**3, a**-2, lax.abs(a.real)), (a,)),
        "converts": (lambda a, r: (a.astype(np.finfo(dtype).dtype), r.astype(dtype)), (a, real)),
        "lru": (_lru, (lam, a, b)),
        "grad": (core.grad(lambda z: jnp.sum(jnp.abs(z * jnp.exp(1j * z)) ** 2)), (a,)),
    }


def _run(f, args, lean: bool, monkeypatch):
    """`f` jitted afresh as many kernels, compiled in this process with the lean back end on or
    off: its output leaves and whether every kernel is an LLVM shell."""
    monkeypatch.setattr(program, "_compiled", weakref.WeakValueDictionary())
    with (
        config.override("jit_lean_loops", lean),
        config.override("jit_lean_shells", lean),
        config.override("jit_kernels", "many"),
        config.override("jit_compile_workers", 0),
    ):
        jitted = core.jit(lambda *a: f(*a))
        out = [np.asarray(x) for x in core.tree_util.tree_leaves(jitted(*args))]
        infos = jitted.lower(*args).compile()._traced._entry.exe.kernels
    shelled = all(isinstance(i.dispatcher, types.BuiltinFunctionType) for i in infos)
    return out, shelled


# A product packed into a complex number and added after (the gradient's real parts): O3 fuses
# it in numba's kernel once its complex structs are taken apart, the lean IR has settled its
# products before (`settle.py` follows no struct); neither is XLA's order (JAX's own gradient
# differs from both in the last bit of most elements).
ROUNDED_OTHERWISE = {"grad"}


@pytest.mark.filterwarnings("ignore:Casting complex values to real")  # `converts`, as in JAX
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", sorted(_programs(np.complex64)))
def test_complex_programs_run_as_shells_with_numbas_bits(name, dtype, monkeypatch):
    with config.override("enable_x64", True):
        f, args = _programs(dtype)[name]
        want, _ = _run(f, args, False, monkeypatch)
        got, shelled = _run(f, args, True, monkeypatch)
    assert shelled, name
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert (g.shape, g.dtype) == (w.shape, w.dtype)
        if name in ROUNDED_OTHERWISE:
            np.testing.assert_allclose(g, w, rtol=4 * np.finfo(g.dtype).eps)
        else:
            np.testing.assert_array_equal(g, w)


def _same_bits(got: np.ndarray, want: np.ndarray) -> None:
    """Equal parts (or reals), zeros' signs included, NaN matching any NaN."""
    assert got.dtype == want.dtype
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        g, w = np.atleast_1d(g), np.atleast_1d(w)
        bits = g.view(f"u{g.itemsize}") == w.view(f"u{w.itemsize}")
        assert np.all(bits | (np.isnan(g) & np.isnan(w))), (got, want)


# JAX 0.10.2 (jax.jit, CPU) printed these: a / b, exp(a), |a| (the same in both precisions but
# where shown per dtype)
DIVISIONS = [
    ((1, 2), (0, 0), (INF, INF)),
    ((-1, 2), (-0.0, 0), (INF, -INF)),
    ((INF, 1), (2, 3), (INF, -INF)),
    ((1, -INF), (2, 3), (-INF, -INF)),
    ((1, 1), (INF, 0), (0.0, 0.0)),
    ((2, 3), (-1, INF), (0.0, -0.0)),
    ((NAN, INF), (7, 0), (NAN, INF)),
    ((3e38, 3e38), (3e38, 1), (1.0, 1.0)),
    ((NAN, NAN), (0, 0), (NAN, NAN)),
    ((INF, INF), (INF, 1), (NAN, NAN)),
]
DIVISIONS_BY_DTYPE = {
    np.complex64: [((1, 2), (3, -4), (-0.20000000298023224, 0.4000000059604645)),
                   ((-1.5, 0.5), (-1.5, 0.5), (1.0, 8.940697071579962e-09))],
    np.complex128: [((1, 2), (3, -4), (-0.2, 0.4)),
                    ((-1.5, 0.5), (-1.5, 0.5), (1.0, -1.6653345369377347e-17))],
}  # fmt: skip
EXPS = {
    np.complex64: [
        ((100, 1e-30), (INF, 26881170604032.0)),
        ((89, 3), (-INF, 6.335741531771975e37)),
        ((0.5, -2.0), (-0.6861101388931274, -1.4991779327392578)),
        ((-3, 0.25), (0.04823930934071541, 0.012317517772316933)),
    ],
    np.complex128: [
        ((100, 1e-30), (2.6881171418161356e43, 26881171418161.36)),
        ((89, 3), (-4.444683003623774e38, 6.335741972275668e37)),
        ((0.5, -2.0), (-0.6861101411498431, -1.4991780090003948)),
        ((-3, 0.25), (0.04823930898218049, 0.012317517833885159)),
    ],
}
EXP_SPECIAL = [
    ((INF, 0), (INF, 0.0)),
    ((INF, 1), (INF, INF)),
    ((-INF, 1), (0.0, 0.0)),
    ((NAN, 0), (NAN, 0.0)),
    ((NAN, 1), (NAN, NAN)),
    ((0, INF), (NAN, NAN)),
    ((-INF, INF), (NAN, NAN)),
]
MODULI = [((NAN, INF), NAN), ((INF, NAN), NAN), ((INF, 1), INF), ((-INF, -INF), INF),
          ((3, -4), 5.0), ((0, 0), 0.0), ((NAN, 0), NAN)]  # fmt: skip


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_special_values_are_jaxs(dtype):
    divs = DIVISIONS + DIVISIONS_BY_DTYPE[dtype]
    exps = EXPS[dtype] + EXP_SPECIAL
    moduli = MODULI + [((3e38, 3e38), INF if dtype == np.complex64 else 4.2426406871192854e38)]
    a, b = _c([d[0] for d in divs], dtype), _c([d[1] for d in divs], dtype)
    z, m = _c([e[0] for e in exps], dtype), _c([e[0] for e in moduli], dtype)
    with config.override("enable_x64", True):
        f = core.jit(lambda a, b, z, m: (a / b, jnp.exp(z), jnp.abs(m)))
        quotient, exp, modulus = (np.asarray(x) for x in f(a, b, z, m))
    _same_bits(quotient, _c([d[2] for d in divs], dtype))
    _same_bits(exp, _c([e[1] for e in exps], dtype))
    _same_bits(modulus, np.array([v for _, v in moduli], modulus.dtype))


def test_division_grid_is_the_eager_division():
    """Every quotient of a grid of signed zeros, units, huge and tiny normal numbers, infinities
    and NaNs (complex64: the eager division computes its fused multiply-adds exactly)."""
    parts = [0.0, -0.0, 1.0, -2.5, 1e-30, 3e38, -3e38, INF, -INF, NAN]
    grid = _c([(r, i) for r in parts for i in parts], np.complex64)
    a, b = np.repeat(grid, grid.size), np.tile(grid, grid.size)
    got = np.asarray(core.jit(lambda a, b: a / b)(a, b))
    with np.errstate(all="ignore"):
        want = _complex_div(a, b)
    _same_bits(got, want)


# JAX 0.10.2 (jax.jit) printed these: square (JAX lowers it as (a - b)(a + b) + 2ab i), x**5
# and x**-2 (products as XLA's fused multiply-adds), on values where the roundings differ
POWERS = {
    np.complex64: (
        [(-0.41306355595588684, -0.20989197492599487), (-0.5538228154182434, 1.040949821472168),
         (0.9775674343109131, 2.2107126712799072)],
        [(0.12656687200069427, 0.17339745163917542), (-0.7768567800521851, -1.1530035734176636),
         (-3.931612491607666, 4.322241306304932)],
        [(0.015015247277915478, -0.01518203318119049), (-1.4627704620361328, -1.7477755546569824),
         (71.98307800292969, -40.352115631103516)],
        [(2.746328353881836, -3.76248836517334), (-0.40190765261650085, 0.5965075492858887),
         (-0.11516366899013519, -0.12660586833953857)],
    ),
    np.complex128: (
        [(-1.3012589126810539, 1.2621888322680006), (0.4137732121832107, -0.9206674766284004),
         (1.420566040099593, 0.7459867230645314)],
        [(0.10015410952981961, -3.284868934950455), (-0.676420331400894, -0.7618950783142887),
         (1.4615116832956805, 2.119446810301306)],
        [(14.858507386148862, -12.750605547022644), (0.898083682512173, 0.5396719520702759),
         (-7.968439503320909, 7.043106798014878)],
        [(0.009273189703225644, 0.30414341385521404), (-0.651639413048839, 0.7339827598163561),
         (0.2205033173514088, -0.3197682632050166)],
    ),
}  # fmt: skip


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_powers_are_jaxs(dtype, jit):
    x, *wants = POWERS[dtype]
    with config.override("enable_x64", True):

        def f(x):
            return jnp.square(x), x**5, x**-2

        got = (core.jit(f) if jit else f)(_c(x, dtype))
        for g, want in zip(got[: 3 if jit else 1], wants):  # eagerly: the square
            _same_bits(np.asarray(g), _c(want, dtype))


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_lax_abs_is_xlas_modulus(dtype, jit):
    """`lax.abs` of a complex number (the primitive, eagerly too) is `jnp.abs`'s, XLA's."""
    z = _c([m for m, _ in MODULI], dtype)
    with config.override("enable_x64", True):
        got = np.asarray((core.jit(lax.abs) if jit else lax.abs)(z))
    _same_bits(got, np.array([v for _, v in MODULI], np.finfo(dtype).dtype))


# JAX 0.10.2 (jax.jit) printed these: sign(z) = z / |z| with XLA's modulus, 0 at 0
SIGNS = {
    np.complex64: [(0.6000000238418579, -0.800000011920929), (0.0, 0.0),
                   (-0.9486832618713379, 0.3162277638912201),
                   (0.7071067690849304, 0.7071067690849304),
                   (0.2747211158275604, 0.9615239500999451)],
    np.complex128: [(0.6, -0.8), (0.0, 0.0), (-0.9486832980505138, 0.31622776601683794),
                    (0.7071067811865475, 0.7071067811865475),
                    (0.274721127897378, 0.961523947640823)],
}  # fmt: skip


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_sign_is_jaxs(dtype, jit):
    z = _c([(3, -4), (0, 0), (-1.5, 0.5), (1e-30, 1e-30), (2.0, 7.0)], dtype)
    with config.override("enable_x64", True):
        got = np.asarray((core.jit(jnp.sign) if jit else jnp.sign)(z))
    _same_bits(got, _c(SIGNS[dtype], dtype))
