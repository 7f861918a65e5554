"""Numba lowering of the collectives (`core/prims/collectives.py`).

Under `vmap(..., axis_name=...)` collectives are batched away before compilation, so a compiled
collective is one whose axis a `pmap` binds: a host call into the device communicator
(`core/parallel/collective_ops.py`). Any other axis is an error at compile time.
"""

from __future__ import annotations

from core.backends.numba.registry import Kernel, register_lowering
from core.jit.errors import LoweringError
from core.parallel import axis_env, collective_ops
from core.prims.collectives import all_gather_p, axis_index_p, pmax_p, pmin_p, psum_p


def _collective_lowering(ctx, eqn):
    name, params = eqn.prim.name, dict(eqn.params)
    names = params["axis_name"]
    names = tuple(names) if isinstance(names, (tuple, list)) else (names,)
    if len(names) != 1 or axis_env.traced_size(names[0]) is None:
        raise LoweringError(
            f"the collective {name!r} over {params['axis_name']!r} outside a `vmap` or `pmap` "
            "that binds its axis_name"
        )
    owner = collective_ops.host_collective(name, params)
    # The collective reads the kernel's arrays only until every device has read them.
    return ctx.host_call(owner, owner.fun, borrow=True)


for _prim in (psum_p, pmax_p, pmin_p, all_gather_p, axis_index_p):
    register_lowering(_prim, Kernel(_collective_lowering))
