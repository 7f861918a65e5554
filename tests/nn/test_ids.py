"""`nn.ids` (``flax.ids``): module ids are unique, hashable, and copies get fresh ones."""

import copy

import core.numpy as jnp
import nn
from core import random
from nn import ids


def test_ids_are_unique_and_copies_are_new_ids():
    a, b = ids.uuid(), ids.uuid()
    assert a == a and a != b and hash(a) != hash(b)
    assert copy.copy(a) != a and copy.deepcopy(a) != a
    assert repr(a) == f"FlaxId({a.id})"


class _Pair(nn.Module):
    left: nn.Module
    right: nn.Module

    def __call__(self, x):
        return self.left(x) + self.right(x)


def test_a_deep_copied_module_is_not_adopted_as_its_original():
    dense = nn.Dense(2)
    assert copy.deepcopy(dense)._id != dense._id
    x = jnp.ones((1, 3))
    shared = _Pair(dense, dense).init(random.key(0), x)
    copied = _Pair(dense, copy.deepcopy(dense)).init(random.key(0), x)
    # Flax 0.12.8: one module shared by reference is adopted once, a copy is another module
    assert list(shared["params"]) == ["left"]
    assert list(copied["params"]) == ["left", "right"]
