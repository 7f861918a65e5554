"""`core.scipy.cluster`: as in JAX, only `vq`."""

from core.scipy.cluster import vq

__all__ = ["vq"]
