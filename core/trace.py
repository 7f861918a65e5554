"""Interpreters and how `bind` finds the current one ("stackless" dispatch, as in current JAX).

There is always one *current trace*. `Primitive.bind` hands every operation to it. Each
transformation (jvp, vmap, staging for jit/make_jaxpr, partial evaluation for linearize) creates
a `Trace` whose `parent` is the trace that was current when it started, makes it current while
the user's function runs, and runs its own rules with the parent as the current trace. So a
rule's operations are handled by the interpreter below it, and nesting (`grad(grad(f))`,
`vmap(jit(grad(f)))`) needs no extra machinery. At the bottom sits `EvalTrace`, which runs each
primitive's numpy `impl` on concrete values.

A `Tracer` is a value boxed by one trace. A trace treats tracers of other traces as constants
(that is how perturbation confusion is avoided: `x._trace is self` decides); a tracer that
reaches the eval trace has escaped its transformation and raises `UnexpectedTracerError`.
Converting an abstract tracer to a Python bool/int or a numpy array raises the documented
errors of `core.errors`, whose messages name the fixes.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import types
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from core import dtypes, errors
from core.array import Array, asarray_concrete, placement
from core.array_base import ArrayBase
from core.avals import ShapedArray
from core.config import config
from core.debug_nans import check_primitive_outputs
from core.prng_key import PRNGKeyArray


class Trace:
    """An interpreter. Subclasses implement `process_primitive`."""

    parent: Trace | None = None

    def process_primitive(self, prim, args: tuple, params: dict) -> Any:
        raise NotImplementedError

    def process_custom_jvp(self, fun, jvp, args: tuple, symbolic_zeros: bool) -> Any:
        """Default: ignore the custom rule and run the function (right for non-AD traces)."""
        with set_current_trace(self):
            return fun(*args)

    def process_custom_vjp(self, fun, fwd, bwd, args: tuple) -> Any:
        with set_current_trace(self):
            return fun(*args)


class Tracer(ArrayBase):
    """A value boxed by a trace. Subclasses set `_trace` and define `aval`."""

    __slots__ = ("_trace",)

    def to_concrete_value(self) -> Any:
        """The concrete value behind the tracer, or None when it is abstract."""
        return None

    def _concrete(self, error: Callable[[Any], Exception]) -> Any:
        val = self.to_concrete_value()
        if val is None:
            raise error(self.aval)
        return val

    def _check_scalar(self) -> None:
        """JAX's TypeError for converting a traced array with dimensions to a Python scalar."""
        if self.aval.ndim:
            raise errors.ScalarConversionError(self.aval.ndim)

    def __bool__(self) -> bool:
        if self.aval.size != 1:  # JAX's (numpy's) ValueError, before concreteness
            raise errors.AmbiguousTruthValueError(empty=self.aval.size == 0)
        return bool(self._concrete(errors.TracerBoolConversionError))

    def __int__(self) -> int:
        self._check_scalar()
        return int(self._concrete(lambda aval: errors.scalar_conversion(aval, "int")))

    def __index__(self) -> int:
        if self.aval.ndim or self.aval.dtype.kind not in "iu":  # JAX's, before concreteness
            raise errors.ScalarIndexError()
        return int(self._concrete(errors.TracerIntegerConversionError))

    # JAX converts no tracer to a float or complex, even one of a known value (`int`, `bool`
    # and `index` take the value of one under jvp or grad)
    def __float__(self) -> float:
        self._check_scalar()
        raise errors.scalar_conversion(self.aval, "float")

    def __complex__(self) -> complex:
        self._check_scalar()
        raise errors.scalar_conversion(self.aval, "complex")

    # an Array's runtime methods and attributes, which a traced value has not (JAX's words)
    def block_until_ready(self) -> Any:
        raise errors.TracerAttributeError(self.aval, "block_until_ready", "method")

    def copy_to_host_async(self) -> Any:
        raise errors.TracerAttributeError(self.aval, "copy_to_host_async", "method")

    @property
    def sharding(self) -> Any:
        raise errors.TracerAttributeError(self.aval, "sharding", "attribute")

    @property
    def addressable_shards(self) -> Any:  # JAX's concretization error, not an AttributeError
        where = errors.traced_shape(self.aval)
        raise errors.ConcretizationTypeError(
            where, f"The 'addressable_shards' attribute is not available on {where}."
        )

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        # always, as JAX: a tracer with a concrete value (under grad) is no numpy array either
        raise errors.TracerArrayConversionError(self.aval)

    def item(self):
        return self._concrete(lambda aval: self._method_error(aval, "item")).item()

    def tolist(self):
        return self._concrete(lambda aval: self._method_error(aval, "tolist")).tolist()

    def tobytes(self, order="C"):
        return self._concrete(lambda aval: self._method_error(aval, "tobytes")).tobytes(order)

    @staticmethod
    def _method_error(aval: Any, method: str) -> Exception:
        where = errors.traced_shape(aval)  # JAX's words for each
        if method == "item":
            detail = "This occurred in the item() method of jax.Array"
        else:
            detail = f"The {method}() method was called on {where}."
        return errors.ConcretizationTypeError(where, detail)

    def __repr__(self) -> str:  # JAX's default `_short_repr` (`MyTracer<float32[2]>`)
        return f"{type(self).__name__}<{self.aval}>"


