"""Keyword arguments of `core.numpy` / `core.lax` functions that a signature comparison with
JAX 0.10.2 found missing, against values recorded from JAX (`var(mean=)`,
`ravel_multi_index(order=, dtype=)`, `take_along_axis(wrap_negative_indices=)`,
`linalg.vecdot(preferred_element_type=)`, `lax.dot(dimension_numbers=)`, `lax.mul(out_dtype=)`,
`linalg.slogdet(method="qr")`, `lax.dynamic_slice(allow_negative_indices=)`, `isin(method=)`,
`argsort(dtype=)`, `lax.cond(operand=)`, `Array.dot(precision=, preferred_element_type=)` and
the creation functions' `device=`), and the removed ones numbax still took
(`clip(a=, a_min=, a_max=)`, a `TypeError` in JAX 0.10.2)."""

from __future__ import annotations

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.errors import DeviceAndShardingError
from core.sharding import PartitionSpec as P

A = np.arange(12.0, dtype=np.float32).reshape(3, 4) ** 1.5
M = np.float32([[1.0], [20.0], [30.0]])
N = np.float32([[1.0, np.nan, 3.0], [np.nan, 5.0, 9.0]])
NM = np.float32([[2.0], [7.0]])
I8 = np.int8([[100, 100, 100]])
ONES8 = np.int8([[1, 1, 1]])
DN = (((2,), (1,)), ((0,), (0,)))
LAX_DOT = [
    [[2.8284270763397217, 5.196152687072754], [14.696938514709473, 29.82843017578125]],
    [[228.3167724609375, 296.5054931640625], [389.7666015625, 507.3167419433594]],
    [[1365.81494140625, 1595.977783203125], [1869.2314453125, 2184.81494140625]],
]

CASES = [
    ("var_mean", lambda: jnp.var(A, axis=1, mean=M), [5.48771, 63.024628, 27.004004], "float32"),
    (
        "std_mean_ddof",
        lambda: jnp.std(A, axis=1, ddof=1, mean=M),
        [2.7049856185913086, 9.166942596435547, 6.0004448890686035],
        "float32",
    ),
    ("nanvar_mean", lambda: jnp.nanvar(N, axis=1, mean=NM), [1.0, 4.0], "float32"),
    (
        "nanstd_mean_positional",
        lambda: jnp.nanstd(N, 1, None, None, 0, True, None, NM),
        [[1.0], [2.0]],
        "float32",
    ),
    (
        "ravel_F",
        lambda: jnp.ravel_multi_index((np.array([1, 2]), np.array([0, 3])), (3, 4), order="F"),
        [1, 11],
        "int32",
    ),
    (
        "ravel_int8",
        lambda: jnp.ravel_multi_index((np.int8([1, 2]), np.int8([0, 3])), (3, 4)),
        [4, 11],
        "int8",
    ),
    (
        "ravel_dtype",
        lambda: jnp.ravel_multi_index((np.array([1, 2]), np.array([0, 3])), (3, 4), dtype="int16"),
        [4, 11],
        "int16",
    ),
    (
        "ravel_wrap",
        lambda: jnp.ravel_multi_index((np.array([4, -1]), np.array([0, 5])), (3, 4), mode="wrap"),
        [4, 9],
        "int32",
    ),
    (
        "ravel_clip",
        lambda: jnp.ravel_multi_index((np.array([4, -1]), np.array([0, 5])), (3, 4), mode="clip"),
        [8, 3],
        "int32",
    ),
    (
        "take_along_nowrap",
        lambda: jnp.take_along_axis(
            A, np.array([[0], [-1], [2]]), axis=1, wrap_negative_indices=False
        ),
        [[0.0], [np.nan], [31.62277603149414]],
        "float32",
    ),
    (
        "take_along_default_axis",
        lambda: jnp.take_along_axis(A, np.array([[3], [-1], [2]])),
        [[5.196152687072754], [18.5202579498291], [31.62277603149414]],
        "float32",
    ),
    ("vecdot_int8_wraps", lambda: jnp.linalg.vecdot(I8, ONES8), [44], "int8"),
    (
        "vecdot_preferred",
        lambda: jnp.linalg.vecdot(I8, ONES8, preferred_element_type=jnp.int32),
        [300],
        "int32",
    ),
    (
        "vecdot_complex",
        lambda: jnp.vecdot(np.complex64([1 + 2j, 3j]), np.complex64([3j, 1 - 1j])),
        3 + 0j,
        "complex64",
    ),
    (
        "lax_dot_dimension_numbers",
        lambda: lax.dot(A.reshape(3, 2, 2), A.reshape(3, 2, 2), dimension_numbers=DN),
        LAX_DOT,
        "float32",
    ),
    (
        "lax_mul_out_dtype",
        lambda: lax.mul(np.int8([100, -100]), np.int8([3, 3]), out_dtype=jnp.int32),
        [300, -300],
        "int32",
    ),
    (
        "slogdet_qr",
        lambda: jnp.linalg.slogdet(A[:3, :3] + np.eye(3, dtype=np.float32), method="qr"),
        [-1.0, 4.569447040557861],
        "float32",
    ),
    (
        "slogdet_qr_reflections",
        lambda: jnp.linalg.slogdet(np.float32([[0, 1, 0], [1, 0, 0], [0, 0, 2]]), method="qr"),
        [-1.0, 0.6931471824645996],
        "float32",
    ),
    (
        "dynamic_slice_traced_negative_clamps",
        lambda: lax.dynamic_slice(
            np.arange(5), (jnp.int32(-1),), (2,), allow_negative_indices=False
        ),
        [0, 1],
        "int32",
    ),
    (
        "dynamic_update_slice_in_dim_no_negatives",
        lambda: lax.dynamic_update_slice_in_dim(
            np.arange(5), np.int32([9, 9]), jnp.int32(-1), 0, allow_negative_indices=False
        ),
        [9, 9, 2, 3, 4],
        "int32",
    ),
    (
        "isin_sort",
        lambda: jnp.isin(np.arange(5), np.array([1, 3]), method="sort"),
        [False, True, False, True, False],
        "bool",
    ),
    (
        "isin_binary_search_invert",
        lambda: jnp.isin(np.arange(5), np.array([1, 3]), invert=True, method="binary_search"),
        [True, False, True, False, True],
        "bool",
    ),
    (
        "argsort_dtype",
        lambda: jnp.argsort(np.float32([3, 1, 2]), dtype=jnp.int16),
        [1, 2, 0],
        "int16",
    ),
    (
        "cond_operand",
        lambda: lax.cond(True, lambda x: x + 1, lambda x: x - 1, operand=np.float32(2)),
        3.0,
        "float32",
    ),
    (
        "switch_operand",
        lambda: lax.switch(1, [lambda x: x, lambda x: -x], operand=np.float32(2)),
        -2.0,
        "float32",
    ),
    (
        "array_dot_preferred_element_type",
        lambda: jnp.asarray(I8).dot(ONES8.T, preferred_element_type=jnp.int32),
        [[300]],
        "int32",
    ),
    (
        "array_dot_precision",
        lambda: jnp.asarray(A).dot(np.ones(4, np.float32), precision=lax.Precision.HIGHEST),
        [9.024580001831055, 52.39753723144531, 117.73307037353516],
        "float32",
    ),
]


