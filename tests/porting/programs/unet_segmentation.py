"""A small U-Net for binary and multi-class segmentation (ours): double 3x3 convolutions with
`nn.BatchNorm`, `nn.max_pool` down, `nn.ConvTranspose(strides=2)` up (no biases in front of a
norm), skip connections by `jnp.concatenate`, a 1x1 head. Synthetic images of discs and
squares on noise with their masks. Losses: soft Dice (per image, smoothed) plus binary
cross-entropy by `optax.sigmoid_binary_cross_entropy`, `optax.sigmoid_focal_loss`, and for the
three-class variant softmax cross-entropy with per-class weights plus a multi-class Dice over
one-hot masks (`jax.nn.one_hot`); metrics a soft IoU and the true class's mean probability (a
thresholded IoU or an argmax accuracy flips with a pixel's round-off). Training: `optax.adam`
with `optax.contrib.reduce_on_plateau` scaling the updates on the loss (`value=`, which
`TrainState.apply_gradients` does not pass on: its error, and the update written out), a
`TrainState` with batch statistics, jitted with `donate_argnums`. Checks the synthetic masks,
the losses on fixed predictions, training losses and metrics, the plateau scale and the
evaluation logits' shapes (their values move on JAX itself by 1e-3 when the initial parameters
move by 1e-7)."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state


class DoubleConv(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x, train):
        for _ in range(2):
            x = nn.Conv(self.features, (3, 3), use_bias=False)(x)
            x = nn.relu(nn.BatchNorm(use_running_average=not train, momentum=0.9)(x))
        return x


class UNet(nn.Module):
    classes: int = 1
    width: int = 8

    @nn.compact
    def __call__(self, x, train=False):
        skips = []
        for i in range(2):
            x = DoubleConv(self.width * 2**i, name=f"down{i}")(x, train)
            skips.append(x)
            x = nn.max_pool(x, (2, 2), strides=(2, 2))
        x = DoubleConv(self.width * 4, name="bottom")(x, train)
        for i in reversed(range(2)):
            x = nn.ConvTranspose(self.width * 2**i, (2, 2), strides=(2, 2), use_bias=False,
                                 name=f"up{i}")(x)  # fmt: skip
            x = jnp.concatenate([skips[i], x], axis=-1)
            x = DoubleConv(self.width * 2**i, name=f"merge{i}")(x, train)
        return nn.Conv(self.classes, (1, 1), name="head")(x)


def shapes(rs, count, size=16):
    """Images with a disc (class 1) and a square (class 2) on noise, and their label maps."""
    yy, xx = np.mgrid[:size, :size]
    images = rs.normal(0.0, 0.3, (count, size, size, 1)).astype(np.float32)
    labels = np.zeros((count, size, size), np.int32)
    for i in range(count):
        cy, cx, r = rs.randint(4, size - 4), rs.randint(4, size - 4), rs.randint(2, 4)
        labels[i][np.hypot(yy - cy, xx - cx) <= r] = 1
        sy, sx = rs.randint(0, size - 4, 2)
        labels[i, sy : sy + 4, sx : sx + 4] = 2
    images[..., 0] += (labels == 1) * 1.0 + (labels == 2) * 0.6
    return images, labels


def dice_loss(logits, masks, smooth=1.0):
    probs = jax.nn.sigmoid(logits)
    overlap = jnp.sum(probs * masks, axis=(1, 2, 3))
    total = jnp.sum(probs, axis=(1, 2, 3)) + jnp.sum(masks, axis=(1, 2, 3))
    return jnp.mean(1.0 - (2.0 * overlap + smooth) / (total + smooth))


def multiclass_dice(logits, labels, smooth=1.0):
    probs = jax.nn.softmax(logits, axis=-1)
    onehot = jax.nn.one_hot(labels, logits.shape[-1])
    overlap = jnp.sum(probs * onehot, axis=(1, 2))
    total = jnp.sum(probs + onehot, axis=(1, 2))
    return jnp.mean(1.0 - (2.0 * overlap + smooth) / (total + smooth))


def soft_iou(logits, masks):
    probs = jax.nn.sigmoid(logits)
    inter = jnp.sum(probs * masks, axis=(1, 2, 3))
    union = jnp.sum(probs + masks - probs * masks, axis=(1, 2, 3))
    return jnp.mean(inter / union)


class TrainState(train_state.TrainState):
    batch_stats: dict


CLASS_WEIGHTS = jnp.array([0.2, 1.0, 1.0])


def binary_loss(logits, masks):
    bce = optax.sigmoid_binary_cross_entropy(logits, masks).mean()
    return dice_loss(logits, masks) + bce


def multi_loss(logits, labels):
    ce = optax.softmax_cross_entropy_with_integer_labels(logits, labels)
    weighted = jnp.sum(ce * CLASS_WEIGHTS[labels]) / jnp.sum(CLASS_WEIGHTS[labels])
    return weighted + multiclass_dice(logits, labels)


@functools.partial(jax.jit, static_argnums=3, donate_argnums=0)
def train_step(state, images, labels, multiclass):
    def loss_fn(params):
        logits, changed = state.apply_fn({"params": params, "batch_stats": state.batch_stats},
                                         images, train=True, mutable=["batch_stats"])  # fmt: skip
        if multiclass:
            loss = multi_loss(logits, labels)
        else:
            loss = binary_loss(logits, (labels == 1)[..., None].astype(jnp.float32))
        return loss, (logits, changed["batch_stats"])

    (loss, (logits, stats)), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    # `apply_gradients` passes no `value=` to the optimizer: the update is written out
    updates, opt_state = state.tx.update(grads, state.opt_state, state.params, value=loss)
    state = state.replace(step=state.step + 1, params=optax.apply_updates(state.params, updates),
                          opt_state=opt_state, batch_stats=stats)  # fmt: skip
    if multiclass:
        probs = jax.nn.softmax(logits, axis=-1)
        metric = jnp.mean(jnp.take_along_axis(probs, labels[..., None], axis=-1))
    else:
        metric = soft_iou(logits, (labels == 1)[..., None].astype(jnp.float32))
    return state, loss, metric


def run():
    rs = np.random.RandomState(13)
    images, labels = shapes(rs, 4)
    masks = (labels == 1)[..., None].astype(np.float32)
    fixed = jnp.asarray(rs.normal(size=masks.shape).astype(np.float32))
    out = {
        "labels": labels[0],
        "fixed": {
            "dice": dice_loss(fixed, masks),
            "bce": optax.sigmoid_binary_cross_entropy(fixed, masks).mean(),
            "focal": optax.sigmoid_focal_loss(fixed, masks, alpha=0.25, gamma=2.0).mean(),
            "perfect_dice": dice_loss(jnp.where(masks > 0, 20.0, -20.0), masks),
            "multiclass_dice": multiclass_dice(
                jnp.concatenate([fixed, -fixed, fixed * 0.5], -1), labels
            ),  # fmt: skip
        },
    }
    probe = TrainState.create(apply_fn=None, params={"w": jnp.ones(2)}, batch_stats={},
                              tx=optax.contrib.reduce_on_plateau())  # fmt: skip
    try:
        probe.apply_gradients(grads={"w": jnp.ones(2)}, value=jnp.array(1.0))
    except TypeError as e:
        out["apply_gradients_error"] = str(e).split("() ")[-1]
    for name, classes in (("binary", 1), ("multiclass", 3)):
        model = UNet(classes=classes)
        variables = model.init(jax.random.key(classes), images)
        tx = optax.chain(optax.adam(5e-3),
                         optax.contrib.reduce_on_plateau(factor=0.5, patience=2, rtol=0.05,
                                                         accumulation_size=1))  # fmt: skip
        state = TrainState.create(apply_fn=model.apply, params=variables["params"], tx=tx,
                                  batch_stats=variables["batch_stats"])  # fmt: skip
        history = []
        batches = np.random.RandomState(classes)
        for _ in range(6):
            state, loss, metric = train_step(state, *shapes(batches, 8), classes > 1)
            history.append([loss, metric])
        out[name] = {"history": history, "scale": state.opt_state[1].scale,
                     "count": sum(x.size for x in jax.tree.leaves(state.params))}  # fmt: skip
        # the evaluation logits (running statistics) move by 1e-3 when the initial parameters
        # move by 1e-7 on JAX itself (Adam's first steps on near-zero gradients): their shape
        logits = model.apply({"params": state.params, "batch_stats": state.batch_stats},
                             shapes(np.random.RandomState(99), 2)[0])  # fmt: skip
        out[name]["eval_shape"] = [str(logits.dtype), list(logits.shape)]
    return out
