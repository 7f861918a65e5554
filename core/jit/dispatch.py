"""Asynchronous dispatch: a jitted call queues its kernel on a device and returns at once.

As in JAX, a jitted call may return before its kernel has run: its outputs are
`PendingArray`s (`core/pending.py`) and any read of their values waits. The kernel runs on the
worker thread of its device (`core/device_worker.py`; numba kernels release the GIL), so the
Python of the next step (batching data, logging) overlaps with the kernels of this one.

The policy, per call of a compiled signature:

- A call with an input that is still pending is queued behind the call computing it, on that
  call's device (chained: the caller does not wait; the queue keeps program order). Not yet for
  a call that must trace and compile first (a new function or signature): that one waits for
  its pending inputs' values, then runs as any call (JAX does not wait; a step's later calls
  are cached and chained).
- Otherwise a call runs asynchronously when its program is expensive enough to pay for the
  hand-off to a thread: the estimated run time of the program (`estimate_us`, from its FLOPs
  and bytes by the XLA-style rules of `core/profiler/cost.py`) reaches
  `config.async_dispatch_min_us` (default 1 ms; 0: every call). Cheaper calls run inline on the
  calling thread, as before: the cache-hit path of a small call costs 1.5-8 us, less than a
  hand-off (7 us of the caller's time, 13 us until the worker starts, idle), and the two GIL
  hand-offs of a queued call (the kernel's start and end) cost 0.1-0.2 ms per call on a loaded
  machine (the MNIST MLP step at batch 32, 0.25 ms, measured 1.16 ms queued against 0.97 ms
  inline with 10 runnable processes on 2 cores): below about a millisecond the overlap cannot
  pay that back. The results are the same either way.
- A cheap call with side effects (`debug.print`, `io_callback`) is queued too while calls are
  in flight, so that side effects keep program order.
- Always inline: with `config.jax_cpu_enable_async_dispatch = False` (JAX's flag: synchronous
  execution, e.g. for timing kernels one by one), under `debug_nans`/`debug_infs`, while the
  profiler records, and on a device's own thread (a host callback calling a jitted function).

A call runs on the device of its inputs committed to one (`device_put(x, device)`), else on the
default device; its outputs are committed to that device as those of inline calls are
(`core/committed.py`, which `call_path.call` applies to both). At most
`MAX_IN_FLIGHT` calls wait on one device: a caller that gets further ahead waits for the oldest
one (bounded memory for loops that never read a value). At exit the calls in flight are waited
for (host callbacks of the last step print); before `fork` the workers finish their queues
(`core/device_worker.py`): a child has no worker threads.
"""

from __future__ import annotations

import atexit
import collections
import math
from typing import Any

import numpy as np

from core import committed, tree_util
from core.array import Array, placement
from core.config import config
from core.device_worker import current_device
from core.devices import default_device
from core.ir import Jaxpr, sub_jaxprs
from core.jit import kernel_call, threads
from core.pending import PendingArray, Task
from core.profiler.cost import equation_cost

MAX_IN_FLIGHT = 32

# Calls queued and not finished (a set: membership changes are atomic under the GIL).
_outstanding: set[Task] = set()
_queued: dict[Any, collections.deque] = {}  # worker (or "pmap") -> its tasks, oldest first


# ---------------------------------------------------------------------------------------------
# The cost model

# Nanoseconds per unit, fitted to the MNIST example's steps on 2 cores (CNN at batch 128:
# 3.3 GFLOP of convolutions and products, 48 ms estimated, 37-55 ms measured; MLP at batch 32:
# 0.4 ms estimated, 0.25-0.4 ms measured): convolutions' FLOPs, other FLOPs, transcendentals,
# bytes written (before fusion, so an overestimate for fused loops).
_NS_CONV_FLOP, _NS_FLOP, _NS_TRANSCENDENTAL, _NS_BYTE = 0.015, 0.05, 0.5, 0.01
# Matrix products (`dot_general`) run at twice the convolutions' rate, as bands on both cores:
# the benchmark's MLP step at batch 128 is estimated at 0.78 ms (0.74 ms measured on a quiet
# machine; at the convolutions' rate, 1.27 ms, it was queued and paid the hand-off), the
# transformer's step (2.8 GFLOP of products) at 29 ms (30 ms measured).
_NS_PER_FLOP = {"dot_general": 0.0075, "conv_general_dilated": _NS_CONV_FLOP}


