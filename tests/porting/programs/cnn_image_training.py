"""A small convolutional classifier trained the way Flax's MNIST guide trains (ours): `Conv`,
`avg_pool` and `Dense` layers, `init_with_output` and a parameter count, uint8 images scaled by
`jnp.float32(images) / 255.0`, one jitted function for the loss, gradients and accuracy
(`value_and_grad(has_aux=True)` of `optax.softmax_cross_entropy` on `jax.nn.one_hot` labels)
and one for the update of a `TrainState` with momentum SGD, epochs batched by a
`jax.random.permutation` of the examples with the leftover dropped, and the epoch's metrics as
`np.mean` of JAX scalars (numpy floats) formatted into log lines. Checks the first output, the
count, the logged numbers, the metric types, the parameters and the step."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state


class SmallCNN(nn.Module):
    classes: int = 5

    @nn.compact
    def __call__(self, x):
        for features in (6, 8):
            x = nn.relu(nn.Conv(features, (3, 3))(x))
            x = nn.avg_pool(x, (2, 2), strides=(2, 2))
        x = nn.relu(nn.Dense(24)(x.reshape((x.shape[0], -1))))
        return nn.Dense(self.classes)(x)


@jax.jit
def loss_and_grads(state, images, labels):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, images)
        one_hot = jax.nn.one_hot(labels, logits.shape[-1])
        return optax.softmax_cross_entropy(logits, one_hot).mean(), logits

    (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    return grads, loss, jnp.mean(jnp.argmax(logits, -1) == labels)


@jax.jit
def update(state, grads):
    return state.apply_gradients(grads=grads)


def one_epoch(state, data, batch_size, key):
    """Shuffled batches of `data`, the last incomplete one dropped; the mean loss, accuracy."""
    count = len(data["image"]) // batch_size
    order = jax.random.permutation(key, len(data["image"]))[: count * batch_size]
    losses, accuracies = [], []
    for idx in np.asarray(order).reshape((count, batch_size)):
        grads, loss, accuracy = loss_and_grads(state, data["image"][idx], data["label"][idx])
        state = update(state, grads)
        losses.append(loss)
        accuracies.append(accuracy)
    return state, np.mean(losses), np.mean(accuracies)


def synthetic(rs, n):
    """uint8 12x12 images whose brightest quadrant-ish band is the label, int64 labels."""
    labels = rs.randint(0, 5, n).astype(np.int64)
    images = rs.randint(0, 120, (n, 12, 12, 1))
    for i, label in enumerate(labels):
        images[i, 2 * label : 2 * label + 3] += 130
    return {"image": jnp.float32(images.astype(np.uint8)) / 255.0, "label": labels}


def run():
    model = SmallCNN()
    out, variables = model.init_with_output(jax.random.key(4), jnp.ones((1, 12, 12, 1)))
    count = sum(int(np.prod(p.shape)) for p in jax.tree_util.tree_leaves(variables["params"]))
    rs = np.random.RandomState(5)
    train, test = synthetic(rs, 40), synthetic(rs, 16)
    state = train_state.TrainState.create(
        apply_fn=model.apply, params=variables["params"], tx=optax.sgd(0.1, momentum=0.9)
    )
    key = jax.random.key(6)
    logged, types = [], []
    for epoch in range(1, 3):
        key, epoch_key = jax.random.split(key)
        state, loss, accuracy = one_epoch(state, train, 16, epoch_key)
        _, test_loss, test_accuracy = loss_and_grads(state, test["image"], test["label"])
        types.append([type(loss).__name__, isinstance(accuracy, np.floating)])
        logged.append(
            f"epoch {epoch}: loss {loss:.5f} accuracy {accuracy * 100:.2f} "
            f"test loss {test_loss:.5f} test accuracy {test_accuracy * 100:.2f}"
        )
    numbers = [
        [float(w) for w in line.replace(":", " ").split() if w[0].isdigit()] for line in logged
    ]
    return dict(
        first=out, count=count, numbers=numbers, types=types, params=state.params,
        step=state.step,
    )  # fmt: skip
