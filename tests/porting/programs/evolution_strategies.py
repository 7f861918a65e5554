"""A policy trained by OpenAI-style evolution strategies, and by REINFORCE with a learned
baseline (ours, written as JAX/Flax black-box optimisation and policy-gradient code is).

The task: a point mass on a line must reach the origin in ten steps; the policy (a Flax MLP)
maps (position, velocity) to an acceleration (ES) or to logits over three pushes (REINFORCE).
Episodes are `lax.scan`s. OpenES flattens the parameters by `ravel_pytree`, draws
antithetic Gaussian perturbations (`jnp.concatenate([eps, -eps])`), scores the population by
`vmap` of the rollout, turns the fitnesses into centered ranks (`argsort` of `argsort`), and
feeds the estimated gradient (negated, with an L2 decay term) to `optax.adam`; the whole
generation is one jitted function. REINFORCE samples actions with `jax.random.categorical`
inside the scan, computes reward-to-go by a reverse `lax.scan` with a discount, and fits the
value baseline by squared error in the same jitted `value_and_grad` (the advantage is
`stop_gradient`-ed). Checks the ranks, the fitness history, the ES gradient, the returns and
losses of REINFORCE, and the final parameters."""

import functools

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from jax import lax
from jax.flatten_util import ravel_pytree

STEPS, DT = 10, 0.2
PUSHES = jnp.array([-1.0, 0.0, 1.0])


class Policy(nn.Module):
    outputs: int = 1

    @nn.compact
    def __call__(self, obs):
        h = nn.tanh(nn.Dense(16)(obs))
        return nn.Dense(self.outputs)(h)


class ActorCritic(nn.Module):
    @nn.compact
    def __call__(self, obs):
        h = nn.tanh(nn.Dense(16)(obs))
        return nn.Dense(3, name="actor")(h), nn.Dense(1, name="critic")(h)[..., 0]


def physics(state, force):
    pos, vel = state
    vel = 0.9 * vel + DT * force
    pos = pos + DT * vel
    return jnp.stack([pos, vel])


def reward(state, force):
    return -(state[0] ** 2) - 0.1 * state[1] ** 2 - 0.01 * force**2


def es_rollout(params, apply_fn, start):
    def step(state, _):
        force = jnp.tanh(apply_fn({"params": params}, state)[0]) * 2.0
        return physics(state, force), reward(state, force)

    _, rewards = lax.scan(step, start, None, length=STEPS)
    return rewards.sum()


def centered_ranks(x):
    ranks = jnp.argsort(jnp.argsort(x)).astype(jnp.float32)
    return ranks / (x.shape[0] - 1) - 0.5


@functools.partial(jax.jit, static_argnums=(4, 5))
def es_generation(flat, opt_state, key, starts, unravel, apply_fn, sigma=0.1, half=8):
    eps = jax.random.normal(key, (half, flat.shape[0]))
    noise = jnp.concatenate([eps, -eps])
    population = flat + sigma * noise

    def fitness(member):
        params = unravel(member)
        return jnp.mean(jax.vmap(lambda s: es_rollout(params, apply_fn, s))(starts))

    scores = jax.vmap(fitness)(population)
    weights = centered_ranks(scores)
    grad = -(weights @ noise) / (2 * half * sigma) + 0.005 * flat
    updates, opt_state = optax.adam(0.05).update(grad, opt_state, flat)
    return optax.apply_updates(flat, updates), opt_state, scores, grad


def pg_rollout(params, apply_fn, start, key):
    def step(state, key):
        logits, value = apply_fn({"params": params}, state)
        action = jax.random.categorical(key, logits)
        force = PUSHES[action]
        return physics(state, force), (state, action, reward(state, force), value)

    _, (states, actions, rewards, values) = lax.scan(step, start, jax.random.split(key, STEPS))
    return states, actions, rewards


def rewards_to_go(rewards, gamma=0.95):
    def back(carry, r):
        carry = r + gamma * carry
        return carry, carry

    _, returns = lax.scan(back, jnp.zeros(()), rewards, reverse=True)
    return returns


@functools.partial(jax.jit, static_argnums=1)
def reinforce_step(params, apply_fn, opt_state, starts, key):
    keys = jax.random.split(key, starts.shape[0])
    states, actions, rewards = jax.vmap(pg_rollout, (None, None, 0, 0))(params, apply_fn,
                                                                        starts, keys)  # fmt: skip
    returns = jax.vmap(rewards_to_go)(rewards)

    def loss_fn(params):
        logits, values = apply_fn({"params": params}, states)
        log_probs = jnp.take_along_axis(jax.nn.log_softmax(logits), actions[..., None], -1)[..., 0]
        advantage = lax.stop_gradient(returns - values)
        policy_loss = -jnp.mean(log_probs * advantage)
        value_loss = jnp.mean((returns - values) ** 2)
        entropy = -jnp.mean(jnp.sum(jax.nn.softmax(logits) * jax.nn.log_softmax(logits), -1))
        return policy_loss + 0.5 * value_loss - 0.01 * entropy, (policy_loss, value_loss, entropy)

    (loss, parts), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
    updates, opt_state = optax.rmsprop(1e-2).update(grads, opt_state, params)
    metrics = {"loss": loss, "parts": jnp.stack(parts), "return": rewards.sum(-1).mean()}
    return optax.apply_updates(params, updates), opt_state, metrics


def run():
    out = {}
    out["ranks"] = centered_ranks(jnp.array([3.0, -1.0, 2.5, 10.0, 0.0]))
    starts = jnp.stack([jnp.array([1.0, 0.0]), jnp.array([-0.8, 0.3]), jnp.array([0.5, -0.5])])

    policy = Policy()
    params = policy.init(jax.random.PRNGKey(0), jnp.zeros(2))["params"]
    flat, unravel = ravel_pytree(params)
    out["num_params"] = flat.shape[0]
    opt_state = optax.adam(0.05).init(flat)
    best = []
    for g in range(5):
        key = jax.random.fold_in(jax.random.PRNGKey(1), g)
        flat, opt_state, scores, grad = es_generation(flat, opt_state, key, starts, unravel,
                                                      policy.apply)  # fmt: skip
        best.append(jnp.stack([scores.max(), scores.mean()]))
    out["es_scores"] = jnp.stack(best)
    out["es_last_grad"] = grad
    final = unravel(flat)
    out["es_params"] = final
    out["es_return"] = jax.vmap(lambda s: es_rollout(final, policy.apply, s))(starts)

    model = ActorCritic()
    params = model.init(jax.random.PRNGKey(2), jnp.zeros(2))["params"]
    opt_state = optax.rmsprop(1e-2).init(params)
    history = []
    for i in range(5):
        params, opt_state, metrics = reinforce_step(params, model.apply, opt_state, starts,
                                                    jax.random.PRNGKey(10 + i))  # fmt: skip
        history.append(metrics)
    out["reinforce"] = jax.tree.map(lambda *xs: jnp.stack(xs), *history)
    out["reinforce_params"] = params
    out["returns_to_go"] = rewards_to_go(jnp.array([1.0, 0.0, -1.0, 2.0]))
    return out
