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


def test_docstring_examples():
    import doctest

    from core.lax import shape_helpers

    result = doctest.testmod(shape_helpers, extraglobs={"lax": lax})
    assert result.attempted == 3 and result.failed == 0
