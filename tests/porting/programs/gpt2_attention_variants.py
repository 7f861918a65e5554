"""A GPT-2-style decoder and the ways of writing its attention (ours).

The model: token and learned position embeddings, pre-`LayerNorm` blocks whose attention
projects queries, keys and values with one `nn.DenseGeneral(features=(3, heads, head_dim))`
and the output with `nn.DenseGeneral(axis=(-2, -1))`, calls `jax.nn.dot_product_attention`
with `is_causal=True`, an `nn.Einsum` MLP (`"btd,df->btf"` with a bias) and `gelu(approximate=
True)`, and logits tied to the token table by `Embed.attend`. Training: jitted steps of
`adamw` with a weight-decay mask from a function of the parameters' paths behind
`clip_by_global_norm`; greedy generation by a Python loop over a fixed buffer and a jitted
next-token function (the whole prefix recomputed each step, the position traced).

Then the attention itself written five ways on the same projections:
`jax.nn.dot_product_attention` (causal by flag, by a boolean `mask`, by an additive `bias`;
with `key_value_seq_lengths`, `local_window_size`, `scale`, grouped-query attention with fewer
key/value heads), `nn.dot_product_attention` with `nn.make_causal_mask`, and
`nn.MultiHeadDotProductAttention` with `normalize_qk=True`, `qkv_features`/`out_features`,
`force_fp32_for_softmax` and `sow_weights=True` (the weights read from `intermediates`), and
its `attention_fn=` swapped for a function of ours. Checks losses, samples, the attention
outputs, weights and parameters' shapes and paths."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn

VOCAB, WIDTH, HEADS, LENGTH = 11, 16, 4, 8


class Attention(nn.Module):
    heads: int

    @nn.compact
    def __call__(self, x):
        head_dim = x.shape[-1] // self.heads
        qkv = nn.DenseGeneral((3, self.heads, head_dim), name="qkv")(x)
        q, k, v = qkv[:, :, 0], qkv[:, :, 1], qkv[:, :, 2]
        y = jax.nn.dot_product_attention(q, k, v, is_causal=True)
        return nn.DenseGeneral(x.shape[-1], axis=(-2, -1), name="out")(y)


class Block(nn.Module):
    heads: int

    @nn.compact
    def __call__(self, x):
        x = x + Attention(self.heads)(nn.LayerNorm(epsilon=1e-5)(x))
        h = nn.LayerNorm(epsilon=1e-5)(x)
        h = nn.gelu(nn.Einsum((WIDTH, 4 * WIDTH), "btd,df->btf", name="fc")(h), approximate=True)
        return x + nn.Einsum((4 * WIDTH, WIDTH), "btf,fd->btd", name="proj")(h)


class GPT(nn.Module):
    layers: int = 2

    @nn.compact
    def __call__(self, tokens):
        embed = nn.Embed(VOCAB, WIDTH, embedding_init=nn.initializers.normal(0.02), name="wte")
        positions = self.param("wpe", nn.initializers.normal(0.01), (LENGTH, WIDTH))
        x = embed(tokens) + positions[: tokens.shape[1]]
        for i in range(self.layers):
            x = Block(HEADS, name=f"h{i}")(x)
        return embed.attend(nn.LayerNorm(epsilon=1e-5, name="ln_f")(x))


def decay_mask(params):
    """Weight decay on matrices only (not biases, norms' scales or embeddings)."""
    flat = jax.tree_util.tree_flatten_with_path(params)[0]
    decide = {
        jax.tree_util.keystr(path): leaf.ndim >= 2 and "wte" not in jax.tree_util.keystr(path)
        for path, leaf in flat
    }
    return jax.tree_util.tree_map_with_path(lambda p, _: decide[jax.tree_util.keystr(p)], params)


def attention_variants(rs):
    b, t, n, d = 2, 5, 4, 3
    flax_causal = nn.make_causal_mask(jnp.ones((b, t)))
    q, k, v = (jnp.asarray(rs.randn(b, t, n, d), jnp.float32) for _ in range(3))
    causal = jnp.tril(jnp.ones((t, t), bool))
    out = {
        "flag": jax.nn.dot_product_attention(q, k, v, is_causal=True),
        "mask": jax.nn.dot_product_attention(q, k, v, mask=causal[None, None]),
        "bias": jax.nn.dot_product_attention(
            q, k, v, bias=jnp.where(causal, 0.0, -1e9)[None, None]
        ),
        "lengths": jax.nn.dot_product_attention(
            q, k, v, key_value_seq_lengths=jnp.array([3, 5], jnp.int32)
        ),
        "window": jax.nn.dot_product_attention(q, k, v, is_causal=True, local_window_size=(1, 0)),
        "scale": jax.nn.dot_product_attention(q, k, v, scale=0.25),
        "grouped": jax.nn.dot_product_attention(q, k[:, :, :2], v[:, :, :2], is_causal=True),
        "flax": nn.dot_product_attention(q, k, v, mask=flax_causal),
        "weights": nn.dot_product_attention_weights(q, k, mask=flax_causal),
    }  # fmt: skip

    x = jnp.asarray(rs.randn(b, t, 6), jnp.float32)
    mha = nn.MultiHeadDotProductAttention(
        num_heads=2, qkv_features=8, out_features=5, normalize_qk=True, force_fp32_for_softmax=True
    )
    mha_vars = mha.init(jax.random.key(0), x)
    y, state = mha.apply(mha_vars, x, mask=nn.make_causal_mask(x[..., 0]), sow_weights=True,
                         mutable=["intermediates"])  # fmt: skip

    def temperature_attention(query, key, value, **kwargs):
        return nn.dot_product_attention(query / 2.0, key, value, **kwargs)

    swapped = nn.MultiHeadDotProductAttention(num_heads=2, qkv_features=8, out_features=5,
                                              normalize_qk=True,
                                              attention_fn=temperature_attention)  # fmt: skip
    out["mha"] = [y, state["intermediates"]["attention_weights"][0],
                  swapped.apply(mha_vars, x, x)]  # fmt: skip
    out["mha_shapes"] = jax.tree.map(jnp.shape, mha_vars["params"])
    return out


def run():
    rs = np.random.RandomState(2)
    pattern = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    starts = rs.randint(0, 3, size=6)
    tokens = jnp.asarray(np.stack([pattern[s : s + LENGTH] for s in starts]), jnp.int32)
    model = GPT()
    params = model.init(jax.random.key(0), tokens)["params"]
    tx = optax.chain(optax.clip_by_global_norm(1.0),
                     optax.adamw(3e-3, b2=0.95, weight_decay=0.1, mask=decay_mask))  # fmt: skip
    opt_state = tx.init(params)

    @jax.jit
    def train_step(params, opt_state, tokens):
        def loss_fn(params):
            logits = model.apply({"params": params}, tokens[:, :-1])
            return optax.softmax_cross_entropy_with_integer_labels(logits, tokens[:, 1:]).mean()

        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    losses = []
    for _ in range(4):
        params, opt_state, loss = train_step(params, opt_state, tokens)
        losses.append(loss)

    @jax.jit
    def next_token(params, buffer, i):
        logits = model.apply({"params": params}, buffer)
        return jnp.argmax(logits[:, i - 1], axis=-1).astype(jnp.int32)

    prompt = tokens[:2, :3]
    buffer = jnp.zeros((2, LENGTH), jnp.int32).at[:, :3].set(prompt)
    for i in range(3, LENGTH):  # one compile: the buffer keeps its shape, `i` is traced
        buffer = buffer.at[:, i].set(next_token(params, buffer, i))

    flat = jax.tree_util.tree_flatten_with_path(params)[0]
    return dict(
        losses=losses,
        samples=buffer,
        decayed=decay_mask(params),
        attention=attention_variants(rs),
        # the key projection's bias has a zero gradient (softmax ignores a shift of every
        # score), which Adam turns from round-off into steps: the biases are left out
        params=[leaf for path, leaf in flat if "['qkv']['bias']" not in jax.tree_util.keystr(path)],
        paths=[jax.tree_util.keystr(p) for p, _ in flat],
    )
