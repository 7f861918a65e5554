"""`train.lr_schedule` (``flax.training.lr_schedule``): Flax's older schedules give Flax's
rates, eagerly and under `jit(vmap)`, and log its deprecation. The expected rates were
printed by Flax 0.12.8 on JAX 0.10.2 for the same calls."""

import logging

import numpy as np
import pytest

import core
import core.numpy as jnp
from train import lr_schedule

STEPS = [0, 3, 10, 25, 40, 60]

CASES = [
    ("constant", lambda: lr_schedule.create_constant_learning_rate_schedule(0.1, 10),
     [0.1] * 6),
    ("constant, warm-up", lambda: lr_schedule.create_constant_learning_rate_schedule(
        0.1, 10, warmup_length=2.5), [0.0, 0.012, 0.04, 0.1, 0.1, 0.1]),
    ("stepped", lambda: lr_schedule.create_stepped_learning_rate_schedule(
        0.2, 10, [[1, 0.5], [2.55, 0.1]]), [0.2, 0.2, 0.2, 0.1, 0.02, 0.02]),
    ("stepped, warm-up", lambda: lr_schedule.create_stepped_learning_rate_schedule(
        0.2, 10, [[1, 0.5], [2.55, 0.1]], warmup_length=1), [0.0, 0.06, 0.2, 0.1, 0.02, 0.02]),
    ("cosine", lambda: lr_schedule.create_cosine_learning_rate_schedule(0.3, 10, 5),
     [0.30000001192092896, 0.29734307527542114, 0.2713525593280792, 0.14999999105930328,
      0.028647441416978836, 0.02864746004343033]),
    ("cosine, warm-up", lambda: lr_schedule.create_cosine_learning_rate_schedule(
        0.3, 10, 5, warmup_length=0.5),
     [0.0, 0.17840585112571716, 0.2713525593280792, 0.14999999105930328,
      0.028647441416978836, 0.02864746004343033]),
]  # fmt: skip


@pytest.mark.parametrize("name, make, want", CASES, ids=[c[0] for c in CASES])
def test_schedules_give_flaxs_rates(name, make, want):
    schedule = make()
    eager = [np.float32(schedule(s)) for s in STEPS]
    np.testing.assert_allclose(eager, want, rtol=1e-6, atol=1e-9)
    jitted = core.jit(core.vmap(schedule))(jnp.array(STEPS))
    assert jitted.dtype == jnp.float32
    np.testing.assert_allclose(np.asarray(jitted), want, rtol=1e-6, atol=1e-9)


def test_a_schedule_logs_that_optax_replaces_it(caplog):
    with caplog.at_level(logging.WARNING, logger="flax.training.lr_schedule"):
        lr_schedule.create_constant_learning_rate_schedule(0.1, 10)
    assert "effectively deprecated in favor of Optax schedules" in caplog.text
