"""`core.Array` / `core.numpy.ndarray` answer `isinstance` as `jax.Array` does (JAX 0.10.2):
concrete arrays, typed key arrays and tracers are instances; numpy arrays and scalars are not.
All of them can be weakly referenced, as JAX's can."""

import weakref

import numpy as np
import pytest

import core
import core.numpy as jnp

X = jnp.arange(3.0)


@pytest.mark.parametrize("cls", [core.Array, jnp.ndarray])
@pytest.mark.parametrize(
    "transform",
    [
        lambda f: f,
        core.jit,
        core.vmap,
        lambda f: core.grad(lambda x: f(x).sum()),
    ],
)
def test_arrays_and_tracers_are_instances(cls, transform):
    seen = []

    def f(x):
        seen.append(isinstance(x, cls))
        seen.append(weakref.ref(x)() is x)
        return x

    transform(f)(X)
    assert seen == [True, True]


@pytest.mark.parametrize("make", [lambda: core.device_put(1.0), lambda: core.random.key(0)])
def test_a_weak_reference_dies_with_the_array(make):
    x = make()
    ref = weakref.ref(x)
    assert ref() is x
    del x
    assert ref() is None


@pytest.mark.parametrize(
    "value, want", [(X, True), (np.ones(2), False), (1.0, False), ([1], False)]
)
def test_instances(value, want):
    assert isinstance(value, core.Array) is want
    assert isinstance(value, jnp.ndarray) is want


def test_typed_keys_are_instances_and_the_class_is_abstract():
    assert isinstance(core.random.key(0), core.Array)
    assert jnp.ndarray is core.Array and repr(core.Array) == "<class 'core.Array'>"
    with pytest.raises(TypeError, match="cannot be instantiated"):
        core.Array(np.ones(2))
