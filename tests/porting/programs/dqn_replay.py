"""Deep Q-learning on a small chain world written in jnp (ours): the environment's step is a
pure function, rollouts are a `jax.lax.scan` over steps with epsilon-greedy actions (keys split
per step, `jax.random.bernoulli` and `jax.random.randint`), transitions go into a replay buffer
held in a `flax.struct.dataclass` of jnp arrays (written with `.at[].set` at a wrapping index),
minibatches are sampled with `jax.random.choice`. The Q-network is a Flax MLP; the double-DQN
target uses a target network in a `TrainState` subclass, refreshed by
`optax.incremental_update` (Polyak) and, once, by `optax.periodic_update`; the TD loss is
`optax.huber_loss`; the optimizer is `optax.adam` after `optax.clip_by_global_norm`. Checks
the rollouts, the buffer, losses, Q-values and both targets."""

import functools

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax import struct
from flax.training import train_state

SIZE = 6  # chain positions; actions: 0 left, 1 right; reward at the right end
CAPACITY = 32


def env_reset(key):
    return jax.random.randint(key, (), 0, SIZE // 2)


def env_step(position, action):
    moved = jnp.clip(position + 2 * action - 1, 0, SIZE - 1)
    done = moved == SIZE - 1
    reward = jnp.where(done, 1.0, -0.05)
    return jnp.where(done, 0, moved), reward, done


def observe(position):
    return jax.nn.one_hot(position, SIZE)


class QNetwork(nn.Module):
    @nn.compact
    def __call__(self, obs):
        x = nn.relu(nn.Dense(32)(obs))
        return nn.Dense(2)(x)


@struct.dataclass
class Buffer:
    obs: jnp.ndarray
    action: jnp.ndarray
    reward: jnp.ndarray
    next_obs: jnp.ndarray
    done: jnp.ndarray
    index: jnp.ndarray
    full: jnp.ndarray

    @classmethod
    def empty(cls):
        return cls(obs=jnp.zeros((CAPACITY, SIZE)), action=jnp.zeros(CAPACITY, jnp.int32),
                   reward=jnp.zeros(CAPACITY), next_obs=jnp.zeros((CAPACITY, SIZE)),
                   done=jnp.zeros(CAPACITY, bool), index=jnp.array(0),
                   full=jnp.array(False))  # fmt: skip

    def add(self, obs, action, reward, next_obs, done):
        i = self.index
        return self.replace(
            obs=self.obs.at[i].set(obs), action=self.action.at[i].set(action),
            reward=self.reward.at[i].set(reward), next_obs=self.next_obs.at[i].set(next_obs),
            done=self.done.at[i].set(done), index=(i + 1) % CAPACITY,
            full=self.full | (i + 1 == CAPACITY),
        )  # fmt: skip


class DQNState(train_state.TrainState):
    target_params: dict


def act(params, obs, key, epsilon):
    explore_key, action_key = jax.random.split(key)
    greedy = jnp.argmax(QNetwork().apply({"params": params}, obs))
    random_action = jax.random.randint(action_key, (), 0, 2)
    return jnp.where(jax.random.bernoulli(explore_key, epsilon), random_action, greedy)


@functools.partial(jax.jit, static_argnums=4)
def rollout(params, buffer, position, key, steps, epsilon):
    def step(carry, key):
        buffer, position = carry
        obs = observe(position)
        action = act(params, obs, key, epsilon)
        next_position, reward, done = env_step(position, action)
        buffer = buffer.add(obs, action, reward, observe(position + 2 * action - 1), done)
        return (buffer, next_position), (action, reward)

    (buffer, position), trace = jax.lax.scan(step, (buffer, position), jax.random.split(key, steps))
    return buffer, position, trace


def td_loss(params, target_params, batch, gamma):
    q = QNetwork().apply({"params": params}, batch["obs"])
    taken = jnp.take_along_axis(q, batch["action"][:, None], axis=1)[:, 0]
    next_online = QNetwork().apply({"params": params}, batch["next_obs"])
    next_target = QNetwork().apply({"params": target_params}, batch["next_obs"])
    best = jnp.argmax(next_online, axis=1)
    bootstrap = jnp.take_along_axis(next_target, best[:, None], axis=1)[:, 0]
    target = batch["reward"] + gamma * (1.0 - batch["done"]) * bootstrap
    return optax.huber_loss(taken, jax.lax.stop_gradient(target)).mean()


@jax.jit
def learn(state, buffer, key):
    size = jnp.where(buffer.full, CAPACITY, buffer.index)
    weights = (jnp.arange(CAPACITY) < size) / size
    picks = jax.random.choice(key, CAPACITY, (8,), p=weights)
    batch = {k: getattr(buffer, k)[picks] for k in ("obs", "action", "reward", "next_obs", "done")}
    loss, grads = jax.value_and_grad(td_loss)(state.params, state.target_params, batch, 0.9)
    state = state.apply_gradients(grads=grads)
    target = optax.incremental_update(state.params, state.target_params, step_size=0.1)
    return state.replace(target_params=target), loss, picks


def run():
    key = jax.random.key(21)
    key, init_key, reset_key = jax.random.split(key, 3)
    params = QNetwork().init(init_key, jnp.zeros(SIZE))["params"]
    state = DQNState.create(
        apply_fn=None, params=params, target_params=params,
        tx=optax.chain(optax.clip_by_global_norm(10.0), optax.adam(5e-3)),
    )  # fmt: skip
    buffer, position = Buffer.empty(), env_reset(reset_key)
    out = {"traces": [], "losses": [], "picks": []}
    for epoch in range(3):
        key, roll_key, learn_key = jax.random.split(key, 3)
        epsilon = 1.0 - 0.3 * epoch
        buffer, position, trace = rollout(state.params, buffer, position, roll_key, 12, epsilon)
        out["traces"].append(trace)
        for _ in range(2):
            learn_key, sub = jax.random.split(learn_key)
            state, loss, picks = learn(state, buffer, sub)
            out["losses"].append(loss)
            out["picks"].append(picks)
    out["buffer"] = {"index": buffer.index, "full": buffer.full, "actions": buffer.action,
                     "rewards": buffer.reward, "done": buffer.done}  # fmt: skip
    out["q"] = QNetwork().apply({"params": state.params}, jnp.eye(SIZE))
    out["target"] = jax.tree.leaves(state.target_params)
    hard = optax.periodic_update(state.params, state.target_params, state.step, 3)
    out["periodic"] = [state.step, jax.tree.leaves(hard)[0]]
    out["buffer_leaves"] = len(jax.tree.leaves(buffer))
    return out
