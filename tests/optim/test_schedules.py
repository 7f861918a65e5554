"""Schedules equal their closed forms at chosen steps (Python ints and int32 arrays alike), and
Optax's values where the closed form is long."""

from __future__ import annotations

import math

import numpy as np
import pytest

import core
import core.numpy as jnp
import optim


def _cos(c, n):
    return 0.5 * (1 + math.cos(math.pi * min(c, n) / n))


CLOSED_FORMS = [
    ("constant", optim.constant_schedule(0.3), lambda c: 0.3),
    ("polynomial", optim.polynomial_schedule(1.0, 0.1, 2, 10, 5),
     lambda c: 0.9 * (1 - min(max(c - 5, 0), 10) / 10) ** 2 + 0.1),
    ("polynomial_no_steps", optim.polynomial_schedule(1.0, 0.1, 2, 0), lambda c: 1.0),
    ("linear", optim.linear_schedule(2.0, 0.0, 8), lambda c: 2.0 * (1 - min(c, 8) / 8)),
    ("piecewise_constant", optim.piecewise_constant_schedule(1.0, {5: 0.5, 10: 0.1}),
     lambda c: 1.0 * (0.5 if c >= 5 else 1) * (0.1 if c >= 10 else 1)),
    ("exponential", optim.exponential_decay(2.0, 4, 0.5),
     lambda c: 2.0 * 0.5 ** (c / 4)),
    ("exponential_staircase",
     optim.exponential_decay(2.0, 4, 0.5, transition_begin=2, staircase=True),
     lambda c: 2.0 * 0.5 ** math.floor(max(c - 2, 0) / 4)),
    ("exponential_end", optim.exponential_decay(2.0, 4, 0.5, end_value=0.6),
     lambda c: max(2.0 * 0.5 ** (c / 4), 0.6)),
    ("exponential_growth", optim.exponential_decay(1.0, 4, 2.0, end_value=3.0),
     lambda c: min(2.0 ** (c / 4), 3.0)),
    ("cosine", optim.cosine_decay_schedule(2.0, 10), lambda c: 2.0 * _cos(c, 10)),
    ("cosine_alpha_exponent", optim.cosine_decay_schedule(2.0, 10, alpha=0.1, exponent=2.0),
     lambda c: 2.0 * (0.9 * _cos(c, 10) ** 2 + 0.1)),
    ("warmup_constant", optim.warmup_constant_schedule(0.0, 1.0, 4), lambda c: min(c, 4) / 4),
    # decay_steps (12) includes the warmup (4): the cosine part lasts 8 steps.
    ("warmup_cosine", optim.warmup_cosine_decay_schedule(0.1, 1.0, 4, 12, end_value=0.2),
     lambda c: 0.1 + 0.9 * c / 4 if c < 4 else 1.0 * (0.8 * _cos(c - 4, 8) + 0.2)),
    ("join",
     optim.join_schedules([optim.constant_schedule(1.0), optim.linear_schedule(1.0, 0.0, 4)], [3]),
     lambda c: 1.0 if c < 3 else 1.0 - min(c - 3, 4) / 4),
]  # fmt: skip

STEPS = [0, 1, 3, 4, 5, 7, 9, 10, 11, 12, 20]


@pytest.mark.parametrize("name, schedule, closed", CLOSED_FORMS, ids=[c[0] for c in CLOSED_FORMS])
@pytest.mark.parametrize("as_array", [False, True], ids=["int", "int32"])
def test_closed_forms(name, schedule, closed, as_array):
    for c in STEPS:
        count = jnp.asarray(c, jnp.int32) if as_array else c
        np.testing.assert_allclose(float(schedule(count)), closed(c), rtol=1e-6, err_msg=f"{c}")


