"""The library's building blocks (`core/backends/numba/library/blocks.py`): helpers compile
once per argument types (not once per literal constant a caller passes), `segment` is the
slice it replaces, and `im2col`, a library function of its own, fills the patch matrix of the
forward convolution and of the kernel gradient as numpy's loops do."""

import numba
import numpy as np

from core.backends.numba.library import blocks, conv, entry
from core.backends.numba.library.taps import KERNEL, OUTS, RHS_DILATION, STRIDES


@blocks.jit
def _scaled(a, k):
    return a[0] * k


@numba.njit
def _callers(a):
    return _scaled(a, 2) + _scaled(a, 3) + _scaled(a, 5)


def test_a_helper_compiles_once_for_its_callers_constants():
    assert _callers(np.array([7], np.int64)) == 70
    assert len(_scaled.overloads) == 1  # int64, not Literal[int](2), (3) and (5)
    (sig,) = _scaled.overloads
    assert str(sig[1]) == "int64"


@numba.njit
def _segments(a, start, n):
    s = blocks.segment(a, start, n)
    s[0] = -1  # shares a's memory
    return s.shape[0], s.sum()


def test_segment_is_the_slice():
    a = np.arange(10, dtype=np.int64)
    assert _segments(a, 3, 4) == (4, -1 + 4 + 5 + 6)
    assert a[3] == -1
    assert _segments(a, 10, 0) == (0, 0)


def _patches(x, outs, kern, strides, rhs_dil, lo, order):
    """numpy's patch matrix of a 1-d convolution of x (batch, size, c), rows (b, output
    position) and columns (tap, c) for the forward convolution ("forward"); rows (b, tap),
    columns (output position, c) for the kernel gradient (whose rows are its taps)."""
    nb, size, c = x.shape
    rows, cols = (outs, kern) if order == "forward" else (kern, outs)
    out = np.zeros((nb * rows, cols * c), x.dtype)
    for b in range(nb):
        for q in range(outs):
            for k in range(kern):
                pos = q * strides + k * rhs_dil - lo
                if 0 <= pos < size:
                    r, col = (q, k) if order == "forward" else (k, q)
                    out[b * rows + r, col * c : (col + 1) * c] = x[b, pos]
    return out


def test_im2col_fills_both_convolutions_patch_matrices():
    im2col = entry.dispatcher("im2col__f4")
    rng = np.random.default_rng(0)
    for c in (1, 3, 20):  # short runs (column by column) and long ones
        x = rng.standard_normal((2, 7, c)).astype(np.float32)
        size, outs, kern, strides, rhs_dil, lhs_dil, lo = 7, 4, 3, 2, 1, 1, 1
        # the forward convolution's parameters: p[8:] = the seven per-axis vectors
        p = np.array([1, 2, c, c, 1, 1, 0, 0, size, outs, kern, strides, rhs_dil, lhs_dil, lo])
        for order, roles, at in (
            ("forward", (OUTS, STRIDES, KERNEL, RHS_DILATION), 8),
            ("gradient", (KERNEL, RHS_DILATION, OUTS, STRIDES), 8),
        ):
            want = _patches(x, outs, kern, strides, rhs_dil, lo, order)
            buf = np.full(want.size, np.nan, np.float32)
            q = np.array([2, 0, 0, c, c, at, *roles], np.int64)
            im2col(x.ravel(), buf, p.astype(np.int64), q)
            np.testing.assert_array_equal(buf.reshape(want.shape), want)
    assert conv.SHORT_RUN > 3  # c = 1 and 3 took the column-by-column path


@numba.njit
def _product(a, b, out, dims, fortran, c0, c1):
    blocks.product(a, b, out, dims, fortran, c0, c1)


def test_product_reads_either_layout_and_writes_a_band_of_columns():
    rng = np.random.default_rng(1)
    m, k, n, c0, c1 = 5, 4, 6, 1, 4
    for dtype in (np.float32, np.float64, np.int64):
        a = (rng.standard_normal((m, k)) * 4).astype(dtype)
        b = (rng.standard_normal((k, n)) * 4).astype(dtype)
        for fa in (0, 1):
            for fb in (0, 1):
                flat = [x.ravel(order="F" if f else "C") for x, f in ((a, fa), (b, fb))]
                out = np.full(m * n, 7, dtype)
                _product(*flat, out, (m, k, n), (fa, fb), c0, c1)
                want = np.full((m, n), 7, dtype)
                want[:, c0:c1] = a @ b[:, c0:c1]
                tol = 1e-5 if dtype == np.float32 else 1e-12
                np.testing.assert_allclose(out.reshape(m, n), want, rtol=tol)
