"""Every class of `jax.errors` (JAX 0.10.2) exists in `core.errors` with JAX's built-in bases, and
numbax raises them where JAX does, so a ported `except jax.errors.X` clause still matches."""

import numpy as np
import pytest

import core
import core.errors as errors
import core.numpy as jnp

# name -> the built-in exception classes in the class's MRO under JAX 0.10.2 (recorded).
JAX_ERRORS = {
    "ConcretizationTypeError": {"TypeError"},
    "InconclusiveDimensionOperation": set(),
    "JAXIndexError": {"IndexError", "LookupError"},
    "JAXTypeError": {"TypeError"},
    "JaxRuntimeError": {"RuntimeError"},
    "JaxprTypeError": {"TypeError"},
    "KeyReuseError": {"TypeError"},
    "NonConcreteBooleanIndexError": {"IndexError", "LookupError"},
    "TracerArrayConversionError": {"TypeError"},
    "TracerBoolConversionError": {"TypeError"},
    "TracerIntegerConversionError": {"TypeError"},
    "UnexpectedTracerError": {"TypeError"},
}
BUILTINS = {"TypeError", "IndexError", "LookupError", "RuntimeError", "ValueError"}


@pytest.mark.parametrize("name", sorted(JAX_ERRORS))
def test_every_jax_error_name_exists_with_jaxs_bases(name):
    cls = getattr(errors, name)
    bases = {c.__name__ for c in cls.__mro__} & BUILTINS
    assert JAX_ERRORS[name] <= bases, (name, bases)


def test_numbax_raises_them_where_jax_does():
    with pytest.raises(errors.JAXTypeError):
        core.jit(lambda x: 1 if x > 0 else 2)(1.0)
    with pytest.raises(errors.ConcretizationTypeError):
        core.jit(lambda x: int(x))(1.0)
    with pytest.raises(errors.TracerArrayConversionError):
        core.jit(lambda x: np.asarray(x))(1.0)
    with pytest.raises(errors.JAXIndexError):
        core.jit(lambda x: x[x > 0])(jnp.ones(3))
    leaked = []
    core.jit(lambda x: leaked.append(x) or x)(1.0)
    with pytest.raises(TypeError) as info:  # JAX's UnexpectedTracerError is a TypeError
        leaked[0] + 1
    assert isinstance(info.value, errors.UnexpectedTracerError)
