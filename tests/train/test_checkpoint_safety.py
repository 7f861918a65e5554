"""Checkpoint safety: killed saves leave no lasting litter, bad `step`/`keep` values are refused,
the checkpoint just written is never pruned."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import core.numpy as jnp
from train.checkpoints import available_steps, restore_checkpoint, save_checkpoint
from train.errors import CheckpointArgumentError

REPO = Path(__file__).resolve().parents[2]

# Saves step 1, then starts saving step 2 and blocks in fsync (a slow disk) until killed.
BLOCKED_SAVE = """
import os, sys, time
import numpy as np
from train.checkpoints import save_checkpoint
save_checkpoint(sys.argv[1], {"w": np.ones(1000)}, step=1)
def blocked(fd):
    print("writing", flush=True)
    time.sleep(120)
os.fsync = blocked
save_checkpoint(sys.argv[1], {"w": np.zeros(1000)}, step=2)
"""


def _kill_mid_save(ckpt_dir: Path) -> Path:
    child = subprocess.Popen(
        [sys.executable, "-c", BLOCKED_SAVE, str(ckpt_dir)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "writing"
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    (tmp,) = [p for p in ckpt_dir.iterdir() if p.name.startswith(".")]
    assert tmp.stat().st_size > 8000  # the whole archive, never renamed
    return tmp


@pytest.mark.parametrize("then", ["save", "restore"])
def test_temporary_of_a_killed_save_is_removed_next_time(tmp_path, then):
    tmp = _kill_mid_save(tmp_path)
    assert available_steps(tmp_path) == [1]
    if then == "save":
        save_checkpoint(tmp_path, {"w": np.full(1000, 2.0)}, step=2)
        assert available_steps(tmp_path) == [2]
    restored = restore_checkpoint(tmp_path, {"w": np.zeros(1000)})
    np.testing.assert_array_equal(restored["w"], np.full(1000, 2.0 if then == "save" else 1.0))
    assert not tmp.exists()
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == [f"checkpoint_{2 if then == 'save' else 1}"]


def test_temporary_of_a_live_writer_is_kept(tmp_path):
    live = tmp_path / f".checkpoint_5.tmp-{os.getpid()}-0123abcd"  # a save under way
    live.write_bytes(b"PK")
    other_prefix = tmp_path / ".other_5.tmp-999999999-0123abcd"
    other_prefix.write_bytes(b"PK")
    save_checkpoint(tmp_path, {"s": 1}, step=1)
    assert live.exists() and other_prefix.exists()
    os.utime(live, (0, 0))  # untouched for an hour: a leftover whatever its pid says
    save_checkpoint(tmp_path, {"s": 2}, step=2)
    assert not live.exists() and other_prefix.exists()


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(step=1.7), r"step=1\.7 \(float\): step must be an integer >= 0"),
        (dict(step=-1), r"step=-1 .*>= 0"),
        (dict(step=True), r"step=True \(bool\)"),
        (dict(step="3"), r"step='3' \(str\)"),
        (dict(step=np.float32(2.0)), r"step=.*float32"),
        (dict(step=np.ones(2, np.int32)), r"step=array"),
        (dict(step=1, keep=0), r"keep=0 .*keep must be an integer >= 1"),
        (dict(step=1, keep=1.5), r"keep=1\.5"),
        (dict(step=1, keep=-2), r"keep=-2"),
        (dict(step=1, keep_every_n_steps=0), r"keep_every_n_steps=0 .*>= 1"),
    ],
)
def test_bad_step_or_keep_is_refused_and_nothing_written(tmp_path, kwargs, match):
    with pytest.raises(CheckpointArgumentError, match=match):
        save_checkpoint(tmp_path, {"s": 1}, **kwargs)
    assert not tmp_path.exists() or list(tmp_path.iterdir()) == []


def test_integer_scalars_of_any_kind_are_steps(tmp_path):
    save_checkpoint(tmp_path, {"s": 1}, step=np.int64(3), keep=3)
    save_checkpoint(tmp_path, {"s": 2}, step=jnp.asarray(4), keep=3)
    save_checkpoint(tmp_path, {"s": 3}, step=np.array(5, np.uint8), keep=3)
    assert available_steps(tmp_path) == [3, 4, 5]
    assert restore_checkpoint(tmp_path, {"s": 0}, step=np.int32(4)) == {"s": 2}
    with pytest.raises(CheckpointArgumentError, match="step=-1"):
        restore_checkpoint(tmp_path, {"s": 0}, step=-1)


def test_overwrite_with_keep_one_keeps_the_checkpoint_just_written(tmp_path):
    for step in (1, 2, 3):
        save_checkpoint(tmp_path, {"s": step}, step=step, keep=1)
    save_checkpoint(tmp_path, {"s": 10}, step=1, keep=1, overwrite=True)
    assert available_steps(tmp_path) == [1]
    assert restore_checkpoint(tmp_path, {"s": 0}) == {"s": 10}
