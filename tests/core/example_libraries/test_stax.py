"""`core.example_libraries.stax` against JAX's: the same keys give the same parameters, output
shapes and outputs (answers recorded from JAX by `make_answers.py`)."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.example_libraries import stax
from core.example_libraries.errors import DropoutRngError
from tests.core.example_libraries.answers import ANSWERS
from tests.core.example_libraries.cases import run_stax_case, stax_networks


@pytest.mark.parametrize("name", sorted(stax_networks(stax)))
def test_network_matches_jax(name):
    got, want = run_stax_case(core, jnp, stax, name), ANSWERS["stax"][name]
    assert got["out_shape"] == want["out_shape"]
    assert len(got["params"]) == len(want["params"])
    for g, w in zip(got["params"], want["params"]):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(got["output"], want["output"], rtol=2e-5, atol=1e-6)
    assert np.shape(got["output"]) == tuple(want["out_shape"])


def test_param_structure_is_jaxs():
    init_fun, _ = stax.serial(stax.Dense(3), stax.Relu, stax.BatchNorm(axis=0, scale=False))
    _, params = init_fun(core.random.PRNGKey(0), (4, 2))
    assert isinstance(params, list) and len(params) == 3
    (w, b), relu, (beta, gamma) = params
    assert (w.shape, b.shape, relu, beta.shape, gamma) == ((2, 3), (3,), (), (3,), ())


def test_dropout_needs_rng_and_keeps_with_probability_rate():
    init_fun, apply_fun = stax.Dropout(0.75)
    _, params = init_fun(core.random.PRNGKey(0), (1000,))
    with pytest.raises(DropoutRngError, match="rng=key"):
        apply_fun(params, jnp.ones(1000))
    with pytest.raises(ValueError):  # JAX raises ValueError: ported except clauses match
        apply_fun(params, jnp.ones(1000))
    out = np.asarray(apply_fun(params, jnp.ones(1000), rng=core.random.PRNGKey(3)))
    kept = out != 0
    assert 0.7 < kept.mean() < 0.8
    np.testing.assert_allclose(out[kept], 1 / 0.75, rtol=1e-6)
    _, eval_apply = stax.Dropout(0.75, mode="test")
    np.testing.assert_array_equal(eval_apply((), jnp.ones(4), rng=core.random.PRNGKey(3)), 1.0)


def test_jit_and_grad_through_a_network():
    init_fun, apply_fun = stax.serial(
        stax.Conv(2, (3, 3), padding="SAME"), stax.Relu, stax.Flatten, stax.Dense(3)
    )
    _, params = init_fun(core.random.PRNGKey(0), (2, 4, 4, 1))
    x = jnp.linspace(-1, 1, 32).reshape(2, 4, 4, 1)

    def loss(p):
        return jnp.sum(apply_fun(p, x) ** 2)

    grads = core.jit(core.grad(loss))(params)
    eager = core.grad(loss)(params)
    for g, e in zip(core.tree_util.tree_leaves(grads), core.tree_util.tree_leaves(eager)):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)
    assert core.tree_util.tree_structure(grads) == core.tree_util.tree_structure(params)
