"""Shared checker for tables of known answers recorded from JAX 0.10.2 (x64 off).

An expected result is `(values, dtype_name, weak_type)` for an array, a list of those for a
tuple/list of arrays, or a plain Python value compared with `==`.
"""

import numpy as np


def check(got, want, rtol=1e-6):
    """Asserts that `got` matches the recorded `want` in values, dtype and weak type."""
    if isinstance(want, list):
        assert len(got) == len(want), (len(got), len(want))
        for g, w in zip(got, want):
            check(g, w, rtol)
        return
    if not isinstance(want, tuple):
        assert got == want, (got, want)
        return
    values, dtype, weak = want
    arr = np.asarray(got)
    assert arr.dtype == np.dtype(dtype), (arr.dtype, dtype)
    assert bool(getattr(got, "weak_type", False)) == weak, ("weak_type", got)
    expected = np.asarray(values, dtype=dtype)
    assert arr.shape == expected.shape, (arr.shape, expected.shape)
    if arr.dtype.kind in "fc":
        np.testing.assert_allclose(arr, expected, rtol=rtol, atol=0, equal_nan=True)
    else:
        np.testing.assert_array_equal(arr, expected)
