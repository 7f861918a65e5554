"""Optax's optimizers that the other programs do not use, each training the same small Flax
classifier, plus projected gradient methods and `optax.second_order` (ours, written as
optimizer-comparison scripts are).

Every optimizer (`lion`, `adafactor`, `yogi`, `novograd`, `radam`, `nadam`, `nadamw`,
`adamaxw`, `amsgrad`, `adadelta`, `adan`, `rprop`, `sign_sgd`, `signum`, `sm3`, `fromage`,
`polyak_sgd` with the loss passed as `value=`, and chains of `centralize`,
`clip_by_block_rms`, `scale_by_param_block_rms`, `normalize_by_update_norm`, `zero_nans`,
`keep_params_nonnegative`, `apply_every`, `freeze`) runs six steps from
the same initial parameters; the losses and one leaf per optimizer are compared. Three of
them jit their step; the others run eagerly (jitted, each step costs numbax 2-3 s of numba
compile from empty caches: 60 s for the zoo against 5 s eagerly).
Projections: projected gradient descent onto the simplex (`projection_simplex`), an L1 ball,
a box, and the other projections on one vector. Second order: `hessian_diag`, `hvp` and
`fisher_diag` of a flat-parameter loss against `jax.hessian`. `optax.nnls` and
`power_iteration` on a small matrix."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from optax import projections, second_order


class Classifier(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(nn.relu(nn.Dense(8)(x)))


model = Classifier()
JITTED = ("lion", "adafactor", "scaled_frozen")


def make_data(key, n=48):
    k1, k2 = jax.random.split(key)
    centers = jnp.array([[1.5, 0.0, -0.5], [-1.0, 1.5, 0.5], [0.0, -1.5, 1.0]])
    y = jax.random.randint(k1, (n,), 0, 3)
    return centers[y] + 0.6 * jax.random.normal(k2, (n, 3)), y


def loss_fn(params, x, y):
    logits = model.apply({"params": params}, x)
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


def optimizers(params):
    frozen = jax.tree_util.tree_map_with_path(lambda p, _: p[0].key == "Dense_0", params)
    return {
        "lion": optax.lion(3e-3, b1=0.9, b2=0.99, weight_decay=1e-3),
        "adafactor": optax.adafactor(0.05, min_dim_size_to_factor=4),
        "yogi": optax.yogi(0.05),
        "novograd": optax.novograd(0.05),
        "radam": optax.radam(0.05, threshold=4.5),
        "nadam": optax.nadam(0.05),
        "nadamw": optax.nadamw(0.05, weight_decay=1e-2),
        "adamaxw": optax.adamaxw(0.05),
        "amsgrad": optax.amsgrad(0.05),
        "adadelta": optax.adadelta(1.0, rho=0.9),
        "adan": optax.adan(0.05),
        "rprop": optax.rprop(0.01),
        "sign_sgd": optax.sign_sgd(0.01),
        "signum": optax.signum(0.01, beta=0.9),
        "sm3": optax.sm3(0.1),
        "fromage": optax.fromage(0.05),
        "centralized_block_rms": optax.chain(
            optax.centralize(),
            optax.clip_by_block_rms(0.5),
            optax.scale_by_param_block_rms(),
            optax.scale(-0.1),
        ),
        "normalized_update": optax.chain(
            optax.normalize_by_update_norm(scale_factor=0.2), optax.zero_nans()
        ),  # fmt: skip
        "nonnegative": optax.chain(optax.sgd(0.1), optax.keep_params_nonnegative()),
        "apply_every": optax.chain(optax.apply_every(2), optax.adam(0.05)),
        "scaled_frozen": optax.chain(
            optax.freeze(frozen), optax.scale(0.5), optax.sgd(0.2, momentum=0.5, nesterov=True)
        ),  # fmt: skip
    }


def train(tx, params, x, y, steps=6, jit=False):
    state = tx.init(params)

    def step(params, state):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, state = tx.update(grads, state, params)
        return optax.apply_updates(params, updates), state, loss

    step = jax.jit(step) if jit else step

    losses = []
    for _ in range(steps):
        params, state, loss = step(params, state)
        losses.append(loss)
    return params, jnp.stack(losses)


def train_polyak(params, x, y, steps=6):
    tx = optax.polyak_sgd(max_learning_rate=1.0, f_min=0.0)
    state = tx.init(params)
    losses = []
    for _ in range(steps):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, state = tx.update(grads, state, params, value=loss)
        params = optax.apply_updates(params, updates)
        losses.append(loss)
    return params, jnp.stack(losses)


def projected_descent(project, steps=20, lr=0.3):
    target = jnp.array([0.9, -0.4, 0.6, 0.2])
    w = jnp.zeros(4)
    for _ in range(steps):
        w = project(w - lr * jax.grad(lambda w: jnp.sum((w - target) ** 2))(w))
    return w


def run():
    out = {}
    x, y = make_data(jax.random.PRNGKey(0))
    params = model.init(jax.random.PRNGKey(1), x)["params"]
    finals, leaves = {}, {}
    for name, tx in optimizers(params).items():
        trained, losses = train(tx, params, x, y, jit=name in JITTED)
        finals[name] = losses
        leaves[name] = trained["Dense_1"]["kernel"]
        if name == "nonnegative":
            out["nonnegative_min"] = min(jnp.min(p) for p in jax.tree.leaves(trained))
        if name == "scaled_frozen":
            out["frozen_unchanged"] = bool(
                jnp.all(trained["Dense_0"]["kernel"] == params["Dense_0"]["kernel"])
            )
    trained, losses = train_polyak(params, x, y)
    finals["polyak_sgd"] = losses
    leaves["polyak_sgd"] = trained["Dense_1"]["kernel"]
    out["losses"] = finals
    out["kernels"] = leaves

    out["pgd"] = {
        "simplex": projected_descent(lambda w: projections.projection_simplex(w, 1.0)),
        "l1_ball": projected_descent(lambda w: projections.projection_l1_ball(w, 0.8)),
        "box": projected_descent(lambda w: projections.projection_box(w, -0.1, 0.5)),
    }
    v = jnp.array([0.5, -1.2, 2.0, 0.1])
    out["projections"] = {
        "non_negative": projections.projection_non_negative(v),
        "hypercube": projections.projection_hypercube(v, 1.0),
        "l2_ball": projections.projection_l2_ball(v, 1.0),
        "linf_ball": projections.projection_linf_ball(v, 0.7),
        "l1_sphere": projections.projection_l1_sphere(v, 2.0),
        "l2_sphere": projections.projection_l2_sphere(v, 2.0),
        "halfspace": projections.projection_halfspace(v, jnp.ones(4), 0.5),
        "hyperplane": projections.projection_hyperplane(v, jnp.array([1.0, 0.0, -1.0, 2.0]), 1.0),
        "simplex_tree": projections.projection_simplex({"a": v[:2], "b": v[2:]}, 1.0),
    }

    # second order, on a small regression with flat parameters
    a = jax.random.normal(jax.random.PRNGKey(2), (10, 3))
    b = jnp.sin(jnp.arange(10.0))
    w = jnp.array([0.3, -0.2, 0.1])

    def net(w, inputs):
        return jnp.tanh(inputs @ w)

    def reg_loss(w, inputs, targets):
        return jnp.mean((net(w, inputs) - targets) ** 2)

    out["hessian_diag"] = second_order.hessian_diag(reg_loss, w, a, b)
    out["hessian_diag_ref"] = jnp.diag(jax.hessian(reg_loss)(w, a, b))
    out["hvp"] = second_order.hvp(reg_loss, jnp.array([1.0, 0.0, 2.0]), w, a, b)
    out["fisher_diag"] = second_order.fisher_diag(
        lambda w, inputs, targets: -jnp.sum((net(w, inputs) - targets) ** 2), w, a, b
    )

    m = a.T @ a / 10 + jnp.eye(3)
    out["nnls"] = optax.nnls(a, b, iters=50)
    eigenvalue, eigenvector = optax.power_iteration(m, num_iters=50, key=jax.random.PRNGKey(3))
    out["power_iteration"] = (eigenvalue, jnp.abs(eigenvector))
    out["top_eigenvalue"] = jnp.linalg.eigvalsh(m)[-1]
    return out
