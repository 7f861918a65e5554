"""What the MNIST example reports while it trains: per-step TensorBoard scalars and a line
when the first call of a jitted step is compiling.

`StepLogger` writes ``train/loss``, ``train/accuracy``, ``learning_rate`` and
``steps_per_sec`` every ``log_every`` optimizer steps, with the global step on the x axis (as
PyTorch Lightning does every 50 steps). Loss and accuracy are averaged over the steps since the
previous point: the running metrics in the train state are sums and counts, so the window is
the difference of two snapshots. Steps per second leave out the first step of the process,
which compiles.

`first_call` runs a function and, if it has not returned after a few seconds, prints that it
is compiling, then how long it took; it stays quiet when `core.jit` reports compiles itself
(the ``jit_progress`` option of `core.config`, on by default).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import core
from core import tree_util

COMPILE_NOTICE_AFTER = 2.0  # seconds before the "compiling" line appears


def first_call(fn: Callable[..., Any], *args: Any, label: str, write: Callable[[str], None]) -> Any:
    """``fn(*args)``, announcing the compilation if the call takes more than a moment.

    Args:
        fn: the jitted function.
        *args: its arguments.
        label: what is compiled, e.g. ``"train_step"``.
        write: prints a line (``tqdm.write`` keeps the progress bar intact).

    Returns:
        ``fn(*args)``.
    """
    if _core_reports_compiles():
        return fn(*args)
    start = time.perf_counter()
    timer = threading.Timer(
        COMPILE_NOTICE_AFTER,
        write,
        [f"compiling {label} with numba (once; later runs load it from the disk cache) ..."],
    )
    timer.daemon = True
    timer.start()
    try:
        return fn(*args)
    finally:
        timer.cancel()
        elapsed = time.perf_counter() - start
        if elapsed > COMPILE_NOTICE_AFTER:
            write(f"compiled {label} in {elapsed:.1f}s")


def _core_reports_compiles() -> bool:
    return bool(core.config.jit_progress)


class StepLogger:
    """Writes the per-step training curves.

    Args:
        writer: a `train.tensorboard.SummaryWriter`.
        log_every: steps between points (a point is written when ``step % log_every == 0``).
        learning_rate: the schedule, to log the learning rate of each logged step.
    """

    def __init__(self, writer: Any, log_every: int, learning_rate: Callable[[int], Any]):
        self.writer = writer
        self.log_every = log_every
        self.learning_rate = learning_rate
        self._snapshot: Any = None
        self._since: tuple[int, float] | None = None

    def start_window(self, metrics: Any) -> None:
        """Starts averaging from the running ``metrics`` (at an epoch start or a resume)."""
        self._snapshot = metrics
        self._since = None

    def after_step(self, metrics_fn: Callable[[], Any], step: int) -> None:
        """Called after each optimizer step with the global step and a function returning the
        running metrics, called on logged steps only (reading the metrics of a replicated
        state costs an indexing per leaf, and waits for the step)."""
        if self._since is None:  # the clock starts after the first (compiling) step
            self._since = (step, time.perf_counter())
        if step % self.log_every:
            return
        metrics = metrics_fn()
        window = tree_util.tree_map(
            lambda a, b: np.asarray(a) - np.asarray(b), metrics, self._snapshot
        )
        values = {f"train/{k}": float(v) for k, v in window.compute().items()}
        values["learning_rate"] = float(self.learning_rate(step - 1))  # of the step just taken
        since_step, since_time = self._since
        if step > since_step:
            values["steps_per_sec"] = (step - since_step) / (time.perf_counter() - since_time)
        self.writer.scalars(step, values)
        self._snapshot = metrics
        self._since = (step, time.perf_counter())
