"""core.numpy.fft against numpy.fft (values) and JAX (complex64/float32 dtypes)."""

import warnings

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.numpy import fft

RNG = np.random.default_rng(0)
X = RNG.normal(size=(3, 5)).astype(np.float32)
Z = (RNG.normal(size=(3, 5)) + 1j * RNG.normal(size=(3, 5))).astype(np.complex64)
X3 = RNG.normal(size=(2, 3, 4)).astype(np.float32)
R3 = np.fft.rfftn(X3).astype(np.complex64)

ONE_D = [
    # (name, input, axis, output dtype)
    ("fft", Z, 0, "complex64"),
    ("fft", X, -1, "complex64"),
    ("ifft", Z, 1, "complex64"),
    ("rfft", X, 1, "complex64"),
    ("irfft", Z, 1, "float32"),
    ("irfft", Z, 0, "float32"),
    ("hfft", Z, 1, "float32"),
    ("ihfft", X, 0, "complex64"),
]


@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
@pytest.mark.parametrize("n", [None, 3, 8])
@pytest.mark.parametrize("name,a,axis,dtype", ONE_D)
def test_1d(name, a, axis, dtype, n, norm):
    got = getattr(fft, name)(a, n, axis, norm)
    want = getattr(np.fft, name)(a, n, axis, norm)
    assert str(got.dtype) == dtype
    assert got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)


ND = [
    ("fftn", X3, None, None),
    ("fftn", X3, (4, 2), (1, 2)),
    ("ifftn", X3, None, (0, 2)),
    ("ifftn", X3, (3, 5), (2, 0)),
    ("rfftn", X3, None, None),
    ("rfftn", X3, (3, 5), (2, 0)),
    ("irfftn", R3, None, None),
    ("irfftn", R3, (2, 6), (1, 2)),
    ("fft2", X3, None, (-2, -1)),
    ("ifft2", X3, (2, 2), (-2, -1)),
    ("rfft2", X3, None, (0, 1)),
    ("irfft2", R3, (3, 4), (-2, -1)),
]


@pytest.mark.parametrize("name,a,s,axes", ND)
def test_nd(name, a, s, axes):
    got = getattr(fft, name)(a, s, axes)
    want = getattr(np.fft, name)(a, s, axes)
    assert str(got.dtype) == ("float32" if name.startswith("irfft") else "complex64")
    assert got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)


# Under `jit` (core/backends/numba/library/fft.py): every 1-D case at each norm, and the n-D
# ones, at lengths that take every path (radix 2, 3, 4, 5, an odd factor 7, one pass of 53 in
# 106, Bluestein's algorithm for 97), in one program per precision.
JIT_1D = [
    (name, a_, axis, n, norm)
    for (name, a_, axis, _), n, norm in zip(
        ONE_D * 3,
        [None, 3, 8, 7, 60, 97, 106, 45] * 3,
        ["backward", "ortho", "forward"] * 8,
    )
]
WIDE = RNG.normal(size=(4, 97)) + 1j * RNG.normal(size=(4, 97))


def _jit_program(x64: bool):
    def cast(a):
        a = np.asarray(a)
        if not x64:
            return a
        return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)

    ones = [cast(a) for _, a, *_ in JIT_1D]
    nds = [cast(a) for _, a, *_ in ND] + [cast(WIDE) if x64 else WIDE.astype(np.complex64)]

    def program(ones, nds):
        outs = [getattr(fft, c[0])(a, c[3], c[2], c[4]) for a, c in zip(ones, JIT_1D)]
        outs += [getattr(fft, c[0])(a, c[2], c[3]) for a, c in zip(nds, ND)]
        return outs + [fft.fftn(nds[-1]), fft.irfft(nds[-1], 150), fft.rfft2(nds[-1].real)]

    wants = [getattr(np.fft, c[0])(a, c[3], c[2], c[4]) for a, c in zip(ones, JIT_1D)]
    wants += [getattr(np.fft, c[0])(a, c[2], c[3]) for a, c in zip(nds, ND)]
    w = nds[-1].astype(np.complex128)
    wants += [np.fft.fftn(w), np.fft.irfft(w, 150), np.fft.rfft2(w.real)]
    return core.jit(program)(ones, nds), wants


@pytest.mark.parametrize("x64", [False, True], ids=["complex64", "complex128"])
def test_jit_matches_numpy_in_both_precisions(x64):
    with core.enable_x64(x64):
        outs, wants = _jit_program(x64)
    real = np.float64 if x64 else np.float32
    for out, want in zip(outs, wants, strict=True):
        assert out.dtype == (real if want.dtype.kind == "f" else np.result_type(real, 1j))
        assert out.shape == want.shape
        tol = 1e-13 if x64 else 2e-6
        np.testing.assert_allclose(np.asarray(out), want, rtol=tol, atol=tol * np.abs(want).max())