OPTAX_STEPS = [0, 1, 29, 30, 31, 50, 84, 85, 86, 99, 100, 120]
# Values of Optax 0.2.8 at OPTAX_STEPS.
OPTAX_VALUES = [
    ("linear_onecycle", optim.linear_onecycle_schedule(100, 1.0),
     [0.04, 0.072, 0.968, 1.0, 0.98254544, 0.65090907, 0.05745453, 0.04, 0.0373336, 0.0026704,
      4e-06, 4e-06]),
    ("cosine_onecycle", optim.cosine_onecycle_schedule(100, 1.0),
     [0.04, 0.04262954, 0.99737054, 1.0, 0.99949652, 0.81174564, 0.12346777, 0.10908782,
      0.09549509, 0.00050745, 4e-06, 4e-06]),
    ("piecewise_interpolate",
     optim.piecewise_interpolate_schedule("cosine", 2.0, {10: 0.5, 30: 3.0}),
     [2.0, 1.97552824, 2.9876883, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0]),
    ("warmup_exponential",
     optim.warmup_exponential_decay_schedule(0.0, 1.0, 10, 20, 0.5, transition_begin=5,
                                             staircase=True, end_value=0.1),
     [0.0, 0.1, 1.0, 1.0, 1.0, 0.5, 0.125, 0.125, 0.125, 0.1, 0.1, 0.1]),
    ("sgdr",
     optim.sgdr_schedule([
         {"init_value": 0.0, "peak_value": 1.0, "warmup_steps": 10, "decay_steps": 50},
         {"init_value": 0.0, "peak_value": 0.5, "warmup_steps": 5, "decay_steps": 50},
     ]),
     [0.0, 0.1, 0.53922951, 0.5, 0.46077043, 0.0, 0.14040722, 0.125, 0.11020175, 0.00060898,
      0.0, 0.0]),
]  # fmt: skip


@pytest.mark.parametrize("name, schedule, values", OPTAX_VALUES, ids=[c[0] for c in OPTAX_VALUES])
def test_values_recorded_from_optax(name, schedule, values):
    got = [float(schedule(jnp.asarray(c, jnp.int32))) for c in OPTAX_STEPS]
    np.testing.assert_allclose(got, values, rtol=1e-5, atol=1e-6)


def test_schedules_trace_under_jit():
    schedule = optim.warmup_cosine_decay_schedule(0.0, 1.0, 4, 12)
    jitted = core.jit(schedule)
    for c in (0, 2, 4, 8, 12):
        np.testing.assert_allclose(
            float(jitted(jnp.asarray(c, jnp.int32))), float(schedule(c)), rtol=1e-6
        )


@pytest.mark.parametrize(
    "make",
    [
        lambda: optim.piecewise_constant_schedule(1.0, {3: -1.0}),
        lambda: optim.piecewise_interpolate_schedule("cubic", 1.0),
        lambda: optim.linear_onecycle_schedule(0, 1.0),
        lambda: optim.cosine_decay_schedule(1.0, -3),
    ],
)
def test_invalid_arguments_raise(make):
    with pytest.raises(optim.errors.ScheduleArgumentError):
        make()


def test_inject_stateful_hyperparams_matches_optax():
    with pytest.warns(DeprecationWarning, match="inject_hyperparams"):
        factory = optim.inject_stateful_hyperparams(optim.adam)
    tx = factory(learning_rate=optim.linear_schedule(0.1, 0.01, 3), b1=0.8)
    params = {"w": jnp.asarray([1.0, -2.0])}
    state = tx.init(params)
    for i in range(3):
        updates, state = tx.update({"w": jnp.asarray([0.5, 1.0 + i])}, state, params)
        params = optim.apply_updates(params, updates)
    # Recorded from Optax 0.2.8 (`optax.inject_stateful_hyperparams`).
    np.testing.assert_allclose(params["w"], [0.79000008, -2.2086101], rtol=1e-6)
    assert type(state) is optim.InjectStatefulHyperparamsState
    assert float(state.hyperparams["learning_rate"]) == pytest.approx(0.04)
    assert float(state.hyperparams["b1"]) == pytest.approx(0.8)
    wrapped = state.hyperparams_states["learning_rate"]
    assert type(wrapped).__name__ == "WrappedScheduleState" and int(wrapped.count) == 3


