"""JAX's `set_cache_dir`/`reset_cache`, accepted so that programs that call them run unchanged.

numbax always keeps a persistent compile cache of its own (`$NUMBAX_CACHE_DIR`, default
`~/.cache/numbax`; `core/jit/cache_files.py`), so a program's compiled kernels are reused by
the next process whether or not it calls these. `set_cache_dir` records the path in
`config.jax_compilation_cache_dir` as JAX does; numbax does not move its cache there (a cache
location must be fixed before the first compile; set `NUMBAX_CACHE_DIR` for that).
"""

from __future__ import annotations

import os

from core.config import config


def set_cache_dir(path: str | os.PathLike) -> None:
    """Records JAX's persistent compilation cache directory (`jax_compilation_cache_dir`).

    Args:
      path: the directory JAX would cache compiled programs in. numbax's own cache stays at
        `$NUMBAX_CACHE_DIR` (default `~/.cache/numbax`).
    """
    config.update("jax_compilation_cache_dir", path)


def reset_cache() -> None:
    """JAX's return to an uninitialized cache object; the recorded directory stays, as in JAX,
    and numbax's compile cache is not affected."""
