"""A narrow MobileNetV2 (ours): inverted residual blocks (a 1x1 expansion, a 3x3 depthwise
`nn.Conv` by `feature_group_count`, a linear 1x1 projection, a residual when the shape is
kept), `nn.relu6`, `nn.BatchNorm` with `momentum=0.9` and `epsilon=1e-3` behind a `train`
flag (`use_running_average=not train`, `batch_stats` mutable in training), channels rounded
by a width multiplier (`make_divisible`), global average pooling, `nn.Dropout`, a `Dense`
head. Training: `optax.sgd` with Nesterov momentum on an `exponential_decay` schedule (a
staircase) chained after `add_decayed_weights` masked to the convolution and dense kernels
(not the depthwise ones, `flax.traverse_util`), a `TrainState` subclass carrying the batch
statistics. Also the depthwise convolution against `lax.conv_general_dilated` one channel at a
time, the parameter count per block and the eval-mode logits. Checks losses, batch
statistics, logits and the trained parameters."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax import traverse_util
from flax.training import train_state


def make_divisible(value, divisor=8, minimum=None):
    """`value` rounded to a multiple of `divisor`, never below 90% of it."""
    minimum = minimum or divisor
    rounded = max(minimum, int(value + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * value else rounded


class InvertedResidual(nn.Module):
    features: int
    stride: int
    expand: int

    @nn.compact
    def __call__(self, x, train):
        norm = functools.partial(nn.BatchNorm, use_running_average=not train, momentum=0.9,
                                 epsilon=1e-3)  # fmt: skip
        hidden = x.shape[-1] * self.expand
        h = x
        if self.expand != 1:
            h = nn.relu6(norm()(nn.Conv(hidden, (1, 1), use_bias=False, name="expand")(h)))
        h = nn.Conv(hidden, (3, 3), strides=self.stride, padding="SAME",
                    feature_group_count=hidden, use_bias=False, name="depthwise")(h)  # fmt: skip
        h = nn.relu6(norm()(h))
        h = norm()(nn.Conv(self.features, (1, 1), use_bias=False, name="project")(h))
        if self.stride == 1 and x.shape[-1] == self.features:
            return x + h
        return h


class MobileNetV2(nn.Module):
    classes: int = 3
    width: float = 0.5
    # expansion, channels, repeats, stride
    settings: tuple = ((1, 16, 1, 1), (4, 24, 2, 2), (4, 32, 2, 2))

    @nn.compact
    def __call__(self, x, train=False):
        stem = make_divisible(32 * self.width)
        x = nn.Conv(stem, (3, 3), strides=2, padding="SAME", use_bias=False, name="stem")(x)
        x = nn.BatchNorm(use_running_average=not train, momentum=0.9, epsilon=1e-3)(x)
        x = nn.relu6(x)
        index = 0
        for expand, channels, repeats, stride in self.settings:
            features = make_divisible(channels * self.width)
            for r in range(repeats):
                x = InvertedResidual(features, stride if r == 0 else 1, expand,
                                     name=f"block{index}")(x, train)  # fmt: skip
                index += 1
        x = nn.Conv(make_divisible(64 * self.width), (1, 1), use_bias=False, name="last")(x)
        x = nn.relu6(nn.BatchNorm(use_running_average=not train, momentum=0.9, epsilon=1e-3)(x))
        x = jnp.mean(x, axis=(1, 2))
        x = nn.Dropout(0.2, deterministic=not train)(x)
        return nn.Dense(self.classes, name="head")(x)


class TrainState(train_state.TrainState):
    batch_stats: dict


@functools.partial(jax.jit, donate_argnums=0)
def train_step(state, images, labels, key):
    def loss_fn(params):
        logits, changed = state.apply_fn(
            {"params": params, "batch_stats": state.batch_stats}, images, train=True,
            rngs={"dropout": jax.random.fold_in(key, state.step)}, mutable=["batch_stats"],
        )  # fmt: skip
        loss = optax.softmax_cross_entropy(logits, jax.nn.one_hot(labels, 3)).mean()
        return loss, (logits, changed["batch_stats"])

    (loss, (logits, stats)), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    state = state.apply_gradients(grads=grads, batch_stats=stats)
    return state, loss, jnp.mean(jnp.argmax(logits, -1) == labels)


def textures(rs, count):
    """16x16 images: stripes (0), checks (1) or noise (2), in random colours."""
    labels = rs.randint(0, 3, count)
    grid = np.add.outer(np.arange(16), np.zeros(16))
    patterns = [(grid // 2) % 2, (grid // 2 + grid.T // 2) % 2]
    images = np.empty((count, 16, 16, 3), np.float32)
    for i, c in enumerate(labels):
        base = patterns[c] if c < 2 else rs.rand(16, 16)
        images[i] = base[..., None] * rs.uniform(0.5, 1.5, 3) + rs.normal(0, 0.1, (16, 16, 3))
    return images, labels.astype(np.int32)


def run():
    rs = np.random.RandomState(8)
    out = {"divisible": [make_divisible(v) for v in (3.0, 12.0, 16.0, 20.0, 36.0, 100.0)]}
    x = jnp.asarray(rs.normal(size=(2, 6, 6, 4)).astype(np.float32))
    kernel = jnp.asarray(rs.normal(size=(3, 3, 1, 4)).astype(np.float32))
    conv = nn.Conv(4, (3, 3), feature_group_count=4, use_bias=False, padding="SAME")
    grouped = conv.apply({"params": {"kernel": kernel}}, x)
    one_by_one = jnp.concatenate([
        jax.lax.conv_general_dilated(x[..., c : c + 1], kernel[..., c : c + 1], (1, 1), "SAME",
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
        for c in range(4)
    ], axis=-1)  # fmt: skip
    out["depthwise"] = [grouped, jnp.max(jnp.abs(grouped - one_by_one)) < 1e-5]
    model = MobileNetV2()
    images, labels = textures(rs, 8)
    variables = model.init(jax.random.key(0), images)
    params, stats = variables["params"], variables["batch_stats"]
    out["counts"] = {k: sum(x.size for x in jax.tree.leaves(v)) for k, v in params.items()}
    decay = traverse_util.path_aware_map(
        lambda path, x: path[-1] == "kernel" and "depthwise" not in path, params
    )
    schedule = optax.exponential_decay(0.05, transition_steps=2, decay_rate=0.5, staircase=True)
    tx = optax.chain(optax.add_decayed_weights(4e-5, mask=decay),
                     optax.sgd(schedule, momentum=0.9, nesterov=True))  # fmt: skip
    state = TrainState.create(apply_fn=model.apply, params=params, tx=tx, batch_stats=stats)
    out["rates"] = [schedule(i) for i in range(6)]
    out["losses"] = []
    key = jax.random.key(1)
    for _ in range(6):
        images, labels = textures(rs, 16)
        state, loss, accuracy = train_step(state, images, labels, key)
        out["losses"].append([loss, accuracy])
    out["batch_stats"] = traverse_util.flatten_dict(state.batch_stats, sep="/")
    out["params"] = traverse_util.flatten_dict(state.params, sep="/")
    images, labels = textures(rs, 6)
    out["eval_logits"] = model.apply({"params": state.params, "batch_stats": state.batch_stats},
                                     images)  # fmt: skip
    return out