@pytest.mark.parametrize("n,d", [(1, 1.0), (4, 0.1), (5, 2.0)])
def test_frequencies(n, d):
    for name in ("fftfreq", "rfftfreq"):
        got = getattr(fft, name)(n, d)
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, getattr(np.fft, name)(n, d), rtol=1e-6)
    # JAX computes in float then casts: jnp.fft.fftfreq(4, dtype=jnp.int32) is all zeros
    np.testing.assert_array_equal(fft.fftfreq(4, dtype=np.int32), [0, 0, 0, 0])


@pytest.mark.parametrize("axes", [None, 1, (0, 2)])
def test_shifts(axes):
    np.testing.assert_array_equal(fft.fftshift(X3, axes), np.fft.fftshift(X3, axes))
    np.testing.assert_array_equal(fft.ifftshift(X3, axes), np.fft.ifftshift(X3, axes))


def test_known_jax_value():
    # JAX 0.10.2: jnp.fft.fft(jnp.array([1, 2, 3]))
    got = fft.fft(np.array([1, 2, 3]))
    assert got.dtype == np.complex64
    np.testing.assert_allclose(got, [6, -1.5 + 0.8660254j, -1.5 - 0.8660254j], rtol=1e-6)


@pytest.mark.parametrize(
    "call,err",
    [
        (lambda: fft.fft(X, norm="bad"), ValueError),
        (lambda: fft.fft(X, 0), ValueError),
        (lambda: fft.fft(X, axis=(0, 1)), ValueError),
        (lambda: fft.rfft(Z), ValueError),
        (lambda: fft.fftn(X3, axes=(0, 0)), ValueError),
        (lambda: fft.fftn(X3, s=(2, 2), axes=(0,)), ValueError),
        (lambda: fft.fftfreq([4]), ValueError),
    ],
)
def test_errors(call, err):
    with pytest.raises(err):
        call()


def _power(x):
    spec = fft.rfft(x) * np.array([1, 2, 3], np.complex64)
    return jnp.sum(fft.irfft(spec, 4) ** 2)


XV = np.array([1.0, 2.0, -1.0, 0.5], np.float32)


def test_grad_matches_finite_differences():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # eager transpose of a complex->real convert
        g = np.asarray(core.grad(_power)(XV))
    eps = 1e-2
    num = [
        (_power(XV + eps * e) - _power(XV - eps * e)) / (2 * eps)
        for e in np.eye(4, dtype=np.float32)
    ]
    np.testing.assert_allclose(g, num, rtol=1e-3, atol=1e-3)


def test_jit_grad_vmap():
    want = float(_power(XV))
    np.testing.assert_allclose(core.jit(_power)(XV), want, rtol=1e-6)
    np.testing.assert_allclose(
        core.vmap(_power)(np.stack([XV, 2 * XV])), [want, 4 * want], rtol=1e-5
    )
    g = core.jit(core.grad(_power))(XV)
    np.testing.assert_allclose(g, [-2.0, 18.5, -18.0, 6.5], rtol=1e-5)


_M34 = jnp.arange(12.0).reshape(3, 4)


# (call, first line of JAX 0.10.2's ValueError): a differential run (tools/jax_differential).
@pytest.mark.parametrize(
    "run, first",
    [(lambda: jnp.fft.fft2(_M34, axes=(0, 0)),
      "jax.numpy.fft.fft2 does not support repeated axes. Got axes (0, 0)."),
     (lambda: jnp.fft.rfftn(_M34, axes=(0, 0)),
      "jax.numpy.fft.rfftn does not support repeated axes. Got axes (0, 0)."),
     (lambda: jnp.fft.ifft2(_M34, axes=(1,)),
      "jax.numpy.fft.ifft2 only supports 2 axes. Got axes = (1,)."),
     (lambda: jnp.fft.irfft2(_M34, axes=()),
      "jax.numpy.fft.irfft2 only supports 2 axes. Got axes = ()."),
     (lambda: jnp.fft.fft2(_M34, axes=[0]),
      "jax.numpy.fft.fft2 only supports 2 axes. Got axes = [0]."),
     (lambda: jnp.fft.ifftn(_M34, axes=[1, 1]),
      "jax.numpy.fft.ifftn does not support repeated axes. Got axes [1, 1]."),
     (lambda: jnp.fft.rfft2(_M34, axes=[1, 1]),
      "jax.numpy.fft.rfft2 does not support repeated axes. Got axes [1, 1]."),
     (lambda: jnp.fft.fft(_M34, n=0), "Shape should be positive."),
     (lambda: jnp.fft.fftn(_M34, s=(0, 2)), "Shape should be positive."),
     (lambda: jnp.fft.fftn(_M34, s=(2, 3), axes=(0,)), "Shape and axes have different lengths."),
     (lambda: jnp.fft.fft(_M34, norm="bad"),
      'Invalid norm value bad; should be "backward","ortho" or "forward".')],
)  # fmt: skip
def test_fft_errors_have_jaxs_first_lines(run, first):
    with pytest.raises(ValueError) as info:
        run()
    assert str(info.value).split("\n")[0] == first


