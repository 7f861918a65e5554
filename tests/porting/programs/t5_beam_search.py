"""A small T5-style encoder-decoder (ours) trained to reverse a sequence, decoded greedily and
by beam search. Relative position buckets (exact near, logarithmic far, bidirectional in the
encoder and causal in the decoder) index an `nn.Embed` of per-head biases that reach
`nn.MultiHeadDotProductAttention` through its `attention_fn` (`nn.dot_product_attention` with
`bias=`). One `nn.Embed` made in `setup` is shared by the encoder, the decoder and the output
(`attend`); `nn.RMSNorm` before each sublayer, bias-free ReLU MLPs. The decoder's
self-attention has `decode=True` when decoding: the cache is made by `init` on full-length
targets, and each step feeds one token with `mutable=["cache"]` (the module masks the
cache's unwritten positions itself). Beam search: encoder outputs repeated per beam, log-
probabilities accumulated, `lax.top_k` over beams x vocabulary, the cache and the sequences
gathered by beam (the scalar `cache_index` kept), finished beams extended by padding only,
a length penalty at the end. Training: `optax.adafactor` with its factored second moments
(`min_dim_size_to_factor` lowered) on a padded, weighted cross-entropy with a z-loss.
Checks the bucket tables, losses, the cache's shapes, cached against uncached logits, the
greedy and beam outputs and scores, and the cache error for a step of two tokens."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax import traverse_util
from flax.training import train_state

PAD, EOS = 0, 1
VOCAB, DIM, HEADS, BUCKETS, FAR = 12, 16, 2, 8, 16
SOURCE, TARGET = 5, 6


def relative_bucket(relative, bidirectional, buckets=BUCKETS, far=FAR):
    """The bucket of each `key - query` distance: half the buckets exact, the rest growing
    logarithmically up to `far`; in the bidirectional case half of them for keys ahead."""
    n = -relative
    bucket = jnp.zeros_like(relative)
    if bidirectional:
        buckets //= 2
        bucket = bucket + (n < 0).astype(relative.dtype) * buckets
        n = jnp.abs(n)
    else:
        n = jnp.maximum(n, 0)
    exact = buckets // 2
    scaled = jnp.log(jnp.maximum(n, exact).astype(jnp.float32) / exact) / np.log(far / exact)
    large = exact + (scaled * (buckets - exact)).astype(relative.dtype)
    large = jnp.minimum(large, buckets - 1)
    return bucket + jnp.where(n < exact, n, large)


class RelativeBias(nn.Module):
    bidirectional: bool

    @nn.compact
    def __call__(self, queries, keys):
        """(1, heads, len(queries), len(keys)) biases for query and key positions."""
        buckets = relative_bucket(keys[None, :] - queries[:, None], self.bidirectional)
        values = nn.Embed(BUCKETS, HEADS, embedding_init=nn.initializers.normal(0.1))(buckets)
        return jnp.transpose(values, (2, 0, 1))[None]


def attention(bias, decode=False, name=None):
    return nn.MultiHeadDotProductAttention(
        num_heads=HEADS, qkv_features=DIM, use_bias=False, decode=decode, name=name,
        attention_fn=functools.partial(nn.dot_product_attention, bias=bias),
    )  # fmt: skip


class Mlp(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.relu(nn.Dense(2 * DIM, use_bias=False)(x))
        return nn.Dense(DIM, use_bias=False)(h)


class Encoder(nn.Module):
    embed: nn.Module

    @nn.compact
    def __call__(self, tokens):
        positions = jnp.arange(tokens.shape[1])
        bias = RelativeBias(True, name="relative_bias")(positions, positions)
        mask = nn.make_attention_mask(tokens != PAD, tokens != PAD)
        x = self.embed(tokens)
        for i in range(2):
            h = nn.RMSNorm(name=f"norm_attention_{i}")(x)
            x = x + attention(bias, name=f"attention_{i}")(h, h, mask=mask)
            x = x + Mlp(name=f"mlp_{i}")(nn.RMSNorm(name=f"norm_mlp_{i}")(x))
        return nn.RMSNorm(name="final_norm")(x)


class Decoder(nn.Module):
    embed: nn.Module
    decode: bool = False

    @nn.compact
    def __call__(self, tokens, encoded, source, position=None):
        length = TARGET if self.decode else tokens.shape[1]
        queries = jnp.arange(tokens.shape[1]) if position is None else position[None]
        bias = RelativeBias(False, name="relative_bias")(queries, jnp.arange(length))
        mask = None if self.decode else nn.make_causal_mask(tokens)
        cross = nn.make_attention_mask(jnp.ones(tokens.shape, bool), source != PAD)
        x = self.embed(tokens)
        h = nn.RMSNorm(name="norm_self")(x)
        x = x + attention(bias, self.decode, name="self_attention")(h, h, mask=mask)
        h = nn.RMSNorm(name="norm_cross")(x)
        x = x + attention(None, name="cross_attention")(h, encoded, mask=cross)
        x = x + Mlp(name="mlp")(nn.RMSNorm(name="norm_mlp")(x))
        x = nn.RMSNorm(name="final_norm")(x)
        return self.embed.attend(x) * DIM**-0.5


class Transformer(nn.Module):
    decode: bool = False

    def setup(self):
        self.shared = nn.Embed(VOCAB, DIM, embedding_init=nn.initializers.normal(1.0))
        self.encoder = Encoder(self.shared)
        self.decoder = Decoder(self.shared, self.decode)

    def encode(self, source):
        return self.encoder(source)

    def decode_step(self, tokens, encoded, source, position=None):
        return self.decoder(tokens, encoded, source, position)

    def __call__(self, source, inputs):
        return self.decoder(inputs, self.encoder(source), source)


def reversal_batch(rs, rows):
    """Sources of 3-5 tokens (padded to SOURCE); targets: the source reversed, then EOS."""
    source = np.zeros((rows, SOURCE), np.int32)
    target = np.zeros((rows, TARGET), np.int32)
    for r in range(rows):
        n = rs.randint(3, SOURCE + 1)
        tokens = rs.randint(2, VOCAB, n)
        source[r, :n] = tokens
        target[r, :n] = tokens[::-1]
        target[r, n] = EOS
    inputs = np.concatenate([np.zeros((rows, 1), np.int32), target[:, :-1]], axis=1)
    return source, inputs, target


@jax.jit
def train_step(state, source, inputs, target):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, source, inputs)
        weights = (target != PAD).astype(jnp.float32)
        losses = optax.softmax_cross_entropy_with_integer_labels(logits, target)
        z = jax.nn.logsumexp(logits, axis=-1) ** 2
        return jnp.sum((losses + 1e-4 * z) * weights) / weights.sum()

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


@functools.partial(jax.jit, static_argnums=0)
def step(model, params, cache, token, encoded, source, position):
    logits, changed = model.apply(
        {"params": params, "cache": cache}, token[:, None], encoded, source, position,
        method=Transformer.decode_step, mutable=["cache"],
    )  # fmt: skip
    return logits[:, 0], changed["cache"]


def new_cache(model, source, rows):
    encoded = jnp.zeros((rows, SOURCE, DIM))
    variables = model.init(jax.random.key(0), jnp.zeros((rows, TARGET), jnp.int32), encoded,
                           source, method=Transformer.decode_step)  # fmt: skip
    return variables["cache"]


def greedy(params, source):
    model = Transformer(decode=True)
    encoded = model.apply({"params": params}, source, method=Transformer.encode)
    cache = new_cache(model, source, source.shape[0])
    token = jnp.zeros((source.shape[0],), jnp.int32)
    tokens, every = [], []
    for i in range(TARGET):
        logits, cache = step(model, params, cache, token, encoded, source, jnp.array(i))
        token = jnp.argmax(logits, -1).astype(jnp.int32)
        tokens.append(token)
        every.append(logits)
    return jnp.stack(tokens, 1), jnp.stack(every, 1), cache


def gather_beams(tree, beams, rows, width):
    """Each leaf with a batch axis reordered by `beams` (rows, width), scalars kept."""
    flat = (beams + jnp.arange(rows)[:, None] * width).reshape(-1)
    return jax.tree.map(lambda x: x if x.ndim == 0 else x[flat], tree)


def beam_search(params, source, width=3, alpha=0.6):
    model = Transformer(decode=True)
    rows = source.shape[0]
    source = jnp.repeat(source, width, axis=0)
    encoded = model.apply({"params": params}, source, method=Transformer.encode)
    cache = new_cache(model, source, rows * width)
    scores = jnp.tile(jnp.array([0.0] + [-1e9] * (width - 1)), (rows, 1))
    sequences = jnp.zeros((rows, width, 0), jnp.int32)
    finished = jnp.zeros((rows, width), bool)
    lengths = jnp.zeros((rows, width), jnp.int32)
    token = jnp.zeros((rows * width,), jnp.int32)
    for i in range(TARGET):
        logits, cache = step(model, params, cache, token, encoded, source, jnp.array(i))
        logp = jax.nn.log_softmax(logits).reshape(rows, width, VOCAB)
        only_pad = jnp.where(jnp.arange(VOCAB) == PAD, 0.0, -1e9)
        logp = jnp.where(finished[..., None], only_pad, logp)
        top, index = jax.lax.top_k((scores[..., None] + logp).reshape(rows, -1), width)
        beams, chosen = index // VOCAB, (index % VOCAB).astype(jnp.int32)
        sequences, finished, lengths, cache = gather_beams(
            (sequences.reshape(rows * width, -1), finished.reshape(-1), lengths.reshape(-1),
             cache), beams, rows, width)  # fmt: skip
        sequences = jnp.concatenate([sequences.reshape(rows, width, -1), chosen[..., None]], -1)
        lengths = lengths.reshape(rows, width) + (~finished.reshape(rows, width)).astype(jnp.int32)
        finished = finished.reshape(rows, width) | (chosen == EOS)
        scores, token = top, chosen.reshape(-1)
    penalised = scores / ((5.0 + lengths) / 6.0) ** alpha
    best = jnp.argmax(penalised, axis=1)
    return sequences, scores, penalised, sequences[jnp.arange(rows), best]


def run():
    rs = np.random.RandomState(3)
    relative = jnp.arange(-20, 21)
    out = {
        "buckets": {
            "bidirectional": relative_bucket(relative, True, 32, 128),
            "causal": relative_bucket(relative, False, 32, 128),
            "small": relative_bucket(relative, False),
        }
    }
    model = Transformer()
    source, inputs, target = reversal_batch(rs, 8)
    params = model.init(jax.random.key(1), source, inputs)["params"]
    out["param_shapes"] = {
        "/".join(k): list(v.shape) for k, v in traverse_util.flatten_dict(params).items()
    }
    tx = optax.adafactor(5e-2, min_dim_size_to_factor=8)
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)
    out["factored"] = sorted(
        str(x.shape) for x in jax.tree.leaves(state.opt_state) if x.ndim == 1 and x.size > 1
    )
    out["losses"] = []
    for _ in range(20):
        state, loss = train_step(state, *reversal_batch(rs, 16))
        out["losses"].append(loss)
    source, inputs, target = reversal_batch(rs, 2)
    tokens, cached, cache = greedy(state.params, jnp.asarray(source))
    teacher = jnp.concatenate([jnp.zeros((2, 1), jnp.int32), tokens[:, :-1]], axis=1)
    out["greedy"] = tokens
    out["cached_logits"] = cached
    out["uncached_logits"] = model.apply({"params": state.params}, source, teacher)
    out["cache"] = {"/".join(k): [str(v.dtype), list(v.shape)]
                    for k, v in traverse_util.flatten_dict(cache).items()}  # fmt: skip
    sequences, scores, penalised, best = beam_search(state.params, jnp.asarray(source))
    out["beams"] = {"sequences": sequences, "scores": scores, "penalised": penalised,
                    "best": best, "target": target}  # fmt: skip
    decoding = Transformer(decode=True)
    try:
        decoding.apply({"params": state.params, "cache": cache}, jnp.zeros((2, 2), jnp.int32),
                       jnp.zeros((2, SOURCE, DIM)), jnp.asarray(source), jnp.array(0),
                       method=Transformer.decode_step, mutable=["cache"])  # fmt: skip
    except ValueError as e:
        out["cache_error"] = str(e).splitlines()[0]
    return out
