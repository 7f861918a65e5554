"""`nn.cursor` (``flax.cursor``): edits through cursors give Flax's copies, traversal orders,
paths, reprs and errors. The expected values were printed by Flax 0.12.8 (JAX 0.10.2) for the
same calls."""

import dataclasses
from typing import NamedTuple

import pytest

import flaxport
from nn.cursor import Cursor, cursor
from nn.errors import CursorFindError, CursorMatchError
from nn.frozen_dict import FrozenDict, freeze


class Pair(NamedTuple):
    a: int
    b: list


@dataclasses.dataclass(frozen=True)
class Record:
    x: int
    y: dict
    z: int = dataclasses.field(init=False, default=5)


def tree():
    return {"a": {"b": 1.0, "c": 2.0}, "d": [0.5, (1, 2)], "n": Pair(1, [2, 3]),
            "dc": Record(1, {"k": 2})}  # fmt: skip


def _edit_several():
    c = cursor(tree())
    c["a"]["b"] = 0
    c["dc"].x = 8
    c["d"][1] = "t"
    return c.build()


CASES = [
    ("set", lambda: cursor(tree())["a"]["b"].set(9.0)["a"], {"b": 9.0, "c": 2.0}),
    ("set at the root", lambda: cursor(tree()).set(3), 3),
    ("named tuple by index", lambda: cursor(tree())["n"][1][0].set(9)["n"], Pair(1, [9, 3])),
    ("dataclass attribute", lambda: cursor(tree())["dc"].x.set(4)["dc"], Record(4, {"k": 2})),
    ("several edits", lambda: [_edit_several()[k] for k in ("a", "d", "dc")],
     [{"b": 0, "c": 2.0}, [0.5, "t"], Record(8, {"k": 2})]),
    ("apply_update on ints",
     lambda: cursor(tree()).apply_update(lambda p, v: v + 10 if isinstance(v, int) else v).build(),
     {"a": {"b": 1.0, "c": 2.0}, "d": [0.5, (11, 12)], "n": Pair(11, [12, 13]),
      "dc": Record(11, {"k": 12})}),
    ("frozen dict", lambda: cursor(freeze({"p": {"w": 1, "v": 2}}))["p"]["w"].set(5),
     FrozenDict({"p": {"w": 5, "v": 2}})),
    ("paths", lambda: [cursor(tree())["dc"].y["k"]._path, cursor(tree())["d"][1]._path],
     ["['dc'].y['k']", "['d'][1]"]),
    ("find_all",
     lambda: [c._path for c in cursor(tree()).find_all(lambda p, v: isinstance(v, int))],
     ["['d'][1][0]", "['d'][1][1]", "['n'].a", "['n'].b[0]", "['n'].b[1]", "['dc'].x",
      "['dc'].y['k']"]),
    ("find", lambda: str(cursor(tree()).find(lambda p, v: p == "dc/y/k")), "2"),
    ("arithmetic", lambda: [2 - cursor(3), cursor(3) < 4, -cursor(2), abs(cursor(-2)),
                            round(cursor(2.567), 1), cursor(7) // 2, divmod(cursor(7), 2),
                            2 ** cursor(3), cursor(3) == 3],
     [-1, True, -2, 2, 2.6, 3, (3, 1), 8, True]),
    ("len and iteration", lambda: [len(cursor([1, 2, 3])), [str(c) for c in cursor((4, 5))],
                                   [str(c) for c in reversed(cursor([1, 2]))]],
     [3, ["4", "5"], ["2", "1"]]),
    ("repr", lambda: repr(cursor({"a": 1, "b": [1, 2]})),
     "Cursor(\n  _obj={'a': 1, 'b': [1, 2]},\n  _changes={}\n)"),
]  # fmt: skip


def _edited_repr():
    c = cursor({"a": 1, "b": [1, 2]})
    c["b"][0] = 5
    return repr(c)


@pytest.mark.parametrize("name, make, want", CASES, ids=[c[0] for c in CASES])
def test_cursor_gives_flaxs_values(name, make, want):
    assert make() == want


def test_repr_of_recorded_changes_is_flaxs():
    assert _edited_repr() == (
        "Cursor(\n  _obj={'a': 1, 'b': [1, 2]},\n  _changes={\n    'b': Cursor(\n"
        "           _obj=[1, 2],\n           _changes={\n             0: Cursor(\n"
        "                  _obj=5,\n                  _changes={}\n                )\n"
        "           }\n         )\n  }\n)"
    )


def test_apply_update_visits_parents_first_and_leaves_the_original():
    original = tree()
    seen = []
    cursor(original).apply_update(lambda p, v: seen.append(p) or v)
    assert seen == ["a", "a/b", "a/c", "d", "d/0", "d/1", "d/1/0", "d/1/1", "n", "n/a", "n/b",
                    "n/b/0", "n/b/1", "dc", "dc/x", "dc/y", "dc/y/k"]  # fmt: skip
    cursor(original)["a"]["b"].set(0.0)
    assert original == tree()


ERRORS = [
    ("no match", lambda: cursor(tree()).find(lambda p, v: False), CursorMatchError,
     "No object found given the conditions of the cond_fn."),
    ("two matches", lambda: cursor({"a": [1], "b": [1]}).find(lambda p, v: isinstance(v, list)),
     CursorMatchError, "More than one object found given the conditions of the cond_fn. The "
     "first two objects found have the following paths: ['a'] and ['b']"),
    ("missing key", lambda: cursor(tree())["zz"], KeyError, None),
    ("missing attribute", lambda: cursor(tree())["dc"].q, AttributeError,
     "Attribute q not found in DC"),
    ("not indexable", lambda: cursor(5)[0], TypeError, "Cannot index into 5"),
    ("iterating a dict", lambda: list(cursor({"a": 1})), NotImplementedError,
     "__iter__ method only implemented for tuples and lists, not type <class 'dict'>"),
]  # fmt: skip


@pytest.mark.parametrize("name, make, cls, first", ERRORS, ids=[e[0] for e in ERRORS])
def test_cursor_errors_are_flaxs(name, make, cls, first):
    with pytest.raises(cls) as info:
        make()
    if first is not None:
        assert str(info.value).startswith(first.replace("DC", "Record"))
    if cls is CursorMatchError:
        assert isinstance(info.value, CursorFindError)


def test_flax_cursor_ports_to_numbax():
    from flaxport.cursor import cursor as ported

    assert ported is cursor and isinstance(ported(1), Cursor)
    assert flaxport.cursor.cursor is cursor
