"""A Hamiltonian neural network learning a pendulum's dynamics, and a Lagrangian one (ours,
written as JAX physics-informed learning code is).

The HNN is a Flax MLP giving a scalar H(q, p); the vector field is the symplectic gradient
`(dH/dp, -dH/dq)` from `jax.grad` wrt the *inputs* inside the loss, `vmap`ped over a batch of
states, and the loss compares it with the true time derivatives, so training differentiates a
gradient (`value_and_grad` of a loss built on `grad`). Trajectories are integrated by a
leapfrog (`lax.fori_loop`) and by midpoint steps in nested `lax.scan`s, and the learned energy's
drift is compared with a plain MLP's that predicts the derivatives directly. The LNN takes
a learned L(q, qdot) and gets the acceleration from `jax.hessian` and `jax.jacfwd(jax.grad)`
(Euler-Lagrange: `qddot = inv(d2L/dqdot2) (dL/dq - d2L/dqdot dq qdot)`), with `jnp.linalg.pinv`.
`optax.adam` with `optax.clip_by_global_norm`. Checks the data, the losses of both models,
the fields, the energy drifts, the LNN's acceleration and the parameters."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from jax import lax


def true_hamiltonian(state):
    q, p = state
    return p**2 / 2 + (1 - jnp.cos(q))


def symplectic_field(hamiltonian, state):
    dq, dp = jax.grad(hamiltonian)(state)
    return jnp.stack([dp, -dq])


class Energy(nn.Module):
    @nn.compact
    def __call__(self, state):
        h = nn.softplus(nn.Dense(24)(state))
        h = nn.softplus(nn.Dense(24)(h))
        return nn.Dense(1)(h)[..., 0]


class Direct(nn.Module):
    @nn.compact
    def __call__(self, state):
        return nn.Dense(2)(nn.tanh(nn.Dense(24)(state)))


hnn, direct = Energy(), Direct()


def hnn_field(params, state):
    return symplectic_field(lambda s: hnn.apply({"params": params}, s), state)


def make_data(key, n=32):
    states = jax.random.uniform(key, (n, 2), minval=-2.0, maxval=2.0)
    return states, jax.vmap(lambda s: symplectic_field(true_hamiltonian, s))(states)


tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-2))


@jax.jit
def hnn_step(params, opt_state, states, derivs):
    def loss_fn(params):
        pred = jax.vmap(lambda s: hnn_field(params, s))(states)
        return jnp.mean((pred - derivs) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


@jax.jit
def direct_step(params, opt_state, states, derivs):
    def loss_fn(params):
        return jnp.mean((direct.apply({"params": params}, states) - derivs) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def leapfrog(field_fn, state, dt, steps):
    """Kick-drift-kick on (q, p) using the field's p-derivative as the force."""

    def body(_, s):
        p_half = s[1] + dt / 2 * field_fn(s)[1]
        q = s[0] + dt * field_fn(jnp.stack([s[0], p_half]))[0]
        p = p_half + dt / 2 * field_fn(jnp.stack([q, p_half]))[1]
        return jnp.stack([q, p])

    return lax.fori_loop(0, steps, body, state)


def trajectory(field_fn, start, dt=0.05, saves=5, every=8):
    """Midpoint (RK2) steps by `lax.scan`, the state saved every `every` steps."""

    def stretch(s, _):
        def step(s, _):
            return s + dt * field_fn(s + dt / 2 * field_fn(s)), None

        s = lax.scan(step, s, None, length=every)[0]
        return s, s

    return jnp.concatenate([start[None], lax.scan(stretch, start, None, length=saves - 1)[1]])


def lagrangian(params, q, qdot):
    return hnn.apply({"params": params}, jnp.stack([q, qdot]))


def lnn_acceleration(params, q, qdot):
    hess = jax.hessian(lagrangian, argnums=2)(params, q, qdot)
    dl_dq = jax.grad(lagrangian, argnums=1)(params, q, qdot)
    mixed = jax.jacfwd(jax.grad(lagrangian, argnums=2), argnums=1)(params, q, qdot)
    return jnp.linalg.pinv(hess[None, None])[0, 0] * (dl_dq - mixed * qdot)


def run():
    out = {}
    states, derivs = make_data(jax.random.PRNGKey(0))
    out["derivs"] = derivs[:4]
    params = hnn.init(jax.random.PRNGKey(1), states[0])["params"]
    dparams = direct.init(jax.random.PRNGKey(2), states[0])["params"]
    opt_state, dopt_state = tx.init(params), tx.init(dparams)
    losses, dlosses = [], []
    for _ in range(10):
        params, opt_state, loss = hnn_step(params, opt_state, states, derivs)
        dparams, dopt_state, dloss = direct_step(dparams, dopt_state, states, derivs)
        losses.append(loss)
        dlosses.append(dloss)
    out["hnn_losses"] = jnp.stack(losses)
    out["direct_losses"] = jnp.stack(dlosses)
    probe = jnp.array([0.7, -0.3])
    out["fields"] = jnp.stack([hnn_field(params, probe), direct.apply({"params": dparams}, probe),
                               symplectic_field(true_hamiltonian, probe)])  # fmt: skip

    # integrate: the leapfrog with the learned field, odeint with both
    start = jnp.array([1.0, 0.0])
    end = leapfrog(lambda s: hnn_field(params, s), start, 0.1, 20)
    out["leapfrog_end"] = end
    hnn_path = trajectory(lambda s: hnn_field(params, s), start)
    direct_path = trajectory(lambda s: direct.apply({"params": dparams}, s), start)
    out["hnn_path"] = hnn_path
    out["direct_path"] = direct_path
    learned_energy = jax.vmap(lambda s: hnn.apply({"params": params}, s))
    out["hnn_energy_drift"] = learned_energy(hnn_path) - learned_energy(hnn_path[:1])
    out["true_energy"] = jax.vmap(true_hamiltonian)(direct_path)

    # a Lagrangian network's acceleration by Euler-Lagrange
    out["lnn_acceleration"] = jax.vmap(lnn_acceleration, (None, 0, 0))(
        params, states[:5, 0], states[:5, 1]
    )
    out["params"] = params
    out["direct_params"] = dparams
    return out
