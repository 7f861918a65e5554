"""A tiny decoder-only Transformer language model, trained sharded and sampled with a decode
cache (ours). Every parameter is created through `nn.with_logical_partitioning`; the layers are
`Embed` (its `attend` gives the logits), sinusoidal positions (sliced with
`lax.dynamic_slice` at a cached index when decoding), pre-`LayerNorm` blocks of causal
`MultiHeadDotProductAttention` (`make_causal_mask` and `make_attention_mask` joined by
`combine_masks`; `decode=True` keeps a key/value cache) and a `gelu` MLP, with `Dropout`.

Training: a (data, fsdp, tensor) = (1, 8, 1) `Mesh` of `mesh_utils.create_device_mesh`, the
state's shapes from `jax.eval_shape`, logical specs from `nn.get_partition_spec` mapped to
`NamedSharding`s by `nn.logical_to_mesh_sharding` with axis rules, a jitted initialization with
`out_shardings`, then boxes removed (`nn.unbox`); a jitted train step with `in_shardings` and
`out_shardings`, a static config and a donated state (AdamW on a warmup + inverse-square-root
schedule, a label-smoothed weighted cross-entropy on `common_utils.onehot`, dropout keys by
`fold_in` of the step), a jitted eval step.

Sampling: a jitted `lax.while_loop` over positions that feeds one token at a time through the
cache, keeps the prompt, draws from the `lax.top_k` logits at a temperature (or greedily), writes
with `lax.dynamic_update_slice` and stops when every row has ended; and the first line of the
error a while loop gives when its body changes the carry's dtype, and `lax.dynamic_slice`'s
for start indices of mixed integer types. Checks logits, samples, metrics, parameters,
optimizer state, and the shardings' specs."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax import struct
from flax.training import common_utils, train_state
from jax import lax
from jax.experimental import mesh_utils
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

END = 2
RULES = (("batch", "data"), ("vocab", "tensor"), ("embed", "fsdp"), ("mlp", "tensor"),
         ("heads", "tensor"), ("kv", None))  # fmt: skip


@struct.dataclass
class Config:
    vocab: int = 13
    width: int = 16
    heads: int = 8
    layers: int = 2
    hidden: int = 24
    length: int = 8
    rate: float = 0.1
    deterministic: bool = True
    decode: bool = False


def boxed(init, *names):
    return nn.with_logical_partitioning(init, names)


def layer_norm():
    return nn.LayerNorm(
        scale_init=boxed(nn.initializers.ones, "embed"),
        bias_init=boxed(nn.initializers.zeros, "embed"),
    )


def dense(features, names):
    return nn.Dense(
        features, kernel_init=boxed(nn.initializers.xavier_uniform(), *names),
        bias_init=boxed(nn.initializers.normal(1e-3), names[1]),
    )  # fmt: skip


def sinusoids(length, width):
    position = np.arange(length)[:, None]
    scale = np.exp(-np.log(1e4) * np.arange(0, width, 2) / width)
    table = np.zeros((length, width), np.float32)
    table[:, 0::2], table[:, 1::2] = np.sin(position * scale), np.cos(position * scale)
    return jnp.asarray(table)


class Positions(nn.Module):
    config: Config

    @nn.compact
    def __call__(self, x):
        table = sinusoids(self.config.length, x.shape[-1])
        if not self.config.decode:
            return x + table[: x.shape[1]]
        started = self.has_variable("cache", "index")
        index = self.variable("cache", "index", lambda: jnp.zeros((), jnp.int32))
        if not started:  # the initialization call sees the whole length
            return x + table[: x.shape[1]]
        i = index.value
        index.value = i + 1
        return x + lax.dynamic_slice(table, (i, 0), (1, x.shape[-1]))


class Block(nn.Module):
    config: Config

    @nn.compact
    def __call__(self, x, mask):
        c = self.config
        h = nn.MultiHeadDotProductAttention(
            num_heads=c.heads, qkv_features=c.width, dropout_rate=c.rate,
            deterministic=c.deterministic, decode=c.decode,
            kernel_init=boxed(nn.initializers.xavier_uniform(), "embed", "kv"),
            use_bias=False, broadcast_dropout=False,
        )(layer_norm()(x), mask=mask)  # fmt: skip
        x = x + nn.Dropout(c.rate)(h, deterministic=c.deterministic)
        h = dense(c.hidden, ("embed", "mlp"))(layer_norm()(x))
        h = dense(c.width, ("mlp", "embed"))(nn.gelu(h))
        return x + nn.Dropout(c.rate)(h, deterministic=c.deterministic)


class LanguageModel(nn.Module):
    config: Config

    @nn.compact
    def __call__(self, tokens):
        c = self.config
        table_init = boxed(nn.initializers.normal(1.0), "vocab", "embed")
        embed = nn.Embed(c.vocab, c.width, embedding_init=table_init)
        if c.decode:
            inputs, mask = tokens, None
        else:  # predict token t from the tokens before it
            inputs = jnp.pad(tokens, ((0, 0), (1, 0)))[:, :-1]
            mask = nn.combine_masks(
                nn.make_attention_mask(tokens > 0, tokens > 0), nn.make_causal_mask(tokens)
            )
        x = Positions(c)(embed(inputs).astype(jnp.float32))
        x = nn.Dropout(c.rate)(x, deterministic=c.deterministic)
        for _ in range(c.layers):
            x = Block(c)(x, mask)
        return embed.attend(layer_norm()(x)) / np.sqrt(c.width)


@functools.partial(jax.jit, static_argnums=(4, 5, 6))
def sample(params, prompt, cache, key, config, temperature, top_k):
    """Continues each row of `prompt` (nonzero tokens are kept) up to the model's length."""
    model = LanguageModel(config)
    rows = prompt.shape[0]

    def more(carry):
        i, _, _, ended, _ = carry
        return (i < config.length - 1) & ~jnp.all(ended)

    def step(carry):
        i, cache, tokens, ended, key = carry
        key, draw_key = jax.random.split(key)
        token = lax.dynamic_slice(tokens, (0, i), (rows, 1))
        logits, changed = model.apply({"params": params, "cache": cache}, token, mutable=["cache"])
        logits = logits[:, 0] / temperature
        if top_k:
            best, where = lax.top_k(logits, top_k)
            pick = jax.random.categorical(draw_key, best)
            drawn = jnp.take_along_axis(where, pick[:, None], axis=1)[:, 0]
        else:
            drawn = jax.random.categorical(draw_key, logits)
        given = lax.dynamic_slice_in_dim(tokens, i + 1, 1, axis=1)[:, 0]
        drawn = jnp.where(given > 0, given, jnp.where(ended, 0, drawn))
        ended = ended | ((given == 0) & (drawn == END))
        tokens = lax.dynamic_update_slice(tokens, drawn[:, None].astype(tokens.dtype), (0, i + 1))
        return i + 1, changed["cache"], tokens, ended, key

    start = (0, cache, prompt, jnp.zeros((rows,), jnp.bool_), key)
    return lax.while_loop(more, step, start)[2]


