"""Eager float32 and float64 transcendentals run `jit`'s vecmath kernels (`core/backends/numba/
transcendentals.py`): eager results equal jitted ones bit for bit, and print as JAX's do."""

import warnings

import ml_dtypes
import numpy as np
import pytest

import core
import core.numpy as jnp
from core.backends.numba.transcendentals import BF16_VIA_F32, NARROW_VIA_F32, VM_F32, VM_F64
from core.jit import narrow, program
from core.jit.errors import NumpyFallbackWarning


def _grid(dtype=np.float32) -> np.ndarray:
    """Specials (nan, infs, signed zeros, denormals, huge values, each kernel's edges) and 4099
    values over many scales (an odd size: vector loop and remainder)."""
    f32 = np.finfo(np.float32)
    specials = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, -1e-45, 1e-40, -3e-39]
    specials += [f32.tiny, -f32.tiny, f32.max, -f32.max, 1e30, -1e30, 88.72, 88.73, -87.3]
    specials += [-103.9, -104.0, 128.0, -150.0, 1.0, -1.0, 0.5, 0.9999999, -0.9999999, 2.0**19]
    specials += [-(2.0**19), 1e4 * np.pi, 1e-4, 9.0, -9.0, 1e38]
    rng = np.random.default_rng(0)
    scales = 10.0 ** rng.uniform(-8, 8, 2000)
    values = [rng.standard_normal(1000) * 3, rng.uniform(-1, 1, 1000), scales, -scales[:99]]
    with np.errstate(over="ignore"):  # huge values become inf in float16
        return np.concatenate([np.asarray(specials), *values]).astype(np.float32).astype(dtype)


def _bits(x) -> np.ndarray:
    x = np.asarray(x)
    return x.view(np.dtype(f"u{x.dtype.itemsize}"))


def _same_bits(got, want, nan_bits: bool = True) -> None:
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    got, want = got.reshape(-1), want.reshape(-1)
    differ = _bits(got) != _bits(want)
    if not nan_bits:  # any NaN equals any NaN
        differ &= ~(np.isnan(got.astype(np.float32)) & np.isnan(want.astype(np.float32)))
    bad = np.nonzero(differ)[0]
    assert bad.size == 0, f"{bad.size} differ, e.g. {got[bad[:5]]} != {want[bad[:5]]}"


_DTYPES = [np.float32, np.float16, ml_dtypes.bfloat16]


def _operands(prim, x):
    """`x`, and for a binary primitive (atan2, pow) a permutation of it as the second operand."""
    return [x, np.random.default_rng(1).permutation(x)][: prim.nargs]


@pytest.mark.parametrize("dtype", _DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("prim", list(VM_F32), ids=str)
def test_eager_equals_jit_bit_for_bit(prim, dtype):
    x = _grid(dtype)
    nan_bits = dtype == np.float32
    # jit computes 16-bit floats in fused float32 loops (`core/jit/narrow.py`), eager in
    # separate ones: a NaN's sign may differ
    if dtype == ml_dtypes.bfloat16:
        # XLA's expansions (asin: atan2) meet numpy's and numba's own float32 functions on
        # subnormal values (XLA flushes them): inputs that are or make them (asin(x) =
        # 2 atan2(x, 2) halves x) are left out
        x = x[~((np.abs(x.astype(np.float32)) < 2**-125) & (x != 0))]
    xs = [jnp.asarray(v) for v in _operands(prim, x)]
    f = core.jit(prim.bind)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumpyFallbackWarning)  # float16: numpy back end
        first = f(*xs)
        assert program.wait_optimized(600)  # a first call may run quick-tier code
        optimized = f(*xs)
    eager = prim.bind(*xs)
    _same_bits(eager, first, nan_bits)
    _same_bits(eager, optimized, nan_bits)


# float64 edges: exp's clamps, tanh's, log1p's, arcsinh's and arccosh's thresholds, denormals
_F64_SPECIALS = [709.78, 709.79, -708.39, -708.4, -745.2, 17.714196154005176, 20.0, 1e-310]
_F64_SPECIALS += [-1e-310, 5e-324, 0.41421356237309503, 1.3407807929942596e154, 1.7e308]


@pytest.mark.parametrize("prim", list(VM_F64), ids=str)
def test_eager_float64_equals_jit_bit_for_bit(prim):
    xs = _operands(prim, np.concatenate([_grid(np.float64), _F64_SPECIALS]))
    with core.enable_x64():
        xs = [jnp.asarray(v) for v in xs]
        f = core.jit(prim.bind)
        first = f(*xs)
        assert program.wait_optimized(600)
        optimized = f(*xs)
        eager = prim.bind(*xs)
    assert np.asarray(eager).dtype == np.float64
    _same_bits(eager, first)
    _same_bits(eager, optimized)


