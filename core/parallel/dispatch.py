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

Calls are asynchronous, as JAX's (`asynchronous`: unless `jax_cpu_enable_async_dispatch` is
off, floats are checked, the profiler records, the caller is a device or the job has several
processes): `run` queues the slices and returns as soon as the devices have started them (at
once if they are busy with earlier calls, `START_WAIT_S`), with outputs whose values the
devices are still computing (a `core.pending.Task` for the call, which the last device to
finish ends); reading one waits, and a device's error is raised there (`JitExecutionError`
naming the function). A call taking outputs of a call still running gives each device their
`Shards`, of which it reads its own value after that call has ended on every device
(`Shards.of`): its own result comes earlier in its queue, but a shared output
(`shared_work.py`) may be another device's. So the Python of the next step (the pmap call
itself, batching data) overlaps with this step's kernels. The caller's numpy inputs are
copied (it may write to them before the devices read them), and at most `MAX_IN_FLIGHT` calls
are queued ahead.

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
import math
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import distributed
from core.array import Array, DeletedArray
from core.avals import ShapedArray, interned
from core.config import config
from core.device_worker import current_device
from core.devices import local_device_count, process_count, process_index
from core.jit import dispatch as jit_dispatch
from core.jit import threads
from core.jit.kernel_call import concrete_inputs
from core.parallel import axis_env, shared_work
from core.parallel.communicator import ThreadCommunicator
from core.pending import PendingArray, Task, UnreadArray
from core.profiler import hooks
from core.sharding import pmap_sharding

__all__ = [
    "Shards",
    "StackedArray",
    "device_cpus",
    "read_only",
    "replicated",
    "run",
    "unstacked_inputs",
]


def read_only(value: np.ndarray) -> np.ndarray:
    """A read-only view of `value`: compiled kernels take read-only arrays, and a writable one
    costs a slow conversion on every call (half of a small train step's time)."""
    if not value.flags.writeable:
        return value
    view = value.view()
    view.setflags(False)  # 0.1 us; `flags.writeable = False` takes 0.5 us (a keyword call)
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
# Asynchronous calls queued ahead of the caller at most (each holds its inputs' copies).
MAX_IN_FLIGHT = 8
# How long an asynchronous call on idle devices waits at most for them to start its slices.
# A device starts its slice in Python (its inputs, its place at the collectives, the driver's
# first lines), which needs the GIL; a caller that went on at once (the next step's call,
# 0.5-1 ms of Python for a ResNet's 100-leaf state) held it meanwhile, so one device started
# 1-4 ms after the other, which then waited that long at their first collective. Waiting
# costs the caller about the devices' start (0.1-0.2 ms); the caller waits for no device
# that is busy with an earlier call.
START_WAIT_S = 0.005


class Shards:
    """The per-device results of one pmap output: `values[i]` device `devices[i]`'s
    (C-contiguous, read-only), to be stacked along `axis`; `task` the asynchronous call still
    filling them (None once they are all there), `same` whether they are one object (known
    before a pending call fills them)."""

    __slots__ = ("axis", "devices", "same", "task", "values")

    def __init__(
        self, axis: int, devices: list, values: list, task: Task | None = None, same: bool = False
    ):
        self.axis, self.devices, self.values = axis, devices, values
        self.task = task  # a pending call's values are not there yet: `same` tells
        self.same = same if task is not None else len(set(map(id, values))) == 1

    def wait(self) -> None:
        """Waits until every device stored its value; raises the call's error if it failed."""
        task = self.task
        if task is not None:
            task.wait()
            task.raise_error()
            self.task = None

    def stack(self) -> np.ndarray:
        self.wait()
        return read_only(np.stack(self.values, self.axis))

    def of(self, rank: int) -> np.ndarray:
        """Device `rank`'s value, once the call computing it has ended on every device (a
        shared output may be another device's)."""
        self.wait()
        return self.values[rank]


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

    def delete(self) -> None:
        """Drops the devices' results (`jax.Array.delete`) without waiting for them: a call
        still computing them, or reading them, holds its own `Shards`."""
        with _STACKING:
            if type(self) is StackedArray:  # else another thread stacked it meanwhile
                del self._pending
                self.__class__ = DeletedArray
                return
        Array.delete(self)

    def block_until_ready(self) -> Array:
        """Waits until every device computed its value (raises the call's error) and returns
        self, leaving the values unstacked."""
        shards = getattr(self, "_pending", None)  # None: another thread stacked them
        if shards is not None:
            shards.wait()
        return self

    def is_ready(self) -> bool:
        shards = getattr(self, "_pending", None)
        return shards is None or shards.task is None or shards.task.done()


