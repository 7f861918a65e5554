"""An MLP-Mixer (ours): patches embedded by a strided `nn.Conv`, then blocks that mix tokens
(an MLP over the patch axis, reached by `jnp.swapaxes`) and channels (an MLP over features),
each behind `nn.LayerNorm` with a residual; global average pooling and a zero-initialised
head. Data: random horizontal flips and shuffles by `jax.random` (a `vmap` of a per-image
flip, `jax.random.permutation` of the batch). Training: `optax.sgd` with Nesterov momentum
and decoupled weight decay (`add_decayed_weights` masked to the kernels by
`jax.tree_util.tree_map_with_path`) behind `optax.inject_hyperparams`, on a `join_schedules`
of a linear warmup and an `sgdr_schedule`; the learning rate read back from the optimizer
state each step. Checks losses, accuracies, learning rates, parameter counts per block, the
parameters' flat checksum (`jax.flatten_util.ravel_pytree`) and predictions."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state
from jax.flatten_util import ravel_pytree


class FeedForward(nn.Module):
    hidden: int

    @nn.compact
    def __call__(self, x):
        h = nn.gelu(nn.Dense(self.hidden, name="up")(x), approximate=False)
        return nn.Dense(x.shape[-1], name="down")(h)


class MixerBlock(nn.Module):
    token_hidden: int
    channel_hidden: int

    @nn.compact
    def __call__(self, x):
        h = jnp.swapaxes(nn.LayerNorm(name="token_norm")(x), 1, 2)
        x = x + jnp.swapaxes(FeedForward(self.token_hidden, name="tokens")(h), 1, 2)
        h = nn.LayerNorm(name="channel_norm")(x)
        return x + FeedForward(self.channel_hidden, name="channels")(h)


class Mixer(nn.Module):
    classes: int = 4
    patch: int = 4
    width: int = 12
    depth: int = 2

    @nn.compact
    def __call__(self, images):
        x = nn.Conv(self.width, (self.patch, self.patch), strides=(self.patch, self.patch),
                    name="stem")(images)  # fmt: skip
        x = x.reshape(x.shape[0], -1, x.shape[-1])
        for i in range(self.depth):
            x = MixerBlock(2 * x.shape[1], 3 * self.width, name=f"mixer{i}")(x)
        x = nn.LayerNorm(name="final_norm")(x).mean(axis=1)
        return nn.Dense(self.classes, kernel_init=nn.initializers.zeros, name="head")(x)


def quadrants(rs, count):
    """8x8 grey images: class c lights up quadrant c (a flip swaps left and right)."""
    labels = rs.randint(0, 4, count).astype(np.int32)
    images = rs.rand(count, 8, 8, 1).astype(np.float32) * 0.3
    for i, c in enumerate(labels):
        r, q = divmod(int(c), 2)
        images[i, 4 * r : 4 * r + 4, 4 * q : 4 * q + 4] += 1.0
    return images, labels


def augment(key, images, labels):
    flip_key, order_key = jax.random.split(key)

    def flip(k, image, label):
        do = jax.random.bernoulli(k, 0.5)
        flipped = jnp.where(do, image[:, ::-1], image)
        swapped = jnp.where(do, label ^ 1, label)
        return flipped, swapped

    images, labels = jax.vmap(flip)(jax.random.split(flip_key, images.shape[0]), images, labels)
    order = jax.random.permutation(order_key, images.shape[0])
    return images[order], labels[order]


def decay_mask(params):
    return jax.tree_util.tree_map_with_path(
        lambda path, _: path[-1].key == "kernel" and path[0].key != "head", params)  # fmt: skip


@functools.partial(jax.jit, donate_argnums=0)
def train_step(state, images, labels, key):
    images, labels = augment(key, images, labels)

    def loss_fn(params):
        logits = state.apply_fn({"params": params}, images)
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
        return loss, jnp.mean(jnp.argmax(logits, -1) == labels)

    (loss, accuracy), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    lr = state.opt_state.hyperparams["learning_rate"]
    return state.apply_gradients(grads=grads), loss, accuracy, lr


def run():
    rs = np.random.RandomState(4)
    model = Mixer()
    images, labels = quadrants(rs, 16)
    params = model.init(jax.random.key(0), images[:2])["params"]
    schedule = optax.join_schedules(
        [optax.linear_schedule(0.0, 0.1, 3),
         optax.sgdr_schedule([dict(init_value=0.1, peak_value=0.1, warmup_steps=0,
                                   decay_steps=4, end_value=0.01)] * 2)],
        boundaries=[3],
    )  # fmt: skip

    @optax.inject_hyperparams
    def make_tx(learning_rate):
        return optax.chain(
            optax.add_decayed_weights(1e-3, mask=decay_mask),
            optax.sgd(learning_rate, momentum=0.9, nesterov=True),
        )

    state = train_state.TrainState.create(apply_fn=model.apply, params=params,
                                          tx=make_tx(learning_rate=schedule))  # fmt: skip
    out = {
        "counts": {k: sum(x.size for x in jax.tree.leaves(v)) for k, v in params.items()},
        "mask": jax.tree.leaves(decay_mask(params)),
        "initial_logits": model.apply({"params": params}, images),
        "losses": [], "accuracies": [], "rates": [],
    }  # fmt: skip
    key = jax.random.key(1)
    for step in range(10):
        images, labels = quadrants(rs, 16)
        state, loss, accuracy, lr = train_step(state, images, labels, jax.random.fold_in(key, step))
        out["losses"].append(loss)
        out["accuracies"].append(accuracy)
        out["rates"].append(lr)
    flat, unravel = ravel_pytree(state.params)
    out["flat"] = flat
    same = jax.tree.map(jnp.array_equal, unravel(flat), state.params)
    out["roundtrip"] = bool(jax.tree.all(same))
    test_images, test_labels = quadrants(rs, 16)
    logits = model.apply({"params": state.params}, test_images)
    out["logits"] = logits
    out["test_accuracy"] = jnp.mean(jnp.argmax(logits, -1) == test_labels)
    return out
