"""Errors raised by `train`.

One class per failure, each subclassing the built-in exception a caller would catch for it (a
file that cannot be read is a `ValueError`, a missing step a `FileNotFoundError`). The message
names the file or key path, what was expected and what was found, and the fix; the same facts are
kept as attributes for programs.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


class CheckpointExistsError(FileExistsError):
    """`save_checkpoint` would replace or go back behind an existing checkpoint.

    Fix: pass ``overwrite=True`` (which also deletes the checkpoints of later steps), or save
    under a new step or directory.
    """

    def __init__(self, path: Path | str, step: int, latest: int):
        self.path = Path(path)
        self.step = step
        self.latest = latest
        what = "already exists" if step == latest else f"is older than the latest step {latest}"
        super().__init__(
            f"checkpoint for step {step} ({self.path}) {what}. Pass overwrite=True to replace it "
            "(checkpoints of later steps are then deleted), or save under another step."
        )


class CheckpointNotFoundError(FileNotFoundError, ValueError):
    """`restore_checkpoint(..., step=s)` asked for a step that has no checkpoint file.

    Also a `ValueError`, which is what Flax raises here.
    """

    def __init__(self, path: Path | str, available: Sequence[int]):
        self.path = Path(path)
        self.available = list(available)
        steps = ", ".join(map(str, self.available)) or "none"
        super().__init__(
            f"no checkpoint file {self.path}; steps available in {self.path.parent}: {steps}. "
            "Pass one of those steps, or step=None for the latest."
        )


class CorruptCheckpointError(ValueError):
    """A checkpoint file cannot be read: truncated, not a numbax checkpoint, or damaged.

    Files are written atomically, so this means the file was changed or copied partially after
    it was saved. Fix: restore an earlier step (``restore_checkpoint(..., step=...)``) or delete
    the file.
    """

    def __init__(self, path: Path | str, reason: str):
        self.path = Path(path)
        self.reason = reason
        super().__init__(
            f"checkpoint file {self.path} is corrupt or not a numbax checkpoint: {reason}. "
            "Restore an earlier step with restore_checkpoint(..., step=...) or delete the file."
        )


class CheckpointVersionError(ValueError):
    """A checkpoint was written by a newer, unknown version of the format."""

    def __init__(self, path: Path | str, version: object, supported: int):
        self.path = Path(path)
        self.version = version
        super().__init__(
            f"checkpoint file {self.path} has format version {version!r}; this numbax reads "
            f"versions up to {supported}. Upgrade numbax to restore it."
        )


class CheckpointMismatchError(ValueError):
    """The stored tree differs from the ``target`` tree given to `restore_checkpoint`.

    The message lists, by key path, the leaves only in the target (missing from the file), the
    leaves only in the file (extra), and the leaves whose shape or dtype changed. Fix: build the
    target with the configuration used when saving (model sizes, optimizer), or restore with
    ``target=None`` to get the stored tree as nested dicts and inspect it.
    """

    def __init__(
        self,
        path: Path | str,
        missing: Sequence[str],
        extra: Sequence[str],
        changed: Sequence[str],
    ):
        self.path = Path(path)
        self.missing = list(missing)
        self.extra = list(extra)
        self.changed = list(changed)
        lines = [f"checkpoint file {self.path} does not match the target tree:"]
        if self.missing:
            lines.append("  in the target but not in the checkpoint (missing):")
            lines += [f"    {k}" for k in self.missing]
        if self.extra:
            lines.append("  in the checkpoint but not in the target (extra):")
            lines += [f"    {k}" for k in self.extra]
        if self.changed:
            lines.append("  stored with another shape or dtype (checkpoint vs target):")
            lines += [f"    {c}" for c in self.changed]
        lines.append(
            "Fix: build the target with the model and optimizer configuration used when saving, "
            "or pass target=None to get the stored tree as nested dicts."
        )
        super().__init__("\n".join(lines))


class UnsupportedLeafError(TypeError):
    """A leaf of the tree given to `save_checkpoint` is not a number or an array of numbers."""

    def __init__(self, path: str, leaf: object):
        self.path = path
        super().__init__(
            f"cannot checkpoint the leaf at {path}: {type(leaf).__name__} {leaf!r:.80} is not a "
            "number or numeric array. Checkpoints hold plain numbers; keep other values static "
            "(core.struct.field(pytree_node=False)) or out of the saved tree."
        )


class MetricNameError(KeyError):
    """A metric built with ``from_output(name)`` did not receive ``name`` as a keyword."""

    def __init__(self, metric: str, name: str, given: Sequence[str]):
        self.metric = metric
        self.name = name
        given_s = ", ".join(sorted(given)) or "none"
        super().__init__(
            f"metric {metric} reads the model output {name!r}, but only these were passed: "
            f"{given_s}. Pass {name}=... to single_from_model_output/gather_from_model_output."
        )

    def __str__(self) -> str:
        return str(self.args[0])


class MetricMergeError(TypeError):
    """Two metrics of different types, or collections with different fields, were merged."""

    def __init__(self, left: object, right: object):
        super().__init__(
            f"cannot merge {type(left).__name__} with {type(right).__name__}: merge metrics of "
            "the same type (and collections with the same fields)."
        )
