"""Schedules (`count -> value`) and `inject_hyperparams`."""

from optim.base import Schedule, StatefulSchedule
from optim.schedules.inject import (
    InjectHyperparamsState,
    InjectStatefulHyperparamsState,
    WrappedSchedule,
    WrappedScheduleState,
    inject_hyperparams,
    inject_stateful_hyperparams,
)
from optim.schedules.interpolate import (
    cosine_onecycle_schedule,
    linear_onecycle_schedule,
    piecewise_interpolate_schedule,
)
from optim.schedules.join import join_schedules
from optim.schedules.schedules import (
    constant_schedule,
    cosine_decay_schedule,
    exponential_decay,
    linear_schedule,
    piecewise_constant_schedule,
    polynomial_schedule,
    sgdr_schedule,
    warmup_constant_schedule,
    warmup_cosine_decay_schedule,
    warmup_exponential_decay_schedule,
)

__all__ = [
    "Schedule",
    "StatefulSchedule",
    "InjectHyperparamsState",
    "InjectStatefulHyperparamsState",
    "WrappedSchedule",
    "WrappedScheduleState",
    "constant_schedule",
    "cosine_decay_schedule",
    "cosine_onecycle_schedule",
    "exponential_decay",
    "inject_hyperparams",
    "inject_stateful_hyperparams",
    "join_schedules",
    "linear_onecycle_schedule",
    "linear_schedule",
    "piecewise_constant_schedule",
    "piecewise_interpolate_schedule",
    "polynomial_schedule",
    "sgdr_schedule",
    "warmup_constant_schedule",
    "warmup_cosine_decay_schedule",
    "warmup_exponential_decay_schedule",
]