def estimate_us(jaxpr: Jaxpr) -> float:
    """About how many microseconds a compiled run of `jaxpr` takes (`math.inf` when a loop's
    trip count is not known: `while_loop`, `fori_loop` with traced bounds).

    Args:
      jaxpr: the program.

    Returns:
      The estimate, for the dispatch policy (see the module docstring).
    """
    total = 0.0
    for eqn in jaxpr.eqns:
        subs = [(k, sub_jaxprs(v)) for k, v in eqn.params.items()]
        subs = [(k, js) for k, js in subs if js]
        if subs:
            if eqn.prim.name == "while":
                return math.inf
            for key, js in subs:
                costs = [estimate_us(j) for j in js]
                # cond's branches: the dearest; a scan's body: once per iteration
                total += (max if key == "branches" else sum)(costs) * eqn.params.get("length", 1)
            continue
        cost = equation_cost(eqn)
        per_flop = _NS_PER_FLOP.get(eqn.prim.name, _NS_FLOP)
        total += 1e-3 * (
            per_flop * (cost.flops or 0)
            + _NS_TRANSCENDENTAL * (cost.transcendentals or 0)
            + _NS_BYTE * cost.bytes_written
        )
    return total


def asynchronous(entry: Any) -> bool:
    """Whether a call of the compiled signature `entry` (`Jitted`'s cache entry) is queued on a
    device (the policy above; `call_path` inlines this test on its guarded path)."""
    return entry.cost >= config._async_min_us or entry.ordered and bool(_outstanding)


# ---------------------------------------------------------------------------------------------
# Dispatch


def _default_worker() -> Any:
    return default_device().worker


def _worker_for(args: tuple) -> Any:
    """The worker of the device of the first input committed to a single device, else the
    default device's."""
    if placement.committed_to_device:
        for leaf in tree_util.tree_leaves(args):
            sharding = committed.device_sharding(leaf)
            if sharding is not None:
                return sharding._device.worker
    return _default_worker()


def _run(task: Task, kernel: Any, fill: Any, outs: list, vals: list) -> None:
    """On the worker: reads pending inputs (finished: earlier in this queue, or waited for on
    another device), runs the kernel and gives the outputs their values."""
    error = None
    try:
        vals = [v._value if isinstance(v, Array) else v for v in vals]
        fill(outs, kernel_call.results(kernel, vals))
    except BaseException as err:  # kept by the task, raised where the outputs are read
        error = err
    settled(task)  # before `finish`: see `settled`
    task.finish(error)


def submit(name: str, kernel: Any, build: Any, vals: list, worker: Any) -> Any:
    """Queues `kernel(*vals)` on `worker` and returns the output tree of `PendingArray`s.

    Args:
      name: the jitted function's name (for errors).
      kernel: the compiled kernel; `build` its output builder (`call_path.output_builder`).
      vals: its inputs: numpy arrays, or `Array`s read on the worker (pending ones).
      worker: the device worker to run on.

    Returns:
      The output tree.
    """
    task = Task(name, worker)
    track(task, worker, MAX_IN_FLIGHT)
    tree, outs = build.pend(task)
    worker.enqueue(_run, (task, kernel, build.fill, outs, vals), threads.loop_threads())
    return tree


