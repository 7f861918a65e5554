"""Values a differential run of `core.numpy` against JAX 0.10.2 found different, recorded with
`jax.numpy`: `take(mode="clip")` clamps negative indices to 0 (only the default "fill" mode
counts them from the end), `repeat`'s `total_repeat_length` cuts or repeats the last started
block (not cyclically), `unique(size=...)` pads and cuts its first-occurrence indices and
counts too, and `quantile`/`median` reduce several axes at once."""

from __future__ import annotations

import numpy as np
import pytest

import core.numpy as jnp

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4) ** 1.3 - 7.5
V = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3], np.int32)
R = np.array([1, 0, 2])

CASES = [
    (
        "take_clip",
        lambda: jnp.take(np.arange(5.0), np.array([0, 2, -1, 23, -30]), mode="clip"),
        [0.0, 2.0, 0.0, 4.0, 0.0],
    ),
    (
        "take_clip_axis",
        lambda: jnp.take(X[0], np.array([-1, 1, 7]), axis=1, mode="clip"),
        [
            [-7.5, -6.5, -3.3288326263427734],
            [-1.4371337890625, 0.6032819747924805, 5.049528121948242],
            [7.428526878356934, 9.898635864257812, 15.084497451782227],
        ],
    ),
    ("take_fill", lambda: jnp.take(np.arange(5.0), np.array([-1, -7, 7])), [4.0, np.nan, np.nan]),
    (
        "repeat_total_longer",
        lambda: jnp.repeat(np.arange(3.0), R, total_repeat_length=4),
        [0.0, 2.0, 2.0, 2.0],
    ),
    ("repeat_total_shorter", lambda: jnp.repeat(np.arange(3.0), R, total_repeat_length=2), [0, 2]),
    (
        "repeat_scalar_total",
        lambda: jnp.repeat(np.arange(3.0), 2, total_repeat_length=8),
        [0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0],
    ),
    (
        "repeat_zero_tail",
        lambda: jnp.repeat(np.arange(3.0), np.array([1, 2, 0]), total_repeat_length=5),
        [0.0, 1.0, 1.0, 2.0, 2.0],
    ),
    (
        "quantile_axes",
        lambda: jnp.quantile(
            X, np.array([0.1, 0.5, 0.9]), axis=(0, 2), keepdims=True, method="nearest"
        ),
        np.reshape(
            [
                -6.5,
                0.6032819747924805,
                9.898635864257812,
                -3.3288326263427734,
                5.049528121948242,
                15.084497451782227,
                23.400562286376953,
                35.34046936035156,
                48.109554290771484,
            ],
            (3, 1, 3, 1),
        ),
    ),
    (
        "quantile_axes_midpoint",
        lambda: jnp.quantile(X, 0.3, axis=(2, 0), method="midpoint"),
        [-4.183271884918213, 3.9100728034973145, 13.768558502197266],
    ),
    (
        "median_axes",
        lambda: jnp.median(X, axis=(-1, 0)),
        [7.230197906494141, 17.153934478759766, 28.356807708740234],
    ),
]


@pytest.mark.parametrize("name, fn, want", CASES, ids=[c[0] for c in CASES])
def test_values_match_jax(name, fn, want):
    got = fn()
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, np.asarray(want, np.float32))


