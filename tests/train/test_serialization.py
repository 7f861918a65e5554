"""train.serialization and Flax-format checkpoints, against files written by Flax 0.12.8.

The fixtures in ``fixtures/flax`` come from ``make_fixtures.py`` (run once with JAX/Flax;
these tests only read them). ``train_state_expected.npz`` holds the Flax state's leaves as
written by numpy, so every value read here is checked against Flax's.
"""

import collections
import shutil
from pathlib import Path

import numpy as np
import pytest

import core
import nn
import optim
from core import dtypes, struct
from train import TrainState, checkpoints, orbax, serialization
from train.convert import convert_checkpoint, main
from train.errors import (
    CheckpointMismatchError,
    MsgpackDecodeError,
    MsgpackEncodeError,
    OrbaxCheckpointError,
    StateDictMismatchError,
)

FIXTURES = Path(__file__).parent / "fixtures" / "flax"
FLAX_STATE = (FIXTURES / "train_state.msgpack").read_bytes()


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(nn.relu(nn.Dense(4)(x)))


def fresh_state():
    model = MLP()
    params = model.init(core.random.key(1), np.ones((2, 3), np.float32))["params"]
    return TrainState.create(apply_fn=model.apply, params=params, tx=optim.adam(1e-2))


def flat(tree, prefix=""):
    out = {}
    for k, v in tree.items():
        path = f"{prefix}/{k}" if prefix else str(k)
        out.update(flat(v, path) if isinstance(v, dict) else {path: v})
    return out


def assert_is_flax_state(state):
    expected = np.load(FIXTURES / "train_state_expected.npz")
    got = flat(serialization.to_state_dict(state))
    assert set(got) == set(expected.files)
    for path in expected.files:
        np.testing.assert_array_equal(np.asarray(got[path]), expected[path], err_msg=path)
        assert np.asarray(got[path]).dtype == expected[path].dtype, path


def test_state_dict_of_a_train_state_is_flaxs():
    sd = serialization.to_state_dict(fresh_state())
    assert list(sd) == ["step", "params", "opt_state"]
    assert list(sd["opt_state"]) == ["0", "1"]  # (ScaleByAdamState, EmptyState)
    assert list(sd["opt_state"]["0"]) == ["count", "mu", "nu"]
    assert sd["opt_state"]["1"] == {}


def test_from_bytes_reads_a_flax_train_state():
    state = serialization.from_bytes(fresh_state(), FLAX_STATE)
    assert_is_flax_state(state)
    assert state.step == 2 and state.apply_fn is not None
    # the restored state trains
    state.apply_gradients(grads=core.tree_util.tree_map(np.zeros_like, state.params))


def test_msgpack_round_trips_are_byte_identical():
    for name in ("train_state.msgpack", "mixed.msgpack"):
        data = (FIXTURES / name).read_bytes()
        # flax 0.12.8: byte-identical with in_place=True (the default sorts dict keys first)
        again = serialization.msgpack_serialize(serialization.msgpack_restore(data), in_place=True)
        assert again == data, name


def test_every_leaf_kind_of_the_format():
    tree = serialization.msgpack_restore((FIXTURES / "mixed.msgpack").read_bytes())
    arrays, numbers = tree["arrays"], tree["numbers"]
    assert arrays["bf16"].dtype == dtypes.bfloat16
    np.testing.assert_array_equal(
        arrays["bf16"].astype(np.float32), [1.5, -2.25, 0.0030059814453125]
    )
    assert arrays["c64"].dtype == np.complex64 and arrays["c64"][0] == 1 + 2j
    assert arrays["empty"].shape == (0, 3) and arrays["u64"][0] == 2**64 - 1
    assert arrays["scalar0d"].shape == () and arrays["f16"].dtype == np.float16
    assert numbers["complex"] == 3 - 4j and numbers["neg"] == -(2**33)
    assert type(numbers["np_f32"]) is np.float32 and numbers["np_f32"] == 1.25
    assert tree["list"] == [1, [2.5, "x"], {"k": None}]
    assert tree["strings"]["unicode"] == "π≈3.14"


def test_chunked_arrays(monkeypatch):
    data = (FIXTURES / "chunked.msgpack").read_bytes()
    np.testing.assert_array_equal(serialization.msgpack_restore(data)["w"], np.arange(10.0))
    monkeypatch.setattr(serialization, "MAX_CHUNK_SIZE", 16)
    assert serialization.msgpack_serialize({"w": np.arange(10, dtype=np.float32)}) == data


