"""Traced values misused as concrete ones (`core/trace.py`): the exception classes and first
lines JAX 0.10.2 gives for bool()/int() of arrays with dimensions, an Array's runtime methods
and attributes, a tracer that escaped its transformation, and values that are no arrays."""

import pytest

import core
import core.numpy as jnp
from core import errors


@pytest.mark.parametrize(
    ("fun", "cls", "first"),
    [  # JAX 0.10.2's classes and first lines
        (
            bool,
            ValueError,
            "The truth value of an array with more than one element is ambiguous. Use a.any() "
            "or a.all()",
        ),
        (int, TypeError, "Only scalar arrays can be converted to Python scalars; got arr.ndim=1"),
        (
            lambda x: x.block_until_ready(),
            AttributeError,
            "The 'block_until_ready' method is not available on traced array with shape "
            "float32[2].",
        ),
        (
            lambda x: x.copy_to_host_async(),
            AttributeError,
            "The 'copy_to_host_async' method is not available on traced array with shape "
            "float32[2].",
        ),
        (
            lambda x: x.sharding,
            AttributeError,
            "The 'sharding' attribute is not available on traced array with shape float32[2]. "
            "To query sharding information on tracers, use `jax.typeof(x)`.",
        ),
        (
            lambda x: x.addressable_shards,
            errors.ConcretizationTypeError,
            "Abstract tracer value encountered where concrete value is expected: traced array "
            "with shape float32[2]",
        ),
    ],
)
def test_tracer_misuse_raises_jaxs_errors(fun, cls, first):
    with pytest.raises(cls) as e:
        core.jit(fun)(jnp.ones(2))
    assert str(e.value).splitlines()[0] == first


def test_scalar_tracers_keep_the_concretization_errors():
    with pytest.raises(errors.TracerBoolConversionError):
        core.jit(lambda x: bool(x))(1.0)
    # a traced value has no sharding attribute: getattr's default still applies
    assert core.jit(lambda x: getattr(x, "sharding", None) is None)(1.0)


def test_an_escaped_tracer_names_its_type_as_jax():
    saved = []
    core.jit(lambda x: saved.append(x) or x)(1.0)
    with pytest.raises(errors.UnexpectedTracerError) as e:
        saved[0] + 1
    assert str(e.value).splitlines()[0] == (  # JAX 0.10.2
        "Encountered an unexpected tracer. A function transformed by JAX had a side effect, "
        "allowing for a reference to an intermediate value with type float32[] wrapped in a "
        "DynamicJaxprTracer to escape the scope of the transformation."
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [  # JAX 0.10.2's `jax.typeof` messages (strings' types unquoted)
        ("a", "Argument 'a' of type <class 'str'> is not a valid JAX type"),
        (None, "Argument 'None' of type '<class 'NoneType'>' is not a valid JAX type"),
        ([1.0], "Argument '[1.0]' of type '<class 'list'>' is not a valid JAX type"),
    ],
)
def test_typeof_of_a_non_array(value, message):
    with pytest.raises(TypeError) as e:
        core.typeof(value)
    assert str(e.value) == message


@pytest.mark.parametrize("transform", [core.jit, core.vmap])
def test_a_python_int_output_too_large_for_int32(transform):
    with pytest.raises(OverflowError) as e:
        transform(lambda x: 2**40)(jnp.ones(2))
    # JAX 0.10.2's message
    assert str(e.value) == "Python int 1099511627776 too large to convert to int32"
