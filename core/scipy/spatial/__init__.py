"""`core.scipy.spatial`: as in JAX, only `transform` (`Rotation`, `Slerp`)."""

from core.scipy.spatial import transform

__all__ = ["transform"]
