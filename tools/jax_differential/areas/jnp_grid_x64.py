"""`jnp_grid`'s calls over the 64-bit dtypes (int64, uint64, float64, complex128, with int32 and
float32 beside them) with x64 enabled: the same tables, the 64-bit dtypes' promotion and
defaults (`jnp_grid` builds them)."""

from tools.jax_differential.areas.jnp_grid import eager, grid


def cases() -> list[str]:
    return [eager(c) for c in grid(x64=True)]
