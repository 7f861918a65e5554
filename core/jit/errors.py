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


class ThreadCountError(NumbaxError, ValueError):
    """`NUMBAX_NUM_THREADS` is not a positive integer."""


class NumpyFallbackWarning(NumbaxError, UserWarning):
    """A jitted function runs on the numpy back end because numba cannot compile it."""


class JitCacheWarning(NumbaxError, UserWarning):
    """The compile cache directory cannot be used; compiling in memory instead."""


class UnsafeCacheDirError(NumbaxError, PermissionError):
    """A compile cache directory that another user could write (planted code would run)."""

    def __init__(self, path, why: str):
        self.path = path
        super().__init__(
            f"numbax refuses the compile cache directory {path}: {why}. Run `chmod 700 {path}` "
            "if it is yours, or point NUMBAX_CACHE_DIR (and NUMBA_CACHE_DIR) at a private "
            "directory."
        )


class CacheIntegrityError(NumbaxError, OSError):
    """A compile cache file whose content is not what was recorded when it was written."""

    def __init__(self, path, why: str):
        self.path = path
        super().__init__(f"compile cache file {path} is damaged: {why}")


class JitArgumentError(NumbaxError, TypeError):
    """A non-array positional argument that is not marked static."""