def get_aval(x: Any) -> ShapedArray:
    """The abstract value of any array-like: Array, Tracer, numpy value or Python scalar."""
    aval = getattr(x, "aval", None)
    if aval is not None:
        return aval
    if isinstance(x, np.ndarray):
        if x.dtype == dtypes.float0:  # a zero tangent of keys (`ad_util.zeros_like_aval`)
            return ShapedArray(x.shape, dtypes.float0)
        return ShapedArray(x.shape, dtypes.canonicalize_dtype(x.dtype))
    if isinstance(x, (bool, int, float, complex, np.generic)):
        dt, weak = dtypes.dtype_and_weak(x)
        return ShapedArray((), dt, weak)
    raise errors.InvalidJaxTypeError(x)


def to_numpy(x: Any, aval: ShapedArray | None = None) -> np.ndarray:
    """Unboxes a concrete value for a numpy impl (Python scalars get their canonical dtype)."""
    val = getattr(x, "_value", None)
    if val is not None:
        return val
    if isinstance(x, Tracer):
        raise errors.UnexpectedTracerError(x.aval)
    if aval is None:
        aval = get_aval(x)
    return np.asarray(x, dtype=aval.dtype)


def as_value(x: Any) -> Any:
    """Arrays, key arrays and tracers pass through; anything else (Python or numpy scalars and
    arrays) becomes a concrete `Array` with its canonical dtype."""
    return x if isinstance(x, (Array, Tracer, PRNGKeyArray)) else asarray_concrete(x)


def as_output_value(x: Any) -> Any:
    """`as_value` of a transformed function's output, with JAX's error for a Python int its
    dtype cannot hold ("Python int ... too large to convert to int32")."""
    try:
        return as_value(x)
    except OverflowError:
        if type(x) is not int:
            raise
        dt = dtypes.python_scalar_dtype(x)
        raise OverflowError(f"Python int {x} too large to convert to {dt}") from None


class EvalTrace(Trace):
    """The bottom interpreter: runs each primitive's numpy `impl` on concrete values."""

    def process_primitive(self, prim, args: tuple, params: dict) -> Any:
        # Abstract evaluation first (about a microsecond): it rejects shapes and dtypes that
        # JAX rejects, which numpy would otherwise broadcast, clamp or compute anyway.
        # It also gives the results' weak types, as it does for staged programs.
        out_aval = prim.abstract_eval(*[get_aval(a) for a in args], **params)
        if config._no_execution:
            raise RuntimeError(
                f"JAX tried to execute function {prim.name}, but the no_execution config "
                "option is set"
            )
        if prim.on_keys or prim.higher_order and _returns_keys(out_aval):
            return on_keys(prim, args, params, out_aval)
        try:
            vals = [to_numpy(a) for a in args]
        except TypeError:  # a key array (`np.asarray` of one raises): computed on its data
            if not any(type(getattr(a, "dtype", None)) is dtypes.KeyDType for a in args):
                raise
            return on_keys(prim, args, params, out_aval)
        out = prim.impl(*vals, **params)
        if config._check_floats:  # debug_nans / debug_infs
            check_primitive_outputs(prim, args, out, params)
        if prim.multiple_results:
            out = [Array(np.asarray(o), a.weak_type) for o, a in zip(out, out_aval, strict=True)]
        else:
            out = Array(np.asarray(out), out_aval.weak_type)
        if placement.committed_to_device:  # results follow committed inputs (`core.committed`)
            return placement.follow_primitive(out, list(args), prim.name, params, out_aval)
        return out


