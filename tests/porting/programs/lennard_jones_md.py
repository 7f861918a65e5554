"""Molecular dynamics of a Lennard-Jones fluid in a periodic box (ours, in the style of the
JAX-MD examples and of the small NVE simulations written with `jax.grad` forces).

Twenty-seven particles start on a perturbed cubic lattice in a box of side 3.3 (reduced units). Pair
displacements use the minimum-image convention (`jnp.round`), the truncated and shifted
potential is summed over the upper triangle (`jnp.triu_indices`) and over a masked full
matrix (the diagonal replaced by a safe distance before the power, so its gradient stays
finite); forces are `-jax.grad` of the energy and checked against the analytic pair forces.
Velocity Verlet runs in a jitted `lax.fori_loop` (the step count a static argument), positions
wrapped by `jnp.mod`; the total energy must be conserved. Two initial velocity draws run under
`vmap`; a Berendsen thermostat run in a `lax.scan` records the temperature; the virial
pressure and a radial distribution histogram (`jnp.histogram`) are computed at the end."""

import functools

import jax
import jax.numpy as jnp

BOX, CUTOFF, DT = 3.3, 1.6, 0.004


def displacements(x):
    dr = x[:, None, :] - x[None, :, :]
    return dr - BOX * jnp.round(dr / BOX)


def pair_energy(r2):
    inv6 = (1.0 / r2) ** 3
    shift = 4.0 * ((1.0 / CUTOFF**2) ** 6 - (1.0 / CUTOFF**2) ** 3)
    return jnp.where(r2 < CUTOFF**2, 4.0 * (inv6**2 - inv6) - shift, 0.0)


def energy_triu(x):
    i, j = jnp.triu_indices(x.shape[0], k=1)
    dr = displacements(x)[i, j]
    return pair_energy(jnp.sum(dr**2, axis=-1)).sum()


def energy_masked(x):
    n = x.shape[0]
    r2 = jnp.sum(displacements(x) ** 2, axis=-1)
    off = ~jnp.eye(n, dtype=bool)
    safe = jnp.where(off, r2, 1.0)
    return 0.5 * jnp.sum(jnp.where(off, pair_energy(safe), 0.0))


def pair_force_magnitudes(x):
    dr = displacements(x)
    r2 = jnp.sum(dr**2, axis=-1) + jnp.eye(x.shape[0])
    inv2 = 1.0 / r2
    inv6 = inv2**3
    mag = 24.0 * inv2 * (2.0 * inv6**2 - inv6)
    return dr, r2, jnp.where((r2 < CUTOFF**2) & ~jnp.eye(x.shape[0], dtype=bool), mag, 0.0)


def analytic_forces(x):
    dr, _, mag = pair_force_magnitudes(x)
    return jnp.sum(mag[..., None] * dr, axis=1)


force = jax.grad(lambda x: -energy_masked(x))


def kinetic(v):
    return 0.5 * jnp.sum(v**2)


@functools.partial(jax.jit, static_argnums=2)
def verlet(x, v, steps):
    def body(_, state):
        x, v, f = state
        v_half = v + 0.5 * DT * f
        x = jnp.mod(x + DT * v_half, BOX)
        f = force(x)
        return x, v_half + 0.5 * DT * f, f

    return jax.lax.fori_loop(0, steps, body, (x, v, force(x)))[:2]


def thermostat_run(x, v, target, steps, tau=0.05):
    def step(state, _):
        x, v = state
        f = force(x)
        v = v + 0.5 * DT * f
        x = jnp.mod(x + DT * v, BOX)
        v = v + 0.5 * DT * force(x)
        temp = 2.0 * kinetic(v) / (3 * (x.shape[0] - 1))
        v = v * jnp.sqrt(1.0 + DT / tau * (target / temp - 1.0))
        return (x, v), temp

    return jax.lax.scan(step, (x, v), None, length=steps)


def lattice(key):
    grid = jnp.stack(jnp.meshgrid(*[jnp.arange(3.0)] * 3, indexing="ij"), -1).reshape(-1, 3)
    return (grid + 0.5) * (BOX / 3) + 0.05 * jax.random.normal(key, grid.shape)


def velocities(key, n, temperature):
    v = jnp.sqrt(temperature) * jax.random.normal(key, (n, 3))
    return v - v.mean(axis=0)


def run():
    out = {}
    kx, kv = jax.random.split(jax.random.PRNGKey(11))
    x = lattice(kx)
    v = velocities(kv, x.shape[0], 0.8)
    out["energies"] = [energy_triu(x), energy_masked(x)]
    f = force(x)
    out["forces"] = [
        f,
        jnp.abs(f - analytic_forces(x)).max() < 1e-3,
        jnp.abs(f.sum(axis=0)).max() < 1e-4,
    ]

    e0 = energy_masked(x) + kinetic(v)
    x1, v1 = verlet(x, v, 40)
    e1 = energy_masked(x1) + kinetic(v1)
    out["nve"] = [x1, v1, e0, e1, jnp.abs(e1 - e0) < 1e-2 * jnp.abs(e0)]
    out["momentum"] = v1.sum(axis=0)
    out["in_box"] = bool(jnp.all((x1 >= 0) & (x1 < BOX)))

    keys = jax.random.split(jax.random.PRNGKey(5), 2)
    vs = jax.vmap(velocities, in_axes=(0, None, None))(keys, x.shape[0], 1.2)
    xs, vs = jax.vmap(verlet, in_axes=(None, 0, None))(x, vs, 20)
    out["batched"] = [xs.shape, jax.vmap(kinetic)(vs), jax.vmap(energy_masked)(xs)]

    (x2, v2), temps = thermostat_run(x, v, 0.5, 30)
    out["thermostat"] = [temps, x2.shape]

    r2 = jnp.sum(displacements(x1) ** 2, axis=-1)
    i, j = jnp.triu_indices(x.shape[0], k=1)
    r = jnp.sqrt(r2[i, j])
    counts, edges = jnp.histogram(r, bins=8, range=(0.8, 2.4))
    _, r2_pairs, mag = pair_force_magnitudes(x1)
    virial = 0.5 * jnp.sum(mag * r2_pairs * (r2_pairs < CUTOFF**2))
    pressure = (2.0 * kinetic(v1) + virial) / (3.0 * BOX**3)
    out["structure"] = [counts, edges, r.min(), pressure]
    return out
