"""The documented BatchNorm + Dropout training recipe (nn/__init__.py), run as written."""

import numpy as np

import core
import core.numpy as jnp
import nn


class Model(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool):
        x = nn.Dense(32)(x)
        x = nn.BatchNorm(use_running_average=not train, momentum=0.9)(x)
        x = nn.Dropout(0.2, deterministic=not train)(nn.relu(x))
        return nn.Dense(10)(x)


def cross_entropy(logits, labels):
    return -jnp.mean(jnp.sum(nn.log_softmax(logits) * nn.one_hot(labels, 10), axis=-1))


def test_jitted_train_step_with_batch_norm_and_dropout():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.standard_normal((64, 8)).astype(np.float32) * 2 + 1)
    y = jnp.asarray((np.asarray(x)[:, 0] > 1).astype(np.int32) * 3)
    model = Model()
    variables = model.init(core.random.key(0), x, train=False)
    params, batch_stats = variables["params"], variables["batch_stats"]
    assert set(variables) == {"params", "batch_stats"}

    @core.jit
    def train_step(params, batch_stats, x, y, dropout_key):
        def loss_fn(params):
            logits, updates = model.apply(
                {"params": params, "batch_stats": batch_stats},
                x,
                train=True,
                rngs={"dropout": dropout_key},
                mutable=["batch_stats"],
            )
            return cross_entropy(logits, y), updates["batch_stats"]

        (loss, batch_stats), grads = core.value_and_grad(loss_fn, has_aux=True)(params)
        params = core.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)
        return params, batch_stats, loss

    losses = []
    for step in range(30):
        dropout_key = core.random.fold_in(core.random.key(1), step)
        params, batch_stats, loss = train_step(params, batch_stats, x, y, dropout_key)
        losses.append(float(loss))
    assert losses[-1] < 0.5 * losses[0]
    # Running mean moved from 0 towards the batch mean of the first Dense's output.
    assert np.abs(np.asarray(batch_stats["BatchNorm_0"]["mean"])).sum() > 0.1
    logits = model.apply({"params": params, "batch_stats": batch_stats}, x, train=False)
    again = model.apply({"params": params, "batch_stats": batch_stats}, x, train=False)
    np.testing.assert_array_equal(np.asarray(logits), np.asarray(again))  # eval: deterministic
    accuracy = float(jnp.mean(jnp.argmax(logits, -1) == y))
    assert accuracy > 0.9
