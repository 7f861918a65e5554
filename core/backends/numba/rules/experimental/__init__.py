"""The numba lowering rules of `core.experimental`'s primitives (mirroring its modules)."""
