"""`core.experimental`: the names JAX keeps in `jax.experimental` that numbax provides."""

from core.callbacks import io_callback

__all__ = ["io_callback"]
