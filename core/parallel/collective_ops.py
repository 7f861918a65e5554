"""What a collective does on a device of a running `pmap`: gather every device's value through
the communicator (`communicator.py`) and reduce it.

The collective primitives of `core/prims/collectives/primitives.py` come here when their axis is a
pmapped one: their eager impl calls `eager(name)` (under `disable_jit` or the numpy back end)
and their numba lowering (`core/backends/numba/rules/collectives.py`) a host call into the
same `run` through `host_collective`. A name that no running pmap binds raises
`UnboundAxisNameError`, as before.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import dtypes
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


def _share(n: int, part: int, parts: int) -> slice:
    """Share `part` of `parts` of n items (equal shares, the last one shorter)."""
    per = -(-n // parts)
    return slice(min(n, part * per), min(n, (part + 1) * per))


def _reducer(ufunc: np.ufunc, float_ufunc: np.ufunc | None = None, empty: float = 0.0):
    """A `fill` for `ThreadCommunicator.combine`: `ufunc` folded over the devices' arrays, in
    rank order, on this share of the elements. For floats `float_ufunc` replaces it when
    given: XLA's CPU all-reduce max and min skip NaNs, and an element that is NaN on every
    device (of several) becomes `empty` (-inf for max, inf for min), as JAX 0.10.2's
    `pmax`/`pmin` give (the native `exchange` folds alike)."""

    def fill(out: np.ndarray, values: list, part: int, parts: int) -> None:
        flat = out.reshape(-1)
        share = _share(flat.size, part, parts)
        first, *rest = (np.asarray(v).reshape(-1)[share] for v in values)
        skip_nan = float_ufunc is not None and dtypes.kind(flat.dtype) == "f"
        op = float_ufunc if skip_nan else ufunc
        if not rest:
            flat[share] = first
        else:
            with np.errstate(invalid="ignore"):
                op(first, rest[0], out=flat[share])
                for v in rest[1:]:
                    op(flat[share], v, out=flat[share])
        if skip_nan and rest:
            part_out = flat[share]
            part_out[np.isnan(part_out)] = empty

    return fill


_REDUCERS = {
    "psum": _reducer(np.add),
    "pmax": _reducer(np.maximum, np.fmax, -np.inf),
    "pmin": _reducer(np.minimum, np.fmin, np.inf),
}


def _gather(params: dict, size: int):
    """`new` and `fill` of `all_gather` over `size` devices: each share places its devices'
    arrays in the stacked (or, `tiled`, concatenated) result."""
    axis, tiled = params["axis"], params["tiled"]

    def new(x: np.ndarray) -> np.ndarray:
        shape = list(x.shape)
        if tiled:
            shape[axis] *= size
        else:
            shape.insert(axis, size)
        return np.empty(shape, x.dtype)

    def fill(out: np.ndarray, values: list, part: int, parts: int) -> None:
        for i in range(size)[_share(size, part, parts)]:
            x = np.asarray(values[i])
            at = slice(i * x.shape[axis], (i + 1) * x.shape[axis]) if tiled else i
            out[(slice(None),) * axis + (at,)] = x

    return new, fill


def run(name: str, params: dict, arrays: list[np.ndarray]) -> list[np.ndarray]:
    """Runs collective `name` (with its equation's `params`) on this device's `arrays`, which
    it only reads during the call (a kernel may reuse them afterwards). The result may be
    shared by the local devices: it must not be written to."""
    communicator, local_rank = _place(params["axis_name"])
    if name == "axis_index":
        return [np.asarray(communicator.first_rank + local_rank, np.int32)]
    (x,) = arrays
    x = np.asarray(x)
    if name in _REDUCERS:
        out = communicator.combine(local_rank, x, np.empty_like, _REDUCERS[name])
    elif name == "all_gather":
        out = communicator.combine(local_rank, x, *_gather(params, communicator.global_size))
    else:
        raise NotImplementedError(f"collective {name!r} has no pmap implementation")
    return [out]


def eager(name: str):
    """The eager impl of collective `name`: runs it when a pmap binds its axis here."""

    def impl(*args: Any, **params: Any) -> Any:
        _place(params["axis_name"])  # raise before converting anything
        arrays = [np.asarray(a) for a in args]
        (out,) = run(name, params, arrays)
        return Array(np.array(out), False)  # each device's own copy of the shared result

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
