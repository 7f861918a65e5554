"""`pure_callback` and `io_callback`: call a numpy (host) function from traced code, like JAX.

The call is one `pure_callback` primitive holding the callback and the declared result shapes:
eagerly its impl calls the function at once; under `jit` the equation stays in the program and
the function runs each time the compiled program runs (the numba back end leaves compiled code
for it through an `objmode` block, see `core/jit/host_calls.py`).
Under `vmap` the `vmap_method` argument decides how the callback sees the batch ("sequential",
"expand_dims", "broadcast_all", "legacy_vectorized"), as in JAX. Callbacks are not
differentiable (wrap them in `custom_jvp`/`custom_vjp`), as in JAX.

`io_callback` (`jax.experimental.io_callback`) is the same call on an effectful primitive: it
is never dropped or merged even when its results are unused, and programs run their equations
in order on one device, so `ordered=True` holds by construction; an ordered call cannot be
vmapped (as in JAX), an unordered one runs once per batch element.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from core import dtypes, tree_util
from core.avals import ShapedArray
from core.errors import JaxRuntimeError, NumbaxError
from core.interpreters import batching
from core.lax.composites import index_in_dim, stack
from core.primitive import Primitive
from core.trace import as_value

# A compiled host call is a numba `objmode` block, which numba warns keeps a nogil kernel serial
# (only the Python call inside it is). The filter is set here, at `import core`: set when the
# back end is first imported (core/jit/codegen.py, as it was), it is undone when that import
# happens inside a `warnings.catch_warnings()` block, such as the one around an eager scan's
# compile, and the warning then reached the user at the block's first run.
warnings.filterwarnings("ignore", ".*Code running in object mode won't allow parallel execution")


class CallbackResultError(JaxRuntimeError, ValueError):
    """A callback returned values of other shapes (or structure) than it declared (a
    `JaxRuntimeError`, JAX's class for it, and a ValueError).

    Failing code: ``pure_callback(lambda a: np.ones(4, np.float32),
    ShapeDtypeStruct((3,), jnp.float32), x)``. Fix: declare the shapes and dtypes the
    callback returns, or make it return what is declared.
    """


class CallbackDifferentiationError(NumbaxError, ValueError):
    """A `pure_callback` or `io_callback` was differentiated; it has no derivative rule (a
    ValueError, as JAX's).

    Failing code: ``grad(lambda a: pure_callback(np.sin, ShapeDtypeStruct((), jnp.float32),
    a))(1.0)``. Fix: wrap the function that calls it in ``custom_jvp``/``custom_vjp`` with a
    derivative rule (another callback may compute it).
    """


class CallbackBatchingError(NumbaxError, NotImplementedError):
    """A `pure_callback` was vmapped without a `vmap_method`.

    Failing code: ``vmap(lambda a: pure_callback(np.sin, ShapeDtypeStruct((), jnp.float32),
    a))(x)``. Fix: ``pure_callback(..., vmap_method="sequential")`` (one call per element),
    or ``"expand_dims"``/``"broadcast_all"`` for a callback that takes the batch at once.
    """


class OrderedCallbackBatchingError(NumbaxError, ValueError):
    """An `io_callback` with ``ordered=True`` was vmapped (a ValueError, as JAX's).

    Failing code: ``vmap(lambda a: io_callback(f, a, a, ordered=True))(x)``. Fix: pass
    ``ordered=False``, or loop over the batch with ``lax.map``.
    """


_VMAP_METHODS = (
    "sequential",
    "sequential_unrolled",
    "expand_dims",
    "broadcast_all",
    "legacy_vectorized",
)
_FIX_DERIVATIVE = (
    "\nWrap the function that calls it in core.custom_jvp or core.custom_vjp and give the "
    "derivative there."
)


class _Callback:
    """The user function with the argument and result structures (hashed by identity)."""

    def __init__(self, fun: Callable, in_tree: Any, out_tree: Any, kwargs: dict):
        self.fun, self.in_tree, self.out_tree, self.kwargs = fun, in_tree, out_tree, kwargs

    def __call__(self, flat_args: list[np.ndarray], result_avals: tuple) -> list[np.ndarray]:
        args = tree_util.tree_unflatten(self.in_tree, list(flat_args))
        out = self.fun(*args, **self.kwargs)
        leaves, tree = tree_util.tree_flatten(out)
        if tree != self.out_tree:
            raise CallbackResultError(
                f"pure_callback: {getattr(self.fun, '__name__', self.fun)} returned structure "
                f"{tree}, but result_shape_dtypes declares {self.out_tree}"
            )
        res = []
        for leaf, aval in zip(leaves, result_avals, strict=True):
            arr = np.asarray(leaf)
            if arr.shape != aval.shape:
                raise CallbackResultError(
                    f"pure_callback: {getattr(self.fun, '__name__', self.fun)} returned an array "
                    f"of shape {arr.shape}, but result_shape_dtypes declares {aval.shape}"
                )
            # Python scalars and 64-bit values count as JAX's canonical dtypes (int32, ...)
            if dtypes.canonicalize_dtype(arr.dtype) != aval.dtype:  # JAX's class and text
                raise JaxRuntimeError(
                    f"Incorrect output dtype for return value #{len(res)}: Expected: "
                    f"{np.dtype(aval.dtype).name}, Actual: "
                    f"{np.dtype(dtypes.canonicalize_dtype(arr.dtype)).name}. Make "
                    f"{getattr(self.fun, '__name__', self.fun)} return the declared dtype."
                )
            res.append(np.asarray(arr, dtype=aval.dtype))
        return res


pure_callback_p = Primitive("pure_callback", multiple_results=True)


def _impl(*args, callback, result_avals, vmap_method):
    return callback([np.asarray(a) for a in args], result_avals)


def _abstract_eval(*avals, callback, result_avals, vmap_method):
    return list(result_avals)


def _jvp_error(message: str):
    """The JVP rule of a callback primitive: raises JAX's `message` (and how to fix it)."""

    def jvp(primals, tangents, **params):
        raise CallbackDifferentiationError(message + _FIX_DERIVATIVE)

    return jvp


def _sequential(prim: Primitive, args, dims, size: int, params: dict):
    """The batching of a callback that calls it once per batch element, in order."""
    rows = []
    for i in range(size):
        sliced = [a if d is None else index_in_dim(a, i, d, False) for a, d in zip(args, dims)]
        rows.append(prim.bind(*sliced, **params))
    outs = [stack([r[j] for r in rows]) for j in range(len(params["result_avals"]))]
    return outs, [0] * len(outs)


def _batched_avals(result_avals: tuple, size: int) -> tuple:
    return tuple(ShapedArray((size, *a.shape), a.dtype) for a in result_avals)


def _batch(args, dims, *, callback, result_avals, vmap_method):
    size = batching.batch_size(args, dims)
    params = {"callback": callback, "vmap_method": vmap_method}
    if vmap_method in ("sequential", "sequential_unrolled"):
        return _sequential(
            pure_callback_p, args, dims, size, dict(params, result_avals=result_avals)
        )
    if vmap_method in ("expand_dims", "legacy_vectorized", "broadcast_all"):
        moved = []
        for a, d in zip(args, dims):
            if d is not None:
                moved.append(batching.moveaxis(a, d, 0, size))
            elif vmap_method == "broadcast_all":
                moved.append(batching.moveaxis(a, None, 0, size))
            elif vmap_method == "expand_dims":
                moved.append(batching.moveaxis(a, None, 0, 1))
            else:
                moved.append(a)
        outs = pure_callback_p.bind(
            *moved, result_avals=_batched_avals(result_avals, size), **params
        )
        return outs, [0] * len(outs)
    raise CallbackBatchingError(
        "vmap is only supported for the pure_callback primitive when vmap_method is one of "
        "'sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', or "
        "'legacy_vectorized'. Got vmap_method=None.\nPass vmap_method='sequential' (one call "
        "per batch element), 'expand_dims' or 'broadcast_all' (one call with a leading batch "
        "axis) to core.pure_callback."
    )


pure_callback_p.def_impl(_impl)
pure_callback_p.def_abstract_eval(_abstract_eval)
pure_callback_p.def_jvp(
    _jvp_error(
        "Pure callbacks do not support JVP. Please use `jax.custom_jvp` to use callbacks while "
        "taking gradients."
    )
)
pure_callback_p.def_batch(_batch)


def _as_aval(x: Any) -> ShapedArray:
    shape, dtype = getattr(x, "shape", None), getattr(x, "dtype", None)
    if shape is None or dtype is None:
        raise TypeError(
            f"pure_callback: result_shape_dtypes leaves need .shape and .dtype (use "
            f"core.ShapeDtypeStruct), got {x!r}"
        )
    return ShapedArray(tuple(shape), dtypes.canonicalize_dtype(dtype))


def pure_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: Any,
    *args: Any,
    sharding: Any = None,
    vmap_method: str | None = None,
    **kwargs: Any,
) -> Any:
    """Calls a side-effect-free host function on numpy arrays, from eager or traced code.

    Eagerly the callback runs at once. Under `jit` it runs each time the program runs (unless
    its results are unused: a pure callback may be dropped, as in JAX). Not differentiable.

    Args:
      callback: called as `callback(*args, **kwargs)` with numpy arrays in place of the array
        leaves of `args`; returns numpy arrays matching `result_shape_dtypes`.
      result_shape_dtypes: pytree of objects with `.shape` and `.dtype`
        (`core.ShapeDtypeStruct`, or example arrays) describing the results.
      *args: pytrees of arrays passed to the callback.
      sharding: accepted for compatibility (the callback runs on the calling device).
      vmap_method: how `vmap` calls the callback: "sequential" (once per batch element),
        "expand_dims" (once; unbatched arguments get a leading size-1 axis), "broadcast_all"
        (once; every argument broadcast to the batch size) or "legacy_vectorized" (once;
        unbatched arguments as they are). None makes `vmap` raise, as in JAX.
      **kwargs: static keyword arguments passed to the callback.

    Returns:
      The results, with the structure of `result_shape_dtypes`.
    """
    if vmap_method is not None and vmap_method not in _VMAP_METHODS:
        raise ValueError(
            f"vmap_method must be on of the allowed methods {[*_VMAP_METHODS, None]}, but got: "
            f"{vmap_method}"
        )
    return _bind(
        pure_callback_p, callback, result_shape_dtypes, args, kwargs, vmap_method=vmap_method
    )


def _bind(
    prim: Primitive,
    callback: Callable,
    result_shape_dtypes: Any,
    args: tuple,
    kwargs: dict,
    **params,
) -> Any:
    """Binds a callback primitive on the flattened `args`; returns the results' pytree."""
    flat, in_tree = tree_util.tree_flatten(args)
    res_leaves, out_tree = tree_util.tree_flatten(result_shape_dtypes)
    outs = prim.bind(
        *[as_value(x) for x in flat],
        callback=_Callback(callback, in_tree, out_tree, kwargs),
        result_avals=tuple(_as_aval(r) for r in res_leaves),
        **params,
    )
    return tree_util.tree_unflatten(out_tree, list(outs))


# ---------------------------------------------------------------------------------------------
# io_callback: the effectful variant

io_callback_p = Primitive("io_callback", multiple_results=True, effectful=True)


def _io_batch(args, dims, *, callback, result_avals, ordered):
    if ordered:
        raise OrderedCallbackBatchingError(
            "Cannot `vmap` ordered IO callback.\nThe order of its calls across the batch is not "
            "defined: pass ordered=False, or loop with lax.map."
        )
    size = batching.batch_size(args, dims)
    params = {"callback": callback, "result_avals": result_avals, "ordered": ordered}
    return _sequential(io_callback_p, args, dims, size, params)


io_callback_p.def_impl(
    lambda *args, callback, result_avals, ordered: _impl(
        *args, callback=callback, result_avals=result_avals, vmap_method=None
    )
)
io_callback_p.def_abstract_eval(lambda *avals, result_avals, **params: list(result_avals))
io_callback_p.def_jvp(_jvp_error("IO callbacks do not support JVP."))
io_callback_p.def_batch(_io_batch)


def io_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: Any,
    *args: Any,
    sharding: Any = None,
    ordered: bool = False,
    **kwargs: Any,
) -> Any:
    """Calls a host function with side effects (I/O, state), like `jax.experimental.io_callback`.

    Unlike `pure_callback`, the call is never removed, merged or repeated: it runs once per
    execution of the program, in program order, under `jit` too (both back ends).

    Args:
      callback: called as `callback(*args, **kwargs)` with numpy arrays in place of the array
        leaves of `args`; returns numpy arrays matching `result_shape_dtypes` (None for none).
      result_shape_dtypes: pytree of objects with `.shape` and `.dtype`, or None.
      *args: pytrees of arrays passed to the callback.
      sharding: accepted for compatibility (the callback runs on the calling device).
      ordered: keep the calls in program order (always true here); forbids `vmap`, as in JAX.
      **kwargs: static keyword arguments passed to the callback.

    Returns:
      The results, with the structure of `result_shape_dtypes`.
    """
    return _bind(io_callback_p, callback, result_shape_dtypes, args, kwargs, ordered=bool(ordered))