def replicated(value: np.ndarray, devices: list, axis_name: str | None = None) -> Array:
    """`len(devices)` copies of `value` stacked along a new leading axis, slice `i` on
    `devices[i]` (a mesh over `devices` with the axis `axis_name`, `pmap_sharding`'s default
    without one), held as one buffer that every device reads: a pmap over `devices` finds the
    argument replicated and shares the work it feeds (`shared_work.py`)."""
    value = read_only(np.array(value, order="C"))  # the caller may change its array later
    arr = Array.__new__(StackedArray)
    arr._aval = interned((len(devices), *value.shape), value.dtype, False)
    arr._sharding = pmap_sharding(devices, axis_name=axis_name)
    arr._pending = Shards(0, list(devices), [value] * len(devices))
    return arr


def unstacked_inputs(leaves: list, axes: list, devices: list) -> dict[int, Shards]:
    """{position: its `Shards`} of the `leaves` that are unread pmap outputs of `devices`
    stacked along the axis `axes` maps them by: each device takes its own result back."""
    found = {}
    for k, (x, ax) in enumerate(zip(leaves, axes)):
        if type(x) is StackedArray:
            shards = getattr(x, "_pending", None)  # None: stacked meanwhile by another thread
            if shards is not None and shards.axis == ax and shards.devices == devices:
                found[k] = shards
    return found


def device_inputs(leaves: list, axes: list, devices: list) -> tuple[list | None, list | None]:
    """The interned avals and the device inputs of concrete argument `leaves` (an unread pmap
    output of these devices gives its `Shards`), or (None, None) if one is a tracer."""
    shards = unstacked_inputs(leaves, axes, devices)
    if not shards:
        return concrete_inputs(leaves)
    rest_avals, rest_vals = concrete_inputs([x for k, x in enumerate(leaves) if k not in shards])
    if rest_avals is None:
        return None, None
    it_avals, it_vals = iter(rest_avals), iter(rest_vals)
    avals = [x._aval if k in shards else next(it_avals) for k, x in enumerate(leaves)]
    vals = [shards[k] if k in shards else next(it_vals) for k in range(len(leaves))]
    return avals, vals


