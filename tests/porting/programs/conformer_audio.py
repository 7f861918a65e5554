"""A Conformer keyword classifier on log-mel features computed by `jax.scipy.signal.stft`
(ours, written in Flax Linen in the style of today's speech encoders).

Waveforms are tones and chirps of four classes in noise; `jax.scipy.signal.stft` (Hann
window, overlapping segments) gives the spectrogram, a triangular mel filterbank (the
`minimum` of rising and falling slopes between mel-spaced edges) maps its power to 8 bands, and `log` with a floor gives the
features. SpecAugment masks a random band and a random time span per example (keys split per
example, `vmap`ped). A Conformer block is a half-step feed-forward module (`nn.swish`), self-
attention under `nn.MultiHeadDotProductAttention`, a convolution module (pointwise `Dense`
doubling the channels, `nn.glu`, a depthwise `nn.Conv(feature_group_count=channels)` without bias,
`nn.BatchNorm(use_fast_variance=False)`, swish, pointwise `Dense`), another half-step
feed-forward module and a final `LayerNorm`. The jitted step updates BatchNorm's statistics
(`mutable=["batch_stats"]`); `istft` inverts the transform. Checks the features, the masks, the
losses, the statistics, evaluation predictions and the parameters."""

import functools

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax.training import train_state

RATE, SAMPLES, BANDS, CLASSES = 800, 400, 8, 4


def hz_to_mel(f):
    return 2595.0 * jnp.log10(1.0 + f / 700.0)


def mel_filterbank(freqs, bands=BANDS):
    mels = jnp.linspace(hz_to_mel(freqs[0]), hz_to_mel(freqs[-1]), bands + 2)
    edges = 700.0 * (10.0 ** (mels / 2595.0) - 1.0)
    lower, center, upper = edges[:-2, None], edges[1:-1, None], edges[2:, None]
    rising = (freqs[None] - lower) / (center - lower)
    falling = (upper - freqs[None]) / (upper - center)
    return jnp.maximum(0.0, jnp.minimum(rising, falling))


def log_mel(waves):
    freqs, _, spec = jax.scipy.signal.stft(waves, fs=RATE, nperseg=64, noverlap=48)
    power = jnp.abs(spec) ** 2
    mel = jnp.einsum("mf,bft->btm", mel_filterbank(freqs), power)
    return jnp.log(jnp.maximum(mel, 1e-6)), freqs


def spec_augment(key, features, max_band=2, max_span=4):
    k_band, k_band_start, k_span, k_span_start = jax.random.split(key, 4)
    frames, bands = features.shape
    band = jax.random.randint(k_band, (), 0, max_band + 1)
    band_start = jax.random.randint(k_band_start, (), 0, bands - band + 1)
    span = jax.random.randint(k_span, (), 0, max_span + 1)
    span_start = jax.random.randint(k_span_start, (), 0, frames - span + 1)
    b = jnp.arange(bands)
    t = jnp.arange(frames)
    keep_band = (b < band_start) | (b >= band_start + band)
    keep_time = (t < span_start) | (t >= span_start + span)
    keep = keep_time[:, None] & keep_band[None, :]
    return jnp.where(keep, features, features.mean()), keep


class FeedForward(nn.Module):
    expansion: int = 2

    @nn.compact
    def __call__(self, x):
        h = nn.Dense(self.expansion * x.shape[-1])(nn.LayerNorm()(x))
        return nn.Dense(x.shape[-1])(nn.swish(h))


class ConvModule(nn.Module):
    kernel: int = 5

    @nn.compact
    def __call__(self, x, train):
        channels = x.shape[-1]
        h = nn.Dense(2 * channels)(nn.LayerNorm()(x))
        h = nn.glu(h, axis=-1)
        h = nn.Conv(
            channels, (self.kernel,), feature_group_count=channels, padding="SAME", use_bias=False
        )(h)  # BatchNorm follows: a bias would get round-off only
        h = nn.BatchNorm(use_running_average=not train, momentum=0.9, use_fast_variance=False)(h)
        return nn.Dense(channels)(nn.swish(h))


