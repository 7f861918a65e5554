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


class UnsupportedDTypeError(LoweringError):
    """The program holds values of a dtype numba cannot compile (float16)."""

    def __init__(self, dtypes: list[str]):
        self.dtypes = dtypes
        super().__init__(f"arrays of dtype {', '.join(dtypes)}")


class NumpyFallbackWarning(NumbaxError, UserWarning):
    """A jitted function runs on the numpy back end because numba cannot compile it."""


class JitCacheWarning(NumbaxError, UserWarning):
    """The compile cache directory cannot be used; compiling in memory instead."""
