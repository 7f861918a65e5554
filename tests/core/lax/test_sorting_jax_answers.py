"""JAX 0.10.2's answers where a differential run (tools/jax_differential, conv_windows)
found numbax's sorting and scans different, recorded with JAX (not computed here): `top_k`
orders floats in IEEE totalOrder (-nan lowest, -0.0 below 0.0; `lax.sort` does not) and refuses
complex numbers; `cumlogsumexp` of complex numbers is JAX's formula with its imaginary part
wrapped into [-pi, pi), starting from the identity -inf (so the first element wraps too), and
refuses integers with Python's OverflowError; argmax/argmin, sort and jnp.sort/argsort errors
start with JAX's first lines."""

from __future__ import annotations

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax

NAN, INF = float("nan"), float("inf")
TOTAL = np.float32([0.0, -0.0, 0.0, -0.0, NAN, -NAN, 1.0, -INF])
Z = np.complex64(
    [
        [-1 + 1.6666666269302368j, -0.5 + 1.3333333730697632j, 1j],
        [0.5 + 0.6666666865348816j, 1 + 0.3333333432674408j, 1.5],
    ]
)


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize(
    "x, k, axis, values, indices",
    [
        (TOTAL, 8, -1, [NAN, 1.0, 0.0, 0.0, -0.0, -0.0, -INF, -NAN], [4, 6, 0, 2, 1, 3, 7, 5]),
        (
            TOTAL.astype(np.float16).reshape(2, 4),
            3,
            -1,
            [[0.0, 0.0, -0.0], [NAN, 1.0, -INF]],
            [[0, 2, 1], [0, 2, 3]],
        ),
        (np.float32([[0, -0.0], [-0.0, 0], [1, -1]]), 2, 0, [[1, 0], [0, -0.0]], [[2, 1], [0, 0]]),
    ],
)
def test_top_k_orders_floats_in_total_order(jit, x, k, axis, values, indices):
    f = lambda x: lax.top_k(x, k, axis=axis)  # noqa: E731
    got_v, got_i = (core.jit(f) if jit else f)(x)
    want = np.asarray(values, x.dtype)
    np.testing.assert_array_equal(got_v, want)
    np.testing.assert_array_equal(np.signbit(got_v), np.signbit(want))  # NaN signs too
    np.testing.assert_array_equal(got_i, indices)


@pytest.mark.parametrize(
    "axis, reverse, want",
    [
        (
            1,
            False,
            [
                [
                    -1 + 1.6666667461395264j,
                    -0.0390285849571228 + 1.4588215351104736j,
                    0.6472848653793335 + 1.2248542308807373j,
                ],
                [
                    0.5 + 0.6666667461395264j,
                    1.4609713554382324 + 0.45882129669189453j,
                    2.147284984588623 + 0.2248542308807373j,
                ],
            ],
        ),
        (
            1,
            True,
            [
                [
                    0.6472848653793335 + 1.2248542308807373j,
                    0.4609714150428772 + 1.125488042831421j,
                    1.000000238418579j,
                ],
                [
                    2.147284984588623 + 0.2248542308807373j,
                    1.9609713554382324 + 0.1254880428314209j,
                    1.5 + 0j,
                ],
            ],
        ),
        (
            0,
            False,
            [
                [-1 + 1.6666667461395264j, -0.5 + 1.3333332538604736j, 1.000000238418579j],
                [
                    0.6276708245277405 + 0.8326818943023682j,
                    1.1276707649230957 + 0.49934840202331543j,
                    1.6276707649230957 + 0.1660151481628418j,
                ],
            ],
        ),
    ],
)
@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_cumlogsumexp_of_complex_numbers(jit, axis, reverse, want):
    f = lambda z: lax.cumlogsumexp(z, axis=axis, reverse=reverse)  # noqa: E731
    got = (core.jit(f) if jit else f)(Z)
    assert got.dtype == np.complex64
    np.testing.assert_allclose(got, np.asarray(want, np.complex64), rtol=2e-6, atol=2e-6)


@pytest.mark.parametrize(
    "fn, error, first_line",
    [
        (
            lambda: lax.top_k(jnp.array([1j, 2 + 0j]), 1),
            ValueError,
            "top_k is not compatible with complex inputs.",
        ),
        (
            lambda: lax.cumlogsumexp(jnp.array([1, 2])),
            OverflowError,
            "cannot convert float infinity to integer",
        ),
        (
            lambda: jnp.argmax(jnp.array([1j])),
            TypeError,
            "gt does not accept dtype complex64 at position 0. Accepted dtypes at position 0 are "
            "subtypes of integer, floating, bool.",
        ),
        (
            lambda: jnp.argmin(jnp.array([1j])),
            TypeError,
            "lt does not accept dtype complex64 at position 0. Accepted dtypes at position 0 are "
            "subtypes of integer, floating, bool.",
        ),
        (lambda: jnp.argmax(jnp.ones((2, 3)), axis=-3), IndexError, "tuple index out of range"),
        (
            lambda: lax.argmin(jnp.ones(3), 1, jnp.int32),
            ValueError,
            "Invalid axis 1 for operand shape (3,)",
        ),
        (
            lambda: jnp.sort(jnp.ones(3), kind="stable"),
            TypeError,
            "'kind' argument to sort is not supported. Use stable=True or stable=False to "
            "specify sort stability.",
        ),
        (
            lambda: jnp.argsort(jnp.ones(3), order="a"),
            TypeError,
            "'order' argument to argsort is not supported.",
        ),
        (
            lambda: lax.sort((jnp.ones(3), jnp.ones(2)), num_keys=1),
            TypeError,
            "Arguments to sort must have equal shapes, got: (3,) (2,)",
        ),
    ],
)
def test_errors_start_with_jaxs_first_line(fn, error, first_line):
    with pytest.raises(error) as info:
        fn()
    assert str(info.value).split("\n")[0] == first_line
