"""Linear attention (ours): Performer's FAVOR+ positive random features (Gaussian projections
made orthogonal block by block with `jnp.linalg.qr` and rescaled by chi-distributed norms,
the features `exp(w.x - |x|^2/2 - max)` with a stabilising shift), the linear transformer's
`elu + 1` features, bidirectional attention by two `einsum`s, causal attention by prefix sums
(`jnp.cumsum` of outer products) and by a `lax.scan` carrying the running sums. The
approximation error of FAVOR+ against exact softmax attention falls as the number of
features grows. A small causal language model with the linear attention as its mixing
layer: the projection matrix is a non-trained variable in its own collection
(`self.variable("features", ...)` made from `self.make_rng("features")` at init), redrawn
between steps by `init` with a new key; trained with `optax.adam` behind
`optax.clip_by_global_norm`, jitted. Checks the features, the exact and approximate
outputs, the two causal forms, losses and the redrawn projections' shapes."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn


def orthogonal_gaussian(key, rows, dim):
    """(rows, dim): blocks of `dim` orthogonal directions with chi-distributed lengths."""
    blocks = []
    keys = jax.random.split(key, rows // dim + 2)
    for i in range(-(-rows // dim)):
        q, _ = jnp.linalg.qr(jax.random.normal(keys[i], (dim, dim)))
        blocks.append(q.T)
    directions = jnp.concatenate(blocks)[:rows]
    lengths = jnp.linalg.norm(jax.random.normal(keys[-1], (rows, dim)), axis=1)
    return directions * lengths[:, None]


def favor_features(x, projection, is_query):
    """Positive random features of softmax's kernel: (..., length, features)."""
    x = x * x.shape[-1] ** -0.25
    projected = jnp.einsum("...ld,md->...lm", x, projection)
    norm = 0.5 * jnp.sum(x**2, axis=-1, keepdims=True)
    axes = -1 if is_query else (-2, -1)
    shift = jax.lax.stop_gradient(jnp.max(projected, axis=axes, keepdims=True))
    return jnp.exp(projected - norm - shift) / np.sqrt(projection.shape[0]) + 1e-6


def elu_features(x):
    return nn.elu(x) + 1.0


def linear_attention(qf, kf, v):
    context = jnp.einsum("...lm,...ld->...md", kf, v)
    normaliser = jnp.einsum("...lm,...m->...l", qf, kf.sum(axis=-2))
    return jnp.einsum("...lm,...md->...ld", qf, context) / normaliser[..., None]


def causal_cumsum(qf, kf, v):
    prefix = jnp.cumsum(jnp.einsum("...lm,...ld->...lmd", kf, v), axis=-3)
    normaliser = jnp.einsum("...lm,...lm->...l", qf, jnp.cumsum(kf, axis=-2))
    return jnp.einsum("...lm,...lmd->...ld", qf, prefix) / normaliser[..., None]


def causal_scan(qf, kf, v):
    """The same by a scan over positions (batch-first inputs without a head axis)."""

    def step(carry, inputs):
        sums, norms = carry
        q, k, value = inputs
        sums = sums + jnp.einsum("bm,bd->bmd", k, value)
        norms = norms + k
        out = jnp.einsum("bm,bmd->bd", q, sums) / jnp.einsum("bm,bm->b", q, norms)[:, None]
        return (sums, norms), out

    b, _, m = qf.shape
    start = (jnp.zeros((b, m, v.shape[-1])), jnp.zeros((b, m)))
    _, out = jax.lax.scan(step, start, (jnp.swapaxes(qf, 0, 1), jnp.swapaxes(kf, 0, 1),
                                        jnp.swapaxes(v, 0, 1)))  # fmt: skip
    return jnp.swapaxes(out, 0, 1)


def softmax_attention(q, k, v, causal=False):
    scores = jnp.einsum("...qd,...kd->...qk", q, k) / np.sqrt(q.shape[-1])
    if causal:
        scores = jnp.where(jnp.tril(jnp.ones(scores.shape[-2:], bool)), scores, -jnp.inf)
    return jax.nn.softmax(scores, axis=-1) @ v


