"""Accumulating gradients over time: momentum (`trace`), `ema`, `MultiSteps`, `apply_every`.

`trace` is heavy-ball momentum without dampening, `t = g + decay * t`, the same as
`torch.optim.SGD(momentum=...)`. `MultiSteps(opt, k)` averages `k` mini-batch gradients and calls
`opt` once every `k` calls (emitting zeros in between); with `use_grad_mean=True` that equals
one step on the k-times larger batch. Branches are chosen with `jnp.where`, so everything
stays traceable under `jit`.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

import core.numpy as jnp
from core import tree_util
from optim import tree
from optim.base import GradientTransformation, Params, Updates, with_extra_args_support
from optim.errors import SkipFunctionOutputError
from optim.numerics import safe_increment


class ShouldSkipUpdateFunction(Protocol):
    """The type of `MultiSteps`' `should_skip_update_fn` (`optax.ShouldSkipUpdateFunction`):
    `skip_not_finite` and `skip_large_updates` are two."""

    def __call__(
        self, updates: Updates, gradient_step: Any, params: Params | None
    ) -> tuple[Any, Any]:
        """Whether to skip `updates` in a multi-step, and what to keep in `skip_state`.

        Args:
          updates: the updates the inner transformation proposed.
          gradient_step: the mini-batch step (`MultiStepsState.gradient_step`).
          params: the current params, if known.

        Returns:
          `(should_skip, skip_state)`: a bool scalar and any pytree (debugging info).
        """


class TraceState(NamedTuple):
    """State of `trace`."""

    trace: Any


class EmaState(NamedTuple):
    """State of `ema`."""

    count: Any  # shape=(), dtype=int32.
    ema: Any


class ApplyEvery(NamedTuple):
    """State of `apply_every`."""

    count: Any
    grad_acc: Any


class MultiStepsState(NamedTuple):
    """State of `MultiSteps`.

    Attributes:
      mini_step: calls since the last inner update, in `[0, k)`.
      gradient_step: number of inner updates done.
      inner_opt_state: the wrapped optimizer's state.
      acc_grads: the gradients accumulated since the last inner update.
      skip_state: the auxiliary output of `should_skip_update_fn`.
    """

    mini_step: Any
    gradient_step: Any
    inner_opt_state: Any
    acc_grads: Any
    skip_state: Any = ()


def _is_none(x: Any) -> bool:
    return x is None


def trace(
    decay: Any, nesterov: bool = False, accumulator_dtype: Any = None
) -> GradientTransformation:
    """Momentum: `t = g + decay * t`; the update is `t` (or `g + decay * t` with `nesterov`).

    Args:
      decay: the momentum coefficient.
      nesterov: use Nesterov momentum.
      accumulator_dtype: dtype of the trace (default: the params' dtype).

    Returns:
      A `GradientTransformation` with state `TraceState(trace)`.
    """

    def init_fn(params):
        return TraceState(trace=tree.zeros_like(params, dtype=accumulator_dtype))

    def update_fn(updates, state, params=None):
        del params
        new_trace = tree_util.tree_map(
            lambda g, t: None if g is None else g + decay * t,
            updates,
            state.trace,
            is_leaf=_is_none,
        )
        if nesterov:
            updates = tree_util.tree_map(lambda g, t: g + decay * t, updates, new_trace)
        else:
            updates = new_trace
        return updates, TraceState(trace=tree.cast(new_trace, accumulator_dtype))

    return GradientTransformation(init_fn, update_fn)


def ema(decay: Any, debias: bool = True, accumulator_dtype: Any = None) -> GradientTransformation:
    """Exponential moving average `e = decay * e + (1 - decay) * g`, debiased by `1 - decay**t`.

    Args:
      decay: the decay rate.
      debias: divide by `1 - decay**t` (t = number of updates including this one).
      accumulator_dtype: dtype of the average (default: the params' dtype).

    Returns:
      A `GradientTransformation` with state `EmaState(count, ema)`.
    """

    def init_fn(params):
        return EmaState(
            count=jnp.zeros([], jnp.int32), ema=tree.zeros_like(params, dtype=accumulator_dtype)
        )

    def update_fn(updates, state, params=None):
        del params
        updates = new_ema = tree.update_moment(updates, state.ema, decay, 1)
        count_inc = safe_increment(state.count)
        if debias:
            updates = tree.bias_correction(new_ema, decay, count_inc)
        return updates, EmaState(count=count_inc, ema=tree.cast(new_ema, accumulator_dtype))

    return GradientTransformation(init_fn, update_fn)


def apply_every(k: int = 1) -> GradientTransformation:
    """Sums gradients over `k` calls and emits the sum every k-th call (zeros otherwise).

    Args:
      k: the number of calls over which gradients are summed.

    Returns:
      A `GradientTransformation` with state ``ApplyEvery(count, grad_acc)``.
    """

    def init_fn(params):
        return ApplyEvery(count=jnp.zeros([], jnp.int32), grad_acc=tree.zeros_like(params))

    def update_fn(updates, state, params=None):
        del params
        c = state.count % k
        keep = c != 0
        # masks multiply, as Optax's: a NaN or inf gradient stays in the sum and the zeros
        grad_acc = tree_util.tree_map(lambda g, ga: keep * ga + g, updates, state.grad_acc)
        emit = c == (k - 1)
        updates = tree_util.tree_map(lambda ga: emit * ga, grad_acc)
        return updates, ApplyEvery(count=safe_increment(state.count) % k, grad_acc=grad_acc)

    return GradientTransformation(init_fn, update_fn)


def skip_not_finite(updates: Updates, gradient_step: Any, params: Params | None) -> tuple[Any, Any]:
    """A `should_skip_update_fn` for `MultiSteps`: skip when any update is inf or nan.

    Args:
      updates: the updates of this step (a pytree).
      gradient_step: the number of gradient steps accumulated so far (``MultiSteps``'s counter).
      params: the params (unused; part of the ``should_skip_update_fn`` signature).

    Returns:
      ``(should_skip, {'should_skip': ..., 'num_not_finite': ...})``: a bool scalar and the count of
      non-finite entries.
    """
    del gradient_step, params
    bad = _count_not_finite(updates)
    skip = bad > 0
    return skip, {"should_skip": skip, "num_not_finite": bad}


def _count_not_finite(updates: Updates) -> Any:
    """The number of NaN and infinite entries over every leaf (an int32 scalar array)."""
    counts = [jnp.sum(~jnp.isfinite(leaf)) for leaf in tree_util.tree_leaves(updates)]
    if not counts:
        return jnp.asarray(0)
    return functools.reduce(operator.add, counts)


def skip_large_updates(
    updates: Updates, gradient_step: Any, params: Params | None, max_squared_norm: Any
) -> tuple[Any, Any]:
    """A `should_skip_update_fn` (bind `max_squared_norm` with `functools.partial`).

    Args:
      updates: the updates of this step (a pytree).
      gradient_step: the number of gradient steps accumulated so far (``MultiSteps``'s counter).
      params: the params (unused; part of the ``should_skip_update_fn`` signature).
      max_squared_norm: skip when the squared global norm of ``updates`` exceeds this (or is not
        finite).

    Returns:
      ``(should_skip, {'should_skip': ..., 'norm_squared': ...})``: a bool scalar, and the
      squared norm for logging.
    """
    del gradient_step, params
    norm_sq = tree.norm(updates, squared=True)
    should_skip = jnp.logical_not(norm_sq < max_squared_norm)
    return should_skip, {"should_skip": should_skip, "norm_squared": norm_sq}


def _never_skip(updates: Updates, gradient_step: Any, params: Params | None) -> tuple[Any, Any]:
    del updates, gradient_step, params
    return jnp.asarray(False, dtype=jnp.bool_), ()


class MultiSteps:
    """Gradient accumulation: run `opt` once every `every_k_schedule` calls.

    Example::

        opt = optim.MultiSteps(optim.adam(1e-3), every_k_schedule=4)
        opt_state = opt.init(params)
        updates, opt_state = opt.update(grads, opt_state, params)  # zeros 3 calls out of 4

    Args:
      opt: the inner transformation.
      every_k_schedule: `k`, or a schedule `gradient_step -> k`.
      use_grad_mean: average the accumulated gradients (else sum them).
      should_skip_update_fn: `(updates, gradient_step, params) -> (bool scalar, aux)`; a skipped
        mini-batch leaves the state unchanged (e.g. `skip_not_finite`).
      accumulator_dtype: dtype of the accumulated gradients.
    """

    def __init__(
        self,
        opt: GradientTransformation,
        every_k_schedule: int | Callable[[Any], Any],
        use_grad_mean: bool = True,
        should_skip_update_fn: Callable[..., tuple[Any, Any]] | None = None,
        accumulator_dtype: Any = jnp.float32,
    ) -> None:
        self._opt = with_extra_args_support(opt)
        if isinstance(every_k_schedule, int):
            self._every_k_schedule = lambda step: every_k_schedule
        else:
            self._every_k_schedule = every_k_schedule
        self._use_grad_mean = use_grad_mean
        self._should_skip_update_fn = should_skip_update_fn or _never_skip
        self._accumulator_dtype = accumulator_dtype

    @property
    def inner_opt(self) -> GradientTransformation:
        """The wrapped transformation."""
        return self._opt

    def init(self, params: Params) -> MultiStepsState:
        """Returns the initial `MultiStepsState`."""
        gradient_step = jnp.zeros([], dtype=jnp.int32)
        _, skip_state = self._should_skip_update_fn(tree.zeros_like(params), gradient_step, params)
        return MultiStepsState(
            mini_step=jnp.zeros([], dtype=jnp.int32),
            gradient_step=gradient_step,
            inner_opt_state=self._opt.init(params),
            acc_grads=tree.zeros_like(params, dtype=self._accumulator_dtype),
            skip_state=skip_state,
        )

    def _accumulate(self, grad: Any, acc: Any, n_acc: Any) -> Any:
        if self._use_grad_mean:
            return acc + (grad - acc) / (n_acc + 1)
        return grad + acc

    def update(
        self, updates: Updates, state: MultiStepsState, params: Params | None = None, **extra_args
    ) -> tuple[Updates, MultiStepsState]:
        """Accumulates `updates`; every k-th call applies the inner optimizer to their mean."""
        k_steps = self._every_k_schedule(state.gradient_step)
        should_skip, skip_state = self._should_skip_update_fn(updates, state.gradient_step, params)
        should_skip = jnp.asarray(should_skip)
        if should_skip.dtype != jnp.bool_ or should_skip.shape != ():
            raise SkipFunctionOutputError(
                "The `should_skip_update_fn` function should return a boolean scalar array, "
                f"but it returned an array of dtype {should_skip.dtype} and shape "
                f"{should_skip.shape}\nMultiSteps: return a scalar bool, e.g. jnp.any(...)."
            )
        acc_grads = tree_util.tree_map(
            lambda g, acc: self._accumulate(g, acc, state.mini_step), updates, state.acc_grads
        )
        inner_updates, new_inner_state = self._opt.update(
            tree.cast_like(acc_grads, updates), state.inner_opt_state, params, **extra_args
        )
        emit = state.mini_step == (k_steps - 1)
        stepped = MultiStepsState(
            mini_step=safe_increment(state.mini_step) % k_steps,
            gradient_step=jnp.where(emit, safe_increment(state.gradient_step), state.gradient_step),
            inner_opt_state=tree_util.tree_map(
                lambda old, new: jnp.where(emit, new, old).astype(old.dtype),
                state.inner_opt_state,
                new_inner_state,
            ),
            # (1 - emit) * ga and emit * u below multiply, as Optax's: a NaN or inf gradient
            # makes the emitted-zero updates and the reset accumulator NaN too
            acc_grads=tree_util.tree_map(
                lambda ga: ((1 - emit) * ga).astype(self._accumulator_dtype), acc_grads
            ),
            skip_state=skip_state,
        )
        skipped = state._replace(skip_state=skip_state)
        new_state = tree_util.tree_map(lambda s, t: jnp.where(should_skip, s, t), skipped, stepped)
        new_updates = tree_util.tree_map(
            lambda u: jnp.where(should_skip, jnp.zeros_like(u), emit * u), inner_updates
        )
        return new_updates, new_state

    def has_updated(self, state: MultiStepsState) -> Any:
        """Returns whether the last `update` call applied the inner optimizer."""
        return jnp.logical_and(state.mini_step == 0, state.gradient_step > 0)

    def gradient_transformation(self) -> GradientTransformation:
        """Returns `GradientTransformation(self.init, self.update)` for use in `chain`."""
        return GradientTransformation(init=self.init, update=self.update)
