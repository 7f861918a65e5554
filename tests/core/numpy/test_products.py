"""The products' types and errors as JAX's (values and messages recorded on JAX 0.10.2 through
`python -m tools.jax_differential --area products`): the result's weak type, a gradient's weak type
through a product (JAX passes operands of the common dtype as they are and converts only the
result), einsum's sums in the operands' dtype (int8 wraps, bools are or'ed), and the first
lines of the shape errors."""

import numpy as np
import pytest

import core
import core.numpy as jnp

WEAK = jnp.cos(jnp.arange(6) * 0.37).reshape(2, 3)  # weakly typed float32
ONES = jnp.ones((3, 2))


@pytest.mark.parametrize(
    "product",
    [
        lambda x: jnp.dot(x, ONES),
        lambda x: jnp.matmul(x, ONES),
        lambda x: x @ ONES,
        lambda x: jnp.einsum("ij,jk->ik", x, ONES),
        lambda x: jnp.tensordot(x, ONES, axes=([1], [0])),
        lambda x: jnp.inner(x, ONES.T),
        lambda x: jnp.vdot(x[0], ONES[:, 0]),
        lambda x: jnp.dot(x, jnp.arange(3)),
        lambda x: jnp.matmul(x, jnp.ones(3), preferred_element_type=jnp.float32),
    ],
)
def test_gradients_through_products_are_strong_as_in_jax(product):
    assert WEAK.weak_type
    g = core.grad(lambda x: product(x).sum())(WEAK)
    assert g.dtype == np.float32 and not g.weak_type


def test_results_weak_only_when_both_operands_are():
    assert jnp.dot(WEAK, WEAK.T).weak_type
    assert not jnp.dot(WEAK, ONES).weak_type
    assert jnp.dot(WEAK, jnp.arange(3)).weak_type  # a weak float and an int32: weak float32
    assert str(core.make_jaxpr(lambda x: jnp.dot(x, ONES))(WEAK)).count("convert") == 0


def test_einsum_sums_in_the_operands_dtype():
    i8 = jnp.full((2, 3), 100, jnp.int8)
    assert jnp.einsum("ij->", i8).dtype == np.int8 and int(jnp.einsum("ij->", i8)) == 88
    assert int(jnp.einsum("ij->", i8, preferred_element_type=jnp.int32)) == 600
    flags = (jnp.arange(6) % 2 == 0).reshape(2, 3)
    np.testing.assert_array_equal(jnp.einsum("ij->j", flags), [True, True, True])
    np.testing.assert_array_equal(jnp.einsum("ii->i", flags.reshape(3, 2)[:2]), [True, False])


@pytest.mark.parametrize(
    "call, error, first_line",
    [
        (lambda: jnp.matmul(jnp.ones(3), 2.0), ValueError,
         "matmul input operand 1 must have ndim at least 1, but it has ndim 0"),
        (lambda: jnp.tensordot(jnp.ones((2, 3)), jnp.ones((3, 2)), axes=3), TypeError,
         "Number of tensordot axes (axes 3) exceeds input ranks ((2, 3) and (3, 2))"),
        (lambda: jnp.tensordot(jnp.ones((2, 3)), jnp.ones((3, 2)), axes=([0, 1], [1])),
         TypeError, "tensordot requires axes lists to have equal length, got [0, 1] and [1]."),
        (lambda: jnp.einsum("ij,jk->il", jnp.ones((2, 3)), jnp.ones((3, 2))), ValueError,
         "Output character 'l' did not appear in the input"),
        (lambda: jnp.einsum("ij,jk", jnp.ones((2, 3))), ValueError,
         "Number of einsum subscripts, 2, must be equal to the number of operands, 1."),
        (lambda: jnp.einsum("ijk", jnp.ones((2, 3))), ValueError,
         "Einstein sum subscript 'ijk' does not contain the correct number of indices for "
         "operand 0."),
        (lambda: jnp.vecdot(jnp.ones((2, 3)), jnp.ones((2, 4))), ValueError,
         "axes must match; got shapes (2, 3) and (2, 4) with axis=-1"),
        (lambda: jnp.cross(jnp.ones(4), jnp.ones(3)), ValueError,
         "Dimension must be either 2 or 3 for cross product"),
    ],
)  # fmt: skip
def test_errors_start_with_jaxs_first_line(call, error, first_line):
    with pytest.raises(error) as e:
        call()
    assert str(e.value).split("\n")[0] == first_line


# jnp.dot with a scalar operand, JAX 0.10.2's answers: the result's dtype and weak type, or the
# first line of its TypeError (a Python int beside a narrower integer array: dot_general takes
# the weak int32 as it is, and the promoted dtype may not narrow XLA's int32 product)
_NARROW = "`preferred_element_type` must not be narrower than the original type, got "
_A = {dt: np.arange(6, dtype=dt).reshape(2, 3) for dt in ("int8", "uint8", "int16", "float16")}


@pytest.mark.parametrize(
    "a, b, want",
    [
        (_A["int8"], 2, _NARROW + "preferred_element_type of int8 for result type of int32."),
        (2, _A["int8"], _NARROW + "preferred_element_type of int8 for result type of int32."),
        (_A["uint8"], 2, _NARROW + "preferred_element_type of uint8 for result type of int32."),
        (_A["int16"], 2, _NARROW + "preferred_element_type of int16 for result type of int32."),
        (np.int8(3), 2, _NARROW + "preferred_element_type of int8 for result type of int32."),
        (_A["int8"], np.int8(2), ("int8", False)),
        (_A["int8"], True, ("int8", False)),
        (_A["int16"], 2.0, ("float32", True)),
        (_A["float16"], 2, ("float16", False)),
        (np.array([True]), 2, ("int32", True)),
    ],
)  # fmt: skip
def test_dot_of_a_scalar_as_jax(a, b, want):
    if isinstance(want, str):
        with pytest.raises(TypeError) as e:
            jnp.dot(a, b)
        assert str(e.value).split("\n")[0] == want
        return
    out = jnp.dot(a, b)
    assert (str(out.dtype), out.weak_type) == want
    assert jnp.inner(np.arange(3, dtype=np.int8), 2).dtype == np.int8  # JAX's inner multiplies


@pytest.mark.parametrize("optimize", [False, True, "optimal", "greedy", "auto"])
@pytest.mark.parametrize("sig, shape", [("ii->i", (4, 4)), ("i->", (3,))])
def test_einsum_path_of_one_operand(optimize, sig, shape):
    # opt_einsum's path for one operand is [(0,)] whatever the mode (numpy's fails for False)
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    path, _ = jnp.einsum_path(sig, x, optimize=optimize)
    assert path == [(0,)]
    np.testing.assert_array_equal(jnp.einsum(sig, x, optimize=path), np.einsum(sig, x))


def test_einsum_path_step_of_three_operands_is_jaxs_error():
    arrs = [np.ones((2, 3)), np.ones((2, 4)), np.ones((2, 5))]
    with pytest.raises(NotImplementedError) as info:
        jnp.einsum("ij,ik,il->jkl", *arrs, optimize=[(0, 1, 2)])
    assert str(info.value) == (
        "jax.numpy.einsum does not support simultaneous contraction of 3 or more operands. "
        "Typically this means you've passed an unsupported path to the einsum optimize parameter."
    )
    assert jnp.einsum("ij,ik,il->jkl", *arrs, optimize=[(0, 1), (0, 1)]).shape == (3, 4, 5)
