"""`core.numpy.shapes`: jnp.repeat with traced repeats (a running count and `searchsorted`):
values as JAX gives them (recorded), padded or truncated to `total_repeat_length`; `shape`/
`ndim`/`size` of non-arrays with JAX's deprecation warnings."""

import warnings

import numpy as np
import pytest

import core
import core.numpy as jnp


@pytest.mark.parametrize("length, want", [(7, [0, 2, 2, 2, 2, 2, 2]), (3, [0, 2, 2])])
def test_repeat_traced_repeats(length, want):
    fn = core.jit(
        lambda r: jnp.repeat(jnp.arange(3), r, total_repeat_length=length), backend="python"
    )
    np.testing.assert_array_equal(fn(jnp.array([1, 0, 3])), want)


def test_repeat_traced_repeats_needs_a_length():
    with pytest.raises(core.errors.ConcretizationTypeError, match="total_repeat_length"):
        core.jit(lambda r: jnp.repeat(jnp.arange(3), r), backend="python")(jnp.array([1, 0, 3]))


def test_shape_arguments_as_jax_canonicalizes_them():
    # a 0-d integer array is one size (JAX's canonicalize_shape); a traced one is JAX's
    # TypeError, its shape shown as JAX wraps it: a list for reshape, a tuple for zeros
    x = jnp.ones((2, 3))
    assert x.reshape(jnp.array(6)).shape == (6,) and jnp.zeros(np.int64(3)).shape == (3,)
    assert jnp.zeros(jnp.array(3)).shape == (3,)
    text = "Shapes must be 1D sequences of concrete values of integer type, got {}."
    cases = [
        (lambda x: x.reshape(jnp.array(x.shape).prod()), "[JitTracer(int32[])]"),
        (lambda x: jnp.zeros(x.shape[0] * jnp.sum(x).astype(int)), "(JitTracer(int32[]),)"),
    ]
    for f, shown in cases:
        with pytest.raises(TypeError) as info:
            core.jit(f)(x)
        assert str(info.value).splitlines()[0] == text.format(shown)


def test_shape_ndim_size_of_non_arrays_warn_as_jax():
    # JAX 0.10.2: numpy's answer, with a DeprecationWarning for what is neither an array nor
    # a numpy scalar (none for a string); size warns as itself and as shape
    message = (
        "{} requires ndarray or scalar arguments, got {} at position 0. In a future JAX "
        "release this will be an error."
    )
    for fn, arg, want in [
        (jnp.ndim, [1, 2], 1),
        (jnp.shape, None, ()),
        (jnp.shape, object(), ()),
        (jnp.ndim, (1,), 1),
    ]:
        with pytest.warns(DeprecationWarning) as record:
            assert fn(arg) == want
        assert str(record[0].message) == message.format(fn.__name__, type(arg))
    with pytest.warns(DeprecationWarning) as record:
        assert jnp.size([[1, 2, 3]]) == 3
    assert [str(w.message).split(" ")[0] for w in record] == ["size", "shape"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (jnp.shape("abc"), jnp.ndim(2.0), jnp.size(jnp.ones((2, 3)), 1)) == ((), 0, 3)


@pytest.mark.parametrize(
    "shift, axis", [((1, 2), (0, -1)), ((1, 2), 1), (3, (0, 1)), ((2,), (1,)), (-1, 0)]
)
def test_roll_traced_shift_broadcasts_against_axes(shift, axis):
    # a traced shift (under jit) broadcasts against the axes as a concrete one does (numpy's
    # answers)
    m = np.arange(12).reshape(3, 4)
    rolled = core.jit(lambda a, s: jnp.roll(a, s, axis=axis))(m, jnp.array(shift))
    np.testing.assert_array_equal(rolled, np.roll(m, shift, axis=axis))


def test_roll_traced_shift_of_rank_2_is_an_error():
    with pytest.raises(ValueError, match="'shift' and 'axis' arguments to roll must be scalars"):
        core.jit(lambda a, s: jnp.roll(a, s, axis=(0, 1)))(jnp.zeros((3, 4)), jnp.array([[1, 2]]))


@pytest.mark.parametrize("axis", [(0, 0), (1, -2), (2, -1)])
def test_size_along_a_repeated_axis_is_an_error(axis):
    with pytest.raises(ValueError, match="repeated axis"):
        jnp.size(jnp.zeros((2, 3, 4)), axis)


@pytest.mark.parametrize(  # JAX's: an integer is a 1-D shape, arrays and lists are shapes
    "shapes, want",
    [
        ([(1,), 3], (3,)),
        ([3, (2, 1)], (2, 3)),
        ([[1], [0, 1]], (0, 1)),
        ([(1,), np.array([0, 1])], (0, 1)),
    ],
)
def test_broadcast_shapes_of_ints_and_arrays(shapes, want):
    assert jnp.broadcast_shapes(*shapes) == want


def test_expand_dims_at_a_0d_array_axis():
    assert jnp.expand_dims(jnp.zeros(3), np.array(-1)).shape == (3, 1)


@pytest.mark.parametrize("idx", [lambda i: i, lambda i: [2, i]])
def test_split_at_traced_points_is_a_concretization_error(idx):
    with pytest.raises(core.errors.ConcretizationTypeError) as info:
        core.jit(lambda i: jnp.split(jnp.zeros((12, 2)), idx(i)))(2.0)
    assert str(info.value).splitlines()[1] == "in jax.numpy.split argument 1"


def test_split_reads_concrete_tracers_and_float_counts():
    # under jvp the points are known (JAX's); a 0-d count (a float too) is a section count
    parts = core.jvp(lambda i: jnp.split(jnp.zeros((12, 2)), i), (2.0,), (1.0,))[0]
    assert [p.shape for p in parts] == [(6, 2), (6, 2)]
    parts = core.jvp(lambda i: jnp.split(jnp.zeros(12), (1, i.astype(jnp.int32))), (2.0,), (1.0,))[
        0
    ]
    assert [p.shape for p in parts] == [(1,), (1,), (10,)]
    assert len(jnp.split(jnp.zeros(4), 2.0)) == 2 and len(jnp.split(jnp.zeros(4), np.array(2))) == 2
