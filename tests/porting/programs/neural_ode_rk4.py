"""A neural ODE fitted through a fixed-step RK4 solver, and a continuous normalising flow
(ours, in the style of rtqichen/torchdiffeq `examples/ode_demo.py` (the spiral y' = A y^3)
and of the FFJORD-style CNF tutorials written for JAX with fixed-step integrators).

The vector field is a Flax MLP of (t, y); `rk4` integrates it by `lax.scan` over the time grid
(`unroll=`), each step wrapped in `jax.checkpoint` with a policy
(`jax.checkpoint_policies.dots_with_no_batch_dims_saveable`) and compared with the plain step's
gradient; trajectories of several initial states by `jax.vmap` and `jax.lax.map(batch_size=)`.
Training is discretise-then-optimise: jitted `optax.sgd` (momentum) steps of the trajectory's
L1 error against the true spiral (SGD, not Adam: saturated units have gradients of round-off
size, which Adam would turn into full steps). The CNF integrates
(z, log p) with the divergence from the exact trace (`jnp.trace(jax.jacfwd(f))`) or
Hutchinson's estimate (`jax.jvp` with Rademacher probes from
typed keys, `jax.random.key`/`split`), and `jnp.vectorize(signature=)` for the per-sample
dynamics. Checks trajectories, gradients (with and without remat), losses, log-densities and
the parameters."""

import functools

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn

TRUE_A = jnp.array([[-0.1, 2.0], [-2.0, -0.1]])


def true_field(t, y):
    return (y**3) @ TRUE_A


def rk4_step(f, y, t, dt):
    k1 = f(t, y)
    k2 = f(t + dt / 2, y + dt / 2 * k1)
    k3 = f(t + dt / 2, y + dt / 2 * k2)
    k4 = f(t + dt, y + dt * k3)
    return y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def rk4(f, y0, ts, remat=False, unroll=1):
    step = rk4_step
    if remat:
        policy = jax.checkpoint_policies.dots_with_no_batch_dims_saveable
        step = jax.checkpoint(rk4_step, static_argnums=(0,), policy=policy)

    def body(y, t_pair):
        t0, t1 = t_pair
        y = step(f, y, t0, t1 - t0)
        return y, y

    _, ys = jax.lax.scan(body, y0, (ts[:-1], ts[1:]), unroll=unroll)
    return jnp.concatenate([y0[None], ys])


class ODEFunc(nn.Module):
    hidden: int = 16

    @nn.compact
    def __call__(self, t, y):
        h = nn.tanh(nn.Dense(self.hidden)(y**3))
        return nn.Dense(y.shape[-1])(h)


class CNFField(nn.Module):
    hidden: int = 8

    @nn.compact
    def __call__(self, t, z):
        h = jnp.concatenate([z, jnp.broadcast_to(t, z.shape[:-1] + (1,))], -1)
        h = nn.softplus(nn.Dense(self.hidden)(h))
        return nn.Dense(z.shape[-1])(h)


def run():
    out = {}
    ts = jnp.linspace(0.0, 1.0, 9)
    y0 = jnp.array([2.0, 0.0])
    true_traj = rk4(true_field, y0, ts, unroll=2)
    out["true_traj"] = true_traj

    model = ODEFunc()
    params = model.init(jax.random.PRNGKey(0), 0.0, y0)

    def loss_fn(params, remat=False):
        field = lambda t, y: model.apply(params, t, y)  # noqa: E731
        return jnp.mean(jnp.abs(rk4(field, y0, ts, remat) - true_traj))

    g_plain = jax.grad(loss_fn)(params)
    g_remat = jax.grad(functools.partial(loss_fn, remat=True))(params)
    out["grad"] = g_plain
    out["remat_agrees"] = bool(all(jax.tree.leaves(jax.tree.map(
        lambda a, b: jnp.allclose(a, b, atol=1e-6), g_plain, g_remat))))  # fmt: skip

    tx = optax.sgd(0.05, momentum=0.9)
    opt_state = tx.init(params)

    @jax.jit
    def step(params, opt_state):
        loss, grads = jax.value_and_grad(loss_fn)(params, True)
        updates, opt_state = tx.update(grads, opt_state)
        return optax.apply_updates(params, updates), opt_state, loss

    losses = []
    for _ in range(4):
        params, opt_state, loss = step(params, opt_state)
        losses.append(loss)
    out["losses"] = jnp.stack(losses)
    out["params"] = params

    starts = jnp.array([[2.0, 0.0], [0.0, 1.5], [-1.0, 1.0], [1.0, -1.0]])
    solve = lambda s: rk4(true_field, s, ts)[-1]  # noqa: E731
    out["batched_ends"] = jax.vmap(solve)(starts)
    out["mapped_ends"] = jax.lax.map(solve, starts, batch_size=3)

    # a continuous normalising flow on (z, log p)
    cnf = CNFField()
    cnf_params = cnf.init(jax.random.PRNGKey(1), 0.0, jnp.zeros(2))

    def exact_dynamics(t, state):
        z, _ = state
        f = lambda z: cnf.apply(cnf_params, t, z)  # noqa: E731
        dz = jnp.vectorize(f, signature="(d)->(d)")(z)
        div = jax.vmap(lambda zi: jnp.trace(jax.jacfwd(f)(zi)))(z)
        return dz, -div

    def hutchinson_dynamics(key, t, state):
        z, _ = state
        f = lambda z: cnf.apply(cnf_params, t, z)  # noqa: E731
        eps = jax.random.rademacher(key, z.shape, dtype=z.dtype)
        dz, jvp = jax.jvp(f, (z,), (eps,))
        return dz, -jnp.sum(eps * jvp, axis=-1)

    z0 = jax.random.normal(jax.random.PRNGKey(2), (5, 2))
    state0 = (z0, jnp.zeros(5))
    ts_cnf = jnp.linspace(0.0, 0.5, 5)
    exact = jax.tree.map(lambda s: s[-1], _rk4_tree(exact_dynamics, state0, ts_cnf))
    out["cnf_exact"] = exact
    keys = jax.random.split(jax.random.key(3), 4)
    estimates = jax.vmap(lambda k: _rk4_tree(
        functools.partial(hutchinson_dynamics, k), state0, ts_cnf)[1][-1])(keys)  # fmt: skip
    out["cnf_hutchinson"] = estimates
    out["key_dtype"] = str(keys.dtype)
    base = -0.5 * jnp.sum(exact[0] ** 2, -1) - jnp.log(2 * jnp.pi)
    out["log_density"] = base - exact[1]
    return out


def _rk4_tree(f, state0, ts):
    def body(state, t_pair):
        t0, t1 = t_pair
        dt = t1 - t0
        add = lambda s, k, c: jax.tree.map(lambda a, b: a + c * b, s, k)  # noqa: E731
        k1 = f(t0, state)
        k2 = f(t0 + dt / 2, add(state, k1, dt / 2))
        k3 = f(t0 + dt / 2, add(state, k2, dt / 2))
        k4 = f(t1, add(state, k3, dt))
        total = jax.tree.map(lambda a, b, c, d: a + 2 * b + 2 * c + d, k1, k2, k3, k4)
        state = add(state, total, dt / 6)
        return state, state

    _, states = jax.lax.scan(body, state0, (ts[:-1], ts[1:]))
    return states