def schedule(peak, warmup):
    return optax.join_schedules(
        [optax.linear_schedule(0.0, peak, warmup),
         lambda s: peak * jnp.sqrt(warmup / (s + warmup))], [warmup],
    )  # fmt: skip


def smoothed_cross_entropy(logits, targets, weights, smoothing):
    vocab = logits.shape[-1]
    high, low = 1.0 - smoothing, smoothing / (vocab - 1)
    floor = -(high * jnp.log(high) + (vocab - 1) * low * jnp.log(low + 1e-20))
    soft = common_utils.onehot(targets, vocab, on_value=high, off_value=low)
    loss = -jnp.sum(soft * nn.log_softmax(logits), axis=-1) - floor
    return jnp.sum(loss * weights)


def metrics_of(logits, tokens, smoothing):
    weights = jnp.where(tokens > 0, 1.0, 0.0)
    return {
        "loss": smoothed_cross_entropy(logits, tokens, weights, smoothing),
        "accuracy": jnp.sum((jnp.argmax(logits, -1) == tokens) * weights),
        "denominator": jnp.sum(weights),
    }


def train_step(state, batch, key, config):
    def loss_fn(params):
        logits = LanguageModel(config).apply(
            {"params": params}, batch, rngs={"dropout": jax.random.fold_in(key, state.step)}
        )
        m = metrics_of(logits, batch, 0.1)
        return m["loss"] / m["denominator"], m

    grads, metrics = jax.grad(loss_fn, has_aux=True)(state.params)
    return state.apply_gradients(grads=grads), metrics


