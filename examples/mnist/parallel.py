"""Data-parallel training for the MNIST example: ``--devices N`` and ``mpiexec -n P``.

Every process draws the same global batches a one-device run draws (``--batch-size``
examples, the same shuffling key) and cuts each into ``P * N`` equal slices: process ``p`` feeds
slices ``p*N .. p*N+N-1`` to its ``N`` devices. The pmapped step averages the gradients over
all devices (`lax.pmean`) and sums the batch metrics (sums and counts, `lax.psum`), so each
device holds the state a one-device run on the global batch would (to float rounding). The
state is replicated at the start of an epoch and taken back (`train.jax_utils.unreplicate`) at
its end, so evaluation, logging and checkpoints see one ordinary `TrainState`. Each process
evaluates its share of the test set and the processes merge their metrics. Only process 0
writes the run directory, TensorBoard events and checkpoints.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

import numpy as np

import core
from core import tree_util
from core.experimental import multihost_utils
from examples.mnist.errors import ExampleError, ParallelSettingError
from train import jax_utils

AXIS = "batch"
# Variables mpiexec launchers set in every process they start (MPICH/Hydra, Open MPI, Slurm).
_LAUNCHER_VARIABLES = ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK")


def start_processes() -> None:
    """Joins the MPI job when the program was started by ``mpiexec`` (before any device use)."""
    if not core.distributed.is_initialized() and any(v in os.environ for v in _LAUNCHER_VARIABLES):
        core.distributed.initialize()


def is_writer() -> bool:
    """Whether this process writes logs and checkpoints (process 0)."""
    return core.process_index() == 0


def wait_for_processes() -> None:
    """Waits (sleeping) until every process gets here: process 0 also writes checkpoints and
    logs between epochs, which the others would otherwise wait for inside the next epoch."""
    if core.process_count() > 1:
        core.distributed.wait_for_all()


def on_writer(fn: Callable[[], Any]) -> Any:
    """``fn()`` run by process 0 only, its result (or `ExampleError`) shared with every process.

    Raises:
        ExampleError: the error ``fn`` raised in process 0, in every process.
    """
    if core.process_count() == 1:
        return fn()
    outcome = None
    if is_writer():
        try:
            outcome = (True, fn())
        except ExampleError as err:
            outcome = (False, err)
    wait_for_processes()  # while process 0 runs `fn`
    ok, value = core.distributed.process_group().bcast(outcome, root=0)
    if not ok:
        raise value
    return value


def process_share(data: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """This process's contiguous share of ``data`` (all of it in a single process): the
    processes split the evaluation instead of each repeating all of it."""
    count, index = core.process_count(), core.process_index()
    n = len(next(iter(data.values())))
    start, stop = n * index // count, n * (index + 1) // count
    return {k: v[start:stop] for k, v in data.items()}


def merge_over_processes(metrics: Any) -> Any:
    """Every process's ``metrics`` (a `train.metrics.Collection`) merged in process order, on
    every process."""
    if core.process_count() == 1:
        return metrics
    gathered = multihost_utils.process_allgather(metrics)
    parts = [tree_util.tree_map(lambda x, p=p: x[p], gathered) for p in range(core.process_count())]
    return functools.reduce(lambda a, b: a.merge(b), parts)


def check(devices: int, batch_size: int) -> None:
    """Raises `ParallelSettingError` unless ``devices`` local devices exist in this process and
    the devices of all processes can share a ``batch_size`` batch equally."""
    available = core.local_device_count()
    if devices > available:
        raise ParallelSettingError(
            f"--devices {devices}: this process has {available} CPU devices; set "
            f"NUMBAX_NUM_CPU_DEVICES={devices} (or more) to create them."
        )
    total = devices * core.process_count()
    if batch_size % total:
        raise ParallelSettingError(
            f"--batch-size {batch_size} does not split over {total} devices "
            f"({core.process_count()} processes x {devices}); use a multiple of {total}."
        )


class NullWriter:
    """What processes other than 0 log to: a `SummaryWriter` that writes nothing."""

    def __enter__(self) -> NullWriter:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *args, **kwargs: None


class DataParallel:
    """The pmapped step over this process's first ``devices`` devices and all processes.

    Args:
        devices: local devices per process.
        batch_size: examples per global batch (all processes together).
        step: ``step(state, batch, axis_name)``, one optimizer step that reduces gradients and
            metrics over ``axis_name``.

    Raises:
        ParallelSettingError: more devices than this process has, or a batch size that the
            devices of all processes cannot share equally.
    """

    def __init__(self, devices: int, batch_size: int, step: Callable[..., Any]):
        check(devices, batch_size)
        total = devices * core.process_count()
        self.devices = core.local_devices()[:devices]
        self.per_device = batch_size // total
        self.first = core.process_index() * devices * self.per_device
        self.step = core.pmap(lambda s, b: step(s, b, AXIS), axis_name=AXIS)

    def replicate(self, state: Any) -> Any:
        """One copy of ``state`` per local device."""
        return jax_utils.replicate(state, self.devices)

    def shard(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """This process's part of a global batch, one slice per local device."""
        n, size = len(self.devices), self.per_device
        return {
            k: v[self.first : self.first + n * size].reshape(n, size, *v.shape[1:])
            for k, v in batch.items()
        }
