"""The compiler: `jit` (api.py) and the numba back end (lowering, vecmath, disk cache)."""

from __future__ import annotations


def clear_cache() -> None:
    """Deletes the on-disk compile cache and drops every in-memory trace and compile cache.

    Programs already compiled keep running; the next call of a jitted function traces and
    compiles again (loading nothing from disk).
    """
    from core.jit import api, disk_cache  # noqa: PLC0415 (loads numba on use)

    api.clear_caches()
    disk_cache.clear()
