"""``--profile``: trace a few training steps for TensorBoard's Profile tab.

The window is ``steps`` consecutive steps of the second epoch (the first when there is one),
starting a few steps in, so compilation and the first epoch's warm-up are not in it. The trace
goes to the run's directory (``{run}/plugins/profile/<time>/``), which TensorBoard shows as the
run's profile next to its curves; each step is a ``StepTraceAnnotation`` holding the jitted
``train_step`` and its kernels (fused equations, source lines, module paths, FLOPs). When the
window closes, the live arrays are saved as a pprof memory profile (``{run}/memory.prof``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

from core import profiler

WARMUP = 10  # steps into the epoch before the window opens


class ProfileWindow:
    """Which steps to trace, and the trace around them.

    Args:
      run_dir: the run's TensorBoard directory.
      steps: how many steps to trace (0: none).
      epochs: the run's number of epochs (the window is in epoch 2, or 1 if there is one).
      steps_per_epoch: steps in an epoch.
      write: prints a line (the progress bar's ``write``).
    """

    def __init__(
        self, run_dir: Path, steps: int, epochs: int, steps_per_epoch: int, write: Callable
    ):
        self.run_dir = Path(run_dir)
        self.steps = min(steps, steps_per_epoch)
        self.epoch = min(2, epochs)
        self.first = min(WARMUP, steps_per_epoch - self.steps)
        self.write = write
        self._tracing = False

    @contextlib.contextmanager
    def around(self, epoch: int, index: int, step: int) -> Iterator[None]:
        """Wraps the step at ``index`` in ``epoch`` (global ``step``): opens the trace at the
        window's first step, annotates the steps inside it, closes it after the last."""
        inside = self.steps and epoch == self.epoch and 0 <= index - self.first < self.steps
        if not inside:
            yield
            return
        if not self._tracing:
            profiler.start_trace(self.run_dir)
            self._tracing = True
        try:
            with profiler.StepTraceAnnotation("train", step_num=step):
                yield
        except BaseException:
            self.close()
            raise
        if index - self.first == self.steps - 1:
            self.close()

    def close(self) -> None:
        """Stops an open trace and saves the memory profile (nothing when none is open)."""
        if not self._tracing:
            return
        self._tracing = False
        profiler.stop_trace()
        memory = self.run_dir / "memory.prof"
        profiler.save_device_memory_profile(memory)
        self.write(
            f"profiled {self.steps} steps of epoch {self.epoch}: "
            f"{profiler.session.last_run_dir()} (TensorBoard's Profile tab), "
            f"memory: pprof -top {memory}"
        )
