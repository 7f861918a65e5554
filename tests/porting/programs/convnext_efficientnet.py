"""Modern convolutional blocks (ours): a ConvNeXt stage (a 5x5 depthwise `nn.Conv` with
`feature_group_count` equal to its channels, `nn.LayerNorm(epsilon=1e-6)`, an inverted MLP and
a learned layer scale; a downsampling `LayerNorm` + strided 2x2 conv), an EfficientNet MBConv
block (1x1 expansion, `nn.BatchNorm` with `momentum=0.9`, `nn.swish`, a strided depthwise
conv, squeeze-and-excitation by `jnp.mean` over the spatial axes and a sigmoid gate, a linear
1x1 projection), a ResNeXt-style grouped 3x3 conv (`feature_group_count=4`) with
`nn.GroupNorm(num_groups=None, group_size=2)`, and `nn.InstanceNorm` on the stem; kernels by
`variance_scaling(2.0, "fan_out", "truncated_normal")`. Training: `optax.adamw` on a
`cosine_onecycle_schedule` with `batch_stats` updated through `mutable=`. Checks the grouped
kernels' shapes, losses, batch statistics, eval logits and parameters; also that a direct
`lax.conv_general_dilated` with `feature_group_count` equals per-group convolutions."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax import traverse_util
from flax.training import train_state

conv_init = nn.initializers.variance_scaling(2.0, "fan_out", "truncated_normal")


class ConvNeXtBlock(nn.Module):
    scale_init: float = 0.1

    @nn.compact
    def __call__(self, x):
        c = x.shape[-1]
        h = nn.Conv(c, (5, 5), feature_group_count=c, kernel_init=conv_init, name="depthwise")(x)
        h = nn.LayerNorm(epsilon=1e-6)(h)
        h = nn.gelu(nn.Dense(4 * c, name="expand")(h))
        h = nn.Dense(c, name="project")(h)
        gamma = self.param("layer_scale", nn.initializers.constant(self.scale_init), (c,))
        return x + gamma * h


class SqueezeExcite(nn.Module):
    reduced: int

    @nn.compact
    def __call__(self, x):
        s = jnp.mean(x, axis=(1, 2), keepdims=True)
        s = nn.swish(nn.Conv(self.reduced, (1, 1), name="reduce")(s))
        s = nn.Conv(x.shape[-1], (1, 1), name="expand")(s)
        return x * jax.nn.sigmoid(s)


class MBConv(nn.Module):
    out: int
    expand: int = 3
    strides: int = 2

    @nn.compact
    def __call__(self, x, train):
        norm = functools.partial(nn.BatchNorm, use_running_average=not train, momentum=0.9)
        c = x.shape[-1] * self.expand
        h = nn.Conv(c, (1, 1), use_bias=False, kernel_init=conv_init, name="expand_conv")(x)
        h = nn.swish(norm(name="expand_bn")(h))
        h = nn.Conv(c, (3, 3), strides=self.strides, feature_group_count=c, use_bias=False,
                    kernel_init=conv_init, name="depthwise")(h)  # fmt: skip
        h = nn.swish(norm(name="depthwise_bn")(h))
        h = SqueezeExcite(max(1, x.shape[-1] // 2), name="se")(h)
        h = nn.Conv(self.out, (1, 1), use_bias=False, kernel_init=conv_init, name="project")(h)
        return norm(name="project_bn")(h)


class Net(nn.Module):
    classes: int = 3

    @nn.compact
    def __call__(self, x, train=False):
        x = nn.Conv(8, (3, 3), use_bias=False, kernel_init=conv_init, name="stem")(x)
        x = nn.relu(nn.InstanceNorm(name="stem_norm")(x))
        x = ConvNeXtBlock(name="convnext")(x)
        x = nn.LayerNorm(epsilon=1e-6, name="down_norm")(x)
        x = nn.Conv(8, (2, 2), strides=2, padding="VALID", name="down")(x)
        y = nn.Conv(8, (3, 3), feature_group_count=4, use_bias=False, name="grouped")(x)
        x = nn.relu(x + nn.GroupNorm(num_groups=None, group_size=2, name="grouped_norm")(y))
        x = MBConv(12, name="mbconv")(x, train)
        return nn.Dense(self.classes, name="head")(jnp.mean(x, axis=(1, 2)))


def textures(rs, count):
    """8x8x3 images: class 0 horizontal stripes, 1 vertical stripes, 2 checkers."""
    labels = rs.randint(0, 3, count).astype(np.int32)
    grid = np.indices((8, 8))
    patterns = [grid[0] % 2, grid[1] % 2, (grid[0] + grid[1]) % 2]
    images = rs.randn(count, 8, 8, 3).astype(np.float32) * 0.3
    for i, c in enumerate(labels):
        images[i] += patterns[c][..., None] * rs.uniform(0.5, 1.5, 3)
    return images.astype(np.float32), labels


class TrainState(train_state.TrainState):
    batch_stats: dict


@jax.jit
def train_step(state, images, labels):
    def loss_fn(params):
        logits, updates = state.apply_fn(
            {"params": params, "batch_stats": state.batch_stats}, images, train=True,
            mutable=["batch_stats"],
        )  # fmt: skip
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
        return loss, updates["batch_stats"]

    (loss, stats), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    return state.apply_gradients(grads=grads).replace(batch_stats=stats), loss


def grouped_conv_check(rs):
    x = jnp.asarray(rs.randn(2, 6, 6, 4).astype(np.float32))
    w = jnp.asarray(rs.randn(3, 3, 2, 6).astype(np.float32))
    dims = ("NHWC", "HWIO", "NHWC")
    grouped = jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=dims,
                                           feature_group_count=2)  # fmt: skip
    parts = [jax.lax.conv_general_dilated(x[..., 2 * g : 2 * g + 2], w[..., 3 * g : 3 * g + 3],
                                          (1, 1), "SAME", dimension_numbers=dims)
             for g in range(2)]  # fmt: skip
    return grouped, jnp.max(jnp.abs(grouped - jnp.concatenate(parts, axis=-1))) < 1e-4


def run():
    rs = np.random.RandomState(6)
    model = Net()
    images, labels = textures(rs, 12)
    variables = model.init(jax.random.key(0), images[:2])
    flat = traverse_util.flatten_dict(variables["params"], sep="/")
    schedule = optax.cosine_onecycle_schedule(8, 0.01, pct_start=0.25)
    state = TrainState.create(apply_fn=model.apply, params=variables["params"],
                              batch_stats=variables["batch_stats"],
                              tx=optax.adamw(schedule, weight_decay=1e-4))  # fmt: skip
    grouped, agrees = grouped_conv_check(rs)
    out = {
        "kernel_shapes": {k: list(v.shape) for k, v in flat.items() if k.endswith("kernel")},
        "grouped_conv": grouped,
        "grouped_agrees": bool(agrees),
        "losses": [],
        "rates": [schedule(i) for i in range(8)],
    }
    for _ in range(8):
        images, labels = textures(rs, 12)
        state, loss = train_step(state, images, labels)
        out["losses"].append(loss)
    out["batch_stats"] = traverse_util.flatten_dict(state.batch_stats, sep="/")
    out["params"] = traverse_util.flatten_dict(state.params, sep="/")
    test_images, _ = textures(rs, 6)
    variables = {"params": state.params, "batch_stats": state.batch_stats}
    out["eval_logits"] = model.apply(variables, test_images)
    return out
