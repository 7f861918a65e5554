"""Run directories of the MNIST example: one per run, found again by ``--resume``.

A run lives in ``{logdir}/{name}``, the name given with ``--name`` or the start time
(``20261125-140102``, with ``-2``, ``-3``, ... appended if two runs start in the same second).
The directory holds the TensorBoard event files, ``config.json`` (the run's resolved settings,
written when the run starts) and, unless ``--checkpoint-dir`` says otherwise, ``checkpoints/``.
A new run never writes into an existing run's directory or checkpoints.

``--resume`` picks the named run, or else the run whose ``config.json`` or latest checkpoint
was written last, and continues with the settings in its ``config.json``.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from examples.mnist.errors import RunExistsError, RunNameError, RunNotFoundError
from train import checkpoints

CONFIG_FILE = "config.json"


def list_runs(logdir: str | os.PathLike) -> list[str]:
    """The names of the runs in ``logdir`` (directories with a ``config.json``), sorted."""
    root = Path(logdir)
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / CONFIG_FILE).is_file())


def read_config(run_dir: str | os.PathLike) -> dict[str, Any]:
    """The settings a run was started with (its ``config.json``)."""
    return json.loads((Path(run_dir) / CONFIG_FILE).read_text())


def write_config(run_dir: str | os.PathLike, config: Mapping[str, Any]) -> None:
    """Writes ``config.json`` atomically (a temporary file renamed over it)."""
    path = Path(run_dir) / CONFIG_FILE
    tmp = path.with_name(f".{CONFIG_FILE}.tmp-{os.getpid()}")
    tmp.write_text(json.dumps(dict(config), indent=2, sort_keys=True) + "\n")
    os.replace(tmp, path)


def _last_written(run_dir: Path) -> float:
    config = read_config(run_dir)
    times = [(run_dir / CONFIG_FILE).stat().st_mtime]
    latest = checkpoints.latest_checkpoint(config.get("checkpoint_dir") or run_dir / "checkpoints")
    if latest is not None:
        times.append(Path(latest).stat().st_mtime)
    return max(times)


def _check_name(name: str | None) -> None:
    if name is not None and (name in ("", ".", "..") or Path(name).name != name):
        raise RunNameError(name)


def find_run(logdir: str | os.PathLike, name: str | None) -> Path:
    """The run ``--resume`` continues: ``logdir/name``, or the most recently written run.

    Raises:
        RunNotFoundError: there is no such run (the message lists the runs there).
        RunNameError: ``name`` is not a plain directory name.
    """
    _check_name(name)
    root, runs = Path(logdir), list_runs(logdir)
    if name is not None:
        if name not in runs:
            raise RunNotFoundError(root, name, runs)
        return root / name
    if not runs:
        raise RunNotFoundError(root, None, runs)
    return max((root / r for r in runs), key=_last_written)


def new_run_dir(logdir: str | os.PathLike, name: str | None) -> Path:
    """Creates the directory of a new run and returns it.

    Args:
        logdir: the directory of all runs.
        name: the run's name; None for the current time.

    Raises:
        RunExistsError: ``name`` is already a non-empty directory in ``logdir``.
        RunNameError: ``name`` is not a plain directory name.
    """
    _check_name(name)
    root = Path(logdir)
    root.mkdir(parents=True, exist_ok=True)
    if name is not None:
        run_dir = root / name
        if run_dir.exists() and any(run_dir.iterdir()):
            raise RunExistsError(run_dir, name)
        run_dir.mkdir(exist_ok=True)
        return run_dir
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for i in range(1, 1000):
        run_dir = root / (stamp if i == 1 else f"{stamp}-{i}")
        try:
            run_dir.mkdir()  # atomic: two runs starting together get different directories
            return run_dir
        except FileExistsError:
            continue
    raise RunExistsError(root / stamp, stamp)
