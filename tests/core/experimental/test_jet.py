"""`core.experimental.jet` (JAX's `jax.experimental.jet`): Taylor-mode derivatives along a
path, against JAX 0.10.2's values (printed by /opt/ref/bin/python, written as literals)."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.experimental.jet import fact, jet, jet2

# (function, primals, series, JAX's primal out, JAX's terms)
CASES = [
    (
        lambda x: jnp.sin(x) * jnp.exp(x),
        (jnp.array([0.3, 1.0]),),
        ((jnp.ones(2), jnp.zeros(2), jnp.zeros(2)),),
        [0.39891055, 2.2873552],
        [[1.6884799, 3.756049], [2.5791395, 2.9373884], [1.7813194, -1.637324]],
    ),
    # Faa di Bruno: sin(h(t)^3) along h0 + h1 t + h2 t^2 / 2
    (lambda z: jnp.sin(z**3), (0.5,), ((2.0, -1.0),), 0.12467473, [1.4882965, 10.881709]),
    (jnp.sin, (0.4,), ((),), 0.38941833, []),
]


@pytest.mark.parametrize("fun, primals, series, want_out, want_terms", CASES)
def test_jet_gives_jaxs_derivatives(fun, primals, series, want_out, want_terms):
    out, terms = jet(fun, primals, series)
    np.testing.assert_allclose(out, want_out, rtol=1e-6)
    assert len(terms) == len(want_terms)
    for got, want in zip(terms, want_terms):
        np.testing.assert_allclose(got, want, rtol=2e-6)


def test_pytree_outputs_hold_lists_of_terms():
    out, terms = jet(lambda a, b: {"prod": a * b, "ratio": a / b}, (1.5, 2.0),
                     ([1.0, 0.0], [0.5, 1.0]))  # fmt: skip
    assert sorted(out) == sorted(terms) == ["prod", "ratio"]
    np.testing.assert_allclose(terms["prod"], [2.75, 2.5])
    np.testing.assert_allclose(terms["ratio"], [0.3125, -0.53125])
    assert out["prod"].dtype == np.float32


def test_jet2_takes_and_gives_taylor_coefficients():
    out, terms = jet2(lambda s: jnp.exp(2 * s), (0.5,), ((1.0, 0.5, 0.1),))
    np.testing.assert_allclose(out, 2.7182817, rtol=1e-6)
    np.testing.assert_allclose(terms, [5.4365635, 8.154845, 9.604596], rtol=2e-6)


def test_under_jit_and_grad():
    path = lambda s: ((jnp.ones_like(s), jnp.zeros_like(s)),)
    gauss = lambda s: jet(lambda y: jnp.exp(-(y**2)), (s,), path(s))
    out, terms = core.jit(gauss)(jnp.array([0.5, -1.0]))
    np.testing.assert_allclose(out, [0.7788008, 0.36787945], rtol=1e-6)
    np.testing.assert_allclose(terms[1], [-0.7788004, 0.73575854], rtol=2e-6)
    third = core.grad(lambda x: jet(jnp.sin, (x,), ((1.0, 0.0, 0.0),))[1][2])(0.4)
    np.testing.assert_allclose(third, 0.38941866, rtol=2e-6)


def test_fact_is_jaxs_float_factorial():
    # JAX's exp(lgamma(n + 1)): 24.000023 at n = 4
    np.testing.assert_allclose(fact(jnp.arange(5.0)), [1.0, 1.0, 2.0, 6.0, 24.0], rtol=2e-6)


def test_errors_name_the_argument():
    with pytest.raises(ValueError, match="jet terms have inconsistent lengths"):
        jet(lambda x, y: x * y, (1.0, 2.0), ([1.0, 0.5], [0.0]))
    with pytest.raises(ValueError, match="primal value at position 0 is not an array"):
        jet(lambda p: p["a"], ({"a": 1.0},), ([{"a": 1.0}],))
    with pytest.raises(ValueError, match="term 1 for argument 0 is not an array"):
        jet(jnp.sin, (1.0,), ([1.0, (2.0,)],))
