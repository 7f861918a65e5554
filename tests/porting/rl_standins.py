"""Small stand-ins for what CleanRL's JAX programs import besides JAX (gymnasium, Stable
Baselines 3's `ReplayBuffer`, TensorBoard's `SummaryWriter`): plain numpy, shared by JAX's
recording run and numbax's test run, so both see the same environments and the same samples.

- `gym`: `make` of CartPole-v1 and Pendulum-v1 (gymnasium's classic-control dynamics, their
  time limits), `spaces.Discrete`/`spaces.Box` seeded by `seed`, `wrappers.
  RecordEpisodeStatistics` (`info['episode']` with the return and length, no wall time) and
  `vector.SyncVectorEnv` with gymnasium 0.29's autoreset (`final_observation`, `final_info`).
- `ReplayBuffer`: SB3's buffer layout (`(size, n_envs, ...)`, float32 rewards and dones) and
  sampling (numpy's global generator); its samples' arrays have torch's `.numpy()`.
- `SummaryWriter`: keeps what `add_scalar` was given (`scalars`), the wall-clock
  steps-per-second scalar left out.
"""

import math
import types
from typing import NamedTuple

import numpy as np


class Discrete:
    """`gymnasium.spaces.Discrete(n)`: int64 samples from its own seeded generator."""

    def __init__(self, n: int):
        self.n, self.shape, self.dtype = n, (), np.dtype(np.int64)
        self.np_random = np.random.default_rng(0)

    def seed(self, seed: int) -> None:
        self.np_random = np.random.default_rng(seed)

    def sample(self) -> np.int64:
        return np.int64(self.np_random.integers(self.n))


class Box:
    """`gymnasium.spaces.Box(low, high, shape, dtype)`: bounded uniform samples."""

    def __init__(self, low, high, shape=None, dtype=np.float32):
        self.dtype = np.dtype(dtype)
        shape = np.shape(low) if shape is None else tuple(shape)
        self.low = np.broadcast_to(np.asarray(low, self.dtype), shape).copy()
        self.high = np.broadcast_to(np.asarray(high, self.dtype), shape).copy()
        self.shape = shape
        self.np_random = np.random.default_rng(0)

    def seed(self, seed: int) -> None:
        self.np_random = np.random.default_rng(seed)

    def sample(self) -> np.ndarray:
        return self.np_random.uniform(self.low, self.high, self.shape).astype(self.dtype)


class CartPole:
    """gymnasium's CartPole-v1 (Euler steps, 12-degree and 2.4-unit limits)."""

    max_episode_steps = 500

    def __init__(self):
        self.action_space = Discrete(2)
        high = np.array(
            [4.8, np.finfo(np.float32).max, 24 * math.pi / 360, np.finfo(np.float32).max]
        )
        self.observation_space = Box(-high, high, dtype=np.float32)
        self.np_random = np.random.default_rng(0)

    def reset(self, seed=None):
        if seed is not None:
            self.np_random = np.random.default_rng(seed)
        self.state = self.np_random.uniform(-0.05, 0.05, size=(4,))
        return np.array(self.state, dtype=np.float32), {}

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = 10.0 if action == 1 else -10.0
        costheta, sintheta = math.cos(theta), math.sin(theta)
        temp = (force + 0.05 * theta_dot**2 * sintheta) / 1.1
        thetaacc = (9.8 * sintheta - costheta * temp) / (
            0.5 * (4.0 / 3.0 - 0.1 * costheta**2 / 1.1)
        )
        xacc = temp - 0.05 * thetaacc * costheta / 1.1
        x, x_dot = x + 0.02 * x_dot, x_dot + 0.02 * xacc
        theta, theta_dot = theta + 0.02 * theta_dot, theta_dot + 0.02 * thetaacc
        self.state = (x, x_dot, theta, theta_dot)
        terminated = bool(abs(x) > 2.4 or abs(theta) > 12 * 2 * math.pi / 360)
        return np.array(self.state, dtype=np.float32), 1.0, terminated, False, {}


class Pendulum:
    """gymnasium's Pendulum-v1 (torque in [-2, 2]; reward: minus angle, speed and torque costs)."""

    max_episode_steps = 200

    def __init__(self):
        self.action_space = Box(-2.0, 2.0, shape=(1,), dtype=np.float32)
        high = np.array([1.0, 1.0, 8.0], dtype=np.float32)
        self.observation_space = Box(-high, high, dtype=np.float32)
        self.np_random = np.random.default_rng(0)

    def reset(self, seed=None):
        if seed is not None:
            self.np_random = np.random.default_rng(seed)
        self.state = self.np_random.uniform(low=[-math.pi, -1.0], high=[math.pi, 1.0])
        return self._obs(), {}

    def _obs(self):
        th, thdot = self.state
        return np.array([math.cos(th), math.sin(th), thdot], dtype=np.float32)

    def step(self, u):
        th, thdot = self.state
        u = float(np.clip(u, -2.0, 2.0)[0])
        costs = ((th + math.pi) % (2 * math.pi) - math.pi) ** 2 + 0.1 * thdot**2 + 0.001 * u**2
        thdot = float(np.clip(thdot + (3 * 10.0 / 2 * math.sin(th) + 3.0 * u) * 0.05, -8, 8))
        self.state = np.array([th + thdot * 0.05, thdot])
        return self._obs(), -costs, False, False, {}


class TimeLimitedEnv:
    """`gym.make(env_id)`: the environment with its time limit (truncation)."""

    def __init__(self, env):
        self.env, self.action_space = env, env.action_space
        self.observation_space = env.observation_space

    def reset(self, seed=None):
        self.steps = 0
        return self.env.reset(seed=seed)

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.steps += 1
        return obs, reward, terminated, truncated or self.steps >= self.env.max_episode_steps, info


