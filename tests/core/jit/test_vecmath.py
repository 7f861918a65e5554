"""Accuracy and edge cases of the vectorizable float32 kernels against numpy/scipy, and their
identity with XLA's CPU kernels (JAX 0.10.2's jitted results, recorded by
record_xla_transcendentals.py under the reference interpreter)."""

import os

import numpy as np
import pytest
from numba import njit
from scipy import special

import core
import core.numpy as jnp
from core import lax
from core.jit import vecmath as vm

rng = np.random.default_rng(0)
EDGES = np.array(
    [
        0.0,
        -0.0,
        np.inf,
        -np.inf,
        np.nan,
        1.0,
        -1.0,
        0.5,
        1e-30,
        -1e-30,
        1e-3,
        -1e-3,
        20.0,
        -20.0,
        88.7,
        88.8,
        -87.3,
        -87.4,
        -104.0,
        3e38,
    ],
    np.float32,
)

# name: (kernel, reference on float64, sample range, max relative error). The errors are XLA's:
# exp2(x) is exp(x * ln2) and sinh/cosh use exp(|x| - ln2), so the rounding of the product or
# difference costs up to |x| * 2**-24 (5e-6 at exp2(128), 1.5e-6 at sinh(88)); erf_inv takes
# log1p of -x**2 rounded to float32 (5e-6 at 0.9999).
TABLE = {
    "exp": (vm.exp_f32, np.exp, (-87, 88.7), 3e-7),
    "exp2": (vm.exp2_f32, np.exp2, (-126, 127.9), 6e-6),
    "expm1": (vm.expm1_f32, np.expm1, (-30, 88.7), 3e-7),
    "log": (vm.log_f32, np.log, (1e-30, 1e30), 2e-7),
    "log1p": (vm.log1p_f32, np.log1p, (-0.999, 1e4), 2e-7),
    "log10": (vm.log10_f32, np.log10, (1e-30, 1e30), 2e-7),
    "tanh": (vm.tanh_f32, np.tanh, (-12, 12), 3e-7),
    "logistic": (vm.logistic_f32, special.expit, (-80, 30), 3e-7),
    "erf": (vm.erf_f32, special.erf, (-5, 5), 3e-7),
    "erf_inv": (vm.erf_inv_f32, special.erfinv, (-0.9999, 0.9999), 6e-6),
    "sin": (vm.sin_f32, np.sin, (-1e4, 1e4), 1e-6),
    "cos": (vm.cos_f32, np.cos, (-1e4, 1e4), 1e-6),
    "tan": (vm.tan_f32, np.tan, (-1.5, 1.5), 3e-7),
    "sinh": (vm.sinh_f32, np.sinh, (-88, 88), 2e-6),
    "cosh": (vm.cosh_f32, np.cosh, (-88, 88), 2e-6),
    "asinh": (vm.asinh_f32, np.arcsinh, (-1e30, 1e30), 3e-7),
    "acosh": (vm.acosh_f32, np.arccosh, (1, 1e30), 3e-7),
    "atanh": (vm.atanh_f32, np.arctanh, (-0.9999, 0.9999), 3e-7),
    "asin": (vm.asin_f32, np.arcsin, (-1, 1), 3e-7),
    "acos": (vm.acos_f32, np.arccos, (-1, 1), 3e-7),
}


def _loop(fn):
    @njit(error_model="numpy")
    def apply(x, out):
        for i in range(x.size):
            out[i] = fn(x[i])

    return apply


def _run(fn, x):
    out = np.empty_like(x)
    _loop(fn)(x, out)
    return out


def _samples(lo, hi):
    uniform = rng.uniform(lo, hi, 20000)
    if lo > 0:  # log-uniform over many decades
        uniform = np.exp(rng.uniform(np.log(lo), np.log(hi), 20000))
    small = rng.uniform(-1, 1, 5000) * 10.0 ** rng.integers(-8, 1, 5000)
    x = np.concatenate([uniform, small]).astype(np.float32)
    return x[(x >= lo) & (x <= hi)]


@pytest.mark.parametrize("name", TABLE)
def test_relative_error_within_float32_ulps(name):
    fn, ref, (lo, hi), tol = TABLE[name]
    x = _samples(lo, hi)
    want = ref(x.astype(np.float64))
    normal = np.abs(want) > 1.2e-38
    got = _run(fn, x).astype(np.float64)
    absolute_ok = np.abs(got - want) <= 1e-7 * np.maximum(1, np.abs(want))  # near zeros of sin
    rel = np.abs(got - want)[normal & ~absolute_ok] / np.abs(want[normal & ~absolute_ok])
    assert rel.size == 0 or rel.max() < tol


