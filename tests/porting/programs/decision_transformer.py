"""A decision transformer (ours) trained on logged trajectories of a toy task: returns-to-go
by a reverse `jnp.cumsum`, three token types (return, state, action) embedded by their own
layers plus a timestep `nn.Embed`, interleaved into one sequence by `jnp.stack(..., axis=2)`
and a reshape, a causal GPT block stack (`nn.SelfAttention` under `nn.make_causal_mask`
combined with a padding mask for short trajectories by `nn.combine_masks`), actions
predicted from the state tokens' outputs (every third position) as categorical logits,
trained with `optax.adamw` on a `linear_onecycle_schedule` with masked cross-entropy. The
environment is a chain of cells the agent walks along (left, stay, right) with a reward at
the goal; trajectories come from a noisy expert in numpy. Evaluation conditions the model
on a target return and rolls it out in the environment autoregressively (a context window
that grows one step at a time, a jitted forward per length). Checks the returns-to-go, the
token layout, masks, losses and the actions and returns of conditioned rollouts."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state

HORIZON, CELLS, ACTIONS, DIM = 6, 7, 3, 24
GOAL = CELLS - 1


def env_step(position, action):
    position = int(np.clip(position + action - 1, 0, CELLS - 1))
    return position, float(position == GOAL)


def trajectories(rs, count):
    states = np.zeros((count, HORIZON), np.int32)
    actions = np.zeros((count, HORIZON), np.int32)
    rewards = np.zeros((count, HORIZON), np.float32)
    lengths = rs.randint(3, HORIZON + 1, count)
    for i in range(count):
        position, skill = rs.randint(0, 4), rs.rand()
        for t in range(lengths[i]):
            action = 2 if rs.rand() < skill else rs.randint(0, ACTIONS)
            states[i, t], actions[i, t] = position, action
            position, rewards[i, t] = env_step(position, action)
    mask = np.arange(HORIZON)[None] < lengths[:, None]
    return states, actions, rewards, mask


def returns_to_go(rewards):
    return jnp.flip(jnp.cumsum(jnp.flip(rewards, -1), -1), -1)


class Block(nn.Module):
    @nn.compact
    def __call__(self, x, mask):
        x = x + nn.SelfAttention(num_heads=2, qkv_features=DIM)(nn.LayerNorm()(x), mask=mask)
        h = nn.gelu(nn.Dense(2 * DIM)(nn.LayerNorm()(x)))
        return x + nn.Dense(DIM)(h)


class DecisionTransformer(nn.Module):
    @nn.compact
    def __call__(self, rtg, states, actions, valid):
        b, t = states.shape
        time = nn.Embed(HORIZON, DIM, name="timestep")(jnp.arange(t))[None]
        r = nn.Dense(DIM, name="embed_return")(rtg[..., None]) + time
        s = nn.Embed(CELLS, DIM, name="embed_state")(states) + time
        a = nn.Embed(ACTIONS, DIM, name="embed_action")(actions) + time
        tokens = jnp.stack([r, s, a], axis=2).reshape(b, 3 * t, DIM)
        tokens = nn.LayerNorm(name="embed_norm")(tokens)
        token_valid = jnp.repeat(valid, 3, axis=1)
        mask = nn.combine_masks(nn.make_causal_mask(token_valid),
                                nn.make_attention_mask(token_valid, token_valid))  # fmt: skip
        for i in range(2):
            tokens = Block(name=f"block{i}")(tokens, mask)
        state_outputs = nn.LayerNorm(name="final_norm")(tokens)[:, 1::3]
        return nn.Dense(ACTIONS, name="predict_action")(state_outputs)


model = DecisionTransformer()


@jax.jit
def train_step(state, rtg, states, actions, valid):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, rtg, states, actions, valid)
        losses = optax.softmax_cross_entropy_with_integer_labels(logits, actions)
        return jnp.sum(losses * valid) / valid.sum(), logits

    (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    accuracy = jnp.sum((jnp.argmax(logits, -1) == actions) * valid) / valid.sum()
    return state.apply_gradients(grads=grads), loss, accuracy


predict = jax.jit(model.apply)


def rollout(params, start, target_return):
    rtg, states, actions = [target_return], [start], []
    position, total = start, 0.0
    for t in range(HORIZON):
        pad = HORIZON - t - 1
        logits = predict(
            {"params": params},
            jnp.array([rtg + [0.0] * pad]), jnp.array([states + [0] * pad]),
            jnp.array([actions + [0] + [0] * pad]), jnp.array([[True] * (t + 1) + [False] * pad]),
        )  # fmt: skip
        action = int(jnp.argmax(logits[0, t]))
        actions.append(action)
        position, reward = env_step(position, action)
        total += reward
        if t + 1 < HORIZON:
            rtg.append(rtg[-1] - reward)
            states.append(position)
    return actions, total


def run():
    rs = np.random.RandomState(21)
    states, actions, rewards, valid = trajectories(rs, 6)
    rtg = returns_to_go(rewards)
    out = {"returns_to_go": rtg, "valid": valid}
    params = model.init(jax.random.key(0), rtg, states, actions, valid)["params"]
    layout = nn.make_causal_mask(jnp.repeat(jnp.asarray(valid[:1]), 3, axis=1))
    out["mask_row"] = layout[0, 0, 4]
    out["initial"] = model.apply({"params": params}, rtg, states, actions, valid)
    schedule = optax.linear_onecycle_schedule(30, 3e-3)
    tx = optax.adamw(schedule, weight_decay=1e-4)
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)
    out["rates"] = [schedule(i) for i in (0, 8, 15, 22, 29)]
    out["losses"] = []
    for _ in range(30):
        s, a, r, v = trajectories(rs, 16)
        state, loss, accuracy = train_step(state, returns_to_go(r), s, a, v)
        out["losses"].append([loss, accuracy])
    out["rollouts"] = {f"{start}->{target}": list(rollout(state.params, start, target))
                       for start in (0, 2) for target in (0.0, 2.0)}  # fmt: skip
    return out
