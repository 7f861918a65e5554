"""A mixture-of-experts layer with top-2 routing (ours): a router `Dense` gives softmax gates,
`jax.lax.top_k` picks each token's experts, their gates are renormalized; tokens are
dispatched to a fixed capacity per expert by `jax.nn.one_hot` masks and a `jnp.cumsum`
position (overflowing tokens dropped), the experts are one stacked weight `self.param` applied
by `jnp.einsum`, and the outputs are combined back; a load-balancing loss (fraction routed
times mean gate, per expert) and a router z-loss are `sow`n into 'losses'. A second, dense
formulation gathers each token's experts with `jnp.take_along_axis` and checks the layer
without capacity limits. Trained in a small classifier with `optax.multi_transform` (a lower
rate for the router) and `optax.add_decayed_weights`. Checks losses, the auxiliary losses,
routing counts, dropped tokens and parameters."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax import traverse_util


class MoE(nn.Module):
    experts: int = 4
    hidden: int = 16
    capacity_factor: float = 1.0
    k: int = 2

    @nn.compact
    def __call__(self, x):
        tokens, width = x.shape
        logits = nn.Dense(self.experts, use_bias=False, name="router")(x)
        gates = jax.nn.softmax(logits, axis=-1)
        top_gates, top_index = jax.lax.top_k(gates, self.k)
        top_gates = top_gates / jnp.sum(top_gates, axis=-1, keepdims=True)
        capacity = int(self.capacity_factor * tokens * self.k / self.experts)

        choice = jax.nn.one_hot(top_index, self.experts)  # (tokens, k, experts)
        flat = choice.transpose(1, 0, 2).reshape(self.k * tokens, self.experts)
        position = (jnp.cumsum(flat, axis=0) - 1.0) * flat
        position = position.reshape(self.k, tokens, self.experts).transpose(1, 0, 2)
        kept = choice * (position < capacity)
        slot = jax.nn.one_hot(jnp.sum(position * kept, axis=-1).astype(jnp.int32), capacity)
        dispatch = jnp.einsum("tke,tkc->tec", kept, slot)
        combine = jnp.einsum("tk,tke,tkc->tec", top_gates, kept, slot)

        w_in = self.param(
            "w_in", nn.initializers.lecun_normal(), (self.experts, width, self.hidden)
        )
        w_out = self.param("w_out", nn.initializers.lecun_normal(),
                           (self.experts, self.hidden, width))  # fmt: skip
        expert_in = jnp.einsum("tec,tw->ecw", dispatch, x)
        expert_out = jnp.einsum(
            "ech,ehw->ecw", nn.gelu(jnp.einsum("ecw,ewh->ech", expert_in, w_in)), w_out
        )
        y = jnp.einsum("tec,ecw->tw", combine, expert_out)

        fraction = jnp.mean(choice[:, 0], axis=0)
        balance = self.experts * jnp.sum(fraction * jnp.mean(gates, axis=0))
        z_loss = jnp.mean(jax.nn.logsumexp(logits, axis=-1) ** 2)
        self.sow("losses", "balance", balance)
        self.sow("losses", "z", z_loss)
        self.sow("routing", "counts", jnp.sum(kept, axis=(0, 1)))
        self.sow("routing", "dropped", jnp.sum(choice) - jnp.sum(kept))
        return y, (top_gates, top_index)


def dense_moe(params, x, k):
    """The same experts, every chosen one applied to every token (no capacity)."""
    gates = jax.nn.softmax(x @ params["router"]["kernel"], axis=-1)
    top_gates, top_index = jax.lax.top_k(gates, k)
    top_gates = top_gates / top_gates.sum(-1, keepdims=True)
    hidden = nn.gelu(jnp.einsum("tw,ewh->teh", x, params["w_in"]))
    every = jnp.einsum("teh,ehw->tew", hidden, params["w_out"])
    picked = jnp.take_along_axis(every, top_index[:, :, None], axis=1)
    return jnp.sum(picked * top_gates[:, :, None], axis=1)


class Classifier(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.Dense(8, name="embed")(x)
        moe_out, _ = MoE(name="moe")(h)
        h = nn.LayerNorm()(h + moe_out)
        return nn.Dense(3, name="head")(h)


@functools.partial(jax.jit, static_argnums=3)
def train_step(params, opt_state, batch, tx):
    x, y = batch

    def loss_fn(params):
        logits, state = Classifier().apply({"params": params}, x, mutable=["losses", "routing"])
        ce = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
        aux = sum(jax.tree.leaves(state["losses"]))
        return ce + 0.01 * aux, (ce, state)

    (loss, (ce, state)), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss, ce, state


def run():
    rs = np.random.RandomState(2)
    x = jnp.asarray(rs.randn(12, 8).astype(np.float32))
    layer = MoE()
    variables = layer.init(jax.random.key(0), x)
    (y, (gates, index)), state = layer.apply(variables, x, mutable=["losses", "routing"])
    roomy = MoE(capacity_factor=3.0)
    (y_roomy, _), roomy_state = roomy.apply(variables, x, mutable=["routing"])
    out = {
        "y": y,
        "gates": gates,
        "index": index,
        "losses": state["losses"],
        "routing": state["routing"],
        "roomy_routing": roomy_state["routing"],
        "dense_matches": bool(
            jnp.allclose(dense_moe(variables["params"], x, 2), y_roomy, atol=1e-5)
        ),  # fmt: skip
        "param_shapes": jax.tree.map(jnp.shape, variables["params"]),
    }

    params = Classifier().init(jax.random.key(1), x)["params"]
    labels = traverse_util.path_aware_map(
        lambda path, _: "router" if "router" in path else "rest", params
    )
    tx = optax.multi_transform(
        {"router": optax.sgd(1e-3),
         "rest": optax.chain(optax.add_decayed_weights(1e-4), optax.adam(1e-2))},
        labels,
    )  # fmt: skip
    opt_state = tx.init(params)
    targets = jnp.asarray(rs.randint(0, 3, 12))
    out["train"] = []
    for _ in range(4):
        params, opt_state, loss, ce, step_state = train_step(params, opt_state, (x, targets), tx)
        out["train"].append([loss, ce, step_state["routing"]["moe"]["counts"][0]])
    out["labels"] = traverse_util.flatten_dict(labels, sep="/")
    out["params"] = jax.tree.leaves(params)
    return out
