"""A stencil computation split over the devices by rows, with halo exchanges: our own program
over the APIs of JAX's cloud-TPU wave-equation notebook, on a 2-D heat equation.

- `lax.ppermute` to the neighbour device with the end devices left out of the permutation (they
  receive zeros: a Dirichlet boundary), inside a `pmap` with a named axis;
- halo rows added by `jnp.concatenate` and refreshed in place by `.at[...].set`, a `jnp.pad`
  shifted five-point Laplacian, explicit Euler steps in a `lax.fori_loop` nested in the
  `pmap`ped `fori_loop` of exchanges, `tree_map` over a (temperature, source) pytree;
- the grid split with `reshape` onto the devices and stacked back; results sent with
  `copy_to_host_async` and gathered by `device_get`; saved frames against the same steps under
  `jit` on one device.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.tree_util import tree_map

DEVICES = jax.device_count()
HALO = 2


def to_upper_neighbour(block):
    return lax.ppermute(block, "rows", [(d, d - 1) for d in range(1, DEVICES)])


def to_lower_neighbour(block):
    return lax.ppermute(block, "rows", [(d, d + 1) for d in range(DEVICES - 1)])


def with_halo(block):
    above = to_lower_neighbour(block[-HALO:])
    below = to_upper_neighbour(block[:HALO])
    return jnp.concatenate([above, block, below], axis=0)


def refresh_halo(padded):
    above = to_lower_neighbour(padded[-2 * HALO : -HALO])
    below = to_upper_neighbour(padded[HALO : 2 * HALO])
    return padded.at[:HALO].set(above).at[-HALO:].set(below)


def shifted(u, offset, axis):
    kept = [slice(None)] * u.ndim
    kept[axis] = slice(offset, None) if offset > 0 else slice(None, offset)
    widths = [(0, 0)] * u.ndim
    widths[axis] = (0, offset) if offset > 0 else (-offset, 0)
    return jnp.pad(u[tuple(kept)], widths)


def laplacian(u):
    return sum(shifted(u, o, a) for o in (1, -1) for a in (0, 1)) - 4 * u


def euler(state, rate):
    temperature, source = state
    return temperature + rate * (laplacian(temperature) + source), source


def steps(state, count, rate):
    return lax.fori_loop(0, count, lambda _, s: euler(s, rate), state)


def split_rows(a):
    return a.reshape(DEVICES, a.shape[0] // DEVICES, *a.shape[1:])


def join_rows(a):
    return a.reshape(-1, *a.shape[2:])


def distributed(state, frames, exchanges_per_frame, rate):
    @partial(jax.pmap, axis_name="rows")
    def advance(local):
        padded = tree_map(with_halo, local)

        def exchange_then_step(_, s):
            return tree_map(refresh_halo, steps(s, HALO, rate))

        padded = lax.fori_loop(0, exchanges_per_frame, exchange_then_step, padded)
        return tree_map(lambda a: a[HALO:-HALO], padded)

    saved = [state]
    for _ in range(frames):
        state = tree_map(join_rows, advance(tree_map(split_rows, state)))
        tree_map(lambda a: a.copy_to_host_async(), state)
        saved.append(state)
    saved = jax.device_get(saved)
    return tree_map(lambda *frames: np.stack(frames), *saved)


def run():
    rows, cols = 8 * DEVICES, 6
    r, c = jnp.meshgrid(jnp.arange(rows) / rows, jnp.arange(cols) / cols, indexing="ij")
    temperature = jnp.exp(-((r - 0.3) ** 2 + (c - 0.5) ** 2) / 0.02)
    source = jnp.zeros_like(temperature).at[rows // 2, cols // 2].set(0.5)
    temperature_frames, source_frames = distributed((temperature, source), 3, 2, 0.2)
    single, _ = jax.jit(steps, static_argnums=1)((temperature, source), 3 * 2 * HALO, 0.2)
    return {
        "frames": temperature_frames,
        "shapes": [list(temperature_frames.shape), list(source_frames.shape)],
        "types": [type(temperature_frames).__name__, str(temperature_frames.dtype)],
        "single_device": single,
        "largest_gap": float(np.abs(temperature_frames[-1] - np.asarray(single)).max()),
    }
