"""`core.random`'s newer keyword arguments against JAX 0.10.2's numbers (recorded with
`jax.random`, key `PRNGKey(42)`): the Gumbel sampler's modes ("high": two uniform draws,
"highest": 64 bits as a fixed-point number), `bernoulli(mode="high")`, `categorical` without
replacement (Gumbel top-k) and with a mode, `choice`'s mode, `key(dtype=)` and `out_sharding=`;
`multivariate_normal` with float16 draws.
"""

from __future__ import annotations

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import random
from core.errors import RandomArgumentError
from core.sharding import PartitionSpec as P

KEY = random.PRNGKey(42)
LOGITS = np.log(np.float32([[0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1]]))
LOGITS3 = np.log(np.float32([[0.1, 0.2], [0.3, 0.4], [0.2, 0.2]]))
COV = np.array([[2.0, 0.5], [0.5, 1.0]])
P6 = np.float32([0.1, 0.2, 0.3, 0.1, 0.2, 0.1])

CASES = [
    (
        "gumbel_low",
        lambda: random.gumbel(KEY, (4,), mode="low"),
        [0.3340933918952942, 0.952019453048706, 0.7255305647850037, 0.5481715202331543],
        "float32",
    ),
    (
        "gumbel_high",
        lambda: random.gumbel(KEY, (4,), mode="high"),
        [0.39925798773765564, -0.12997561693191528, 0.043095413595438004, 0.1944437325000763],
        "float32",
    ),
    (
        "gumbel_highest",
        lambda: random.gumbel(KEY, (4,), mode="highest"),
        [0.3992578089237213, -0.129975825548172, 0.04309510067105293, 0.19444338977336884],
        "float32",
    ),
    (
        "gumbel_high_f16",
        lambda: random.gumbel(KEY, (3,), jnp.float16, mode="high"),
        [2.525390625, 1.5517578125, -1.3115234375],
        "float16",
    ),
    (
        "gumbel_highest_bf16",  # "highest" is float32's only: other dtypes take "high"
        lambda: random.gumbel(KEY, (3,), jnp.bfloat16, mode="highest"),
        [-0.0, -0.62109375, -1.2421875],
        "bfloat16",
    ),
    (
        "bernoulli_high",
        lambda: random.bernoulli(KEY, np.float32([0.3, 0.5, 0.7, 0.9, 1e-9, 1.0]), mode="high"),
        [False, False, True, True, False, True],
        "bool",
    ),
    (
        "categorical_without_replacement",
        lambda: random.categorical(KEY, LOGITS, shape=(3, 2), replace=False),
        [[3, 1], [2, 0], [1, 3]],
        "int32",
    ),
    (
        "categorical_without_replacement_axis0",
        lambda: random.categorical(KEY, LOGITS3, axis=0, shape=(2, 2), replace=False),
        [[1, 1], [2, 0]],
        "int32",
    ),
    (
        "categorical_high",
        lambda: random.categorical(KEY, np.zeros(5, np.float32), shape=(4,), mode="high"),
        [4, 1, 0, 3],
        "int32",
    ),
    (
        "multivariate_normal_float16_draws",  # cov factored in float32: float32 samples
        lambda: random.multivariate_normal(KEY, np.zeros(2), COV, (3,), dtype=jnp.float16),
        [
            [-2.021883487701416, -1.3244152069091797],
            [2.7925193309783936, 1.3499053716659546],
            [-0.1797114610671997, -0.5144620537757874],
        ],
        "float32",
    ),
    (
        "choice_p_high",
        lambda: random.choice(KEY, 6, (3,), replace=False, p=P6, mode="high"),
        [4, 2, 1],
        "int32",
    ),
]


@pytest.mark.parametrize("name, fn, want, dtype", CASES, ids=[c[0] for c in CASES])
def test_sampler_modes_match_jax(name, fn, want, dtype):
    got = fn()
    assert str(got.dtype) == dtype
    np.testing.assert_array_equal(np.asarray(got).astype(np.float64), want)


def test_categorical_without_replacement_draws_distinct_categories():
    got = np.asarray(random.categorical(KEY, LOGITS.T, axis=0, shape=(4, 2), replace=False))
    assert sorted(got[:, 0]) == [0, 1, 2, 3] and sorted(got[:, 1]) == [0, 1, 2, 3]
    with pytest.raises(RandomArgumentError, match="cannot exceed number of categories"):
        random.categorical(KEY, LOGITS, shape=(5, 2), replace=False)


def test_high_dynamic_range_gumbel_flag_picks_the_mode():
    core.config.update("jax_high_dynamic_range_gumbel", True)
    try:
        high = random.gumbel(KEY, (4,))
    finally:
        core.config.update("jax_high_dynamic_range_gumbel", False)
    np.testing.assert_array_equal(high, random.gumbel(KEY, (4,), mode="high"))


@pytest.mark.parametrize(
    "call",
    [lambda: random.gumbel(KEY, mode="medium"), lambda: random.bernoulli(KEY, mode="highest")],
)
def test_unknown_modes_raise(call):
    with pytest.raises(RandomArgumentError):
        call()


def test_key_takes_a_key_dtype():
    data = random.key_data(random.key(5, dtype=random.key_dtype()))
    np.testing.assert_array_equal(data, random.key_data(random.key(5, impl="threefry2x32")))
    with pytest.raises(RandomArgumentError, match="Cannot specify both"):
        random.key(5, impl="threefry2x32", dtype="threefry2x32")


def test_samplers_take_out_sharding():
    mesh = core.make_mesh((1,), ("x",), axis_types=(core.sharding.AxisType.Explicit,))
    with core.sharding.use_mesh(mesh):
        got = random.normal(KEY, (4,), out_sharding=P("x"))
        assert got.sharding.spec == P("x")
    np.testing.assert_array_equal(got, random.normal(KEY, (4,)))
