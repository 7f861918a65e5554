"""Numba lowering rules of `core.callbacks`."""

from __future__ import annotations

from core.backends.numba.registry import Kernel, register_lowering
from core.callbacks import io_callback_p, pure_callback_p


def _lowering(ctx, eqn):
    callback, result_avals = eqn.params["callback"], eqn.params["result_avals"]
    return ctx.host_call(callback, lambda arrays: callback(arrays, result_avals))


register_lowering(pure_callback_p, Kernel(_lowering))
register_lowering(io_callback_p, Kernel(_lowering))
