"""Errors and warnings of the numba back end."""

from __future__ import annotations

from typing import Any

from core.errors import NumbaxError


class LoweringError(NumbaxError, NotImplementedError):
    """A primitive (or a dtype) has no numba lowering yet.

    Failing code: ``jit(f)(x)`` where ``f`` uses a primitive without a numba lowering rule (the
    message names it). Fix: ``jit(f, backend="python")`` (the numpy back end runs every
    primitive), or run ``f`` without `jit`.
    """

    def __init__(self, what: str):
        super().__init__(
            f"cannot compile {what} with numba. Run the function without `jit`, or with "
            "`jit(..., backend='python')` (the numpy backend), until it is supported."
        )


class UnsupportedDTypeError(LoweringError):
    """The program holds values of a dtype numba cannot compile (float8; bfloat16 and float16
    compile as float32 with XLA's rounding, `core/jit/narrow.py`, except through bitcasts to
    types of another width and float16 primitives not checked against XLA, such as asin).

    Failing code: ``jit(jnp.arcsin)(jnp.ones(3, jnp.float16))`` (it falls back to numpy
    with a `NumpyFallbackWarning`). Fix: compute in float32 (``a.astype(jnp.float32)``) and
    convert the result back if needed.
    """

    def __init__(self, dtypes: list[str]):
        self.dtypes = dtypes
        super().__init__(f"arrays of dtype {', '.join(dtypes)}")


class ThreadCountError(NumbaxError, ValueError):
    """`NUMBAX_NUM_THREADS` is not a positive integer.

    Failing code: ``NUMBAX_NUM_THREADS=all python train.py``. Fix: a positive integer
    (``NUMBAX_NUM_THREADS=4``), or unset it to use the CPUs the process may run on.
    """


class NumpyFallbackWarning(NumbaxError, UserWarning):
    """A jitted function runs on the numpy back end because numba cannot compile it."""


class JitCacheWarning(NumbaxError, UserWarning):
    """The compile cache directory cannot be used; compiling in memory instead."""


class UnsafeCacheDirError(NumbaxError, PermissionError):
    """A compile cache directory that another user could write (planted code would run).

    Failing code: ``NUMBAX_CACHE_DIR=/tmp/shared`` on a world-writable directory. Fix:
    ``chmod 700`` the directory if it is yours, or point ``NUMBAX_CACHE_DIR`` (and
    ``NUMBA_CACHE_DIR``) at a private one.
    """

    def __init__(self, path, why: str):
        self.path = path
        super().__init__(
            f"numbax refuses the compile cache directory {path}: {why}. Run `chmod 700 {path}` "
            "if it is yours, or point NUMBAX_CACHE_DIR (and NUMBA_CACHE_DIR) at a private "
            "directory."
        )


class CacheIntegrityError(NumbaxError, OSError):
    """A compile cache file whose content is not what was recorded when it was written.

    Raised when a cached kernel file was changed after numbax wrote it (a partial copy, disk
    damage, tampering); the entry is then compiled afresh. Fix, if it recurs: delete the
    compile cache directory (``NUMBAX_CACHE_DIR``).
    """

    def __init__(self, path, why: str):
        self.path = path
        super().__init__(f"compile cache file {path} is damaged: {why}")


class JitArgumentError(NumbaxError, TypeError):
    """A non-array positional argument that is not marked static.

    Failing code: ``jit(lambda a, s: a * len(s))(x, "abc")``. Fix: mark it static,
    ``jit(f, static_argnums=1)``, or pass an array.
    """


class JitOutputTypeError(NumbaxError, TypeError):
    """A jitted function (or one `eval_shape`/`make_jaxpr` stages) returned a value that is not
    an array, a scalar or a pytree of them (a string, an object); JAX's message.

    Failing code: ``jit(lambda a: (a * 2, "done"))(x)``. Fix: return arrays only, and build
    the other values outside the jitted function.
    """


class JitExecutionError(NumbaxError, RuntimeError):
    """A jitted call dispatched asynchronously raised; this is raised where its result is read
    (`core/pending.py`), naming the jitted function.

    The instance raised also derives from the original exception's class (``except
    ValueError`` still catches a callback's ValueError) and chains the original as
    ``__cause__``. Failing code: ``y = jit(step)(x)`` where ``step`` holds a
    ``pure_callback`` that raises, then ``print(y)``. Fix: the cause is the original error
    (fix what it says); run with ``config.update("jax_cpu_enable_async_dispatch", False)`` to
    have it raised by the call itself.
    """


class StaticArgumentError(NumbaxError, ValueError):
    """A static argument that cannot be hashed (so it cannot be part of a cache key).

    Failing code: ``jit(f, static_argnums=1)(x, [1, 2])``. Fix: a hashable value
    (``(1, 2)``, a frozen dataclass), or pass it as a dynamic array argument.
    """


def static_hash_error(value: Any, fun: Any) -> StaticArgumentError:
    """The error for an unhashable static argument `value` of `fun`, with JAX's first line (the
    value's type and value) and the hash's error and the fix after it."""
    try:
        hash(value)
        reason = ""
    except TypeError as e:
        reason = f"{type(e).__name__}: {e}\n"
    name = getattr(fun, "__name__", fun)
    return StaticArgumentError(
        "Non-hashable static arguments are not supported. An error occurred while trying to "
        f"hash an object of type {type(value)}, {value}. The error was:\n{reason}"
        f"A static argument of {name} must be hashable: tuples instead of lists, frozen "
        "dataclasses, Python scalars instead of arrays; or pass it as a dynamic argument."
    )
