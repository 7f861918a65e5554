"""The primitive set, one module per family; importing this package defines them all."""

from core.prims import elementwise, indexing, linalg, reductions, shapes  # noqa: F401
