"""Errors of `core.example_libraries`, one class per failure, each a subclass of the built-in
exception JAX raises in the same place (so ported `except ValueError:` clauses still match)."""

from __future__ import annotations

from core.errors import NumbaxError


class DropoutRngError(NumbaxError, ValueError):
    """`stax.Dropout`'s `apply_fun` was called without `rng=key`.

    Failing code: ``apply_fun(params, x)`` of ``stax.serial(stax.Dense(8), stax.Dropout(0.9))``.
    Fix: ``apply_fun(params, x, rng=random.key(0))``.
    """

    def __init__(self) -> None:
        super().__init__(
            "Dropout layer requires apply_fun to be called with a PRNG key argument: instead "
            "of `apply_fun(params, inputs)`, call `apply_fun(params, inputs, rng=key)` with a "
            "key from `core.random.key`."
        )


class OptimizerTreeError(NumbaxError, TypeError):
    """An optimizer's gradients (or its per-leaf update's output) do not have the structure of
    the parameters (state) it was initialized with.

    Failing code: ``update(0, {"w": g}, opt_init({"w": w, "b": b}))``. Fix: pass gradients of
    the whole parameter tree, e.g. ``grad(loss)(get_params(state), batch)``.
    """


class ScheduleError(NumbaxError, ValueError):
    """A learning-rate schedule got arguments of the wrong shape.

    Failing code: ``optimizers.piecewise_constant([100, 200], [1e-3, 1e-4])``. Fix: one more
    value than boundaries, ``piecewise_constant([100, 200], [1e-3, 1e-4, 1e-5])``.
    """


class StepSizeTypeError(NumbaxError, TypeError):
    """A step size that is neither a scalar nor a schedule (a callable of the step).

    Failing code: ``optimizers.sgd(jnp.ones(3))``. Fix: a scalar (``sgd(1e-3)``) or a
    schedule (``sgd(optimizers.exponential_decay(1e-3, 1000, 0.9))``).
    """

    def __init__(self, value: object) -> None:
        super().__init__(
            f"step_size must be a scalar or a callable mapping the step index to a scalar, got "
            f"{type(value).__name__} of shape {getattr(value, 'shape', None)}."
        )
