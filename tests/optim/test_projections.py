"""`optim.projections`: every projection on a two-leaf tree against values recorded from Optax
0.2.8, the simplex projection's Jacobian (Optax's custom JVP) and a run under `core.jit`."""

from __future__ import annotations

import numpy as np
import pytest

import core
import core.numpy as jnp
from optim import projections as P

X = {"a": np.array([0.5, -1.0, 2.0], np.float32), "b": np.array([0.3], np.float32)}
A = {"a": np.array([1.0, 1.0, 0.0], np.float32), "b": np.array([1.0], np.float32)}


def j(tree):
    return {k: jnp.asarray(v) for k, v in tree.items()}


def flat(tree):
    return np.concatenate([np.asarray(tree["a"]), np.asarray(tree["b"])])


CASES = [
    ("non_negative", lambda t: P.projection_non_negative(t), [0.5, 0.0, 2.0, 0.3]),
    ("box", lambda t: P.projection_box(t, -0.5, 0.6), [0.5, -0.5, 0.6, 0.3]),
    ("box_trees",
     lambda t: P.projection_box(t, {"a": jnp.asarray([0.0, -2.0, 0.0]), "b": jnp.asarray([0.5])},
                                {"a": jnp.asarray([0.2, 0.0, 5.0]), "b": jnp.asarray([1.0])}),
     [0.2, -1.0, 2.0, 0.5]),
    ("hypercube", lambda t: P.projection_hypercube(t), [0.5, 0.0, 1.0, 0.3]),
    ("simplex", lambda t: P.projection_simplex(t), [0.0, 0.0, 1.0, 0.0]),
    ("simplex_scale", lambda t: P.projection_simplex(t, 2.0), [0.233333, 0.0, 1.733333, 0.033333]),
    ("l1_sphere", lambda t: P.projection_l1_sphere(t), [0.0, 0.0, 1.0, 0.0]),
    ("l1_ball", lambda t: P.projection_l1_ball(t), [0.0, 0.0, 1.0, 0.0]),
    ("l1_ball_inside", lambda t: P.projection_l1_ball(t, 10.0), [0.5, -1.0, 2.0, 0.3]),
    ("l2_sphere", lambda t: P.projection_l2_sphere(t), [0.216371, -0.432742, 0.865485, 0.129823]),
    ("l2_ball", lambda t: P.projection_l2_ball(t), [0.216371, -0.432742, 0.865485, 0.129823]),
    ("linf_ball", lambda t: P.projection_linf_ball(t), [0.5, -1.0, 1.0, 0.3]),
    ("vector", lambda t: P.projection_vector(t, j(A)), [-0.066667, -0.066667, 0.0, -0.066667]),
    ("hyperplane", lambda t: P.projection_hyperplane(t, j(A), 0.5),
     [0.733333, -0.766667, 2.0, 0.533333]),
    ("halfspace", lambda t: P.projection_halfspace(t, j(A), 0.5), [0.5, -1.0, 2.0, 0.3]),
]  # fmt: skip


@pytest.mark.parametrize("name, fn, expected", CASES, ids=[c[0] for c in CASES])
def test_values_recorded_from_optax(name, fn, expected):
    np.testing.assert_allclose(flat(fn(j(X))), expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("jac", [core.jacfwd, core.jacrev], ids=["jacfwd", "jacrev"])
def test_simplex_jacobian_is_optax_custom_jvp(jac):
    # Optax's rule: supp * (t - mean of t over supp); the last entry is outside the support.
    out = jac(P.projection_simplex)(jnp.asarray([0.5, 0.2, 0.1, -3.0]))
    expected = np.zeros((4, 4))
    expected[:3, :3] = np.eye(3) - 1 / 3
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-6, atol=1e-7)


def test_projections_under_jit():
    f = core.jit(lambda t: (P.projection_simplex(t, 2.0), P.projection_l1_ball(t)))
    simplex, l1 = f(j(X))
    np.testing.assert_allclose(flat(simplex), [0.233333, 0.0, 1.733333, 0.033333], atol=1e-6)
    np.testing.assert_allclose(flat(l1), [0.0, 0.0, 1.0, 0.0], atol=1e-6)


@pytest.mark.parametrize("jac", [core.jacfwd, core.jacrev], ids=["jacfwd", "jacrev"])
def test_l1_ball_is_a_cond_between_the_tree_and_its_sphere_projection(jac):
    """Optax 0.2.8: inside the ball the Jacobian is the identity (also at a zero entry, where
    the sphere projection's sign has no slope), and bfloat16 leaves, whose sphere projection is
    float32, make the cond's branches disagree (a TypeError)."""
    out = jac(P.projection_l1_ball)(jnp.asarray([0.1, -0.2, 0.0]))
    np.testing.assert_array_equal(np.asarray(out), np.eye(3))
    with pytest.raises(TypeError, match="cond branches must have equal output types"):
        P.projection_l1_ball(jnp.asarray([0.5, -2.0], jnp.bfloat16))
