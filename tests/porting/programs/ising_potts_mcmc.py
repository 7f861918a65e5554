"""Monte Carlo for lattice spin models: checkerboard Metropolis for the 2-D Ising model,
heat-bath sweeps for the 3-state Potts model, and exact enumeration of a small lattice to
check them (ours, in the style of the statistical-physics notebooks written with `jnp.roll`
neighbour sums and `jax.random`).

An 8x8 periodic Ising lattice is updated in two half-sweeps over a checkerboard mask
(`jnp.indices`): the local field is a sum of four `jnp.roll`s, the acceptance a
`jax.random.uniform` draw against `exp(-beta dE)`. Sweeps run in a `lax.fori_loop` for
burn-in and a `lax.scan` that records energy and magnetisation; chains at three temperatures
run under `vmap` with per-chain keys. A 3-state Potts model updates each sublattice by
heat-bath sampling, `jax.random.categorical` over logits built from `jax.nn.one_hot`
neighbour counts. A 3x3 Ising lattice is enumerated exactly (spins from bit shifts of
`jnp.arange(512)`), its partition function by `logsumexp`, and the exact mean energy's
derivative wrt beta by `jax.grad` equals minus the energy variance. The magnetisation's
integrated autocorrelation time uses an FFT of the centred series."""

import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp

L = 8


def neighbour_sum(s):
    return jnp.roll(s, 1, 0) + jnp.roll(s, -1, 0) + jnp.roll(s, 1, 1) + jnp.roll(s, -1, 1)


def energy(s):
    return -jnp.sum(s * (jnp.roll(s, 1, 0) + jnp.roll(s, 1, 1)))


def checkerboard():
    i, j = jnp.indices((L, L))
    return (i + j) % 2 == 0


def metropolis_sweep(s, key, beta):
    mask = checkerboard()
    for colour, k in zip((mask, ~mask), jax.random.split(key)):
        dE = 2.0 * s * neighbour_sum(s)
        accept = jax.random.uniform(k, s.shape) < jnp.exp(-beta * dE)
        s = jnp.where(colour & accept, -s, s)
    return s


def chain(key, beta, burn_in=20, samples=30):
    k_init, k_burn, k_run = jax.random.split(key, 3)
    s = jnp.where(jax.random.bernoulli(k_init, 0.5, (L, L)), 1.0, -1.0)
    burn_keys = jax.random.split(k_burn, burn_in)
    s = jax.lax.fori_loop(0, burn_in, lambda i, s: metropolis_sweep(s, burn_keys[i], beta), s)

    def step(s, k):
        s = metropolis_sweep(s, k, beta)
        return s, (energy(s) / L**2, jnp.mean(s))

    s, (e, m) = jax.lax.scan(step, s, jax.random.split(k_run, samples))
    return s, e, m


def potts_sweep(s, key, beta, q=3):
    mask = checkerboard()
    for colour, k in zip((mask, ~mask), jax.random.split(key)):
        onehot = jax.nn.one_hot(s, q)
        counts = sum(jnp.roll(onehot, shift, axis) for shift in (1, -1) for axis in (0, 1))
        proposal = jax.random.categorical(k, beta * counts, axis=-1)
        s = jnp.where(colour, proposal, s)
    return s


def potts_energy(s):
    return -jnp.sum((s == jnp.roll(s, 1, 0)).astype(jnp.float32) + (s == jnp.roll(s, 1, 1)))


def exact_small(beta, n=3):
    configs = (jnp.arange(2 ** (n * n))[:, None] >> jnp.arange(n * n)) & 1
    spins = (2 * configs - 1).reshape(-1, n, n).astype(jnp.float32)
    energies = jax.vmap(energy)(spins)
    log_w = -beta * energies
    log_z = logsumexp(log_w)
    p = jnp.exp(log_w - log_z)
    mean_e = jnp.sum(p * energies)
    var_e = jnp.sum(p * energies**2) - mean_e**2
    mean_abs_m = jnp.sum(p * jnp.abs(spins.mean(axis=(1, 2))))
    return log_z, mean_e, var_e, mean_abs_m


def autocorrelation_time(x):
    x = x - x.mean()
    n = x.shape[0]
    f = jnp.fft.rfft(x, n=2 * n)
    acf = jnp.fft.irfft(f * jnp.conj(f))[:n]
    acf = acf / acf[0]
    return 1.0 + 2.0 * jnp.sum(jnp.where(jnp.arange(n) < 10, acf, 0.0)[1:])


def run():
    out = {}
    s, e, m = jax.jit(chain)(jax.random.PRNGKey(0), 0.6)
    out["low_temperature"] = [e, jnp.abs(m).mean(), s.dtype.name]
    betas = jnp.array([0.2, 0.44, 0.8])
    keys = jax.random.split(jax.random.PRNGKey(1), 3)
    _, es, ms = jax.vmap(chain)(keys, betas)
    out["temperatures"] = [es.mean(axis=1), jnp.abs(ms).mean(axis=1)]
    out["autocorrelation"] = autocorrelation_time(ms[1])

    s = jax.random.randint(jax.random.PRNGKey(2), (L, L), 0, 3)
    ks = jax.random.split(jax.random.PRNGKey(3), 25)
    history = []
    for k in ks:
        s = potts_sweep(s, k, 1.2)
        history.append(potts_energy(s))
    out["potts"] = [jnp.stack(history), jnp.bincount(s.ravel(), length=3), s.dtype.name]

    log_z, mean_e, var_e, mean_abs_m = exact_small(0.4)
    d_mean_e = jax.grad(lambda b: exact_small(b)[1])(0.4)
    d_log_z = jax.grad(lambda b: exact_small(b)[0])(0.4)
    out["exact"] = [
        log_z,
        mean_e,
        var_e,
        mean_abs_m,
        jnp.abs(d_mean_e + var_e) < 1e-3,
        jnp.abs(d_log_z + mean_e) < 1e-3,
    ]
    return out
