"""The compiler: `jit` (api.py) and the numba back end (lowering, vecmath, disk cache)."""
