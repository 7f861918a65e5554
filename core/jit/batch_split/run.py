"""Running a jitted program split along its batch over the local devices.

`for_signature` decides once per compiled signature (`decide.split_plan`), for as many devices
as compiled code has threads (`core.jit.threads.num_threads`: a device per core), and, when the
program splits, stages its per-device program (`partition.per_device`) under a private axis
name and compiles it; the result, a `Split`, stands in for the signature's kernel: numpy
arrays in, numpy arrays out, so `jit`'s call paths (guards, asynchronous dispatch, donation,
output builders) are the unsplit ones. A call reshapes each split input to `(devices, B/n,
...)` (a view), runs the per-device program on every device's worker thread through pmap's
machinery (`core.parallel.dispatch.run`: one thread per device, the collectives meeting in a
communicator, replicated kernels shared out by `shared_work`) and returns device 0's outputs,
which are replicated: the unsplit program's values up to the order of the batch sums.

A call from inside a pmap's device program, or on a device other than the first, runs the
unsplit kernel.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from core import device_worker, ir
from core.config import config
from core.device_worker import current_device
from core.devices import local_device_count, local_devices, process_count
from core.jit.batch_split import decide
from core.jit.batch_split.partition import per_device
from core.jit.threads import num_threads
from core.parallel import axis_env, dispatch
from core.prims import prng

__all__ = ["AXIS", "Deferred", "Split", "describe", "for_signature"]

logger = logging.getLogger("core.jit")

# The axis name of the split programs' collectives (no user program can bind it).
AXIS = "__numbax_batch_split__"


def _count_collectives(jaxpr: ir.Jaxpr) -> int:
    total = 0
    for eqn in jaxpr.eqns:
        total += getattr(eqn.prim, "collective", False) and eqn.prim.name != "axis_index"
        for value in eqn.params.values():
            for sub in ir.sub_jaxprs(value):
                total += _count_collectives(sub)
    return total


class Deferred:
    """A signature's unsplit program, compiled when first used (a split signature runs it only
    on another device's thread or inside a pmap, or for `lower`/`compile`'s text)."""

    def __init__(self, make: Callable[[], Callable]):
        self._make, self._exe = make, None

    def _get(self) -> Callable:
        if self._exe is None:
            self._exe = self._make()
        return self._exe

    def __call__(self, *args: Any) -> Any:
        return self._get()(*args)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._get(), name)


def _affinity() -> set | None:
    try:
        return os.sched_getaffinity(0)
    except (AttributeError, OSError):
        return None


def _restore_affinity(cpus: set | None) -> None:
    if cpus is not None:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, cpus)


class Split:
    """The split form of one compiled signature: call it as its kernel (numpy arrays in, a
    list of numpy arrays out)."""

    def __init__(self, unsplit: Callable, jaxpr: ir.Jaxpr, decision: decide.Decision, n: int,
                 compile: Callable, name: str):  # fmt: skip
        self.unsplit, self.name, self.n = unsplit, name, n
        self.devices = local_devices()[:n]
        with axis_env.tracing(AXIS, n):
            local, consts = per_device(decision.jaxpr, decision.plan, AXIS)
            self.exe = compile(local)
        self.jaxpr = local  # the per-device program (for debugging)
        self.consts = [np.ascontiguousarray(np.asarray(c)) for c in consts]
        self.in_axes = [0 if k in decision.seeds else None for k in range(len(jaxpr.invars))]
        self.out_avals = list(jaxpr.out_avals)
        self.collectives = _count_collectives(local)

    def __call__(self, *vals: np.ndarray) -> list[np.ndarray]:
        here = current_device()
        if axis_env.inside_shard() or here not in (None, self.devices[0]):
            return list(self.unsplit(*vals))
        n = self.n
        args = [
            v if ax is None else v.reshape((n, v.shape[0] // n, *v.shape[1:]))
            for v, ax in zip(vals, self.in_axes)
        ]
        # On device 0's worker (an asynchronous call), this thread runs device 0's slice: with
        # one loop thread and kept to device 0's CPU, as pmap's devices run theirs.
        numba = sys.modules.get("numba") if here is not None else None
        threads = numba.get_num_threads() if numba is not None else None
        if threads is not None:
            numba.set_num_threads(1)
            cpus = _affinity()
            device_worker.keep_to(dispatch.device_cpus(self.devices)[0])
        try:
            outs = dispatch.run(
                self.exe, self.consts, args, self.in_axes, self.out_avals,
                [None] * len(self.out_avals), self.devices, AXIS, self.name,
            )  # fmt: skip
        finally:
            if threads is not None:
                numba.set_num_threads(threads)
                _restore_affinity(cpus)  # the worker's own setting
        return [o._value for o in outs]

    def __repr__(self) -> str:
        return f"split over {self.n} devices: {self.collectives} collectives"


def for_signature(
    jaxpr: ir.Jaxpr,
    n_consts: int,
    unsplit: Callable,
    compile: Callable[[ir.Jaxpr], Callable],
    backend: str,
    name: str,
    cost_us: float,
) -> Split | str:
    """The `Split` of a compiled signature, or why it stays whole (logged under
    `config.log_compiles`).

    Args:
      jaxpr: the signature's constvar-free program (its first `n_consts` inputs are consts).
      n_consts: how many.
      unsplit: its compiled kernel (numpy arrays in, a list out), for calls that cannot split.
      compile: compiles a jaxpr for the back end (`core.jit.api.executable`'s, given as an
        argument: `api` imports this module).
      backend: the jit back end.
      name: the function's name.
      cost_us: its estimated run time (`core.jit.dispatch.estimate_us`).

    Returns:
      The split, or the reason it does not split.
    """
    result = _for_signature(jaxpr, n_consts, unsplit, compile, backend, name, cost_us)
    if config.log_compiles:
        logger.warning("jit of %s: %s", name, result if isinstance(result, Split) else
                       f"not split: {result}")  # fmt: skip
    return result


def _for_signature(jaxpr, n_consts, unsplit, compile, backend, name, cost_us) -> Split | str:
    n = min(local_device_count(), num_threads())  # a device per core, at most
    if n < 2 or process_count() != 1:
        return "fewer than 2 local devices or threads" if n < 2 else "several processes"
    if backend != "numba" and backend != "python":
        return f"backend {backend}"
    if axis_env.inside_shard() or axis_env.staged_axes() or axis_env.traced_size(AXIS):
        return "inside pmap or shard_map"
    if any(prng.is_key(a) for a in [*jaxpr.in_avals, *jaxpr.out_avals]):
        return "typed key arrays in or out"
    decision = decide.split_plan(jaxpr, n_consts, n, cost_us)
    if decision.plan is None:
        return decision.reason
    return Split(unsplit, jaxpr, decision, n, compile, name)


def describe(jitted: Any) -> list[str]:
    """The split decision of each compiled signature of `jitted` (a `jit` function): "split
    over N devices: C collectives" or "not split: <reason>" (for tests and debugging)."""
    out = []
    for entry in jitted._cache().values():
        split = getattr(entry, "split", None)
        if split is not None:
            out.append(str(split) if isinstance(split, Split) else f"not split: {split}")
    return out
