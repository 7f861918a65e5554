"""Errors and values of miscellaneous jax.numpy functions that the `jnp_misc` area of
tools/jax_differential found apart from JAX 0.10.2: each error's class and first line are
JAX's (recorded from JAX; numbax's fix follows on later lines), the values are numpy's, or
JAX's where JAX's steps give other values (JAX_VALUES, recorded from JAX 0.10.2)."""

import numpy as np
import pytest

import core
import core.numpy as jnp

nan = np.nan

X34 = np.arange(12.0, dtype=np.float32).reshape(3, 4)
G = np.array([1.0, 2.0, 4.0, 7.0, 11.0, 16.0], np.float32)
P = np.array([1.0, -3.0, 2.0], np.float32)

# (id, call, JAX's exception class, JAX's first line)
ERRORS = [
    # session 38's probes (JAX 0.10.2)
    ("swapaxes_axis", lambda: jnp.swapaxes(X34, 0, 5), IndexError,
     "index 5 is out of bounds for axis 0 with size 2"),
    ("trace_1d", lambda: jnp.trace(np.ones(3)), ValueError,
     "axis 1 is out of bounds for array of dimension 1"),
    ("interp_2d", lambda: jnp.interp(1.0, X34, X34), ValueError,
     "xp and fp must be one-dimensional arrays of equal size"),
    ("put_along_axis_inplace", lambda: jnp.put_along_axis(X34, np.zeros((3, 1), int), 0.0, 1),
     ValueError, "jax.numpy.put_along_axis cannot modify arrays in-place, because JAX "
     "arraysare immutable. Pass inplace=False to instead return an updated array."),
    ("put_inplace", lambda: jnp.put(X34, np.array([0]), 1.0), ValueError,
     "jax.numpy.put cannot modify arrays in-place, because JAX arrays are immutable. Pass "
     "inplace=False to instead return an updated array."),
    ("indices_negative", lambda: jnp.indices((-1,)), TypeError,
     "iota shape must have every element be nonnegative, got (-1,)."),
    ("gradient_short", lambda: jnp.gradient(np.array([1.0])), ValueError,
     "Shape of array too small to calculate a numerical gradient, at least 2 elements are "
     "required."),
    ("gradient_spacing", lambda: jnp.gradient(G, np.array([0.0, 1.0])), ValueError,
     "Spacing arrays must have the same length as the dimension along which the gradient is "
     "calculated."),
    ("polyint_k", lambda: jnp.polyint(P, 2, k=np.array([1.0, 2.0, 3.0])), ValueError,
     "k must be a scalar or a rank-1 array of length 1 or m."),
    ("roots_2d", lambda: jnp.roots(X34), ValueError, "Input must be a rank-1 array."),
    ("poly_2d", lambda: jnp.poly(X34), ValueError,
     "input must be 1d or non-empty square 2d array."),
    ("take_out", lambda: jnp.take(X34, np.array([0]), out=X34), NotImplementedError,
     "The 'out' argument to jnp.take is not supported."),
    ("round_out", lambda: jnp.round(np.arange(3.0), out=np.zeros(3)), NotImplementedError,
     "The 'out' argument to jnp.round is not supported."),
    ("meshgrid_copy", lambda: jnp.meshgrid(np.arange(3), np.arange(2), copy=False), ValueError,
     "jax.numpy.meshgrid only supports copy=True"),
    ("meshgrid_2d", lambda: jnp.meshgrid(X34, np.arange(2)), ValueError,
     "Arguments to jax.numpy.meshgrid must be 1D, got shapes [(3, 4), (2,)]"),
    ("tril_indices_from_1d", lambda: jnp.tril_indices_from(np.arange(3)), ValueError,
     "Only 2-D inputs are accepted"),
    ("triu_indices_from_3d", lambda: jnp.triu_indices_from(np.ones((2, 2, 2))), ValueError,
     "Only 2-D inputs are accepted"),
    ("digitize_method", lambda: jnp.digitize(G, P[::-1], method="bad"), ValueError,
     "invalid argument method='bad', expected one of ['compare_all', 'scan', 'scan_unrolled', "
     "'sort']"),
    ("lexsort_shapes", lambda: jnp.lexsort((np.arange(3), np.arange(4))), ValueError,
     "all keys need to be the same shape"),
    ("tri_negative", lambda: jnp.tri(-1), TypeError,
     "iota shape must have every element be nonnegative, got (-1, -1)."),
    ("rot90_one_axis", lambda: jnp.rot90(X34, axes=(0,)), ValueError,
     "not enough values to unpack (expected 2, got 1)"),
    ("partition_kth_tuple", lambda: jnp.partition(np.arange(5), (1, 2)), TypeError,
     "'tuple' object cannot be interpreted as an integer"),
    ("partition_axis_none", lambda: jnp.partition(np.arange(5.0), 1, axis=None), TypeError,
     "'NoneType' object cannot be interpreted as an integer"),
    ("pad_width_shape", lambda: jnp.pad(jnp.array(5.0), ()), ValueError,
     "jnp.pad: pad_width with nd=0 has unsupported shape (0,). Valid shapes are (0, 2), (1, 2), "
     "(2,), (1,), or ()."),
    ("pad_width_bool", lambda: jnp.pad(X34, True), TypeError,
     "`pad_width` must be of integral type."),
    ("pad_width_negative", lambda: jnp.pad(X34, -1), ValueError,
     "index can't contain negative values"),
    ("pad_constant_values_1d", lambda: jnp.pad(np.arange(3.0), 1, constant_values=np.ones(3)),
     ValueError, "jnp.pad: constant_values has unsupported shape (3,). If the shape is 1D or 2D, "
     "the last dimension must be of size 1 or 2."),
    ("pad_constant_values_3d",
     lambda: jnp.pad(np.arange(3.0), 1, constant_values=np.ones((1, 1, 1))), ValueError,
     "Cannot broadcast to shape with fewer dimensions: arr_shape=(1, 1, 1) shape=(1, 2)"),
    ("select_conditions", lambda: jnp.select([np.arange(5) < 2, np.arange(3) < 2],
                                             [np.arange(5), np.arange(3)]), ValueError,
     "Incompatible shapes for broadcasting: shapes=[(), (5,), (3,)]"),
    ("select_choices", lambda: jnp.select([np.arange(5) < 2], [np.arange(3)]), ValueError,
     "Incompatible shapes for broadcasting: shapes=[(5,), (), (3,)]"),
    ("isclose_shapes", lambda: jnp.isclose(np.arange(3.0), np.arange(2.0)), TypeError,
     "and got incompatible shapes for broadcasting: (3,), (2,)."),
    ("allclose_shapes", lambda: jnp.allclose(np.arange(3.0), np.arange(2.0)), TypeError,
     "and got incompatible shapes for broadcasting: (3,), (2,)."),
    ("unwrap_0d", lambda: jnp.unwrap(jnp.array(1.0)), IndexError, "tuple index out of range"),
    ("unwrap_axis", lambda: jnp.unwrap(X34, axis=2), IndexError, "tuple index out of range"),
    ("diag_0d", lambda: jnp.diag(3.0), ValueError, "diag input must be 1d or 2d"),
    ("trapezoid_empty", lambda: jnp.trapezoid(np.zeros(0)), IndexError,
     "index is out of bounds for axis 0 with size 0"),
    ("bitwise_count_float", lambda: jnp.bitwise_count(np.array([1.0])), TypeError,
     "population_count does not accept dtype float32. Accepted dtypes are subtypes of integer."),
    ("flipud_0d", lambda: jnp.flipud(jnp.array(1.0)), ValueError,
     "axis 0 is out of bounds for array of dimension 0"),
    ("ravel_multi_index_len", lambda: jnp.ravel_multi_index((np.array([0]),), (3, 4)),
     AssertionError, "len(multi_index)=1 != len(dims)=2"),
    ("array_big_int", lambda: jnp.array([2**100]), OverflowError,
     "Python int too large to convert to C long"),
    ("hanning_negative_float", lambda: jnp.hanning(-1.5), TypeError,
     "broadcast_in_dim shape must have every element be nonnegative, got (-1,)."),
]  # fmt: skip


