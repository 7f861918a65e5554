"""`jax.scipy.optimize.minimize`, BFGS and the experimental L-BFGS: our own program over the
behaviours JAX's optimize tests check, with few compiled solvers (each solver is a while loop
of line-search while loops: a numba compile of seconds).

- BFGS and L-BFGS under `jit`, `vmap`ped over starts and the `args` of a 2-D Rosenbrock
  valley `(a - x)^2 + b (y - x^2)^2` (minimum at `(a, a^2)`): float32 starts and float64
  numpy ones (made float32), the results' `x`, `success`, `status`, `fun` and `jac`;
- L-BFGS on a complex vector (a Rosenbrock chain of its real and imaginary parts) under `jit`;
- BFGS op by op from a start far from Himmelblau's minima, against scipy's BFGS given the
  gradient by `jax.grad`; a badly scaled quadratic under `default_matmul_precision`;
- the `TypeError` of `args` that is not a tuple.
"""

import jax
import jax.numpy as jnp
import numpy as np
import scipy.optimize
from jax.scipy.optimize import minimize

LBFGS = "l-bfgs-experimental-do-not-rely-on-this"


def valley(x, a, b):
    return jnp.sum(b * (x[1:] - x[:-1] ** 2) ** 2 + (a - x[:-1]) ** 2)


def himmelblau(p):
    return (p[0] ** 2 + p[1] - 11.0) ** 2 + (p[0] + p[1] ** 2 - 7.0) ** 2


def fields(result):
    return [result.x, result.success, result.status, result.fun, result.jac]


def batched(method, gtol):
    @jax.jit
    def solve(starts, a, b):
        def one(x0, a, b):
            return fields(minimize(valley, x0, (a, b), method=method, options={"gtol": gtol}))

        return jax.vmap(one)(starts, a, b)

    return solve


def valleys(out):
    starts = np.array([[0.0, 0.0], [-1.0, 0.5], [2.0, 2.5]])
    a = jnp.array([1.0, 0.5, 1.5])
    b = jnp.array([4.0, 2.0, 5.0])
    solvers = {"bfgs": batched("BFGS", 1e-6), "lbfgs": batched(LBFGS, 1e-7)}
    for name, solve in solvers.items():
        result = solve(starts.astype(np.float32), a, b)
        np.testing.assert_allclose(result[0][:, 0], a, atol=2e-3)
        np.testing.assert_allclose(result[0][:, 1], a**2, atol=4e-3)
        out[name] = result
    again = solvers["bfgs"](starts, a, b)[0]  # float64 numpy starts: the same float32 program
    out["float64_start"] = [str(again.dtype), again]


def complex_chain(out):
    dim = 3

    @jax.jit
    def solve(z0):
        def f(z):
            return valley(jnp.concatenate([jnp.real(z), jnp.imag(z)]), 1.0, 5.0)

        return fields(minimize(f, z0, method=LBFGS, options={"gtol": 1e-6}))

    result = solve(jnp.zeros(dim, jnp.complex64))
    np.testing.assert_allclose(result[0], np.full(dim, 1 + 1j), atol=1e-5)
    out["complex"] = [str(result[0].dtype), jnp.real(result[0]), jnp.imag(result[0])]
    out["complex_rest"] = result[1:4]


def eager(out):
    start = jnp.array([70.0, -0.01])
    ours = minimize(himmelblau, start, method="BFGS")
    theirs = scipy.optimize.minimize(himmelblau, start, jac=jax.grad(himmelblau), method="BFGS")
    np.testing.assert_allclose(ours.x, theirs.x, atol=1e-4)
    out["far_start"] = fields(ours)
    with jax.default_matmul_precision("highest"):
        scales = jnp.diag(jnp.array([3e3, 1.0, 2e2]))
        squares = minimize(lambda x: jnp.mean((scales @ x - 1.0) ** 2), jnp.ones(3), method="BFGS")
    np.testing.assert_allclose(squares.x, [1 / 3e3, 1.0, 1 / 2e2], rtol=1e-4)
    out["scaled"] = fields(squares)
    try:
        minimize(himmelblau, start, args=[1.0], method="BFGS")
    except TypeError as e:
        out["args_error"] = str(e).splitlines()[0]


def run():
    out = {}
    valleys(out)
    complex_chain(out)
    eager(out)
    return out
