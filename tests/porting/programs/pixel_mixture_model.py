"""A small autoregressive image model in the style of PixelCNN++ (ours), on 8x8 grayscale
images in [-1, 1]. Convolutions are weight-normalized: one parameter holds a dict (direction,
scale, bias) that a data-dependent initializer computes from the first batch. Two streams
(from above, and from above-left) use `lax.pad` with negative padding as shifts and explicit
padding before `lax.conv_general_dilated` (one strided); a transposed convolution
(`lax.conv_transpose`) brings the coarse stream back up. Gated residual blocks use a
concatenated `elu`, a `functools.partial` of `nn.Dropout` and a sigmoid gate. The output is a
discretized logistic mixture whose bin probabilities use a `jax.custom_jvp` `log1mexp` with
`defjvps`. Training is `jax.pmap` over the eight devices (`lax.pmean` of gradients and loss,
`common_utils.shard_prng_key`, `jax_utils.replicate`) with Adam on a decaying rate and an
exponential moving average of the parameters; evaluation is a second `pmap` of the average;
one sampling step draws a mixture component (`jax.random.categorical`) and logistic noise
(`jax.random.logistic`) and snaps to the 256 levels. Checks the initial and trained
parameters, metrics, outputs, the sample and `log1mexp`'s gradient."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import jax_utils
from flax import linen as nn
from flax.training import common_utils
from jax import lax

COMPONENTS = 2
NHWC = ("NHWC", "HWIO", "NHWC")


@jax.custom_jvp
def log1mexp(x):
    """log(1 - exp(-x)) for x > 0, accurate for small and large x."""
    return jnp.where(x < np.log(2.0), jnp.log(-jnp.expm1(-x)), jnp.log1p(-jnp.exp(-x)))


log1mexp.defjvps(lambda t, _, x: t / jnp.expm1(x))


def shift_down(x):
    return lax.pad(x, 0.0, ((0, 0, 0), (1, -1, 0), (0, 0, 0), (0, 0, 0)))


def shift_right(x):
    return lax.pad(x, 0.0, ((0, 0, 0), (0, 0, 0), (1, -1, 0), (0, 0, 0)))


def concat_elu(x):
    return nn.elu(jnp.concatenate([x, -x], axis=-1))


class WeightNormConv(nn.Module):
    """A convolution (or a transposed one) of weight-normalized kernels; `pad` is applied to
    the input's spatial axes first (then the convolution is VALID)."""

    features: int
    kernel: tuple = (1, 1)
    pad: tuple = ((0, 0), (0, 0))
    stride: int = 1
    transpose: bool = False

    def apply_kernel(self, x, w):
        x = jnp.pad(x, ((0, 0),) + self.pad + ((0, 0),))
        if self.transpose:
            return lax.conv_transpose(x, w, (self.stride,) * 2, "SAME", dimension_numbers=NHWC)
        return lax.conv_general_dilated(x, w, (self.stride,) * 2, "VALID", dimension_numbers=NHWC)

    @nn.compact
    def __call__(self, x):
        def data_init(key, x):
            direction = 0.05 * jax.random.normal(key, self.kernel + (x.shape[-1], self.features))
            y = self.apply_kernel(
                x, direction / jnp.linalg.norm(direction.reshape(-1, self.features), axis=0)
            )
            scale = 1.0 / (jnp.std(y, axis=(0, 1, 2)) + 1e-8)
            return {
                "direction": direction,
                "scale": scale,
                "bias": -jnp.mean(y, axis=(0, 1, 2)) * scale,
            }

        p = self.param("weightnorm", data_init, x)
        norms = jnp.sqrt(jnp.sum(jnp.square(p["direction"]), axis=(0, 1, 2)))
        return self.apply_kernel(x, p["direction"] * (p["scale"] / norms)) + p["bias"]


class GatedResidual(nn.Module):
    conv: functools.partial
    train: bool

    @nn.compact
    def __call__(self, x, aux=None):
        dropout = functools.partial(nn.Dropout, rate=0.3, deterministic=not self.train)
        h = self.conv(x.shape[-1])(concat_elu(x))
        if aux is not None:
            h = h + WeightNormConv(x.shape[-1])(concat_elu(aux))
        h = self.conv(2 * x.shape[-1])(dropout()(concat_elu(h)))
        a, b = jnp.split(h, 2, axis=-1)
        return x + a * nn.sigmoid(b)


