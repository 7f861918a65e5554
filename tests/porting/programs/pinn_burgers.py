"""A physics-informed neural network for the viscous Burgers equation (ours, in the style of
the JAX/Flax ports of Raissi et al.'s PINNs, e.g. maziarraissi/PINNs `appendix/continuous_time_
inference (Burgers)` rewritten with `jax.grad` over the network's inputs, as in the JAX PINN
tutorials).

u(t, x) is a tanh MLP (`nn.initializers.glorot_normal`, zero biases); the residual
u_t + u u_x - (0.01/pi) u_xx is built from `jax.grad` of the scalar network with respect to
its inputs (`argnums=`), u_xx by nested `grad`, `jax.hessian` and `jacfwd(jacrev)` (checked
equal), all `vmap`ped over collocation points drawn by `jax.random.uniform(minval=, maxval=)`.
Initial (u = -sin(pi x)) and boundary (u = 0) losses are mean squares. Trained a few steps by
`optax.adam` on `optax.exponential_decay`, the loss terms weighted. Checks the residual
terms, the loss history, the derivatives and the parameters."""

import functools

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn

NU = 0.01 / jnp.pi


class PINN(nn.Module):
    widths: tuple = (16, 16, 16)

    @nn.compact
    def __call__(self, t, x):
        h = jnp.stack([t, x], axis=-1)
        for w in self.widths:
            h = nn.tanh(nn.Dense(w, kernel_init=nn.initializers.glorot_normal())(h))
        return nn.Dense(1, kernel_init=nn.initializers.glorot_normal())(h)[..., 0]


model = PINN()


def u_fn(params, t, x):
    return model.apply(params, t, x)


def residual(params, t, x):
    u = u_fn(params, t, x)
    u_t = jax.grad(u_fn, argnums=1)(params, t, x)
    u_x = jax.grad(u_fn, argnums=2)(params, t, x)
    u_xx = jax.grad(jax.grad(u_fn, argnums=2), argnums=2)(params, t, x)
    return u_t + u * u_x - NU * u_xx


def second_derivatives(params, t, x):
    nested = jax.grad(jax.grad(u_fn, argnums=2), argnums=2)(params, t, x)
    point = lambda z: u_fn(params, z[0], z[1])  # noqa: E731
    z = jnp.stack([t, x])
    return nested, jax.hessian(point)(z), jax.jacfwd(jax.jacrev(point))(z)


def losses(params, colloc, initial, boundary):
    r = jax.vmap(residual, in_axes=(None, 0, 0))(params, colloc[:, 0], colloc[:, 1])
    x0 = initial[:, 1]
    u0 = u_fn(params, initial[:, 0], x0)
    ub = u_fn(params, boundary[:, 0], boundary[:, 1])
    return {"pde": jnp.mean(r**2), "initial": jnp.mean((u0 + jnp.sin(jnp.pi * x0)) ** 2),
            "boundary": jnp.mean(ub**2)}  # fmt: skip


def total_loss(params, colloc, initial, boundary, weights=(1.0, 10.0, 10.0)):
    terms = losses(params, colloc, initial, boundary)
    total = weights[0] * terms["pde"] + weights[1] * terms["initial"]
    return total + weights[2] * terms["boundary"], terms


def points(key, n_colloc=48, n_edge=16):
    k1, k2, k3, k4 = jax.random.split(key, 4)
    t = jax.random.uniform(k1, (n_colloc,), minval=0.0, maxval=1.0)
    x = jax.random.uniform(k2, (n_colloc,), minval=-1.0, maxval=1.0)
    x0 = jax.random.uniform(k3, (n_edge,), minval=-1.0, maxval=1.0)
    tb = jax.random.uniform(k4, (n_edge,))
    xb = jnp.where(jnp.arange(n_edge) % 2 == 0, -1.0, 1.0)
    return (jnp.stack([t, x], 1), jnp.stack([jnp.zeros_like(x0), x0], 1),
            jnp.stack([tb, xb], 1))  # fmt: skip


def run():
    out = {}
    colloc, initial, boundary = points(jax.random.PRNGKey(0))
    params = model.init(jax.random.PRNGKey(1), jnp.zeros(()), jnp.zeros(()))
    out["bias_zero"] = bool(jnp.all(params["params"]["Dense_0"]["bias"] == 0))

    nested, hess, jfr = second_derivatives(params, jnp.float32(0.3), jnp.float32(-0.2))
    out["u_xx"] = nested
    out["hessian"] = hess
    out["hessian_forms_agree"] = bool(jnp.allclose(hess, jfr, atol=1e-5))
    out["u_xx_agrees"] = bool(jnp.allclose(hess[1, 1], nested, atol=1e-5))
    out["initial_terms"] = losses(params, colloc, initial, boundary)

    schedule = optax.exponential_decay(5e-3, transition_steps=2, decay_rate=0.9)
    tx = optax.adam(schedule)
    opt_state = tx.init(params)

    @functools.partial(jax.jit, donate_argnums=(0, 1))
    def step(params, opt_state):
        (loss, terms), grads = jax.value_and_grad(total_loss, has_aux=True)(
            params, colloc, initial, boundary
        )
        updates, opt_state = tx.update(grads, opt_state)
        return optax.apply_updates(params, updates), opt_state, loss, terms

    history = []
    for _ in range(5):
        params, opt_state, loss, terms = step(params, opt_state)
        history.append(loss)
    out["losses"] = jnp.stack(history)
    out["final_terms"] = terms
    out["params"] = params
    grid_t, grid_x = jnp.meshgrid(jnp.linspace(0, 1, 3), jnp.linspace(-1, 1, 4), indexing="ij")
    out["u_grid"] = u_fn(params, grid_t, grid_x)
    out["residual_grid"] = jax.vmap(jax.vmap(residual, (None, 0, 0)), (None, 0, 0))(
        params, grid_t, grid_x
    )
    return out
