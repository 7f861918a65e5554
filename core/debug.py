"""`core.debug`: `print`, `log`, `callback` and `breakpoint` that see runtime values, like
`jax.debug` (`breakpoint`'s debugger is `core/debugger.py`).

All bind the effectful `debug_callback` primitive (no outputs; dead-code elimination keeps it
because `debug_callback_p.effectful` is set). Eagerly it runs at once. Under `jit` it stays in
the program and runs with the values of each call, on either back end (the numba one leaves
compiled code for it through an `objmode` block, see `core/jit/host_calls.py`). Under
`grad`/`jvp` it sees the primal values only; under `vmap` it runs once per batch element (as
JAX's default does).
"""

from __future__ import annotations

import copy
import logging
import string
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from core import tree_util
from core.array import Array, placement
from core.debugger import capture_frames, run_debugger
from core.interpreters.batching import batch_size
from core.lax.composites import index_in_dim
from core.primitive import Primitive
from core.trace import Tracer, as_value, get_aval

__all__ = [
    "breakpoint",
    "callback",
    "inspect_array_sharding",
    "log",
    "print",
    "visualize_array_sharding",
    "visualize_sharding",
]


class _DebugCallback:
    """Wraps the user function so the primitive's params hash by identity."""

    def __init__(self, fun: Callable):
        self.fun = fun

    def __call__(self, flat_args: list[np.ndarray]) -> None:
        self.fun(*flat_args)


def _is_array(x: Any) -> bool:
    return isinstance(x, (Array, Tracer, np.ndarray, np.generic, bool, int, float, complex))


debug_callback_p = Primitive("debug_callback", multiple_results=True, effectful=True)


def _impl(*args, callback):
    callback([np.asarray(a) for a in args])
    return []


def _jvp(primals, tangents, *, callback):
    debug_callback_p.bind(*primals, callback=callback)
    return [], []


def _batch(args, dims, *, callback):
    size = batch_size(args, dims)
    for i in range(size):
        sliced = [a if d is None else index_in_dim(a, i, d, False) for a, d in zip(args, dims)]
        debug_callback_p.bind(*sliced, callback=callback)
    return [], []


debug_callback_p.def_impl(_impl)
debug_callback_p.def_abstract_eval(lambda *avals, callback: [])
debug_callback_p.def_jvp(_jvp)
debug_callback_p.def_batch(_batch)


def callback(
    callback: Callable[..., Any] | None = None,
    *args: Any,
    ordered: bool = False,
    partitioned: bool = False,
    **kwargs: Any,
) -> Callable[..., None] | None:
    """Calls `callback(*args, **kwargs)` with the runtime values (as `Array`s) of the arrays.

    Example:
      >>> core.debug.callback(fn, x, y=y)
      >>> core.debug.callback(ordered=True)(fn, x, y=y)   # JAX's two-call form

    Works eagerly and under `jit(..., backend="python")`, `grad`, `vmap`; under the numba back
    end the compile raises `LoweringError` (use `backend="python"` while debugging).

    Args:
      callback: a Python function; its return value is ignored (None: the two-call form,
        which returns the function `(callback, *args, **kwargs) -> None`).
      *args: pytrees of arrays (other leaves are passed through as they are).
      ordered: accepted for compatibility (calls always run in program order here).
      partitioned: accepted for compatibility.
      **kwargs: more pytrees passed by keyword.

    Returns:
      None, or in the two-call form the calling function.

    Raises:
      TypeError: the two-call form's first call was given arguments (as JAX).
    """
    del ordered, partitioned
    if callback is not None:
        _bind_callback(callback, args, kwargs)
        return None
    if args or kwargs:
        raise TypeError(
            f"debug_callback received unexpected arguments in the two-call form: {args=} {kwargs=}"
        )
    return lambda fn, *a, **k: _bind_callback(fn, a, k)


