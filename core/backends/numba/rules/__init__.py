"""The numba lowering rules of every primitive, one module per family as in `core/prims/`.

Importing this package registers them all (`core.backends.numba.registry.lowering_rule` does it
on its first call).
"""

from core.backends.numba.rules import (  # noqa: F401
    callbacks,
    collectives,
    control_flow,
    conv,
    debug,
    decompositions,
    eig,
    elementwise,
    fft,
    gather,
    indexing,
    linalg,
    narrow,
    pmap,
    random_bits,
    reductions,
    rev,
    rng_bit_generator,
    shapes,
    sorting,
    windows,
)
from core.backends.numba.rules.experimental import checkify  # noqa: F401
