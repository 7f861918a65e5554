"""`jax.extend.core`: primitives and jaxprs, as numbax's own classes.

`Primitive` is `core.primitive.ExtensionPrimitive`, a primitive a program defines with JAX's
semantics (see its docstring): `def_impl`, `def_abstract_eval`, rules set through
`jax.interpreters.ad`/`batching`; under `jit` its `impl` runs as a host call (numbax has no
MLIR). Every numbax primitive is an instance of it (`isinstance(lax.exp_p, Primitive)`).
The jaxpr classes are numbax's (`core/ir.py`); `JaxprEqn` is its `Eqn`, which has JAX's
`primitive`/`invars`/`outvars`/`params`.

Not provided (JAX internals numbax has no counterpart for): `CallPrimitive`, `call_impl`,
`DebugInfo`, `DropVar`, `gensym`, effects (`Effect`, `Effects`, `no_effects`), tokens,
`TraceTag`, `InconclusiveDimensionOperation`, `array_types`, `take_current_trace`,
`find_top_trace`, `get_opaque_trace_state` and the `*_DO_NOT_USE` functions.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from core.avals import ShapedArray
from core.dtypes import float0
from core.errors import ConcretizationTypeError, JaxprTypeError, traced_shape
from core.extend.core import primitives
from core.interpreters.batching import unbatched_aval
from core.ir import ClosedJaxpr, Jaxpr, Literal, Var, eval_jaxpr, sub_jaxprs
from core.ir import Eqn as JaxprEqn
from core.ir import typecheck as check_jaxpr
from core.primitive import ExtensionPrimitive as Primitive
from core.trace import Tracer, get_aval, set_current_trace

__all__ = [
    "ClosedJaxpr",
    "Jaxpr",
    "JaxprEqn",
    "JaxprTypeError",
    "Literal",
    "Primitive",
    "Var",
    "check_jaxpr",
    "concrete_or_error",
    "jaxpr_as_fun",
    "jaxprs_in_params",
    "mapped_aval",
    "new_jaxpr_eqn",
    "primal_dtype_to_tangent_dtype",
    "primitives",
    "set_current_trace",
    "subjaxprs",
    "unmapped_aval",
    "valid_jaxtype",
]


def jaxpr_as_fun(closed_jaxpr: ClosedJaxpr, *args: Any) -> Callable[..., list[Any]]:
    """The function of a closed jaxpr, as JAX's (curried) `jaxpr_as_fun`: calling it runs the
    jaxpr under the current interpreter, so transformations of the call transform the jaxpr.

    Args:
      closed_jaxpr: the jaxpr and its constants.
      *args: leading inputs to bind now, as JAX's (`jaxpr_as_fun(cj, x)` is not yet a call).

    Returns:
      The function of the remaining inputs, returning the list of outputs.
    """
    return functools.partial(_run_closed, closed_jaxpr, *args)


def _run_closed(closed_jaxpr: ClosedJaxpr, *args: Any) -> list[Any]:
    return eval_jaxpr(closed_jaxpr.jaxpr, closed_jaxpr.consts, *args)


def new_jaxpr_eqn(
    invars: Sequence[Any],
    outvars: Sequence[Var],
    primitive: Primitive,
    params: dict,
    effects: Any = None,
    source_info: Any = None,
    ctx: Any = None,
) -> JaxprEqn:
    """An equation `outvars = primitive[params] invars` (JAX's argument order).

    Args:
      invars: its input atoms (`Var`s and `Literal`s).
      outvars: its output variables.
      primitive: the primitive.
      params: its parameters.
      effects: JAX's effects, ignored (an effectful numbax primitive says so itself).
      source_info: where it was traced from (`source_info_util.SourceInfo`), or None.
      ctx: JAX's equation context, ignored.

    Returns:
      The equation.
    """
    return JaxprEqn(primitive, list(invars), dict(params), list(outvars), source_info)


def concrete_or_error(force: Callable | None, val: Any, context: str = "") -> Any:
    """`force(val)` on the concrete value behind `val`; an abstract tracer raises
    `ConcretizationTypeError` naming `context`.

    Args:
      force: applied to the concrete value (None: the value itself).
      val: a value or a tracer.
      context: what needed the concrete value, for the error.

    Returns:
      `force` of the concrete value.
    """
    force = force or (lambda x: x)
    if isinstance(val, Tracer):
        concrete = val.to_concrete_value()
        if concrete is None:
            raise ConcretizationTypeError(traced_shape(val.aval), context)
        return force(concrete)
    return force(val)


def valid_jaxtype(x: Any) -> bool:
    """Whether `x` is an array value numbax computes on (an array, tracer or scalar)."""
    try:
        get_aval(x)
    except TypeError:
        return False
    return True


def mapped_aval(size: int, axis: int | None, aval: ShapedArray) -> ShapedArray:
    """`aval` without its mapped axis `axis` (of length `size`; None: not mapped).

    Args:
      size: the mapped axis' length.
      axis: the mapped axis, or None.
      aval: the abstract value.

    Returns:
      The abstract value of one slice.
    """
    if axis is not None and aval.shape[axis] != size:
        raise ValueError(
            f"mapped axis {axis} of {aval.str_short(short_dtypes=True)} has not size {size}"
        )
    return unbatched_aval(aval, axis)


def unmapped_aval(size: int, axis: int | None, aval: ShapedArray) -> ShapedArray:
    """`aval` with an axis of length `size` inserted at `axis` (None: unchanged).

    Args:
      size: the new axis' length.
      axis: where it goes, or None.
      aval: the abstract value of one slice.

    Returns:
      The abstract value of the stacked slices.
    """
    if axis is None:
        return aval
    return aval.update(shape=(*aval.shape[:axis], size, *aval.shape[axis:]))


def jaxprs_in_params(params: dict) -> Iterator[Jaxpr]:
    """The jaxprs in an equation's parameters (a closed one's inner jaxpr)."""
    for value in params.values():
        yield from sub_jaxprs(value)


def subjaxprs(jaxpr: Jaxpr) -> Iterator[Jaxpr]:
    """The jaxprs in the parameters of `jaxpr`'s equations (not recursively)."""
    for eqn in jaxpr.eqns:
        yield from jaxprs_in_params(eqn.params)


def primal_dtype_to_tangent_dtype(primal_dtype: Any) -> np.dtype:
    """The dtype of a tangent: the primal's for inexact dtypes, `float0` otherwise."""
    dtype = np.dtype(primal_dtype)
    return dtype if np.issubdtype(dtype, np.inexact) else np.dtype(float0)
