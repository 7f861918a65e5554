"""`lax.custom_root` / `lax.custom_linear_solve`: values and implicit derivatives.

Expected values were recorded from JAX 0.10.2 (`jax.lax`, x64 enabled) on the same programs.
"""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax


@pytest.fixture(autouse=True)
def x64():
    with core.enable_x64():
        yield


def newton_sqrt(a):
    """sqrt(a) by Newton's method in a while_loop (not differentiable in reverse mode)."""
    f = lambda x: x * x - a  # noqa: E731

    def solve(f, x0):
        return lax.while_loop(lambda x: jnp.abs(f(x)) > 1e-12, lambda x: x - f(x) / (2 * x), x0)

    return lax.custom_root(f, 1.0, solve, lambda g, y: y / g(1.0))


A = np.array([[4.0, 1.0], [2.0, 3.0]])
S = np.array([[2.0, 0.5], [0.5, 1.0]])
B = np.array([1.0, 2.0])
W = np.array([1.0, -2.0])


def lin(a, b):
    """`a x = b` by Jacobi iteration in while_loops, which only the custom rules differentiate."""

    def loop_solve(m):
        def solve(_, rhs):  # x <- x + (rhs - m x) / diag(m), run to convergence in a while_loop
            def body(x):
                return x + (rhs - m @ x) / jnp.diagonal(m)

            return lax.while_loop(lambda x: jnp.max(jnp.abs(rhs - m @ x)) > 1e-13, body, rhs * 0)

        return solve

    return lax.custom_linear_solve(lambda x: a @ x, b, loop_solve(a), loop_solve(a.T))


def sym(b):
    return lax.custom_linear_solve(
        lambda x: S @ x, b, lambda mv, r: jnp.linalg.solve(S, r), symmetric=True
    )


@pytest.mark.parametrize(
    "name,fn,want",
    [  # recorded from JAX
        ("root", lambda: newton_sqrt(2.0), 1.4142135623730951),
        ("root_grad", lambda: core.grad(newton_sqrt)(2.0), 0.35355339059327373),
        ("root_jvp", lambda: core.jvp(newton_sqrt, (2.0,), (1.0,))[1], 0.35355339059327373),
        ("root_hessian", lambda: core.grad(core.grad(newton_sqrt))(2.0), -0.08838834764831842),
        ("root_vmap", lambda: core.vmap(newton_sqrt)(jnp.array([4.0, 9.0])), [2.0, 3.0]),
        (
            "root_vmap_grad",
            lambda: core.vmap(core.grad(newton_sqrt))(jnp.array([4.0, 9.0])),
            [0.25, 1 / 6],
        ),
        ("root_jit", lambda: core.jit(core.grad(newton_sqrt))(2.0), 0.35355339059327373),
        ("lin", lambda: lin(A, B), [0.1, 0.6]),
        ("lin_grad_b", lambda: core.grad(lambda b: jnp.sum(lin(A, b) * W))(B), [0.7, -0.9]),
        (
            "lin_grad_a",
            lambda: core.grad(lambda a: jnp.sum(lin(a, B) * W))(A),
            [[-0.07, -0.42], [0.09, 0.54]],
        ),
        (
            "lin_jvp",
            lambda: core.jvp(lin, (A, B), (np.ones((2, 2)), np.array([0.5, -1.0])))[1],
            [0.11, -0.64],
        ),
        (
            "lin_vmap",
            lambda: core.vmap(lambda b: lin(A, b))(jnp.array([[1.0, 2.0], [0.0, 1.0]])),
            [[0.1, 0.6], [-0.1, 0.4]],
        ),
        (
            "lin_jit_grad",
            lambda: core.jit(core.grad(lambda b: jnp.sum(lin(A, b) * W)))(B),
            [0.7, -0.9],
        ),
        ("sym_grad", lambda: core.grad(lambda b: jnp.sum(sym(b) ** 2))(B), [-8 / 7, 32 / 7]),
    ],
)
def test_values(name, fn, want):
    np.testing.assert_allclose(np.asarray(fn()), want, rtol=1e-9, atol=1e-12)


def test_has_aux():
    x, aux = lax.custom_linear_solve(
        lambda x: S @ x,
        B,
        lambda mv, r: (jnp.linalg.solve(S, r), jnp.sum(r)),
        symmetric=True,
        has_aux=True,
    )
    np.testing.assert_allclose(np.asarray(x), [0.0, 2.0], atol=1e-12)
    assert float(aux) == 3.0


