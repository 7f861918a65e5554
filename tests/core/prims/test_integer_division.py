"""Eager integer `lax.div` (towards zero, x / 0 = -1 or all ones) is exact beyond float64's 53
bits, as JAX 0.10.2's (values recorded from it, x64): it was a float quotient truncated."""

import numpy as np

import core
import core.numpy as jnp
from core import lax

_BIG = np.array([2**62 + 1, -(2**62) - 3, 9007199254740993, -9223372036854775807], np.int64)
_BIG_BY = np.array([3, 7, 2, 2], np.int64)
_UBIG = np.array([2**63 + 5, 2**64 - 1], np.uint64)
_UBIG_BY = np.array([3, 7], np.uint64)


def test_eager_64_bit_integer_division_is_exact():
    with core.enable_x64():
        np.testing.assert_array_equal(
            lax.div(_BIG, _BIG_BY),
            [1537228672809129301, -658812288346769701, 4503599627370496, -4611686018427387903],
        )
        np.testing.assert_array_equal(
            jnp.floor_divide(_BIG, _BIG_BY),
            [1537228672809129301, -658812288346769701, 4503599627370496, -4611686018427387904],
        )
        np.testing.assert_array_equal(
            lax.div(_UBIG, _UBIG_BY), [3074457345618258604, 2635249153387078802]
        )


def test_eager_small_integer_division_keeps_c_semantics():
    x = np.array([-128, 127, -7, 7, 5], np.int8)
    y = np.array([-1, 3, 2, 0, -2], np.int8)
    np.testing.assert_array_equal(lax.div(x, y), [-128, 42, -3, -1, -2])  # JAX 0.10.2
    u = np.array([255, 7, 0], np.uint8)
    np.testing.assert_array_equal(lax.div(u, np.array([2, 0, 3], np.uint8)), [127, 255, 0])
