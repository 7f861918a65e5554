"""What a collective does on a device of a running `pmap`: gather every device's value through
the communicator (`communicator.py`) and reduce it.

The collective primitives of `core/prims/collectives.py` come here when their axis is a
pmapped one: their eager impl calls `eager(name)` (under `disable_jit` or the numpy back end)
and their numba lowering (`core/backends/numba/rules/collectives.py`) a host call into the
same `run` through `host_collective`. A name that no running pmap binds raises
`UnboundAxisNameError`, as before.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core.array import Array
from core.errors import UnboundAxisNameError
from core.parallel import axis_env


def _place(axis_name: Any) -> tuple[Any, int]:
    names = tuple(axis_name) if isinstance(axis_name, (tuple, list)) else (axis_name,)
    if len(names) != 1:
        raise UnboundAxisNameError(axis_name)  # at most one pmapped name reaches the host
    found = axis_env.place(names[0])
    if found is None:
        raise UnboundAxisNameError(names[0])
    return found


def _sum(parts: list[np.ndarray]) -> np.ndarray:
    out = np.array(parts[0], copy=True)
    for p in parts[1:]:
        out += p
    return out


def run(name: str, params: dict, arrays: list[np.ndarray]) -> list[np.ndarray]:
    """Runs collective `name` (with its equation's `params`) on this device's `arrays`."""
    communicator, local_rank = _place(params["axis_name"])
    if name == "axis_index":
        return [np.asarray(communicator.first_rank + local_rank, np.int32)]
    (x,) = arrays
    parts = communicator.allgather(local_rank, x)
    if name == "psum":
        out = _sum(parts)
    elif name == "pmax":
        out = np.maximum.reduce(parts)
    elif name == "pmin":
        out = np.minimum.reduce(parts)
    elif name == "all_gather":
        axis = params["axis"]
        out = np.concatenate(parts, axis) if params["tiled"] else np.stack(parts, axis)
    else:
        raise NotImplementedError(f"collective {name!r} has no pmap implementation")
    return [np.asarray(out, x.dtype)]


def eager(name: str):
    """The eager impl of collective `name`: runs it when a pmap binds its axis here."""

    def impl(*args: Any, **params: Any) -> Any:
        _place(params["axis_name"])  # raise before converting anything
        arrays = [np.asarray(a) for a in args]
        (out,) = run(name, params, arrays)
        return Array(out, False)

    return impl


class _HostCollective:
    """The host function a compiled collective calls (one per primitive and parameters)."""

    def __init__(self, name: str, params: dict):
        self.name, self.params = name, params

        def fun(arrays: list[np.ndarray]) -> list[np.ndarray]:
            return run(name, params, arrays)

        fun.__qualname__ = f"collective_{name}"
        self.fun = fun


_OWNERS: dict[tuple, _HostCollective] = {}


def host_collective(name: str, params: dict) -> _HostCollective:
    """The host function object of collective `name` with `params` (one per parameter set, so
    its identity names it in generated code), for the numba lowering's host call."""
    key = (name, tuple(sorted(params.items())))
    owner = _OWNERS.get(key)
    if owner is None:
        owner = _OWNERS[key] = _HostCollective(name, params)
    return owner
