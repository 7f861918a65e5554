"""Errors and warnings of the numba back end."""

from __future__ import annotations

from core.errors import NumbaxError


class LoweringError(NumbaxError, NotImplementedError):
    """A primitive (or a dtype) has no numba lowering yet."""

    def __init__(self, what: str):
        super().__init__(
            f"cannot compile {what} with numba. Run the function without `jit`, or with "
            "`jit(..., backend='python')` (the numpy backend), until it is supported."
        )


class JitCacheWarning(NumbaxError, UserWarning):
    """The compile cache directory cannot be used; compiling in memory instead."""