@struct.dataclass
class Pair:
    a: int
    b: int


PT = collections.namedtuple("PT", "x")


@pytest.mark.parametrize(
    "target, state, first_line",
    [  # Flax's first lines (with the path), then numbax's fix
        ([1], {"0": 1, "1": 2}, "The size of the list and the state dict do not match, got 1 "
         "and 2 at path ."),
        ({"a": {"b": 0, "c": 1}}, {"a": {"b": 1}}, "The target dict keys and state dict keys "
         "do not match, target dict contains keys {'c'} which are not present in state dict "
         "at path ./a"),
        (PT(0), {"y": 3}, "The field names of the state dict and the named tuple do not match, "
         "got {'y'} and {'x'} at path ."),
        (Pair(1, 2), {"a": 1}, "Missing field b in state dict while restoring an instance of "
         "Pair, at path ."),
        (Pair(1, 2), {"a": 1, "b": 2, "c": 3, "d": 4}, 'Unknown field(s) "c,d" in state dict '
         "while restoring an instance of Pair at path ."),
    ],
)  # fmt: skip
def test_state_dict_mismatches_say_what_flax_says(target, state, first_line):
    with pytest.raises(StateDictMismatchError) as e:
        serialization.from_state_dict(target, state)
    head, fix = str(e.value).split("\n")
    assert head == first_line and "Build the target" in fix


def test_mismatches_and_bad_values():
    wrong = TrainState.create(
        apply_fn=None, params={"Dense_0": {"bias": np.zeros(2)}}, tx=optim.sgd(0.1)
    )
    with pytest.raises(StateDictMismatchError, match="opt_state"):
        serialization.from_bytes(wrong, FLAX_STATE)
    with pytest.raises(MsgpackEncodeError, match="tuple"):
        serialization.msgpack_serialize({"a": (1, 2)})  # Flax rejects tuples here too
    with pytest.raises(MsgpackDecodeError):
        serialization.msgpack_restore(FLAX_STATE[:-3])


def test_register_serialization_state():
    class Point:
        def __init__(self, x):
            self.x = x

    serialization.register_serialization_state(
        Point, lambda p: {"x": p.x}, lambda p, s: Point(s["x"])
    )
    assert serialization.is_serializable(Point(1))
    assert serialization.from_bytes(Point(0), serialization.to_bytes(Point(3.5))).x == 3.5
    with pytest.raises(ValueError, match="already registered"):
        serialization.register_serialization_state(Point, None, None)


@struct.dataclass
class _Box:
    value: int


serialization.register_serialization_state(
    _Box, lambda box: box.value, lambda box, state: box.replace(value=state)
)


@pytest.mark.parametrize(
    "target, state, want",
    [  # Flax 0.12.8's from_state_dict
        (_Box(0), 123, _Box(123)),  # a handler's state need not be a dict
        (PT(0), {"name": "PT", "fields": {"0": "x"}, "values": {"0": 5}}, PT(5)),  # legacy
    ],
)
def test_from_state_dict_like_flax(target, state, want):
    assert serialization.from_state_dict(target, state) == want


def test_partial_state_dict_is_flaxs():
    add_one = core.tree_util.Partial(core.numpy.add, 1)
    assert serialization.to_state_dict(add_one) == {"args": {"0": 1}, "keywords": {}}
    assert serialization.from_bytes(add_one, serialization.to_bytes(add_one)).args == (1,)
    restored = serialization.from_state_dict(add_one, {"args": {"0": 5}, "keywords": {}})
    assert restored.args == (5,) and int(restored(2)) == 7


def test_restore_checkpoint_reads_flax_legacy_files_and_writes_them(tmp_path):
    state = checkpoints.restore_checkpoint(FIXTURES / "legacy", fresh_state())
    assert_is_flax_state(state)
    assert type(state.step) is int  # kept as the target's Python int
    assert checkpoints.detect_format(FIXTURES / "legacy" / "checkpoint_2") == "msgpack"
    path = checkpoints.save_checkpoint(tmp_path, state, step=2, format="msgpack")
    assert serialization.msgpack_restore(Path(path).read_bytes()).keys() == {
        "step",
        "params",
        "opt_state",
    }
    assert_is_flax_state(checkpoints.restore_checkpoint(tmp_path, fresh_state()))
    with pytest.raises(CheckpointMismatchError, match="opt_state/0/mu") as info:
        target = fresh_state().replace(tx=optim.sgd(0.1), opt_state=optim.sgd(0.1).init({}))
        checkpoints.restore_checkpoint(tmp_path, target)
    # Flax 0.12.8's first line (its sets compared without their order)
    first = str(info.value).splitlines()[0]
    assert first.startswith(
        "The field names of the state dict and the named tuple do not match, got {"
    )
    assert first.endswith("} and set() at path ./opt_state/0")


