"""Library functions as LLVM routines (core/backends/llvm/routines.py) against the same functions
compiled by numba: bit for bit over a table of shapes and dtypes, for the threaded matrix
products' functions (early returns, `while` loops, conditional views, intrinsics' values) and
`run_parts` (a `prange` run by numba's threading layer from the routine);
a function the translator does not lower is compiled by numba, and the reason is cached; which
library functions it leaves to numba is a table (`LEFT_TO_NUMBA`)."""

import contextlib

import numpy as np
import pytest
from llvmlite import ir

from core.backends.llvm import translate
from core.backends.numba.library import bands, entry, products, skinny
from core.jit import cache_files

routines = entry.routines  # imported through the library, in its import order

RNG = np.random.default_rng(0)


@contextlib.contextmanager
def _by_numba(*names: str, code: str):
    """Library functions `names` (in dtype `code`) run as numba compiled them: their slots
    point at numba's machine code while the block runs, then at the routines again."""
    loaded = []
    for name in names:
        attr = entry.call_name(name, code)
        fname, sig = entry.signature_of(attr)
        entry.load(fname, sig)
        cell = entry._SLOTS[entry.slot(fname, sig)]
        loaded.append((cell, int(cell[0]), entry._numba(fname, sig)))
    try:
        for cell, _, numba_address in loaded:
            cell[0] = numba_address
        yield
    finally:
        for cell, routine_address, _ in loaded:
            cell[0] = routine_address


def _routine(name: str, code: str) -> bool:
    """Whether library function `name` in dtype `code` is lowered as a routine (its IR built,
    not compiled: the function may be loaded already)."""
    fname, sig = entry.signature_of(entry.call_name(name, code))
    try:
        routines.Routine(entry._FUNCTIONS[fname][0], sig).function(ir.Module(fname), fname)
    except translate.Unsupported:
        return False
    return True


# The library functions the translator leaves to numba, and why. A new refusal fails the test:
# one (a return in a loop of the convolutions' `taps.box_start`) doubled the MNIST CNN's cold
# first call, its four callers compiled by numba at O3 outside the quick tier.
LEFT_TO_NUMBA = {
    ("exchange", "f4"): "a return in a loop",
    ("exchange", "f8"): "a return in a loop",
    ("fft_passes", "f4"): "copy between dtypes",
    ("irfft_axis", "f4"): "copy between dtypes",
}


@pytest.mark.parametrize("code", ["f4", "f8"])
def test_library_functions_lower_as_routines(code):
    refused = set()
    for name, (_, template) in sorted(entry._FUNCTIONS.items()):
        if not _routine(name, "_".join([code] * len(entry._letters(template)))):
            refused.add(name)
    assert refused == {name for name, c in LEFT_TO_NUMBA if c == code}


def _operand(shape, dtype, fortran: bool):
    x = RNG.standard_normal(shape).astype(dtype)
    return np.asfortranarray(x) if fortran else x


