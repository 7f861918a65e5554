"""Pooling against a numpy reference over a table of windows, strides and paddings."""

import numpy as np
import pytest

import core.numpy as jnp
import nn
from core.test_util import check_grads


def np_pool(x, reduce, init, window, strides, padding):
    n = len(window)
    strides = strides or (1,) * n
    single = x.ndim == n + 1
    if single:
        x = x[None]
    if padding == "VALID":
        pads = [(0, 0)] * n
    elif padding == "SAME":
        pads = []
        for size, w, s in zip(x.shape[1:-1], window, strides):
            total = max((-(-size // s) - 1) * s + w - size, 0)
            pads.append((total // 2, total - total // 2))
    else:
        pads = padding
    x = np.pad(x, [(0, 0)] + list(pads) + [(0, 0)], constant_values=init)
    out_sp = [(size - w) // s + 1 for size, w, s in zip(x.shape[1:-1], window, strides)]
    out = np.empty([x.shape[0]] + out_sp + [x.shape[-1]], x.dtype)
    for idx in np.ndindex(*out_sp):
        sl = tuple(slice(i * s, i * s + w) for i, s, w in zip(idx, strides, window))
        out[(slice(None),) + idx] = reduce(x[(slice(None),) + sl], axis=tuple(range(1, n + 1)))
    return out[0] if single else out


CASES = [
    ((2, 6, 6, 3), (2, 2), (2, 2), "VALID"),
    ((1, 5, 5, 2), (3, 3), (1, 1), "SAME"),
    ((1, 5, 4, 1), (2, 3), (2, 1), "SAME"),
    ((4, 4, 2), (2, 2), None, "VALID"),  # unbatched
    ((1, 7, 2), (3,), (2,), [(1, 1)]),
]


@pytest.mark.parametrize("shape, window, strides, padding", CASES)
def test_max_and_avg_pool_match_numpy(shape, window, strides, padding):
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    got = nn.max_pool(jnp.asarray(x), window, strides, padding)
    np.testing.assert_allclose(
        np.asarray(got), np_pool(x, np.max, -np.inf, window, strides, padding)
    )
    got = nn.pooling.min_pool(jnp.asarray(x), window, strides, padding)
    np.testing.assert_allclose(
        np.asarray(got), np_pool(x, np.min, np.inf, window, strides, padding)
    )
    got = nn.avg_pool(jnp.asarray(x), window, strides, padding)
    want = np_pool(x, np.sum, 0.0, window, strides, padding) / np.prod(window)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-6)


def test_avg_pool_without_padding_in_count():
    x = np.ones((1, 3, 3, 1), np.float32)
    got = nn.avg_pool(jnp.asarray(x), (2, 2), padding="SAME", count_include_pad=False)
    np.testing.assert_allclose(np.asarray(got), np.ones((1, 3, 3, 1)), rtol=1e-6)
    got = nn.avg_pool(jnp.asarray(x), (2, 2), padding="SAME")
    assert np.asarray(got)[0, -1, -1, 0] == 0.25


def test_check_grads_through_pooling():
    x = jnp.asarray(np.random.default_rng(1).standard_normal((1, 4, 4, 1)).astype(np.float32))
    check_grads(lambda v: nn.avg_pool(v, (2, 2), (2, 2)), (x,), order=1, modes=["rev"])
    check_grads(lambda v: nn.max_pool(v, (2, 2), (2, 2)), (x,), order=1, modes=["rev"])


# Flax 0.12.8's answers (a differential run, tools/jax_differential conv_windows): avg_pool
# without padding in the count divides by windowed sums of default-dtype (float32) ones, so
# 16-bit inputs give float32 averages; its argument checks are assertions with these texts.
X16 = np.arange(16, dtype=np.float16).reshape(1, 4, 4, 1) / 4


@pytest.mark.parametrize(
    "call, want",
    [
        (
            lambda: nn.avg_pool(jnp.asarray(X16), (2, 2), padding="SAME", count_include_pad=False),
            [0.625, 0.875, 1.125, 1.25, 1.625, 1.875, 2.125, 2.25]
            + [2.625, 2.875, 3.125, 3.25, 3.125, 3.375, 3.625, 3.75],
        ),
        (
            lambda: nn.avg_pool(
                jnp.asarray(X16, jnp.bfloat16)[0],
                (3, 3),
                padding=((1, 1), (1, 1)),
                count_include_pad=False,
            ),
            [0.625, 0.75, 1.0, 1.125, 1.125, 1.25, 1.5, 1.625]
            + [2.125, 2.25, 2.5, 2.625, 2.625, 2.75, 3.0, 3.125],
        ),
    ],
)
def test_avg_pool_of_16_bit_floats_is_float32_without_padding_in_count(call, want):
    got = call()
    assert got.dtype == np.float32
    np.testing.assert_allclose(np.asarray(got).ravel(), want, rtol=1e-6)


@pytest.mark.parametrize(
    "call, first_line",
    [
        (
            lambda: nn.max_pool(jnp.ones((1, 4, 4, 1)), (2, 2), strides=(1,)),
            "len((2, 2)) must equal len((1,))",
        ),
        (
            lambda: nn.avg_pool(jnp.ones((1, 4, 4, 1)), (2, 2), padding=((1, 1),)),
            "padding ((1, 1),) must specify pads for same number of dims as window_shape (2, 2)",
        ),
        (
            lambda: nn.avg_pool(jnp.ones((1, 4, 4, 1)), (2, 2), padding=((1, 1), (1,))),
            "each entry in padding ((1, 1), (1,)) must be length 2",
        ),
    ],
)
def test_pool_argument_errors_are_flax_assertions(call, first_line):
    with pytest.raises(AssertionError) as info:
        call()
    assert str(info.value).split("\n")[0] == first_line


def test_min_pool_lives_in_the_pooling_module_only():
    # flax 0.12.8: flax.linen has no min_pool (AttributeError); flax.linen.pooling has it
    assert not hasattr(nn, "min_pool") and callable(nn.pooling.min_pool)
