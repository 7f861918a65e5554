"""Dtype promotion shared by the layers (``flax.linen.dtypes``).

A layer computes in ``dtype`` when given, else in the promoted type of its inputs and
parameters (JAX's lattice, so float32 params with bfloat16 inputs compute in float32).
"""

from __future__ import annotations

from typing import Any

import core.numpy as jnp


def canonicalize_dtype(*args: Any, dtype: Any = None, inexact: bool = True) -> Any:
    """The dtype a layer computes in: ``dtype``, or the promoted type of ``args``.

    Args:
      *args: arrays (``None`` entries are skipped).
      dtype: an explicit dtype that wins over promotion.
      inexact: promote integer results to a float type (and require a float ``dtype``).

    Returns:
      The dtype.
    """
    chosen = _promoted(args, inexact) if dtype is None else dtype
    if not inexact or jnp.issubdtype(chosen, jnp.inexact):
        return chosen
    raise ValueError(
        f"Dtype must be inexact: {chosen}\nThe computation dtype must be a float type."
    )


def _promoted(args: tuple, inexact: bool) -> Any:
    """The promoted dtype of the non-``None`` ``args``, lifted to a float type if ``inexact``."""
    promoted = jnp.result_type(*[jnp.asarray(a) for a in args if a is not None])
    if inexact and not jnp.issubdtype(promoted, jnp.inexact):
        # Integer and bool operands compute in float32 (or wider, as promotion decides).
        return jnp.promote_types(jnp.float32, promoted)
    return promoted


def promote_dtype(*args: Any, dtype: Any = None, inexact: bool = True) -> list[Any]:
    """Casts every non-``None`` argument to :func:`canonicalize_dtype` of them all."""
    dtype = canonicalize_dtype(*args, dtype=dtype, inexact=inexact)
    return [jnp.asarray(x, dtype) if x is not None else None for x in args]