class ConformerBlock(nn.Module):
    heads: int = 2

    @nn.compact
    def __call__(self, x, train):
        x = x + 0.5 * FeedForward()(x)
        h = nn.LayerNorm()(x)
        x = x + nn.MultiHeadDotProductAttention(num_heads=self.heads, use_bias=False)(h, h)
        x = x + ConvModule()(x, train)
        x = x + 0.5 * FeedForward()(x)
        return nn.LayerNorm()(x)


class Conformer(nn.Module):
    width: int = 16

    @nn.compact
    def __call__(self, features, train=False):
        x = nn.Dense(self.width)(features)
        x = ConformerBlock()(x, train)
        return nn.Dense(CLASSES)(x.mean(axis=1))


def make_waves(key, n=16):
    k_cls, k_freq, k_noise = jax.random.split(key, 3)
    labels = jax.random.randint(k_cls, (n,), 0, CLASSES)
    t = jnp.arange(SAMPLES) / RATE
    base = 60.0 + 15.0 * jax.random.uniform(k_freq, (n, 1))
    tone = jnp.sin(2 * jnp.pi * base * t)
    high = jnp.sin(2 * jnp.pi * 3 * base * t)
    chirp_up = jnp.sin(2 * jnp.pi * (base + 300.0 * t) * t)
    chirp_down = jnp.sin(2 * jnp.pi * (4 * base - 300.0 * t) * t)
    waves = jnp.stack([tone, high, chirp_up, chirp_down], 1)[jnp.arange(n), labels]
    return waves + 0.2 * jax.random.normal(k_noise, waves.shape), labels


@functools.partial(jax.jit, donate_argnums=0)
def train_step(state, features, labels, key):
    keys = jax.random.split(jax.random.fold_in(key, state.step), features.shape[0])
    augmented, _ = jax.vmap(spec_augment)(keys, features)

    def loss_fn(params):
        variables = {"params": params, "batch_stats": state.batch_stats}
        logits, updates = state.apply_fn(variables, augmented, train=True,
                                         mutable=["batch_stats"])  # fmt: skip
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
        return loss, updates

    (loss, updates), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    state = state.apply_gradients(grads=grads)
    return state.replace(batch_stats=updates["batch_stats"]), loss


class TrainState(train_state.TrainState):
    batch_stats: dict


def run():
    out = {}
    waves, labels = make_waves(jax.random.PRNGKey(0))
    features, freqs = log_mel(waves)
    out["freqs"] = freqs
    out["filterbank"] = mel_filterbank(freqs)
    out["features"] = features[:2]
    out["feature_shape"] = list(features.shape)
    masked, keep = spec_augment(jax.random.PRNGKey(1), features[0])
    out["augment"] = {"masked": masked, "keep": keep}

    # istft inverts stft
    _, _, spec = jax.scipy.signal.stft(waves[:2], fs=RATE, nperseg=64, noverlap=48)
    _, back = jax.scipy.signal.istft(spec, fs=RATE, nperseg=64, noverlap=48)
    out["istft_error"] = jnp.max(jnp.abs(back[:, :SAMPLES] - waves[:2]))

    model = Conformer()
    variables = model.init(jax.random.PRNGKey(2), features)
    state = TrainState.create(apply_fn=model.apply, params=variables["params"],
                              batch_stats=variables["batch_stats"],
                              tx=optax.adamw(3e-3, weight_decay=1e-2))  # fmt: skip
    losses = []
    for _ in range(6):
        state, loss = train_step(state, features, labels, jax.random.PRNGKey(3))
        losses.append(loss)
    out["losses"] = jnp.stack(losses)
    out["batch_stats"] = state.batch_stats
    logits = model.apply({"params": state.params, "batch_stats": state.batch_stats}, features)
    out["eval_logits"] = logits
    out["eval_accuracy"] = jnp.mean(jnp.argmax(logits, -1) == labels)
    out["params"] = state.params
    return out
