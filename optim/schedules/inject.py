"""`inject_hyperparams`: hyperparameters as arrays in the optimizer state.

`inject_hyperparams(optim.adam)(learning_rate=schedule, b1=0.9)` returns an optimizer whose
state is `InjectStatefulHyperparamsState(count, hyperparams, hyperparams_states, inner_state)`,
as in Optax 0.2.8. Numeric hyperparameters are stored as scalar arrays in `state.hyperparams`
(read them for logging, or replace them to change the optimizer between steps). A schedule is
either a `StatefulSchedule` (its state lives in `hyperparams_states` and it receives the
update's extra arguments) or a plain `count -> value` callable, wrapped in `WrappedSchedule`
(its state is its own step count, so it is evaluated at 0 for the first update); the value used
is stored in `hyperparams` too. Each `update` rebuilds the inner transformation from those
arrays, so under `jit` a new value is just a new input, never a recompilation.
Booleans, `None`, types (dtypes) and the names in `static_args` stay Python constants.

`inject_stateful_hyperparams` is the deprecated name of the same function (it warns), and
`InjectHyperparamsState` the deprecated state kept for compatibility, as in Optax.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

import core.numpy as jnp
from optim import tree
from optim.base import (
    GradientTransformation,
    GradientTransformationExtraArgs,
    StatefulSchedule,
    with_extra_args_support,
)
from optim.errors import StaticArgsError
from optim.numerics import safe_increment


class InjectHyperparamsState(NamedTuple):
    """Deprecated state kept for compatibility (Optax 0.1.9 deprecated it); `inject_hyperparams`
    returns `InjectStatefulHyperparamsState`.

    Attributes:
      count: number of updates done (the step at which schedules are evaluated next).
      hyperparams: `{name: scalar array}`, the values used by the last update (or the
        initial values before the first update).
      inner_state: the state of the inner transformation.
    """

    count: Any  # shape=(), dtype=int32.
    hyperparams: dict[str, Any]
    inner_state: Any


def _is_array(x: Any) -> bool:
    return hasattr(x, "dtype") and hasattr(x, "shape")


def _convert_floats(x: Any, dtype: Any) -> Any:
    """Casts Python floats and weakly typed float arrays to `dtype`; keeps other values."""
    if _is_array(x) and not getattr(x, "weak_type", False):
        return x
    is_float = isinstance(x, float) or (_is_array(x) and jnp.issubdtype(x.dtype, jnp.floating))
    return jnp.asarray(x, dtype=dtype) if is_float else x


def _check_static_args(inner_factory: Callable[..., Any], static_args: Any) -> set[str]:
    static_args = {static_args} if isinstance(static_args, str) else set(static_args)
    signature = inspect.signature(inner_factory)
    if not static_args.issubset(signature.parameters):
        given = "{" + ", ".join(map(repr, sorted(static_args))) + "}"
        takes = "{" + ", ".join(map(repr, signature.parameters)) + "}"
        raise StaticArgsError(  # Optax's first line (its sets in a fixed order), then ours
            "`static_args` must specify a subset of `inner_factory`'s parameters. Given "
            f"`static_args`: {given}. `inner_factory` parameters: {takes}\nName only "
            f"parameters of {inner_factory.__name__} in static_args."
        )
    return static_args


def _split_arguments(inner_factory, static_args, args, kwargs):
    """Returns `(schedules, numeric, other)`: the bound arguments of `inner_factory` sorted into
    callables (schedules), numbers and arrays (injected into the state) and static values."""
    bound = inspect.signature(inner_factory).bind(*args, **kwargs)
    bound.apply_defaults()
    schedules, numeric, other = {}, {}, {}
    for name, value in bound.arguments.items():
        if name in static_args or isinstance(value, (bool, type)) or value is None:
            other[name] = value
        elif callable(value):
            schedules[name] = value
        elif isinstance(value, (int, float)) or _is_array(value):
            numeric[name] = value
        else:
            other[name] = value
    return schedules, numeric, other


def _dtype_for(hyperparam_dtype: Any, params: Any) -> Any:
    if hyperparam_dtype is not None:
        return hyperparam_dtype
    return tree.dtype(params, "highest")


# ------------------------------------------------------------------ stateful schedules


class InjectStatefulHyperparamsState(NamedTuple):
    """State of an `inject_stateful_hyperparams` optimizer.

    Attributes:
      count: number of updates done.
      hyperparams: `{name: value}` used by the last update.
      hyperparams_states: `{name: schedule state}` of the (stateful) schedules.
      inner_state: the state of the inner transformation.
    """

    count: Any  # shape=(), dtype=int32.
    hyperparams: dict[str, Any]
    hyperparams_states: dict[str, Any]
    inner_state: Any


class WrappedScheduleState(NamedTuple):
    """State of a `WrappedSchedule`: the number of updates so far."""

    count: Any


class WrappedSchedule:
    """Turns a plain schedule `count -> value` into a `StatefulSchedule`."""

    def __init__(self, schedule_fn: Callable[[Any], Any]) -> None:
        self.schedule_fn = schedule_fn

    def init(self) -> WrappedScheduleState:
        return WrappedScheduleState(count=jnp.zeros([], jnp.int32))

    def update(self, state: WrappedScheduleState, **extra_args: Any) -> WrappedScheduleState:
        del extra_args
        return WrappedScheduleState(count=safe_increment(state.count))

    def __call__(self, state: WrappedScheduleState, **extra_args: Any) -> Any:
        del extra_args
        return self.schedule_fn(state.count)


def inject_hyperparams(
    inner_factory: Callable[..., GradientTransformation],
    static_args: str | Iterable[str] = (),
    hyperparam_dtype: Any = None,
) -> Callable[..., GradientTransformationExtraArgs]:
    """Wraps an optimizer factory so that its hyperparameters live in the state.

    Example::

        tx = optim.inject_hyperparams(optim.sgd)(learning_rate=0.1, momentum=0.9)
        state = tx.init(params)
        state.hyperparams["learning_rate"] = jnp.asarray(0.01)  # takes effect next update

    A hyperparameter given as a `StatefulSchedule` (an object with `init`, `update` and
    `__call__(state, **extra_args)`) keeps its state in `hyperparams_states` and receives the
    update's extra arguments (e.g. `value=` for a loss-driven schedule); a plain callable is
    wrapped in `WrappedSchedule`.

    Args:
      inner_factory: e.g. `optim.adam`; called with the hyperparameters at every update.
      static_args: argument names to keep as Python values (e.g. ints that set shapes).
      hyperparam_dtype: dtype of float hyperparameters (default: the highest params dtype).

    Returns:
      A factory with the signature of `inner_factory` returning a
      `GradientTransformationExtraArgs` with state `InjectStatefulHyperparamsState`.
    """
    static_args = _check_static_args(inner_factory, static_args)

    @functools.wraps(inner_factory)
    def wrapped(*args: Any, **kwargs: Any) -> GradientTransformationExtraArgs:
        schedules, numeric, other = _split_arguments(inner_factory, static_args, args, kwargs)
        schedules = {
            k: f if isinstance(f, StatefulSchedule) else WrappedSchedule(f)
            for k, f in schedules.items()
        }
        dtype_for = functools.partial(_dtype_for, hyperparam_dtype)

        def init_fn(params):
            dtype = dtype_for(params)
            hparams = {k: jnp.asarray(_convert_floats(v, dtype)) for k, v in numeric.items()}
            states = {k: f.init() for k, f in schedules.items()}
            hparams.update({k: _convert_floats(f(states[k]), dtype) for k, f in schedules.items()})
            return InjectStatefulHyperparamsState(
                count=jnp.zeros([], jnp.int32),
                hyperparams=hparams,
                hyperparams_states=states,
                inner_state=inner_factory(**other, **hparams).init(params),
            )

        def update_fn(updates, state, params=None, **extra_args):
            dtype = dtype_for(updates if params is None else params)
            hparams = {k: _convert_floats(v, dtype) for k, v in state.hyperparams.items()}
            hparams.update(
                {
                    k: _convert_floats(f(state.hyperparams_states[k], **extra_args), dtype)
                    for k, f in schedules.items()
                }
            )
            states = {
                k: f.update(state.hyperparams_states[k], **extra_args) for k, f in schedules.items()
            }
            inner = with_extra_args_support(inner_factory(**other, **hparams))
            updates, inner_state = inner.update(updates, state.inner_state, params, **extra_args)
            return updates, InjectStatefulHyperparamsState(
                count=safe_increment(state.count),
                hyperparams=hparams,
                hyperparams_states=states,
                inner_state=inner_state,
            )

        return GradientTransformationExtraArgs(init_fn, update_fn)

    return wrapped


def inject_stateful_hyperparams(
    inner_factory: Callable[..., GradientTransformation],
    static_args: str | Iterable[str] = (),
    hyperparam_dtype: Any = None,
) -> Callable[..., GradientTransformationExtraArgs]:
    """Deprecated name of `inject_hyperparams` (Optax warns the same way).

    Args:
      inner_factory: e.g. `optim.adam`.
      static_args: argument names to keep as Python values.
      hyperparam_dtype: dtype of float hyperparameters (default: the highest params dtype).

    Returns:
      What `inject_hyperparams` returns.
    """
    warnings.warn(
        "inject_stateful_hyperparams is deprecated, use inject_hyperparams instead",
        DeprecationWarning,
        stacklevel=2,
    )
    return inject_hyperparams(inner_factory, static_args, hyperparam_dtype)
