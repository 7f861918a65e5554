"""The `lax` shape helpers (`conv_general_shape_tuple`, `conv_transpose_shape_tuple`,
`reduce_window_shape_tuple`, `padtype_to_pads`, `conv_shape_tuple`) against JAX's results, and
against the shapes the primitives actually produce."""

import numpy as np
import pytest

import core.numpy as jnp
from core import lax
from tests.core.example_libraries.answers import ANSWERS
from tests.core.example_libraries.cases import SHAPE_CASES, run_shape_case


@pytest.mark.parametrize("index", range(len(SHAPE_CASES)))
def test_matches_jax(index):
    name, args = SHAPE_CASES[index]
    assert run_shape_case(lax, name, args) == ANSWERS["shapes"][index]


_OPS = ("conv_general_shape_tuple", "conv_transpose_shape_tuple", "reduce_window_shape_tuple")


@pytest.mark.parametrize("index", [i for i, (n, _) in enumerate(SHAPE_CASES) if n in _OPS])
def test_matches_the_primitive(index):
    name, args = SHAPE_CASES[index]
    if name == "conv_general_shape_tuple":
        lhs, rhs, strides, padding, dn = args
        out = lax.conv_general_dilated(
            jnp.ones(lhs), jnp.ones(rhs), strides, padding, dimension_numbers=dn
        )
    elif name == "conv_transpose_shape_tuple":
        lhs, rhs, strides, padding, dn = args
        out = lax.conv_transpose(
            jnp.ones(lhs), jnp.ones(rhs), strides, padding, dimension_numbers=dn
        )
    else:
        shape, window, strides, padding, *dilations = args
        out = lax.reduce_window(jnp.ones(shape), 0.0, lax.add, window, strides, padding, *dilations)
    assert out.shape == tuple(ANSWERS["shapes"][index])


def test_wrong_number_of_pads_is_a_type_error():
    with pytest.raises(TypeError, match="Wrong number of explicit pads"):
        lax.conv_shape_tuple((1, 1, 4, 4), (1, 1, 2, 2), (1, 1), ((0, 0),))
    assert np.array_equal(
        lax.conv_shape_tuple((1, 1, 4, 4), (1, 1, 2, 2), (1, 1), "VALID"), (1, 1, 3, 3)
    )


def test_unknown_padding_string_raises_jaxs_runtime_error():
    # JAX 0.10.2: RuntimeError, this message (the string as given), from padtype_to_pads and
    # from a convolution, a pooling window or Flax's nn.Conv(padding="FOO")
    message = "Unrecognized padding type: expected 'VALID', 'SAME', or 'SAME_LOWER', got foo."
    x = jnp.ones((1, 1, 4))
    for call in (
        lambda: lax.padtype_to_pads((4,), (3,), (1,), "foo"),
        lambda: lax.conv_general_dilated(x, jnp.ones((1, 1, 3)), (1,), "foo"),
        lambda: lax.reduce_window(x, 0.0, lax.add, (1, 1, 2), (1, 1, 1), "foo"),
    ):
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == message and isinstance(info.value, ValueError)


def test_docstring_examples():
    import doctest

    from core.lax import shape_helpers

    result = doctest.testmod(shape_helpers, extraglobs={"lax": lax})
    assert result.attempted == 3 and result.failed == 0