def test_orbax_directories_read_through_tensorstore(tmp_path):
    pytest.importorskip("tensorstore")
    for where in (FIXTURES / "orbax", FIXTURES / "orbax" / "checkpoint_2"):
        assert_is_flax_state(checkpoints.restore_checkpoint(where, fresh_state()))
    state = checkpoints.restore_checkpoint(FIXTURES / "orbax", fresh_state(), step=2)
    assert type(state.step) is int and state.step == 2
    step, sd = checkpoints.load_state_dict(FIXTURES / "orbax" / "checkpoint_2")
    assert step == 2 and sd["opt_state"]["1"] == {}  # Orbax's None for the EmptyState
    # to Flax's msgpack: the bytes Flax writes for the same state
    convert_checkpoint(FIXTURES / "orbax" / "checkpoint_2", tmp_path / "c.msgpack", to="msgpack")
    assert (tmp_path / "c.msgpack").read_bytes() == FLAX_STATE


def test_orbax_without_tensorstore_says_what_to_do(monkeypatch):
    monkeypatch.setattr(orbax, "available", lambda: False)
    for where in (FIXTURES / "orbax", FIXTURES / "orbax" / "checkpoint_2"):
        with pytest.raises(OrbaxCheckpointError, match=r"pip install 'numbax\[orbax\]'"):
            checkpoints.restore_checkpoint(where, fresh_state())
    with pytest.raises(OrbaxCheckpointError, match="flax.serialization.to_bytes"):
        checkpoints.load_state_dict(FIXTURES / "orbax" / "checkpoint_2")


def test_converter_both_ways(tmp_path):
    npz = tmp_path / "checkpoint_2"
    assert convert_checkpoint(FIXTURES / "train_state.msgpack", npz) == "npz"
    assert checkpoints.detect_format(npz) == "npz"
    assert_is_flax_state(checkpoints.restore_checkpoint(npz, fresh_state()))
    back = tmp_path / "back.msgpack"
    assert main([str(npz), str(back)]) == 0
    assert back.read_bytes() == FLAX_STATE  # Flax reads it as it wrote it

    # a checkpoint numbax wrote becomes a file Flax's from_bytes accepts, of Flax's state; its
    # dicts in the target's order (Dense_1 first, as Flax 0.12.8 restores into this target)
    ours = checkpoints.save_checkpoint(
        tmp_path / "ours",
        checkpoints.restore_checkpoint(FIXTURES / "legacy", fresh_state()),
        step=2,
    )
    convert_checkpoint(ours, tmp_path / "ours.msgpack")
    written = serialization.msgpack_restore((tmp_path / "ours.msgpack").read_bytes())
    assert list(written["params"]) == ["Dense_1", "Dense_0"]
    expected = flat(serialization.msgpack_restore(FLAX_STATE))
    got = flat(written)
    assert set(got) == set(expected)
    for path, value in expected.items():
        np.testing.assert_array_equal(np.asarray(got[path]), np.asarray(value), err_msg=path)


def test_flax_msgpack_into_a_fresh_directory_restores_by_step(tmp_path):
    shutil.copy(FIXTURES / "train_state.msgpack", tmp_path / "checkpoint_7")
    assert checkpoints.available_steps(tmp_path) == [7]
    step, sd = checkpoints.load_state_dict(tmp_path / "checkpoint_7")
    assert step == 2 and sd["opt_state"]["1"] == {}


def test_msgpack_serialize_sorts_dict_keys_unless_in_place():
    # flax 0.12.8 rebuilds the tree with tree_map first: every dict's keys sorted
    tree = {"w": 1, "b": 2, "emb": {"z": None, "a": 1}, "l": [{"y": 1, "x": 2}]}
    out = serialization.msgpack_restore(serialization.msgpack_serialize(tree))
    assert list(out) == ["b", "emb", "l", "w"] and list(out["emb"]) == ["a", "z"]
    assert list(out["l"][0]) == ["x", "y"]
    kept = serialization.msgpack_restore(serialization.msgpack_serialize(tree, in_place=True))
    assert list(kept) == ["w", "b", "emb", "l"]  # flax 0.12.8: {'w': 1, 'b': 2, ...}
