"""Errors raised by `train`.

One class per failure, each subclassing the built-in exception a caller would catch for it (a
file that cannot be read is a `ValueError`, a missing step a `FileNotFoundError`). The message
names the file or key path, what was expected and what was found, and the fix; the same facts are
kept as attributes for programs. Where Flax raises a `flax.errors` class for the same failure,
ours derives from it too (`CheckpointExistsError` is an `InvalidCheckpointError`). Every class
derives from the package root `TrainError`, a `core.errors.NumbaxError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core.errors import NumbaxError
from nn.flax_errors import InvalidCheckpointError


class TrainError(NumbaxError):
    """Root of `train`'s errors: ``except train.errors.TrainError`` catches every one of them
    (and ``except core.errors.NumbaxError`` every numbax error)."""


class CheckpointExistsError(TrainError, InvalidCheckpointError, FileExistsError, ValueError):
    """`save_checkpoint` would replace an existing checkpoint (or, in Flax's legacy msgpack
    format, go back behind the latest one).

    Its first line is what Flax 0.12 says: Orbax's ValueError "Destination ... already
    exists." for numbax's npz files (they stand in for Flax's default Orbax checkpoints, whose
    writer saves a step older than the latest), legacy `InvalidCheckpointError`'s line for
    msgpack files (that writer refuses older steps too).

    Failing code::

        checkpoints.save_checkpoint(ckpt_dir, state, step=10)
        checkpoints.save_checkpoint(ckpt_dir, state, step=10)

    Fix: pass ``overwrite=True`` (which also deletes the checkpoints of later steps), or save
    under a new step or directory::

        checkpoints.save_checkpoint(ckpt_dir, state, step=10, overwrite=True)
    """

    def __init__(self, path: Path | str, step: int, latest: int, legacy: bool = True):
        self.path = Path(path)
        self.step = step
        self.latest = latest
        exists = not legacy or step == latest
        what = "already exists" if exists else f"is not newer than the latest step {latest}"
        first = (
            f'Trying to save an outdated checkpoint at step: "{step}" and path: "{path}". '
            "(https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html"
            "#flax.errors.InvalidCheckpointError)"
            if legacy
            else f"Destination {path} already exists."
        )
        super().__init__(  # Flax's first line, then what happened and the fix
            f"{first}\nThe checkpoint for step {step} {what}. Pass overwrite=True to replace "
            "it (checkpoints of later steps are then deleted), or save under another step."
        )


class CheckpointArgumentError(TrainError, ValueError):
    """`save_checkpoint`/`restore_checkpoint` got a ``step``, ``keep`` or
    ``keep_every_n_steps`` that is not an integer in its range (``step=1.7`` would be saved as
    step 1, ``step=-1`` as a file no restore finds, ``keep=0`` would delete the new file).

    Failing code::

        checkpoints.save_checkpoint(ckpt_dir, state, step=epoch / 2, keep=0)

    Fix: pass whole numbers in range: ``step >= 0``, ``keep >= 1``::

        checkpoints.save_checkpoint(ckpt_dir, state, step=int(state.step), keep=3)
    """

    def __init__(self, name: str, value: object, expected: str):
        self.name = name
        self.value = value
        super().__init__(
            f"{name}={value!r} ({type(value).__name__}): {name} must be {expected}. Pass an "
            f"integer, e.g. {name}=int(...) of a whole-number value."
        )


class CheckpointNotFoundError(TrainError, FileNotFoundError, ValueError):
    """`restore_checkpoint(..., step=s)` asked for a step that has no checkpoint file.

    Also a `ValueError`, which is what Flax raises here.

    Failing code::

        checkpoints.save_checkpoint(ckpt_dir, state, step=10)
        checkpoints.restore_checkpoint(ckpt_dir, state, step=20)

    Fix: ask for a step the message lists as available (`checkpoints.available_steps`), or
    ``step=None`` for the latest::

        state = checkpoints.restore_checkpoint(ckpt_dir, state)
    """

    def __init__(self, path: Path | str, available: Sequence[int]):
        self.path = Path(path)
        self.available = list(available)
        steps = ", ".join(map(str, self.available)) or "none"
        super().__init__(  # Flax's first line, then the steps there are
            f"Matching checkpoint not found: {path}\nSteps available in {self.path.parent}: "
            f"{steps}. Pass one of those steps, or step=None for the latest."
        )


class CorruptCheckpointError(TrainError, ValueError):
    """A checkpoint file cannot be read: truncated, not a numbax checkpoint, or damaged.

    Files are written atomically, so this means the file was changed or copied partially after
    it was saved.

    Failing code::

        path = checkpoints.save_checkpoint(ckpt_dir, state, step=1)
        open(path, "r+b").truncate(100)  # a partial copy
        checkpoints.restore_checkpoint(ckpt_dir, state)

    Fix: restore an earlier step (``restore_checkpoint(..., step=...)``) or delete the file.
    """

    def __init__(self, path: Path | str, reason: str):
        self.path = Path(path)
        self.reason = reason
        super().__init__(
            f"checkpoint file {self.path} is corrupt or not a numbax checkpoint: {reason}. "
            "Restore an earlier step with restore_checkpoint(..., step=...) or delete the file."
        )


class CheckpointVersionError(TrainError, ValueError):
    """A checkpoint was written by a newer, unknown version of the format.

    Failing code: ``checkpoints.restore_checkpoint(ckpt_dir, state)`` on a directory a newer
    numbax saved into.

    Fix: upgrade numbax (``pip install -U numbax``) in the environment that restores.
    """

    def __init__(self, path: Path | str, version: object, supported: int):
        self.path = Path(path)
        self.version = version
        super().__init__(
            f"checkpoint file {self.path} has format version {version!r}; this numbax reads "
            f"versions up to {supported}. Upgrade numbax to restore it."
        )


class CheckpointMismatchError(TrainError, ValueError):
    """The stored tree differs from the ``target`` tree given to `restore_checkpoint`.

    The message lists, by key path, the leaves only in the target (missing from the file), the
    leaves only in the file (extra), and the leaves whose shape or dtype changed.

    Failing code::

        checkpoints.save_checkpoint(ckpt_dir, {"w": jnp.ones((3, 4))}, step=0)
        checkpoints.restore_checkpoint(ckpt_dir, {"w": jnp.ones((3, 5)), "b": jnp.ones(5)})

    Fix: build the target with the configuration used when saving (model sizes, optimizer), or
    restore with ``target=None`` to get the stored tree as nested dicts and inspect it::

        stored = checkpoints.restore_checkpoint(ckpt_dir, target=None)
    """

    def __init__(
        self,
        path: Path | str,
        missing: Sequence[str],
        extra: Sequence[str],
        changed: Sequence[str],
        first_line: str | None = None,
    ):
        self.path = Path(path)
        self.missing = list(missing)
        self.extra = list(extra)
        self.changed = list(changed)
        lines = [first_line] if first_line else []  # Flax's, for its legacy msgpack files
        lines.append(f"checkpoint file {self.path} does not match the target tree:")
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


class UnsupportedLeafError(TrainError, TypeError):
    """A leaf of the tree given to `save_checkpoint` is not a number or an array of numbers.

    Failing code::

        checkpoints.save_checkpoint(ckpt_dir, {"w": w, "name": "mlp"}, step=0)

    Fix: keep non-numeric values out of the saved tree, or mark dataclass fields static
    (``core.struct.field(pytree_node=False)``), as `TrainState` does for ``apply_fn``::

        checkpoints.save_checkpoint(ckpt_dir, {"w": w}, step=0)
    """

    def __init__(self, path: str, leaf: object):
        self.path = path
        super().__init__(
            f"cannot checkpoint the leaf at {path}: {type(leaf).__name__} {leaf!r:.80} is not a "
            "number or numeric array. Checkpoints hold plain numbers; keep other values static "
            "(core.struct.field(pytree_node=False)) or out of the saved tree."
        )


class MetricNameError(TrainError, KeyError):
    """A metric built with ``from_output(name)`` did not receive ``name`` as a keyword.

    Failing code::

        Loss = metrics.Average.from_output("loss")
        Loss.from_model_output(value=1.5)

    Fix: pass the output under the name the metric reads::

        Loss.from_model_output(loss=1.5)
    """

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


class MetricMergeError(TrainError, TypeError):
    """Two metrics of different types, or collections with different fields, were merged.

    Failing code::

        metrics.Average.from_model_output(jnp.ones(3)).merge(metrics.LastValue.from_model_output(1.0))

    Fix: merge metrics of one type (and `Collection`s made by the same ``Collection.create``).
    """

    def __init__(self, left: object, right: object):
        super().__init__(
            f"cannot merge {type(left).__name__} with {type(right).__name__}: merge metrics of "
            "the same type (and collections with the same fields)."
        )


class OnehotLabelsError(TrainError, TypeError):
    """``common_utils.onehot`` given a Python list or tuple of labels (Flax indexes it with
    ``labels[..., None]``, which a list refuses: its TypeError's text).

    Failing code: ``onehot([0, 2], 3)``. Fix: ``onehot(jnp.asarray([0, 2]), 3)``.
    """

    def __init__(self, labels: Any) -> None:
        super().__init__(
            f"{type(labels).__name__} indices must be integers or slices, not tuple\nonehot "
            "takes an array of labels: pass jnp.asarray(labels)."
        )


class MsgpackEncodeError(TrainError, TypeError):
    """A value cannot be written as MessagePack (see `train.msgpack`). The first line is the
    msgpack library's, as Flax raises it.

    Failing code::

        serialization.msgpack_serialize({"fn": print})

    Fix: convert the value to dicts, lists, numbers, strings, bytes, None or numeric arrays
    first (`serialization.to_state_dict` does that for registered types), or leave it out.
    """

    def __init__(self, value: object, reason: str):
        self.value = value
        super().__init__(
            f"{self._headline(value)}\n{type(value).__name__} {value!r:.80}: {reason}. Flax's "
            "format holds dicts, lists, numbers, strings, bytes, None and numeric arrays; "
            "convert other values first (to_state_dict does that for registered types)."
        )

    @staticmethod
    def _headline(value: object) -> str:
        return f"can not serialize {type(value).__name__!r} object"


class MsgpackIntegerRangeError(MsgpackEncodeError, OverflowError):
    """An integer outside MessagePack's range (-2**63 to 2**64 - 1) cannot be written.

    Failing code::

        serialization.msgpack_serialize({"n": 2**64})

    Fix: store it as a float or as a string, or split it into words.
    """

    @staticmethod
    def _headline(value: object) -> str:
        return "Integer value out of range"


class MsgpackDecodeError(TrainError, ValueError):
    """Bytes given to `train.msgpack.unpackb` / `msgpack_restore` are not valid MessagePack.

    Failing code::

        serialization.msgpack_restore(b"\xc1 not msgpack")

    Fix: pass the complete bytes of a Flax (msgpack) checkpoint; read numbax ``.npz``
    checkpoints with `checkpoints.restore_checkpoint`.
    """

    headline = "not a valid MessagePack (Flax checkpoint) value"

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(
            f"{self.headline}\n{reason}. The file is truncated, damaged or in another format "
            "(numbax .npz checkpoints are read by train.checkpoints.restore_checkpoint)."
        )


class MsgpackIncompleteError(MsgpackDecodeError):
    """The bytes end inside a MessagePack value (a truncated file): msgpack's "Unpack failed:
    incomplete input".

    Failing code::

        serialization.msgpack_restore(data[:-3])

    Fix: read the whole file; a checkpoint cut short by a crash while writing cannot be
    restored (numbax writes checkpoints atomically, so its own files are complete).
    """

    headline = "Unpack failed: incomplete input"


class ExtraData(MsgpackDecodeError):
    """Bytes follow a complete MessagePack value, msgpack's `ExtraData`.

    Failing code::

        serialization.msgpack_restore(data + b"\x00")

    Fix: pass exactly one serialized value (one file's bytes).
    """

    headline = "unpack(b) received extra data."


class StateDictMismatchError(TrainError, ValueError):
    """A state dict does not have the structure of the target given to `from_state_dict`.

    A `ValueError`, as Flax raises, whose first line is Flax's message (with the path).

    Failing code::

        serialization.from_state_dict({"w": w, "b": b}, {"w": w_state})  # no "b" stored

    Fix: build the target as the saved object was built (same model and optimizer), or restore
    without a target (``msgpack_restore``) and inspect it.
    """

    def __init__(self, path: str, reason: str):
        self.path = path
        self.reason = reason
        super().__init__(
            f"{reason}\nBuild the target with the model and optimizer used when saving, or read "
            "the file with msgpack_restore (no target) to inspect it."
        )


class OrbaxCheckpointError(TrainError, ValueError):
    """An Orbax checkpoint directory, and the optional ``tensorstore`` to read it is missing.

    Flax 0.7+ writes Orbax directories by default.

    Failing code: ``checkpoints.restore_checkpoint(orbax_dir, state)`` without tensorstore.

    Fix: ``pip install numbax[orbax]``
    (`train.orbax` then reads them), or, where Flax is installed, restore it and write Flax's
    msgpack format, which numbax always reads::

        state = flax.training.checkpoints.restore_checkpoint(ckpt_dir, target=None)
        open("checkpoint.msgpack", "wb").write(flax.serialization.to_bytes(state))
    """

    def __init__(self, path: Path | str):
        self.path = Path(path)
        super().__init__(
            f"{self.path} is an Orbax checkpoint directory; reading it needs the optional "
            "tensorstore package: pip install 'numbax[orbax]'. Or convert it where Flax is "
            "installed: state = flax.training.checkpoints.restore_checkpoint(dir, target=None); "
            "open('checkpoint.msgpack', 'wb').write(flax.serialization.to_bytes(state)) - then "
            "restore_checkpoint('checkpoint.msgpack', target) reads it."
        )


class OrbaxTransformsError(TrainError, NotImplementedError):
    """`restore_checkpoint` got non-empty ``orbax_transforms`` (Orbax's renames and value
    functions), which numbax does not implement; the empty ``{}`` (restore into the target's
    structure, falling back to the target's values) is.

    Failing code::

        checkpoints.restore_checkpoint(ckpt_dir, target, orbax_transforms={"a": Transform(...)})

    Fix: restore with ``target=None``, change the state dict by hand, then
    ``flax.serialization.from_state_dict(target, state_dict)``.
    """

    def __init__(self, transforms: dict):
        self.transforms = transforms
        super().__init__(
            f"orbax_transforms={transforms!r}: only the empty {{}} (fall back to the target's "
            "values) is implemented. Restore with target=None, edit the state dict, then "
            "flax.serialization.from_state_dict(target, state_dict)."
        )


class BatchSizeError(TrainError, ValueError, AssertionError):
    """`jax_utils.pad_shard_unpad`'s wrapped function got batched arguments whose leading
    dimensions differ, or got none (Flax asserts: an AssertionError too, with Flax's first
    line).

    Failing code: ``pad_shard_unpad(f)(params, x_of_10, y_of_12)``.
    Fix: give every batched argument the same batch size, or list the unbatched ones in
    ``static_argnums``/``static_argnames``.
    """

    def __init__(self, sizes: set):
        super().__init__(
            f"Inconsistent batch-sizes: {set(sizes)}\nEvery non-static argument needs the same "
            "leading dimension; mark unbatched arguments with static_argnums/static_argnames "
            "(by default the first argument is static)."
        )
