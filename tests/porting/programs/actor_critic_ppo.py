"""Proximal policy optimization on a toy game (ours). An actor-critic network (a strided `Conv`
on uint8 frames, a shared `Dense` torso, a `log_softmax` policy head and a value head) acts
through a `jit` with the apply function as a static argument; actions are drawn on the host
from `jax.device_get`'s probabilities. Advantages are generalized advantage estimates: a
reversed `lax.scan` per agent under `jax.vmap` over the agents' axis, inside `jit`. The loss
clips the probability ratio with `lax.clamp`; one epoch of minibatch steps is one `jit` with a
static minibatch size and traced keyword arguments, Adam on a linear schedule; the parameters
are a `FrozenDict`. Checks the trajectories, losses, a hand-sized GAE, the parameters, their
paths and type."""

import functools
import operator

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.core import FrozenDict, freeze
from flax.training import train_state

ACTIONS = 3
AGENTS = 2
HORIZON = 4


class ActorCritic(nn.Module):
    actions: int

    @nn.compact
    def __call__(self, frames):
        x = frames.astype(jnp.float32) / 255.0
        x = nn.relu(nn.Conv(4, (3, 3), strides=(2, 2), name="eye")(x))
        x = nn.relu(nn.Dense(16, name="torso")(x.reshape((x.shape[0], -1))))
        log_probs = nn.log_softmax(nn.Dense(self.actions, name="policy")(x))
        return log_probs, nn.Dense(1, name="critic")(x)[:, 0]


class ToyGame:
    """Frames of a fixed random pattern shifted by the step; a reward when the action matches
    the step modulo the number of actions; an episode ends every third step."""

    def __init__(self, seed):
        self.pattern = np.random.RandomState(seed).randint(0, 256, (6, 6, 2)).astype(np.uint8)
        self.t = 0

    def frame(self):
        return np.roll(self.pattern, self.t, axis=0)

    def step(self, action):
        reward = float(action == self.t % ACTIONS)
        self.t += 1
        return reward, self.t % 3 == 0


@functools.partial(jax.jit, static_argnums=0)
def act(apply_fn, params, frames):
    return apply_fn({"params": params}, frames)


def collect(state, games, rng):
    """HORIZON steps of every game: frames, actions, log-probabilities, values, rewards and
    discounts (time major), and the values after the last step."""
    rows = []
    for _ in range(HORIZON):
        frames = np.stack([g.frame() for g in games])
        log_probs, values = jax.device_get(act(state.apply_fn, state.params, frames))
        probs = np.exp(log_probs.astype(np.float64))
        actions = np.array([rng.choice(ACTIONS, p=p / p.sum()) for p in probs])
        outcome = [g.step(a) for g, a in zip(games, actions)]
        rows.append(
            (frames, actions, log_probs[np.arange(len(games)), actions], values,
             np.array([r for r, _ in outcome], np.float32),
             np.array([0.0 if done else 1.0 for _, done in outcome], np.float32))
        )  # fmt: skip
    _, last_values = act(state.apply_fn, state.params, np.stack([g.frame() for g in games]))
    return [np.stack(column) for column in zip(*rows)], np.asarray(last_values)


@jax.jit
@functools.partial(jax.vmap, in_axes=(1, 1, 1, None, None), out_axes=1)
def gae(rewards, discounts, values, gamma, lam):
    """Advantages of one agent: rewards and discounts (T,), values (T + 1,)."""

    def back(next_advantage, t):
        delta = rewards[t] + gamma * discounts[t] * values[t + 1] - values[t]
        advantage = delta + gamma * lam * discounts[t] * next_advantage
        return advantage, advantage

    _, advantages = jax.lax.scan(back, jnp.zeros(()), jnp.arange(rewards.shape[0]), reverse=True)
    return advantages


def ppo_loss(params, apply_fn, frames, actions, old_log_probs, returns, advantages, clip,
             value_weight, entropy_weight):  # fmt: skip
    log_probs, values = apply_fn({"params": params}, frames)
    taken = jnp.take_along_axis(log_probs, actions[:, None], axis=1)[:, 0]
    ratio = jnp.exp(taken - old_log_probs)
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    clipped = jax.lax.clamp(1.0 - clip, ratio, 1.0 + clip)
    surrogate = -jnp.mean(jnp.minimum(ratio * advantages, clipped * advantages))
    value_loss = jnp.mean(jnp.square(returns - values))
    entropy = -jnp.mean(jnp.sum(jnp.exp(log_probs) * log_probs, axis=1))
    return surrogate + value_weight * value_loss - entropy_weight * entropy


@functools.partial(jax.jit, static_argnums=2)
def train_epoch(state, data, minibatch, *, clip, value_weight, entropy_weight):
    count = data[0].shape[0] // minibatch
    data = jax.tree_util.tree_map(lambda x: x.reshape((count, minibatch) + x.shape[1:]), data)
    total = 0.0
    for i in range(count):
        part = jax.tree_util.tree_map(operator.itemgetter(i), data)
        loss, grads = jax.value_and_grad(ppo_loss)(
            state.params, state.apply_fn, *part, clip, value_weight, entropy_weight
        )
        state = state.apply_gradients(grads=grads)
        total = total + loss
    return state, total / count


def run():
    rng = np.random.RandomState(3)
    model = ActorCritic(ACTIONS)
    params = model.init(jax.random.key(2), jnp.zeros((1, 6, 6, 2), jnp.uint8))["params"]
    schedule = optax.linear_schedule(1e-2, 0.0, transition_steps=8)
    state = train_state.TrainState.create(
        apply_fn=model.apply, params=freeze(params), tx=optax.adam(schedule)
    )
    games = [ToyGame(seed) for seed in range(AGENTS)]
    out = {"losses": [], "trajectories": []}
    for iteration in range(2):
        (frames, actions, log_probs, values, rewards, discounts), last = collect(state, games, rng)
        all_values = np.concatenate([values, last[None]])
        advantages = np.asarray(gae(rewards, discounts, all_values, 0.9, 0.8))
        returns = advantages + values
        flat = lambda x: x.reshape((AGENTS * HORIZON,) + x.shape[2:])  # noqa: E731
        data = tuple(map(flat, (frames, actions, log_probs, returns, advantages)))
        out["trajectories"].append([actions, log_probs, advantages, returns])
        for _ in range(2):
            order = rng.permutation(AGENTS * HORIZON)
            data = tuple(x[order] for x in data)
            state, loss = train_epoch(
                state, data, 4, clip=0.2 * (1 - iteration / 2), value_weight=0.5,
                entropy_weight=0.01,
            )  # fmt: skip
            out["losses"].append(loss)
    out["gae"] = gae(
        np.arange(6.0).reshape(3, 2), np.array([[1.0, 1.0], [0.0, 1.0], [1.0, 0.0]]),
        np.linspace(0.0, 1.0, 8).reshape(4, 2), 0.9, 0.8,
    )  # fmt: skip
    flat_params = jax.tree_util.tree_flatten_with_path(state.params)[0]
    out["params"] = [leaf for _, leaf in flat_params]
    out["paths"] = [jax.tree_util.keystr(path) for path, _ in flat_params]
    out["frozen"] = isinstance(state.params, FrozenDict)
    out["step"] = state.step
    return out
