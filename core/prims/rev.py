"""`rev`: reverses an array along static dimensions (`jnp.flip`, negative-stride slices).

A permutation of elements, so it is linear and its own transpose; in numba it is index
arithmetic inside a fused loop.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core.avals import ShapedArray
from core.dtypes import dtype_and_weak
from core.errors import ShapeError
from core.interpreters.jvp import deflinear
from core.primitive import Primitive
from core.prims.shapes import full
from core.trace import get_aval

rev_p = Primitive("rev")


def _rev_abstract_eval(x, *, dimensions):
    if len(set(dimensions)) != len(dimensions) or any(not 0 <= d < x.ndim for d in dimensions):
        raise ShapeError(f"rev: invalid dimensions {dimensions} for an operand of shape {x.shape}")
    return ShapedArray(x.shape, x.dtype, x.weak_type)


def _rev_batch(args, dims, *, dimensions):
    (x,), (d,) = args, dims
    return rev(x, tuple(a + 1 if a >= d else a for a in dimensions)), d


rev_p.def_impl(lambda x, *, dimensions: np.flip(x, dimensions))
rev_p.def_abstract_eval(_rev_abstract_eval)
deflinear(rev_p)
rev_p.def_transpose(lambda ct, x, *, dimensions: [rev(ct, dimensions)])
rev_p.def_batch(_rev_batch)


def rev(operand: Any, dimensions: Any) -> Any:
    """`lax.rev`: reverses `operand` along each of the static `dimensions`."""
    nd = get_aval(operand).ndim
    given = tuple(int(d) for d in dimensions)
    # JAX's shape rule, its messages: non-negative, unique dimensions below the rank
    if any(d < 0 for d in given):
        raise ShapeError(f"rev dimensions must have every element be nonnegative, got {given}.")
    if len(set(given)) != len(given):
        raise ShapeError(f"rev dimensions must be unique, got {given}.")
    if given and max(given) >= nd:
        raise ShapeError(
            f"rev dimensions must all be less than operand ndim, got dimensions {given} for "
            f"operand ndim {nd}."
        )
    dims = tuple(sorted(given))
    if not dims:
        return (
            operand
            if type(operand) not in (bool, int, float, complex)
            else full((), operand, *dtype_and_weak(operand))
        )
    return rev_p.bind(operand, dimensions=dims)
