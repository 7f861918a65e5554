"""A pointer network that learns to sort (ours): an `nn.RNN(nn.LSTMCell)` encoder with
`return_carry=True` hands its final carry to a decoder written as one step module lifted by
`nn.scan` (`variable_broadcast="params"`, `split_rngs={"params": False}`, the encoder
outputs and inputs broadcast with `nn.broadcast`, targets scanned over the time axis).
Each step runs an `nn.LSTMCell`, scores every input position by additive attention
(`v . tanh(W1 e_j + W2 d_i)`), masks the positions already chosen, and feeds the chosen
element to the next step; a `greedy` attribute switches between teacher forcing and feeding
the argmax (the same parameters serve both). Trained with `optax.adam` behind
`optax.clip_by_global_norm` on the cross-entropy of the pointer scores against `argsort`.
Checks the scan's parameter shapes, losses, the greedy pointers, the sorted outputs and
their accuracy, and that a pointer never repeats."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state

N, HIDDEN = 5, 24


class PointerStep(nn.Module):
    greedy: bool = False

    @nn.compact
    def __call__(self, carry, target, encoded, inputs):
        lstm_carry, chosen, previous = carry
        lstm_carry, d = nn.LSTMCell(HIDDEN, name="cell")(lstm_carry, previous)
        keys = nn.Dense(HIDDEN, use_bias=False, name="w_encoder")(encoded)
        query = nn.Dense(HIDDEN, name="w_decoder")(d)[:, None]
        scores = nn.Dense(1, use_bias=False, name="v")(jnp.tanh(keys + query))[..., 0]
        scores = jnp.where(chosen, -1e9, scores)
        pick = jnp.argmax(scores, axis=-1) if self.greedy else target
        chosen = chosen | jax.nn.one_hot(pick, inputs.shape[1], dtype=bool)
        previous = inputs[jnp.arange(inputs.shape[0]), pick]
        return (lstm_carry, chosen, previous), (scores, pick)


Decoder = nn.scan(PointerStep, variable_broadcast="params", split_rngs={"params": False},
                  in_axes=(1, nn.broadcast, nn.broadcast), out_axes=1)  # fmt: skip


class PointerNetwork(nn.Module):
    greedy: bool = False

    @nn.compact
    def __call__(self, inputs, targets):
        inputs = jnp.asarray(inputs)  # indexed by traced pointers inside the scan
        carry, encoded = nn.RNN(nn.LSTMCell(HIDDEN), return_carry=True, name="encoder")(inputs)
        go = self.param("go", nn.initializers.normal(1.0), (1, inputs.shape[-1]))
        start = (carry, jnp.zeros(inputs.shape[:2], bool),
                 jnp.broadcast_to(go, (inputs.shape[0], inputs.shape[-1])))  # fmt: skip
        _, (scores, picks) = Decoder(self.greedy, name="decoder")(start, targets, encoded, inputs)
        return scores, picks


def batch(rs, rows):
    x = rs.uniform(0.0, 1.0, (rows, N, 1)).astype(np.float32)
    return x, np.argsort(x[..., 0], axis=1).astype(np.int32)


@jax.jit
def train_step(state, x, order):
    def loss_fn(params):
        scores, _ = state.apply_fn({"params": params}, x, order)
        return optax.softmax_cross_entropy_with_integer_labels(scores, order).mean(), scores

    (loss, scores), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    accuracy = jnp.mean(jnp.argmax(scores, -1) == order)
    return state.apply_gradients(grads=grads), loss, accuracy


def run():
    rs = np.random.RandomState(17)
    model, greedy = PointerNetwork(), PointerNetwork(greedy=True)
    x, order = batch(rs, 4)
    params = model.init(jax.random.key(0), x, order)["params"]
    out = {"shapes": jax.tree.map(lambda a: list(a.shape), params), "order": order}
    tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-2))
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)
    out["history"] = []
    for _ in range(30):
        state, loss, accuracy = train_step(state, *batch(rs, 32))
        out["history"].append([loss, accuracy])
    x, order = batch(rs, 8)
    scores, picks = jax.jit(greedy.apply)({"params": state.params}, x, jnp.zeros_like(order))
    sorted_values = jnp.take_along_axis(x[..., 0], picks, axis=1)
    out["greedy"] = {
        "picks": picks, "order": order, "scores": scores[:2],
        "sorted": sorted_values, "exact": jnp.mean(jnp.all(picks == order, axis=1)),
        "positions": jnp.mean(picks == order),
        "no_repeats": bool(jnp.all(jnp.sort(picks, axis=1) == jnp.arange(N))),
    }  # fmt: skip
    return out
