"""`core.scipy`: the `jax.scipy` analogue, written on `core.numpy` and `core.lax`.

Submodules mirror JAX's: `special`, `stats`, `linalg`, `signal`, `integrate`, `optimize`, `fft`,
`ndimage`, `interpolate`, `spatial`, `sparse`, `cluster`. Nothing here adds a primitive: every
function is a composition, so `grad`, `vmap` and `jit` apply unchanged.
"""

from core.scipy import (
    cluster,
    fft,
    integrate,
    interpolate,
    linalg,
    ndimage,
    optimize,
    signal,
    sparse,
    spatial,
    special,
    stats,
)

__all__ = [
    "cluster",
    "fft",
    "integrate",
    "interpolate",
    "linalg",
    "ndimage",
    "optimize",
    "signal",
    "sparse",
    "spatial",
    "special",
    "stats",
]
