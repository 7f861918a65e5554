"""A tiny encoder-decoder Transformer that learns to reverse token sequences, trained
data-parallel on packed examples and decoded by beam search (ours).

The model shares one `Embed` between source, target and output logits (`attend`); the encoder
masks attention by padding and by segment (`nn.make_attention_mask(..., jnp.equal)` on packed
segment ids, positions gathered per packed example); the decoder adds a causal mask and a
cross-attention mask, and with `decode=True` keeps a key/value cache. Training is `jax.pmap`
over the eight devices (one packed example each, `common_utils.shard`, `jax_utils.replicate`)
with a donated `TrainState` that carries an unused `dynamic_scale` field, `lax.pmean`ed
gradients, `lax.psum`ed metric sums and `common_utils.get_metrics`; AdamW on a warmup + decay
schedule, label smoothing. Translation is a beam search of ours (a `lax.while_loop` over
positions with `lax.top_k` over beams x vocabulary, a length penalty, finished and live beams,
the cache gathered by parent beam) run under `pmap` with the beam size and the config as
`static_broadcasted_argnums`, the cache shaped by `jax.eval_shape`, on an odd-sized batch padded
to the devices (and alone, jitted, on a fixed table of log-probabilities). BLEU's n-gram
statistics are summed by a `pmap` over one device (the host's first by `process_index`) with
`psum` and scored on the host; the steps run under `jax.profiler.StepTraceAnnotation`. Checks
the metrics, parameters, beams, texts and BLEU."""

import functools
import math
from collections import Counter
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import jax_utils, struct
from flax import linen as nn
from flax.training import common_utils, train_state
from jax import lax

END, VOCAB, LENGTH = 2, 12, 8


@struct.dataclass
class Config:
    width: int = 16
    heads: int = 2
    hidden: int = 32
    rate: float = 0.1
    deterministic: bool = True
    decode: bool = False


