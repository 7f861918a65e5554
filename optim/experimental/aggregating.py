"""Gradient aggregation (`optax.experimental.aggregating`): transformations whose inputs are
per-example gradients (shape ``[*batch, *param_shape]``) and whose outputs are one update.

`process(preprocessor, aggregator, postprocessor)` chains a per-example transformation (e.g.
per-example clipping), an `Aggregator` (averaging, averaging accumulated over microbatches)
and an ordinary optimizer; the optimizer runs only when the aggregator's state says it is
``ready`` (after the last microbatch), otherwise the updates are zeros.
`add_mean_variance_to_opt` wraps an optimizer so that its state also tracks exponential moving
averages of the gradients' mean and variance across examples
(`get_unbiased_mean_and_variance_ema` reads them). Values are Optax 0.2.8's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

import core.numpy as jnp
from core import lax, tree_util
from optim import base, tree
from optim.combine import chain
from optim.errors import AggregatorStateError, BatchAxisError, OptimizerArgumentError
from optim.numerics import safe_int32_increment

PerElementUpdates = base.Updates
AggregatedUpdates = base.Updates
MaybeAxis = int | Sequence[int] | None


class AggregatorUpdateFn(Protocol):
    """The update function of an `Aggregator`: per-element updates -> one update."""

    def __call__(
        self,
        per_elt_updates: PerElementUpdates,
        state: base.OptState,
        params: base.Params | None = None,
        **extra_args: Any,
    ) -> tuple[AggregatedUpdates, base.OptState]:
        """Aggregates per-element updates into one update direction."""


class Aggregator(base.GradientTransformationExtraArgs):
    """A pair of pure functions `(init, update)` whose `update` takes per-example gradients
    (``[*batch_shape, *params_shape]``, e.g. from ``vmap(grad(loss))``) and returns one update
    of the parameters' shapes.

    Attributes:
      init: ``init(params) -> state``.
      update: ``update(per_elt_updates, state, params=None) -> (updates, state)``.
    """

    init: base.TransformInitFn
    update: AggregatorUpdateFn


def process(
    preprocessor: base.GradientTransformation,
    aggregator: base.GradientTransformation | Aggregator,
    postprocessor: base.GradientTransformation,
    aggregator_has_aux: bool = False,
) -> base.GradientTransformation | Aggregator:
    """Processes gradients through a per-example transformation, an aggregator and an optimizer.

    Args:
      preprocessor: maps per-example gradients to per-example updates.
      aggregator: aggregates the per-example updates into one update.
      postprocessor: maps the aggregated update to the final updates (an optimizer); it runs
        only when the aggregator's state field ``ready`` is true (always, if it has none).
      aggregator_has_aux: whether the aggregator returns ``(updates, aux)``, ``aux`` a dict of
        extra arguments passed to the postprocessor's `update`.

    Returns:
      An `Aggregator` if ``aggregator`` is one, else a `GradientTransformationExtraArgs`; its
      state is ``(preprocess_state, aggregate_state, postprocess_state)``.
    """

    def init_fn(params):
        return preprocessor.init(params), aggregator.init(params), postprocessor.init(params)

    def update_fn(per_elt_grads, states, params=None, **extra_args):
        pre_state, agg_state, post_state = states
        per_elt, pre_state = preprocessor.update(per_elt_grads, pre_state, params, **extra_args)
        combined, agg_state = aggregator.update(per_elt, agg_state, params, **extra_args)
        if aggregator_has_aux:
            combined, aux = combined
            extra_args = extra_args | aux
        # Aggregators without a `ready` field produce a full update every step.
        finished = tree.get(agg_state, "ready", True)
        updates, post_state = _postprocess_when(
            finished, postprocessor, combined, post_state, params, extra_args
        )
        return updates, (pre_state, agg_state, post_state)

    if isinstance(aggregator, Aggregator):
        return Aggregator(init_fn, update_fn)
    return base.GradientTransformationExtraArgs(init_fn, update_fn)


def _postprocess_when(
    finished: Any,
    postprocessor: base.GradientTransformation,
    combined: base.Updates,
    post_state: base.OptState,
    params: base.Params | None,
    extra_args: dict[str, Any],
) -> tuple[base.Updates, base.OptState]:
    """Runs the postprocessor on a finished aggregate; otherwise zeros, its state untouched."""

    def run(u, st, p, kwargs):
        return postprocessor.update(u, st, p, **kwargs)

    def hold(u, st, p, kwargs):
        del p, kwargs
        return tree.zeros_like(u), st

    return lax.cond(finished, run, hold, combined, post_state, params, extra_args)


def _end_of_microbatch(
    micro_step: Any, accumulation_steps: int, result: Any, fresh: Any, running: Any
) -> tuple[Any, Any]:
    """After microbatch ``micro_step`` (counting from 1): ``(result, fresh)`` on the last one of
    the ``accumulation_steps``, ``(zeros like result, running)`` before it."""
    is_last = micro_step == accumulation_steps
    return tree.where(is_last, (result, fresh), (tree.zeros_like(result), running))


def average_per_element_updates(per_elt_axis: int | Sequence[int] = 0) -> Aggregator:
    """Averages per-element updates over their batch axis.

    Args:
      per_elt_axis: the batch axis (or axes) to average over.

    Returns:
      A stateless `Aggregator`.
    """

    def update_fn(per_elt_updates, state, params=None):
        del params
        return tree_util.tree_map(lambda x: jnp.mean(x, axis=per_elt_axis), per_elt_updates), state

    return Aggregator(base.init_empty_state, update_fn)


class AccumulateAvgUpdatesState(NamedTuple):
    """State of `accumulate_avg_updates`: the microbatch counter, whether the average is
    complete, and the running average."""

    micro_step: Any
    ready: Any
    avg_grad: base.Updates


def _check_accumulation_steps(accumulation_steps: int) -> None:
    if accumulation_steps < 1:
        raise OptimizerArgumentError(
            f"accumulation_steps must be larger than or equal to 1, got {accumulation_steps}."
        )


def accumulate_avg_updates(accumulation_steps: int) -> base.GradientTransformation:
    """Averages updates over ``accumulation_steps`` microbatches: zeros until the last one,
    then the average (and the state starts over).

    Args:
      accumulation_steps: the number of microbatches (1: `identity`).

    Returns:
      A `GradientTransformation` with an `AccumulateAvgUpdatesState`.

    Raises:
      OptimizerArgumentError: if ``accumulation_steps < 1``.
    """
    _check_accumulation_steps(accumulation_steps)
    if accumulation_steps == 1:
        return base.identity()

    def init_fn(params):
        return AccumulateAvgUpdatesState(
            micro_step=jnp.asarray(0), ready=jnp.asarray(False), avg_grad=tree.zeros_like(params)
        )

    def update_fn(updates, state, params=None):
        del params
        seen = state.micro_step + 1

        def running_mean(u, mean):
            # The mean of `seen` values from the mean of the first `seen - 1` and the newest.
            return mean + (u - mean) / seen

        mean = tree_util.tree_map(running_mean, updates, state.avg_grad)
        restart = AccumulateAvgUpdatesState(
            jnp.asarray(0), jnp.asarray(True), tree.zeros_like(mean)
        )
        going = AccumulateAvgUpdatesState(seen, jnp.asarray(False), mean)
        return _end_of_microbatch(seen, accumulation_steps, mean, restart, going)

    return base.GradientTransformation(init_fn, update_fn)


def average_incrementally_updates(
    per_elt_axis: MaybeAxis, accumulation_steps: int
) -> Aggregator | base.GradientTransformation:
    """Averages per-element updates and/or accumulates them over microbatches.

    Args:
      per_elt_axis: the batch axis to average over, or None for accumulation only.
      accumulation_steps: the number of microbatches to accumulate over.

    Returns:
      `accumulate_avg_updates(accumulation_steps)` if ``per_elt_axis`` is None, else an
      `Aggregator` averaging over ``per_elt_axis`` and then accumulating.
    """
    if per_elt_axis is None:
        return accumulate_avg_updates(accumulation_steps)
    agg = chain(
        average_per_element_updates(per_elt_axis), accumulate_avg_updates(accumulation_steps)
    )
    return Aggregator(agg.init, agg.update)


def get_batch_size_from_per_elt_updates(
    per_elt_updates: base.Updates, per_elt_axis: int | Sequence[int]
) -> int:
    """The batch size of per-element updates (the product of the ``per_elt_axis`` sizes).

    Args:
      per_elt_updates: the per-element updates.
      per_elt_axis: the batch axis or axes.

    Returns:
      The batch size, the same for every leaf.

    Raises:
      BatchAxisError: if the leaves disagree.
    """

    def batch_size(u):
        if isinstance(per_elt_axis, int):
            return u.shape[per_elt_axis]
        return math.prod(u.shape[i] for i in per_elt_axis)

    sizes = tree_util.tree_leaves(tree_util.tree_map(batch_size, per_elt_updates))
    if not all(b == sizes[0] for b in sizes):
        raise BatchAxisError(f"Per-element updates must have the same batch size. Got: {sizes}")
    return sizes[0]


class PerElementMeanAndSumSqDiffGradsState(NamedTuple):
    """State of `get_per_element_mean_and_sum_sq_diff_grads` over several microbatches."""

    micro_step: Any
    ready: Any
    mean_grads: base.Updates
    sum_sq_diff_grads: base.Updates


def _batch_mean_and_sum_sq_diff(per_elt_updates, per_elt_axis):
    mean = tree_util.tree_map(
        lambda x: jnp.mean(x, axis=per_elt_axis, keepdims=True), per_elt_updates
    )
    sum_sq_diff = tree_util.tree_map(
        lambda x, a: jnp.sum(jnp.square(x - a), axis=per_elt_axis), per_elt_updates, mean
    )
    return tree_util.tree_map(lambda x: x.squeeze(axis=per_elt_axis), mean), sum_sq_diff


def get_per_element_mean_and_sum_sq_diff_grads(
    per_elt_axis: int | Sequence[int] = 0, accumulation_steps: int = 1
) -> Aggregator:
    """Aggregates per-element gradients into their mean, with the sum of squared deviations
    from it as auxiliary output (Chan's parallel update across microbatches).

    Args:
      per_elt_axis: the batch axis or axes.
      accumulation_steps: the number of microbatches to accumulate over.

    Returns:
      An `Aggregator` whose updates are ``(mean_grads, {"sum_sq_diff_grads": ...,
      "sample_size": ...})`` (use it with ``process(..., aggregator_has_aux=True)``).
    """

    def compute(per_elt_updates, state, params):
        del params
        batch_size = get_batch_size_from_per_elt_updates(per_elt_updates, per_elt_axis)
        mean, sum_sq_diff = _batch_mean_and_sum_sq_diff(per_elt_updates, per_elt_axis)
        return (mean, {"sum_sq_diff_grads": sum_sq_diff, "sample_size": batch_size}), state

    if accumulation_steps == 1:
        return Aggregator(base.init_empty_state, compute)

    def init_fn(params):
        return PerElementMeanAndSumSqDiffGradsState(
            micro_step=jnp.asarray(0, dtype=jnp.int32),
            ready=jnp.asarray(False),
            mean_grads=tree.zeros_like(params),
            sum_sq_diff_grads=tree.zeros_like(params),
        )

    def update_fn(per_elt_updates, state, params=None):
        del params
        batch_size = get_batch_size_from_per_elt_updates(per_elt_updates, per_elt_axis)
        new_micro_step = state.micro_step + 1
        batch_mean, batch_sum_sq_diff = _batch_mean_and_sum_sq_diff(per_elt_updates, per_elt_axis)
        delta = tree_util.tree_map(lambda u, a: u - a, batch_mean, state.mean_grads)
        new_mean = tree_util.tree_map(lambda a, d: a + d / new_micro_step, state.mean_grads, delta)
        size_factor = state.micro_step * batch_size / new_micro_step
        new_sum_sq_diff = tree_util.tree_map(
            lambda a, s, d: a + s + d**2 * size_factor,
            state.sum_sq_diff_grads,
            batch_sum_sq_diff,
            delta,
        )
        outputs = (
            new_mean,
            {"sum_sq_diff_grads": new_sum_sq_diff, "sample_size": batch_size * new_micro_step},
        )
        ready_state = PerElementMeanAndSumSqDiffGradsState(
            micro_step=jnp.asarray(0, dtype=jnp.int32),
            ready=jnp.asarray(True),
            mean_grads=tree.zeros_like(new_mean),
            sum_sq_diff_grads=tree.zeros_like(new_sum_sq_diff),
        )
        not_ready_state = PerElementMeanAndSumSqDiffGradsState(
            micro_step=new_micro_step,
            ready=jnp.asarray(False),
            mean_grads=new_mean,
            sum_sq_diff_grads=new_sum_sq_diff,
        )
        return _end_of_microbatch(
            new_micro_step, accumulation_steps, outputs, ready_state, not_ready_state
        )

    return Aggregator(init_fn, update_fn)


class PerElementMeanAndVarianceEMAState(NamedTuple):
    """State of `track_per_element_mean_and_variance_with_ema`."""

    count: Any
    ema_decay: Any
    mean_grads_ema: base.Updates
    variance_grads_ema: base.Updates


def track_per_element_mean_and_variance_with_ema(
    ema_decay: Any = 0.9,
) -> base.GradientTransformation:
    """Tracks exponential moving averages of the gradients' mean and variance across examples.

    Its `update` takes the extra arguments ``sum_sq_diff_grads`` and ``sample_size`` that
    `get_per_element_mean_and_sum_sq_diff_grads` gives through `process`, and passes the
    updates through unchanged.

    Args:
      ema_decay: the decay of the moving averages.

    Returns:
      A `GradientTransformationExtraArgs` with a `PerElementMeanAndVarianceEMAState`.
    """

    def init_fn(params):
        return PerElementMeanAndVarianceEMAState(
            count=jnp.zeros([], jnp.int32),
            ema_decay=jnp.asarray(ema_decay),
            mean_grads_ema=tree.zeros_like(params),
            variance_grads_ema=tree.zeros_like(params),
        )

    def averaged(latest: Any, averages: Any) -> Any:
        """The moving averages ``averages`` after seeing ``latest`` (leaf by leaf)."""
        return tree_util.tree_map(
            lambda new, old: (1.0 - ema_decay) * new + ema_decay * old, latest, averages
        )

    def update_fn(updates, state, params=None, *, sum_sq_diff_grads, sample_size):
        del params
        # The unbiased sample variance of this step's gradients (Bessel's correction).
        bessel = 1 / (sample_size - 1)
        means = averaged(updates, state.mean_grads_ema)
        variances = averaged(tree.scale(bessel, sum_sq_diff_grads), state.variance_grads_ema)
        count = safe_int32_increment(state.count)
        return updates, state._replace(
            count=count, mean_grads_ema=means, variance_grads_ema=variances
        )

    return base.GradientTransformationExtraArgs(init_fn, update_fn)


def get_unbiased_mean_and_variance_ema(state: base.OptState) -> tuple[base.Updates, base.Updates]:
    """The bias-corrected mean and variance moving averages found in an optimizer state.

    Args:
      state: an optimizer state holding a `PerElementMeanAndVarianceEMAState`.

    Returns:
      ``(mean_ema, variance_ema)``, each divided by ``1 - ema_decay ** count``.

    Raises:
      AggregatorStateError: if the state holds no `PerElementMeanAndVarianceEMAState`.
    """
    ema_state = tree.get(state, "PerElementMeanAndVarianceEMAState", None)
    if ema_state is None:
        raise AggregatorStateError()
    correction = 1 - ema_state.ema_decay**ema_state.count
    mean = tree_util.tree_map(lambda x: x / correction, ema_state.mean_grads_ema)
    variance = tree_util.tree_map(lambda x: x / correction, ema_state.variance_grads_ema)
    return mean, variance


def add_mean_variance_to_opt(
    opt: base.GradientTransformation,
    ema_decay: Any = 0.9,
    per_elt_axis: int | list[int] = 0,
    accumulation_steps: int = 1,
) -> base.GradientTransformation:
    """Wraps an optimizer taking per-example gradients so that its state also tracks the
    gradients' mean and variance (read them with `get_unbiased_mean_and_variance_ema`).

    Args:
      opt: the optimizer, applied to the mean gradient.
      ema_decay: the decay of the mean and variance moving averages.
      per_elt_axis: the batch axis or axes of the per-example gradients.
      accumulation_steps: the number of microbatches to accumulate over.

    Returns:
      An `Aggregator` (a `GradientTransformation`) taking per-example gradients.
    """
    return process(
        preprocessor=base.identity(),
        aggregator=get_per_element_mean_and_sum_sq_diff_grads(per_elt_axis, accumulation_steps),
        postprocessor=chain(track_per_element_mean_and_variance_with_ema(ema_decay), opt),
        aggregator_has_aux=True,
    )
