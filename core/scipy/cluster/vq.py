"""`core.scipy.cluster.vq`: `vq`, nearest-code assignment, as JAX computes it.

The Euclidean distances from each observation to every code (`vmap` over observations), then
the `argmin` per row and the distance it picks.
"""

from __future__ import annotations

import operator
from typing import Any

import core.numpy as jnp
from core import api
from core.errors import ShapeError
from core.numpy._util import promote_dtypes_inexact
from core.scipy.errors import ShapeMismatchError

__all__ = ["vq"]


def vq(obs: Any, code_book: Any, check_finite: bool = True) -> tuple[Any, Any]:
    """Assigns each observation the nearest code (`jax.scipy.cluster.vq.vq`).

    Args:
        obs: observations `(M, N)`, or `(M,)` for length-1 observations.
        code_book: codes `(K, N)`, or `(K,)`, of the same rank as `obs`.
        check_finite: unused, as in JAX.

    Returns:
        `(code, dist)`: the int32 index `(M,)` of each observation's nearest code and the
        Euclidean distance to it.
    """
    del check_finite
    obs_arr, cb_arr = promote_dtypes_inexact(jnp.asarray(obs), jnp.asarray(code_book))
    if obs_arr.ndim != cb_arr.ndim:
        raise ShapeMismatchError("Observation and code_book should have the same rank")
    if obs_arr.ndim == 1:
        obs_arr, cb_arr = obs_arr[..., None], cb_arr[..., None]
    if obs_arr.ndim != 2:
        raise ShapeMismatchError("ndim different than 1 or 2 are not supported")
    n_obs, n_cb = obs_arr.shape[1], cb_arr.shape[1]
    if n_obs != n_cb and 1 not in (n_obs, n_cb):  # JAX's error names one observation's shape
        raise ShapeError(
            f"sub got incompatible shapes for broadcasting: (1, {n_obs}), {cb_arr.shape}.\n"
            "Observations and codes need the same number of features (their last axes)."
        )
    dist = api.vmap(lambda ob: jnp.linalg.norm(ob[None] - cb_arr, axis=-1))(obs_arr)
    code = jnp.argmin(dist, axis=-1)
    return code, api.vmap(operator.getitem)(dist, code)