class _Outputs:
    """The outputs of one call, which every device thread fills with its results: `Shards` of
    a `StackedArray` per mapped output; an `out_axes=None` output is device 0's. With one
    device (a process of an MPI job) an output is the device's own array seen with the new
    axis."""

    def __init__(self, avals: Sequence[ShapedArray], axes: Sequence[int | None], size: int):
        self.avals, self.axes, self.size = avals, axes, size
        self.values: list = [None if axis is None or size == 1 else [None] * size for axis in axes]
        self.pending: list[tuple[Array, int]] = []  # unmapped outputs awaiting `finish`

    def store(self, rank: int, outs: list, owner: Sequence[int] | None = None) -> None:
        """Stores device `rank`'s outputs `outs`; output `j` with `owner[j] >= 0` (a shared
        kernel's, `shared_work.Plan.owner`) is device `owner[j]`'s, stored by it as every
        device's (one object), and a stub on the others. (A device stores its outputs as its
        program ends, just before the next step can start: this loop is kept lean.)"""
        values, avals, size = self.values, self.avals, self.size
        for k, out in enumerate(outs):
            mine = -1 if owner is None else owner[k]
            if mine >= 0 and mine != rank:
                continue
            slots = values[k]
            if type(slots) is not list:  # an unmapped output, or one device
                self._store_whole(rank, k, out, mine)
                continue
            dtype = avals[k].dtype
            if not (type(out) is np.ndarray and out.dtype == dtype and out.flags.c_contiguous):
                out = np.asarray(out, dtype, order="C")  # 0-d stays 0-d
            if out.flags.writeable:
                out = out.view()
                out.setflags(False)
            if mine == rank:
                slots[:] = [out] * size
            else:
                slots[rank] = out

    def _store_whole(self, rank: int, k: int, out: Any, mine: int) -> None:
        """Stores output `k` that is not one slice per device: an `out_axes=None` output
        (device 0's, or its owner's) or the one device's output seen with the new axis."""
        dtype = self.avals[k].dtype
        if self.axes[k] is None:
            if rank == 0 or mine == rank:
                self.values[k] = np.asarray(out, dtype)
        else:
            self.values[k] = np.ascontiguousarray(
                np.expand_dims(np.asarray(out, dtype), self.axes[k])
            )

    def arrays(
        self,
        devices: list,
        layout: list,
        task: Task | None = None,
        owner: Sequence[int] | None = None,
    ) -> list[Array]:
        """The outputs as `Array`s; `layout` is `output_layout(...)` of these outputs. With the
        `task` of a call still running, they are pending (`finish` gives the unmapped ones
        their values); `owner` is the shared plan's (its outputs are one object)."""
        out = []
        for k, (v, aval, ax, (stacked, sharding)) in enumerate(
            zip(self.values, self.avals, self.axes, layout)
        ):
            if isinstance(v, list):
                same = owner is not None and owner[k] >= 0
                arr = Array.__new__(StackedArray)
                arr._aval, arr._sharding = stacked, sharding
                arr._pending = Shards(ax, devices, v, task, same)
            elif task is not None:
                arr = Array.__new__(PendingArray)
                arr._aval = stacked or interned(aval.shape, aval.dtype, aval.weak_type)
                arr._sharding, arr._pending = sharding, task
                self.pending.append((arr, k))
            else:  # immutable from now on (and read-only views are fast inputs)
                v.setflags(False)
                arr = Array._placed(v, interned(v.shape, v.dtype, aval.weak_type), sharding)
            out.append(arr)
        return out

    def finish(self) -> None:
        """Gives the pending unmapped outputs of a call that ended well their values."""
        for arr, k in self.pending:
            value = self.values[k]
            value.setflags(False)
            _VALUE.__set__(arr, value)
            arr.__class__ = Array


# exe -> {(devices, out_axes): its `output_layout`}: the same on every call of a program.
_LAYOUTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def output_layout(
    exe: Callable,
    avals: Sequence[ShapedArray],
    axes: Sequence[int | None],
    devices: list,
    axis_name: Any = None,
) -> list[tuple[ShapedArray | None, Any]]:
    """(the stacked aval, the sharding) of each output of `exe` over `devices`, its mesh axis
    named by the pmap's `axis_name` as JAX names it."""
    key = (tuple(devices), tuple(axes), axis_name)
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
                pmap_sharding(devices, ax, axis_name),
            )
            for aval, ax in zip(avals, axes)
        ]
    return layout


def _run_shard(name, axis_name, communicator, store, shared, rank, exe, args) -> None:
    """Runs on device `rank`'s thread: the compiled program on its slice (its variant of the
    `shared` plan, if there is one); stores its outputs. While a trace records, the slice is
    an event `pmap_<name>` on the device's thread."""
    start, cpu = time.perf_counter_ns(), time.thread_time_ns()
    try:
        with axis_env.running(axis_name, communicator, rank), communicator.placed(rank):
            outs = exe(*args)
            communicator.check(rank)
            communicator.busy(rank, time.thread_time_ns() - cpu, time.perf_counter_ns() - start)
            store(rank, outs, None if shared is None else shared.owner)
    except BaseException:
        communicator.abort()  # the other devices would wait for this one forever
        raise
    finally:
        if hooks.ACTIVE:
            hooks.record(f"pmap_{name}", start, time.perf_counter_ns() - start, {"rank": rank})