class PerformerLayer(nn.Module):
    dim: int = 16
    heads: int = 2
    features: int = 16

    @nn.compact
    def __call__(self, x):
        head_dim = self.dim // self.heads
        projection = self.variable(
            "features", "projection",
            lambda: orthogonal_gaussian(self.make_rng("features"), self.features, head_dim),
        )  # fmt: skip
        h = nn.LayerNorm()(x)
        q, k, v = (nn.DenseGeneral((self.heads, head_dim), name=n)(h) for n in "qkv")
        q, k, v = (jnp.swapaxes(t, 1, 2) for t in (q, k, v))
        qf = favor_features(q, projection.value, True)
        kf = favor_features(k, projection.value, False)
        mixed = jnp.swapaxes(causal_cumsum(qf, kf, v), 1, 2)
        x = x + nn.DenseGeneral(self.dim, axis=(-2, -1), name="out")(mixed)
        h = nn.Dense(2 * self.dim)(nn.LayerNorm()(x))
        return x + nn.Dense(self.dim)(nn.gelu(h))


class LinearLM(nn.Module):
    vocab: int = 11

    @nn.compact
    def __call__(self, tokens):
        x = nn.Embed(self.vocab, 16)(tokens)
        x = x + self.param("positions", nn.initializers.normal(0.02), (tokens.shape[1], 16))
        x = PerformerLayer(name="layer0")(x)
        x = PerformerLayer(name="layer1")(x)
        return nn.Dense(self.vocab)(nn.LayerNorm()(x))


def sequences(rs, rows, length=10, vocab=11):
    """Each row repeats a random pattern of 2-4 tokens."""
    out = np.zeros((rows, length), np.int32)
    for r in range(rows):
        pattern = rs.randint(0, vocab, rs.randint(2, 5))
        out[r] = np.resize(pattern, length)
    return out


model = LinearLM()
tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-2))


@jax.jit
def train_step(params, features, opt_state, tokens):
    def loss_fn(p):
        logits = model.apply({"params": p, "features": features}, tokens[:, :-1])
        return optax.softmax_cross_entropy_with_integer_labels(logits, tokens[:, 1:]).mean()

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


def run():
    rs = np.random.RandomState(0)
    q, k, v = (jnp.asarray(rs.normal(size=(2, 12, 8)).astype(np.float32)) * 0.7 for _ in "qkv")
    exact = softmax_attention(q, k, v)
    out = {"errors": {}, "exact": exact}
    for m in (8, 32, 128, 512):
        projection = orthogonal_gaussian(jax.random.key(m), m, 8)
        approx = linear_attention(favor_features(q, projection, True),
                                  favor_features(k, projection, False), v)  # fmt: skip
        out["errors"][str(m)] = jnp.mean(jnp.abs(approx - exact))
    projection = orthogonal_gaussian(jax.random.key(1), 16, 8)
    out["orthogonality"] = projection[:8] @ projection[:8].T
    qf, kf = favor_features(q, projection, True), favor_features(k, projection, False)
    out["features"] = qf[0, :2]
    cumsum, scanned = causal_cumsum(qf, kf, v), causal_scan(qf, kf, v)
    out["causal"] = [cumsum, bool(jnp.allclose(cumsum, scanned, atol=1e-5)),
                     softmax_attention(q, k, v, causal=True)]  # fmt: skip
    out["elu"] = [linear_attention(elu_features(q), elu_features(k), v),
                  causal_cumsum(elu_features(q), elu_features(k), v)[:, -1]]  # fmt: skip
    tokens = sequences(rs, 8)
    variables = model.init({"params": jax.random.key(2), "features": jax.random.key(3)},
                           tokens[:, :-1])  # fmt: skip
    params, features = variables["params"], variables["features"]
    out["collections"] = sorted(variables)
    out["feature_shapes"] = jax.tree.map(lambda x: list(x.shape), features)
    opt_state = tx.init(params)
    out["losses"] = []
    for i in range(12):
        if i and i % 4 == 0:
            features = model.init({"params": jax.random.key(2), "features": jax.random.key(10 + i)},
                                  tokens[:, :-1])["features"]  # fmt: skip
        params, opt_state, loss = train_step(params, features, opt_state, sequences(rs, 16))
        out["losses"].append(loss)
    out["projection"] = features["layer1"]["projection"]
    out["logits"] = model.apply({"params": params, "features": features}, tokens[:2, :-1])
    return out
