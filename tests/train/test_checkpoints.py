"""Checkpoints: round trips, keep-N, overwrite rules, atomicity, corrupt files, mismatch diffs."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

import core.numpy as jnp
from core import random, struct
from nn.flax_errors import InvalidCheckpointError
from train import checkpoints
from train.checkpoints import (
    available_steps,
    latest_checkpoint,
    load_state_dict,
    restore_checkpoint,
    save_checkpoint,
)
from train.errors import (
    CheckpointExistsError,
    CheckpointMismatchError,
    CheckpointNotFoundError,
    CheckpointVersionError,
    CorruptCheckpointError,
    OrbaxTransformsError,
    UnsupportedLeafError,
)

REPO = Path(__file__).resolve().parents[2]


class AdamLike(NamedTuple):
    count: Any
    mu: Any


class State(struct.PyTreeNode):
    step: Any
    params: Any
    opt_state: Any
    name: str = struct.field(pytree_node=False, default="static")


def _state(scale=1.0):
    params = {
        "Dense_0": {
            "kernel": np.arange(6, dtype=np.float32).reshape(2, 3) * scale,
            "bias": np.zeros(3, np.float32),
        },
        "embed": np.arange(4, dtype=np.int32),
    }
    opt = (AdamLike(np.int32(3), {"w": np.ones(2, np.float64) * scale}), None)
    return State(step=7, params=params, opt_state=opt)


def _assert_same(a, b):
    from core import tree_util

    la, ta = tree_util.tree_flatten(a)
    lb, tb = tree_util.tree_flatten(b)
    assert ta == tb
    for x, y in zip(la, lb):
        assert type(x) is type(y) or isinstance(x, np.generic | np.ndarray)
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y))
        assert np.asarray(x).dtype == np.asarray(y).dtype or isinstance(y, int | float)


@pytest.mark.parametrize(
    "tree",
    [
        {"a": np.float32(1.5), "b": [np.arange(3, dtype=np.uint8), (2.5, True)]},
        {"x": np.zeros((0, 4), np.float32), "y": np.array(3 + 4j, np.complex64)},
        (np.ones((2, 2), np.float16), {"z": np.array([True, False])}),
        _state(),
    ],
    ids=["nested", "empty-and-complex", "tuple", "struct"],
)
def test_round_trip(tmp_path, tree):
    path = save_checkpoint(tmp_path, tree, step=3)
    assert path == str(tmp_path / "checkpoint_3")
    restored = restore_checkpoint(tmp_path, tree)
    _assert_same(restored, tree)


def test_round_trip_keeps_static_fields_and_python_scalars(tmp_path):
    saved = _state(scale=2.0)
    save_checkpoint(tmp_path, saved, step=1)
    target = _state(scale=0.0).replace(name="from-target")
    restored = restore_checkpoint(tmp_path, target)
    assert restored.name == "from-target"
    assert restored.step == 7 and type(restored.step) is int
    np.testing.assert_array_equal(
        restored.params["Dense_0"]["kernel"], saved.params["Dense_0"]["kernel"]
    )
    assert restored.opt_state[0].mu["w"].dtype == np.float64
    assert restored.opt_state[1] is None


def test_restore_without_target_gives_state_dict(tmp_path):
    save_checkpoint(tmp_path, _state(), step=4)
    tree = restore_checkpoint(tmp_path, None)
    assert tree["step"] == 7
    assert set(tree) == {"step", "params", "opt_state"}
    assert tree["opt_state"]["0"]["count"] == np.int32(3)
    step, same = load_state_dict(tmp_path / "checkpoint_4")
    assert step == 4 and same["params"]["embed"].tolist() == [0, 1, 2, 3]


def test_restore_without_target_sorts_keys(tmp_path):
    # Flax 0.12 (Orbax) restores {'z': .., 'a': {'y', 'b', 'c': [..]}} without a target as
    # {'a': {'b', 'c': {'0', '1'}, 'y'}, 'z'}: every dict's keys sorted.
    tree = {"z": jnp.ones(1), "a": {"y": 2, "b": jnp.zeros(1), "c": [1.0, 2]}}
    save_checkpoint(tmp_path, tree, step=1)
    got = restore_checkpoint(tmp_path, None)
    assert list(got) == ["a", "z"]
    assert list(got["a"]) == ["b", "c", "y"] and list(got["a"]["c"]) == ["0", "1"]


def test_arrays_restore_as_arrays(tmp_path):
    # As Flax's (Orbax) checkpoints: a core.Array leaf comes back an Array, a numpy one numpy,
    # with or without a target (then the saved leaf's type decides).
    from core.array import Array

    tree = {"a": jnp.array([1, 2, 3], jnp.int32), "b": np.ones(2, np.float32), "c": 3}
    path = save_checkpoint(tmp_path, tree, step=0)
    for target in (None, tree, {**tree, "a": np.zeros(3, np.int32)}):
        got = restore_checkpoint(path, target)
        assert isinstance(got["a"], Array) == (target is None or isinstance(target["a"], Array))
        assert type(got["b"]) is np.ndarray and type(got["c"]) is int
        np.testing.assert_array_equal(got["a"], [1, 2, 3])


def test_typed_keys_restore_as_keys(tmp_path):
    # a key array is saved as its data and implementation, and comes back a key array
    tree = {"rng": random.split(random.key(3, impl="rbg"), 2), "x": np.ones(2, np.float32)}
    path = save_checkpoint(tmp_path, tree, step=0)
    for target in (None, tree):
        got = restore_checkpoint(path, target)
        assert str(got["rng"].dtype) == "key<rbg>" and got["rng"].shape == (2,)
        np.testing.assert_array_equal(random.key_data(got["rng"]), random.key_data(tree["rng"]))
    with pytest.raises(CheckpointMismatchError, match="keys key<fry>"):
        restore_checkpoint(path, {**tree, "rng": random.split(random.key(0), 2)})


def test_header_is_plain_json(tmp_path):
    tree = {"w": np.ones((2, 3), np.float32), "n": 5, "empty": ()}
    save_checkpoint(tmp_path, tree, step=0)
    with np.load(tmp_path / "checkpoint_0", allow_pickle=False) as z:
        header = json.loads(z["__header__"].tobytes())
    assert header["format"] == "numbax.checkpoint"
    assert header["version"] == checkpoints.FORMAT_VERSION
    assert header["leaves"] == [  # in the dict's order, as Flax's state dict
        {"path": "['w']", "keys": ["w"], "shape": [2, 3], "dtype": "float32", "kind": "array"},
        {"path": "['n']", "keys": ["n"], "shape": [], "dtype": "int64", "kind": "int"},
    ]
    assert header["empty"] == [["empty"]]
    assert checkpoints.load_state_dict(tmp_path / "checkpoint_0")[1]["empty"] == {}


@pytest.mark.parametrize(
    "keep, every, expected",
    [
        (1, None, [5]),
        (2, None, [4, 5]),
        (10, None, [1, 2, 3, 4, 5]),
        # Flax 0.12.8's answers: old steps kept when `every` or more after the last kept one
        (1, 2, [1, 3, 5]),
        (2, 3, [1, 4, 5]),
        (1, 3, [1, 4, 5]),
    ],
)
def test_keep_last_n(tmp_path, keep, every, expected):
    for step in range(1, 6):
        save_checkpoint(tmp_path, {"s": step}, step=step, keep=keep, keep_every_n_steps=every)
    assert available_steps(tmp_path) == expected
    assert latest_checkpoint(tmp_path) == str(tmp_path / "checkpoint_5")
    assert restore_checkpoint(tmp_path, {"s": 0}) == {"s": 5}


def test_prefixes_are_separate(tmp_path):
    save_checkpoint(tmp_path, {"s": 1}, step=1, prefix="a_")
    save_checkpoint(tmp_path, {"s": 2}, step=2, prefix="b_")
    assert available_steps(tmp_path, "a_") == [1]
    assert restore_checkpoint(tmp_path, {"s": 0}, prefix="a_") == {"s": 1}
    assert latest_checkpoint(tmp_path / "missing") is None


@pytest.mark.parametrize("step", [3, 2])
@pytest.mark.parametrize("format", ["npz", "msgpack"])
def test_overwrite_rules(tmp_path, step, format):
    save_checkpoint(tmp_path, {"s": 3}, step=3, keep=5, format=format)
    if format == "npz" and step == 2:  # Flax 0.12.8's Orbax writer saves an older step
        save_checkpoint(tmp_path, {"s": 2}, step=2, keep=5, format=format)
        assert available_steps(tmp_path) == [2, 3]
        assert restore_checkpoint(tmp_path, {"s": 0}) == {"s": 3}
        save_checkpoint(tmp_path, {"s": 1}, step=1, keep=2)  # pruned at once, as Flax's
        assert available_steps(tmp_path) == [2, 3]
        return
    with pytest.raises(CheckpointExistsError, match=f"step {step}") as info:
        save_checkpoint(tmp_path, {"s": step}, step=step, keep=5, format=format)
    assert isinstance(info.value, FileExistsError)
    # Flax 0.12.8 raises a ValueError for the same step (Orbax) and an InvalidCheckpointError
    # (legacy): `except ValueError` and `except flax.errors.InvalidCheckpointError` catch ours
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, InvalidCheckpointError)
    save_checkpoint(tmp_path, {"s": -step}, step=step, keep=5, overwrite=True, format=format)
    assert available_steps(tmp_path) == [step]
    assert restore_checkpoint(tmp_path, {"s": 0}) == {"s": -step}


def test_step_may_be_an_array(tmp_path):
    save_checkpoint(tmp_path, {"s": 1}, step=np.int32(12))
    assert available_steps(tmp_path) == [12]


def test_restore_specific_step_and_missing_step(tmp_path):
    for step in (1, 2):
        save_checkpoint(tmp_path, {"s": step}, step=step, keep=2)
    assert restore_checkpoint(tmp_path, {"s": 0}, step=1) == {"s": 1}
    assert restore_checkpoint(tmp_path / "checkpoint_1", {"s": 0}) == {"s": 1}
    with pytest.raises(CheckpointNotFoundError, match="Steps available .*: 1, 2") as info:
        restore_checkpoint(tmp_path, {"s": 0}, step=9)
    assert isinstance(info.value, ValueError)


def test_restore_from_empty_dir_returns_target(tmp_path):
    target = {"s": np.zeros(2)}
    assert restore_checkpoint(tmp_path, target) is target


def test_mismatch_diff_names_every_path(tmp_path):
    save_checkpoint(tmp_path, _state(), step=1)
    target = _state()
    params = dict(target.params)
    params["Dense_0"] = {
        "kernel": np.zeros((3, 3), np.float32),  # shape changed
        "bias": np.zeros(3, np.float64),  # dtype changed
        "scale": np.ones(3, np.float32),  # missing from the checkpoint
    }
    del params["embed"]  # extra in the checkpoint
    with pytest.raises(CheckpointMismatchError) as info:
        restore_checkpoint(tmp_path, target.replace(params=params))
    message = str(info.value)
    assert str(tmp_path / "checkpoint_1") in message
    assert "(missing):\n    .params['Dense_0']['scale']" in message
    assert "(extra):\n    .params['embed']" in message
    assert ".params['Dense_0']['kernel']: float32[2, 3] vs float32[3, 3]" in message
    assert ".params['Dense_0']['bias']: float32[3] vs float64[3]" in message
    assert info.value.missing == [".params['Dense_0']['scale']"]
    assert info.value.extra == [".params['embed']"]


def test_empty_orbax_transforms_fall_back_to_the_target(tmp_path):
    # Flax's use_checkpointing guide: an old checkpoint restored into a target with a new
    # field (kept from the target) and without an old one (dropped), by orbax_transforms={}.
    save_checkpoint(tmp_path, {"w": np.arange(3.0), "old": np.ones(2)}, step=4)
    target = {"w": np.zeros(3), "new": np.arange(10), "old": None}
    restored = restore_checkpoint(tmp_path, target, step=4, orbax_transforms={})
    assert sorted(restored) == ["new", "old", "w"] and restored["old"] is None
    np.testing.assert_array_equal(restored["w"], np.arange(3.0))
    assert restored["new"] is target["new"]
    # Flax's other keywords are taken (no multiprocess arrays, files read whole).
    restored = restore_checkpoint(
        tmp_path, None, parallel=False, gda_manager=None, allow_partial_mpa_restoration=True
    )
    np.testing.assert_array_equal(restored["old"], np.ones(2))
    with pytest.raises(CheckpointMismatchError, match="missing"):
        restore_checkpoint(tmp_path, target, step=4)
    with pytest.raises(OrbaxTransformsError, match="only the empty"):
        restore_checkpoint(tmp_path, target, orbax_transforms={"w": None})


def test_unsupported_leaf(tmp_path):
    with pytest.raises(UnsupportedLeafError, match=r"\['name'\]"):
        save_checkpoint(tmp_path, {"name": "adam"}, step=1)
    assert available_steps(tmp_path) == []


def test_failed_rename_leaves_old_checkpoint_and_no_temporary(tmp_path, monkeypatch):
    save_checkpoint(tmp_path, {"s": 1}, step=1)

    def crash(*_):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        save_checkpoint(tmp_path, {"s": 2}, step=2)
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["checkpoint_1"]
    assert restore_checkpoint(tmp_path, {"s": 0}) == {"s": 1}


def test_process_killed_while_writing(tmp_path):
    """A process dying half way through a save leaves no visible, partial checkpoint."""
    script = textwrap.dedent(
        f"""
        import os, numpy as np
        from train.checkpoints import save_checkpoint
        save_checkpoint({str(tmp_path)!r}, {{"w": np.ones(1000)}}, step=1)
        real_savez = np.savez
        def dying_savez(f, **arrays):
            f.write(b"PK\\x03\\x04 half a zip")
            f.flush()
            os._exit(3)
        np.savez = dying_savez
        save_checkpoint({str(tmp_path)!r}, {{"w": np.zeros(1000)}}, step=2)
        """
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=REPO, env={**os.environ})
    assert result.returncode == 3
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names[-1] == "checkpoint_1" and len(names) == 2 and names[0].startswith(".")
    assert available_steps(tmp_path) == [1]
    restored = restore_checkpoint(tmp_path, {"w": np.zeros(1000)})
    np.testing.assert_array_equal(restored["w"], np.ones(1000))


def _corrupt_truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _corrupt_flip(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 3] ^= 0xFF
    path.write_bytes(bytes(data))


def _corrupt_replace(path: Path) -> None:
    path.write_text("not a checkpoint")


def _corrupt_foreign_npz(path: Path) -> None:
    with open(path, "wb") as f:
        np.savez(f, x=np.ones(3))


@pytest.mark.parametrize(
    "damage", [_corrupt_truncate, _corrupt_flip, _corrupt_replace, _corrupt_foreign_npz]
)
def test_corrupt_file_error_names_the_file(tmp_path, damage):
    save_checkpoint(tmp_path, {"w": np.arange(5000, dtype=np.float32)}, step=1)
    damage(tmp_path / "checkpoint_1")
    with pytest.raises(CorruptCheckpointError) as info:
        restore_checkpoint(tmp_path, {"w": np.zeros(5000, np.float32)})
    assert str(tmp_path / "checkpoint_1") in str(info.value)
    assert isinstance(info.value, ValueError)


def test_newer_format_version(tmp_path):
    header = {"format": "numbax.checkpoint", "version": 99, "step": 1, "leaves": []}
    with open(tmp_path / "checkpoint_1", "wb") as f:
        np.savez(f, __header__=np.frombuffer(json.dumps(header).encode(), np.uint8))
    with pytest.raises(CheckpointVersionError, match="version 99"):
        restore_checkpoint(tmp_path, {})


def test_bfloat16_and_float16_leaves_round_trip(tmp_path):
    target = {
        "w": jnp.asarray([1.5, -2.25, 3e38], jnp.bfloat16),
        "h": jnp.asarray([0.1, 65504.0], jnp.float16),
    }
    checkpoints.save_checkpoint(tmp_path, target, step=1)
    back = checkpoints.restore_checkpoint(tmp_path, target)
    for k in target:
        assert np.asarray(back[k]).dtype == np.asarray(target[k]).dtype
        np.testing.assert_array_equal(
            np.asarray(back[k]).astype(np.float32), np.asarray(target[k]).astype(np.float32)
        )


# Flax 0.12.8's first lines (legacy, Orbax-free checkpoints), recorded with paths relative to
# the working directory
@pytest.mark.parametrize(
    "steps, first_line",
    [
        ((2, 2), 'Trying to save an outdated checkpoint at step: "2" and path: "c/checkpoint_2".'),
        ((2, 1), 'Trying to save an outdated checkpoint at step: "1" and path: "c/checkpoint_1".'),
    ],
)
def test_outdated_saves_have_flaxs_first_line(tmp_path, monkeypatch, steps, first_line):
    monkeypatch.chdir(tmp_path)
    save_checkpoint("c", {"a": 1}, steps[0], format="msgpack")
    with pytest.raises(CheckpointExistsError) as info:
        save_checkpoint("c", {"a": 1}, steps[1], format="msgpack")
    url = "https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html"
    assert str(info.value).splitlines()[0] == (
        f"{first_line} ({url}#flax.errors.InvalidCheckpointError)"
    )


def test_saving_an_existing_step_has_orbaxs_first_line(tmp_path):
    # Flax 0.12.8 with its default Orbax writer (which numbax's npz files stand in for)
    save_checkpoint(tmp_path, {"a": 1}, 2)
    with pytest.raises(CheckpointExistsError) as info:
        save_checkpoint(tmp_path, {"a": 1}, 2)
    assert str(info.value).splitlines()[0] == f"Destination {tmp_path}/checkpoint_2 already exists."


def test_a_missing_step_has_flaxs_first_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save_checkpoint("c", {"a": 1}, 2)
    with pytest.raises(CheckpointNotFoundError) as info:
        restore_checkpoint("c", None, step=5)
    assert str(info.value).splitlines()[0] == "Matching checkpoint not found: c/checkpoint_5"


def test_msgpack_restores_numpy_leaves_in_the_targets_key_order(tmp_path):
    # Flax restores its legacy files with from_bytes: numpy arrays, dicts in the target's order
    tree = {"w": jnp.arange(3.0), "n": {"b": jnp.ones((2, 2), jnp.int32)}, "s": 3}
    target = {"w": jnp.zeros(3), "n": {"b": jnp.zeros((2, 2), jnp.int32)}, "s": 0}
    save_checkpoint(tmp_path, tree, 1, format="msgpack")
    out = restore_checkpoint(tmp_path, target)
    assert list(out) == ["w", "n", "s"]
    assert type(out["w"]) is np.ndarray and type(out["n"]["b"]) is np.ndarray
    np.testing.assert_array_equal(out["w"], [0.0, 1.0, 2.0])
    assert out["s"] == 3
    npz = restore_checkpoint(save_checkpoint(tmp_path / "z", tree, 1), target)
    assert list(npz) == ["w", "n", "s"]  # numbax's own format keeps Arrays where the target has
    assert not isinstance(npz["w"], np.ndarray)


def test_msgpack_restores_as_flaxs_legacy_restore(tmp_path):
    # Flax 0.12.8 with its legacy (msgpack) checkpoints: from_state_dict's first line for a
    # target key the file lacks, the file's extra keys dropped
    w = jnp.ones(3)
    save_checkpoint(tmp_path / "a", {"p": {"w": w}, "s": 1}, 1, format="msgpack")
    with pytest.raises(CheckpointMismatchError) as info:
        restore_checkpoint(tmp_path / "a", {"p": {"w": w, "k": w}, "s": 0})
    assert str(info.value).splitlines()[0] == (
        "The target dict keys and state dict keys do not match, target dict contains keys "
        "{'k'} which are not present in state dict at path ./p"
    )
    assert info.value.missing == ["['p']['k']"]
    save_checkpoint(tmp_path / "b", {"w": w, "b": 2 * w}, 1, format="msgpack")
    out = restore_checkpoint(tmp_path / "b", {"w": jnp.zeros(3)})
    assert list(out) == ["w"]
    np.testing.assert_array_equal(out["w"], np.ones(3))
    with pytest.raises(CheckpointMismatchError, match="extra"):  # numbax's own files: strict
        restore_checkpoint(save_checkpoint(tmp_path / "c", {"w": w, "b": w}, 1), {"w": w})
