"""Converts checkpoint files between numbax's ``.npz`` format and Flax's msgpack format.

    python -m train.convert runs/mnist/run/checkpoints/checkpoint_1875 state.msgpack
    python -m train.convert flax_checkpoint_10 checkpoint_10 --to npz

The file is read without a target (`train.checkpoints.load_state_dict`, Flax's state-dict
form) and written in the other format, so a numbax checkpoint restores in Flax with
``flax.serialization.from_bytes(state, data)`` / ``flax.training.checkpoints
.restore_checkpoint`` and a Flax one in numbax with `train.checkpoints.restore_checkpoint`.
An Orbax checkpoint directory is read too when the optional ``tensorstore`` is installed
(`train.orbax`), so ``python -m train.convert checkpoint_10/ checkpoint_10.msgpack`` turns
Flax's default checkpoints into files that need neither Orbax nor TensorStore.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from . import checkpoints

__all__ = ["convert_checkpoint", "main"]


def convert_checkpoint(
    src: str | os.PathLike, dst: str | os.PathLike, to: str | None = None
) -> str:
    """Writes the checkpoint file ``src`` to ``dst`` in the other (or the given) format.

    Args:
        src: a numbax ``.npz`` or Flax msgpack checkpoint file, or an Orbax directory.
        dst: the file to write (atomically; its directory is created).
        to: ``"msgpack"`` or ``"npz"``; None for the format ``src`` is not in (msgpack for
            an Orbax directory).

    Returns:
        The format written.

    Raises:
        CorruptCheckpointError: ``src`` is not a readable checkpoint.
        OrbaxCheckpointError: ``src`` is an Orbax directory and tensorstore is missing.
        ValueError: ``to`` is not a known format.
    """
    src, dst = Path(src), Path(dst)
    step, state = checkpoints.load_state_dict(src)
    if to is None:
        to = "npz" if src.is_file() and checkpoints.detect_format(src) == "msgpack" else "msgpack"
    content = checkpoints.encode_checkpoint(state, step or 0, to)
    dst.parent.mkdir(parents=True, exist_ok=True)
    checkpoints._write_atomic(dst, content)
    return to


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point (``python -m train.convert SRC DST [--to FORMAT]``)."""
    parser = argparse.ArgumentParser(
        prog="python -m train.convert",
        description="Convert a checkpoint file between numbax .npz and Flax msgpack.",
    )
    parser.add_argument("src", help="checkpoint file to read (format detected)")
    parser.add_argument("dst", help="file to write")
    parser.add_argument(
        "--to", choices=checkpoints.FORMATS, default=None, help="output format (default: the other)"
    )
    args = parser.parse_args(argv)
    written = convert_checkpoint(args.src, args.dst, args.to)
    print(f"wrote {args.dst} ({written})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
