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
