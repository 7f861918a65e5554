"""Adaptive ODE integration with `jax.experimental.ode.odeint`: our own program over the
behaviours JAX's odeint tests check, with few compiled solvers (each right-hand side and each
transformation of one is a numba compile of the solver's loops).

- A damped, driven oscillator (time-dependent, two parameters) against scipy's `odeint`, and
  the gradient of its final position in the initial state, the output times and both
  parameters (the adjoint solve);
- a dict state; a complex state with a complex parameter under
  `numpy_dtype_promotion("standard")`;
- `vmap(value_and_grad(f))` over rates of a jitted `f` whose right-hand side closes over the
  traced rate and which `vmap`s odeint over two initial states;
- `vmap` of odeint op by op under `disable_jit`;
- `hmax` keeping the solver from stepping over a `jnp.piecewise` right-hand side's pulse;
- the errors: forward mode (`jacfwd`), a string among `args`, integer times.
"""

import jax
import jax.numpy as jnp
import numpy as np
import scipy.integrate
from jax.experimental.ode import odeint


def oscillator(xp):
    def rhs(y, t, damping, drive):
        return xp.stack([y[1], -damping * y[1] - 2.0 * y[0] + drive * xp.cos(1.5 * t)])

    return rhs


def driven(out):
    y0 = np.array([1.0, -0.5])
    times = np.linspace(0.0, 2.0, 9)
    params = (0.3, 0.8)
    reference = scipy.integrate.odeint(oscillator(np), y0, times, params)
    solution = odeint(oscillator(jnp), jnp.asarray(y0), jnp.asarray(times), *params)
    np.testing.assert_allclose(solution, reference, rtol=1e-3, atol=1e-3)
    out["driven"] = solution

    def final_position(y0, times, damping, drive):
        return odeint(oscillator(jnp), y0, times, damping, drive)[-1, 0]

    grads = jax.grad(final_position, argnums=(0, 1, 2, 3))(
        jnp.asarray(y0), jnp.asarray(times), *params
    )
    out["driven_grads"] = grads
    out["grad_dtypes"] = [str(g.dtype) for g in grads]


def other_states(out):
    def coupled(state, t):
        return {"fast": -3.0 * state["fast"], "slow": 0.5 * state["fast"] - state["slow"]}

    start = {"fast": jnp.array(1.0), "slow": jnp.ones((1, 2))}
    out["dict_state"] = odeint(coupled, start, jnp.linspace(0.0, 1.0, 5))

    def spiral(y, t, omega):
        return omega * y * jnp.exp(-0.5 * t).astype(y.dtype)

    with jax.numpy_dtype_promotion("standard"):
        ys = odeint(spiral, 0.5 + 1j, jnp.linspace(0.0, 1.0, 6), -1.0 + 2j)
    out["complex_state"] = [ys.dtype.name, ys.real, ys.imag]


def closures(out):
    @jax.jit
    def spread(rate):
        def relax(y, t):
            return -rate * y + 0.3 * jnp.sin(y)

        starts = jnp.array([[1.0, 0.5], [0.2, -0.3]])
        runs = jax.vmap(lambda y0: odeint(relax, y0, jnp.array([0.0, 1.0, 2.0])))(starts)
        return jnp.sum(runs[:, -1] ** 2)

    values, slopes = jax.vmap(jax.value_and_grad(spread))(jnp.linspace(0.2, 1.0, 4))
    out["closure_vmap_grad"] = [values, slopes]

    with jax.disable_jit():
        grow = jax.vmap(lambda y0: odeint(lambda y, t: 0.5 * y, y0, jnp.array([0.0, 0.5])))
        out["disable_jit_vmap"] = grow(jnp.arange(6.0).reshape(3, 2))


def pulse(out):
    def rhs(y, t):
        return jnp.piecewise(t, [t < 1.5, t > 4.0], [lambda s: jnp.full_like(s, 2.0), -1.0, 0.0])

    ys = odeint(rhs, jnp.array(0.0), jnp.array([0.0, 3.0, 6.0]), hmax=0.5)
    np.testing.assert_allclose(ys, [0.0, 3.0, 1.0], atol=1e-4)
    out["hmax"] = ys


def errors(out):
    def total(k):
        return odeint(lambda y, t: k * y, 1.0, jnp.linspace(0.0, 1.0, 4)).sum()

    messages = []
    for call in (
        lambda: jax.jacfwd(total)(0.5),
        lambda: odeint(lambda y, t, s: y, 1.0, jnp.linspace(0.0, 1.0, 3), "fast"),
        lambda: odeint(lambda y, t: y, 1.0, jnp.arange(4)),
    ):
        try:
            call()
            messages.append(None)
        except TypeError as e:
            messages.append(str(e).splitlines()[0])
    out["errors"] = messages


def run():
    out = {}
    driven(out)
    other_states(out)
    closures(out)
    pulse(out)
    errors(out)
    return out
