"""A tiny residual network trained data-parallel (ours): a stem convolution, `max_pool`, one
bottleneck-free residual block with a projection shortcut, `BatchNorm` whose statistics are
averaged across replicas (`axis_name="batch"`) and whose last scale starts at
`zeros_init`, a global average and a `Dense` head. The convolution class and dtype are
attributes: `nn.Conv` in float32 and `nn.ConvLocal` in float16. Training is `jax.pmap` over two
devices with the state unmapped (`in_axes=(None, 0)`, `out_axes=(None, 0)`): gradients, batch
statistics and metrics `lax.pmean`ed, an L2 penalty on the kernels, SGD with Nesterov momentum
on a warmup + cosine schedule (`join_schedules`), `common_utils.onehot` labels; evaluation is a
second `pmap`; `common_utils.get_metrics` stacks the per-step metrics. Checks the metrics, the
schedule, parameters, batch statistics and their paths."""

import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import common_utils, train_state
from jax import lax

CLASSES = 4


class Residual(nn.Module):
    features: int
    conv: Any
    norm: Any

    @nn.compact
    def __call__(self, x):
        y = nn.relu(self.norm()(self.conv(self.features, (3, 3), strides=(2, 2))(x)))
        y = self.norm(scale_init=nn.initializers.zeros_init())(self.conv(self.features, (3, 3))(y))
        shortcut = self.norm(name="shortcut_norm")(
            self.conv(self.features, (1, 1), strides=(2, 2), name="shortcut")(x)
        )
        return nn.relu(y + shortcut)


class TinyResNet(nn.Module):
    conv: Any = nn.Conv
    dtype: Any = jnp.float32

    @nn.compact
    def __call__(self, x, train: bool = True):
        conv = functools.partial(self.conv, use_bias=False, dtype=self.dtype)
        norm = functools.partial(
            nn.BatchNorm, use_running_average=not train, momentum=0.8, epsilon=1e-5,
            dtype=self.dtype, axis_name="batch",
        )  # fmt: skip
        x = nn.relu(norm(name="stem_norm")(conv(4, (3, 3), name="stem")(x)))
        x = nn.max_pool(x, (3, 3), strides=(2, 2), padding="SAME")
        x = Residual(6, conv, norm)(x)
        x = jnp.mean(x, axis=(1, 2))
        return jnp.asarray(nn.Dense(CLASSES, dtype=self.dtype)(x), self.dtype)


class State(train_state.TrainState):
    batch_stats: Any


def metrics_of(logits, labels):
    loss = optax.softmax_cross_entropy(logits, common_utils.onehot(labels, CLASSES)).mean()
    accuracy = jnp.mean(jnp.argmax(logits, -1) == labels)
    return lax.pmean({"loss": loss, "accuracy": accuracy}, axis_name="batch")


def train_step(state, batch, schedule):
    def loss_fn(params):
        logits, updates = state.apply_fn(
            {"params": params, "batch_stats": state.batch_stats}, batch["image"],
            mutable=["batch_stats"],
        )  # fmt: skip
        loss = optax.softmax_cross_entropy(logits, common_utils.onehot(batch["label"], CLASSES))
        kernels = [p for p in jax.tree_util.tree_leaves(params) if p.ndim > 1]
        penalty = 5e-4 * sum(jnp.sum(k**2) for k in kernels)
        return loss.mean() + penalty, (logits, updates)

    (_, (logits, updates)), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    state = state.apply_gradients(
        grads=lax.pmean(grads, axis_name="batch"),
        batch_stats=lax.pmean(updates["batch_stats"], axis_name="batch"),
    )
    metrics = metrics_of(logits, batch["label"])
    metrics["learning_rate"] = schedule(state.step - 1)
    return state, metrics


def eval_step(state, batch):
    variables = {"params": state.params, "batch_stats": state.batch_stats}
    return metrics_of(state.apply_fn(variables, batch["image"], train=False), batch["label"])


def run():
    schedule = optax.join_schedules(
        [optax.linear_schedule(0.0, 0.2, 2), optax.cosine_decay_schedule(0.2, 4)], [2]
    )
    rs = np.random.RandomState(8)
    out = {}
    for name, conv, dtype in (
        ("conv", nn.Conv, jnp.float32),
        ("local_half", nn.ConvLocal, jnp.float16),
    ):
        model = TinyResNet(conv, dtype)
        variables = jax.jit(functools.partial(model.init, train=False))(
            jax.random.key(0), jnp.ones((1, 8, 8, 3), dtype)
        )
        state = State.create(
            apply_fn=model.apply, params=variables["params"],
            batch_stats=variables["batch_stats"],
            tx=optax.sgd(schedule, momentum=0.9, nesterov=True),
        )  # fmt: skip
        p_train = jax.pmap(
            functools.partial(train_step, schedule=schedule), axis_name="batch",
            in_axes=(None, 0), out_axes=(None, 0),
        )  # fmt: skip
        p_eval = jax.pmap(eval_step, axis_name="batch", in_axes=(None, 0))
        history = []
        for _ in range(3):
            batch = {"image": rs.rand(2, 2, 8, 8, 3).astype(np.float32),
                     "label": rs.randint(0, CLASSES, (2, 2)).astype(np.int32)}  # fmt: skip
            state, metrics = p_train(state, batch)
            history.append(metrics)
        history = common_utils.get_metrics(history)
        batch = {"image": rs.rand(2, 2, 8, 8, 3).astype(np.float32),
                 "label": rs.randint(0, CLASSES, (2, 2)).astype(np.int32)}  # fmt: skip
        evaluation = jax.tree_util.tree_map(jnp.mean, p_eval(state, batch))
        if dtype == jnp.float16:  # float16 sums may differ in the last place between backends
            history, evaluation = jax.tree_util.tree_map(
                lambda m: np.round(np.asarray(m, np.float32), 2), (history, evaluation)
            )
        flat = jax.tree_util.tree_flatten_with_path(state.params)[0]
        out[name] = dict(
            train=history, eval=evaluation, step=state.step,
            params=[leaf for _, leaf in flat],
            paths=[jax.tree_util.keystr(path) for path, _ in flat],
            batch_stats=jax.tree_util.tree_leaves(state.batch_stats),
            schedule=[schedule(i) for i in range(6)],
        )  # fmt: skip
    return out
