"""lax.sort, top_k and the cumulative reductions check their arguments as JAX 0.10.2 (messages
recorded from JAX): lax's canonical axes (none for a rank-0 operand), sort's operand and
num_keys checks, top_k's k bound, and the cumulative reductions' non-negative axis and
number dtypes."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax


@pytest.mark.parametrize(
    "call, error, message",
    [
        (
            lambda: lax.sort(jnp.ones((2, 2)), dimension=2),
            ValueError,
            "axis 2 is out of bounds for array of dimension 2",
        ),
        (
            lambda: lax.sort(jnp.ones((2, 2)), dimension=-3),
            ValueError,
            "axis -3 is out of bounds for array of dimension 2",
        ),
        (lambda: lax.sort([]), TypeError, "Sort requires at least one operand"),
        (
            lambda: lax.sort((jnp.ones(2), jnp.ones(2)), num_keys=3),
            ValueError,
            "num_keys=3 must be between 1 and len(operand)=2",
        ),
        (
            lambda: lax.sort((jnp.ones(2), jnp.ones(2)), num_keys=0),
            ValueError,
            "num_keys=0 must be between 1 and len(operand)=2",
        ),
        (
            lambda: lax.sort(jnp.ones(2), num_keys=2),
            ValueError,
            "num_keys=2 must equal 1 for a single operand.",
        ),
        (
            lambda: lax.top_k(jnp.float32(3.0), 1),
            ValueError,
            "axis -1 is out of bounds for array of dimension 0",
        ),
        (
            lambda: lax.top_k(jnp.ones((2, 2)), 3, axis=0),
            ValueError,
            "k argument to top_k must be no larger than size along axis; got k=3 with "
            "shape=[2, 2] and axis=0",
        ),
        (
            lambda: lax.cumsum(jnp.arange(6), axis=-1),
            ValueError,
            "XLA operations do not allow negative axes",
        ),
        (
            lambda: lax.cumsum(jnp.arange(6), axis=2),
            ValueError,
            "axis 2 is out of bounds for array of shape (6,)",
        ),
        (
            lambda: lax.cummax(jnp.array([True, False])),
            TypeError,
            "cummax does not accept dtype bool. Accepted dtypes are subtypes of number.",
        ),
    ],
)
def test_sorting_argument_errors(call, error, message):
    with pytest.raises(error) as e:
        call()
    assert str(e.value).split("\n")[0] == message


def test_jnp_cumsum_still_takes_negative_axes_and_bools():
    # jnp canonicalizes the axis and sums booleans as ints before lax sees them
    assert jnp.cumsum(jnp.array([[True, True]]), axis=-1).tolist() == [[1, 2]]


_NAN, _INF = float("nan"), float("inf")
COMPLEX_TO_SORT = [
    complex(_NAN, -_INF), complex(_INF, 1.5), complex(-0.0, 0), complex(-_INF, -2.5),
    complex(1.5, 2), complex(0, _NAN), complex(-2.5, _INF), complex(3, -0.0),
]  # fmt: skip
# JAX 0.10.2 printed (complex64 and complex128, eagerly and jitted): by the real part, then
# the imaginary part, each NaN last (0 + nan j right after the other real zeros)
COMPLEX_SORTED = [3, 6, 2, 5, 4, 7, 1, 0]


@pytest.mark.parametrize("jitted", [False, True])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_sort_orders_real_then_imaginary_parts(dtype, jitted):
    import core  # noqa: PLC0415

    with core.enable_x64():
        x = jnp.array(COMPLEX_TO_SORT, dtype)
        got = (core.jit(jnp.sort) if jitted else jnp.sort)(x)
        perm = jnp.argsort(x)
    want = np.array(COMPLEX_TO_SORT, dtype)[COMPLEX_SORTED]
    assert perm.tolist() == COMPLEX_SORTED
    got = np.asarray(got)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.view(got.real.dtype), want.view(want.real.dtype))


@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 2)])
def test_complex_and_multi_key_sorts_of_empty_arrays(shape):
    # as JAX 0.10.2: empty results of the input's shape (the eager multi-key path had no rows)
    from core import lax  # noqa: PLC0415

    z = jnp.zeros(shape, jnp.complex64)
    assert jnp.sort_complex(z).shape == shape and jnp.sort(z, axis=0).shape == shape
    keys = (jnp.zeros(shape), jnp.zeros(shape, jnp.int32))
    assert [k.shape for k in lax.sort(keys, dimension=0, num_keys=2)] == [shape, shape]


@pytest.mark.parametrize(
    "shape, k, kwargs, expected",
    [
        ((2, 2000), 3, {}, (2, 256)),
        ((2000,), 3, {}, (2000,)),
        ((2, 2000), 1, {}, (2, 128)),
        ((2, 2000), 3, {"reduction_input_size_override": 8000}, (2, 128)),
        ((2000, 2), 3, {"reduction_dimension": 0}, (256, 2)),
        ((5000,), 10, {"recall_target": 0.9}, (2048,)),
        ((100000,), 5, {}, (2048,)),
        ((8,), 3, {}, (8,)),
        ((2, 4096), 100, {"recall_target": 0.99}, (2, 4096)),
    ],
)
def test_approx_top_k_without_aggregation_returns_xlas_reduced_size(shape, k, kwargs, expected):
    # JAX 0.10.2 on CPU: lax.approx_max_k(x, k, aggregate_to_topk=False, **kwargs)[0].shape,
    # the exact top of that many entries, largest first (numbax returned k entries)
    x = jnp.asarray(np.random.default_rng(0).standard_normal(shape, np.float32))
    axis = kwargs.get("reduction_dimension", -1)
    values, indices = lax.approx_max_k(x, k, aggregate_to_topk=False, **kwargs)
    assert values.shape == indices.shape == expected and indices.dtype == np.int32
    want = -np.sort(-np.asarray(x), axis=axis).take(range(expected[axis]), axis=axis)
    np.testing.assert_array_equal(np.asarray(values), want)
    low, _ = lax.approx_min_k(x, k, aggregate_to_topk=False, **kwargs)
    assert low.shape == expected


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            {"reduction_input_size_override": 100},
            "INVALID_ARGUMENT: reduction_input_size_override: 100 should be greater equals to "
            "operands[reduction_dim]: 2000",
        ),
        ({"recall_target": 1.5}, "INVALID_ARGUMENT: recall_target should range in (0,1]"),
    ],
)
def test_approx_top_k_reduced_size_errors(kwargs, message):
    # JAX 0.10.2: JaxRuntimeError with XLA's message
    with pytest.raises(RuntimeError) as info:
        lax.approx_max_k(jnp.ones((2, 2000)), 3, aggregate_to_topk=False, **kwargs)
    assert type(info.value).__name__ == "JaxRuntimeError"
    assert str(info.value) == message


def test_top_k_refuses_axes_its_int32_indices_cannot_count():
    # JAX 0.10.2's ValueError (abstract evaluation only: nothing is allocated)
    x = core.ShapeDtypeStruct((2**31 + 1,), jnp.bfloat16)
    with pytest.raises(ValueError, match="top_k returns int32 indices, which will overflow"):
        core.eval_shape(lambda v: lax.top_k(v, 100), x)