class PixelMixture(nn.Module):
    features: int = 6

    @nn.compact
    def __call__(self, images, train: bool):
        f = self.features
        down = functools.partial(WeightNormConv, kernel=(2, 3), pad=((1, 0), (1, 1)))
        down_right = functools.partial(WeightNormConv, kernel=(2, 2), pad=((1, 0), (1, 0)))
        up = shift_down(down(f)(images))
        up_left = shift_down(down(f, kernel=(1, 3), pad=((0, 0), (1, 1)))(images))
        up_left = up_left + shift_right(down_right(f, kernel=(2, 1), pad=((1, 0), (0, 0)))(images))
        up = GatedResidual(down, train)(up)
        up_left = GatedResidual(down_right, train)(up_left, up)
        coarse = down(f, stride=2)(up)
        fine = WeightNormConv(f, kernel=(2, 3), stride=2, transpose=True)(coarse)
        up_left = GatedResidual(down_right, train)(up_left, jnp.concatenate([up, fine], -1))
        return WeightNormConv(3 * COMPONENTS)(nn.elu(up_left))


def log_likelihood(params, x):
    """Per-pixel log-probability of x (..., 1) in the 256-bin logistic mixture `params`."""
    logits, means, log_scales = jnp.split(params, 3, axis=-1)
    inv = jnp.exp(-jnp.maximum(log_scales, -7.0))
    plus, minus = inv * (x - means + 1 / 255), inv * (x - means - 1 / 255)
    log_cdf_plus, log_cdf_minus = nn.log_sigmoid(plus), nn.log_sigmoid(minus)
    middle = log_cdf_plus + log1mexp(jnp.maximum(log_cdf_plus - log_cdf_minus, 1e-12))
    edge_low, edge_high = log_cdf_plus, -nn.softplus(minus)
    per_component = jnp.where(x < -0.999, edge_low, jnp.where(x > 0.999, edge_high, middle))
    return jax.scipy.special.logsumexp(per_component + nn.log_softmax(logits), axis=-1)


def bits_per_pixel(params, x):
    return -jnp.mean(log_likelihood(params, x)) / np.log(2.0)


def train_step(tx, params, opt_state, ema, images, key):
    def loss_fn(p):
        out = PixelMixture().apply({"params": p}, images, train=True, rngs={"dropout": key})
        return bits_per_pixel(out, images)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    grads = lax.pmean(grads, "batch")
    updates, opt_state = tx.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    ema = jax.tree.map(lambda e, p: 0.9 * e + 0.1 * p, ema, params)
    return params, opt_state, ema, {"bits": lax.pmean(loss, "batch")}


def eval_step(params, images):
    out = PixelMixture().apply({"params": params}, images, train=False)
    return {"bits": lax.pmean(bits_per_pixel(out, images), "batch")}


def draw(key, out):
    """One sample per pixel from the mixture `out`, snapped to the 256 levels."""
    logits, means, log_scales = jnp.split(out, 3, axis=-1)
    pick_key, noise_key = jax.random.split(key)
    pick = jax.nn.one_hot(jax.random.categorical(pick_key, logits), COMPONENTS)
    mean, log_scale = jnp.sum(means * pick, -1), jnp.sum(log_scales * pick, -1)
    x = mean + jnp.exp(log_scale) * jax.random.logistic(noise_key, mean.shape)
    return jnp.round((jnp.clip(x, -1.0, 1.0) + 1) * 127.5) / 127.5 - 1


def run():
    rs = np.random.RandomState(40)
    levels = lambda n: rs.randint(0, 256, (n, 8, 8, 1)).astype(np.float32) / 127.5 - 1  # noqa: E731
    key, init_key = jax.random.split(jax.random.key(41))
    initial = PixelMixture().init({"params": init_key}, levels(4), train=False)["params"]
    tx = optax.adam(lambda step: 2e-3 * 0.99**step, b1=0.95, b2=0.9995)
    replicated = jax_utils.replicate((initial, tx.init(initial), initial))
    p_train = jax.pmap(functools.partial(train_step, tx), axis_name="batch")
    p_eval = jax.pmap(eval_step, axis_name="batch")
    history = []
    for _ in range(3):
        key, step_key = jax.random.split(key)
        batch = common_utils.shard(levels(jax.local_device_count()))
        *replicated, metrics = p_train(*replicated, batch, common_utils.shard_prng_key(step_key))
        history.append(metrics)
    params, _, ema = replicated
    evaluation = p_eval(ema, common_utils.shard(levels(jax.local_device_count())))
    average = jax_utils.unreplicate(ema)
    start = jnp.zeros((2, 8, 8, 1))
    out = PixelMixture().apply({"params": average}, start, train=False)
    return dict(
        initial=initial,
        params=jax_utils.unreplicate(params),
        ema=average,
        train=common_utils.get_metrics(history),
        eval=jax.tree.map(jnp.mean, evaluation),
        out=out,
        sample=draw(jax.random.key(42), out),
        log1mexp=jax.grad(lambda x: log1mexp(x).sum())(jnp.array([1e-6, 0.5, 3.0])),
    )
