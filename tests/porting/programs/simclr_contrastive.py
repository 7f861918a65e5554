"""Contrastive pre-training in the SimCLR style (ours): two augmented views of each image (random
crops by `jax.lax.dynamic_slice` at random offsets, flips and brightness jitter, one key per
image under `jax.vmap`), an encoder whose residual blocks are one `nn.scan` over an
`nn.remat`-ed block (stacked parameters, `variable_axes={"params": 0}`,
`split_rngs={"params": True}`, a broadcast argument via `nn.broadcast`), a projection head, the
NT-Xent loss written by hand (cosine similarities / temperature, the diagonal masked,
positives at (i + n) mod 2n, `optax.softmax_cross_entropy_with_integer_labels`) and checked
against `optax.losses.ntxent`. Training: `optax.lars` on a `warmup_cosine_decay_schedule`
(weight decay and trust ratios masked off the biases by `weight_decay_mask` and
`trust_ratio_mask`). Then a linear probe on frozen features: `optax.multi_transform` with
`optax.set_to_zero()` for the encoder, `jax.lax.stop_gradient` on its output. Checks views,
losses (hand-written and Optax's), the remat-ed scan's gradient against an unrolled, un-remat-ed
model, the probe's losses and parameters."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax import traverse_util
from flax.training import train_state


class ResBlock(nn.Module):
    width: int

    @nn.compact
    def __call__(self, x, scale):
        h = nn.Conv(self.width, (3, 3), name="conv1")(nn.relu(x))
        h = nn.Conv(self.width, (3, 3), name="conv2")(nn.relu(h))
        return x + scale * h, None


class Encoder(nn.Module):
    width: int = 8
    depth: int = 3
    scanned: bool = True

    @nn.compact
    def __call__(self, images):
        x = nn.Conv(self.width, (3, 3), strides=2, name="stem")(images)
        if self.scanned:
            blocks = nn.scan(nn.remat(ResBlock), variable_axes={"params": 0},
                             split_rngs={"params": True}, in_axes=nn.broadcast,
                             length=self.depth)  # fmt: skip
            x, _ = blocks(self.width, name="blocks")(x, 0.5)
        else:
            for i in range(self.depth):
                x, _ = ResBlock(self.width, name=f"block{i}")(x, 0.5)
        return jnp.mean(nn.relu(x), axis=(1, 2))


class SimCLR(nn.Module):
    projection: int = 6
    scanned: bool = True

    @nn.compact
    def __call__(self, images):
        features = Encoder(scanned=self.scanned, name="encoder")(images)
        h = nn.relu(nn.Dense(16, name="proj1")(features))
        return features, nn.Dense(self.projection, name="proj2")(h)


class Probe(nn.Module):
    classes: int = 3

    @nn.compact
    def __call__(self, images):
        features = jax.lax.stop_gradient(Encoder(name="encoder")(images))
        return nn.Dense(self.classes, name="linear")(features)


def augment(key, image, size=6):
    crop_key, flip_key, light_key = jax.random.split(key, 3)
    top, left = jax.random.randint(crop_key, (2,), 0, image.shape[0] - size + 1)
    view = jax.lax.dynamic_slice(image, (top, left, 0), (size, size, image.shape[2]))
    view = jnp.where(jax.random.bernoulli(flip_key), view[:, ::-1], view)
    return view * jax.random.uniform(light_key, minval=0.7, maxval=1.3)


def two_views(key, images):
    keys = jax.random.split(key, 2 * images.shape[0]).reshape(2, images.shape[0])
    return jnp.concatenate([jax.vmap(augment)(keys[0], images),
                            jax.vmap(augment)(keys[1], images)])  # fmt: skip


def nt_xent(z, temperature):
    z = z / jnp.linalg.norm(z, axis=-1, keepdims=True)
    n = z.shape[0] // 2
    logits = z @ z.T / temperature
    logits = jnp.where(jnp.eye(2 * n, dtype=bool), -1e9, logits)
    positives = (jnp.arange(2 * n) + n) % (2 * n)
    return optax.softmax_cross_entropy_with_integer_labels(logits, positives).mean()


def shapes(rs, count):
    """8x8x1 images of a square, a cross or a diagonal, at random places and intensities."""
    labels = rs.randint(0, 3, count).astype(np.int32)
    images = rs.rand(count, 8, 8, 1).astype(np.float32) * 0.1
    for i, c in enumerate(labels):
        r, k = rs.randint(1, 4, 2)
        s = rs.uniform(0.6, 1.0)
        if c == 0:
            images[i, r : r + 3, k : k + 3] += s
        elif c == 1:
            images[i, r + 1, k : k + 3] += s
            images[i, r : r + 3, k + 1] += s
        else:
            for j in range(3):
                images[i, r + j, k + j] += s
    return images, labels


def not_bias_or_norm(params):
    return traverse_util.path_aware_map(lambda path, _: path[-1] == "kernel", params)


@functools.partial(jax.jit, donate_argnums=0)
def pretrain_step(state, images, key):
    views = two_views(key, images)

    def loss_fn(params):
        _, z = state.apply_fn({"params": params}, views)
        ours = nt_xent(z, 0.5)
        n = images.shape[0]
        theirs = optax.losses.ntxent(z, jnp.concatenate([jnp.arange(n), jnp.arange(n)]), 0.5)
        return ours, theirs

    (loss, optax_loss), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    return state.apply_gradients(grads=grads), loss, optax_loss


@jax.jit
def probe_step(state, images, labels):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, images)
        return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


def run():
    rs = np.random.RandomState(12)
    images, labels = shapes(rs, 6)
    model = SimCLR()
    views = two_views(jax.random.key(3), images)
    params = model.init(jax.random.key(0), views)["params"]

    # the same parameters unrolled, without remat: the same gradient
    unrolled = {**params, "encoder": {
        "stem": params["encoder"]["stem"],
        **{f"block{i}": jax.tree.map(lambda p, i=i: p[i], params["encoder"]["blocks"])
           for i in range(3)},
    }}  # fmt: skip

    def projection_sum(p, scanned):
        return jnp.sum(SimCLR(scanned=scanned).apply({"params": p}, views)[1] ** 2)

    g_scan = jax.grad(projection_sum)(params, True)["encoder"]["blocks"]["conv1"]["kernel"]
    g_loop = jax.grad(projection_sum)(unrolled, False)["encoder"]
    out = {
        "views": views,
        "stacked_shape": list(params["encoder"]["blocks"]["conv2"]["kernel"].shape),
        "scan_grad": g_scan,
        "scan_matches_loop": bool(jnp.allclose(
            g_scan, jnp.stack([g_loop[f"block{i}"]["conv1"]["kernel"] for i in range(3)]),
            atol=1e-5)),
        "losses": [],
    }  # fmt: skip
    schedule = optax.warmup_cosine_decay_schedule(0.0, 0.3, 2, 10, end_value=0.01)
    tx = optax.lars(schedule, weight_decay=1e-4, weight_decay_mask=not_bias_or_norm,
                    trust_ratio_mask=not_bias_or_norm, momentum=0.9)  # fmt: skip
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)
    key = jax.random.key(4)
    for step in range(6):
        images, labels = shapes(rs, 6)
        state, loss, optax_loss = pretrain_step(state, images, jax.random.fold_in(key, step))
        out["losses"].append([loss, optax_loss])
    out["encoder"] = traverse_util.flatten_dict(state.params["encoder"], sep="/")

    probe = Probe()
    probe_params = probe.init(jax.random.key(1), images)["params"]
    probe_params = {**probe_params, "encoder": state.params["encoder"]}
    tx = optax.multi_transform({"frozen": optax.set_to_zero(), "train": optax.adam(0.05)},
                               {"encoder": "frozen", "linear": "train"})  # fmt: skip
    probe_state = train_state.TrainState.create(apply_fn=probe.apply, params=probe_params, tx=tx)
    out["probe_losses"] = []
    for _ in range(6):
        images, labels = shapes(rs, 12)
        probe_state, loss = probe_step(probe_state, images, labels)
        out["probe_losses"].append(loss)
    out["encoder_frozen"] = bool(jax.tree.all(jax.tree.map(
        jnp.array_equal, probe_state.params["encoder"], state.params["encoder"])))  # fmt: skip
    out["linear"] = probe_state.params["linear"]
    return out
