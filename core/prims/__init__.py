"""The primitive set, one module per family; importing this package defines them all."""

from core.prims import (  # noqa: F401
    elementwise, gather, indexing, linalg, reductions, rev, shapes, sorting,
)
