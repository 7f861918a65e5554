"""Running one compiled per-device program on several device threads at once.

`run` cuts every mapped input into one slice per device, queues the program of each slice on
its device's worker thread (`core/device_worker.py`), waits for all of them and stacks the
per-device outputs along their `out_axes` into `Array`s placed as JAX places pmap outputs
(`core.sharding.pmap_sharding`). The kernels release the GIL, so the devices compute in
parallel; their collectives meet through one `ThreadCommunicator` per call (and, under
`core.distributed`, the other processes). Both `pmap`'s call path and the `pmap` primitive's
impl (`core/parallel/pmap_prim.py`) come here.

When some kernels of the program compute the same result on every device (after a psum, from
replicated inputs: an optimizer update), each device runs its own variant of the program and
those kernels run on one device each (`shared_work.py`); an input whose devices' values are one
buffer (a replicated output of the last call, `replicated`) counts as replicated.

A caller that is itself a device worker (a jitted program running on a device's queue that
reaches a pmap through a host call) runs its own device's slice inline instead of queueing it
behind itself.

The outputs are not stacked when the devices finish: each is a `StackedArray`, an `Array` that
holds the devices' results (`Shards`) and stacks them into one numpy array only when its value
is first read (printing, `np.asarray`, `unreplicate`, a jitted call), then becomes a plain
`Array`. A pmap called again on the same devices with the output mapped along the same axis
(a training loop's replicated state) gives each device its own result back, as JAX's sharded
arrays stay on their devices: stacking every output of a ResNet-10 step (its parameters and
momenta, 39 MB per device) cost each device 9 ms of a 78 ms step.
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import distributed
from core.array import Array
from core.avals import ShapedArray, interned
from core.device_worker import current_device
from core.devices import process_count, process_index
from core.parallel import axis_env, shared_work
from core.parallel.communicator import ThreadCommunicator
from core.pending import UnreadArray
from core.sharding import pmap_sharding

__all__ = ["Shards", "StackedArray", "read_only", "replicated", "run", "unstacked_inputs"]


def read_only(value: np.ndarray) -> np.ndarray:
    """A read-only view of `value`: compiled kernels take read-only arrays, and a writable one
    costs a slow conversion on every call (half of a small train step's time)."""
    if not value.flags.writeable:
        return value
    view = value.view()
    view.flags.writeable = False
    return view


def _slice(value: np.ndarray, axis: int | None, i: int) -> np.ndarray:
    if axis is None:
        return value
    # `value[i, ...]` keeps 0-d slices arrays (`value[i]` would be a numpy scalar, which the
    # kernel's signature rejects: every call would fall back to converting its arguments).
    return value[i, ...] if axis == 0 else read_only(np.take(value, i, axis))


def _process_group() -> Any:
    """The MPI group of `core.distributed`, or None in a single process."""
    return None if process_count() == 1 else distributed.device_exchange()


# Two threads calling pmaps at once must queue their shards in the same order on every device,
# or device 0 could wait in a collective of the first call while device 1 waits in the second's.
_SUBMIT_LOCK = threading.Lock()


class Shards:
    """The per-device results of one pmap output: `values[i]` device `devices[i]`'s
    (C-contiguous, read-only), to be stacked along `axis`."""

    __slots__ = ("axis", "devices", "values")

    def __init__(self, axis: int, devices: list, values: list):
        self.axis, self.devices, self.values = axis, devices, values

    def stack(self) -> np.ndarray:
        return read_only(np.stack(self.values, self.axis))


_VALUE = Array._value  # the slot's descriptor (reads and sets it without `__getattr__`)
_STACKING = threading.Lock()


class StackedArray(UnreadArray):
    """A pmap output whose devices' results are stacked when its value is first read (see the
    module docstring); its `_pending` slot holds the `Shards`."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        # Called only for attributes not set: `_value` until the first read stacks the shards,
        # `_sharding` never (pmap outputs are placed).
        if name != "_value":
            raise AttributeError(f"'Array' object has no attribute {name!r}")
        with _STACKING:
            try:
                return _VALUE.__get__(self, Array)  # another thread stacked it meanwhile
            except AttributeError:
                value = self._pending.stack()
                _VALUE.__set__(self, value)
                del self._pending
                self.__class__ = Array
                return value


def replicated(value: np.ndarray, devices: list) -> Array:
    """`len(devices)` copies of `value` stacked along a new leading axis, slice `i` on
    `devices[i]`, held as one buffer that every device reads: a pmap over `devices` finds the
    argument replicated and shares the work it feeds (`shared_work.py`)."""
    value = read_only(np.array(value, order="C"))  # the caller may change its array later
    arr = Array.__new__(StackedArray)
    arr._aval = interned((len(devices), *value.shape), value.dtype, False)
    arr._sharding = pmap_sharding(devices)
    arr._pending = Shards(0, list(devices), [value] * len(devices))
    return arr


def unstacked_inputs(leaves: list, axes: list, devices: list) -> dict[int, Shards]:
    """{position: its `Shards`} of the `leaves` that are unread pmap outputs of `devices`
    stacked along the axis `axes` maps them by: each device takes its own result back."""
    found = {}
    for k, (x, ax) in enumerate(zip(leaves, axes)):
        if type(x) is StackedArray:
            shards = x._pending
            if shards.axis == ax and shards.devices == devices:
                found[k] = shards
    return found


class _Outputs:
    """The outputs of one call, which every device thread fills with its results: `Shards` of
    a `StackedArray` per mapped output; an `out_axes=None` output is device 0's. With one
    device (a process of an MPI job) an output is the device's own array seen with the new
    axis."""

    def __init__(self, avals: Sequence[ShapedArray], axes: Sequence[int | None], size: int):
        self.avals, self.axes, self.size = avals, axes, size
        self.values: list = [None if axis is None or size == 1 else [None] * size for axis in axes]

    def store(self, rank: int, outs: list, owner: Sequence[int] | None = None) -> None:
        """Stores device `rank`'s outputs `outs`; output `j` with `owner[j] >= 0` (a shared
        kernel's, `shared_work.Plan.owner`) is device `owner[j]`'s, stored by it as every
        device's (one object), and a stub on the others."""
        for k, (out, axis) in enumerate(zip(outs, self.axes)):
            mine = -1 if owner is None else owner[k]
            if mine >= 0 and mine != rank:
                continue
            if axis is None:
                if rank == 0 or mine == rank:
                    self.values[k] = np.asarray(out, self.avals[k].dtype)
            elif self.size == 1:
                out = np.asarray(out, self.avals[k].dtype)
                self.values[k] = np.ascontiguousarray(np.expand_dims(out, axis))
            else:
                dtype = self.avals[k].dtype
                if not (type(out) is np.ndarray and out.dtype == dtype and out.flags.c_contiguous):
                    out = np.asarray(out, dtype, order="C")  # 0-d stays 0-d
                if mine == rank:
                    self.values[k][:] = [read_only(out)] * self.size
                else:
                    self.values[k][rank] = read_only(out)

    def arrays(self, devices: list, layout: list) -> list[Array]:
        """The outputs as `Array`s; `layout` is `output_layout(...)` of these outputs."""
        out = []
        for v, aval, ax, (stacked, sharding) in zip(self.values, self.avals, self.axes, layout):
            if isinstance(v, list):
                arr = Array.__new__(StackedArray)
                arr._aval, arr._sharding, arr._pending = stacked, sharding, Shards(ax, devices, v)
            else:  # immutable from now on (and read-only views are fast inputs)
                v.flags.writeable = False
                arr = Array._placed(v, interned(v.shape, v.dtype, aval.weak_type), sharding)
            out.append(arr)
        return out


# exe -> {(devices, out_axes): its `output_layout`}: the same on every call of a program.
_LAYOUTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def output_layout(
    exe: Callable, avals: Sequence[ShapedArray], axes: Sequence[int | None], devices: list
) -> list[tuple[ShapedArray | None, Any]]:
    """(the stacked aval, the sharding) of each output of `exe` over `devices`."""
    key = (tuple(devices), tuple(axes))
    try:
        per = _LAYOUTS.setdefault(exe, {})
    except TypeError:  # not weakly referenceable: computed every time
        per = {}
    layout = per.get(key)
    if layout is None:
        layout = per[key] = [
            (
                None
                if ax is None
                else interned(
                    (*aval.shape[:ax], len(devices), *aval.shape[ax:]), aval.dtype, aval.weak_type
                ),
                pmap_sharding(devices, ax),
            )
            for aval, ax in zip(avals, axes)
        ]
    return layout


def _run_shard(axis_name, communicator, store, shared, rank, exe, args) -> None:
    """Runs on device `rank`'s thread: the compiled program on its slice (its variant of the
    `shared` plan, if there is one); stores its outputs."""
    try:
        with axis_env.running(axis_name, communicator, rank), communicator.placed(rank):
            outs = exe(*args)
            communicator.check(rank)
            store(rank, outs, None if shared is None else shared.owner)
    except BaseException:
        communicator.abort()  # the other devices would wait for this one forever
        raise


def _wait(futures: list) -> None:
    """Waits for every device; raises the first real error if a device failed (the others then
    see a broken barrier)."""
    error, broken = None, None
    for f in futures:
        try:
            f.result()
        except threading.BrokenBarrierError as err:
            broken = broken or err
        except BaseException as err:
            error = error or err
    if error is not None or broken is not None:
        raise error if error is not None else broken


class _Inline:
    """The result of a slice run on the calling thread, waited for like a `Future`."""

    def __init__(self, fn: Callable[..., Any], *args: Any):
        self._error: BaseException | None = None
        try:
            fn(*args)
        except BaseException as err:
            self._error = err

    def result(self) -> None:
        if self._error is not None:
            raise self._error


def run(
    exe: Callable[..., list],
    consts: list[np.ndarray],
    vals: list[np.ndarray],
    in_axes: Sequence[int | None],
    out_avals: Sequence[ShapedArray],
    out_axes: Sequence[int | None],
    devices: list,
    axis_name: Any,
) -> list[Array]:
    """Runs `exe` once per device, in parallel, on the devices' slices of `vals`.

    Args:
      exe: the compiled per-device program; takes `consts` then one slice of each value.
      consts: arguments every device gets whole (ahead of the sliced ones).
      vals: C-contiguous numpy arrays, mapped along `in_axes` (None: every device gets it
        whole), or `Shards` of the devices' own values (`unstacked_inputs`).
      in_axes: the mapped axis of each value (non-negative) or None.
      out_avals: the per-device outputs' avals.
      out_axes: where each output stacks the devices' results (non-negative), or None: the
        output is device 0's.
      devices: one device per slice.
      axis_name: the name the collectives of `exe` use for this axis.

    Returns:
      The stacked outputs, placed over `devices`.
    """
    size = len(devices)
    global_size = size * process_count()
    communicator = ThreadCommunicator(size, _process_group(), process_index() * size, global_size)
    vals = [v if type(v) is Shards else read_only(v) for v in vals]
    args = [
        consts
        + [v.values[i] if type(v) is Shards else _slice(v, ax, i) for v, ax in zip(vals, in_axes)]
        for i in range(size)
    ]
    outputs = _Outputs(out_avals, out_axes, size)
    shared = None
    if size > 1 and process_count() == 1:
        n = len(consts)
        same = frozenset(range(n)) | frozenset(
            n + k
            for k, (v, ax) in enumerate(zip(vals, in_axes))
            if ax is None or (type(v) is Shards and len(set(map(id, v.values))) == 1)
        )
        shared = shared_work.plan(exe, same, size)
    exes = [exe] * size if shared is None else shared.programs
    shard = functools.partial(_run_shard, axis_name, communicator, outputs.store, shared)
    here = current_device()
    with _SUBMIT_LOCK:  # every device queue sees concurrent pmap calls in one order
        futures = [
            None if d is here else d.worker.submit(shard, i, exes[i], args[i])
            for i, d in enumerate(devices)
        ]
    futures = [
        _Inline(shard, i, exes[i], args[i]) if f is None else f for i, f in enumerate(futures)
    ]
    _wait(futures)
    communicator.release()
    return outputs.arrays(devices, output_layout(exe, out_avals, out_axes, devices))
