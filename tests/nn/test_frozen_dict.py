"""FrozenDict: immutability, pytree behaviour and the freeze/unfreeze/copy/pop helpers."""

import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
from core import random, tree_util
from nn import frozen_dict


def test_frozen_dict_is_immutable_hashable_and_nested():
    f = nn.freeze({"a": {"b": 1}, "c": 2})
    assert isinstance(f["a"], nn.FrozenDict) and f == {"a": {"b": 1}, "c": 2}
    assert hash(f) == hash(nn.freeze({"c": 2, "a": {"b": 1}}))
    with pytest.raises(ValueError, match="immutable"):
        f["c"] = 3
    assert nn.unfreeze(f) == {"a": {"b": 1}, "c": 2} and type(nn.unfreeze(f)["a"]) is dict


@pytest.mark.parametrize("make", [nn.freeze, dict])
def test_copy_and_pop_return_new_mappings_of_the_same_kind(make):
    x = make({"a": 1, "b": 2})
    rest, value = frozen_dict.pop(x, "a")
    assert value == 1 and dict(rest) == {"b": 2} and type(rest) is type(x)
    y = frozen_dict.copy(x, {"b": 3, "c": 4})
    assert dict(y) == {"a": 1, "b": 3, "c": 4} and type(y) is type(x)
    assert dict(x) == {"a": 1, "b": 2}


def test_frozen_dict_is_a_pytree_with_sorted_dict_keys():
    f = nn.freeze({"z": jnp.ones(2), "a": {"k": jnp.zeros(1)}})
    paths = [tree_util.keystr(p) for p, _ in tree_util.tree_flatten_with_path(f)[0]]
    assert paths == ["['a']['k']", "['z']"]
    doubled = core.jit(lambda t: tree_util.tree_map(lambda v: v * 2 + 1, t))(f)
    assert isinstance(doubled, nn.FrozenDict)
    np.testing.assert_array_equal(np.asarray(doubled["z"]), [3.0, 3.0])


def test_modules_accept_frozen_variables_and_named_call_toggles_are_no_ops():
    layer = nn.Dense(2)
    v = layer.init(random.key(0), jnp.ones((1, 3)))
    nn.enable_named_call()
    nn.disable_named_call()
    with nn.override_named_call(True):
        y = layer.apply(nn.freeze(v), jnp.ones((1, 3)))
    np.testing.assert_array_equal(np.asarray(y), np.asarray(layer.apply(v, jnp.ones((1, 3)))))
    assert nn.ones_init()(random.key(0), (2,)).tolist() == [1.0, 1.0]
    assert nn.zeros(random.key(0), (1,)).tolist() == [0.0]