@pytest.mark.parametrize("call, cls, first", [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_error_first_line_is_jax(call, cls, first):
    with pytest.raises(cls) as info:
        call()
    assert str(info.value).splitlines()[0] == first


# (id, call, numpy's value, dtype)
VALUES = [
    ("around_float16_max", lambda: jnp.around(np.array([65504, -2.5, 0.25], np.float16), 1),
     np.array([65504, -2.5, 0.2], np.float16), "float16"),
    ("round_bfloat16", lambda: jnp.round(jnp.array([3e38, 1.25], jnp.bfloat16), 1),
     np.array([np.inf, 1.2], np.float32), "bfloat16"),  # JAX: 3e38 * 10 overflows float32
    ("meshgrid_xy", lambda: jnp.meshgrid(np.arange(3), np.arange(2.0))[1],
     np.meshgrid(np.arange(3), np.arange(2.0))[1], "float32"),
    ("tril_indices_from", lambda: jnp.tril_indices_from(X34, 1)[1],
     np.tril_indices_from(X34, 1)[1], "int32"),
    ("lexsort", lambda: jnp.lexsort((np.array([1, 2, 1, 2]), np.array([3, 3, 1, 1]))),
     np.lexsort((np.array([1, 2, 1, 2]), np.array([3, 3, 1, 1]))), "int32"),
    ("digitize_scan", lambda: jnp.digitize(G, np.array([2.0, 7.0]), method="scan"),
     np.digitize(G, np.array([2.0, 7.0])), "int32"),
    ("geomspace_complex", lambda: jnp.geomspace(1j, 1000j, 4).imag,
     np.geomspace(1j, 1000j, 4).imag, "float32"),
    ("geomspace_complex_dtype", lambda: jnp.geomspace(1j, 1000j, 4).real,
     np.zeros(4), "float32"),
    ("tri", lambda: jnp.tri(2, 3, 1), np.tri(2, 3, 1), "float32"),
]  # fmt: skip


@pytest.mark.parametrize("call, want, dtype", [c[1:] for c in VALUES], ids=[c[0] for c in VALUES])
def test_values_match_numpy(call, want, dtype):
    got = call()
    assert str(got.dtype) == dtype
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64), rtol=1e-2)