def _bind_callback(fn: Callable[..., Any], args: tuple, kwargs: dict) -> None:
    """Binds `debug_callback` on the array leaves of `(args, kwargs)`; `fn` gets them back as
    `Array`s (copies of the runtime values, with the traced weak types, as JAX's) and the other
    leaves as given."""
    flat, tree = tree_util.tree_flatten((args, kwargs))
    dynamic = [_is_array(x) for x in flat]
    arrays = [as_value(x) for x, d in zip(flat, dynamic) if d]
    weak = [get_aval(a).weak_type for a in arrays]

    def call(*values: np.ndarray) -> None:
        it = iter(Array(np.array(v), w) for v, w in zip(values, weak))
        full = [next(it) if d else x for x, d in zip(flat, dynamic)]
        a, k = tree_util.tree_unflatten(tree, full)
        fn(*a, **k)

    debug_callback_p.bind(*arrays, callback=_DebugCallback(call))


class _FormatChecker(string.Formatter):
    """JAX's check of a `print` format against its arguments, before any value exists."""

    def format_field(self, value: Any, format_spec: str) -> str:
        return ""

    def check_unused_args(self, used_args: Any, args: Any, kwargs: Any) -> None:
        unused_args = [a for i, a in enumerate(args) if i not in used_args]
        unused_kwargs = [k for k in kwargs if k not in used_args]
        if unused_args:
            raise ValueError(f"Unused positional arguments to `jax.debug.print`: {unused_args}")
        if unused_kwargs:
            raise ValueError(
                f"Unused keyword arguments to `jax.debug.print`: {unused_kwargs}. "
                'You may be passing an f-string (i.e, `f"{x}"`) into `jax.debug.print` and '
                "instead should pass in a regular string."
            )


def _formatted(fmt: str, args: tuple, kwargs: dict, printoptions: dict) -> str:
    """JAX's formatting: `fmt.format(...)` under the numpy print options of the call when `fmt`
    opens with a placeholder or has one after its first text, else `fmt` and the arguments
    joined by spaces."""
    first = next(iter(string.Formatter().parse(fmt)), (None, None))
    if first[1] is not None:
        with np.printoptions(**printoptions):
            return fmt.format(*args, **kwargs)
    return " ".join((fmt, *(str(a) for a in args)))


def _print_or_log(
    fmt: str | None,
    args: tuple,
    kwargs: dict,
    check: bool,
    record: logging.LogRecord | None,
) -> Callable[..., None] | None:
    def emit(fmt: str, *c_args: Any, **c_kwargs: Any) -> None:
        if check:
            _FormatChecker().format(fmt, *c_args, **c_kwargs)
        printoptions = np.get_printoptions()  # the caller's, as JAX's

        def show(*a: Any, **k: Any) -> None:
            msg = _formatted(fmt, a, k, printoptions)
            if record is None:
                sys.stdout.write(msg + "\n")
            else:
                entry = copy.copy(record)
                entry.msg = msg
                logger.handle(entry)

        _bind_callback(show, c_args, c_kwargs)

    if fmt is not None:
        emit(fmt, *args, **kwargs)
        return None
    if args or kwargs:
        raise TypeError(
            f"debug_print received unexpected arguments in the two-call form: {args=} {kwargs=}"
        )
    return emit


def print(  # noqa: A001
    fmt: str | None = None,
    *args: Any,
    ordered: bool = False,
    partitioned: bool = False,
    skip_format_check: bool = False,
    **kwargs: Any,
) -> Callable[..., None] | None:
    """Prints `fmt.format(*args, **kwargs)` with the runtime values of the arrays.

    Example:
      >>> core.debug.print("x = {x}, y = {}", y, x=x)
      >>> core.debug.print(ordered=True)("x = {}", x)   # JAX's two-call form

    Works eagerly, under `jit` (either back end), `grad` and `vmap` (one line per batch
    element). Without placeholders in `fmt`, the arguments follow it separated by spaces.

    Args:
      fmt: the format string (None: the two-call form, which returns the printing function).
      *args, **kwargs: pytrees of arrays to format.
      ordered: accepted for compatibility (calls always run in program order here).
      partitioned: accepted for compatibility (one device's arrays are whole).
      skip_format_check: skip JAX's check that the format uses every argument.

    Returns:
      None, or in the two-call form the function `(fmt, *args, **kwargs) -> None`.
    """
    del ordered, partitioned
    return _print_or_log(fmt, args, kwargs, not skip_format_check, None)


logger = logging.getLogger(__name__)