@pytest.mark.parametrize("dtype", _DTYPES[1:], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("prim", list(VM_F32), ids=str)
def test_narrow_floats_computed_in_float32_as_xla(prim, dtype):
    x = _grid(dtype)
    bf16 = dtype == ml_dtypes.bfloat16
    if prim.name in narrow.FORMAT_OF[np.dtype(dtype)].expansions:
        pytest.skip("XLA's expansion, against JAX's bits in tests/core/jit/test_narrow_jit.py")
    xs = _operands(prim, x)
    got = prim.bind(*map(jnp.asarray, xs))
    with np.errstate(all="ignore"):
        if prim not in (BF16_VIA_F32 if bf16 else NARROW_VIA_F32):  # XLA composes these
            want = prim.np_fn(*xs)
        else:
            wide = [jnp.asarray(v.astype(np.float32)) for v in xs]
            want = np.asarray(prim.bind(*wide)).astype(dtype)
    _same_bits(got, want)


def test_layouts_zero_d_empty_and_weak_types():
    x = np.arange(24, dtype=np.float32).reshape(4, 6) / 7
    want = np.asarray(jnp.sin(jnp.asarray(np.ascontiguousarray(x))))
    _same_bits(jnp.sin(jnp.asarray(x.T)), np.ascontiguousarray(want.T))  # non-contiguous
    _same_bits(jnp.sin(jnp.asarray(x[:, ::2])), want[:, ::2])
    readonly = x.copy()
    readonly.flags.writeable = False
    _same_bits(jnp.sin(readonly), want)
    assert jnp.exp(jnp.zeros((0, 3), jnp.float32)).shape == (0, 3)
    y = jnp.exp(jnp.float32(1.0))
    assert y.shape == () and y.dtype == jnp.float32
    weak = jnp.exp(1.0)
    assert weak.weak_type and weak.dtype == jnp.float32
    _same_bits(weak, y)


def test_no_floating_point_warnings():
    x = np.array([np.nan, np.inf, -np.inf, 1e30, -1e30, 0.0, -1.0, 11.5, -2.0], np.float32)
    with np.errstate(over="ignore"):
        operands = [jnp.asarray(x.astype(dtype)) for dtype in _DTYPES]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for prim in VM_F32:
            for operand in operands:
                prim.bind(*[operand] * prim.nargs)


# float32 bits JAX 0.10.2 gives on the CPU (/opt/ref/bin/python): jnp.sin(jnp.float32(1.)), ...
_JAX_BITS = [
    (jnp.sin, 1.0, 0x3F576AA4),  # prints 0.84147096 (numpy: 0.841471)
    (jnp.cos, 1.0, 0x3F0A5140),
    (jnp.tan, 1.0, 0x3FC75923),
    (jnp.exp, 1.0, 0x402DF854),  # 2.7182817
    (jnp.log, 1.0, 0x00000000),
    (core.nn.sigmoid, 1.0, 0x3F3B26A8),
    (jnp.sin, -0.0, 0x80000000),
    (jnp.tan, -0.0, 0x80000000),
    (jnp.tanh, -0.0, 0x80000000),
    (jnp.log1p, -0.0, 0x80000000),  # a binomial sampler's loop needs it (1/-0.0 is -inf)
    (jnp.expm1, -0.0, 0x80000000),
    (jnp.sin, 1e30, 0xBF4A89B0),  # glibc's sinf, which XLA calls: Payne-Hanek from |x| >= 120
    (jnp.cos, 120.0, 0x3F506E2A),
    (jnp.tan, 0.7, 0x3F57A036),  # glibc's __kernel_tanf near pi/4
    (jnp.tan, 1e-40, 0x000116C2),  # tanf returns a denormal x unchanged
    (core.lax.erf, 0.5, 0x3F053F7B),
    (core.lax.erf, -1e-40, 0x80000000),  # XLA's threads read a denormal as zero
    (core.lax.erf_inv, 0.5, 0x3EF430FE),
    (core.lax.erf_inv, -0.999, 0xC014E999),
]


@pytest.mark.parametrize(("fn", "x", "bits"), _JAX_BITS, ids=lambda v: getattr(v, "__name__", ""))
def test_jax_values(fn, x, bits):
    got = fn(jnp.float32(x))
    assert int(_bits(got)) == bits
    assert int(_bits(core.jit(fn)(jnp.float32(x)))) == bits


def test_prints_as_jax():
    assert str(jnp.sin(jnp.float32(1.0))) == "0.84147096"
