"""Calling a compiled kernel on concrete values: its inputs, its results, its cache clock.

`concrete_inputs` turns concrete leaves (Arrays, numpy arrays, Python scalars) into their
interned avals and the C-contiguous numpy values a kernel takes (`as_c`); `leaf_key` is the
part of a trace-cache key one leaf contributes; `results` calls a kernel, re-raising the
exception of a signal handler that ran meanwhile (`reraise_signal`); `ticks` is the clock of
the cache entries' last use. The fast call path (`core/jit/call_path.py`), asynchronous
dispatch (`core/jit/dispatch.py`) and `Jitted._miss` (`core/jit/api.py`) share them, so they
sit below all three.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

from core import dtypes
from core.array import Array
from core.avals import ShapedArray, interned, typed
from core.config import config
from core.jit.errors import JitArgumentError
from core.prng_key import PRNGKeyArray
from core.trace import Tracer

ticks = itertools.count()  # the clock of a cache entry's `used` (least recently used goes)


def reraise_signal(err: SystemError) -> None:
    """Raises the exception of a signal handler that ran while a compiled kernel did.

    numba's dispatcher reports an exception that became pending during a native call (Ctrl-C's
    `KeyboardInterrupt`, or what a SIGALRM handler raises) as "SystemError: ... returned a
    result with an exception set", caused by it; callers get the exception itself.
    """
    cause = err.__cause__
    if cause is not None and "returned a result with an exception set" in str(err):
        raise cause from None


def leaf_key(x: Any) -> Any:
    """The part of the cache key one dynamic leaf contributes: (shape, dtype, weak type), and
    inside a `shard_map` body the mesh axes a tracer varies along and their order (`key_aval`
    turns it back into the aval the function is traced on)."""
    if isinstance(x, (Array, Tracer, PRNGKeyArray)):
        a = x.aval
        if getattr(a, "vma", None):
            return (a.shape, a.dtype, a.weak_type, a.vma, a.order)
        return (a.shape, a.dtype, a.weak_type)
    t = type(x)
    if t in (int, float, complex):
        return ((), dtypes.python_scalar_dtype(x), True)
    if t is bool:
        return ((), dtypes.bool_, False)
    if isinstance(x, (np.ndarray, np.generic)) and x.dtype.kind not in "OUS":  # no strings
        return (x.shape, dtypes.canonicalize_dtype(x.dtype), False)
    raise JitArgumentError(
        f"Argument {x!r} of type {t.__name__} is not a valid array type for a jitted function. "
        "Mark it static with `jit(f, static_argnums=...)` / `static_argnames=...` if it is a "
        "configuration value, or pass an array."
    )


def key_aval(key: tuple) -> ShapedArray:
    """The aval a `leaf_key` stands for."""
    aval = ShapedArray(*key[:3])
    return aval if len(key) == 3 else typed(aval, key[3], key[4])


def abstract_leaf_key(x: Any) -> Any:
    """`leaf_key` of a leaf given to `jit(f).trace`/`.lower`, which may also be abstract: any
    object with `shape` and `dtype` (a `ShapeDtypeStruct`), as in JAX."""
    if isinstance(x, (Array, Tracer, PRNGKeyArray, np.ndarray, np.generic, *_SCALAR_TYPES)):
        return leaf_key(x)
    shape, dtype = getattr(x, "shape", None), getattr(x, "dtype", None)
    if shape is None or dtype is None:
        return leaf_key(x)  # its error
    return (tuple(shape), dtypes.canonicalize_dtype(dtype), bool(getattr(x, "weak_type", False)))


_SCALAR_TYPES = (int, float, complex, bool)
# (shape, numpy dtype, x64 flag) of a numpy argument -> its aval (canonical dtype, not weak).
_numpy_avals: dict[tuple, ShapedArray] = {}


def concrete_inputs(leaves: list) -> tuple[list | None, list | None]:
    """The interned avals and the kernel inputs of concrete leaves (Arrays, numpy arrays and
    Python scalars: C-contiguous numpy arrays of their canonical dtypes; key arrays: their key
    aval and their data), or (None, None) if some leaf is not concrete (a tracer)."""
    avals, vals = [], []
    for x in leaves:
        t = type(x)
        if t is Array:  # C-contiguous, of its aval's dtype (`Array.__init__`)
            avals.append(x._aval)
            vals.append(x._value)
            continue
        if t is np.ndarray:
            k = (x.shape, x.dtype, config.enable_x64)
            aval = _numpy_avals.get(k)
            if aval is None:
                aval = _numpy_avals[k] = interned(*leaf_key(x))
            v = x if x.dtype is aval.dtype and x.flags.c_contiguous else as_c(x, aval.dtype)
        elif isinstance(x, np.generic) or t in _SCALAR_TYPES:
            aval = interned(*leaf_key(x))
            v = np.asarray(x, aval.dtype)
        elif isinstance(x, Array):  # a PendingArray: its value (waiting for it)
            aval = x._aval
            v = x._value
        elif t is PRNGKeyArray:  # the program runs on the keys' data
            aval = x.aval
            v = x._base._value
        else:
            return None, None
        avals.append(aval)
        vals.append(v)
    return avals, vals


def as_c(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """`x` as a kernel takes it: a C-contiguous array of `dtype` (copied only if it is not
    one already; 0-d stays 0-d, unlike `np.ascontiguousarray`)."""
    return np.asarray(x, dtype, order="C")


def results(kernel: Callable, vals: list[np.ndarray]) -> Any:
    """The raw results of `kernel(*vals)`, the signal handling as in `run` (for asynchronous
    dispatch, which builds the outputs itself)."""
    try:
        return kernel(*vals)
    except SystemError as err:
        reraise_signal(err)
        raise
