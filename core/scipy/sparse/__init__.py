"""`core.scipy.sparse`: as far as numbax goes, only `linalg` (the iterative solvers)."""

from core.scipy.sparse import linalg

__all__ = ["linalg"]
