"""Numba lowering of `core.experimental.checkify`'s `check` primitive: a `debug_check` compiles
to nothing; a `check` that `checkify` did not functionalize cannot be compiled (JAX's error)."""

from __future__ import annotations

from core.backends.numba.registry import Kernel, register_lowering
from core.experimental.checkify import FUNCTIONALIZATION_ERROR, check_p


def _lowering(ctx, eqn):
    if eqn.params["debug"]:
        return []
    raise ValueError(FUNCTIONALIZATION_ERROR)


register_lowering(check_p, Kernel(_lowering))