# (id, call, JAX's value, dtype, weak type), recorded from JAX 0.10.2: window lengths taken
# as int(M), geomspace/logspace by JAX's formulas (nans for a zero or sign-changing start),
# unravel_index's divmod steps for nonpositive dimensions, weak types.
JAX_VALUES = [
    ("hanning_float_length", lambda: jnp.hanning(2.5),
     [0.0, 0.0], "float32", False),
    ("blackman_float_length", lambda: jnp.blackman(3.0),
     [-1.4901161193847656e-08, 0.9999999403953552, -1.4901161193847656e-08], "float32", False),
    ("hamming_array_length", lambda: jnp.hamming(jnp.array(3.0)),
     [0.08000001311302185, 1.0, 0.08000001311302185], "float32", False),
    ("kaiser_float_length", lambda: jnp.kaiser(2.5, 1.0),
     [0.7898483872413635, 0.7898483872413635], "float32", False),
    ("geomspace_zero_start", lambda: jnp.geomspace(0, 10, 3),
     [nan, nan, nan], "float32", False),
    ("geomspace_signs", lambda: jnp.geomspace(-1, 10, 3),
     [nan, nan, nan], "float32", False),
    ("geomspace_zero_stop", lambda: jnp.geomspace(1, 0, 3),
     [nan, 0.0, 0.0], "float32", False),
    ("geomspace_int", lambda: jnp.geomspace(2, 32, 5, dtype=int),
     [2, 4, 8, 15, 31], "int32", False),
    ("geomspace_float16", lambda: jnp.geomspace(jnp.float16(1), 100, 3),
     [1.0, 10.0, 100.0], "float16", False),
    ("geomspace_axis",
     lambda: jnp.geomspace(jnp.array([1.0, 2.0]), jnp.array([100.0, 3.0]), 3, axis=-1),
     [[1.0, 10.0, 100.0], [2.0, 2.4494898319244385, 3.0]], "float32", False),
    ("logspace_complex", lambda: jnp.logspace(0j, 2, 3),
     [(1+0j), (10+0j), (100+0j)], "complex64", False),
    ("logspace_float16", lambda: jnp.logspace(jnp.float16(0), 2, 3),
     [1.0, 10.0, 100.0], "float16", False),
    ("unravel_negative_dim",
     lambda: jnp.stack(jnp.unravel_index(jnp.array([1, 5, -2, 13]), (-3, 4))),
     [[0, -2, -1, 0], [1, 1, 2, 1]], "int32", False),
    ("unravel_zero_dim", lambda: jnp.stack(jnp.unravel_index(jnp.array([1, 5]), (0, 4))),
     [[0, 0], [1, 0]], "int32", False),
    ("unravel_int8",
     lambda: jnp.stack(jnp.unravel_index(jnp.arange(-3, 8, dtype=jnp.int8), (2, 3))),
     [[1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1], [0, 1, 2, 0, 1, 2, 0, 1, 2, 2, 2]], "int8", False),
    ("array_big_int_float", lambda: jnp.array([0.0, 2 ** 100]),
     [0.0, 1.2676506002282294e+30], "float32", False),
    ("array_equiv_ranks", lambda: jnp.array_equiv(jnp.ones((2, 3)), jnp.ones(4)),
     False, "bool", False),
    ("diagflat_scalar", lambda: jnp.diagflat(3),
     [[3]], "int32", False),
    ("pad_0d_float_width", lambda: jnp.pad(jnp.array(5.0), 1.5),
     5.0, "float32", True),
    ("isclose_broadcast", lambda: jnp.isclose(jnp.ones((3, 1)), jnp.ones(2)),
     [[True, True], [True, True], [True, True]], "bool", False),
]  # fmt: skip


