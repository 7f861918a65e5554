"""`split_real_and_imaginary`: runs a real-valued optimizer on complex parameters.

Complex leaves are replaced by `SplitRealAndImaginaryArrays(real, imaginary)` pairs before the
inner transformation sees them, and its updates are recombined as `real + 1j * imaginary`, so
(for example) Adam's second moment is taken per component, not of `|g|**2`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import core.numpy as jnp
from core import tree_util
from optim.base import GradientTransformation


class SplitRealAndImaginaryArrays(NamedTuple):
    """A complex array as its two real parts."""

    real: Any
    imaginary: Any


class SplitRealAndImaginaryState(NamedTuple):
    """State of `split_real_and_imaginary`: the inner transformation's state."""

    inner_state: Any


def _split(x: Any) -> Any:
    if jnp.iscomplexobj(x):
        return SplitRealAndImaginaryArrays(jnp.real(x), jnp.imag(x))
    return x


def _merge(x: Any) -> Any:
    if isinstance(x, SplitRealAndImaginaryArrays):
        return x.real + x.imaginary * 1j
    return x


def _is_pair(x: Any) -> bool:
    return isinstance(x, SplitRealAndImaginaryArrays)


def split_real_and_imaginary(inner: GradientTransformation) -> GradientTransformation:
    """Applies `inner` to the real and imaginary parts of complex leaves separately.

    Args:
      inner: a transformation for real-valued trees.

    Returns:
      A `GradientTransformation` with state `SplitRealAndImaginaryState(inner_state)`.
    """

    def init_fn(params):
        return SplitRealAndImaginaryState(inner.init(tree_util.tree_map(_split, params)))

    def update_fn(updates, state, params=None):
        updates = tree_util.tree_map(_split, updates)
        params = tree_util.tree_map(_split, params)
        updates, inner_state = inner.update(updates, state.inner_state, params)
        updates = tree_util.tree_map(_merge, updates, is_leaf=_is_pair)
        return updates, SplitRealAndImaginaryState(inner_state)

    return GradientTransformation(init_fn, update_fn)
