"""Kernel taps that read only padding (`core/backends/numba/library/taps.py`): the forward,
input-gradient and kernel-gradient convolutions run on the box of taps that read the input and
give the values of the whole kernel (numpy's eager convolution), in floats and integers."""

import numba
import numpy as np
import pytest

import core
from core import lax
from core.backends.numba.library import taps

_rng = np.random.default_rng(2)
_DN = ("NHWC", "HWIO", "NHWC")


def _values(x, w, strides, padding, rhs_dilation, g):
    """The forward, input gradient and kernel gradient."""

    def conv(x, w):
        return lax.conv_general_dilated(
            x, w, strides, padding, rhs_dilation=rhs_dilation, dimension_numbers=_DN
        )

    def grads(x, w, g):
        y, back = core.vjp(conv, x, w)
        return (y, *back(g))

    return core.jit(grads)(x, w, g), grads(x, w, g)  # eager: numpy


@pytest.mark.parametrize(
    "image, kernel, strides, padding, rhs_dilation",
    [
        ((1, 1), (3, 3), (1, 1), "SAME", (1, 1)),  # the centre tap only (a ResNet's last layer)
        ((2, 2), (3, 3), (2, 2), "SAME", (1, 1)),  # a 2x2 box: padding (0, 1), stride 2
        ((1, 3), (3, 2), (1, 1), ((2, 2), (1, 0)), (1, 1)),  # a box of one row, taps of one axis
        ((1, 4), (3, 3), (1, 1), "SAME", (1, 1)),  # the middle row: one run of the full kernel
        ((2, 2), (3, 3), (1, 1), ((2, 2), (2, 2)), (2, 2)),  # dilated taps
    ],
)
def test_convolutions_on_the_box_of_taps_equal_the_whole_kernel(
    image, kernel, strides, padding, rhs_dilation
):
    x = _rng.standard_normal((3, *image, 6), dtype=np.float32)
    w = _rng.standard_normal((*kernel, 6, 8), dtype=np.float32)  # dx: the output side
    out_shape = core.eval_shape(
        lambda x, w: lax.conv_general_dilated(
            x, w, strides, padding, rhs_dilation=rhs_dilation, dimension_numbers=_DN
        ),
        x,
        w,
    ).shape
    g = _rng.standard_normal(out_shape, dtype=np.float32)
    got, want = _values(x, w, strides, padding, rhs_dilation, g)
    for a, b in zip(got, want, strict=True):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-4, atol=1e-4)


def test_integer_convolutions_skip_padding_taps_exactly():
    """int32 on 1x1 images, 3x3 SAME: the forward, the input gradient's convolution (the
    reversed kernel read as it is) and the kernel gradient's (the batch as features), as JAX's
    transposes write them (integer vjps are float0 in JAX)."""
    x = _rng.integers(-3, 4, (2, 1, 1, 3)).astype(np.int32)
    w = _rng.integers(-3, 4, (3, 3, 3, 4)).astype(np.int32)
    g = _rng.integers(-3, 4, (2, 1, 1, 4)).astype(np.int32)
    pad = ((1, 1), (1, 1))

    def convs(x, w, g):
        conv = lax.conv_general_dilated
        return (
            conv(x, w, (1, 1), pad, dimension_numbers=_DN),
            conv(g, lax.rev(w, (0, 1)), (1, 1), pad, dimension_numbers=("NHWC", "HWOI", "NHWC")),
            conv(x, g, (1, 1), pad, dimension_numbers=("CHWN", "IHWO", "HWNC")),
        )

    for a, b in zip(core.jit(convs)(x, w, g), convs(x, w, g), strict=True):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def test_tap_box_finds_the_taps_that_read_the_input():
    """Per axis the range of taps some output position reads inside the input: 3x3 SAME on
    1x1 the centre, with stride 2 on 2x2 (padding (0, 1)) the first two; an axis whose taps
    all read padding keeps all of them."""
    tap_box = numba.njit(taps.tap_box.py_func)  # the library's helper has no Python entry
    args = (1, taps.KERNEL, taps.OUTS, taps.RHS_DILATION, taps.STRIDES)
    # nsp, then sizes, outs, kernel, strides, rhs dilations, lhs dilations, low paddings
    p = np.array([2, 1, 2, 1, 1, 3, 3, 1, 2, 1, 1, 1, 1, 1, 0], np.int64)
    box, count = tap_box(p, *args)
    assert list(box) == [1, 0, 2, 2] and count == 2
    none = np.array([1, 2, 1, 3, 1, 1, 1, 5], np.int64)  # every tap reads padding
    box, count = tap_box(none, *args)
    assert list(box) == [0, 3] and count == 3


def test_box_start_is_the_first_tap_of_a_box_that_is_one_run():
    """A box is one run of the row-major kernel when every axis after its first of more than
    one tap holds all its taps; reversed, tap t of an axis of n is stored at n - 1 - t."""
    box_start = numba.njit(taps.box_start.py_func)
    k = np.array([3, 3], np.int64)
    centre, row, square = ([1, 1, 2, 2], [1, 0, 2, 3], [0, 0, 2, 2])
    assert [box_start(k, np.array(b, np.int64), False) for b in (centre, row, square)] == [4, 3, -1]
    assert box_start(k, np.array([0, 1, 1, 2], np.int64), True) == 7  # tap (0, 1) at (2, 1)
    assert box_start(np.array([3, 1], np.int64), np.array([0, 0, 2, 1], np.int64), False) == 0