def eval_step(params, batch, config):
    return metrics_of(LanguageModel(config).apply({"params": params}, batch), batch, 0.0)


def token_batch(rs, rows, config):
    lengths = rs.randint(3, config.length + 1, rows)
    tokens = rs.randint(3, config.vocab, (rows, config.length))
    tokens[np.arange(rows), lengths - 1] = END
    return np.where(np.arange(config.length) < lengths[:, None], tokens, 0).astype(np.int32)


def run():
    config = Config()
    train_config = config.replace(deterministic=False)
    mesh = Mesh(mesh_utils.create_device_mesh((1, 8, 1)), ("data", "fsdp", "tensor"))
    tx = optax.adamw(schedule(0.01, 2), b1=0.9, b2=0.98, eps=1e-9, weight_decay=0.1)

    def create(key):
        variables = LanguageModel(config).init(key, jnp.ones((1, config.length), jnp.int32))
        return train_state.TrainState.create(apply_fn=None, params=variables["params"], tx=tx)

    abstract = jax.eval_shape(create, jax.random.key(0))
    specs = nn.get_partition_spec(abstract)
    with nn.logical_axis_rules(RULES):
        shardings = nn.logical_to_mesh_sharding(specs, mesh, RULES)
    state = jax.jit(create, out_shardings=shardings)(jax.random.key(0))
    state = nn.unbox(state)
    initial = state.params

    rs = np.random.RandomState(17)
    prompts = jnp.array([[4, 5, 0, 0, 0, 0, 0, 0], [6, 0, 0, 0, 0, 0, 0, 0]], jnp.int32)
    decode_config = config.replace(decode=True)
    cache = LanguageModel(decode_config).init(jax.random.key(1), prompts)["cache"]
    out = dict(
        logits=LanguageModel(config).apply({"params": initial}, prompts),
        dropped=LanguageModel(train_config).apply(
            {"params": initial}, prompts, rngs={"dropout": jax.random.key(2)}
        ),
        top_k=sample(initial, prompts, cache, jax.random.key(3), decode_config, 1.0, 4),
        greedy=sample(initial, prompts, cache, jax.random.key(3), decode_config, 1e-3, 0),
        cache=jax.tree_util.tree_leaves(cache),
    )
    halve = lambda c: (c[0] + 1, c[1] * 0.5)  # noqa: E731  (int tokens become floats)
    try:
        jax.jit(lambda t: lax.while_loop(lambda c: c[0] < 3, halve, (0, t)))(prompts)
    except TypeError as e:
        out["carry_error"] = str(e).splitlines()[0]
    try:  # start indices of two integer types
        lax.dynamic_slice(jnp.zeros((4, 4)), (jnp.uint32(1), 0), (1, 4))
    except TypeError as e:
        out["index_error"] = str(e).splitlines()[0]

    data = NamedSharding(mesh, P("data"))
    step = jax.jit(
        train_step, in_shardings=(shardings, data, None), out_shardings=(shardings, None),
        static_argnums=3, donate_argnums=0,
    )  # fmt: skip
    evaluate = jax.jit(eval_step, in_shardings=(shardings.params, data), static_argnums=2)
    key = jax.random.key(4)
    out["train"] = []
    for _ in range(3):
        state, metrics = step(state, token_batch(rs, 8, config), key, train_config)
        out["train"].append(metrics)
    out.update(
        eval=evaluate(state.params, token_batch(rs, 8, config), config),
        step=state.step,
        params=jax.tree_util.tree_leaves(state.params),
        opt_state=jax.tree_util.tree_leaves(state.opt_state),
        specs=[str(s.spec) for s in jax.tree_util.tree_leaves(shardings.params)],
        placed=[str(x.sharding.spec) for x in jax.tree_util.tree_leaves(state.params)],
        mesh=list(mesh.shape.items()),
    )
    return out
