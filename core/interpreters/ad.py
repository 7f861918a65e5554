"""JAX's `jax.interpreters.ad` names, for programs that define a primitive's derivative rules.

numbax's forward mode is `core.interpreters.jvp` and its transposition
`core.interpreters.transpose`; a primitive keeps its rules in its own slots
(`core/primitive.py`). JAX's tables are views of those slots: `primitive_jvps[p] = rule` sets
`p.jvp`, `primitive_transposes[p] = rule` sets `p.transpose`, with JAX's rule signatures
(`rule(primals, tangents, **params) -> (primal_out, tangent_out)`;
`transpose(ct, *args, **params)` with the linear arguments as `UndefinedPrimal`s, returning one
cotangent or None per argument). Tangents may be the symbolic `Zero`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.ad_util import Zero, add_any, instantiate, zeros_like_aval
from core.interpreters import jvp as _jvp
from core.interpreters.jvp import JVPTrace, JVPTracer, defjvp, defjvp2
from core.interpreters.transpose import UndefinedPrimal
from core.interpreters.transpose import is_undefined as is_undefined_primal
from core.primitive import Primitive, RuleTable

__all__ = [
    "JVPTrace",
    "JVPTracer",
    "UndefinedPrimal",
    "Zero",
    "add_jaxvals",
    "add_tangents",
    "defbilinear",
    "defjvp",
    "defjvp2",
    "deflinear",
    "deflinear2",
    "get_primitive_transpose",
    "instantiate_zeros",
    "is_undefined_primal",
    "primitive_jvps",
    "primitive_transposes",
    "zeros_like_aval",
]

primitive_jvps = RuleTable("jvp")
primitive_transposes = RuleTable("transpose")

add_tangents = add_any
add_jaxvals = add_any
instantiate_zeros = instantiate


def get_primitive_transpose(prim: Primitive) -> Callable:
    """The transpose rule of `prim` (KeyError when it has none, as JAX's table lookup)."""
    return primitive_transposes[prim]


def deflinear(prim: Primitive, transpose_rule: Callable) -> None:
    """A primitive linear in all its operands: its JVP applies it to the tangents, its transpose
    is `transpose_rule(cotangent, **params)` (one cotangent per operand).

    Args:
      prim: the primitive.
      transpose_rule: the cotangents of the operands from the output's.
    """
    _jvp.deflinear(prim)
    prim.def_transpose(lambda ct, *args, **params: transpose_rule(ct, **params))


def deflinear2(prim: Primitive, transpose_rule: Callable) -> None:
    """Like `deflinear`, the transpose rule also taking the operands:
    `transpose_rule(cotangent, *args, **params)` (the linear ones `UndefinedPrimal`s).

    Args:
      prim: the primitive.
      transpose_rule: the cotangents of the operands from the output's and the operands.
    """
    _jvp.deflinear(prim)
    prim.def_transpose(transpose_rule)


def defbilinear(prim: Primitive, lhs_rule: Callable, rhs_rule: Callable) -> None:
    """A primitive linear in each of its two operands (a product): its JVP is the sum of the
    primitive applied to each tangent, its transpose calls `lhs_rule(ct, x, y, **params)` for
    an undefined `x` and `rhs_rule(ct, x, y, **params)` for an undefined `y`.

    Args:
      prim: the primitive.
      lhs_rule: the cotangent of the first operand.
      rhs_rule: the cotangent of the second operand.
    """
    defjvp(
        prim,
        lambda g, x, y, **params: prim.bind(g, y, **params),
        lambda g, x, y, **params: prim.bind(x, g, **params),
    )

    def transpose(ct: Any, x: Any, y: Any, **params: Any) -> list:
        if is_undefined_primal(x):
            ct_x = Zero(x.aval) if type(ct) is Zero else lhs_rule(ct, x, y, **params)
            return [ct_x, None]
        return [None, Zero(y.aval) if type(ct) is Zero else rhs_rule(ct, x, y, **params)]

    prim.def_transpose(transpose)
