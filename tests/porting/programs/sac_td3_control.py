"""Soft actor-critic and TD3 on a toy continuous-control task (ours): a point mass pushed
towards the origin, its dynamics in jnp, a replay buffer of random-policy transitions
sampled by `jax.random.randint` inside the jitted update. SAC: a tanh-squashed Gaussian
actor (`log_std` clipped, the reparameterised sample, its log-probability from
`jax.scipy.stats.norm.logpdf` with the tanh correction written stably by `softplus`, checked
against `log(1 - tanh^2)`), twin critics as one `nn.vmap`-ed module (`variable_axes=
{"params": 0}`, `split_rngs`), clipped double-Q targets from target critics updated by
`optax.incremental_update`, a learned temperature against a target entropy, three
`optax.adam` states in a `flax.struct.dataclass` carried through one jitted update. TD3:
a deterministic actor, target-policy smoothing by clipped noise, the actor and the target
networks updated every second step (`optax.periodic_update` would update the targets'
copy; TD3 averages them, so a Python flag selects a second jitted update). Checks the
log-probabilities, the critics' shapes, losses, temperatures and the trained actors'
actions."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax import struct
from jax.scipy.stats import norm


def env_step(state, action):
    """A point mass: state (position, velocity), the action a force in [-1, 1]."""
    position, velocity = state[..., 0], state[..., 1]
    velocity = velocity + 0.2 * action[..., 0]
    position = position + 0.2 * velocity
    reward = -(position**2) - 0.1 * action[..., 0] ** 2
    return jnp.stack([position, velocity], -1), reward, jnp.abs(position) > 2.0


class Actor(nn.Module):
    deterministic: bool = False

    @nn.compact
    def __call__(self, state):
        h = nn.relu(nn.Dense(32)(state))
        h = nn.relu(nn.Dense(32)(h))
        if self.deterministic:
            return jnp.tanh(nn.Dense(1, name="mean")(h))
        mean = nn.Dense(1, name="mean")(h)
        log_std = jnp.clip(nn.Dense(1, name="log_std")(h), -5.0, 2.0)
        return mean, log_std


class Critic(nn.Module):
    @nn.compact
    def __call__(self, state, action):
        h = jnp.concatenate([state, action], axis=-1)
        h = nn.relu(nn.Dense(32)(h))
        h = nn.relu(nn.Dense(32)(h))
        return nn.Dense(1)(h)[..., 0]


TwinCritic = nn.vmap(Critic, variable_axes={"params": 0}, split_rngs={"params": True},
                     in_axes=None, out_axes=0, axis_size=2)  # fmt: skip


def squash(mean, log_std, key):
    """A tanh-squashed reparameterised sample and its log-probability."""
    noise = jax.random.normal(key, mean.shape)
    raw = mean + jnp.exp(log_std) * noise
    logp = norm.logpdf(raw, mean, jnp.exp(log_std)).sum(-1)
    logp = logp - jnp.sum(2.0 * (np.log(2.0) - raw - jax.nn.softplus(-2.0 * raw)), axis=-1)
    return jnp.tanh(raw), logp, raw


@struct.dataclass
class Learner:
    actor: dict
    critic: dict
    target: dict
    log_alpha: jnp.ndarray
    opt: tuple
    step: jnp.ndarray


actor, critic = Actor(), TwinCritic()
actor_tx, critic_tx, alpha_tx = optax.adam(3e-3), optax.adam(3e-3), optax.adam(1e-2)


def sample(buffer, key, size):
    index = jax.random.randint(key, (size,), 0, buffer["state"].shape[0])
    return jax.tree.map(lambda x: x[index], buffer)


@jax.jit
def sac_update(learner, buffer, key):
    batch_key, next_key, pi_key = jax.random.split(key, 3)
    batch = sample(buffer, batch_key, 32)
    alpha = jnp.exp(learner.log_alpha)
    mean, log_std = actor.apply({"params": learner.actor}, batch["next"])
    next_action, next_logp, _ = squash(mean, log_std, next_key)
    next_q = critic.apply({"params": learner.target}, batch["next"], next_action).min(0)
    target = batch["reward"] + 0.95 * (1.0 - batch["done"]) * (next_q - alpha * next_logp)

    def critic_loss(params):
        q = critic.apply({"params": params}, batch["state"], batch["action"])
        return jnp.mean((q - target[None]) ** 2)

    def actor_loss(params):
        mean, log_std = actor.apply({"params": params}, batch["state"])
        action, logp, _ = squash(mean, log_std, pi_key)
        q = critic.apply({"params": learner.critic}, batch["state"], action).min(0)
        return jnp.mean(alpha * logp - q), logp

    def alpha_loss(log_alpha, logp):
        return -jnp.mean(log_alpha * jax.lax.stop_gradient(logp - 1.0))

    c_loss, c_grads = jax.value_and_grad(critic_loss)(learner.critic)
    (a_loss, logp), a_grads = jax.value_and_grad(actor_loss, has_aux=True)(learner.actor)
    t_loss, t_grad = jax.value_and_grad(alpha_loss)(learner.log_alpha, logp)
    a_opt, c_opt, t_opt = learner.opt
    a_updates, a_opt = actor_tx.update(a_grads, a_opt)
    c_updates, c_opt = critic_tx.update(c_grads, c_opt)
    t_updates, t_opt = alpha_tx.update(t_grad, t_opt)
    new_critic = optax.apply_updates(learner.critic, c_updates)
    learner = learner.replace(
        actor=optax.apply_updates(learner.actor, a_updates), critic=new_critic,
        target=optax.incremental_update(new_critic, learner.target, 0.05),
        log_alpha=optax.apply_updates(learner.log_alpha, t_updates),
        opt=(a_opt, c_opt, t_opt), step=learner.step + 1,
    )  # fmt: skip
    return learner, {"critic": c_loss, "actor": a_loss, "alpha": t_loss,
                     "entropy": -logp.mean()}  # fmt: skip


td3_actor = Actor(deterministic=True)


@functools.partial(jax.jit, static_argnums=3)
def td3_update(state, buffer, key, update_actor):
    actor_params, critic_params, actor_target, critic_target, opts = state
    batch_key, noise_key = jax.random.split(key)
    batch = sample(buffer, batch_key, 32)
    noise = jnp.clip(0.2 * jax.random.normal(noise_key, batch["action"].shape), -0.5, 0.5)
    next_action = jnp.clip(td3_actor.apply({"params": actor_target}, batch["next"]) + noise,
                           -1.0, 1.0)  # fmt: skip
    next_q = critic.apply({"params": critic_target}, batch["next"], next_action).min(0)
    target = batch["reward"] + 0.95 * (1.0 - batch["done"]) * next_q

    def critic_loss(params):
        q = critic.apply({"params": params}, batch["state"], batch["action"])
        return jnp.mean((q - target[None]) ** 2)

    c_loss, grads = jax.value_and_grad(critic_loss)(critic_params)
    updates, c_opt = critic_tx.update(grads, opts[1])
    critic_params = optax.apply_updates(critic_params, updates)
    a_opt, a_loss = opts[0], jnp.array(0.0)
    if update_actor:

        def actor_loss(params):
            action = td3_actor.apply({"params": params}, batch["state"])
            return -critic.apply({"params": critic_params}, batch["state"], action)[0].mean()

        a_loss, grads = jax.value_and_grad(actor_loss)(actor_params)
        updates, a_opt = actor_tx.update(grads, a_opt)
        actor_params = optax.apply_updates(actor_params, updates)
        actor_target = optax.incremental_update(actor_params, actor_target, 0.05)
        critic_target = optax.incremental_update(critic_params, critic_target, 0.05)
    return (actor_params, critic_params, actor_target, critic_target, (a_opt, c_opt)), [
        c_loss, a_loss]  # fmt: skip


def random_buffer(key, size=128):
    state_key, action_key = jax.random.split(key)
    state = jax.random.uniform(state_key, (size, 2), minval=-1.5, maxval=1.5)
    action = jax.random.uniform(action_key, (size, 1), minval=-1.0, maxval=1.0)
    after, reward, done = env_step(state, action)
    return {"state": state, "action": action, "reward": reward, "next": after,
            "done": done.astype(jnp.float32)}  # fmt: skip


def run():
    key = jax.random.key(7)
    buffer = random_buffer(jax.random.fold_in(key, 0))
    states = buffer["state"][:6]
    mean, log_std = jnp.array([[0.3], [-1.0], [2.0]]), jnp.array([[-0.5], [0.0], [0.4]])
    action, logp, raw = squash(mean, log_std, jax.random.key(1))
    naive = norm.logpdf(raw, mean, jnp.exp(log_std)).sum(-1) - jnp.log(
        1.0 - jnp.tanh(raw) ** 2 + 1e-6).sum(-1)  # fmt: skip
    out = {"squash": [action, logp, naive]}
    actor_params = actor.init(jax.random.key(2), states)["params"]
    critic_params = critic.init(jax.random.key(3), states, buffer["action"][:6])["params"]
    out["critic_shapes"] = jax.tree.map(lambda x: list(x.shape), critic_params)
    out["twin_q"] = critic.apply({"params": critic_params}, states, buffer["action"][:6])
    log_alpha = jnp.array(0.0)
    learner = Learner(
        actor=actor_params, critic=critic_params, target=critic_params, log_alpha=log_alpha,
        opt=(actor_tx.init(actor_params), critic_tx.init(critic_params), alpha_tx.init(log_alpha)),
        step=jnp.array(0),
    )  # fmt: skip
    out["sac"] = []
    for i in range(12):
        learner, metrics = sac_update(learner, buffer, jax.random.fold_in(key, i + 1))
        out["sac"].append(metrics)
    out["alpha"] = jnp.exp(learner.log_alpha)
    out["sac_actions"] = actor.apply({"params": learner.actor}, states)
    d_params = td3_actor.init(jax.random.key(4), states)["params"]
    state = (d_params, critic_params, d_params, critic_params,
             (actor_tx.init(d_params), critic_tx.init(critic_params)))  # fmt: skip
    out["td3"] = []
    for i in range(8):
        state, losses = td3_update(state, buffer, jax.random.fold_in(key, 100 + i), i % 2 == 1)
        out["td3"].append(losses)
    out["td3_actions"] = td3_actor.apply({"params": state[0]}, states)
    out["td3_targets"] = jax.tree.leaves(state[2])
    return out
