"""A small Swin Transformer (ours): patches embedded by a strided `nn.Conv`, window attention
over non-overlapping windows (partition and merge by reshapes and `transpose`), a learned
relative position bias table indexed by a relative-coordinate table built with numpy, shifted
windows by `jnp.roll` with the attention mask of the shifted regions, patch merging (the four
strided sub-grids concatenated, `LayerNorm`, a bias-free `Dense`), mean pooling to a head.
Training: `optax.adamw` on a `warmup_cosine_decay_schedule` behind `clip_by_global_norm`,
the relative position tables and norms kept out of weight decay by a mask built with
`flax.traverse_util.path_aware_map`. Checks the index table, the shifted-window mask, the
windows' round trip, logits, losses and the trained parameters (but `qkv`'s biases)."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax import traverse_util
from flax.training import train_state


def window_partition(x, size):
    """(batch, height, width, channels) -> (batch * windows, size * size, channels)."""
    b, h, w, c = x.shape
    x = x.reshape(b, h // size, size, w // size, size, c).transpose(0, 1, 3, 2, 4, 5)
    return x.reshape(-1, size * size, c)


def window_merge(windows, size, h, w):
    """The inverse of `window_partition`."""
    c = windows.shape[-1]
    x = windows.reshape(-1, h // size, w // size, size, size, c).transpose(0, 1, 3, 2, 4, 5)
    return x.reshape(-1, h, w, c)


def relative_index(size):
    """(size * size, size * size) indices into a ((2 * size - 1) ** 2)-row bias table."""
    coords = np.stack(np.meshgrid(np.arange(size), np.arange(size), indexing="ij")).reshape(2, -1)
    rel = (coords[:, :, None] - coords[:, None, :]).transpose(1, 2, 0) + (size - 1)
    return rel[..., 0] * (2 * size - 1) + rel[..., 1]


def shift_mask(h, w, size, shift):
    """(windows, size * size, size * size) booleans: which tokens of a shifted window came from
    the same region of the unshifted image."""
    regions = np.zeros((1, h, w, 1), np.int32)
    label = 0
    for rows in (slice(0, -size), slice(-size, -shift), slice(-shift, None)):
        for cols in (slice(0, -size), slice(-size, -shift), slice(-shift, None)):
            regions[:, rows, cols, :] = label
            label += 1
    windows = window_partition(jnp.asarray(regions), size)[..., 0]
    return windows[:, :, None] == windows[:, None, :]


class WindowAttention(nn.Module):
    dim: int
    heads: int
    size: int

    @nn.compact
    def __call__(self, x, mask=None):
        n, t, _ = x.shape
        head_dim = self.dim // self.heads
        qkv = nn.Dense(3 * self.dim, name="qkv")(x).reshape(n, t, 3, self.heads, head_dim)
        q, k, v = jnp.moveaxis(qkv, 2, 0)
        scores = jnp.einsum("nqhd,nkhd->nhqk", q * head_dim**-0.5, k)
        table = self.param("relative_bias", nn.initializers.truncated_normal(0.02),
                           ((2 * self.size - 1) ** 2, self.heads))  # fmt: skip
        bias = table[relative_index(self.size).reshape(-1)].reshape(t, t, self.heads)
        scores = scores + jnp.transpose(bias, (2, 0, 1))[None]
        if mask is not None:
            windows = mask.shape[0]
            scores = scores.reshape(n // windows, windows, self.heads, t, t)
            scores = jnp.where(mask[None, :, None], scores, -100.0).reshape(n, self.heads, t, t)
        weights = nn.softmax(scores, axis=-1)
        out = jnp.einsum("nhqk,nkhd->nqhd", weights, v).reshape(n, t, self.dim)
        return nn.Dense(self.dim, name="proj")(out)


class SwinBlock(nn.Module):
    heads: int
    size: int
    shift: int

    @nn.compact
    def __call__(self, x):
        _, h, w, c = x.shape
        y = nn.LayerNorm()(x)
        mask = None
        if self.shift:
            y = jnp.roll(y, (-self.shift, -self.shift), axis=(1, 2))
            mask = shift_mask(h, w, self.size, self.shift)
        y = WindowAttention(c, self.heads, self.size)(window_partition(y, self.size), mask)
        y = window_merge(y, self.size, h, w)
        if self.shift:
            y = jnp.roll(y, (self.shift, self.shift), axis=(1, 2))
        x = x + y
        y = nn.Dense(2 * c)(nn.LayerNorm()(x))
        return x + nn.Dense(c)(nn.gelu(y, approximate=False))


class PatchMerging(nn.Module):
    @nn.compact
    def __call__(self, x):
        parts = [x[:, 0::2, 0::2], x[:, 1::2, 0::2], x[:, 0::2, 1::2], x[:, 1::2, 1::2]]
        x = nn.LayerNorm()(jnp.concatenate(parts, axis=-1))
        return nn.Dense(x.shape[-1] // 2, use_bias=False)(x)


class Swin(nn.Module):
    classes: int = 4
    dim: int = 12

    @nn.compact
    def __call__(self, images):
        x = nn.Conv(self.dim, (2, 2), strides=2, padding="VALID", name="patch_embed")(images)
        x = nn.LayerNorm()(x)
        x = SwinBlock(2, 2, 0, name="stage1_block0")(x)
        x = SwinBlock(2, 2, 1, name="stage1_block1")(x)
        x = PatchMerging(name="merge")(x)
        x = SwinBlock(4, 2, 0, name="stage2_block0")(x)
        x = nn.LayerNorm(name="final_norm")(x).mean(axis=(1, 2))
        return nn.Dense(self.classes, name="head")(x)


def quadrant_images(rs, count):
    """8x8 images, class c: a bright 4x4 quadrant c."""
    labels = rs.randint(0, 4, count)
    images = rs.normal(0.0, 0.3, (count, 8, 8, 3)).astype(np.float32)
    for i, c in enumerate(labels):
        images[i, 4 * (c // 2) : 4 * (c // 2) + 4, 4 * (c % 2) : 4 * (c % 2) + 4] += 1.0
    return images, labels.astype(np.int32)


@functools.partial(jax.jit, donate_argnums=0)
def train_step(state, images, labels):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, images)
        return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean(), logits

    (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    accuracy = jnp.mean(jnp.argmax(logits, -1) == labels)
    return state.apply_gradients(grads=grads), loss, accuracy


def run():
    rs = np.random.RandomState(4)
    x = jnp.asarray(rs.normal(size=(2, 4, 4, 3)).astype(np.float32))
    windows = window_partition(x, 2)
    out = {
        "index": relative_index(2),
        "mask": shift_mask(4, 4, 2, 1),
        "windows": windows[:3],
        "round_trip": bool(jnp.array_equal(window_merge(windows, 2, 4, 4), x)),
    }
    model = Swin()
    images, labels = quadrant_images(rs, 8)
    params = model.init(jax.random.key(0), images)["params"]
    out["initial_logits"] = model.apply({"params": params}, images)
    decay = traverse_util.path_aware_map(
        lambda path, _: not (path[-1] in ("relative_bias", "scale") or "bias" == path[-1]),
        params,
    )
    schedule = optax.warmup_cosine_decay_schedule(0.0, 2e-3, 2, 6)
    tx = optax.chain(optax.clip_by_global_norm(1.0),
                     optax.adamw(schedule, weight_decay=0.05, mask=decay))  # fmt: skip
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)
    out["decayed"] = sorted("/".join(k) for k, v in traverse_util.flatten_dict(decay).items() if v)
    out["losses"] = []
    for _ in range(5):
        images, labels = quadrant_images(rs, 8)
        state, loss, accuracy = train_step(state, images, labels)
        out["losses"].append([loss, accuracy])
    # the key third of `qkv`'s bias has a zero gradient (a shift shared by a query's scores):
    # Adam turns its round-off into steps, which are not compared
    flat = traverse_util.flatten_dict(state.params, sep="/")
    out["params"] = {k: v for k, v in flat.items() if not k.endswith("qkv/bias")}
    out["logits"] = model.apply({"params": state.params}, images)
    return out