def test_inject_stateful_hyperparams_passes_extra_args_to_stateful_schedules():
    class LossScaled:
        """A stateful schedule: lr = 0.1 * loss, remembering the number of calls."""

        def init(self):
            return jnp.zeros([], jnp.int32)

        def update(self, state, **extra_args):
            return state + 1

        def __call__(self, state, **extra_args):
            return 0.1 * extra_args.get("value", 1.0)

    with pytest.warns(DeprecationWarning):
        tx = optim.inject_stateful_hyperparams(optim.sgd)(learning_rate=LossScaled())
    params = jnp.asarray([1.0])
    state = tx.init(params)
    updates, state = tx.update(jnp.asarray([2.0]), state, params, value=3.0)
    np.testing.assert_allclose(updates, [-0.6], rtol=1e-6)
    assert int(state.hyperparams_states["learning_rate"]) == 1


# (schedule factory call, first line of Optax 0.2.8's ValueError): a differential run
# (tools/jax_differential).
@pytest.mark.parametrize(
    "make, first",
    [(lambda: optim.cosine_decay_schedule(1.0, 0),
      "The cosine_decay_schedule requires positive decay_steps, got decay_steps=0."),
     (lambda: optim.warmup_cosine_decay_schedule(0.0, 1.0, 12, 10),
      "The cosine_decay_schedule requires positive decay_steps, got decay_steps=-2."),
     (lambda: optim.piecewise_constant_schedule(1.0, {3: -0.5}),
      "`piecewise_constant_schedule` expects non-negative scale factors"),
     (lambda: optim.piecewise_interpolate_schedule("linear", 1.0, {3: -0.5}),
      "`piecewise_interpolate_schedule` expects non-negative scale factors"),
     (lambda: optim.piecewise_interpolate_schedule("cubic", 1.0, {3: 0.5}),
      "`interpolate_type` must be either 'cosine' or 'linear'")],
)  # fmt: skip
def test_schedule_errors_have_optaxs_first_lines(make, first):
    with pytest.raises(ValueError) as info:
        make()(0)
    assert str(info.value).split("\n")[0] == first


# Optax 0.2.8's answers (differential run): the interpolating schedules compute in a float32
# array (never weakly typed, a float16 count included), as Optax's jnp.cumprod of the values.
@pytest.mark.parametrize(
    "schedule, count, want",
    [
        (optim.linear_onecycle_schedule(10, 1.0, pct_start=0.5, pct_final=0.9),
         np.float16(3), 0.61609375),
        (optim.linear_onecycle_schedule(10, 1.0, pct_start=0.9, pct_final=0.5),
         np.float16(3), 0.01695625),
        (optim.piecewise_interpolate_schedule("linear", 1.0, {3: 0.5, 6: 2.0}), 7, 1.0),
        (optim.piecewise_interpolate_schedule("cosine", 1.0, {3: 0.5, 6: 2.0}), 2.5, 0.53349364),
        (optim.cosine_onecycle_schedule(10, 1.0), 0, 0.04),
    ],
)  # fmt: skip
def test_interpolating_schedules_are_float32_as_optax(schedule, count, want):
    out = schedule(count)
    assert out.dtype == np.float32 and not out.weak_type
    np.testing.assert_allclose(float(out), want, rtol=1e-6)


@pytest.mark.parametrize("make", [optim.linear_onecycle_schedule, optim.cosine_onecycle_schedule])
def test_onecycle_without_steps_error_is_optaxs(make):
    with pytest.raises(ValueError) as info:
        make(0, 1.0)
    # Optax 0.2.8's first line, "linear" for both schedules
    assert str(info.value).split("\n")[0] == (
        "A linear onecycle schedule was set with a non-positive `transition_steps`"
    )


# decay_steps and counts past int32, eager and under jit (values from Optax 0.2.8, which turns
# Python ints into floats for this).
@pytest.mark.parametrize(
    "schedule, count, want",
    [
        (
            optim.cosine_decay_schedule(1000.0, int(1e10), alpha=0.0, exponent=1),
            int(1e9),
            975.52826,
        ),
        (optim.warmup_cosine_decay_schedule(0.0, 1.0, 10, int(1e10)), int(2e9), 0.9045084714889526),
    ],
)
def test_cosine_schedules_take_python_ints_past_int32(schedule, count, want):
    for fn in (schedule, core.jit(schedule)):
        got = fn(count)
        assert got.dtype == jnp.float32
        np.testing.assert_allclose(got, want, rtol=1e-6)
