"""Numba lowering of the collectives (`core/prims/collectives/primitives.py`).

Under `vmap(..., axis_name=...)` collectives are batched away before compilation, so a compiled
collective is one whose axis a `pmap` binds. In one process, psum, pmax, pmin and all_gather
of the numeric dtypes are a call of the library's `exchange` (`library/exchange.py`): the
device threads meet in native memory, and the kernel stays compiled code (an LLVM shell, if
the rest of it can be). Over several processes (`core.distributed`: the exchange goes through
MPI) and for `axis_index` and other dtypes, the collective is a host call into the device
communicator (`core/parallel/collective_ops.py`). Any other axis is an error at compile time.
"""

from __future__ import annotations

import math

import numpy as np

from core.backends.numba.library import exchange
from core.backends.numba.registry import Kernel, register_lowering
from core.backends.numba.source import alloc, np_type
from core.devices import process_count
from core.jit.errors import LoweringError
from core.parallel import axis_env, collective_ops
from core.prims.collectives import all_gather_p, axis_index_p, pmax_p, pmin_p, psum_p

_KINDS = {"psum": exchange.SUM, "pmax": exchange.MAX, "pmin": exchange.MIN}
_NATIVE_DTYPES = frozenset(
    np.dtype(t) for t in ("float32", "float64", "int8", "int16", "int32", "int64")
) | frozenset(np.dtype(t) for t in ("uint8", "uint16", "uint32", "uint64"))


def _native(ctx, eqn) -> list[str]:
    """The collective as a call of `lib.exchange` (see the module docstring)."""
    x_aval, out_aval = ctx.in_avals[0], ctx.out_avals[0]
    dtype = np.dtype(out_aval.dtype)
    code = dtype.str[1:]
    if eqn.prim.name == "all_gather":
        axis = eqn.params["axis"]
        shape = ctx.in_shape(0)
        kind, outer, inner = exchange.GATHER, math.prod(shape[:axis]), math.prod(shape[axis:])
    else:
        kind, outer, inner = _KINDS[eqn.prim.name], 1, 0
    if x_aval.shape:
        x = ctx.array(0)
    else:  # a 0-d operand: one element
        x = ctx.assign("g", f"rt.full((1,), {ctx.scalar(0)}, {np_type(dtype)})")
    out_shape = ctx.out_shape(0) if out_aval.shape else (1,)
    out = ctx.assign("g", alloc(out_shape, dtype))
    ctx.line(f"lib.exchange__{code}({x}, {out}, ({kind}, {outer}, {inner}))")
    return [out if out_aval.shape else ctx.assign("g", f"rt.ld({out}, 0)")]


def _collective_lowering(ctx, eqn):
    name, params = eqn.prim.name, dict(eqn.params)
    names = params["axis_name"]
    names = tuple(names) if isinstance(names, (tuple, list)) else (names,)
    if len(names) != 1 or axis_env.traced_size(names[0]) is None:
        raise LoweringError(
            f"the collective {name!r} over {params['axis_name']!r} outside a `vmap` or `pmap` "
            "that binds its axis_name"
        )
    native = name != "axis_index" and process_count() == 1 and not ctx.in_task
    if native and np.dtype(ctx.out_avals[0].dtype) in _NATIVE_DTYPES:
        return _native(ctx, eqn)
    owner = collective_ops.host_collective(name, params)
    # The collective reads the kernel's arrays only until every device has read them.
    return ctx.host_call(owner, owner.fun, borrow=True)


for _prim in (psum_p, pmax_p, pmin_p, all_gather_p, axis_index_p):
    register_lowering(_prim, Kernel(_collective_lowering))
