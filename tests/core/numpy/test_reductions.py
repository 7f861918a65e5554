"""`jnp.max`/`jnp.min` with `where=` and `initial=`: the masked elements hold the operation's
identity (-inf, an integer type's bound, False/True) and `initial` joins the result
afterwards, as JAX, so a tie between `initial` and an element splits the derivative in two."""

from __future__ import annotations

import numpy as np
import pytest

import core as jax
import core.numpy as jnp

T, F = True, False

# (function, x, where, initial, gradient) as JAX 0.10.2 printed them
GRADS = [
    (jnp.max, [1.0, 3.0, 2.0], [T, F, T], 2.0, [0.0, 0.0, 0.5]),
    (jnp.min, [1.0, 0.0, 1.0], [T, F, T], 1.0, [0.25, 0.0, 0.25]),
    (jnp.nanmax, [1.0, np.nan, 1.0], [T, T, T], 1.0, [0.25, 0.0, 0.25]),
]


@pytest.mark.parametrize("fn, x, where, initial, want", GRADS)
def test_grad_ties_with_initial(fn, x, where, initial, want):
    g = jax.grad(lambda v: fn(v, where=jnp.array(where), initial=initial))(jnp.array(x))
    np.testing.assert_array_equal(np.asarray(g), np.array(want, np.float32))


# (function, x, dtype, where, initial, value) as JAX 0.10.2 printed them
VALUES = [
    (jnp.max, [1, 5, 2], np.int32, [T, F, T], 0, 2),
    (jnp.max, [1, 5, 2], np.uint8, [T, F, T], 3, 3),
    (jnp.min, [1, 5, 2], np.int8, [F, F, F], 3, 3),
    (jnp.min, [T, F], np.bool_, [F, T], True, False),
    (jnp.max, [T, F], np.bool_, [F, T], False, False),
    (jnp.max, [1.0, 5.0], np.float32, [T, F], np.nan, np.nan),
]


@pytest.mark.parametrize("fn, x, dtype, where, initial, want", VALUES)
def test_values(fn, x, dtype, where, initial, want):
    out = fn(jnp.array(x, dtype), where=jnp.array(where), initial=initial)
    assert out.dtype == dtype
    np.testing.assert_array_equal(np.asarray(out), want)


# (method, q, gradient with respect to q, weak_type) as JAX 0.10.2 printed them for
# jnp.quantile(jnp.array([1.0, 2.0, 4.0]), q): linear interpolation multiplies q by a strongly
# typed n - 1, the others' zero gradient keeps q's weak type
QUANTILE_Q = [
    ("linear", 0.5, 0.0, False),
    ("linear", 0.4, 2.0, False),
    ("lower", 0.4, 0.0, True),
]


@pytest.mark.parametrize("method, q, want, weak", QUANTILE_Q)
def test_quantile_grad_q(method, q, want, weak):
    a = jnp.array([1.0, 2.0, 4.0])
    g = jax.grad(lambda v: jnp.quantile(a, v, method=method))(q)
    assert g.dtype == np.float32 and g.weak_type is weak
    assert float(g) == want