def _first_error(errors: list) -> BaseException | None:
    """The error to report of the devices' `errors`: the first real one (the devices that did
    not fail then see a broken barrier)."""
    real = [e for e in errors if not isinstance(e, threading.BrokenBarrierError)]
    return (real or errors or [None])[0]


def _wait(futures: list) -> None:
    """Waits for every device; raises the first real error if a device failed."""
    errors = []
    for f in futures:
        try:
            f.result()
        except BaseException as err:
            errors.append(err)
    error = _first_error(errors)
    if error is not None:
        raise error


class _Call:
    """An asynchronous call's start and end: each device reports that it starts its slice
    (`started`: the last one opens `gate`) and its slice's end (`done`), and the last one
    finishes the outputs, frees the communicator and ends the task."""

    def __init__(self, size: int, task: Task, outputs: _Outputs, communicator: Any):
        self.left, self.errors = size, []
        self.task, self.outputs, self.communicator = task, outputs, communicator
        self.lock = threading.Lock()
        self.starting = size
        self.gate = threading.Lock()
        self.gate.acquire()

    def started(self) -> None:
        """Called by each device as it starts its slice."""
        with self.lock:
            self.starting -= 1
            last = self.starting == 0
        if last:
            self.gate.release()

    def done(self, error: BaseException | None) -> None:
        with self.lock:
            if error is not None:
                self.errors.append(error)
            self.left -= 1
            if self.left:
                return
        error = _first_error(self.errors)
        self.communicator.leave_desk()
        try:
            if error is None:
                self.outputs.finish()
                self.communicator.release()
        except BaseException as err:  # kept by the task: the device's thread goes on
            error = err
        jit_dispatch.settled(self.task)  # before `finish` (see `settled`)
        self.task.finish(error)


def _run_queued(call: _Call, shard: Callable, rank: int, exe: Callable, args: list) -> None:
    """On device `rank`'s thread: its slice of an asynchronous call, whose inputs may be the
    outputs of a call still running (`Shards`, of which it reads its own value); reports its
    start and its end to `call`."""
    error = None
    try:
        try:
            args = [a.of(rank) if type(a) is Shards else a for a in args]
        finally:
            call.started()
        shard(rank, exe, args)
    except BaseException as err:
        call.communicator.abort()  # an input's error: the others must not wait for this one
        error = err
    call.done(error)


def asynchronous() -> bool:
    """Whether a pmap call now returns before its devices finish (the module docstring)."""
    return (
        config._async_min_us != math.inf
        and not hooks.ACTIVE
        and current_device() is None
        and process_count() == 1
    )


