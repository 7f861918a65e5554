"""`device_put`/`device_get` of pytrees (`core/placement.py`) as JAX 0.10.2: values without a
dtype are its TypeError, traced values pass through `device_get`."""

import numpy as np
import pytest

import core
import core.numpy as jnp


def test_device_put_of_a_pytree_and_of_values_without_a_dtype():
    out = core.device_put({"a": np.ones(2), "b": [3, 2.0, None]})
    assert out["a"].dtype == np.float32 and out["b"][0].weak_type and out["b"][2] is None
    with pytest.raises(TypeError) as e:
        core.device_put(object())
    assert str(e.value).splitlines()[0] == (
        "Cannot interpret value of type <class 'object'> as an abstract array; it does not "
        "have a dtype attribute"
    )
    with pytest.raises(TypeError, match="^Argument 'abc' of type <class 'str'> is not a valid"):
        core.device_put("abc")


def test_device_get_inside_jit_gives_back_the_traced_value():
    assert core.jit(lambda x: core.device_get(x) * 2)(1.0) == 2.0
    assert type(core.device_get(jnp.ones(2))) is np.ndarray
