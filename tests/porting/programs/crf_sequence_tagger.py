"""A sequence tagger with a linear-chain CRF on top (ours): token embeddings, a 1-D `nn.Conv`
encoder and a `Dense` to emission scores; the CRF's transition, start and end scores are
`self.param`s of a module with a method per algorithm (`apply(..., method=)`). The log
partition by the forward algorithm (`lax.scan` of `logsumexp`, padded steps carrying the
previous scores by a length mask), the gold path's score by gathers, Viterbi decoding by a
`lax.scan` of max/argmax with backpointers and a reverse `lax.scan` backtrace, tag marginals
as the gradient of the log partition with respect to the emissions. All against brute force
over every path (`itertools.product`, scored under `vmap`). Training: the negative
log-likelihood with `optax.adam` behind `optax.clip`, jitted, on BIO-style tags whose
transitions the CRF has to learn (an I never follows an O). Checks the partitions,
decoded paths and scores, marginals, losses, the learned transitions and the decoded tags
of held-out sentences."""

import itertools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state

TAGS, VOCAB = 3, 10  # O, B, I


class CRF(nn.Module):
    tags: int

    def setup(self):
        init = nn.initializers.normal(0.5)
        self.transitions = self.param("transitions", init, (self.tags, self.tags))
        self.start = self.param("start", init, (self.tags,))
        self.end = self.param("end", init, (self.tags,))

    def log_partition(self, emissions, mask):
        def forward(alpha, inputs):
            emission, valid = inputs
            scores = alpha[:, :, None] + self.transitions[None] + emission[:, None, :]
            new = jax.nn.logsumexp(scores, axis=1)
            return jnp.where(valid[:, None], new, alpha), None

        alpha = self.start + emissions[:, 0]
        steps = (jnp.swapaxes(emissions[:, 1:], 0, 1), jnp.swapaxes(mask[:, 1:], 0, 1))
        alpha, _ = jax.lax.scan(forward, alpha, steps)
        return jax.nn.logsumexp(alpha + self.end, axis=-1)

    def score(self, emissions, tags, mask):
        rows = jnp.arange(tags.shape[0])[:, None]
        steps = jnp.arange(tags.shape[1])[None, :]
        emitted = jnp.sum(emissions[rows, steps, tags] * mask, axis=1)
        moved = jnp.sum(self.transitions[tags[:, :-1], tags[:, 1:]] * mask[:, 1:], axis=1)
        last = tags[jnp.arange(tags.shape[0]), mask.sum(axis=1) - 1]
        return self.start[tags[:, 0]] + emitted + moved + self.end[last]

    def viterbi(self, emissions, mask):
        def forward(best, inputs):
            emission, valid = inputs
            scores = best[:, :, None] + self.transitions[None]
            pointers = jnp.argmax(scores, axis=1)
            new = jnp.max(scores, axis=1) + emission
            keep = jnp.broadcast_to(jnp.arange(self.tags), pointers.shape)
            return jnp.where(valid[:, None], new, best), jnp.where(valid[:, None], pointers, keep)

        best = self.start + emissions[:, 0]
        steps = (jnp.swapaxes(emissions[:, 1:], 0, 1), jnp.swapaxes(mask[:, 1:], 0, 1))
        best, pointers = jax.lax.scan(forward, best, steps)
        best = best + self.end
        last = jnp.argmax(best, axis=-1)

        def backtrace(tag, pointer):
            previous = pointer[jnp.arange(tag.shape[0]), tag]
            return previous, previous

        _, earlier = jax.lax.scan(backtrace, last, pointers, reverse=True)
        path = jnp.concatenate([jnp.swapaxes(earlier, 0, 1), last[:, None]], axis=1)
        return path, jnp.max(best, axis=-1)


class Tagger(nn.Module):
    @nn.compact
    def __call__(self, tokens):
        x = nn.Embed(VOCAB, 16)(tokens)
        x = nn.relu(nn.Conv(16, (3,), padding="SAME")(x))
        return nn.Dense(TAGS)(x)


class Model(nn.Module):
    def setup(self):
        self.encoder = Tagger()
        self.crf = CRF(TAGS)

    def __call__(self, tokens, tags, mask):
        emissions = self.encoder(tokens)
        return self.crf.log_partition(emissions, mask) - self.crf.score(emissions, tags, mask)

    def decode(self, tokens, mask):
        return self.crf.viterbi(self.encoder(tokens), mask)


def sentences(rs, rows, length=7):
    """Tokens 1-9 (0 pads); a token of 6 or more begins an entity (B), the following tokens of
    4 or more continue it (I), everything else is O."""
    tokens = np.zeros((rows, length), np.int32)
    tags = np.zeros((rows, length), np.int32)
    lengths = rs.randint(3, length + 1, rows)
    for r, n in enumerate(lengths):
        tokens[r, :n] = rs.randint(1, VOCAB, n)
        inside = False
        for t in range(n):
            if tokens[r, t] >= 6:
                tags[r, t], inside = 1, True
            elif inside and tokens[r, t] >= 4:
                tags[r, t] = 2
            else:
                inside = False
    return tokens, tags, (np.arange(length)[None] < lengths[:, None])


def brute_force(crf_params, emissions, length):
    """Every path's score for one sentence: the log partition, the best path and score."""
    paths = jnp.array(list(itertools.product(range(TAGS), repeat=length)))
    crf = CRF(TAGS)
    mask = jnp.ones((paths.shape[0], length), bool)
    scores = crf.apply({"params": crf_params}, jnp.broadcast_to(emissions[:length], (
        paths.shape[0], length, TAGS)), paths, mask, method=CRF.score)  # fmt: skip
    return jax.nn.logsumexp(scores), paths[jnp.argmax(scores)], jnp.max(scores)


@jax.jit
def train_step(state, tokens, tags, mask):
    def loss_fn(params):
        return state.apply_fn({"params": params}, tokens, tags, mask).mean()

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


def run():
    rs = np.random.RandomState(6)
    model = Model()
    tokens, tags, mask = sentences(rs, 4, 5)
    params = model.init(jax.random.key(0), tokens, tags, mask)["params"]
    emissions = model.apply({"params": params}, tokens, method=lambda m, t: m.encoder(t))
    crf = CRF(TAGS)
    crf_vars = {"params": params["crf"]}
    log_z = crf.apply(crf_vars, emissions, mask, method=CRF.log_partition)
    path, best = crf.apply(crf_vars, emissions, mask, method=CRF.viterbi)
    marginals = jax.grad(lambda e: crf.apply(crf_vars, e, mask, method=CRF.log_partition).sum())(
        emissions
    )
    out = {"log_z": log_z, "viterbi": [path * mask, best], "marginals": marginals,
           "marginal_sums": marginals.sum(-1), "brute_force": []}  # fmt: skip
    for r in range(4):
        n = int(mask[r].sum())
        out["brute_force"].append(list(brute_force(params["crf"], emissions[r], n)))
    tx = optax.chain(optax.clip(1.0), optax.adam(0.05))
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)
    out["losses"] = []
    for _ in range(25):
        state, loss = train_step(state, *sentences(rs, 16))
        out["losses"].append(loss)
    out["transitions"] = state.params["crf"]
    tokens, tags, mask = sentences(rs, 6)
    decoded, scores = jax.jit(lambda p, t, m: model.apply({"params": p}, t, m,
                                                          method=Model.decode))(
        state.params, tokens, mask)  # fmt: skip
    out["decoded"] = [decoded * mask, scores, tags, jnp.mean((decoded == tags)[mask])]
    return out
