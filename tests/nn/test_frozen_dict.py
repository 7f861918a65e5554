"""FrozenDict: immutability, pytree behaviour and the freeze/unfreeze/copy/pop helpers."""

import inspect

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
    with pytest.raises(ValueError, match=r"^FrozenDict is immutable\.\n"):  # Flax 0.12.8's line
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


def test_modules_accept_frozen_variables_and_named_call_toggles_leave_values_alone():
    layer = nn.Dense(2)
    v = layer.init(random.key(0), jnp.ones((1, 3)))
    nn.disable_named_call()
    nn.enable_named_call()  # the default again: the toggles are global, later tests trace labels
    with nn.override_named_call(True):
        y = layer.apply(nn.freeze(v), jnp.ones((1, 3)))
    np.testing.assert_array_equal(np.asarray(y), np.asarray(layer.apply(v, jnp.ones((1, 3)))))
    assert nn.ones_init()(random.key(0), (2,)).tolist() == [1.0, 1.0]
    assert nn.zeros(random.key(0), (1,)).tolist() == [0.0]


def test_pop_copy_and_unfreeze_copy_as_pytrees_with_sorted_keys_as_flax_does():
    # Flax deep-copies a dict (and a FrozenDict it unfreezes) by `tree_map`: the keys come back
    # sorted at every level, which its printed variables show (linen_intro's Block cell).
    x = {"params": {"Dense_0": {"kernel": 1, "bias": 2}, "BatchNorm_0": {"scale": 3}}, "b": 4}
    rest, params = frozen_dict.pop(x, "params")
    assert list(rest) == ["b"] and list(params) == ["BatchNorm_0", "Dense_0"]
    assert list(params["Dense_0"]) == ["bias", "kernel"]
    assert list(frozen_dict.copy(x, {"a": 5})) == ["b", "params", "a"]
    assert list(nn.unfreeze(nn.freeze(x))["params"]) == ["BatchNorm_0", "Dense_0"]
    assert list(nn.unfreeze(x)["params"]) == ["Dense_0", "BatchNorm_0"]
    assert list(x["params"]) == ["Dense_0", "BatchNorm_0"]


def test_pretty_repr_indents_every_line_of_a_multiline_value_as_flax_does():
    class Two:
        def __repr__(self):
            return "Two(\n  lines)"

    assert repr(nn.freeze({"a": {"v": Two()}})) == (
        "FrozenDict({\n    a: {\n        v: Two(\n          lines),\n    },\n})"
    )
    inner = nn.freeze({"k": 1})
    assert frozen_dict.pretty_repr({"f": inner, "e": {}}, num_spaces=2) == (
        "{\n  f: FrozenDict({\n      k: 1,\n  }),\n  e: {},\n}"
    )
    assert repr(nn.freeze({})) == "FrozenDict({})" and frozen_dict.pretty_repr({}) == "{}"
    # a FrozenDict's own pretty_repr is used, 4 spaces whatever num_spaces says (as Flax's)
    nested = nn.freeze({"a": {"b": 1}})
    assert frozen_dict.pretty_repr(nested, num_spaces=2) == nested.pretty_repr()
    assert nested.pretty_repr(num_spaces=2) == "FrozenDict({\n  a: {\n    b: 1,\n  },\n})"


def test_items_is_a_generator_as_in_flax():
    items = nn.freeze({"b": 1, "a": {"c": 2}}).items()
    assert inspect.isgenerator(items)
    assert [(k, type(v).__name__) for k, v in items] == [("b", "int"), ("a", "FrozenDict")]


def test_keys_and_values_are_flaxs_views():
    frozen = nn.FrozenDict
    # Flax 0.12.8: FrozenKeysView / FrozenValuesView, printed as below
    d = frozen({"a": 1, "b": 2})
    keys, values = d.keys(), d.values()
    assert type(keys).__name__ == "FrozenKeysView" and type(values).__name__ == "FrozenValuesView"
    assert repr(keys) == "frozen_dict_keys(['a', 'b'])"
    assert repr(values) == "frozen_dict_values([1, 2])"
    assert keys == {"a", "b"} and (keys | {"z"}) == {"a", "b", "z"} and len(keys) == 2
    assert repr(frozen().keys()) == "frozen_dict_keys([])"
