"""flatten_dict / unflatten_dict round trips (flax.traverse_util semantics)."""

import pytest

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


def test_is_leaf_and_path_aware_map():
    flat = flatten_dict(TREE, is_leaf=lambda path, _: path == ("a", "c"))
    assert flat == {("a", "b"): 1, ("a", "c"): {"d": 2}, ("e",): 3}
    doubled = path_aware_map(lambda path, v: v * 2 if path[-1] != "e" else v, TREE)
    assert doubled == {"a": {"b": 2, "c": {"d": 4}}, "e": 3}
