"""core.ops segment reductions: values recorded from jax.ops (0.10.2), out-of-range ids dropped or
clamped, empty-segment identities per dtype, buckets; grad (ties share the cotangent), vmap and
jit."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import ops

D1 = np.array([1.0, 2.0, 3.0, 4.0, 5.0], np.float32)
I1 = np.array([0, 0, 1, -1, 5])  # -1 and 5 are out of range for 3 segments
D2 = np.arange(8, dtype=np.float32).reshape(4, 2) - 3
I2 = np.array([1, 0, 1, 3])
DI = np.array([3, -7, 2, 9, 4], np.int32)
DB = np.array([True, False, True, False])
INF = float("inf")
IMIN, IMAX = -(2**31), 2**31 - 1

# (function, data, segment_ids, num_segments, kwargs, expected, dtype), values from jax.ops
CASES = [
    ("segment_sum", D1, I1, 3, {}, [3.0, 3.0, 0.0], "float32"),
    ("segment_sum", D1, I1, 3, {"mode": "clip"}, [7.0, 3.0, 5.0], "float32"),
    ("segment_prod", D1, I1, 3, {}, [2.0, 3.0, 1.0], "float32"),
    ("segment_prod", D1, I1, 3, {"mode": "clip"}, [8.0, 3.0, 5.0], "float32"),
    ("segment_max", D1, I1, 3, {}, [2.0, 3.0, -INF], "float32"),
    ("segment_max", D1, I1, 3, {"mode": "clip"}, [4.0, 3.0, 5.0], "float32"),
    ("segment_min", D1, I1, 3, {}, [1.0, 3.0, INF], "float32"),
    ("segment_min", D1, I1, 3, {"mode": "clip"}, [1.0, 3.0, 5.0], "float32"),
    ("segment_sum", D2, I2, 4, {}, [[-1, 0], [-2, 0], [0, 0], [3, 4]], "float32"),
    ("segment_prod", D2, I2, 4, {}, [[-1, 0], [-3, -4], [1, 1], [3, 4]], "float32"),
    ("segment_max", D2, I2, 4, {}, [[-1, 0], [1, 2], [-INF, -INF], [3, 4]], "float32"),
    ("segment_min", D2, I2, 4, {}, [[-1, 0], [-3, -2], [INF, INF], [3, 4]], "float32"),
    ("segment_sum", D2, I2, None, {}, [[-1, 0], [-2, 0], [0, 0], [3, 4]], "float32"),
    ("segment_max", DI, I1, 4, {}, [3, 2, IMIN, IMIN], "int32"),
    ("segment_min", DI, I1, 4, {}, [-7, 2, IMAX, IMAX], "int32"),
    ("segment_sum", DI, I1, 2, {}, [-4, 2], "int32"),
    ("segment_sum", D1, I1, 3, {"bucket_size": 2}, [3.0, 3.0, 0.0], "float32"),
    ("segment_prod", D1, [0, 1, 0, 1, 0], 2, {"bucket_size": 2}, [15.0, 8.0], "float32"),
    ("segment_max", DB, [0, 0, 1, 2], 3, {}, [True, True, False], "bool"),
    ("segment_min", DB, [0, 0, 1, 2], 3, {}, [False, True, False], "bool"),
    (
        "segment_sum",
        D2,
        [0, 0, 1, 1],
        2,
        {"indices_are_sorted": True, "unique_indices": False},
        [[-4, -2], [4, 6]],
        "float32",
    ),
]


@pytest.mark.parametrize("name,data,ids,n,kwargs,expected,dtype", CASES)
def test_values_match_jax(name, data, ids, n, kwargs, expected, dtype):
    out = getattr(ops, name)(jnp.asarray(data), jnp.asarray(np.asarray(ids)), n, **kwargs)
    assert out.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(np.asarray(out), np.asarray(expected, dtype))


def test_numpy_inputs_and_names():
    out = ops.segment_sum(D1, I1, num_segments=3)
    np.testing.assert_array_equal(np.asarray(out), [3.0, 3.0, 0.0])
    assert ops.segment_max.__name__ == "segment_max"
    assert "Args:" in ops.segment_min.__doc__


@pytest.mark.parametrize(
    "kwargs,exc",
    [
        ({"segment_ids": np.array([0, 1])}, ValueError),  # one id per row
        ({"segment_ids": np.array([0.0, 1.0, 1.0, 0.0, 0.0])}, TypeError),
        ({"num_segments": -1}, ValueError),
        ({"mode": "bogus"}, ValueError),
    ],
)
def test_errors(kwargs, exc):
    args = {"data": D1, "segment_ids": I1, "num_segments": 3, **kwargs}
    with pytest.raises(exc):
        ops.segment_sum(**args)


# grad of sum(segment_op(d) * w), values from JAX: max/min split ties evenly, dropped rows get 0
GRAD_D = np.array([1.0, 3.0, 3.0, 2.0, 5.0], np.float32)
GRAD_IDS = np.array([0, 0, 0, 1, -1])


@pytest.mark.parametrize(
    "name,expected",
    [
        ("segment_sum", [1.0, 1.0, 1.0, 2.0, 0.0]),
        ("segment_max", [0.0, 0.5, 0.5, 2.0, 0.0]),
        ("segment_min", [1.0, 0.0, 0.0, 2.0, 0.0]),
    ],
)
def test_grad(name, expected):
    w = jnp.array([1.0, 2.0, 3.0])
    g = core.grad(lambda d: (getattr(ops, name)(d, GRAD_IDS, 3) * w).sum())(jnp.asarray(GRAD_D))
    np.testing.assert_allclose(np.asarray(g), expected)


def test_segment_prod_grad():
    # JAX only differentiates scatter-mul with unique_indices=True; here d prod / d d_j works
    d = jnp.array([2.0, 3.0, 4.0, 5.0])
    g = core.grad(lambda d: ops.segment_prod(d, np.array([0, 0, 1, 0]), 2).sum())(d)
    np.testing.assert_allclose(np.asarray(g), [15.0, 10.0, 1.0, 6.0])


def test_vmap_over_data_and_ids():
    d = jnp.arange(12.0).reshape(3, 4)
    ids = jnp.array([[0, 1, 1, 0], [2, 2, 0, 1], [1, -1, 0, 0]])
    sums = core.vmap(lambda d, i: ops.segment_sum(d, i, 3))(d, ids)
    np.testing.assert_array_equal(
        np.asarray(sums), [[3.0, 3.0, 0.0], [6.0, 7.0, 9.0], [21.0, 8.0, 0.0]]
    )
    maxes = core.vmap(lambda d, i: ops.segment_max(d, i, 3))(d, ids)
    np.testing.assert_array_equal(
        np.asarray(maxes), [[3.0, 2.0, -INF], [6.0, 7.0, 5.0], [11.0, 8.0, -INF]]
    )


def test_jit_and_grad_of_jit():
    f = core.jit(lambda d, i: ops.segment_min(d, i, 3))
    out = f(jnp.arange(4.0), jnp.array([2, 2, 0, 1]))
    np.testing.assert_array_equal(np.asarray(out), [2.0, 3.0, 0.0])
    g = core.grad(lambda d: core.jit(lambda d: ops.segment_sum(d, I1, 3))(d).sum())(D1)
    np.testing.assert_array_equal(np.asarray(g), [1.0, 1.0, 1.0, 0.0, 0.0])


def test_num_segments_none_needs_concrete_ids():
    with pytest.raises(TypeError):  # traced ids: num_segments must be given
        core.jit(lambda d, i: ops.segment_sum(d, i))(D1, jnp.array([0, 1, 1, 0, 0]))


def test_segment_sum_without_num_segments_under_jit_is_concretization_error():
    # JAX 0.10.2: int(max(segment_ids)) of a traced array
    with pytest.raises(core.errors.ConcretizationTypeError, match="traced array with shape int32"):
        core.jit(lambda d, i: core.ops.segment_sum(d, i))(np.ones(3), np.array([0, 1, 1]))


@pytest.mark.parametrize(
    "data, ids, first",
    [  # JAX 0.10.2's ValueError first lines
        (jnp.array([1.0, 2.0]), jnp.array([[0], [1]]),
         "Incompatible types for broadcasting: input type=float32[2] and requested "
         "type=float32[2,1]"),
        (jnp.ones((3, 2)), jnp.array([0, 1]),
         "Incompatible types for broadcasting: input type=float32[3,2] and requested "
         "type=float32[2,2]"),
    ],
)  # fmt: skip
def test_segment_ids_of_the_wrong_shape_give_jaxs_first_line(data, ids, first):
    with pytest.raises(ValueError) as info:
        ops.segment_sum(data, ids, 2)
    assert str(info.value).splitlines()[0] == first
