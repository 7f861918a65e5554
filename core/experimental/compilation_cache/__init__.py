"""`core.experimental.compilation_cache`: JAX's module path for its persistent-cache settings
(`compilation_cache.set_cache_dir`), which training scripts import."""

from core.experimental.compilation_cache import compilation_cache

__all__ = ["compilation_cache"]