# (m, k, n): one call; bands of rows; bands of columns; wide bands over a long contraction;
# slabs of a long contraction (one band); odd sizes
PRODUCTS = [(8, 16, 8), (1024, 128, 512), (96, 256, 2048), (2048, 1024, 1100), (128, 2048, 96)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("mkn", PRODUCTS)
@pytest.mark.parametrize("fortran", [(False, False), (True, False), (False, True)])
def test_gemm_bands_and_slabs_equal_numba(dtype, mkn, fortran):
    code = np.dtype(dtype).str[1:]
    assert all(_routine(name, code) for name in ("gemm_bands", "gemm_slab", "run_parts"))
    m, k, n = mkn
    a, b = _operand((m, k), dtype, fortran[0]), _operand((k, n), dtype, fortran[1])
    got, want = np.empty((m, n), dtype), np.empty((m, n), dtype)
    products.bands(a, b, got)
    with _by_numba("gemm_bands", "gemm_slab", "run_parts", code=code):
        products.bands(a, b, want)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_allclose(got, a.astype(np.float64) @ b, rtol=1e-3, atol=1e-3)


# (m, k, n): one call; tiles and the odd row; columns past the last tile; threaded columns
SKINNY = [(1, 3, 5), (2, 8, 4), (5, 33, 7), (16, 256, 1024), (15, 300, 259)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("mkn", SKINNY)
def test_skinny_functions_equal_numba(dtype, mkn):
    code = np.dtype(dtype).str[1:]
    names = ("skinny_dot", "skinny_part", "skinny_columns", "run_parts")
    assert all(_routine(name, code) for name in names)
    m, k, n = mkn
    a, bt = RNG.standard_normal((m, k)).astype(dtype), RNG.standard_normal((n, k)).astype(dtype)
    got, want = np.empty((m, n), dtype), np.empty((m, n), dtype)
    skinny.dot_nt(a, bt, got)
    with _by_numba(*names, code=code):
        skinny.dot_nt(a, bt, want)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_allclose(got, a.astype(np.float64) @ bt.T, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("mkn", SKINNY)
def test_skinny_rows_functions_equal_numba(dtype, mkn):
    code = np.dtype(dtype).str[1:]
    names = ("skinny_nn", "skinny_rows_part", "skinny_rows", "run_parts")
    assert all(_routine(name, code) for name in names)
    m, k, n = mkn
    a, b = RNG.standard_normal((m, k)).astype(dtype), RNG.standard_normal((k, n)).astype(dtype)
    got, want = np.empty((m, n), dtype), np.empty((m, n), dtype)
    skinny.dot_nn(a, b, got)
    with _by_numba(*names, code=code):
        skinny.dot_nn(a, b, want)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_allclose(got, a.astype(np.float64) @ b, rtol=1e-3, atol=1e-3)


def _values(shape, dtype):
    """Standard normal values of `dtype` (complex ones with an imaginary part too)."""
    x = RNG.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(dtype)


# (batch, m, k, n): one run in order; runs on the threads (complex ones: a batched product of
# complex operands hands them to BLAS only, so its routines take complex arrays)
BATCHED = [(3, 4, 5, 6), (64, 64, 32, 64), (40, 17, 9, 33)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("bmkn", BATCHED)
@pytest.mark.parametrize("transposed", [(0, 0), (1, 0), (0, 1)])
def test_gemm_batched_equals_numba(dtype, bmkn, transposed):
    code = np.dtype(dtype).str[1:]
    assert all(_routine(n, code) for n in ("gemm_batched", "gemm_batched_run", "run_parts"))
    nb, m, k, n = bmkn
    tx, ty = transposed
    x = _values((nb, k, m) if tx else (nb, m, k), dtype)
    y = _values((nb, n, k) if ty else (nb, k, n), dtype)
    xo = np.arange(nb, dtype=np.int64) * m * k
    yo = np.arange(nb, dtype=np.int64) * k * n
    p = np.array([m, k, n, m if tx else k, k if ty else n, tx, ty], np.int64)
    run = entry.dispatcher(f"gemm_batched__{code}")
    got, want = np.empty(nb * m * n, dtype), np.empty(nb * m * n, dtype)
    run(x.ravel(), xo, y.ravel(), yo, got, p)
    with _by_numba("gemm_batched", "gemm_batched_run", "run_parts", code=code):
        run(x.ravel(), xo, y.ravel(), yo, want, p)
    np.testing.assert_array_equal(got, want)
    xs = np.swapaxes(x, 1, 2) if tx else x
    ys = np.swapaxes(y, 1, 2) if ty else y
    ref = np.einsum("bmk,bkn->bmn", xs.astype(np.complex128), ys)
    np.testing.assert_allclose(got.reshape(nb, m, n), ref, rtol=1e-3, atol=1e-3)


def test_band_plan_is_numbas():
    """The bands' and slabs' plans (helpers inlined into the routines) are the library's."""
    for m, k, n in PRODUCTS:
        assert bands.band_plan(m, k, n)[0] >= 1 and bands.slab_plan(m, k, n)[0] >= 1


def _unsupported(a, p):
    """A library-like function with a construct the translator does not lower (a generator)."""
    p[0] = sum(x for x in range(3))


def test_unsupported_falls_back_and_the_reason_is_cached(tmp_path, monkeypatch):
    monkeypatch.setattr(cache_files, "cache_dir", lambda: tmp_path)
    from numba import types  # noqa: PLC0415

    sig = (types.Array(types.float32, 1, "C"), types.Array(types.int64, 1, "C"))
    with pytest.raises(translate.Unsupported) as first:
        routines.load(_unsupported, sig, "v")
    assert list(tmp_path.glob("*.routine"))  # the reason, cached
    monkeypatch.setattr(routines, "_compile", lambda *a: pytest.fail("translated again"))
    with pytest.raises(translate.Unsupported) as again:
        routines.load(_unsupported, sig, "v")
    assert str(again.value) == str(first.value)[:300]
