"""The primitive set, one module per family; importing this package defines them all."""

from core.prims import (  # noqa: F401
    collectives,
    control_flow,
    conv,
    elementwise,
    gather,
    indexing,
    linalg,
    random_bits,
    reductions,
    rev,
    shapes,
    sorting,
    windows,
)