@pytest.mark.parametrize("name, fn, want, dtype", CASES, ids=[c[0] for c in CASES])
def test_keyword_values_match_jax(name, fn, want, dtype):
    got = fn()
    if isinstance(got, tuple):
        assert [str(g.dtype) for g in got] == [dtype] * len(got)
        got = np.stack([np.asarray(g) for g in got])
    else:
        assert str(got.dtype) == dtype
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


@pytest.mark.parametrize(
    "call, error, match",
    [
        (
            lambda: jnp.ravel_multi_index((np.array([1, 5]), np.array([0, 3])), (3, 4)),
            ValueError,
            "invalid entry in coordinates array",
        ),
        (
            lambda: jnp.ravel_multi_index((np.array([1]), np.array([0])), (300, 4), dtype="int8"),
            ValueError,
            "not large enough",
        ),
        (
            lambda: lax.dynamic_slice(np.arange(5), (-1,), (2,), allow_negative_indices=False),
            ValueError,
            "Index -1 is out of bounds for dimension 5",
        ),
        (lambda: jnp.linalg.slogdet(np.eye(2), method="lr"), ValueError, "Unknown slogdet"),
        (lambda: jnp.isin(1, np.arange(3), method="hash"), ValueError, "is not implemented"),
        (
            lambda: jnp.linalg.svd(np.eye(2), full_matrices=False, subset_by_index=(0, 1)),
            NotImplementedError,
            "subset_by_index not implemented for CPU",
        ),
        (lambda: lax.dot(np.ones((2, 3)), np.ones(4)), ValueError, "dimension_numbers must be"),
        # JAX 0.10.2: precision is keyword-only (JAX's lax_test)
        (
            lambda: lax.dot(np.ones(2), np.ones(2), lax.Precision.DEFAULT),
            TypeError,
            r"dot\(\) takes 2 positional arguments but 3 were given",
        ),
        (
            lambda: lax.cond(True, lambda x: x, lambda x: x, 1.0, operand=2.0),
            TypeError,
            "no positional operands",
        ),
        (lambda: jnp.isposinf(1.0, out=np.zeros(())), NotImplementedError, "'out' argument"),
        # JAX 0.10.2 removed clip's deprecated keywords (CleanRL's c51_jax.py still passes them)
        (lambda: jnp.clip(np.arange(3.0), a_min=1), TypeError, "keyword argument 'a_min'"),
        (lambda: jnp.clip(np.arange(3.0), 0, a_max=1), TypeError, "keyword argument 'a_max'"),
        (lambda: jnp.clip(a=np.arange(3.0), min=1), TypeError, "keyword argument 'a'"),
        # jit passes keyword arguments sorted by name: JAX names 'a_max' first
        (lambda: jnp.clip(np.arange(3.0), a_min=0, a_max=1), TypeError, "argument 'a_max'"),
        (
            lambda: lax.all_gather(np.ones(2), "i", to="everywhere"),
            ValueError,
            "Allowed `to` values",
        ),
    ],
)
def test_keyword_errors_match_jax(call, error, match):
    with pytest.raises(error, match=match):
        call()


CREATORS = [
    lambda **kw: jnp.zeros(2, **kw),
    lambda **kw: jnp.ones_like(np.ones(2), **kw),
    lambda **kw: jnp.full_like(np.ones(2), 3.0, **kw),
    lambda **kw: jnp.arange(2, **kw),
    lambda **kw: jnp.array([1.0, 2.0], **kw),
    lambda **kw: jnp.asarray([1.0, 2.0], **kw),
]


@pytest.mark.parametrize("create", CREATORS)
def test_creation_functions_take_device_or_out_sharding(create):
    device = core.devices()[-1]
    placed = create(device=device)
    assert placed.devices() == {device}
    np.testing.assert_array_equal(placed, create())
    with pytest.raises(DeviceAndShardingError, match="Only one of `device` or `out_sharding`"):
        create(device=device, out_sharding=P())
