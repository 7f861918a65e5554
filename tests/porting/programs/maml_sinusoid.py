"""MAML on sine-wave regression (ours): a Flax MLP whose parameters take one or two inner SGD
steps per task (`jax.grad` inside the outer loss, `jax.tree.map` for the update), tasks batched
with `jax.vmap` over their support and query sets, the meta-gradient through the inner steps
(second order) and with `jax.lax.stop_gradient` on the inner gradient (first order), an Adam
meta-optimizer. Also a Hessian-vector product of the task loss by `jax.jvp` of `jax.grad`,
`jax.hessian` of a tiny model, and per-example gradients by `vmap(grad)`. Checks meta losses,
gradients (both orders), adapted predictions and the products."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from jax.flatten_util import ravel_pytree


class Regressor(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.tanh(nn.Dense(24)(x))
        x = nn.tanh(nn.Dense(24)(x))
        return nn.Dense(1)(x)


model = Regressor()
tx = optax.adam(3e-3)


def mse(params, x, y):
    return jnp.mean((model.apply({"params": params}, x) - y) ** 2)


def adapt(params, x, y, inner_lr, steps, first_order):
    for _ in range(steps):
        grads = jax.grad(mse)(params, x, y)
        if first_order:
            grads = jax.lax.stop_gradient(grads)
        params = jax.tree.map(lambda p, g: p - inner_lr * g, params, grads)
    return params


def task_loss(params, support, query, inner_lr, steps, first_order):
    adapted = adapt(params, *support, inner_lr, steps, first_order)
    return mse(adapted, *query)


def meta_loss(params, supports, queries, inner_lr, steps, first_order):
    per_task = jax.vmap(task_loss, in_axes=(None, 0, 0, None, None, None))(
        params, supports, queries, inner_lr, steps, first_order
    )
    return per_task.mean()


@functools.partial(jax.jit, static_argnums=(4, 5))
def meta_step(params, opt_state, supports, queries, steps, first_order):
    loss, grads = jax.value_and_grad(meta_loss)(params, supports, queries, 0.05, steps,
                                                first_order)  # fmt: skip
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss, grads


def tasks(rs, count, shots):
    amplitude = rs.uniform(0.5, 3.0, (count, 1, 1))
    phase = rs.uniform(0.0, np.pi, (count, 1, 1))
    x = rs.uniform(-4.0, 4.0, (count, 2 * shots, 1))
    y = amplitude * np.sin(x - phase)
    x, y = x.astype(np.float32), y.astype(np.float32)
    return (x[:, :shots], y[:, :shots]), (x[:, shots:], y[:, shots:])


def run():
    rs = np.random.RandomState(8)
    params = model.init(jax.random.key(0), jnp.zeros((1, 1)))["params"]
    opt_state = tx.init(params)
    out = {"losses": [], "first_order": []}
    for i in range(3):
        supports, queries = tasks(rs, 4, 5)
        params, opt_state, loss, grads = meta_step(params, opt_state, supports, queries, 1 + i % 2,
                                                   False)  # fmt: skip
        out["losses"].append(loss)
        _, _, fo_loss, fo_grads = meta_step(params, opt_state, supports, queries, 1, True)
        out["first_order"].append([fo_loss, jax.tree.leaves(fo_grads)[0]])
    out["second_order_grads"] = jax.tree.leaves(grads)
    out["params"] = jax.tree.leaves(params)
    (sx, sy), (qx, qy) = tasks(rs, 1, 5)
    adapted = adapt(params, sx[0], sy[0], 0.05, 3, False)
    out["adapted"] = model.apply({"params": adapted}, qx[0])

    flat, unravel = ravel_pytree(params)
    vector = jnp.linspace(-1.0, 1.0, flat.size)
    grad_fn = lambda p: jax.grad(mse)(p, sx[0], sy[0])  # noqa: E731
    _, hvp = jax.jvp(grad_fn, (params,), (unravel(vector),))
    out["hvp"] = jax.tree.leaves(hvp)[:3]
    out["flat_size"] = flat.size

    def tiny(w):
        return jnp.sum(jnp.tanh(sx[0, :, 0] * w[0] + w[1]) ** 2)

    out["hessian"] = jax.hessian(tiny)(jnp.array([0.3, -0.2]))
    per_example = jax.vmap(jax.grad(mse), in_axes=(None, 0, 0))(params, sx[0][:, None],
                                                                 sy[0][:, None])  # fmt: skip
    out["per_example"] = jax.tree.map(lambda g: list(g.shape), per_example)
    out["per_example_bias"] = per_example["Dense_2"]["bias"]
    return out