class RecordEpisodeStatistics:
    """`gym.wrappers.RecordEpisodeStatistics`: `info['episode']` when an episode ends."""

    def __init__(self, env):
        self.env, self.action_space = env, env.action_space
        self.observation_space = env.observation_space

    def reset(self, seed=None):
        self.episode_return, self.episode_length = 0.0, 0
        return self.env.reset(seed=seed)

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.episode_return += reward
        self.episode_length += 1
        if terminated or truncated:
            info["episode"] = {
                "r": np.array([self.episode_return], np.float32),
                "l": np.array([self.episode_length], np.int32),
            }
        return obs, reward, terminated, truncated, info


class SyncVectorEnv:
    """`gym.vector.SyncVectorEnv` with gymnasium 0.29's autoreset and infos."""

    def __init__(self, thunks):
        self.envs = [thunk() for thunk in thunks]
        self.num_envs = len(self.envs)
        self.single_action_space = self.envs[0].action_space
        self.single_observation_space = self.envs[0].observation_space
        single = self.single_action_space
        if isinstance(single, Box):
            self.action_space = Box(
                np.stack([single.low] * self.num_envs), np.stack([single.high] * self.num_envs)
            )
            self.action_space.seed(1234)

    def reset(self, seed=None):
        results = [
            env.reset(seed=None if seed is None else seed + i) for i, env in enumerate(self.envs)
        ]
        return np.stack([obs for obs, _ in results]), {}

    def step(self, actions):
        observations, rewards, terminations, truncations, infos = [], [], [], [], {}
        for i, (env, action) in enumerate(zip(self.envs, actions)):
            obs, reward, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                final_obs, final_info = obs, info
                obs, _ = env.reset()
                infos.setdefault("final_observation", np.full(self.num_envs, None, object))[i] = (
                    final_obs
                )
                infos.setdefault("final_info", np.full(self.num_envs, None, object))[i] = final_info
            observations.append(obs)
            rewards.append(reward)
            terminations.append(terminated)
            truncations.append(truncated)
        return (np.stack(observations), np.array(rewards), np.array(terminations),
                np.array(truncations), infos)  # fmt: skip

    def close(self) -> None:
        pass


def make(env_id: str, render_mode=None) -> TimeLimitedEnv:
    """`gym.make`: CartPole-v1 or Pendulum-v1 under their time limits."""
    return TimeLimitedEnv({"CartPole-v1": CartPole, "Pendulum-v1": Pendulum}[env_id]())


gym = types.SimpleNamespace(
    make=make,
    spaces=types.SimpleNamespace(Discrete=Discrete, Box=Box),
    wrappers=types.SimpleNamespace(RecordEpisodeStatistics=RecordEpisodeStatistics),
    vector=types.SimpleNamespace(SyncVectorEnv=SyncVectorEnv),
)


class Tensor(np.ndarray):
    """A sample's array, with torch's `.numpy()`."""

    def numpy(self) -> np.ndarray:
        return np.asarray(self)


class ReplayBufferSamples(NamedTuple):
    observations: Tensor
    actions: Tensor
    next_observations: Tensor
    dones: Tensor
    rewards: Tensor


class ReplayBuffer:
    """SB3's `ReplayBuffer` for one environment: a ring of transitions, uniform samples."""

    def __init__(self, buffer_size, observation_space, action_space, device="cpu", n_envs=1,
                 handle_timeout_termination=True):  # fmt: skip
        self.buffer_size, self.n_envs, self.pos, self.full = (
            max(buffer_size // n_envs, 1),
            n_envs,
            0,
            False,
        )
        action_dim = 1 if isinstance(action_space, Discrete) else int(np.prod(action_space.shape))
        action_dtype = np.float32 if action_space.dtype == np.float64 else action_space.dtype
        shape = (self.buffer_size, n_envs)
        self.observations = np.zeros(shape + observation_space.shape, observation_space.dtype)
        self.next_observations = np.zeros_like(self.observations)
        self.actions = np.zeros(shape + (action_dim,), action_dtype)
        self.rewards = np.zeros(shape, np.float32)
        self.dones = np.zeros(shape, np.float32)

    def add(self, obs, next_obs, action, reward, done, infos) -> None:
        self.observations[self.pos] = np.array(obs)
        self.next_observations[self.pos] = np.array(next_obs)
        self.actions[self.pos] = np.array(action).reshape(self.actions.shape[1:])
        self.rewards[self.pos] = np.array(reward)
        self.dones[self.pos] = np.array(done)
        self.pos += 1
        if self.pos == self.buffer_size:
            self.full, self.pos = True, 0

    def sample(self, batch_size: int) -> ReplayBufferSamples:
        batch_inds = np.random.randint(
            0, self.buffer_size if self.full else self.pos, size=batch_size
        )
        env_inds = np.random.randint(0, high=self.n_envs, size=(len(batch_inds),))
        data = (
            self.observations[batch_inds, env_inds],
            self.actions[batch_inds, env_inds],
            self.next_observations[batch_inds, env_inds],
            self.dones[batch_inds, env_inds].reshape(-1, 1),
            self.rewards[batch_inds, env_inds].reshape(-1, 1),
        )
        return ReplayBufferSamples(*(np.array(a).view(Tensor) for a in data))


class SummaryWriter:
    """TensorBoard's writer: the scalars given, in order (`charts/SPS`, wall time, left out)."""

    def __init__(self, log_dir: str):
        self.scalars = []

    def add_text(self, tag: str, text: str) -> None:
        pass

    def add_scalar(self, tag: str, value, step: int) -> None:
        if tag != "charts/SPS":
            self.scalars.append([tag, np.asarray(value).item(), step])  # a one-element array too

    def close(self) -> None:
        pass
