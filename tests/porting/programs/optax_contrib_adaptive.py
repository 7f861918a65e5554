"""Optax's contributed optimizers on one small problem (our own program): a two-layer
regressor's parameters in a dict (a matrix, a vector, a scalar), trained by eager steps.

Checks, for each optimizer, the losses of five steps and the final parameters:
learning-rate-free methods (`contrib.prodigy`, `dog`, `dowg`, `cocob`, `dadapt_adamw`,
`mechanize(adam)`), `schedule_free_adamw` (its training and evaluation parameters by
`schedule_free_eval_params`, and `schedule_free_sgd`), `momo` and `momo_adam` (the loss passed
as `value=`), `sophia` (its Hessian estimate from `obj_fn=`, Hutchinson's random signs), `madgrad`,
`adopt`, `acprop`, `simplified_ademamix`, `galore` (a rank-1 projection of the matrix's
gradient refreshed every two steps); `hutchinson_estimator_diag_hessian` against the exact
diagonal of the Hessian; and differentially private SGD: per-example gradients by
`vmap(grad)` through `differentially_private_aggregate` (clipped, summed, noised) chained with
`sgd`, against `dpsgd`, plus the state's fields."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from optax import contrib

rs = np.random.RandomState(4)
X = jnp.asarray(rs.randn(10, 3), jnp.float32)
Y = jnp.asarray(np.tanh(X @ np.array([1.0, -2.0, 0.5])) + 0.1 * rs.randn(10), jnp.float32)


def init_params():
    return {"w": jnp.asarray(0.3 * rs.randn(3, 4), jnp.float32),
            "v": jnp.asarray(0.3 * rs.randn(4), jnp.float32),
            "b": jnp.float32(0.1)}  # fmt: skip


PARAMS = init_params()


def predict(params, x):
    return jnp.tanh(x @ params["w"]) @ params["v"] + params["b"]


def loss_fn(params, x=X, y=Y):
    return jnp.mean((predict(params, x) - y) ** 2)


def fit(tx, steps=5, extra=None):
    params, state = PARAMS, tx.init(PARAMS)
    losses = []
    for _ in range(steps):
        loss, grads = jax.value_and_grad(loss_fn)(params)
        kwargs = {} if extra is None else extra(loss)
        updates, state = tx.update(grads, state, params, **kwargs)
        params = optax.apply_updates(params, updates)
        losses.append(loss)
    return params, state, losses


def run():
    out = {}
    plain = {
        "prodigy": contrib.prodigy(),
        "dog": contrib.dog(),
        "dowg": contrib.dowg(),
        "cocob": contrib.cocob(),
        "dadapt_adamw": contrib.dadapt_adamw(),
        "mechanize": contrib.mechanize(optax.adam(0.05)),
        "madgrad": contrib.madgrad(0.05),
        "adopt": contrib.adopt(0.05),
        "acprop": contrib.acprop(0.05),
        "simplified_ademamix": contrib.simplified_ademamix(0.05, alpha=2.0),
        "galore": contrib.galore(0.05, rank=1, update_proj_gap=2),
        "schedule_free_sgd": contrib.schedule_free_sgd(0.1, warmup_steps=2),
    }
    for name, tx in plain.items():
        params, _, losses = fit(tx)
        out[name] = [losses, params]

    tx = contrib.schedule_free_adamw(0.05, warmup_steps=2, weight_decay=1e-3)
    params, state, losses = fit(tx)
    eval_params = contrib.schedule_free_eval_params(state, params)
    out["schedule_free_adamw"] = [losses, params, eval_params, loss_fn(eval_params)]

    for name, tx in {"momo": contrib.momo(0.5), "momo_adam": contrib.momo_adam(0.05)}.items():
        params, _, losses = fit(tx, extra=lambda loss: {"value": loss})
        out[name] = [losses, params]

    tx = contrib.sophia(0.05, update_interval=2)
    params, state, losses = fit(tx, extra=lambda _: {"obj_fn": loss_fn})
    out["sophia"] = [losses, params, optax.tree.get(state, "count")]

    estimator = contrib.hutchinson_estimator_diag_hessian(jax.random.key(3))
    est_state = estimator.init(PARAMS)
    estimates = []
    for _ in range(3):
        estimate, est_state = estimator.update(PARAMS, est_state, PARAMS, obj_fn=loss_fn)
        estimates.append(estimate)
    flat, unravel = jax.flatten_util.ravel_pytree(PARAMS)
    exact = jnp.diag(jax.hessian(lambda f: loss_fn(unravel(f)))(flat))
    out["hutchinson"] = [estimates, unravel(exact)]

    def per_example(params):
        return jax.vmap(jax.grad(loss_fn), in_axes=(None, 0, 0))(params, X[:, None], Y[:, None])

    private = optax.chain(
        contrib.differentially_private_aggregate(1.0, 0.5, key=jax.random.key(8)),
        optax.sgd(0.1),
    )
    dpsgd = contrib.dpsgd(0.1, 1.0, 0.5, seed=8)
    for name, tx in {"private_chain": private, "dpsgd": dpsgd}.items():
        params, state = PARAMS, tx.init(PARAMS)
        losses = []
        for _ in range(3):
            losses.append(loss_fn(params))
            updates, state = tx.update(per_example(params), state, params)
            params = optax.apply_updates(params, updates)
        out[name] = [losses, params]
    out["dp_state"] = type(state[0]).__name__ if isinstance(state, tuple) else type(state).__name__
    return out