def _input(value: np.ndarray, queued: bool) -> np.ndarray:
    """A read-only input: a copy of a writable array the caller could change before a queued
    call reads it."""
    if queued and value.flags.writeable:
        value = np.array(value, order="K")
    return read_only(value)


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
    name: str = "pmap",
) -> list[Array]:
    """Runs `exe` once per device, in parallel, on the devices' slices of `vals`; returns at
    once when `asynchronous()` (the module docstring).

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
      name: the pmapped function's name (for errors of an asynchronous call, and the
        trace's events: one per device, `pmap_<name>`, while a trace records).

    Returns:
      The stacked outputs, placed over `devices`.
    """
    size = len(devices)
    global_size = size * process_count()
    queued = asynchronous()
    communicator = ThreadCommunicator(size, _process_group(), process_index() * size, global_size)
    vals = [v if type(v) is Shards else _input(v, queued) for v in vals]
    args = [
        consts + [_device_input(v, ax, i, queued) for v, ax in zip(vals, in_axes)]
        for i in range(size)
    ]
    outputs = _Outputs(out_avals, out_axes, size)
    shared = None
    if size > 1 and process_count() == 1:
        n = len(consts)
        same = frozenset(range(n)) | frozenset(
            n + k
            for k, (v, ax) in enumerate(zip(vals, in_axes))
            if ax is None or (type(v) is Shards and v.same)
        )
        shared = shared_work.plan(exe, same, size)
    exes = [exe] * size if shared is None else shared.programs
    shard = functools.partial(_run_shard, name, axis_name, communicator, outputs.store, shared)
    layout = output_layout(exe, out_avals, out_axes, devices, axis_name)
    communicator.join_desk()  # left when the call ends (`_Call.done`, or below)
    if queued:
        task = Task(f"pmap({name})", devices[0].worker)
        arrays = outputs.arrays(devices, layout, task, None if shared is None else shared.owner)
        call = _Call(size, task, outputs, communicator)
        idle = not jit_dispatch.in_flight()
        jit_dispatch.track(task, "pmap", MAX_IN_FLIGHT)
        cpus = device_cpus(devices)
        with _SUBMIT_LOCK:
            for i, d in enumerate(devices):
                d.worker.enqueue(
                    _run_queued, (call, shard, i, exes[i], args[i]), d.worker.loop_threads, cpus[i]
                )
        if idle and START_WAIT_S:
            call.gate.acquire(timeout=START_WAIT_S)
        return arrays
    here = current_device()
    cpus = device_cpus(devices)
    with _SUBMIT_LOCK:  # every device queue sees concurrent pmap calls in one order
        futures = [
            None if d is here else d.worker.submit(shard, i, exes[i], args[i], cpu=cpus[i])
            for i, d in enumerate(devices)
        ]
    futures = [
        _Inline(shard, i, exes[i], args[i]) if f is None else f for i, f in enumerate(futures)
    ]
    try:
        _wait(futures)
    finally:
        communicator.leave_desk()
    communicator.release()
    return outputs.arrays(devices, layout)


def device_cpus(devices: list) -> list[int | None]:
    """The CPU each of `devices` keeps to while it runs its slice (`Worker.enqueue`): in one
    process whose local devices have a CPU each, device `d` the `d.id`-th CPU the caller may
    use; else None (anywhere).

    The devices meet at every collective, so a step goes at the pace of the slower one. Left
    to the scheduler, a device woken (by the caller queueing its slice, or by the other device
    at a barrier) while no CPU is idle is put on its waker's CPU, and the two devices take
    turns on one core until the load balancer parts them: on 2 cores shared with other jobs,
    the ResNet-10's pmap step took 113-137 ms right after a step of one thread on the caller's
    core, against 60-65 ms later on (two devices that kept their cores: 60-89 ms right after).

    Args:
      devices: the devices of one call, in its order.

    Returns:
      One CPU number (or None) per device, for `core.device_worker.keep_to`.
    """
    n = len(devices)
    if n < 2 or process_count() > 1:
        return [None] * n
    cpus = threads.process_cpus()  # the process's, also when a device calls
    if cpus is None:  # no affinity on this system
        return [None] * n
    cpus = sorted(cpus)
    if local_device_count() > len(cpus):
        return [None] * n
    return [cpus[d.id] for d in devices]


def _device_input(v: Any, axis: int | None, i: int, queued: bool) -> Any:
    """Device `i`'s value of the input `v` (`Shards` or a numpy array mapped along `axis`):
    the `Shards` themselves if a queued call is still computing them (the device reads its
    value when its slice starts, `_run_queued`)."""
    if type(v) is not Shards:
        return _slice(v, axis, i)
    if queued and v.task is not None:
        return v
    v.wait()  # a synchronous call on a pending call's outputs
    return v.values[i]