@pytest.mark.parametrize("name", [n for n in TABLE if n not in ("sin", "cos", "tan")])
def test_edge_cases_match_numpy(name):
    fn, ref, _, tol = TABLE[name]
    with np.errstate(all="ignore"):
        want = ref(EDGES.astype(np.float64)).astype(np.float32)
    got = _run(fn, EDGES)
    tiny = np.abs(want) < 1.2e-38  # numpy keeps denormals; we flush them to zero, as XLA does
    close = np.isclose(got, want, rtol=max(tol, 1e-6), atol=0, equal_nan=True)
    close |= tiny & (got == 0)
    assert close.all(), f"{EDGES[~close]} -> {got[~close]}, numpy {want[~close]}"


# JAX 0.10.2's jitted sin, cos and tan of huge float32 (the reduction gave inf and 1e21 here)
HUGE = np.array([1e30, -3e38, 1e7, 524288.0, -1.6263033e16], np.float32)
HUGE_WANT = {
    "sin": [-0.79116344, -0.87490487, 0.42054778, 0.16761802, -0.31655249],
    "cos": [-0.6116048, -0.48429477, -0.90727037, 0.985852, -0.94857502],
    "tan": [1.29358613, 1.80655444, -0.46353084, 0.17002352, 0.33371374],
}


@pytest.mark.parametrize("name", ["sin", "cos", "tan"])
def test_huge_arguments_reduce_exactly(name):
    """|x| >= 120 reduces by Payne-Hanek (glibc's): within an ulp of float64 numpy over all
    float32."""
    fn, ref, _, _ = TABLE[name]
    np.testing.assert_allclose(_run(fn, HUGE), HUGE_WANT[name], rtol=2e-7)
    mags = 10.0 ** rng.uniform(5, 38.5, 20000) * rng.choice([-1, 1], 20000)
    x = mags.astype(np.float32)
    want = ref(x.astype(np.float64))
    assert (np.abs(_run(fn, x) - want) <= 1.2e-7 * np.abs(want)).all()


@pytest.mark.parametrize("name", ["exp", "log", "tanh", "logistic", "erf", "erf_inv", "sin", "tan"])
def test_loops_vectorize(name):
    apply = _loop(TABLE[name][0])
    apply(np.ones(16, np.float32), np.empty(16, np.float32))
    assert "x float>" in next(iter(apply.inspect_llvm().values())), f"{name} loop is scalar"


@pytest.mark.parametrize("name", ["exp", "expm1", "tanh", "logistic", "sinh", "atanh"])
def test_float64_loops_vectorize(name):
    """The float64 kernels are `forceinline`: LLVM inlines even expm1's or sinh's body into
    the loop (its threshold left them out-of-line calls, and the loop scalar)."""
    apply = _loop(getattr(vm, f"{name}_f64"))
    apply(np.ones(16), np.empty(16))
    assert "x double>" in next(iter(apply.inspect_llvm().values())), f"{name} loop is scalar"


def test_reduction_helpers_propagate_nan_and_vectorize():
    @njit(error_model="numpy")
    def total_and_max(x):
        s, m = np.float32(0), np.float32(-np.inf)
        for i in range(x.size):
            s = vm.radd(s, x[i])
            m = vm.maximum(m, x[i])
        return s, m

    x = rng.uniform(0, 1, 1000).astype(np.float32)
    s, m = total_and_max(x)
    assert np.isclose(s, x.astype(np.float64).sum(), rtol=1e-5) and m == x.max()
    x[10] = np.nan
    assert np.isnan(total_and_max(x)[1])
    assert "x float>" in next(iter(total_and_max.inspect_llvm().values()))


XLA = np.load(os.path.join(os.path.dirname(__file__), "xla_transcendentals.npz"))
XLA_OPS = dict(p.split("=") for p in XLA["paths"])
_SPACES = {"numpy": jnp, "lax": lax}


def _same_as_xla(name, got):
    x, want = XLA["x"], XLA[name]
    bad = (got.view(np.uint32) != want.view(np.uint32)) & ~(np.isnan(got) & np.isnan(want))
    assert not bad.any(), f"{x[bad][:5]} -> {got[bad][:5]}, JAX {want[bad][:5]}"


