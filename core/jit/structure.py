"""What a kernel's jaxpr computes, as a hashable key: equal keys, equal generated kernels.

A program split into kernels (`core/jit/partition.py`) has many kernels that compute the same
thing on other variables: the layers of a transformer's blocks, a ResNet's convolutions of equal
shapes, forward and backward steps of equal sizes (the transformer step: 179 kernels, 63
distinct sources). `key(jaxpr)` names every variable by where it is defined (an input's position,
an equation's position and output), so such kernels have equal keys, and `codegen.generate_generic`
generates each key once per process (its source and size arrays are then those of the first).

The key holds the primitives (by identity), the parameters (only values whose equality is exact:
ints, strings, floats by their `repr`, dtypes, tuples of them), the literals (`literal_value`,
and their abstract values), and the abstract values of the inputs and of every equation's
outputs.
Anything else (a jaxpr or a function in the parameters, an array literal) makes `key` return
None: such a kernel is generated as before.
"""

from __future__ import annotations

import numpy as np

from core.ir import Jaxpr, Literal, Var

_EXACT = (int, str, type(None))  # bool is an int: its type is in the key too


class _Inexact(Exception):
    """A value whose equality the key cannot tell exactly."""


def key(jaxpr: Jaxpr) -> tuple | None:
    """The structure of `jaxpr` (see the module docstring), or None if it cannot be keyed."""
    where: dict[Var, tuple] = {}
    for k, v in enumerate([*jaxpr.constvars, *jaxpr.invars]):
        where.setdefault(v, ("in", k))
    try:
        parts: list = [tuple(v.aval for v in [*jaxpr.constvars, *jaxpr.invars])]
        for i, eqn in enumerate(jaxpr.eqns):
            if eqn.prim.higher_order or eqn.prim.effectful:
                return None
            ins = tuple(_atom(x, where) for x in eqn.inputs)
            params = tuple((name, _value(v)) for name, v in sorted(eqn.params.items()))
            parts.append((eqn.prim, ins, params, tuple(v.aval for v in eqn.outputs)))
            for j, v in enumerate(eqn.outputs):
                where[v] = (i, j)
        parts.append(tuple(_atom(x, where) for x in jaxpr.outvars))
        result = tuple(parts)
        hash(result)
    except (_Inexact, TypeError):  # TypeError: an unhashable abstract value
        return None
    return result


def _atom(x, where: dict) -> tuple:
    if isinstance(x, Var):
        if x not in where:  # read before it is defined: not a jaxpr the key describes
            raise _Inexact
        return where[x]
    if isinstance(x, Literal):
        val = x.val
        if isinstance(val, np.ndarray) and val.ndim:
            raise _Inexact
        return ("lit", literal_value(val), x.aval)
    raise _Inexact


def literal_value(val) -> tuple:
    """An exact, hashable form of literal value `val`: a numpy array or scalar by its type, dtype,
    shape and bytes (its `repr` goes through numpy's array printer, tens of microseconds, and
    abbreviates large arrays), anything else by its type and `repr`.

    Args:
      val: the value of a `Literal`.

    Returns:
      A tuple equal to that of another value only if the two values are the same.
    """
    if isinstance(val, (np.ndarray, np.generic)):
        return (type(val), val.dtype, val.shape, val.tobytes())
    return (type(val), repr(val))


def _value(v) -> tuple:
    """A parameter value as a key: its type and an exact form of it."""
    if isinstance(v, _EXACT):
        return (type(v), v)
    if isinstance(v, (float, np.floating)):  # repr: -0.0 is not 0.0
        return (type(v), repr(v))
    if isinstance(v, np.integer | np.bool_):
        return (type(v), v.item())
    if isinstance(v, np.dtype):
        return (np.dtype, v.str, v.name)
    if isinstance(v, (tuple, list)):
        return (type(v), tuple(_value(x) for x in v))
    raise _Inexact
