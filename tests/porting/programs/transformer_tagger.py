"""A Transformer encoder that tags every token of a sentence (ours), trained data-parallel:
learned positions, post-`LayerNorm` blocks of padding-masked `MultiHeadDotProductAttention` and
an `elu` MLP with `Dropout` switched by a `train` keyword; the variables come from a jitted
`init`. Training is `jax.pmap` over all local devices with a donated, replicated
(`jax_utils.replicate`) `TrainState` and per-device dropout keys passed by keyword, folded with
the step; gradients and metrics are `lax.pmean`ed / `lax.psum`ed; AdamW follows a schedule
written as a plain function of the step (`jnp.minimum`, `jnp.cos`). The metrics of three steps
go through `common_utils.get_metrics`; an evaluation batch smaller than the device count is
padded by repeating its last row and `common_utils.shard`ed. Checks the summary, the
per-device evaluation, the parameters (`jax_utils.unreplicate`) and their paths."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import jax_utils
from flax import linen as nn
from flax.training import common_utils, train_state
from jax import lax

WORDS, TAGS, LENGTH = 20, 5, 10


class EncoderBlock(nn.Module):
    heads: int = 2
    hidden: int = 24

    @nn.compact
    def __call__(self, x, mask, train):
        attention = nn.MultiHeadDotProductAttention(
            num_heads=self.heads, deterministic=True, use_bias=False
        )  # a key bias gets no gradient but round-off, which Adam would scale up
        h = attention(x, mask=mask)
        x = nn.LayerNorm()(x + nn.Dropout(0.1, deterministic=not train)(h))
        h = nn.Dense(x.shape[-1])(nn.elu(nn.Dense(self.hidden)(x)))
        return nn.LayerNorm()(x + nn.Dropout(0.1, deterministic=not train)(h))


class Tagger(nn.Module):
    width: int = 16
    layers: int = 2

    @nn.compact
    def __call__(self, tokens, *, train):
        x = nn.Embed(WORDS, self.width)(tokens)
        x = x + self.param("positions", nn.initializers.normal(0.02), (LENGTH, self.width))
        mask = nn.make_attention_mask(tokens > 0, tokens > 0)
        for _ in range(self.layers):
            x = EncoderBlock()(x, mask, train)
        return nn.Dense(TAGS)(x)


def learning_rate(step, peak=0.02, warmup=2, total=10):
    ramp = jnp.minimum(1.0, (step + 1) / warmup)
    return peak * ramp * 0.5 * (1 + jnp.cos(jnp.pi * jnp.minimum(step, total) / total))


def tag_metrics(logits, tags):
    weights = jnp.where(tags > 0, 1.0, 0.0)
    losses = -jnp.sum(common_utils.onehot(tags, TAGS) * nn.log_softmax(logits), -1)
    return {
        "loss": jnp.sum(losses * weights),
        "accuracy": jnp.sum((jnp.argmax(logits, -1) == tags) * weights),
        "denominator": jnp.sum(weights),
    }


def train_step(state, batch, dropout_rng):
    key = jax.random.fold_in(dropout_rng, state.step)

    def loss_fn(params):
        logits = state.apply_fn(
            {"params": params}, batch["tokens"], train=True, rngs={"dropout": key}
        )
        m = tag_metrics(logits, batch["tags"])
        return m["loss"] / m["denominator"], m

    (_, metrics), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    state = state.apply_gradients(grads=lax.pmean(grads, "batch"))
    metrics = lax.psum(metrics, "batch")
    metrics["learning_rate"] = learning_rate(state.step - 1)
    return state, metrics


def eval_step(state, batch):
    logits = state.apply_fn({"params": state.params}, batch["tokens"], train=False)
    return lax.pmean(tag_metrics(logits, batch["tags"]), "batch")


def sentences(rs, n):
    tokens = rs.randint(1, WORDS, (n, LENGTH)).astype(np.int32)
    tokens[:, 7:] *= rs.rand(n, LENGTH - 7) < 0.3
    return {
        "tokens": tokens,
        "tags": np.where(tokens > 0, 1 + tokens % (TAGS - 1), 0).astype(np.int32),
    }


def run():
    devices = jax.local_device_count()
    model = Tagger()
    init = jax.jit(functools.partial(model.init, train=False))
    variables = init(jax.random.key(30), jnp.ones((1, LENGTH), jnp.int32))
    tx = optax.adamw(learning_rate, b1=0.9, b2=0.98, eps=1e-9, weight_decay=0.1)
    state = train_state.TrainState.create(apply_fn=model.apply, params=variables["params"], tx=tx)
    state = jax_utils.replicate(state)
    p_train = jax.pmap(train_step, axis_name="batch", donate_argnums=(0,))
    p_eval = jax.pmap(eval_step, axis_name="batch")
    rngs = jax.random.split(jax.random.key(31), devices)
    rs = np.random.RandomState(32)
    history = []
    for _ in range(3):
        state, metrics = p_train(
            state, common_utils.shard(sentences(rs, devices)), dropout_rng=rngs
        )
        history.append(metrics)
    history = common_utils.get_metrics(history)
    rates = history.pop("learning_rate")
    sums = jax.tree_util.tree_map(jnp.sum, history)
    denominator = sums.pop("denominator")
    summary = {k: v / denominator for k, v in sums.items()}
    summary["learning_rate"] = rates.mean()
    small = sentences(rs, 3)
    padded = {k: np.concatenate([v, np.tile(v[-1:], (devices - 3, 1))]) for k, v in small.items()}
    per_device = p_eval(state, common_utils.shard(padded))
    params = jax_utils.unreplicate(state.params)
    flat = jax.tree_util.tree_flatten_with_path(params)[0]
    return dict(
        summary=summary,
        eval=per_device,
        devices=devices,
        step=state.step,
        params=[leaf for _, leaf in flat],
        paths=[jax.tree_util.keystr(path) for path, _ in flat],
    )