@pytest.mark.parametrize(
    "call, want, dtype, weak", [c[1:] for c in JAX_VALUES], ids=[c[0] for c in JAX_VALUES]
)
def test_values_match_jax(call, want, dtype, weak):
    got = call()
    assert (str(got.dtype), got.weak_type) == (dtype, weak)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want, got.dtype), rtol=1e-6)


def test_pad_reflect_type_is_jaxs_assertion():
    with pytest.raises(AssertionError, match="reflect_type must be 'even' or 'odd'"):
        jnp.pad(X34, 0, mode="reflect", reflect_type="bad")


def test_round_array_decimals_is_an_unhashable_static_argument():
    with pytest.raises(ValueError) as info:  # JAX names its array class where numbax names its
        jnp.round(np.arange(3.0), decimals=jnp.array(1))
    assert str(info.value).startswith(
        "Non-hashable static arguments are not supported. An error occurred while trying to "
        "hash an object of type"
    )


def test_traced_slice_bounds_and_axes_raise_jaxs_errors():
    with pytest.raises(IndexError) as e:
        core.jit(lambda x, n: x[:n])(jnp.arange(6), 2)
    assert str(e.value).splitlines()[0] == (  # JAX 0.10.2
        "Slice entries must be static integers. Got slice(None, JitTracer(~int32[]), None) at "
        "position 0"
    )
    for fun in (lambda x, n: jnp.sum(x, axis=n), lambda x, n: jnp.repeat(x, n)):
        with pytest.raises(TypeError) as e:
            core.jit(fun)(jnp.ones((3, 4)), 1)
        assert str(e.value).splitlines()[0] == (
            "Abstract tracer value encountered where concrete value is expected: traced array "
            "with shape int32[]"
        )


def test_linspace_of_a_traced_count_is_a_concretization_error():
    with pytest.raises(core.errors.ConcretizationTypeError) as e:
        core.jit(lambda n: jnp.linspace(0, 1, n))(3)
    assert str(e.value).splitlines()[:2] == [  # JAX 0.10.2
        "Abstract tracer value encountered where concrete value is expected: traced array "
        "with shape int32[]",
        "'num' argument of jnp.linspace",
    ]


@pytest.mark.parametrize(
    ("shape", "shown"),  # JAX 0.10.2 shows the shape as it was given
    [(5, "5"), ([5], "[5]"), ((5,), "(5,)")],
)
def test_reshape_error_shows_the_shape_as_given(shape, shown):
    with pytest.raises(TypeError) as e:
        jnp.ones(4).reshape(shape)
    assert str(e.value).splitlines()[0] == (
        f"cannot reshape array of shape (4,) (size 4) into shape {shown} (size 5)"
    )
