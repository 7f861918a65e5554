"""`jnp_grid`'s calls under `jax.jit`: the same generated calls with their array arguments passed
through a jitted lambda (numbax compiles it with numba), so a dtype, weak type or value that
differs between the eager and the jitted call shows here (`jnp_grid` builds them). Every
`STRIDE`-th call of the grid (the tables interleave functions and dtypes, so each family keeps
several dtypes): compiling each call with numba costs far more than running it eagerly."""

from tools.jax_differential.areas.jnp_grid import grid, jitted

STRIDE = 6


def cases() -> list[str]:
    return [jitted(c) for c in grid()[::STRIDE] if c.args]
