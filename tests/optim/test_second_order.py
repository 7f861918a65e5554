"""`optim.second_order` against values recorded from Optax 0.2.8 (`optax.second_order`)."""

from __future__ import annotations

import numpy as np
import pytest

import core.numpy as jnp
from optim import second_order

PARAMS = {"w": jnp.asarray([[1.0, 2.0], [0.5, -1.0]]), "b": jnp.asarray([0.1, 0.2])}
X = jnp.asarray([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]])
Y = jnp.asarray([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])


def loss(p, x, y):
    return jnp.sum((x @ p["w"] + p["b"] - y) ** 2)


def test_hessian_diag():
    # Ravel order is the sorted dict keys: b (2), then w (4).
    expected = [6.0, 6.0, 20.5, 20.5, 10.5, 10.5]
    np.testing.assert_allclose(second_order.hessian_diag(loss, PARAMS, X, Y), expected, rtol=1e-6)


def test_fisher_diag():
    expected = [50.409992, 148.83997, 311.52249, 1391.2899, 0.90250033, 141.60999]
    np.testing.assert_allclose(second_order.fisher_diag(loss, PARAMS, X, Y), expected, rtol=1e-5)


def test_hvp_is_hessian_times_vector():
    v = jnp.asarray([1.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    out = second_order.hvp(loss, v, PARAMS, X, Y)
    np.testing.assert_allclose(np.asarray(out["b"]), [6.0, 0.0], rtol=1e-6)
    np.testing.assert_allclose(np.asarray(out["w"]), [[9.0, 0.0], [3.0, 0.0]], rtol=1e-6)


def test_hvp_with_a_tree_vector_is_jaxs_type_error():
    # JAX 0.10.2's ravel_pytree printed this first line for a tree where the flat vector goes
    v = {"w": jnp.ones(2)}
    with pytest.raises(TypeError) as info:
        second_order.hvp(
            lambda p, x, y: jnp.sum(p["w"] * x), v, {"w": jnp.ones(2)}, jnp.ones(2), 0.0
        )
    assert str(info.value).split("\n")[0] == (
        "asarray: expected ArrayLike, got {'w': Array([1., 1.], dtype=float32)} of type "
        "<class 'dict'>."
    )
