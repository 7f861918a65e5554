"""flatten_dict / unflatten_dict round trips (flax.traverse_util semantics)."""

import pytest

from core import tree_util
from nn.traverse_util import empty_node, flatten_dict, path_aware_map, unflatten_dict

TREE = {"a": {"b": 1, "c": {"d": 2}}, "e": 3}


def test_flatten_and_unflatten():
    flat = flatten_dict(TREE)
    assert flat == {("a", "b"): 1, ("a", "c", "d"): 2, ("e",): 3}
    assert unflatten_dict(flat) == TREE
    flat = flatten_dict(TREE, sep="/")
    assert flat == {"a/b": 1, "a/c/d": 2, "e": 3}
    assert unflatten_dict(flat, sep="/") == TREE


@pytest.mark.parametrize(
    "keep, expected", [(False, {("x",): 1}), (True, {("x",): 1, ("y",): empty_node})]
)
def test_empty_nodes(keep, expected):
    tree = {"x": 1, "y": {}}
    assert flatten_dict(tree, keep_empty_nodes=keep) == expected
    if keep:
        assert unflatten_dict(flatten_dict(tree, keep_empty_nodes=True)) == tree
        assert repr(empty_node) == "_EmptyNode()"  # Flax's marker object, not a dict


def test_is_leaf_and_path_aware_map():
    flat = flatten_dict(TREE, is_leaf=lambda path, _: path == ("a", "c"))
    assert flat == {("a", "b"): 1, ("a", "c"): {"d": 2}, ("e",): 3}
    doubled = path_aware_map(lambda path, v: v * 2 if path[-1] != "e" else v, TREE)
    assert doubled == {"a": {"b": 2, "c": {"d": 4}}, "e": 3}


@pytest.mark.parametrize("value", [5, [1, 2], None])
def test_flatten_needs_a_dict(value):
    # Flax 0.12.8: AssertionError "expected (frozen)dict; got <class 'int'>" for flatten_dict(5)
    from nn.errors import FlattenInputError

    with pytest.raises(AssertionError, match=r"expected \(frozen\)dict; got") as info:
        flatten_dict(value)
    assert isinstance(info.value, (FlattenInputError, TypeError))
    with pytest.raises(FlattenInputError):
        path_aware_map(lambda path, v: v, value)


# Flax 0.12.8's traversals on the same inputs (recorded with the reference venv).
PARAMS = {
    "Dense_0": {"kernel": 1.0, "bias": 2.0},
    "Dense_1": {"kernel": 3.0, "bias": 4.0},
    "empty": {},
}
ITEMS = {"a": [1, 2, 3], "b": (4, 5)}


@pytest.fixture
def tu():
    import warnings

    from nn import traverse_util

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # Traversal warns, as in Flax
        yield traverse_util


def test_model_param_traversal(tu):
    t = tu.ModelParamTraversal(lambda path, _: "bias" in path)
    assert list(t.iterate(PARAMS)) == [2.0, 4.0]
    assert t.update(lambda v: v * 10, PARAMS) == {
        "Dense_0": {"bias": 20.0, "kernel": 1.0},
        "Dense_1": {"bias": 40.0, "kernel": 3.0},
        "empty": {},
    }
    from nn import FrozenDict, freeze

    assert isinstance(t.update(lambda v: v, freeze(PARAMS)), FrozenDict)
    seen = []
    list(tu.ModelParamTraversal(lambda path, _: seen.append(path) or True).iterate(PARAMS))
    assert seen == ["/Dense_0/bias", "/Dense_0/kernel", "/Dense_1/bias", "/Dense_1/kernel"]


@pytest.mark.parametrize(
    "build, method, expected",
    [
        (lambda t: t["a"].each(), "iterate", [1, 2, 3]),
        (lambda t: t["a"].each(), lambda v: -v, {"a": [-1, -2, -3], "b": (4, 5)}),
        (lambda t: t["b"][0:1], lambda v: v * 100, {"a": [1, 2, 3], "b": (400, 5)}),
        (lambda t: t["a"][1:], "iterate", [2, 3]),
        (lambda t: t.merge(t["a"], t["b"]), "iterate", [[1, 2, 3], (4, 5)]),
        (lambda t: t.tree(), lambda v: v + 1, {"a": [2, 3, 4], "b": (5, 6)}),
    ],
)
def test_traversals(tu, build, method, expected):
    t = build(tu.t_identity)
    got = list(t.iterate(ITEMS)) if method == "iterate" else t.update(method, ITEMS)
    assert got == expected


def test_traversal_set_and_errors(tu):
    from nn.errors import TraversalError

    t = tu.t_identity["a"].each().filter(lambda v: v > 1)
    assert t.set([7, 8], ITEMS) == {"a": [1, 7, 8], "b": (4, 5)}
    with pytest.raises(TraversalError, match="Not enough"):
        t.set([7], ITEMS)
    with pytest.raises(TraversalError, match="Too many"):
        t.set([7, 8, 9], ITEMS)
    with pytest.raises(TraversalError, match="list or tuple"):
        tu.t_identity.each().update(lambda v: v, {1, 2})
    with pytest.raises(TraversalError, match="nested dict"):
        list(tu.ModelParamTraversal(lambda *_: True).iterate([1]))


def test_traversal_warns_as_in_flax():
    from nn import traverse_util

    with pytest.warns(DeprecationWarning, match="Traversal"):
        traverse_util.TraverseId()


def test_flatten_dict_sep_needs_string_keys():
    # flax 0.12.8: TypeError: sequence item 0: expected str instance, int found
    with pytest.raises(TypeError, match="sequence item 0: expected str instance, int found"):
        flatten_dict({1: {2: "x"}}, sep="/")
    assert flatten_dict({1: {2: "x"}}) == {(1, 2): "x"}


def test_empty_node_is_a_pytree_node_without_leaves():
    # Flax 0.12.8's empty_node is a struct.dataclass: jax.tree skips it (JAX's printed treedef)
    flat = flatten_dict({"a": {"b": 1, "c": {}}}, keep_empty_nodes=True, sep=".")
    assert str(tree_util.tree_structure(flat)) == (
        "PyTreeDef({'a.b': *, 'a.c': CustomNode(_EmptyNode[()], [])})"
    )
    doubled = tree_util.tree_map(lambda x: 2 * x, flat)
    assert doubled == {"a.b": 2, "a.c": empty_node}
    assert unflatten_dict(doubled, sep=".") == {"a": {"b": 2, "c": {}}}
