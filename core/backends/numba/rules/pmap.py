"""Numba lowering of the `pmap` primitive (`core/parallel/pmap_prim.py`): a host call.

The compiled program calls back into Python at the pmap equation, which runs the per-device
programs on the device threads (`core.parallel.pmap_prim.run_jaxpr`, compiled on first use)
and hands the stacked outputs back: `jit(pmap(f))` and `jit(grad(...pmap...))` keep the
devices working in parallel. The kernels around the call release the GIL as usual.
"""

from __future__ import annotations

import numpy as np

from core.backends.numba.registry import Kernel, register_lowering
from core.parallel.pmap_prim import pmap_p, run_jaxpr


class _HostPmap:
    """The host function of one pmap equation (one per jaxpr and parameters, so its identity
    names it in generated code)."""

    def __init__(self, params: dict):
        jaxpr = params["jaxpr"]

        def fun(arrays: list[np.ndarray]) -> list[np.ndarray]:
            return [np.asarray(o) for o in run_jaxpr(jaxpr, arrays, params)]

        fun.__qualname__ = f"pmap_{params['name']}"
        self.fun = fun


_OWNERS: dict[tuple, _HostPmap] = {}


def _lowering(ctx, eqn):
    params = dict(eqn.params)
    key = (id(params["jaxpr"]), *sorted((k, v) for k, v in params.items() if k != "jaxpr"))
    owner = _OWNERS.get(key)
    if owner is None:
        owner = _OWNERS[key] = _HostPmap(params)  # keeps the jaxpr (and its id) alive
    return ctx.host_call(owner, owner.fun)


register_lowering(pmap_p, Kernel(_lowering))