def test_pytree_root():
    def solve(f, x0):  # the root of f(x) = (x["u"] - c, 2 * x["v"] - c) is known exactly
        return {"u": x0["u"] * 0 + 3.0, "v": x0["v"] * 0 + 1.5}

    def root(c):
        f = lambda x: {"u": x["u"] - c, "v": 2.0 * x["v"] - c}  # noqa: E731
        tangent_solve = lambda g, y: {"u": y["u"], "v": y["v"] / 2.0}  # noqa: E731
        guess = {"u": jnp.zeros(()), "v": jnp.zeros(())}
        out = lax.custom_root(f, guess, solve, tangent_solve)
        return out["u"] + 10.0 * out["v"]

    assert float(root(3.0)) == 18.0
    assert float(core.grad(root)(3.0)) == 6.0  # d/dc (c + 10 * c / 2)


@pytest.mark.parametrize(
    "call,err,match",
    [
        (
            lambda: core.grad(
                lambda b: jnp.sum(
                    lax.custom_linear_solve(
                        lambda x: A @ x, b, lambda mv, r: jnp.linalg.solve(A, r)
                    )
                )
            )(B),
            TypeError,
            "transpose_solve required",
        ),
    ],
)
def test_errors(call, err, match):
    with pytest.raises(err, match=match):
        call()


def _same(f, x):
    return x


ERRORS = [  # (call, JAX 0.10.2's class and first line)
    (
        lambda: lax.custom_linear_solve(lambda x: [x], 1.0, _same, _same),
        TypeError,
        "matvec() output pytree structure must match b, got PyTreeDef([*]) and PyTreeDef(*).",
    ),
    (
        lambda: lax.custom_linear_solve(lambda x: x, 1.0, lambda f, x: [x], _same),
        TypeError,
        "solve() output pytree structure must match b, got PyTreeDef([*]) and PyTreeDef(*).",
    ),
    (
        lambda: lax.custom_linear_solve(lambda x: x, 1.0, _same, lambda f, x: [x]),
        TypeError,
        "transpose_solve() output pytree structure must match b, got PyTreeDef([*]) and "
        "PyTreeDef(*).",
    ),
    (
        lambda: lax.custom_linear_solve(lambda x: x, 1.0, lambda f, x: jnp.ones(2), _same),
        ValueError,
        "solve() output shapes must match b, got [(2,)] and [()]",
    ),
    (
        lambda: core.jvp(
            lambda a: lax.custom_linear_solve(lambda x: a * jnp.ones(2), 1.0, _same, _same),
            (1.0,),
            (1.0,),
        ),
        ValueError,
        "matvec() output shapes must match b, got [(2,)] and [()]",
    ),
    (
        lambda: lax.custom_root(lambda x: x, 0.0, _same, _same, has_aux=True),
        ValueError,
        "solve() produced a pytree with structure PyTreeDef(*), but a pytree tuple with "
        "auxiliary output was expected because has_aux was set to True.",
    ),
    (
        lambda: lax.custom_root(lambda x: (x, x), 0.0, _same, _same),
        TypeError,
        "f() output pytree structure must match initial_guess, got PyTreeDef((*, *)) and "
        "PyTreeDef(*).",
    ),
    (
        lambda: lax.custom_root(lambda x: x, 0.0, lambda f, x: (x, x), _same),
        TypeError,
        "solve() output pytree structure must match initial_guess, got PyTreeDef((*, *)) and "
        "PyTreeDef(*).",
    ),
    (
        lambda: core.jvp(
            lambda x: lax.custom_root(lambda y: x - y, 0.0, _same, lambda f, x: (x, x)),
            (0.0,),
            (0.0,),
        ),
        TypeError,
        "tangent_solve() output pytree structure must match x, got PyTreeDef((*, *)) and "
        "PyTreeDef(*).",
    ),
]


@pytest.mark.parametrize("call,err,first", ERRORS)
def test_errors_are_jaxs(call, err, first):
    with pytest.raises(err) as info:
        call()
    assert str(info.value).split("\n")[0] == first


def test_root_output_shapes_are_not_checked_as_jax():
    # JAX 0.10.2 checks a root's trees only: f of another shape solves (its jvp then fails)
    out = lax.custom_root(lambda x: jnp.stack([x, x]), 1.0, _same, lambda g, y: y)
    assert float(out) == 1.0
