"""core.struct tests: reprs, leaves and paths recorded from flax.struct 0.12 on the same classes."""

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from core import struct
from core import tree_util as tu


@struct.dataclass
class Model:
    params: Any
    apply_fn: Callable = struct.field(pytree_node=False, default=None)


class State(struct.PyTreeNode):
    step: int
    params: Any
    tx: Any = struct.field(pytree_node=False, default="sgd")
    extra: dict = struct.field(default_factory=dict)


@struct.dataclass(frozen=False, eq=False)
class Mutable:
    x: Any


def test_flatten_and_paths():
    m = Model({"w": 1, "b": 2}, apply_fn=len)
    leaves, treedef = tu.tree_flatten(m)
    assert leaves == [2, 1]
    assert str(treedef) == (
        "PyTreeDef(CustomNode(Model[(<built-in function len>,)], [{'b': *, 'w': *}]))"
    )
    paths = [tu.keystr(p) for p, _ in tu.tree_flatten_with_path(m)[0]]
    assert paths == [".params['b']", ".params['w']"]
    assert tu.tree_unflatten(treedef, [5, 6]) == Model({"b": 5, "w": 6}, apply_fn=len)


def test_static_fields_are_treedef_data():
    a = tu.tree_structure(Model(1, apply_fn=len))
    assert a == tu.tree_structure(Model(2, apply_fn=len))
    assert a != tu.tree_structure(Model(2, apply_fn=max))
    assert hash(a) == hash(tu.tree_structure(Model(np.zeros(2), apply_fn=len)))
    assert tu.tree_map(lambda x: x * 10, Model(1, apply_fn=len)) == Model(10, apply_fn=len)


def test_replace_and_frozen():
    m = Model({"w": 1})
    m2 = m.replace(params={"w": 2})
    assert m2.params == {"w": 2} and m.params == {"w": 1} and m2.apply_fn is None
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'params'"):
        m.params = 3
    with pytest.raises(TypeError):
        m.replace(nonexistent=1)


def test_pytreenode_subclass():
    s = State(step=0, params={"w": np.ones(2)})
    leaves, treedef = tu.tree_flatten(s)
    assert [np.asarray(x).tolist() for x in leaves] == [0, [1.0, 1.0]]
    assert str(treedef) == "PyTreeDef(CustomNode(State[('sgd',)], [*, {'w': *}, {}]))"
    assert [tu.keystr(p) for p, _ in tu.tree_leaves_with_path(s)] == [".step", ".params['w']"]
    s2 = tu.tree_map(lambda x: x + 1, s)
    assert isinstance(s2, State) and s2.step == 1 and s2.tx == "sgd"
    np.testing.assert_array_equal(s2.params["w"], [2.0, 2.0])
    assert s.replace(step=5).step == 5
    assert dataclasses.is_dataclass(State)
    assert [f.name for f in dataclasses.fields(State)] == ["step", "params", "tx", "extra"]


def test_pytreenode_inheritance():
    class Child(State):
        lr: float = 0.1

    c = Child(step=1, params=2)
    assert tu.tree_leaves(c) == [1, 2, 0.1]
    assert str(tu.tree_structure(c)) == ("PyTreeDef(CustomNode(Child[('sgd',)], [*, *, {}, *]))")


def test_decorator_kwargs_and_idempotence():
    m = Mutable(1)
    m.x = 2
    assert tu.tree_leaves(m) == [2]
    assert struct.dataclass(Model) is Model
    # Flax's marker of a struct dataclass, which ported code tests for
    assert Model._flax_dataclass is True and not hasattr(int, "_flax_dataclass")


def test_field_metadata():
    f = {f.name: f for f in dataclasses.fields(Model)}
    assert "pytree_node" not in f["params"].metadata  # plain fields default to children
    assert f["apply_fn"].metadata["pytree_node"] is False
    g = struct.field(pytree_node=False, metadata={"doc": "x"})
    assert dict(g.metadata) == {"doc": "x", "pytree_node": False}
