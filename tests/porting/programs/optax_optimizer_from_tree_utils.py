"""An optimizer built from `optax.tree_utils`' pieces, as papers' reference code does (our own
program): Adam and AdaMax by `tree_update_moment`, `tree_update_moment_per_elem_norm`,
`tree_update_infinity_moment` and `tree_bias_correction` in a jitted `GradientTransformation`,
against `optax.adam`/`optax.adamax` step by step on a small regression; perturbations by
`tree_random_like` and keys by `tree_split_key_like`; `tree_batch_shape`, `tree_allclose`,
`tree_cast_like`, `tree_dtype(..., "lowest")`; the state of `scale_by_lbfgs` (its memory
buffers, `scale_init_precond=False`) after a few steps; `contrib.schedule_free` wrapping
`sgd` (`schedule_free_eval_params`, `weight_sum`, `max_lr`); an `exponential_decay` with
`staircase=True` read back through `inject_hyperparams`."""

from typing import NamedTuple

import jax
import jax.numpy as jnp
import optax
import optax.tree_utils as otu
from optax import contrib


class MomentsState(NamedTuple):
    count: jax.Array
    mu: optax.Updates
    nu: optax.Updates


def hand_adam(lr, b1=0.9, b2=0.999, eps=1e-8, infinity=False):
    def init_fn(params):
        zeros = otu.tree_zeros_like(params)
        return MomentsState(jnp.zeros([], jnp.int32), zeros, zeros)

    def update_fn(grads, state, params=None):
        del params
        count = optax.safe_increment(state.count)
        mu = otu.tree_update_moment(grads, state.mu, b1, 1)
        if infinity:
            nu = otu.tree_update_infinity_moment(grads, state.nu, b2, eps)
            mu_hat = otu.tree_bias_correction(mu, b1, count)
            updates = jax.tree.map(lambda m, v: -lr * m / v, mu_hat, nu)
        else:
            nu = otu.tree_update_moment_per_elem_norm(grads, state.nu, b2, 2)
            mu_hat = otu.tree_bias_correction(mu, b1, count)
            nu_hat = otu.tree_bias_correction(nu, b2, count)
            updates = jax.tree.map(lambda m, v: -lr * m / (jnp.sqrt(v) + eps), mu_hat, nu_hat)
        return updates, MomentsState(count, mu, nu)

    return optax.GradientTransformation(init_fn, update_fn)


def make_data():
    kx, kw = jax.random.split(jax.random.key(4))
    xs = jax.random.normal(kx, (16, 3))
    ys = xs @ jnp.array([1.0, -2.0, 0.5]) + 0.3 + 0.05 * jax.random.normal(kw, (16,))
    return xs, ys


def loss(params, xs, ys):
    return jnp.mean((xs @ params["w"] + params["b"] - ys) ** 2)


def train(tx, params, xs, ys, n):
    state = tx.init(params)

    @jax.jit
    def step(params, state):
        value, grads = jax.value_and_grad(loss)(params, xs, ys)
        updates, state = tx.update(grads, state, params)
        return optax.apply_updates(params, updates), state, value

    values = []
    for _ in range(n):
        params, state, value = step(params, state)
        values.append(value)
    return params, state, jnp.stack(values)


def run():
    out = {}
    xs, ys = make_data()
    params = {"w": jnp.zeros(3), "b": jnp.array(0.0)}

    for name, mine, theirs in [
        ("adam", hand_adam(0.1), optax.adam(0.1)),
        ("adamax", hand_adam(0.1, infinity=True), optax.adamax(0.1)),
    ]:
        p1, s1, v1 = train(mine, params, xs, ys, 8)
        p2, _, v2 = train(theirs, params, xs, ys, 8)
        out[name] = dict(params=p1, losses=v1, count=s1.count,
                         same=bool(otu.tree_allclose(p1, p2, rtol=1e-5, atol=1e-6)),
                         gap=jnp.max(jnp.abs(v1 - v2)) < 1e-5)  # fmt: skip

    key = jax.random.key(8)
    noise = otu.tree_random_like(key, params, jax.random.normal)
    keys = otu.tree_split_key_like(key, params)
    out["random_like"] = dict(noise=noise, leaves=len(jax.tree.leaves(keys)),
                              uniform=otu.tree_random_like(key, params, jax.random.uniform,
                                                           dtype=jnp.bfloat16))  # fmt: skip
    stacked = jax.tree.map(lambda p: jnp.stack([p, p + 1]), params)
    out["batch_shape"] = otu.tree_batch_shape(stacked, (2,))
    half = otu.tree_cast_like(params, {"w": jnp.ones(3, jnp.float16), "b": jnp.ones((), jnp.int32)})
    out["cast_like"] = [str(otu.tree_dtype(half, "lowest")), str(otu.tree_dtype(half, "promote")),
                        jax.tree.map(lambda a: str(a.dtype), half)]  # fmt: skip

    tx = optax.scale_by_lbfgs(memory_size=2, scale_init_precond=False)
    p, state, values = train(optax.chain(tx, optax.scale(-0.2)), params, xs, ys, 4)
    lb = state[0]
    out["lbfgs"] = dict(params=p, losses=values, count=lb.count,
                        diff_params=lb.diff_params_memory, weights=lb.weights_memory)  # fmt: skip

    sf = contrib.schedule_free(optax.sgd(0.1), learning_rate=0.1, b1=0.9)
    p, state, values = train(sf, params, xs, ys, 6)
    out["schedule_free"] = dict(params=p, eval=contrib.schedule_free_eval_params(state, p),
                                losses=values, weight_sum=state.weight_sum,
                                max_lr=state.max_lr)  # fmt: skip

    decay = optax.exponential_decay(0.4, transition_steps=2, decay_rate=0.5, staircase=True)
    itx = optax.inject_hyperparams(optax.sgd)(learning_rate=decay, momentum=0.9)
    istate = itx.init(params)
    lrs = []
    p = params
    for _ in range(6):
        updates, istate = itx.update(jax.grad(loss)(p, xs, ys), istate, p)
        p = optax.apply_updates(p, updates)
        lrs.append(istate.hyperparams["learning_rate"])
    out["staircase"] = dict(lrs=jnp.stack(lrs), params=p, momentum=istate.hyperparams["momentum"])
    return out
