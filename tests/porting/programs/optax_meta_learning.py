"""Meta-learning with Optax: a learning rate learned by differentiating through inner steps,
and a small learned optimizer written as an `optax.GradientTransformation` (ours, in the style
of Optax's meta-learning example, google-deepmind/optax `examples/meta_learning.ipynb`, and of
google/learned_optimization's per-parameter MLP optimizers).

(1) The inner optimizer is `optax.inject_hyperparams(optax.rmsprop)(learning_rate=...)`; the
outer step sets `opt_state.hyperparams["learning_rate"]` from a log learning rate, takes an
inner step and differentiates the next batch's loss with respect to it (`jax.grad` through
`tx.update`), an outer `optax.adam` updates the log rate. (2) A learned optimizer: its state
is a momentum pytree (`optax.tree_utils.tree_zeros_like`), its update an MLP applied per
element to (gradient, momentum) features (`jax.tree.map` over leaves), the meta-parameters
trained by unrolling inner steps in `lax.scan` on random linear-regression tasks and taking
a jitted `jax.value_and_grad` of the summed inner losses. Also the `optax.tree_utils` helpers the
optimizer uses (`tree_add_scale`, `tree_scale`, `tree_vdot`, `tree_norm`, `tree_sum`,
`tree_get`, `tree_set`). Checks the learned rates, meta-losses, meta-gradients and the
final parameters."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
import optax.tree_utils as otu


def linear_task(key, n=16, dim=3):
    kw, kx, kn = jax.random.split(key, 3)
    w = jax.random.normal(kw, (dim,))
    x = jax.random.normal(kx, (n, dim))
    return x, x @ w + 0.1 * jax.random.normal(kn, (n,))


def mse(params, batch):
    x, y = batch
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


# (1) a learned learning rate through inject_hyperparams
def learn_learning_rate(steps=6):
    tx = optax.inject_hyperparams(optax.rmsprop)(learning_rate=1e-2)
    meta_tx = optax.adam(0.1)
    params = {"w": jnp.zeros(3), "b": jnp.zeros(())}
    opt_state = tx.init(params)
    log_lr = jnp.log(jnp.asarray(1e-2))
    meta_state = meta_tx.init(log_lr)

    def inner_then_loss(log_lr, params, opt_state, batch, next_batch):
        opt_state.hyperparams["learning_rate"] = jnp.exp(log_lr)
        grads = jax.grad(mse)(params, batch)
        updates, opt_state = tx.update(grads, opt_state)
        params = optax.apply_updates(params, updates)
        return mse(params, next_batch), (params, opt_state)

    @jax.jit
    def outer_step(log_lr, meta_state, params, opt_state, batch, next_batch):
        (loss, (params, opt_state)), meta_grad = jax.value_and_grad(inner_then_loss, has_aux=True)(
            log_lr, params, opt_state, batch, next_batch
        )
        meta_updates, meta_state = meta_tx.update(meta_grad, meta_state)
        return optax.apply_updates(log_lr, meta_updates), meta_state, params, opt_state, loss

    task_key = jax.random.PRNGKey(0)
    rates, losses = [], []
    for i in range(steps):
        x, y = linear_task(jax.random.fold_in(task_key, i), n=32)
        batch, next_batch = (x[:16], y[:16]), (x[16:], y[16:])
        log_lr, meta_state, params, opt_state, loss = outer_step(
            log_lr, meta_state, params, opt_state, batch, next_batch
        )
        rates.append(jnp.exp(log_lr))
        losses.append(loss)
    return jnp.stack(rates), jnp.stack(losses), opt_state.hyperparams["learning_rate"], params


# (2) a per-element MLP optimizer
def init_meta_params(key, hidden=8):
    k1, k2 = jax.random.split(key)
    return {"w1": 0.5 * jax.random.normal(k1, (2, hidden)), "b1": jnp.zeros(hidden),
            "w2": 0.1 * jax.random.normal(k2, (hidden,)), "scale": jnp.float32(-2.0)}  # fmt: skip


def learned_optimizer(meta_params, beta=0.9):
    def init_fn(params):
        return {"momentum": otu.tree_zeros_like(params), "count": jnp.zeros([], jnp.int32)}

    def per_element(g, m):
        features = jnp.stack([g, m], axis=-1)
        h = jnp.tanh(features @ meta_params["w1"] + meta_params["b1"])
        return -jnp.exp(meta_params["scale"]) * (h @ meta_params["w2"] + g)

    def update_fn(updates, state, params=None):
        del params
        momentum = otu.tree_add_scale(otu.tree_scale(beta, state["momentum"]), 1 - beta, updates)
        new_updates = jax.tree.map(per_element, updates, momentum)
        return new_updates, {"momentum": momentum, "count": state["count"] + 1}

    return optax.GradientTransformation(init_fn, update_fn)


def meta_loss(meta_params, task, unroll=5):
    tx = learned_optimizer(meta_params)
    params = {"w": jnp.zeros(3), "b": jnp.zeros(())}
    opt_state = tx.init(params)

    def inner(carry, _):
        params, opt_state = carry
        loss, grads = jax.value_and_grad(mse)(params, task)
        updates, opt_state = tx.update(grads, opt_state)
        return (optax.apply_updates(params, updates), opt_state), loss

    (params, opt_state), losses = jax.lax.scan(inner, (params, opt_state), None, length=unroll)
    return losses.sum() + mse(params, task), (losses, opt_state["count"])


def run():
    out = {}
    rates, losses, final_rate, params = learn_learning_rate()
    out["learned_rates"] = rates
    out["lr_losses"] = losses
    out["final_rate"] = final_rate
    out["lr_params"] = params

    meta_params = init_meta_params(jax.random.PRNGKey(1))
    meta_tx = optax.chain(optax.clip_by_global_norm(5.0), optax.adam(3e-2))
    meta_state = meta_tx.init(meta_params)
    meta_grad_fn = jax.jit(jax.value_and_grad(meta_loss, has_aux=True))
    history = []
    for i in range(4):
        task = linear_task(jax.random.PRNGKey(100 + i))
        (loss, (inner_losses, count)), grads = meta_grad_fn(meta_params, task)
        updates, meta_state = meta_tx.update(grads, meta_state)
        meta_params = optax.apply_updates(meta_params, updates)
        history.append(loss)
    out["meta_losses"] = jnp.stack(history)
    out["last_inner_losses"] = inner_losses
    out["inner_count"] = count
    out["meta_grads"] = grads
    out["meta_params"] = meta_params

    tree = {"a": jnp.arange(3.0), "b": {"c": jnp.ones((2, 2))}}
    other = jax.tree.map(lambda t: 2 * t + 1, tree)
    out["tree_utils"] = {
        "vdot": otu.tree_vdot(tree, other),
        "norm": otu.tree_norm(tree),
        "sum": otu.tree_sum(other),
        "add_scale": otu.tree_add_scale(tree, 0.5, other),
        "get": otu.tree_get(meta_state, "count"),
        "set_count": otu.tree_get(
            otu.tree_set(meta_state, count=jnp.asarray(7, jnp.int32)), "count"
        ),  # fmt: skip
        "lr_hyperparam": otu.tree_get(
            optax.inject_hyperparams(optax.sgd)(0.3).init(tree), "learning_rate"
        ),
    }
    out["numpy_leaf_ok"] = float(otu.tree_norm({"x": np.ones(4, np.float32)}))
    return out
