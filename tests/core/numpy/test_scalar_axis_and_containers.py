"""Two `jnp` argument checks against JAX 0.10.2 (core/numpy/_util.py, reductions.py): a
reduction over an axis of a scalar, and a dict or set where an array belongs (JAX's
`check_arraylike` message). Classes and first lines printed by JAX 0.10.2."""

import numpy as np
import pytest

import core.numpy as jnp

X = np.float32(2.0)

AXIS_CASES = [  # (call, JAX 0.10.2's class, its first line)
    (lambda: jnp.sum(X, axis=0), ValueError, "axis 0 is out of bounds for array of dimension 0"),
    (lambda: jnp.sum(X, axis=-1), ValueError, "axis -1 is out of bounds for array of dimension 0"),
    (lambda: jnp.sum(X, axis=(0,)), ValueError, "axis 0 is out of bounds for array of dimension 0"),
    (lambda: jnp.max(X, axis=0), ValueError, "axis 0 is out of bounds for array of dimension 0"),
    (lambda: jnp.prod(X, axis=0), ValueError, "axis 0 is out of bounds for array of dimension 0"),
    (lambda: jnp.any(X, axis=0), ValueError, "axis 0 is out of bounds for array of dimension 0"),
    (lambda: jnp.sum(X, axis=0, keepdims=True), ValueError,
     "axis 0 is out of bounds for array of dimension 0"),
    (lambda: jnp.squeeze(X, 0), ValueError, "axis 0 is out of bounds for array of dimension 0"),
    (lambda: jnp.squeeze(X, -1), ValueError, "axis -1 is out of bounds for array of dimension 0"),
    (lambda: jnp.mean(X, axis=0), IndexError, "tuple index out of range"),
    (lambda: jnp.var(X, axis=0), IndexError, "tuple index out of range"),
    (lambda: jnp.std(X, axis=0), IndexError, "tuple index out of range"),
]  # fmt: skip


@pytest.mark.parametrize(("call", "error", "first_line"), AXIS_CASES)
def test_reducing_a_scalar_over_an_axis(call, error, first_line):
    with pytest.raises(error) as info:
        call()
    assert str(info.value).split("\n")[0] == first_line


def test_reducing_a_scalar_over_no_axis():
    assert float(jnp.sum(X, axis=())) == 2.0  # JAX 0.10.2: 2.0


CONTAINER_CASES = [  # JAX 0.10.2: TypeError "<name> requires ndarray or scalar arguments, ..."
    (lambda: jnp.where({"a": 1}, 1, 2), "where requires ndarray or scalar arguments, got "
     "<class 'dict'> at position 0."),
    (lambda: jnp.sin({"a": 1}), "sin requires ndarray or scalar arguments, got <class 'dict'> "
     "at position 0."),
    (lambda: jnp.maximum({1, 2}, 1), "maximum requires ndarray or scalar arguments, got "
     "<class 'set'> at position 0."),
    (lambda: jnp.clip({"a": 1.0}, 0, 1), "clip requires ndarray or scalar arguments, got "
     "<class 'dict'> at position 0."),
]  # fmt: skip


@pytest.mark.parametrize(("call", "message"), CONTAINER_CASES)
def test_a_dict_or_set_is_no_array(call, message):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value) == message
