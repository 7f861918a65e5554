"""Models of sets with padding masks (ours): Deep Sets (a per-element `nn.Dense` encoder,
masked sum and mean pooling, a `Dense` decoder) and a Set Transformer (multihead attention
blocks on `nn.MultiHeadDotProductAttention` with `nn.make_attention_mask` of the elements'
masks, an induced set attention block with learned inducing points broadcast over the batch,
pooling by multihead attention from learned seeds). Sets of 2-6 points padded to 6; the task
is each set's largest value and its spread (max - min), which sum pooling cannot read off.
Training: `optax.adamw` with `optax.clip_by_global_norm` for both models, jitted, on the same
batches. Checks permutation invariance (the padded elements shuffled with the others), that
padding values do not leak into the outputs, the attention weights on padded keys (zero, from
`sow_weights`), losses and predictions."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state

SIZE, DIM = 6, 16


class DeepSets(nn.Module):
    @nn.compact
    def __call__(self, x, mask):
        h = nn.relu(nn.Dense(DIM)(x))
        h = nn.relu(nn.Dense(DIM)(h))
        weights = mask[..., None].astype(h.dtype)
        total = jnp.sum(h * weights, axis=1)
        mean = total / jnp.maximum(weights.sum(axis=1), 1.0)
        h = nn.relu(nn.Dense(DIM)(jnp.concatenate([total, mean], axis=-1)))
        return nn.Dense(2)(h)


class MAB(nn.Module):
    """Multihead attention block: queries attend to keys, then a row-wise feed-forward."""

    heads: int = 2

    @nn.compact
    def __call__(self, queries, keys, mask=None, sow=False):
        h = queries + nn.MultiHeadDotProductAttention(num_heads=self.heads, qkv_features=DIM,
                                                      out_features=DIM)(queries, keys, mask=mask,
                                                                        sow_weights=sow)  # fmt: skip
        h = nn.LayerNorm()(h)
        return nn.LayerNorm()(h + nn.Dense(DIM)(nn.relu(nn.Dense(DIM)(h))))


class ISAB(nn.Module):
    """Induced set attention: inducing points summarise the set, the set reads them back."""

    points: int = 3

    @nn.compact
    def __call__(self, x, mask):
        inducing = self.param("inducing", nn.initializers.xavier_uniform(), (1, self.points, DIM))
        inducing = jnp.broadcast_to(inducing, (x.shape[0], self.points, DIM))
        into = nn.make_attention_mask(jnp.ones(inducing.shape[:2], bool), mask)
        summary = MAB(name="summarise")(inducing, x, into, sow=True)
        back = nn.make_attention_mask(mask, jnp.ones(inducing.shape[:2], bool))
        return MAB(name="read_back")(x, summary, back)


class PMA(nn.Module):
    seeds: int = 1

    @nn.compact
    def __call__(self, x, mask):
        seeds = self.param("seeds", nn.initializers.xavier_uniform(), (1, self.seeds, DIM))
        seeds = jnp.broadcast_to(seeds, (x.shape[0], self.seeds, DIM))
        pool = nn.make_attention_mask(jnp.ones(seeds.shape[:2], bool), mask)
        return MAB()(seeds, x, pool)


class SetTransformer(nn.Module):
    @nn.compact
    def __call__(self, x, mask):
        h = nn.Dense(DIM, name="embed")(x)
        h = ISAB(name="isab0")(h, mask)
        h = ISAB(name="isab1")(h, mask)
        pooled = PMA(name="pool")(h, mask)[:, 0]
        return nn.Dense(2, name="out")(pooled)


def sets(rs, rows):
    sizes = rs.randint(2, SIZE + 1, rows)
    mask = np.arange(SIZE)[None] < sizes[:, None]
    values = rs.uniform(-2.0, 2.0, (rows, SIZE, 1)).astype(np.float32)
    values[~mask] = 0.0
    inf = np.where(mask[..., None], values, -np.inf)
    sup = np.where(mask[..., None], values, np.inf)
    targets = np.concatenate([inf.max(1), inf.max(1) - sup.min(1)], axis=-1)
    return values, mask, targets.astype(np.float32)


def make_step(model):
    @jax.jit
    def step(state, x, mask, targets):
        def loss_fn(params):
            return jnp.mean((state.apply_fn({"params": params}, x, mask) - targets) ** 2)

        loss, grads = jax.value_and_grad(loss_fn)(state.params)
        return state.apply_gradients(grads=grads), loss

    return step


def run():
    rs = np.random.RandomState(12)
    x, mask, targets = sets(rs, 8)
    out = {"targets": targets}
    tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(3e-3, weight_decay=1e-4))
    for name, model in (("deep_sets", DeepSets()), ("set_transformer", SetTransformer())):
        params = model.init(jax.random.key(0), x, mask)["params"]
        y = model.apply({"params": params}, x, mask)
        perm = rs.permutation(SIZE)
        shuffled = model.apply({"params": params}, x[:, perm], mask[:, perm])
        noisy = np.where(mask[..., None], x, rs.normal(size=x.shape).astype(np.float32) * 5.0)
        padded = model.apply({"params": params}, noisy, mask)
        out[name] = {
            "initial": y,
            "permutation": bool(jnp.allclose(y, shuffled, atol=1e-5)),
            "padding": bool(jnp.allclose(y, padded, atol=1e-5)),
            "count": sum(v.size for v in jax.tree.leaves(params)),
            "losses": [],
        }
        state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)
        step = make_step(model)
        batches = np.random.RandomState(1)
        for _ in range(15):
            state, loss = step(state, *sets(batches, 32))
            out[name]["losses"].append(loss)
        test = sets(np.random.RandomState(2), 6)
        out[name]["predictions"] = model.apply({"params": state.params}, test[0], test[1])
        if name == "set_transformer":
            _, inter = model.apply({"params": state.params}, test[0], test[1],
                                   mutable=["intermediates"])  # fmt: skip
            weights = inter["intermediates"]["isab0"]["summarise"][
                "MultiHeadDotProductAttention_0"]["attention_weights"][0]  # fmt: skip
            out[name]["weights"] = weights
            out[name]["padded_weight"] = jnp.sum(jnp.where(test[1][:, None, None, :], 0.0,
                                                           weights))  # fmt: skip
    return out