@pytest.mark.parametrize(
    "kwargs, want",
    [
        (
            {"return_index": True, "return_inverse": True, "return_counts": True, "size": 9},
            [
                [1, 2, 3, 4, 5, 6, 9, 1, 1],
                [1, 6, 0, 2, 4, 7, 5, 1, 1],
                [2, 0, 3, 0, 4, 6, 1, 5, 4, 2],
                [2, 1, 2, 1, 2, 1, 1, 0, 0],
            ],
        ),
        (
            {"return_index": True, "return_counts": True, "size": 4},
            [[1, 2, 3, 4], [1, 6, 0, 2], [2, 1, 2, 1]],
        ),
    ],
)
def test_unique_size_pads_every_output(kwargs, want):
    got = jnp.unique(V, fill_value=1, **kwargs)
    assert [g.dtype for g in got] == [np.int32] * len(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize(
    "call, error, match",
    [
        (
            lambda: jnp.take(np.arange(3), np.array([1]), mode="promise_in_bounds"),
            ValueError,
            "Invalid mode 'promise_in_bounds' for np.take",
        ),
        (
            lambda: jnp.take_along_axis(np.arange(3.0), np.array([1]), mode="wrap"),
            ValueError,
            'Unknown gather mode "wrap"',
        ),
        (lambda: jnp.arange(5, dtype=jnp.bool_), TypeError, "iota does not accept dtype bool"),
    ],
)
def test_errors_match_jax(call, error, match):
    with pytest.raises(error, match=match):
        call()


M = np.arange(12.0, dtype=np.float32).reshape(3, 4)


@pytest.mark.parametrize(
    "shift, axis",
    [((1, 2), 0), ((1, 2), (0, 1)), (1, (0, 1)), ((2, -1), (1, 1)), (5, None), (-1, 1)],
)
def test_roll_broadcasts_shifts_against_axes(shift, axis):
    # numpy (as JAX) broadcasts axis against shift and rolls once per entry.
    np.testing.assert_array_equal(jnp.roll(M, shift, axis=axis), np.roll(M, shift, axis=axis))


# jnp.arange as JAX 0.10.2 computes it: the dtype of the arguments (a numpy scalar keeps its
# own), `start + step * iota` in that dtype (a fractional step is cast to an integer dtype
# first), and `stop=None` meaning `arange(start)`.
ARANGE = [
    (lambda: jnp.arange(np.int8(5)), np.int8, [0, 1, 2, 3, 4]),
    (lambda: jnp.arange(0, 5, 1.5, dtype=jnp.int32), np.int32, [0, 1, 2, 3]),
    (lambda: jnp.arange(2, None, 1), np.int32, [0, 1]),
    (lambda: jnp.arange(0.5, 3), np.float32, [0.5, 1.5, 2.5]),
    (lambda: jnp.arange(10, 0, -3), np.int32, [10, 7, 4, 1]),
    (lambda: jnp.arange(0, 1, 0.25, dtype=jnp.float16), np.float16, [0, 0.25, 0.5, 0.75]),
]


@pytest.mark.parametrize("call, dtype, want", ARANGE)
def test_arange_dtype_and_values(call, dtype, want):
    got = call()
    assert got.dtype == dtype and not got.weak_type
    np.testing.assert_array_equal(got, np.array(want, dtype))


# (call, JAX 0.10.2's exception class, its message's first line) from the differential run's
# jnp_arrays area; numbax's fix follows on later lines.
ARRAY_ERRORS = [
    (
        lambda: jnp.roll(M, (1, 2), axis=(0, 1, 1)),
        ValueError,
        "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 "
        "with shape (3,) and arg 1 with shape (2,).",
    ),
    (lambda: jnp.rot90(M, axes=(0, 0)), ValueError, "Axes must be different"),
    (lambda: jnp.arange(1, 2, 0), ZeroDivisionError, "division by zero"),
    (
        lambda: jnp.broadcast_to(np.arange(3), (3, 2)),
        ValueError,
        "Incompatible types for broadcasting: input type=int32[3] and requested type=int32[3,2]",
    ),
    (
        lambda: jnp.broadcast_to(M, (4,)),
        ValueError,
        "Cannot broadcast to shape with fewer dimensions: arr_shape=(3, 4) shape=(4,)",
    ),
    (
        lambda: jnp.where(M > 5, M),
        TypeError,
        "where requires ndarray or scalar arguments, got <class 'NoneType'> at position 2.",
    ),
    (
        lambda: jnp.concatenate([M, np.ones(3)]),
        TypeError,
        "Cannot concatenate arrays with different numbers of dimensions: got (3, 4), (3,).",
    ),
    (
        lambda: jnp.vstack([np.arange(3), np.arange(4)]),
        TypeError,
        "Cannot concatenate arrays with shapes that differ in dimensions other than the one being "
        "concatenated: concatenating along dimension 0 for shapes (1, 3), (1, 4).",
    ),
    (lambda: jnp.eye(-1), ValueError, "negative dimensions are not allowed, got -1 and None"),
    (
        lambda: jnp.eye(2.5),
        TypeError,
        "Shapes must be 1D sequences of concrete values of integer type, got (2.5,). argument of "
        "'N' jnp.eye().",
    ),
    (lambda: jnp.take(M, np.array([0.0, 1.0])), ValueError, "indices must have an integer type"),
    (
        lambda: jnp.arange(np.array([1, 2])),
        ValueError,
        "jax.numpy.arange: arguments must be scalars; got stop=[1 2]",
    ),
    (
        lambda: jnp.rot90(np.arange(3.0)),
        ValueError,
        "rot90 requires its first argument to have ndim at least two, but got first argument of "
        "shape (3,), which has ndim 1",
    ),
    (
        lambda: jnp.round(np.arange(3), -1),
        NotImplementedError,
        "integer np.round not implemented for decimals < 0",
    ),
    (lambda: jnp.round(M, 1.5), TypeError, "'float' object cannot be interpreted as an integer"),
    (lambda: jnp.select([], [], 0), ValueError, "condlist must be non-empty"),
    (
        lambda: jnp.select([M > 5], [M, -M], 0),
        ValueError,
        "condlist must have length equal to choicelist (1 vs 2)",
    ),
    (
        lambda: jnp.reshape(M, (-1, -1)),
        TypeError,
        "can only specify one unknown axis size with a `-1` value, got (-1, -1)",
    ),
    (
        lambda: jnp.reshape(M, (5, -1)),
        TypeError,
        "cannot reshape array of shape (3, 4) (size 12) into shape (5, -1) because the product of "
        "specified axis sizes (5) does not evenly divide 12",
    ),
    (
        lambda: jnp.reshape(M, (2, 7)),
        TypeError,
        "cannot reshape array of shape (3, 4) (size 12) into shape (2, 7) (size 14)",
    ),
    (
        lambda: jnp.matrix_transpose(np.arange(3.0)),
        ValueError,
        "x must be at least two-dimensional for matrix_transpose; got ndim=1",
    ),
    (
        lambda: jnp.split(np.arange(7), 3),
        ValueError,
        "array split does not result in an equal division: rest is 1",
    ),
    (
        lambda: jnp.nonzero(np.array(3)),
        ValueError,
        "Calling nonzero on 0d arrays is not allowed. Use jnp.atleast_1d(scalar).nonzero() "
        "instead.",
    ),
    (
        lambda: jnp.take_along_axis(M, np.array([0, 1]), axis=1),
        ValueError,
        "indices and arr must have the same number of dimensions; 1 vs. 2",
    ),
    (
        lambda: jnp.take_along_axis(M, np.array([[0.0]]), axis=1),
        TypeError,
        "take_along_axis indices must be of integer type, got float32",
    ),
    (
        lambda: jnp.put(np.arange(5), np.array([0, 2]), np.array([9, 8])),
        ValueError,
        "jax.numpy.put cannot modify arrays in-place, because JAX arrays are immutable. Pass "
        "inplace=False to instead return an updated array.",
    ),
    (
        lambda: jnp.fill_diagonal(np.zeros((3, 3)), 2.0),
        NotImplementedError,
        "JAX arrays are immutable, must use inplace=False",
    ),
    (
        lambda: jnp.meshgrid(np.arange(2), indexing="xx"),
        ValueError,
        "Valid values for indexing are 'xy' and 'ij', got xx",
    ),
    (
        lambda: jnp.tril(np.arange(3.0)),
        ValueError,
        "Argument to jax.numpy.tril must be at least 2D",
    ),
    # the jnp_ufuncs area: JAX 0.10 removed jnp.fix
    (
        lambda: jnp.fix,
        AttributeError,
        "jax.numpy.fix was deprecated in JAX v0.9.0, and will be removed in JAX v0.10.0. "
        "Use jax.numpy.trunc instead.",
    ),
]


@pytest.mark.parametrize("call, error, first_line", ARRAY_ERRORS)
def test_array_errors_start_with_jaxs_line(call, error, first_line):
    with pytest.raises(error) as info:
        call()
    assert str(info.value).split("\n")[0] == first_line
