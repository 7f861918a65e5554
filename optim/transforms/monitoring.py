"""Recording quantities alongside the optimizer: `snapshot`, `monitor`, `measure_with_ema`.

They never change the updates; they store measurements (e.g. the gradient norm) in the state,
where `optim.tree.get(opt_state, "measurement")` finds them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from optim.base import (
    GradientTransformation,
    GradientTransformationExtraArgs,
    stateless,
    with_extra_args_support,
)
from optim.combine import chain
from optim.transforms.accumulation import ema


class SnapshotState(NamedTuple):
    """State of `snapshot`: `{measure_name: measure(updates)}`."""

    measurement: dict[str, Any]


def snapshot(measure_name: str, measure: Callable[[Any], Any]) -> GradientTransformation:
    """Stores `measure(updates)` in the state (`measure(params)` after `init`).

    Args:
      measure_name: the key of the measurement.
      measure: a function of the updates, e.g. `optim.tree.norm`.

    Returns:
      A `GradientTransformation` with state `SnapshotState` that leaves updates unchanged.
    """

    def measured(tree: Any) -> SnapshotState:
        return SnapshotState({measure_name: measure(tree)})

    def init_fn(params):
        return measured(params)

    def update_fn(updates, state, params=None):
        del params, state  # the state is replaced by this step's measurement
        return updates, measured(updates)

    return GradientTransformation(init_fn, update_fn)


class MonitorState(NamedTuple):
    """State of `monitor`: the latest measurements and the measures' own states."""

    measurements: dict[str, Any]
    measure_states: tuple[Any, ...]


def monitor(measures: dict[str, Any]) -> GradientTransformationExtraArgs:
    """Records several measures of the updates; each is a function or a transformation whose
    output updates are the measurement (e.g. `measure_with_ema`).

    As in Optax, `measurements` is `{}` after `init` and filled by `update`, so the state's tree
    structure changes after the first update.

    Args:
      measures: `{name: function of the updates | GradientTransformation}`.

    Returns:
      A `GradientTransformationExtraArgs` with state `MonitorState`.
    """
    txs = {}
    for name, measure in measures.items():
        if callable(measure):
            txs[name] = with_extra_args_support(stateless(lambda u, _, m=measure: m(u)))
        else:
            txs[name] = with_extra_args_support(measure)
    names = tuple(txs)

    def init_fn(params):
        return MonitorState({}, tuple(txs[n].init(params) for n in names))

    def update_fn(updates, state, params=None, **extra_args):
        measurements, new_states = {}, []
        for i, name in enumerate(names):
            measurements[name], s = txs[name].update(
                updates, state.measure_states[i], params, **extra_args
            )
            new_states.append(s)
        return updates, MonitorState(measurements, tuple(new_states))

    return GradientTransformationExtraArgs(init_fn, update_fn)


def measure_with_ema(
    measure: Callable[[Any], Any], decay: Any, debias: bool = True, accumulator_dtype: Any = None
) -> GradientTransformationExtraArgs:
    """A transformation whose *output* is the EMA of `measure(updates)`; use it in `monitor`.

    Args:
      measure: a function of the updates.
      decay: the EMA decay.
      debias: debias the EMA (as `ema`).
      accumulator_dtype: dtype of the EMA.

    Returns:
      A `GradientTransformationExtraArgs` (a `chain`) with `ema`'s state on the measurement.
    """
    base_ema = ema(decay, debias, accumulator_dtype)
    measurement_ema = base_ema._replace(init=lambda params: base_ema.init(measure(params)))
    return chain(stateless(lambda updates, _: measure(updates)), measurement_ema)
