"""`jax.extend.core`: primitives and jaxprs, as numbax's own classes.

`Primitive` is `core.primitive.ExtensionPrimitive`, a primitive a program defines with JAX's
semantics (see its docstring): `def_impl`, `def_abstract_eval`, rules set through
`jax.interpreters.ad`/`batching`; under `jit` its `impl` runs as a host call (numbax has no
MLIR). Every numbax primitive is an instance of it (`isinstance(lax.exp_p, Primitive)`).
The jaxpr classes are numbax's (`core/ir.py`); `JaxprEqn` is its `Eqn`, which has JAX's
`primitive`/`invars`/`outvars`/`params`.

Not provided (JAX internals numbax has no counterpart for): `CallPrimitive`, `DebugInfo`,
`DropVar`, effects (`Effect`, `Effects`, `no_effects`), tokens, `TraceTag`, the current-trace
accessors and the `*_DO_NOT_USE` functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.errors import JaxprTypeError
from core.extend.core import primitives
from core.ir import ClosedJaxpr, Jaxpr, Literal, Var, eval_jaxpr
from core.ir import Eqn as JaxprEqn
from core.ir import typecheck as check_jaxpr
from core.primitive import ExtensionPrimitive as Primitive

__all__ = [
    "ClosedJaxpr",
    "Jaxpr",
    "JaxprEqn",
    "JaxprTypeError",
    "Literal",
    "Primitive",
    "Var",
    "check_jaxpr",
    "jaxpr_as_fun",
    "new_jaxpr_eqn",
    "primitives",
]


def jaxpr_as_fun(closed_jaxpr: ClosedJaxpr, *args: Any) -> Any:
    """Runs a closed jaxpr on `args` under the current interpreter (so transformations of the
    call transform the jaxpr); `functools.partial(jaxpr_as_fun, closed_jaxpr)` is its function.

    Args:
      closed_jaxpr: the jaxpr and its constants.
      *args: one value per input variable.

    Returns:
      The list of outputs.
    """
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
