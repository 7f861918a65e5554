"""Skip-gram word2vec with negative sampling (ours) on a synthetic corpus whose words come
in topics: word counts by `jnp.bincount`, frequent-word subsampling by `jax.random.uniform`,
(center, context) pairs within a window built with numpy, a co-occurrence matrix by
`jax.ops.segment_sum` on flattened pair ids, negatives drawn from the unigram distribution
to the 3/4 by `jax.random.categorical(shape=)`. The model: two `nn.Embed` tables (centers
and contexts) and the loss of `jax.nn.log_sigmoid` on positive and negative dot products;
the context scores of all words also by `nn.Embed.attend`. The sparse gradient: the
gradient with respect to the gathered rows, summed into the table by `segment_sum`, equals
the dense gradient, and a hand-written sparse SGD step by `.at[].add` equals
`optax.sgd`'s. Training: `optax.adagrad` in a jitted step drawing its own negatives.
Checks counts, pairs, losses, gradients, cosine similarities and `lax.top_k` nearest
neighbours."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn

VOCAB, DIM, WINDOW, NEGATIVES = 16, 8, 2, 4


def corpus(rs, sentences=60, length=8):
    """Sentences from one of four topics (words 4t..4t+3), a common word (0) sprinkled in."""
    rows = []
    for _ in range(sentences):
        topic = rs.randint(1, 4)
        words = rs.randint(4 * topic, 4 * topic + 4, length)
        words[rs.rand(length) < 0.3] = 0
        rows.append(words)
    return np.stack(rows).astype(np.int32)


def skipgram_pairs(text, keep):
    centers, contexts = [], []
    for sentence, kept in zip(text, keep):
        words = sentence[kept]
        for i, w in enumerate(words):
            for j in range(max(0, i - WINDOW), min(len(words), i + WINDOW + 1)):
                if j != i:
                    centers.append(w)
                    contexts.append(words[j])
    return np.array(centers, np.int32), np.array(contexts, np.int32)


class SkipGram(nn.Module):
    def setup(self):
        self.centers = nn.Embed(VOCAB, DIM, embedding_init=nn.initializers.uniform(0.5 / DIM))
        self.contexts = nn.Embed(VOCAB, DIM, embedding_init=nn.initializers.normal(0.1))

    def __call__(self, center, context, negatives):
        u = self.centers(center)
        positive = jnp.sum(u * self.contexts(context), axis=-1)
        negative = jnp.einsum("bd,bkd->bk", u, self.contexts(negatives))
        return -jnp.mean(jax.nn.log_sigmoid(positive) + jax.nn.log_sigmoid(-negative).sum(-1))

    def scores(self, center):
        return self.contexts.attend(self.centers(center))


def rows_loss(u, v, n):
    """The loss of gathered rows: centers `u`, contexts `v`, negatives `n`."""
    positive = jnp.sum(u * v, axis=-1)
    negative = jnp.einsum("bd,bkd->bk", u, n)
    return -jnp.mean(jax.nn.log_sigmoid(positive) + jax.nn.log_sigmoid(-negative).sum(-1))


model = SkipGram()
tx = optax.adagrad(0.5)


@jax.jit
def train_step(params, opt_state, center, context, log_unigram, key):
    negatives = jax.random.categorical(key, log_unigram, shape=(center.shape[0], NEGATIVES))
    loss, grads = jax.value_and_grad(
        lambda p: model.apply({"params": p}, center, context, negatives)
    )(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def run():
    rs = np.random.RandomState(2)
    text = corpus(rs)
    counts = jnp.bincount(text.reshape(-1), length=VOCAB)
    freq = counts / counts.sum()
    keep_prob = jnp.minimum(1.0, jnp.sqrt(1e-1 / jnp.maximum(freq, 1e-9)))
    keep = jax.random.uniform(jax.random.key(0), text.shape) < keep_prob[text]
    centers, contexts = skipgram_pairs(text, np.asarray(keep))
    cooccur = jax.ops.segment_sum(jnp.ones(centers.shape), centers * VOCAB + contexts,
                                  num_segments=VOCAB * VOCAB).reshape(VOCAB, VOCAB)  # fmt: skip
    unigram = counts.astype(jnp.float32) ** 0.75
    log_unigram = jnp.log(unigram / unigram.sum())
    out = {"counts": counts, "keep_prob": keep_prob, "kept": keep.sum(), "pairs": len(centers),
           "cooccur": cooccur, "symmetric": bool(jnp.array_equal(cooccur, cooccur.T))}  # fmt: skip
    params = model.init(jax.random.key(1), centers[:2], contexts[:2],
                        jnp.zeros((2, NEGATIVES), jnp.int32))["params"]  # fmt: skip
    c, x = centers[:16], contexts[:16]
    negatives = jax.random.categorical(jax.random.key(2), log_unigram, shape=(16, NEGATIVES))
    out["negatives"] = negatives
    dense = jax.grad(lambda p: model.apply({"params": p}, c, x, negatives))(params)
    table_u = params["centers"]["embedding"]
    table_v = params["contexts"]["embedding"]
    gu, gv, gn = jax.grad(rows_loss, argnums=(0, 1, 2))(table_u[c], table_v[x], table_v[negatives])
    sparse_u = jax.ops.segment_sum(gu, c, num_segments=VOCAB)
    sparse_v = jax.ops.segment_sum(
        jnp.concatenate([gv, gn.reshape(-1, DIM)]),
        jnp.concatenate([x, negatives.reshape(-1)]), num_segments=VOCAB,
    )  # fmt: skip
    out["grads"] = [dense["centers"]["embedding"], dense["contexts"]["embedding"]]
    out["sparse_matches"] = [
        bool(jnp.allclose(sparse_u, dense["centers"]["embedding"], atol=1e-6)),
        bool(jnp.allclose(sparse_v, dense["contexts"]["embedding"], atol=1e-6)),
    ]
    stepped = table_u.at[c].add(-0.1 * gu)
    sgd = optax.sgd(0.1)
    updates, _ = sgd.update(dense, sgd.init(params))
    out["sparse_sgd"] = [stepped, bool(jnp.allclose(
        stepped, optax.apply_updates(params, updates)["centers"]["embedding"], atol=1e-6))]  # fmt: skip
    opt_state = tx.init(params)
    out["losses"] = []
    key = jax.random.key(3)
    order = np.random.RandomState(5).permutation(len(centers))
    for i in range(30):
        batch = order[(i * 64) % len(order) :][:64]
        if len(batch) < 64:
            batch = order[:64]
        key, sub = jax.random.split(key)
        params, opt_state, loss = train_step(params, opt_state, centers[batch], contexts[batch],
                                             log_unigram, sub)  # fmt: skip
        out["losses"].append(loss)
    emb = params["centers"]["embedding"]
    unit = emb / jnp.linalg.norm(emb, axis=-1, keepdims=True)
    cosine = unit @ unit.T
    _, neighbours = jax.lax.top_k(cosine - 2.0 * jnp.eye(VOCAB), 3)
    out["cosine"] = cosine
    out["neighbours"] = neighbours[4:]
    out["same_topic"] = jnp.mean(neighbours[4:, 0] // 4 == jnp.arange(4, VOCAB) // 4)
    out["scores"] = model.apply({"params": params}, jnp.array([4, 8, 12]), method=SkipGram.scores)
    return out