def log(
    fmt: str | None = None,
    *args: Any,
    ordered: bool = False,
    partitioned: bool = False,
    skip_format_check: bool = False,
    **kwargs: Any,
) -> Callable[..., None] | None:
    """`print`, written to the `core.debug` logger at INFO level instead of standard output,
    as `jax.debug.log` (the record names the caller's file and line).

    Args and Returns: as `print`.
    """
    del ordered, partitioned
    caller = sys._getframe(1)
    record = logger.makeRecord(
        logger.name,
        logging.INFO,
        caller.f_code.co_filename,
        caller.f_lineno,
        "",
        None,
        None,
        caller.f_code.co_name,
    )
    return _print_or_log(fmt, args, kwargs, not skip_format_check, record)


def _flatten_local(value: Any) -> tuple[list[Any], Any]:
    """A frame local's leaves and structure for `breakpoint`; a value `tree_flatten` cannot
    take (a dict holding itself: a module-level frame's `__builtins__` holds `_`, the last
    value the interpreter displayed) is one leaf, shown as it is."""
    try:
        return tree_util.tree_flatten(value)
    except RecursionError:
        return [value], tree_util.tree_structure(0)


def breakpoint(  # noqa: A001
    *,
    backend: str | None = None,
    filter_frames: bool = True,
    num_frames: int | None = None,
    ordered: bool = False,
    token: Any = None,
    **kwargs: Any,
) -> Any:
    """Stops in the interactive debugger (`(jdb)`) when the program reaches this point, as
    `jax.debug.breakpoint` (see `core/debugger.py`).

    Array locals of the surrounding frames show their runtime values (as `Array`s), also under
    `jit`, `grad` and `vmap` (once per batch element). When standard input is not a terminal and no
    `stdin=` is given, it writes where it is to standard error and the program continues.

    Args:
      backend: accepted for compatibility (the CLI debugger is the only one).
      filter_frames: leave out numbax's own frames.
      num_frames: how many frames (innermost first) to show; all by default.
      ordered: accepted for compatibility (calls run in program order here).
      token: an alternative to `ordered`: a pytree returned unchanged.
      **kwargs: `stdin=`, `stdout=` streams for the debugger.

    Returns:
      `token` (None when not given).
    """
    del backend
    if token is not None and ordered:
        raise ValueError("`ordered` and `token` are mutually exclusive arguments.")
    frames = capture_frames(1, filter_frames, num_frames)
    flat: list[Any] = []
    trees: list[list[tuple[str, Any]]] = []
    for frame in frames:
        entries = []
        for name, value in frame.locals.items():
            leaves, tree = _flatten_local(value)
            entries.append((name, tree, len(flat), len(leaves)))
            flat.extend(leaves)
        trees.append(entries)
    traced = [i for i, x in enumerate(flat) if isinstance(x, Tracer)]

    def run(values: list[np.ndarray]) -> None:
        full = list(flat)
        for i, v in zip(traced, values):
            full[i] = Array(np.asarray(v))  # runtime values as arrays, as JAX shows them
        for frame, entries in zip(frames, trees):
            frame.locals = {
                name: tree_util.tree_unflatten(tree, full[start : start + n])
                for name, tree, start, n in entries
            }
        run_debugger(frames, **kwargs)

    debug_callback_p.bind(*[flat[i] for i in traced], callback=_Callback(run))
    return token


def inspect_array_sharding(value: Any, *, callback: Callable[[Any], None]) -> None:
    """Calls `callback` with the sharding of each array leaf of `value`, as
    `jax.debug.inspect_array_sharding` (under `jit`, once while tracing: the arrays of a
    staged program are on the default device, one `SingleDeviceSharding`).

    Args:
      value: a pytree of arrays.
      callback: called with one sharding per leaf.
    """
    for leaf in tree_util.tree_leaves(value):
        callback(leaf.sharding if isinstance(leaf, Array) else placement.default_sharding())


class _Callback(_DebugCallback):
    """A callback receiving the flat runtime values as one list."""

    def __call__(self, flat_args: list[np.ndarray]) -> None:
        self.fun(flat_args)


from core.sharding_visual import visualize_array_sharding, visualize_sharding  # noqa: E402