def positions_table(width):
    angles = np.arange(LENGTH)[:, None] / np.power(1e4, 2 * (np.arange(width) // 2) / width)
    table = np.where(np.arange(width) % 2 == 0, np.sin(angles), np.cos(angles))
    return jnp.asarray(table, jnp.float32)


class Attention(nn.Module):
    config: Config
    decode: bool = False

    @nn.compact
    def __call__(self, q, kv, mask):
        """Pre-norm attention of q to kv (None: to itself) with a residual."""
        c = self.config
        normed = nn.LayerNorm()(q)
        h = nn.MultiHeadDotProductAttention(
            num_heads=c.heads, qkv_features=c.width, dropout_rate=c.rate,
            deterministic=c.deterministic, decode=self.decode, use_bias=False,
        )(normed, normed if kv is None else kv, mask=mask)  # fmt: skip
        return q + nn.Dropout(c.rate)(h, deterministic=c.deterministic)


class FeedForward(nn.Module):
    config: Config

    @nn.compact
    def __call__(self, x):
        c = self.config
        h = nn.Dense(c.width)(nn.relu(nn.Dense(c.hidden)(nn.LayerNorm()(x))))
        return x + nn.Dropout(c.rate)(h, deterministic=c.deterministic)


class Translator(nn.Module):
    config: Config

    def setup(self):
        self.embed = nn.Embed(VOCAB, self.config.width, embedding_init=nn.initializers.normal(1.0))
        self.encoder_self = Attention(self.config)
        self.encoder_ff = FeedForward(self.config)
        self.decoder_self = Attention(self.config, decode=self.config.decode)
        self.decoder_cross = Attention(self.config)
        self.decoder_ff = FeedForward(self.config)
        self.out_norm = nn.LayerNorm()
        if self.config.decode:
            self.position = self.variable("cache", "position", lambda: jnp.zeros((), jnp.int32))

    def encode(self, src, src_pos=None, src_seg=None):
        x = (
            self.embed(src)
            + positions_table(self.config.width)[
                jnp.arange(src.shape[1]) if src_pos is None else src_pos
            ]
        )
        mask = nn.make_attention_mask(src > 0, src > 0)
        if src_seg is not None:
            mask = nn.combine_masks(mask, nn.make_attention_mask(src_seg, src_seg, jnp.equal))
        return self.encoder_ff(self.encoder_self(x, None, mask))

    def decode(self, encoded, src, tgt, tgt_pos=None, src_seg=None, tgt_seg=None):
        table = positions_table(self.config.width)
        if self.config.decode:
            pos = table[None, self.position.value][:, None]
            self.position.value = self.position.value + 1
            inputs, self_mask = tgt, None
            cross = nn.make_attention_mask(jnp.ones_like(tgt) > 0, src > 0)
        else:
            inputs = jnp.pad(tgt, ((0, 0), (1, 0)))[:, :-1]
            if tgt_seg is not None:  # each packed example starts from the start token
                inputs = inputs * (tgt_pos != 0)
            pos = table[jnp.arange(tgt.shape[1]) if tgt_pos is None else tgt_pos]
            self_mask = nn.combine_masks(
                nn.make_attention_mask(tgt > 0, tgt > 0), nn.make_causal_mask(tgt)
            )
            cross = nn.make_attention_mask(tgt > 0, src > 0)
            if tgt_seg is not None:
                self_mask = nn.combine_masks(
                    self_mask, nn.make_attention_mask(tgt_seg, tgt_seg, jnp.equal)
                )
                cross = nn.combine_masks(cross, nn.make_attention_mask(tgt_seg, src_seg, jnp.equal))
        y = self.embed(inputs) + pos
        y = self.decoder_self(y, None, self_mask)
        y = self.decoder_ff(self.decoder_cross(y, encoded, cross))
        return self.embed.attend(self.out_norm(y))

    def __call__(self, src, tgt, src_pos=None, tgt_pos=None, src_seg=None, tgt_seg=None):
        encoded = self.encode(src, src_pos, src_seg)
        return self.decode(encoded, src, tgt, tgt_pos, src_seg, tgt_seg)


def beam_search(step_fn, cache, batch, beams, steps, alpha=0.6):
    """Beams (batch, beams, steps) of tokens and their length-penalized scores, best first.
    `step_fn(tokens, cache)` gives log-probabilities (batch * beams, vocab) for the next token
    after `tokens` (batch * beams,) and the updated cache (leading axis batch * beams)."""
    penalty = lambda n: ((5.0 + n) / 6.0) ** alpha  # noqa: E731

    def pick(x, idx):  # x (batch, k, ...), idx (batch, m): x[b, idx[b, j]]
        return jnp.take_along_axis(x, idx.reshape(idx.shape + (1,) * (x.ndim - 2)), axis=1)

    def regroup(x, parents):  # a cache leaf reordered by the parent beams
        if x.ndim == 0:
            return x
        grouped = x.reshape((batch, beams) + x.shape[1:])
        return pick(grouped, parents).reshape(x.shape)

    cache = jax.tree_util.tree_map(lambda x: jnp.repeat(x, beams, 0) if x.ndim else x, cache)
    start = dict(
        i=jnp.array(0), cache=cache,
        seqs=jnp.zeros((batch, beams, steps + 1), jnp.int32),
        scores=jnp.tile(jnp.array([0.0] + [-jnp.inf] * (beams - 1)), (batch, 1)),
        done_seqs=jnp.zeros((batch, beams, steps + 1), jnp.int32),
        done_scores=jnp.full((batch, beams), -jnp.inf),
    )  # fmt: skip

    def more(s):  # a live beam can still beat the worst finished one
        best_live = s["scores"][:, 0] / penalty(steps)
        return (s["i"] < steps) & ~jnp.all(jnp.min(s["done_scores"], 1) > best_live)

    def step(s):
        tokens = s["seqs"][:, :, s["i"]].reshape(-1)
        log_probs, cache = step_fn(tokens, s["cache"])
        total = s["scores"][..., None] + log_probs.reshape(batch, beams, -1)
        vocab = total.shape[-1]
        top, flat = lax.top_k(total.reshape(batch, -1), 2 * beams)
        parents, words = flat // vocab, flat % vocab
        seqs = pick(s["seqs"], parents).at[:, :, s["i"] + 1].set(words)
        ended = words == END
        live, keep = lax.top_k(jnp.where(ended, -jnp.inf, top), beams)
        finished = jnp.where(ended, top / penalty(s["i"] + 1), -jnp.inf)
        pool = jnp.concatenate([s["done_scores"], finished], 1)
        done_scores, chosen = lax.top_k(pool, beams)
        return dict(
            i=s["i"] + 1, scores=live, seqs=pick(seqs, keep),
            cache=jax.tree_util.tree_map(
                functools.partial(regroup, parents=pick(parents, keep)), cache
            ),
            done_scores=done_scores,
            done_seqs=pick(jnp.concatenate([s["done_seqs"], seqs], 1), chosen),
        )  # fmt: skip

    s = lax.while_loop(more, step, start)
    none = jnp.all(jnp.isinf(s["done_scores"]), axis=1)
    seqs = jnp.where(none[:, None, None], s["seqs"], s["done_seqs"])[:, :, 1:]
    return seqs, jnp.where(none[:, None], s["scores"] / penalty(steps), s["done_scores"])


def translate(params, src, cache, beams, config):
    model = Translator(config)  # the encoder has no cache: a model without decode runs it
    encoded = Translator(config.replace(decode=False)).apply(
        {"params": params}, src, method=Translator.encode
    )
    encoded, src_beams = (jnp.repeat(x, beams, 0) for x in (encoded, src))

    def step_fn(tokens, cache):
        logits, changed = model.apply(
            {"params": params, "cache": cache}, encoded, src_beams, tokens[:, None],
            mutable=["cache"], method=Translator.decode,
        )  # fmt: skip
        return nn.log_softmax(logits[:, 0]), changed["cache"]

    return beam_search(step_fn, cache, src.shape[0], beams, LENGTH - 1)


class State(train_state.TrainState):
    dynamic_scale: Any = None


def smoothed_loss(logits, targets, smoothing=0.1):
    soft = optax.smooth_labels(common_utils.onehot(targets, VOCAB), smoothing)
    weights = (targets > 0).astype(jnp.float32)
    return optax.softmax_cross_entropy(logits, soft) * weights, weights


def train_step(state, batch, key, config):
    def loss_fn(params):
        logits = Translator(config).apply(
            {"params": params}, batch["src"], batch["tgt"], batch["src_pos"], batch["tgt_pos"],
            batch["src_seg"], batch["tgt_seg"], rngs={"dropout": key},
        )  # fmt: skip
        losses, weights = smoothed_loss(logits, batch["tgt"])
        return losses.sum() / weights.sum(), (logits, weights)

    (_, (logits, weights)), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    state = state.apply_gradients(grads=lax.pmean(grads, "batch"))
    hits = (jnp.argmax(logits, -1) == batch["tgt"]) * weights
    metrics = {"accuracy": hits.sum(), "denominator": weights.sum()}
    return state, lax.psum(metrics, "batch")


def packed_example(rs):
    """Two reversal pairs packed into one row of length LENGTH (segments 1 and 2)."""
    keys = ("src", "tgt", "src_pos", "tgt_pos", "src_seg", "tgt_seg")
    row = {k: np.zeros(LENGTH, np.int32) for k in keys}
    start = 0
    for segment in (1, 2):
        n = rs.randint(2, 4)
        words = list(rs.randint(3, VOCAB, n)) + [END]
        for side, seq in (("src", words), ("tgt", words[-2::-1] + [END])):
            row[side][start : start + n + 1] = seq
            row[side + "_pos"][start : start + n + 1] = np.arange(n + 1)
            row[side + "_seg"][start : start + n + 1] = segment
        start += n + 1
    return row


def ngram_stats(hypothesis, reference, order=3):
    """[matches per order, candidates per order, hypothesis length, reference length]."""
    stats = np.zeros(2 * order + 2, np.float32)
    for n in range(1, order + 1):
        hyp = Counter(tuple(hypothesis[i : i + n]) for i in range(len(hypothesis) - n + 1))
        ref = Counter(tuple(reference[i : i + n]) for i in range(len(reference) - n + 1))
        stats[n - 1] = sum((hyp & ref).values())
        stats[order + n - 1] = max(len(hypothesis) - n + 1, 0)
    stats[-2:] = len(hypothesis), len(reference)
    return stats


def bleu(stats, order=3):
    """Corpus BLEU (0-100) from summed statistics, with add-one smoothing past unigrams."""
    smoothing = np.array([0.0] + [1.0] * (order - 1))
    matches, totals = stats[:order] + smoothing, stats[order : 2 * order] + smoothing
    if not (np.all(matches > 0) and np.all(totals > 0)):
        return 0.0
    brevity = min(0.0, 1.0 - stats[-1] / max(stats[-2], 1.0))
    return 100.0 * math.exp(brevity + float(np.mean(np.log(matches / totals))))


def run():
    config = Config()
    devices = jax.local_device_count()
    rs = np.random.RandomState(21)
    model = Translator(config)
    init_src = jnp.ones((1, LENGTH), jnp.int32)
    params = jax.jit(model.init)(jax.random.key(0), init_src, init_src)["params"]
    lr = optax.join_schedules(
        [optax.linear_schedule(0.0, 5e-3, 2), optax.linear_schedule(5e-3, 1e-3, 4)], [2]
    )
    tx = optax.adamw(lr, weight_decay=1e-2)
    state = State.create(apply_fn=model.apply, params=params, tx=tx)
    state = jax_utils.replicate(state)
    p_train = jax.pmap(
        functools.partial(train_step, config=config.replace(deterministic=False)),
        axis_name="batch", donate_argnums=(0,),
    )  # fmt: skip
    history = []
    for i in range(3):
        rows = [packed_example(rs) for _ in range(devices)]
        batch = common_utils.shard({k: np.stack([r[k] for r in rows]) for k in rows[0]})
        keys = jax.random.split(jax.random.fold_in(jax.random.key(1), i), devices)
        with jax.profiler.StepTraceAnnotation("train", step_num=i):
            state, metrics = p_train(state, batch, keys)
        history.append(metrics)
    history = common_utils.get_metrics(history)

    # translate 5 sentences: padded to one per device, decoded, the padding dropped
    sources = [list(rs.randint(3, VOCAB, rs.randint(2, 5))) + [END] for _ in range(5)]
    src = np.zeros((devices, LENGTH), np.int32)
    for j in range(devices):
        s = sources[min(j, len(sources) - 1)]
        src[j, : len(s)] = s
    decode_config = config.replace(decode=True)
    shapes = jax.eval_shape(
        lambda: Translator(decode_config).init(
            jax.random.key(0), src[:1], jnp.ones((1, LENGTH), jnp.int32)
        )
    )
    cache = jax.tree_util.tree_map(lambda s: jnp.zeros(s.shape, s.dtype), shapes["cache"])
    p_translate = jax.pmap(translate, axis_name="batch", static_broadcasted_argnums=(3, 4))
    beams, scores = p_translate(
        state.params, common_utils.shard(src), jax_utils.replicate(cache), 2, decode_config
    )
    best = np.asarray(beams)[:, 0, 0][: len(sources)]
    texts, stats = [], []
    for s, b in zip(sources, best):
        hyp = list(b[: list(b).index(END)]) if END in b else list(b)
        texts.append(" ".join("abcdefghijkl"[t] for t in hyp))
        stats.append(ngram_stats(hyp, s[-2::-1]))
    host_devices = [d for d in jax.devices() if d.process_index == jax.process_index()]
    host_sum = jax.pmap(lambda x: lax.psum(x, "i"), axis_name="i", devices=host_devices[:1])
    summed = host_sum(np.sum(stats, 0)[None])
    params = jax_utils.unreplicate(state.params)

    def toy_step(tokens, cache):  # next-token log-probabilities from the last token only
        return nn.log_softmax(jnp.sin(tokens[:, None] * 1.3 + jnp.arange(float(VOCAB)))), cache

    toy_beams, toy_scores = jax.jit(lambda: beam_search(toy_step, {}, 2, 3, 6))()
    return dict(
        toy_beams=toy_beams, toy_scores=toy_scores,
        train=history, step=state.step, params=jax.tree_util.tree_leaves(params),
        beams=beams, scores=scores, texts=texts, bleu_stats=summed[0],
        bleu=bleu(np.asarray(summed[0])),
        bleu_fixed=bleu(ngram_stats(list("abcde"), list("abcee"))),
        cache=[list(x.shape) for x in jax.tree_util.tree_leaves(cache)],
        platform=jax.local_devices()[0].platform,
    )  # fmt: skip
