"""A decoder-only language model in the style of today's open models (ours): `nn.RMSNorm`
before each sublayer, rotary position embeddings on queries and keys, grouped-query attention
(`nn.DenseGeneral` projections to (heads, head_dim), keys and values repeated over the query
groups, scores and softmax in float32), a SwiGLU MLP, a separate output head; the layers are
one `nn.scan` over a block with stacked parameters and a stacked key/value cache. Trained in
float32; the trained parameters also run with bfloat16 activations (`dtype=`; its logits' dtype,
argmax and cache dtypes are checked: bfloat16 values a layer deep differ from XLA's by a
rounding here and there, which the checks' float32 tolerance does not allow).

Decoding: the cache is created by an `init` with `decode=True` (a block writes nothing while
`has_variable` says the cache is new), the prompt is prefilled in one call, then a jitted step
feeds one token at a time with `mutable=["cache"]`, greedily or by temperature + top-k
sampling with a key split per step. Training: `optax.chain` of global-norm clipping and
`adamw` on a `warmup_cosine_decay_schedule` with weight decay masked off the norms' scales
(`flax.traverse_util`), a `TrainState` subclass that carries its dropout-free loss count, a
`jax.jit` step with `donate_argnums`. Checks losses, logits (cached and uncached), samples,
parameter shapes and count, the learning rates, Flax's error when the cache is not mutable
(its class and text but the scope's path: Flax names a scope inside `nn.scan` "scan(layers)",
numbax "layers")."""

import dataclasses
import functools

import flax
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax import traverse_util
from flax.training import train_state


@dataclasses.dataclass(frozen=True)
class Config:
    vocab: int = 19
    dim: int = 32
    heads: int = 4
    kv_heads: int = 2
    layers: int = 2
    hidden: int = 48
    max_len: int = 16
    rope_base: float = 10000.0
    dtype: jnp.dtype = jnp.float32
    decode: bool = False


def rotary(positions, head_dim, base):
    """sin and cos tables (batch, length, head_dim // 2) for integer positions."""
    inverse = 1.0 / base ** (jnp.arange(0, head_dim, 2, dtype=jnp.float32) / head_dim)
    angles = positions[..., None].astype(jnp.float32) * inverse
    return jnp.sin(angles), jnp.cos(angles)


def rotate(x, sin, cos):
    first, second = jnp.split(x.astype(jnp.float32), 2, axis=-1)
    sin, cos = sin[:, :, None, :], cos[:, :, None, :]
    turned = jnp.concatenate([first * cos - second * sin, second * cos + first * sin], axis=-1)
    return turned.astype(x.dtype)


class Attention(nn.Module):
    config: Config

    @nn.compact
    def __call__(self, x, positions, mask):
        c = self.config
        head_dim = c.dim // c.heads
        project = functools.partial(
            nn.DenseGeneral, use_bias=False, dtype=c.dtype,
            kernel_init=nn.initializers.normal(0.05),
        )  # fmt: skip
        q = project((c.heads, head_dim), name="query")(x)
        k = project((c.kv_heads, head_dim), name="key")(x)
        v = project((c.kv_heads, head_dim), name="value")(x)
        sin, cos = rotary(positions, head_dim, c.rope_base)
        q, k = rotate(q, sin, cos), rotate(k, sin, cos)
        if c.decode:
            fresh = not self.has_variable("cache", "keys")
            shape = (x.shape[0], c.max_len, c.kv_heads, head_dim)
            keys = self.variable("cache", "keys", jnp.zeros, shape, c.dtype)
            values = self.variable("cache", "values", jnp.zeros, shape, c.dtype)
            index = self.variable("cache", "index", lambda: jnp.array(0, jnp.int32))
            if not fresh:
                at = (0, index.value, 0, 0)
                keys.value = jax.lax.dynamic_update_slice(keys.value, k.astype(c.dtype), at)
                values.value = jax.lax.dynamic_update_slice(values.value, v.astype(c.dtype), at)
                index.value = index.value + x.shape[1]
                k, v = keys.value, values.value
                mask = jnp.arange(c.max_len)[None, None, :] <= positions[:, :, None]
        groups = c.heads // c.kv_heads
        k, v = jnp.repeat(k, groups, axis=2), jnp.repeat(v, groups, axis=2)
        scores = jnp.einsum("bthd,bshd->bhts", q, k).astype(jnp.float32) / np.sqrt(head_dim)
        scores = jnp.where(mask[:, None], scores, jnp.finfo(jnp.float32).min)
        weights = jax.nn.softmax(scores, axis=-1).astype(c.dtype)
        out = jnp.einsum("bhts,bshd->bthd", weights, v)
        return nn.DenseGeneral(c.dim, axis=(-2, -1), use_bias=False, dtype=c.dtype,
                               name="out")(out)  # fmt: skip


