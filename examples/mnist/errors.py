"""Errors of the MNIST example's command line: each names the problem and the flag that fixes it.

The command line prints them as ``error: ...`` and exits with status 2 (as argparse does for a
bad flag); from Python they are ordinary exceptions, all `ExampleError`s (a
`numbax.errors.NumbaxError`, like every numbax error).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from numbax.errors import NumbaxError


class ExampleError(NumbaxError):
    """Base class of the errors a user fixes by changing the command line."""


class DataDirNotFoundError(ExampleError, FileNotFoundError):
    """``--data-dir`` names a directory that does not exist.

    Failing code (a typo)::

        python -m examples.mnist.train --data-dir ~/data/mnsit

    Fix: the directory holding the MNIST files (or its parent), or no ``--data-dir`` for the
    shipped copy.
    """

    def __init__(self, data_dir: str | Path):
        self.data_dir = Path(data_dir)
        super().__init__(
            f"--data-dir {data_dir}: no such directory. Give the directory holding the dataset "
            "files (or its parent), or omit --data-dir to use the copy shipped with numbax."
        )


class RunExistsError(ExampleError, FileExistsError):
    """A new run would write into the directory of an existing run.

    Failing code (run twice)::

        python -m examples.mnist.train --name baseline

    Fix: ``--resume --name baseline`` to continue it, or another ``--name`` (none: a timestamped
    one) for a new run.
    """

    def __init__(self, run_dir: str | Path, name: str):
        self.run_dir = Path(run_dir)
        super().__init__(
            f"run {name!r} already exists ({run_dir}). Continue it with --resume --name {name}, "
            "or start a new run under another --name (or without --name for a timestamped one)."
        )


class CheckpointDirInUseError(ExampleError, FileExistsError):
    """``--checkpoint-dir`` of a new run already holds checkpoints (of another run).

    Failing code (for a second new run)::

        python -m examples.mnist.train --checkpoint-dir ckpt

    Fix: an empty directory, no ``--checkpoint-dir`` (each run keeps its own), or ``--resume``.
    """

    def __init__(self, checkpoint_dir: str | Path, steps: Sequence[int]):
        self.checkpoint_dir = Path(checkpoint_dir)
        super().__init__(
            f"--checkpoint-dir {checkpoint_dir} already holds checkpoints (steps "
            f"{', '.join(map(str, steps))}) of another run. Give an empty directory, or omit "
            "--checkpoint-dir (each run then keeps its checkpoints in LOGDIR/NAME/checkpoints), "
            "or continue that run with --resume."
        )


class RunNameError(ExampleError, ValueError):
    """``--name`` is not a plain directory name.

    Failing code::

        python -m examples.mnist.train --name ../elsewhere

    Fix: one directory name (``--name elsewhere``), and ``--logdir`` to put runs in another
    directory.
    """

    def __init__(self, name: str):
        super().__init__(
            f"--name {name!r}: a run name is one directory name inside LOGDIR (no '/', not '.' "
            "or '..'); use --logdir to put runs elsewhere."
        )


class RunNotFoundError(ExampleError, FileNotFoundError):
    """``--resume`` found no run to continue.

    Failing code (where only run ``a`` exists)::

        python -m examples.mnist.train --resume --name b

    Fix: a ``--name`` the message lists, the right ``--logdir``, or no ``--resume`` (a new run).
    """

    def __init__(self, logdir: str | Path, name: str | None, available: Sequence[str]):
        self.logdir = Path(logdir)
        runs = ", ".join(available) or "none"
        what = f"no run {name!r}" if name else "no run"
        super().__init__(
            f"--resume: {what} in {logdir} (runs there: {runs}). Pass --name with one of those "
            "runs, point --logdir at the right directory, or drop --resume to start a new run."
        )


class ResumeMismatchError(ExampleError, ValueError):
    """``--resume`` was given settings that differ from the ones the run was started with.

    The learning-rate schedule, the batches and the model follow from these settings, so a
    resumed run with other values would silently train a different schedule.

    Failing code (for a run started with ``--epochs 2``)::

        python -m examples.mnist.train --resume --name a --epochs 3

    Fix: omit the differing flags, or start a new run to use new settings.
    """

    def __init__(self, run_dir: str | Path, differences: Mapping[str, tuple[object, object]]):
        self.run_dir = Path(run_dir)
        self.differences = dict(differences)
        lines = [f"--resume: these settings differ from the run in {run_dir}:"]
        lines += [
            f"  {k}: the run has {saved!r}, given {given!r}"
            for k, (saved, given) in self.differences.items()
        ]
        lines.append(
            "Omit them to continue with the run's settings, or start a new run (drop --resume, "
            "or use another --name) to train with the new ones."
        )
        super().__init__("\n".join(lines))


class ParallelSettingError(ExampleError, ValueError):
    """``--devices`` or ``--batch-size`` do not fit the devices and processes.

    Failing code (32 does not split over 3 devices)::

        python -m examples.mnist.train --devices 3 --batch-size 32

    Fix: a batch size the device count divides (``--devices 2``, ``--devices 4``), and at most
    as many devices as the message says the machine has.
    """