def track(task: Task, queue: Any, limit: int) -> None:
    """Counts `task` among the calls in flight (until `settled`) and in `queue`'s (a worker's,
    or pmap's), first waiting for that queue's oldest call if `limit` of them are unfinished."""
    queued = _queued.get(queue)
    if queued is None:
        queued = _queued[queue] = collections.deque()
    while queued and queued[0].done():
        queued.popleft()
    if len(queued) >= limit:
        queued.popleft().wait()
    _outstanding.add(task)
    queued.append(task)


def settled(task: Task) -> None:
    """Marks the call `task` as no longer in flight: called once its kernel and side effects
    have run, before `task.finish` wakes its waiters, so that a caller that waited for it
    (`wait_all`, a read of its outputs) finds it out of `_outstanding`. (Settled after,
    a caller could run ahead of the worker and see it still in flight: its next cheap call
    with side effects would be queued, its print late, instead of inline.)"""
    _outstanding.discard(task)


def call(jitted: Any, kernel: Any, build: Any, vals: list, args: tuple, numpy_slots: tuple) -> Any:
    """A cache-hit call whose estimated cost reaches the threshold: queued on its device's
    worker (the caller's numpy inputs copied first, as a transfer to a device copies them:
    the caller may write to them before the kernel runs), or run inline on a device's own
    thread."""
    if current_device() is not None:
        return build(kernel_call.results(kernel, vals))
    if numpy_slots:
        vals = list(vals)
        for k in numpy_slots:
            vals[k] = vals[k].copy()
    return submit(jitted._name(), kernel, build, vals, _worker_for(args))


NOT_CHAINED = object()


def chained(jitted: Any, nargs: int, node: Any, leaves: list) -> Any:
    """The call of `jitted` on flattened arguments of which some are pending, queued behind the
    call computing the first of them; `NOT_CHAINED` when no input is pending or the signature
    is not compiled yet (then the caller goes on, reading the inputs: waiting)."""
    worker = None
    avals, vals = [], []
    for x in leaves:
        if type(x) is PendingArray:
            avals.append(x._aval)
            vals.append(x)
            worker = worker or x._pending.worker
        elif type(x) is Array:
            avals.append(x._aval)
            vals.append(x._value)
        else:
            found, value = kernel_call.concrete_inputs([x])
            if found is None:
                return NOT_CHAINED
            avals += found
            vals.append(value[0].copy() if value[0] is x else value[0])  # see `call`
    if worker is None or current_device() is not None or not config.cpu_enable_async_dispatch:
        return NOT_CHAINED
    key = (nargs, node, tuple(map(id, avals)), config._ctx, jitted._backend)
    hit = jitted._fast.get(key)
    if hit is None or config._check_floats:
        return NOT_CHAINED
    hit[3].used = next(kernel_call.ticks)
    return submit(jitted._name(), hit[0], hit[1], vals, worker)


def chained_guarded(jitted: Any, args: tuple) -> Any:
    """As `chained`, through the guards of `jitted` (`call_path.make_guard`: no flattening);
    `NOT_CHAINED` when no guard matches or no input is pending."""
    for guard, kernel, build, entry in jitted._guards:
        items = guard.leaves(args)
        if items is None:
            continue
        pending = next((x for x in items if type(x) is PendingArray), None)
        if pending is None or current_device() is not None or config._async_min_us == math.inf:
            return NOT_CHAINED
        entry.used = next(kernel_call.ticks)
        for k in guard.numpy_slots:  # C-contiguous copies of the caller's buffers (see `call`)
            items[k] = np.array(items[k], order="C")
        return submit(jitted._name(), kernel, build, items, pending._pending.worker)
    return NOT_CHAINED


def wait_all() -> None:
    """Waits for every call in flight (not on a device's own thread: it may be one of them)."""
    if current_device() is not None:
        return
    for task in list(_outstanding):
        task.wait()


def in_flight() -> bool:
    """Whether some call dispatched asynchronously has not finished."""
    return bool(_outstanding)


atexit.register(wait_all)