class SwiGLU(nn.Module):
    hidden: int
    dtype: jnp.dtype

    @nn.compact
    def __call__(self, x):
        dense = functools.partial(nn.Dense, use_bias=False, dtype=self.dtype)
        gate = dense(self.hidden, name="gate")(x)
        up = dense(self.hidden, name="up")(x)
        return dense(x.shape[-1], name="down")(nn.silu(gate) * up)


class Block(nn.Module):
    config: Config

    @nn.compact
    def __call__(self, x, positions, mask):
        c = self.config
        x = x + Attention(c, name="attention")(nn.RMSNorm(dtype=c.dtype)(x), positions, mask)
        x = x + SwiGLU(c.hidden, c.dtype, name="mlp")(nn.RMSNorm(dtype=c.dtype)(x))
        return x, None


class Decoder(nn.Module):
    config: Config

    @nn.compact
    def __call__(self, tokens, positions):
        c = self.config
        x = nn.Embed(c.vocab, c.dim, dtype=c.dtype, name="embed")(tokens)
        mask = positions[:, None, :] <= positions[:, :, None]
        layers = nn.scan(
            Block, variable_axes={"params": 0, "cache": 0}, split_rngs={"params": True},
            in_axes=(nn.broadcast, nn.broadcast), length=c.layers,
        )(c, name="layers")  # fmt: skip
        x, _ = layers(x, positions, mask)
        x = nn.RMSNorm(dtype=c.dtype, name="final_norm")(x)
        return nn.Dense(c.vocab, use_bias=False, dtype=jnp.float32, name="head")(x)


class TrainState(train_state.TrainState):
    tokens_seen: int


def counting_batch(rs, rows, length, vocab):
    """Rows that count up by a per-row stride from a random start, modulo `vocab`."""
    start = rs.randint(0, vocab, (rows, 1))
    stride = rs.randint(1, 4, (rows, 1))
    return ((start + stride * np.arange(length)) % vocab).astype(np.int32)


def loss_fn(params, apply_fn, tokens):
    positions = jnp.broadcast_to(
        jnp.arange(tokens.shape[1] - 1), (tokens.shape[0], tokens.shape[1] - 1)
    )
    logits = apply_fn({"params": params}, tokens[:, :-1], positions)
    losses = optax.softmax_cross_entropy_with_integer_labels(logits, tokens[:, 1:])
    return losses.mean(), logits


