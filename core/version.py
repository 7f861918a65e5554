"""`jax.version`: the version strings (`jax.version.__version__`).

``__version__`` is numbax's version, the one `core.__version__` gives, and
``__version_info__`` its integer tuple. ``_minimum_jaxlib_version`` has no numbax meaning
and is not provided.
"""

from numbax import __version__

__version_info__ = tuple(int(p) for p in __version__.split(".")[:3])

__all__ = ["__version__", "__version_info__"]
