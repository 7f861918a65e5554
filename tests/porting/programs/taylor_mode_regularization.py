"""Taylor-mode derivatives with `jax.experimental.jet`, and a neural ODE regularised by the
size of its solution's higher time derivatives (ours, in the style of jacobjinkelly/easy-neural-
ode, "Learning differential equations that are easy to solve", whose `sol_recursive` gets the
K-th total derivative of an ODE's solution by repeated `jet` calls on the augmented dynamics).

First `jet` itself: the derivatives of sin(x^3) along a path against Faa di Bruno's formula by
hand, `jet` against nested `jax.jacfwd` for a vector function, several arguments and a dict
output, `jet2`'s Taylor coefficients, and `jet` under `jit` and `vmap`. Then the ODE: the state
(z, t) evolves by g(z, t) = (f(z, t), 1) with f a Flax MLP; the solution's k-th derivative is
obtained from a `jet` whose input series are the lower derivatives found so far; the loss of a
few Euler steps' end state plus lambda * mean(|z^(K)|^2), trained by `optax.adam` in a jitted
step. Checks the derivatives, the regulariser, the losses and the parameters."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from jax.experimental import jet as jet_lib
from jax.experimental.jet import jet


class Dynamics(nn.Module):
    hidden: int = 8

    @nn.compact
    def __call__(self, z, t):
        h = jnp.concatenate([z, jnp.broadcast_to(t, z.shape[:-1] + (1,))], axis=-1)
        h = nn.tanh(nn.Dense(self.hidden)(h))
        return nn.Dense(z.shape[-1])(h)


def total_derivatives(f, z, t, order):
    """[z', z'', ..., z^(order)] of the solution of z' = f(z, t) through (z, t)."""
    state = jnp.concatenate([z, jnp.array([t])])

    def g(state):
        dz = f(state[:-1], state[-1])
        return jnp.concatenate([dz, jnp.ones(1)])

    first = g(state)
    derivs = [first]
    for _ in range(order - 1):
        _, terms = jet(g, (state,), (derivs,))
        derivs = [first] + terms
    return [d[:-1] for d in derivs]


def run():
    out = {}
    # jet against Faa di Bruno: h(z) = z^3 along z(t) = h0 + h1 t + h2 t^2 / 2
    h0, h1, h2 = 0.5, 2.0, -1.0
    f0, (f1, f2) = jet(lambda z: jnp.sin(z**3), (h0,), ((h1, h2),))
    x, dx, ddx = h0**3, 3 * h0**2 * h1, 6 * h0 * h1**2 + 3 * h0**2 * h2
    out["faa_di_bruno"] = jnp.array([f0, f1, f2])
    out["by_hand"] = jnp.array(
        [jnp.sin(x), jnp.cos(x) * dx, -jnp.sin(x) * dx**2 + jnp.cos(x) * ddx]
    )

    w = jnp.array([[0.4, -0.3, 0.2], [0.1, 0.5, -0.6]])
    vec = lambda v: jnp.tanh(w @ v) ** 2  # noqa: E731
    v0, u = jnp.array([0.3, -0.2, 0.5]), jnp.array([1.0, 0.0, -1.0])
    _, (d1, d2, d3) = jet(vec, (v0,), ((u, jnp.zeros(3), jnp.zeros(3)),))
    jac2 = jax.jacfwd(jax.jacfwd(vec))(v0)
    jac3 = jax.jacfwd(jax.jacfwd(jax.jacfwd(vec)))(v0)
    out["jet_terms"] = [d1, d2, d3]
    out["nested_jacfwd"] = [jax.jacfwd(vec)(v0) @ u, jnp.einsum("ijk,j,k->i", jac2, u, u),
                            jnp.einsum("ijkl,j,k,l->i", jac3, u, u, u)]  # fmt: skip
    out["two_args_dict"] = jet(lambda a, b: {"prod": a * b, "ratio": a / b}, (1.5, 2.0),
                               ([1.0, 0.0], [0.5, 1.0]))  # fmt: skip
    out["jet2"] = jet_lib.jet2(lambda s: jnp.exp(2 * s), (0.5,), ((1.0, 0.5, 0.1),))
    grid = jnp.linspace(-1.0, 1.0, 4)
    gauss = lambda s: jet(
        lambda y: jnp.exp(-(y**2)), (s,), ((jnp.ones_like(s), jnp.zeros_like(s)),)
    )  # noqa: E731
    out["jit_jet"] = jax.jit(gauss)(grid)
    out["vmap_jet"] = jax.vmap(lambda s: jet(jnp.cos, (s,), ((1.0, 0.0),))[1][1])(grid)
    out["fact"] = jet_lib.fact(jnp.arange(5.0))

    # a neural ODE regularised by its solution's second derivative (the third checked once)
    model = Dynamics()
    z0 = jax.random.normal(jax.random.PRNGKey(0), (2,))
    target = jnp.array([1.0, -0.5])
    params = model.init(jax.random.PRNGKey(1), z0, 0.0)
    field = lambda p: lambda z, t: model.apply(p, z, t)  # noqa: E731
    derivs = total_derivatives(field(params), z0, 0.0, 3)
    out["total_derivatives"] = derivs
    eps = 1e-3
    first_fd = (model.apply(params, z0 + eps * derivs[0], eps) - model.apply(params, z0, 0.0)) / eps
    out["second_matches_fd"] = bool(jnp.allclose(first_fd, derivs[1], atol=1e-2))

    def loss_fn(p, lam=0.1, steps=4, dt=0.25):
        f = field(p)

        def euler(carry, t):
            z, reg = carry
            kth = total_derivatives(f, z, t, 2)[-1]
            return (z + dt * f(z, t), reg + jnp.mean(kth**2)), None

        (z_end, reg), _ = jax.lax.scan(euler, (z0, 0.0), jnp.arange(steps) * dt)
        fit = jnp.sum((z_end - target) ** 2)
        return fit + lam * reg / steps, (fit, reg / steps)

    tx = optax.adam(1e-2)
    opt_state = tx.init(params)

    @jax.jit
    def step(params, opt_state):
        (loss, aux), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        updates, opt_state = tx.update(grads, opt_state)
        return optax.apply_updates(params, updates), opt_state, loss, aux

    history = []
    for _ in range(3):
        params, opt_state, loss, (fit, reg) = step(params, opt_state)
        history.append(jnp.stack([loss, fit, reg]))
    out["history"] = jnp.stack(history)
    out["params"] = params
    return out
