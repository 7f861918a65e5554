"""Input checks shared by the losses; they raise `LossInputError` (`LossShapeError` for
shapes) with Optax's first line (chex's assertion texts), then numbax's naming the argument."""

from __future__ import annotations

from typing import Any

import core.numpy as jnp
from optim.errors import LossInputError, LossShapeError


def check_floating(loss: str, name: str, x: Any) -> None:
    """Raises unless `x` has a real floating dtype (Optax rejects complex inputs too)."""
    dtype = jnp.result_type(x)
    if not jnp.issubdtype(dtype, jnp.floating):
        raise LossInputError(
            "Expected the input to have a dtype that is a subdtype of <class 'numpy.floating'>, "
            f"got {dtype} instead\n{loss}: `{name}` must be floating point, got dtype {dtype}. "
            f"Cast it with `{name}.astype(jnp.float32)`."
        )


def check_integer(loss: str, name: str, x: Any) -> None:
    """Raises unless `x` has an integer dtype."""
    dtype = jnp.result_type(x)
    if not jnp.issubdtype(dtype, jnp.integer):
        raise LossInputError(
            "Expected the input to have a dtype that is a subdtype of <class 'numpy.integer'>, "
            f"got {dtype} instead\n{loss}: `{name}` must be integer class indices, got dtype "
            f"{dtype}. For one-hot or soft labels use `softmax_cross_entropy`."
        )


def check_same_shape(loss: str, x: Any, y: Any) -> None:
    """Raises unless `x` and `y` have the same shape."""
    if jnp.shape(x) != jnp.shape(y):
        raise LossShapeError(
            f"Shape mismatch: got {jnp.shape(x)} and {jnp.shape(y)}.\n"
            f"{loss}: predictions and targets must have the same shape, got {jnp.shape(x)} and "
            f"{jnp.shape(y)}. Broadcast or reshape explicitly."
        )