# JAX 0.10.2's answers where a differential run found numbax different (tools/jax_differential):
# an empty input gives an empty transform, a 16-bit float spectrum is inverted in float32, XLA's
# real FFT refuses 16-bit floats, and fftfreq takes a float length.
@pytest.mark.parametrize(
    "run, shape, dtype",
    [
        (lambda: fft.ifft(jnp.zeros((0,))), (0,), np.complex64),
        (lambda: fft.irfft(jnp.arange(8.0, dtype=jnp.float16)), (14,), np.float32),
        (lambda: fft.hfft(jnp.arange(8.0, dtype=jnp.float16)), (14,), np.float32),
        (lambda: fft.fftfreq(8.0), (8,), np.float32),
        (lambda: fft.rfftfreq(8.0), (5,), np.float32),
    ],
)
def test_edge_shapes_and_dtypes_as_jax(run, shape, dtype):
    out = run()
    assert out.shape == shape and out.dtype == dtype


def test_half_precision_spectrum_values_and_rfft_refusal():
    got = fft.irfft(jnp.arange(8.0, dtype=jnp.float16))[:8]
    want = [3.5000002, -1.4425479, 0.0, -0.18374403, 0.0, -0.08799393, 3.40598e-08, -0.07142861]
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-6)  # JAX's float32
    np.testing.assert_allclose(np.asarray(fft.fftfreq(8.0)), np.fft.fftfreq(8), rtol=1e-7)
    for f in (fft.rfft, fft.ihfft):
        with pytest.raises(ValueError, match="RFFT input must be float32 or float64, got float16"):
            f(jnp.arange(8.0, dtype=jnp.float16))


# JAX 0.10.2 printed, under x64: fft, rfft, irfft of ones((4,)) of each dtype (JAX's
# `to_inexact_dtype`: only 64-bit integers become float64)
X64_FFT_DTYPES = [
    ("bool", "complex64", "complex64", "float32"),
    ("int8", "complex64", "complex64", "float32"),
    ("uint16", "complex64", "complex64", "float32"),
    ("int32", "complex64", "complex64", "float32"),
    ("uint32", "complex64", "complex64", "float32"),
    ("int64", "complex128", "complex128", "float64"),
    ("uint64", "complex128", "complex128", "float64"),
    ("float32", "complex64", "complex64", "float32"),
    ("float64", "complex128", "complex128", "float64"),
]


@pytest.mark.parametrize("dtype, fft_dtype, rfft_dtype, irfft_dtype", X64_FFT_DTYPES)
def test_integer_input_dtypes_under_x64(dtype, fft_dtype, rfft_dtype, irfft_dtype):
    with core.enable_x64():
        x = jnp.ones((4,), dtype)
        got = [fft.fft(x), fft.rfft(x), fft.irfft(x), fft.fft2(x.reshape(2, 2))]
    assert [str(g.dtype) for g in got] == [fft_dtype, rfft_dtype, irfft_dtype, fft_dtype]


# JAX 0.10.2: the norm factor of int32 lengths is computed in float (no integer overflow).
@pytest.mark.parametrize(
    "norm, name, want",
    [("forward", "ifft", 2.187e09), ("ortho", "fft", 2.1383343e-05), ("ortho", "ifft", 46765.37)],
)
def test_fft_norm_of_large_integer_lengths_does_not_overflow(norm, name, want):
    got = fft._fft_norm(jnp.array([3, 900, 900, 900], dtype=jnp.int32), name, norm)
    assert got.dtype == np.float32
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
def test_frequencies_are_committed_to_the_device_given(name):
    device = core.devices()[-1]
    out = getattr(jnp.fft, name)(6, d=0.5, device=device)
    assert out.devices() == {device}
    np.testing.assert_allclose(np.asarray(out), getattr(np.fft, name)(6, d=0.5), rtol=1e-6)
