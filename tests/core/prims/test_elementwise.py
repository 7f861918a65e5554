"""select_n's checks as JAX 0.10.2's lax.select_n (messages recorded from JAX): the shape rule
before the dtype rule, any integer `which` (indices past the last case pick the last), and a
boolean `which` for at most two cases."""

import numpy as np
import pytest

import core.numpy as jnp
from core import lax


@pytest.mark.parametrize(
    "which, cases, want",
    [
        (jnp.uint8(1), [np.zeros(2), np.ones(2)], [1.0, 1.0]),
        (jnp.array([2, 0], jnp.int8), [np.zeros(2), np.ones(2), np.full(2, 2.0)], [2.0, 0.0]),
        (jnp.array([5, 1], jnp.uint32), [np.zeros(2), np.ones(2)], [1.0, 1.0]),
    ],
)
def test_select_n_takes_any_integer_which(which, cases, want):
    got = lax.select_n(which, *(jnp.array(c, jnp.float32) for c in cases))
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    "which, cases, message",
    [
        (
            [0, 1],
            [np.zeros(2), np.ones(3)],
            "select cases must have the same shapes, got [(2,), (3,)].",
        ),
        (
            [0, 1, 0],
            [np.zeros(2), np.ones(2, np.int32)],
            "select `which` must be scalar or have the same shape as cases, got `which` shape "
            "(3,) but case shape (2,).",
        ),
        (
            [0, 1],
            [np.zeros(2), np.ones(2, np.int32)],
            "lax.select requires arguments to have the same dtypes, got float32, int32. (Tip: "
            "jnp.where is a similar function that does automatic type promotion on inputs).",
        ),
        (
            [0.0, 1.0],
            [np.zeros(2), np.ones(2)],
            "select `which` must be boolean or integer type, got float32.",
        ),
        (
            [True, False],
            [np.zeros(2)] * 3,
            "select with boolean `which` cannot have > 2 cases.",
        ),
    ],
)
def test_select_n_errors(which, cases, message):
    cases = [jnp.array(c, np.float32 if c.dtype == np.float64 else c.dtype) for c in cases]
    with pytest.raises(TypeError) as e:
        lax.select_n(jnp.array(which), *cases)
    assert str(e.value).split("\n")[0] == message


def test_select_n_needs_a_case():
    with pytest.raises(ValueError, match=r"^select_n\(\) must have at least one case$"):
        lax.select_n(jnp.array([0, 1]))