def _xla_op(name):
    space, attr = XLA_OPS[name].split(".")
    return getattr(_SPACES[space], attr)


@pytest.mark.parametrize("name", XLA_OPS)
def test_jit_is_xla_bit_for_bit(name):
    """jit's float32 results are JAX 0.10.2's jitted ones (XLA's CPU kernels) in every bit,
    denormal inputs and results included (XLA's threads flush them)."""
    fn = core.jit(_xla_op(name))
    _same_as_xla(name, np.asarray(fn(XLA["x"], XLA["y"]) if name == "arctan2" else fn(XLA["x"])))


@pytest.mark.parametrize("name", XLA_OPS)
def test_eager_is_xla_bit_for_bit(name):
    """Eager float32 results run jit's kernels: JAX's in every bit too."""
    x, y = jnp.asarray(XLA["x"]), jnp.asarray(XLA["y"])
    _same_as_xla(name, np.asarray(_xla_op(name)(x, y) if name == "arctan2" else _xla_op(name)(x)))


XLA64 = np.load(os.path.join(os.path.dirname(__file__), "xla_transcendentals_f64.npz"))
XLA64_OPS = dict(p.split("=") for p in XLA64["paths"])
_BINARY = ("arctan2", "power")


def _xla64_op(name):
    space, attr = XLA64_OPS[name].split(".")
    return getattr(_SPACES[space], attr)


def _same_as_xla64(name, got):
    want, x = XLA64[name], XLA64["x"]
    bad = (got.view(np.uint64) != want.view(np.uint64)) & ~(np.isnan(got) & np.isnan(want))
    if name == "power":  # vecmath.pow_f64's partial case: glibc's pow of a flushed denormal base
        bad &= ~((np.abs(x) < np.finfo(np.float64).tiny) & (x != 0))
    assert not bad.any(), f"{name}: {XLA64['x'][bad][:5]} -> {got[bad][:5]}, JAX {want[bad][:5]}"


def test_jit_float64_is_xla_bit_for_bit():
    """jit's float64 results are JAX 0.10.2's jitted ones with jax_enable_x64 in every bit: XLA's
    own exp and tanh and their compositions, the C library's functions under XLA's flushing of
    denormals (one program computes all of them: one compile)."""
    names = list(XLA64_OPS)

    def all_ops(x, y):
        return [_xla64_op(n)(x, y) if n in _BINARY else _xla64_op(n)(x) for n in names]

    with core.enable_x64():
        got = core.jit(all_ops)(jnp.asarray(XLA64["x"]), jnp.asarray(XLA64["y"]))
    for name, value in zip(names, got):
        _same_as_xla64(name, np.asarray(value))


@pytest.mark.parametrize("name", XLA64_OPS)
def test_eager_float64_is_xla_bit_for_bit(name):
    with core.enable_x64():
        x, y = jnp.asarray(XLA64["x"]), jnp.asarray(XLA64["y"])
        got = np.asarray(_xla64_op(name)(x, y) if name in _BINARY else _xla64_op(name)(x))
    _same_as_xla64(name, got)


def test_narrow_arctan2_and_cbrt_edges_are_jaxs():
    """float16 arctan2 is computed in float32 and rounded once (both operands converted), a NaN
    over a denormal is NaN (not the denormal edge's pi/2), and cbrt is glibc's cbrtf, whose
    denormals give -5.5951735e-16 under XLA's flushing: JAX 0.10.2's bits, eager and jitted."""
    y = np.array([1.0, -2.5, 0.1, 3.0, -0.0, np.nan], np.float16)
    x = np.array([2.0, 0.3, -7.0, 1e-7, -1.0, 6.0e-8], np.float16)
    cube = np.array([27.0, -1e-40, 0.001], np.float32)
    for arctan2, cbrt in ((jnp.arctan2, jnp.cbrt), (core.jit(jnp.arctan2), core.jit(jnp.cbrt))):
        got = np.asarray(arctan2(y, x)).view(np.uint16).tolist()
        assert got == [14187, 48590, 16961, 15944, 49736, 32256]
        assert np.isnan(np.asarray(arctan2(np.float32(np.nan), np.float32(1e-40))))
        cube_bits = np.asarray(cbrt(cube)).view(np.uint32).tolist()
        assert cube_bits == [1077936128, 2787198232, 1036831949]
