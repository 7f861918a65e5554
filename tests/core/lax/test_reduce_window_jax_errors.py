"""`lax.reduce_window` argument errors as JAX 0.10.2 raises them: its class and first line,
recorded with JAX (a differential run, tools/jax_differential conv_windows, found numbax's
combined messages): window sizes and strides that are not positive, lengths that differ from
the operand's rank or the window's, dilations of zero, init values that are not scalars, and
pytrees of another structure than the operands'."""

from __future__ import annotations

import numpy as np
import pytest

import core.numpy as jnp
from core import lax

rw = lax.reduce_window
X = np.ones((2, 5, 4), np.float32)

CASES = [
    (
        lambda: rw(X, 0.0, lax.add, (1, 2), (1, 1), "VALID"),
        TypeError,
        "reduce_window got the wrong number of window_dimensions for operand: got operand "
        "shape (2, 5, 4) with window_dimensions (1, 2).",
    ),
    (
        lambda: rw(X, 0.0, lax.add, (1, 2, 2), (1, 1), "VALID"),
        TypeError,
        "reduce_window got inconsistent window_strides and window_dimensions: got "
        "window_strides (1, 1) and window_dimensions (1, 2, 2).",
    ),
    (
        lambda: rw(X, 0.0, lax.add, (1, 2, 2), (1, 0, 1), "VALID"),
        TypeError,
        "reduce_window window_strides must have every element be strictly positive, got (1, 0, 1).",
    ),
    (  # a computation of its own: JAX's reduce_window primitive checks the same
        lambda: rw(X, 0.0, lambda a, b: a + 2 * b, (1, 2, 2), (1, 0, 1), "VALID"),
        TypeError,
        "reduce_window window_strides must have every element be strictly positive, got (1, 0, 1).",
    ),
    (
        lambda: rw(X, 0.0, lax.add, (1, 0, 2), (1, 1, 1), "VALID"),
        TypeError,
        "reduce_window window_dimensions must have every element be strictly positive, got "
        "(1, 0, 2).",
    ),
    (
        lambda: rw(X, 0.0, lax.add, (1, 2, 2), (1, 1, 1), "VALID", base_dilation=(1, 0, 1)),
        TypeError,
        "All dilations must be positive, got (1, 0, 1).",
    ),
    (
        lambda: rw(X, 0.0, lax.add, (1, 2, 2), (1, 1, 1), "VALID", window_dilation=(1, 1)),
        TypeError,
        "reduce_window got inconsistent window_dilation and window_dimensions: got "
        "window_dilation (1, 1) and window_dimensions (1, 2, 2).",
    ),
    (
        lambda: rw(X, -jnp.inf, lax.max, (1, 2, 2), (1, 1, 1), "VALID", base_dilation=(1, 1)),
        TypeError,
        "reduce_window got inconsistent base_dilation and window_dimensions: got base_dilation "
        "(1, 1) and window_dimensions (1, 2, 2).",
    ),
    (  # JAX's safe_zip of the operand's shape and the padding
        lambda: rw(X, 0.0, lax.add, (1, 2, 2), (1, 1, 1), [(0, 0)]),
        ValueError,
        "safe_zip() argument 1 has length 1 but argument 0 has length 3. All lengths: (3, 1)",
    ),
    (
        lambda: rw(X, jnp.zeros(2), lax.add, (1, 2, 2), (1, 1, 1), "VALID"),
        TypeError,
        "reduce_window expected init_values to be scalars but init_values have shapes [(2,)].",
    ),
    (
        lambda: rw(X, 0.0, lambda a, b: (a, b), (1, 2, 2), (1, 1, 1), "VALID"),
        ValueError,
        "reduce_window output must have the same tree structure as the operands PyTreeDef(*) "
        "vs. PyTreeDef((*, *))",
    ),
    (
        lambda: rw((X, X), 0.0, lambda a, b: a, (1, 2, 2), (1, 1, 1), "VALID"),
        ValueError,
        "Operands must have the same tree structure as init_values: PyTreeDef((*, *)) vs. "
        "PyTreeDef(*)",
    ),
]


@pytest.mark.parametrize("fn, error, first_line", CASES)
def test_reduce_window_errors_start_with_jaxs_first_line(fn, error, first_line):
    with pytest.raises(error) as info:
        fn()
    assert str(info.value).split("\n")[0] == first_line
