"""`core.scipy`: the `jax.scipy` analogue, written on `core.numpy` and `core.lax`.

Submodules mirror JAX's: `special`, `stats`, `linalg`, `signal`, `integrate`, `optimize`.
Nothing here adds a primitive: every function is a composition, so `grad`, `vmap` and `jit`
apply unchanged.
"""

from core.scipy import integrate, linalg, optimize, signal, special, stats

__all__ = ["integrate", "linalg", "optimize", "signal", "special", "stats"]
