"""A BERT-style encoder pre-trained by masked language modelling on packed sequences (ours,
written in Flax Linen as today's pre-training scripts write one).

Several short documents share each row: `segment_ids` number them (0 is padding) and the
positions restart at each document's start. The attention mask is `nn.combine_masks` of the
padding mask (`nn.make_attention_mask(ids > 0, ids > 0)`) and the same-document mask
(`nn.make_attention_mask(ids, ids, pairwise_fn=jnp.equal)`); a causal variant adds
`nn.make_causal_mask`. Token, position and token-type `nn.Embed`s, post-`LayerNorm` blocks of
`MultiHeadDotProductAttention` (`qkv_features`, attention dropout) and an exact-GELU MLP;
the MLM head's logits are the token embedding's `attend` (tied weights) plus a bias. Masking
picks 15% of the ordinary tokens, of which 80% become `[MASK]`, 10% a random token and 10%
stay, from split keys; the loss is `optax.softmax_cross_entropy_with_integer_labels` weighted
by the picked positions. AdamW on a warmup-linear-decay schedule with a decay mask that spares
biases, LayerNorm and embeddings, after `clip_by_global_norm`. Checks the masks, the batch
the masking makes, the losses and accuracies, that a packed document's encoding equals its
encoding alone, the tied head and the parameters (but the key projection's bias, whose gradient is round-off)."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax import traverse_util
from flax.training import train_state

VOCAB, LENGTH = 40, 16
PAD, CLS, SEP, MASK = 0, 1, 2, 3
FIRST_WORD = 4


class Block(nn.Module):
    heads: int = 2
    hidden: int = 48

    @nn.compact
    def __call__(self, x, mask, train):
        h = nn.MultiHeadDotProductAttention(
            num_heads=self.heads, qkv_features=16, dropout_rate=0.1, name="attention"
        )(x, mask=mask, deterministic=not train)
        x = nn.LayerNorm(name="attention_norm")(x + nn.Dropout(0.1)(h, deterministic=not train))
        h = nn.Dense(self.hidden, name="intermediate")(x)
        h = nn.Dense(x.shape[-1], name="output")(nn.gelu(h, approximate=False))
        return nn.LayerNorm(name="output_norm")(x + nn.Dropout(0.1)(h, deterministic=not train))


class BertMLM(nn.Module):
    width: int = 24
    layers: int = 2

    def setup(self):
        init = nn.initializers.truncated_normal(0.02)
        self.tokens = nn.Embed(VOCAB, self.width, embedding_init=init)
        self.positions = nn.Embed(LENGTH, self.width, embedding_init=init)
        self.types = nn.Embed(2, self.width, embedding_init=init)
        self.embed_norm = nn.LayerNorm()
        self.blocks = [Block() for _ in range(self.layers)]
        self.head_dense = nn.Dense(self.width)
        self.head_norm = nn.LayerNorm()
        self.head_bias = self.param("head_bias", nn.initializers.zeros_init(), (VOCAB,))

    def encode(self, tokens, segment_ids, positions, types, train=False):
        x = self.tokens(tokens) + self.positions(positions) + self.types(types)
        x = self.embed_norm(x)
        mask = nn.combine_masks(
            nn.make_attention_mask(segment_ids > 0, segment_ids > 0),
            nn.make_attention_mask(segment_ids, segment_ids, pairwise_fn=jnp.equal),
        )
        for block in self.blocks:
            x = block(x, mask, train)
        return x

    def __call__(self, tokens, segment_ids, positions, types, train=False):
        x = self.encode(tokens, segment_ids, positions, types, train)
        h = self.head_norm(nn.gelu(self.head_dense(x), approximate=False))
        return self.tokens.attend(h) + self.head_bias


def pack(documents):
    """Rows of LENGTH tokens holding [CLS] doc [SEP] pieces back to back, with segment ids,
    restarting positions and token types (0 before a document's middle, 1 after)."""
    rows = []
    for row_docs in documents:
        tokens, segments, positions, types = [], [], [], []
        for number, doc in enumerate(row_docs, start=1):
            piece = [CLS, *doc, SEP]
            tokens += piece
            segments += [number] * len(piece)
            positions += list(range(len(piece)))
            types += [0 if i <= len(piece) // 2 else 1 for i in range(len(piece))]
        padding = LENGTH - len(tokens)
        rows.append([r + [0] * padding for r in (tokens, segments, positions, types)])
    return tuple(jnp.array([row[i] for row in rows], dtype=jnp.int32) for i in range(4))


def make_documents(key, rows=8):
    documents = []
    for r in range(rows):
        key, k1, k2 = jax.random.split(key, 3)
        first = int(jax.random.randint(k1, (), 3, 7))
        second = int(jax.random.randint(k2, (), 2, LENGTH - 4 - first - (r % 3)))
        start = FIRST_WORD + (r * 5) % (VOCAB - FIRST_WORD - 8)
        doc_a = [FIRST_WORD + (start + 2 * i) % (VOCAB - FIRST_WORD) for i in range(first)]
        doc_b = [FIRST_WORD + (start + 3 * i + 1) % (VOCAB - FIRST_WORD) for i in range(second)]
        documents.append([doc_a, doc_b])
    return documents


def mask_tokens(key, tokens, rate=0.15):
    """BERT's masking: the targets, the corrupted input and the weights of picked positions."""
    pick_key, kind_key, word_key = jax.random.split(key, 3)
    ordinary = tokens >= FIRST_WORD
    picked = (jax.random.uniform(pick_key, tokens.shape) < rate) & ordinary
    kind = jax.random.uniform(kind_key, tokens.shape)
    random_words = jax.random.randint(word_key, tokens.shape, FIRST_WORD, VOCAB)
    corrupted = jnp.where(picked & (kind < 0.8), MASK, tokens)
    corrupted = jnp.where(picked & (kind >= 0.8) & (kind < 0.9), random_words, corrupted)
    return corrupted, tokens, picked.astype(jnp.float32)


def mlm_loss(params, apply_fn, batch, key, dropout_key, train=True):
    tokens, segment_ids, positions, types = batch
    corrupted, targets, weights = mask_tokens(key, tokens)
    logits = apply_fn({"params": params}, corrupted, segment_ids, positions, types, train,
                      rngs={"dropout": dropout_key})  # fmt: skip
    losses = optax.softmax_cross_entropy_with_integer_labels(logits, targets)
    count = jnp.maximum(weights.sum(), 1.0)
    correct = (jnp.argmax(logits, -1) == targets) * weights
    return jnp.sum(losses * weights) / count, {"accuracy": correct.sum() / count, "count": count}


def decay_mask(params):
    flat = traverse_util.flatten_dict(params)
    keep = {path: path[-1] == "kernel" and not any("norm" in p for p in path) for path in flat}
    return traverse_util.unflatten_dict(keep)


@jax.jit
def train_step(state, batch, key):
    mask_key, dropout_key = jax.random.split(jax.random.fold_in(key, state.step))
    grad_fn = jax.value_and_grad(mlm_loss, has_aux=True)
    (loss, metrics), grads = grad_fn(state.params, state.apply_fn, batch, mask_key, dropout_key)
    return state.apply_gradients(grads=grads), {"loss": loss, **metrics}


def run():
    out = {}
    batch = pack(make_documents(jax.random.PRNGKey(0)))
    tokens, segment_ids, positions, types = batch
    out["batch"] = {"tokens": tokens, "segments": segment_ids, "positions": positions}

    # the masks: padding, same document, and the causal variant
    padding = nn.make_attention_mask(segment_ids > 0, segment_ids > 0)
    same_doc = nn.make_attention_mask(segment_ids, segment_ids, pairwise_fn=jnp.equal)
    combined = nn.combine_masks(padding, same_doc)
    causal = nn.combine_masks(combined, nn.make_causal_mask(tokens), dtype=jnp.bool_)
    out["mask_dtypes"] = [str(m.dtype) for m in (padding, same_doc, combined, causal)]
    out["mask_shapes"] = [list(m.shape) for m in (padding, combined, causal)]
    out["mask_sums"] = jnp.array([m.sum() for m in (padding, same_doc, combined, causal)])
    out["combined_row0"] = combined[0, 0].astype(jnp.int32)

    corrupted, targets, weights = mask_tokens(jax.random.PRNGKey(1), tokens)
    out["masking"] = {"corrupted": corrupted, "weights": weights,
                      "mask_tokens": jnp.sum(corrupted == MASK)}  # fmt: skip

    model = BertMLM()
    params = model.init(jax.random.PRNGKey(2), *batch)["params"]
    schedule = optax.join_schedules(
        [optax.linear_schedule(0.0, 3e-3, 3), optax.linear_schedule(3e-3, 0.0, 9)], [3]
    )
    tx = optax.chain(
        optax.clip_by_global_norm(1.0),
        optax.adamw(schedule, weight_decay=0.01, mask=decay_mask),
    )
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)
    out["decay_mask"] = sorted("/".join(p) for p, v in
                               traverse_util.flatten_dict(decay_mask(params)).items() if v)  # fmt: skip
    history = []
    for _ in range(8):
        state, metrics = train_step(state, batch, jax.random.PRNGKey(3))
        history.append(metrics)
    out["history"] = jax.tree.map(lambda *xs: jnp.stack(xs), *history)

    # a packed document is encoded as if alone: same tokens, positions and types
    variables = {"params": state.params}
    packed = model.apply(variables, *batch, method=BertMLM.encode)
    length = int(jnp.sum(segment_ids[0] == 1))
    alone = tuple(a[:1] * (jnp.arange(LENGTH) < length) for a in batch)
    encoded_alone = model.apply(variables, *alone, method=BertMLM.encode)
    out["packing_gap"] = jnp.max(jnp.abs(packed[0, :length] - encoded_alone[0, :length]))
    out["packed_encoding"] = packed[0, :length]

    # the head is tied to the token embedding: logits of the identity are its rows
    logits = model.apply(variables, *batch)
    out["logits_dtype"] = str(logits.dtype)
    out["logits"] = logits[0, :4]
    attended = model.apply(variables, jnp.eye(24)[:3],
                           method=lambda m, h: m.tokens.attend(h))  # fmt: skip
    out["attend_is_embedding"] = bool(
        jnp.allclose(attended, state.params["tokens"]["embedding"][:, :3].T)
    )
    eval_loss, eval_metrics = mlm_loss(state.params, model.apply, batch, jax.random.PRNGKey(4),
                                       jax.random.PRNGKey(5), train=False)  # fmt: skip
    out["eval"] = {"loss": eval_loss, **eval_metrics}
    # the key projection's bias gets a gradient of round-off only (softmax is shift-invariant
    # along the keys), which Adam scales up into steps: left out of the comparison
    flat = traverse_util.flatten_dict(state.params)
    out["params"] = {"/".join(p): v for p, v in flat.items() if p[-2:] != ("key", "bias")}
    return out
