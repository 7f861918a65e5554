"""`optim.experimental.aggregating` against Optax 0.2.8's `optax.experimental.aggregating`:
the parameters and mean/variance statistics of `aggregating_cases.run` (recorded with the
reference venv by `record_aggregating.py` into `optax_aggregating.json`), the names of the
module, and the errors."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import core
import core.numpy as jnp
import optim
from core import random
from optim.errors import AggregatorStateError, BatchAxisError, OptimizerArgumentError
from optim.experimental import aggregating
from tests.optim.experimental.aggregating_cases import run

ANSWERS = json.loads((pathlib.Path(__file__).parent / "optax_aggregating.json").read_text())
LIB = {"jax": core, "jnp": jnp, "random": random, "optax": optim, "aggregating": aggregating}


@pytest.fixture(scope="module")
def got():
    return run(LIB)


@pytest.mark.parametrize("case", sorted(ANSWERS["cases"]))
def test_values_are_optax(got, case):
    np.testing.assert_allclose(
        np.asarray(got[case], np.float64),
        np.asarray(ANSWERS["cases"][case], np.float64),
        rtol=2e-6,
        atol=1e-6,
        equal_nan=True,
    )


def test_names_are_optax():
    names = {
        "Aggregator",
        "AggregatorUpdateFn",
        "AccumulateAvgUpdatesState",
        "PerElementMeanAndSumSqDiffGradsState",
        "PerElementMeanAndVarianceEMAState",
        "accumulate_avg_updates",
        "add_mean_variance_to_opt",
        "average_incrementally_updates",
        "average_per_element_updates",
        "get_batch_size_from_per_elt_updates",
        "get_per_element_mean_and_sum_sq_diff_grads",
        "get_unbiased_mean_and_variance_ema",
        "process",
        "track_per_element_mean_and_variance_with_ema",
    }
    assert names <= set(dir(aggregating))
    assert optim.experimental.aggregating is aggregating


def test_one_accumulation_step_is_identity():
    assert aggregating.accumulate_avg_updates(1).init({"w": jnp.ones(2)}) == optim.EmptyState()


def test_errors():
    with pytest.raises(OptimizerArgumentError, match="accumulation_steps must be larger"):
        aggregating.accumulate_avg_updates(0)
    with pytest.raises(AggregatorStateError, match="PerElementMeanAndVarianceEMAState"):
        aggregating.get_unbiased_mean_and_variance_ema(optim.adam(0.1).init(jnp.zeros(2)))
    updates = {"a": jnp.zeros((2, 3)), "b": jnp.zeros((3,))}
    with pytest.raises(BatchAxisError, match=r"the same batch size. Got: \[2, 3\]"):
        aggregating.get_batch_size_from_per_elt_updates(updates, 0)