@functools.partial(jax.jit, donate_argnums=0)
def train_step(state, tokens):
    (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(
        state.params, state.apply_fn, tokens
    )
    accuracy = jnp.mean(jnp.argmax(logits, -1) == tokens[:, 1:])
    state = state.apply_gradients(grads=grads, tokens_seen=state.tokens_seen + tokens.size)
    return state, {"loss": loss, "accuracy": accuracy, "grad_norm": optax.global_norm(grads)}


def pick(logits, key, temperature, top_k):
    """The next token of each row: greedy when `temperature` is 0, else a draw among the
    `top_k` largest logits scaled by the temperature."""
    if temperature == 0.0:
        return jnp.argmax(logits, axis=-1)
    kth = jnp.sort(logits, axis=-1)[:, -top_k][:, None]
    logits = jnp.where(logits < kth, -jnp.inf, logits / temperature)
    return jax.random.categorical(key, logits, axis=-1)


@functools.partial(jax.jit, static_argnums=(0, 5, 6))
def decode_step(model, params, cache, token, position, temperature, top_k, key):
    logits, changed = model.apply(
        {"params": params, "cache": cache}, token[:, None], position[:, None], mutable=["cache"]
    )
    return pick(logits[:, -1], key, temperature, top_k), changed["cache"], logits[:, -1]


def generate(config, params, prompt, steps, key, temperature=0.0, top_k=1):
    model = Decoder(dataclasses.replace(config, decode=True))
    rows, length = prompt.shape
    positions = jnp.broadcast_to(jnp.arange(length), (rows, length))
    cache = model.init(jax.random.key(0), prompt, positions)["cache"]
    logits, changed = model.apply(
        {"params": params, "cache": cache}, prompt, positions, mutable=["cache"]
    )
    cache, every = changed["cache"], [logits[:, -1]]
    key, first = jax.random.split(key)
    token, out = pick(logits[:, -1], first, temperature, top_k), [prompt]
    for i in range(steps):
        out.append(token[:, None])
        key, sub = jax.random.split(key)
        position = jnp.full((rows,), length + i, jnp.int32)
        token, cache, last = decode_step(model, params, cache, token, position, temperature,
                                         top_k, sub)  # fmt: skip
        every.append(last)
    return jnp.concatenate(out, axis=1), jnp.stack(every, axis=1), cache


def run():
    config = Config()
    model = Decoder(config)
    rs = np.random.RandomState(5)
    tokens = counting_batch(rs, 4, 10, config.vocab)
    positions = jnp.broadcast_to(jnp.arange(9), (4, 9))
    params = model.init(jax.random.key(1), tokens[:, :-1], positions)["params"]
    schedule = optax.warmup_cosine_decay_schedule(
        init_value=0.0, peak_value=3e-3, warmup_steps=2, decay_steps=8, end_value=3e-4
    )
    flat = traverse_util.flatten_dict(params)
    decay = traverse_util.unflatten_dict({k: k[-1] != "scale" for k in flat})
    tx = optax.chain(
        optax.clip_by_global_norm(1.0),
        optax.adamw(schedule, b1=0.9, b2=0.95, weight_decay=0.1, mask=decay),
    )
    state = TrainState.create(apply_fn=model.apply, params=params, tx=tx, tokens_seen=0)
    out = {
        "shapes": {"/".join(k): list(v.shape) for k, v in flat.items()},
        "count": sum(x.size for x in jax.tree_util.tree_leaves(params)),
        "dtypes": sorted({str(x.dtype) for x in jax.tree.leaves(params)}),
        "rates": [schedule(i) for i in range(0, 10, 3)],
        "initial_logits": model.apply({"params": params}, tokens[:, :-1], positions),
        "metrics": [],
    }
    for _ in range(6):
        state, metrics = train_step(state, counting_batch(rs, 8, 10, config.vocab))
        out["metrics"].append(metrics)
    out["step"], out["tokens_seen"] = state.step, state.tokens_seen
    out["params"] = jax.tree.leaves(state.params)
    prompt = jnp.asarray(counting_batch(rs, 2, 5, config.vocab))
    greedy, cached_logits, cache = generate(config, state.params, prompt, 6, jax.random.key(2))
    full = greedy[:, :-1]
    where = jnp.broadcast_to(jnp.arange(full.shape[1]), full.shape)
    uncached = model.apply({"params": state.params}, full, where)[:, prompt.shape[1] - 1 :]
    out.update(
        greedy=greedy, cached_logits=cached_logits, uncached_logits=uncached,
        cache={"/".join(k): [str(v.dtype), list(v.shape)]
               for k, v in traverse_util.flatten_dict(cache).items()},
        sampled=generate(config, state.params, prompt, 6, jax.random.key(3), 0.8, 5)[0],
    )  # fmt: skip
    decoding = Decoder(dataclasses.replace(config, decode=True))
    try:
        decoding.apply({"params": state.params, "cache": cache}, prompt[:, :1], where[:2, :1])
    except flax.errors.ModifyScopeVariableError as e:
        text = str(e).splitlines()[0]
        out["immutable_error"] = [text.split(" in ")[0], text.split(" because ")[1]]
    half = dataclasses.replace(config, dtype=jnp.bfloat16)
    half_logits = jax.jit(Decoder(half).apply)({"params": state.params}, full, where)
    half_cache = jax.eval_shape(
        Decoder(dataclasses.replace(half, decode=True)).init, jax.random.key(0), full, where
    )["cache"]
    out["bfloat16"] = {
        "logits": [str(half_logits.dtype), jnp.argmax(half_logits, -1)],
        "cache": sorted({str(x.dtype) for x in jax.tree.leaves(half_cache)}),
        "params": sorted({str(x.dtype) for x in jax.tree.leaves(state.params)}),
    }
    return out
