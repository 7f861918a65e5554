"""Errors and values of miscellaneous jax.numpy functions that the `jnp_misc` area of
tools/jax_differential found apart from JAX 0.10.2: each error's class and first line are
JAX's (recorded from JAX; numbax's fix follows on later lines), the values are numpy's."""

import numpy as np
import pytest

import core.numpy as jnp

X34 = np.arange(12.0, dtype=np.float32).reshape(3, 4)
G = np.array([1.0, 2.0, 4.0, 7.0, 11.0, 16.0], np.float32)
P = np.array([1.0, -3.0, 2.0], np.float32)

# (id, call, JAX's exception class, JAX's first line)
ERRORS = [
    ("gradient_short", lambda: jnp.gradient(np.array([1.0])), ValueError,
     "Shape of array too small to calculate a numerical gradient, at least 2 elements are "
     "required."),
    ("gradient_spacing", lambda: jnp.gradient(G, np.array([0.0, 1.0])), ValueError,
     "Spacing arrays must have the same length as the dimension along which the gradient is "
     "calculated."),
    ("polyint_k", lambda: jnp.polyint(P, 2, k=np.array([1.0, 2.0, 3.0])), ValueError,
     "k must be a scalar or a rank-1 array of length 1 or m."),
    ("roots_2d", lambda: jnp.roots(X34), ValueError, "Input must be a rank-1 array."),
    ("poly_2d", lambda: jnp.poly(X34), ValueError,
     "input must be 1d or non-empty square 2d array."),
    ("take_out", lambda: jnp.take(X34, np.array([0]), out=X34), NotImplementedError,
     "The 'out' argument to jnp.take is not supported."),
    ("round_out", lambda: jnp.round(np.arange(3.0), out=np.zeros(3)), NotImplementedError,
     "The 'out' argument to jnp.round is not supported."),
    ("meshgrid_copy", lambda: jnp.meshgrid(np.arange(3), np.arange(2), copy=False), ValueError,
     "jax.numpy.meshgrid only supports copy=True"),
    ("meshgrid_2d", lambda: jnp.meshgrid(X34, np.arange(2)), ValueError,
     "Arguments to jax.numpy.meshgrid must be 1D, got shapes [(3, 4), (2,)]"),
    ("tril_indices_from_1d", lambda: jnp.tril_indices_from(np.arange(3)), ValueError,
     "Only 2-D inputs are accepted"),
    ("triu_indices_from_3d", lambda: jnp.triu_indices_from(np.ones((2, 2, 2))), ValueError,
     "Only 2-D inputs are accepted"),
    ("digitize_method", lambda: jnp.digitize(G, P[::-1], method="bad"), ValueError,
     "invalid argument method='bad', expected one of ['compare_all', 'scan', 'scan_unrolled', "
     "'sort']"),
    ("lexsort_shapes", lambda: jnp.lexsort((np.arange(3), np.arange(4))), ValueError,
     "all keys need to be the same shape"),
    ("tri_negative", lambda: jnp.tri(-1), TypeError,
     "iota shape must have every element be nonnegative, got (-1, -1)."),
    ("rot90_one_axis", lambda: jnp.rot90(X34, axes=(0,)), ValueError,
     "not enough values to unpack (expected 2, got 1)"),
    ("partition_kth_tuple", lambda: jnp.partition(np.arange(5), (1, 2)), TypeError,
     "'tuple' object cannot be interpreted as an integer"),
    ("partition_axis_none", lambda: jnp.partition(np.arange(5.0), 1, axis=None), TypeError,
     "'NoneType' object cannot be interpreted as an integer"),
]  # fmt: skip


@pytest.mark.parametrize("call, cls, first", [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_error_first_line_is_jax(call, cls, first):
    with pytest.raises(cls) as info:
        call()
    assert str(info.value).splitlines()[0] == first


# (id, call, numpy's value, dtype)
VALUES = [
    ("around_float16_max", lambda: jnp.around(np.array([65504, -2.5, 0.25], np.float16), 1),
     np.array([65504, -2.5, 0.2], np.float16), "float16"),
    ("round_bfloat16", lambda: jnp.round(jnp.array([3e38, 1.25], jnp.bfloat16), 1),
     np.array([np.inf, 1.2], np.float32), "bfloat16"),  # JAX: 3e38 * 10 overflows float32
    ("meshgrid_xy", lambda: jnp.meshgrid(np.arange(3), np.arange(2.0))[1],
     np.meshgrid(np.arange(3), np.arange(2.0))[1], "float32"),
    ("tril_indices_from", lambda: jnp.tril_indices_from(X34, 1)[1],
     np.tril_indices_from(X34, 1)[1], "int32"),
    ("lexsort", lambda: jnp.lexsort((np.array([1, 2, 1, 2]), np.array([3, 3, 1, 1]))),
     np.lexsort((np.array([1, 2, 1, 2]), np.array([3, 3, 1, 1]))), "int32"),
    ("digitize_scan", lambda: jnp.digitize(G, np.array([2.0, 7.0]), method="scan"),
     np.digitize(G, np.array([2.0, 7.0])), "int32"),
    ("geomspace_complex", lambda: jnp.geomspace(1j, 1000j, 4).imag,
     np.geomspace(1j, 1000j, 4).imag, "float32"),
    ("geomspace_complex_dtype", lambda: jnp.geomspace(1j, 1000j, 4).real,
     np.zeros(4), "float32"),
    ("tri", lambda: jnp.tri(2, 3, 1), np.tri(2, 3, 1), "float32"),
]  # fmt: skip


@pytest.mark.parametrize("call, want, dtype", [c[1:] for c in VALUES], ids=[c[0] for c in VALUES])
def test_values_match_numpy(call, want, dtype):
    got = call()
    assert str(got.dtype) == dtype
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64), rtol=1e-2)