def _returns_keys(out_avals: list) -> bool:
    """Whether a higher-order primitive's results hold keys (computed on their data)."""
    return any(type(a.dtype) is dtypes.KeyDType for a in out_avals)


eval_trace = EvalTrace()
# The eager evaluation of an equation with key operands or results (`core/prims/prng.py`'s
# `eval_on_keys`, which registers itself here): (prim, args, params, out_aval) -> results.
on_keys: Callable = None  # type: ignore[assignment]


class _TraceState(threading.local):
    """The current trace, one per thread (as in JAX): each thread starts at the eval trace, so
    two threads running `grad` or `jit` at once never see each other's tracers."""

    def __init__(self) -> None:
        self.trace: Trace = eval_trace
        # The vma typing of the `shard_map(check_vma=True)` body being traced, or None
        # (`core/shard_map_vma.py`'s `Typing`: its `bind` inserts JAX's pvarys, its `types`
        # types the staged results).
        self.vma: Any = None


_state = _TraceState()


def varying_like(val: Any, aval: Any) -> Any:
    """`val`, a constant made for a value of `aval`, varying along the mesh axes `aval` does
    inside a `shard_map(check_vma=True)` body (a `pvary`, as JAX's `full_like` and zeros of
    an aval insert); `val` itself elsewhere."""
    vma = getattr(aval, "vma", None)
    return val if _state.vma is None or not vma else _state.vma.pvary(val, vma)


def current_trace() -> Trace:
    """The interpreter that handles the next `bind`."""
    return _state.trace


@contextlib.contextmanager
def set_current_trace(trace: Trace) -> Iterator[None]:
    """Makes `trace` current for the duration of a block."""
    prev = _state.trace
    _state.trace = trace
    try:
        yield
    finally:
        _state.trace = prev


def new_trace_parent() -> Trace:
    """The parent a new transformation's trace should get: the current trace."""
    return _state.trace


def closes_over(trace: Trace, funs: tuple, depth: int = 8) -> bool:
    """Whether any of `funs` reaches a tracer of `trace` through what it closes over: closure
    cells and defaults of functions, the function, arguments and keywords of partials, the
    attributes of objects (a `custom_jvp` holds its rules, its call the static arguments) and
    the items of lists, tuples and dicts, `depth` levels down. A trace that would hand such a
    function to its parent (custom rules of arguments it does not own) runs it itself instead,
    as JAX's `vmap` of a custom rule that closes over a mapped value.

    Args:
      trace: the trace whose tracers count.
      funs: functions and callables.
      depth: how many levels to follow.

    Returns:
      True when a tracer of `trace` is reachable.
    """
    seen: set[int] = set()

    def reach(x: Any, level: int) -> bool:
        if isinstance(x, Tracer):
            return x._trace is trace
        if level == 0 or id(x) in seen or isinstance(x, (type, types.ModuleType)):
            return False
        seen.add(id(x))
        if isinstance(x, (list, tuple)):
            items = list(x)
        elif isinstance(x, dict):
            items = list(x.values())
        elif isinstance(x, functools.partial):
            items = [x.func, *x.args, *x.keywords.values()]
        elif isinstance(x, types.MethodType):
            items = [x.__func__, x.__self__]
        elif isinstance(x, types.FunctionType):
            items = closure_values(x) + list(x.__defaults__ or ())
        elif hasattr(x, "__dict__"):
            items = list(vars(x).values())
        else:
            return False
        return any(reach(v, level - 1) for v in items)

    return any(reach(f, depth) for f in funs)


def closure_values(fun: Any) -> list[Any]:
    """The values in `fun`'s closure cells (a cell of a name not yet assigned has none).

    Args:
      fun: a function (anything else has no cells).

    Returns:
      The values, in cell order.
    """
    values = []
    for cell in getattr(fun, "__closure__", None) or ():
        try:
            values.append(cell.cell_contents)
        except ValueError:  # empty
            continue
    return values
