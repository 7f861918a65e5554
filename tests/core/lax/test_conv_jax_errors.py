"""Convolution argument errors as JAX 0.10.2 raises them: its exception class and first line
(numbax's fix follows on later lines), for the checks a differential run
(tools/jax_differential, conv_windows) found numbax making in another order or words:
dimension numbers, ranks, group counts of 0, dtypes, `preferred_element_type`, strides (of
another length, or not integers) and padding of the wrong length or form, dilations, negative
padding. The messages were recorded with JAX, not computed here."""

from __future__ import annotations

import numpy as np
import pytest

import core.numpy as jnp
from core import lax

cg = lax.conv_general_dilated
X, W = np.ones((1, 2, 5, 4), np.float32), np.ones((3, 2, 3, 2), np.float32)
X4 = np.ones((2, 4, 4, 3), np.float32)
INCOMPATIBLE = (
    "Input type is incompatible with `preferred_element_type`. The compatible combinations of "
    "(input_type, preferred_element_type) are (integral, integral), (integral, floating), "
    "(floating, floating), (complex, complex."
)


def _dn(dn):
    return lambda: cg(X, W, (1, 1), "SAME", dimension_numbers=dn)


CASES = [
    (
        _dn(("NCHW", "OIHW")),
        TypeError,
        "convolution dimension_numbers list/tuple must be length 3, got 2.",
    ),
    (
        _dn(("NCHW", "OIHW", "NCH")),
        TypeError,
        "convolution dimension_numbers[2] must have len equal to the ndim of lhs and rhs, got 3 "
        "for lhs and rhs shapes (1, 2, 5, 4) and (3, 2, 3, 2).",
    ),
    (
        _dn(("NCHW", "OIHW", "NCHX")),
        TypeError,
        "convolution dimension_numbers elements must each have the same set of spatial "
        "characters, got ('NCHW', 'OIHW', 'NCHX').",
    ),
    (
        _dn(("NCHH", "OIHW", "NCHW")),
        TypeError,
        "convolution dimension_numbers[0] cannot have duplicate characters, got NCHH.",
    ),
    (
        lambda: lax.conv_general_permutations(("NHWC", "HWOO", "NCHW")),
        TypeError,
        "convolution dimension_numbers[1] must contain the characters 'O' and 'I' exactly "
        "once, got HWOO.",
    ),
    (
        _dn("NCHW"),
        TypeError,
        "convolution dimension_numbers must be tuple/list or None, got <class 'str'>.",
    ),
    (
        _dn(("NCHW", 1, "NCHW")),
        TypeError,
        "convolution dimension_numbers elements must be strings, got (<class 'str'>, "
        "<class 'int'>, <class 'str'>).",
    ),
    (
        lambda: cg(X, np.ones((3, 2, 3), np.float32), (1, 1), "SAME"),
        TypeError,
        "convolution requires lhs and rhs ndim to be equal, got 4 and 3.",
    ),
    (
        _dn(lax.ConvDimensionNumbers((0, 1, 2), (0, 1, 2, 3), (0, 1, 2, 3))),
        TypeError,
        "Wrong number of explicit pads for convolution: expected 1, got 2.",
    ),
    (
        lambda: cg(X4, np.ones((4, 2, 2, 2), np.float32), (1, 1), "VALID", feature_group_count=0),
        ValueError,
        "conv_general_dilated feature_group_count must be a positive integer, got 0.",
    ),
    (
        lambda: cg(X4, np.ones((4, 4, 2, 2), np.float32), (1, 1), "VALID", batch_group_count=0),
        ValueError,
        "conv_general_dilated batch_group_count must be a positive integer, got 0.",
    ),
    (
        lambda: cg(X, W.astype(np.float16), (1, 1), "SAME"),
        TypeError,
        "lax.conv_general_dilated requires arguments to have the same dtypes, got float32, "
        "float16.",
    ),
    (
        lambda: cg(X, W, (1, 1), "SAME", preferred_element_type=jnp.float16),
        TypeError,
        "`preferred_element_type` must not be narrower than the original type.",
    ),
    (lambda: cg(X, W, (1, 1), "SAME", preferred_element_type=jnp.int32), TypeError, INCOMPATIBLE),
    (
        lambda: cg(X, W, (1, 1), "SAME", preferred_element_type=jnp.complex64),
        TypeError,
        INCOMPATIBLE,
    ),
    (
        lambda: cg(
            X.astype(np.int8), W.astype(np.int8), (1, 1), "SAME", preferred_element_type=jnp.uint16
        ),
        TypeError,
        "`preferred_element_type` must have the same signedness as the original type.",
    ),
    (
        lambda: cg(X, W, (1, 1, 1), "SAME"),
        ValueError,
        "operands could not be broadcast together with shapes (2,) (3,)",
    ),
    (
        lambda: lax.conv(X, W, (1,), "SAME"),
        ValueError,
        "conv_general_dilated window and window_strides must have the same number of "
        "dimensions, but got 2 and 1",
    ),
    (
        lambda: cg(X, W, (1.0, 1), [(0, 0), (0, 0)]),
        TypeError,
        "'numpy.float64' object cannot be interpreted as an integer",
    ),
    (
        lambda: cg(X, W, (1, 1), [(1, 1)]),
        TypeError,
        "Wrong number of explicit pads for convolution: expected 2, got 1.",
    ),
    (
        lambda: cg(X, W, (1, 1), [(1, 1, 1), (0, 0)]),
        ValueError,
        "padding argument to conv_general_dilated should be a string or a sequence of (low, "
        "high) pairs, got [(1, 1, 1), (0, 0)]",
    ),
    (
        lambda: cg(X, W, (1, 1), "VALID", rhs_dilation=(0, 1)),
        TypeError,
        "All dilations must be positive, got (0, 1).",
    ),
    (  # JAX prints the sizes as np.int64(5), np.int64(4)
        lambda: cg(X, W, (1, 1), [(-6, 0), (0, 0)]),
        ValueError,
        "Negative padding is larger than the size of the corresponding dimension: got "
        "padding=((-6, 0), (0, 0)) for lhs_shape[2:]=(5, 4)",
    ),
    (
        lambda: lax.conv_transpose(
            np.ones((1, 4, 3, 2), np.float32),
            np.ones((3, 2, 2, 3), np.float32),
            (2,),
            "SAME",
            dimension_numbers=("NHWC", "HWIO", "NHWC"),
        ),
        TypeError,
        "Wrong number of explicit pads for convolution: expected 2, got 1.",
    ),
]


@pytest.mark.parametrize("fn, error, first_line", CASES)
def test_conv_errors_start_with_jaxs_first_line(fn, error, first_line):
    with pytest.raises(error) as info:
        fn()
    assert str(info.value).split("\n")[0].rstrip() == first_line


def test_integer_conv_may_accumulate_in_float_and_pads_broadcast_one_stride():
    # JAX: int8 operands with preferred_element_type=float32 give float32 (sum 546.0); a
    # single stride broadcasts over 'SAME''s spatial dimensions, as JAX's numpy arithmetic
    y = cg(X.astype(np.int8), W.astype(np.int8), (1, 1), "SAME", preferred_element_type=np.float32)
    assert y.dtype == np.float32 and float(y.sum()) == 546.0
    assert lax.padtype_to_pads((5, 4), (3, 2), (2,), "SAME") == [(1, 1), (0, 0)]
    assert lax.padtype_to_pads((5, 4), (3, 2), (2, 1), "VALID") == [(0, 0), (0, 0)]
