"""Error classes of `optim`: one per failure, each naming the values involved and the fix.

Every class derives from the package root `OptimError` (a `core.errors.NumbaxError`) and
subclasses the matching built-in (`ValueError`, `TypeError`, `KeyError`), so plain
`except ValueError:` clauses written for Optax keep working, and every message ends with a pointer
to the class name in `optim/README.md`.
"""

from __future__ import annotations

from core.errors import NumbaxError
from optim.base import NO_PARAMS_MSG


class OptimError(NumbaxError):
    """Root of `optim`'s errors (`except optim.errors.OptimError` catches every one of them);
    a `core.errors.NumbaxError`, like every numbax error."""

    def __init__(self, message: str) -> None:
        super().__init__(f"{message}\nSee optim/README.md#{type(self).__name__}")


class MissingParamsError(OptimError, ValueError):
    """A transformation that needs the parameters got `params=None`, e.g. inside a chain called
    as `update(updates, state)`. (Called directly without them, the transformations whose Optax
    `update_fn` takes `params` as a required argument raise Python's `TypeError` for the missing
    argument, as Optax's do.)

    Failing code::

        tx = optim.adamw(1e-3)
        updates, state = tx.update(grads, tx.init(params))

    Fix::

        tx = optim.adamw(1e-3)
        updates, state = tx.update(grads, tx.init(params), params)
    """

    def __init__(self, name: str, first_line: str | None = None) -> None:
        # Optax's first line: its NO_PARAMS_MSG unless the transformation has its own
        first_line = first_line or NO_PARAMS_MSG
        super().__init__(
            f"{first_line}\n{name} needs them: call `tx.update(grads, opt_state, params)`."
        )


class StateMismatchError(OptimError, ValueError):
    """`update` received a state that was not produced by this transformation's `init`.

    Failing code::

        tx = optim.chain(optim.clip(1.0), optim.adam(1e-3))
        updates, state = tx.update(grads, optim.sgd(0.1).init(params), params)

    Fix::

        tx = optim.chain(optim.clip(1.0), optim.adam(1e-3))
        updates, state = tx.update(grads, tx.init(params), params)
    """


class DuplicateNameError(OptimError, ValueError):
    """`named_chain` got the same name twice.

    Failing code::

        optim.named_chain(("clip", optim.clip(1.0)), ("clip", optim.sgd(0.1)))

    Fix::

        optim.named_chain(("clip", optim.clip(1.0)), ("sgd", optim.sgd(0.1)))
    """


class UnknownLabelError(OptimError, ValueError):
    """`partition`/`multi_transform` found a parameter label with no transformation.

    Failing code::

        optim.multi_transform({"a": optim.sgd(0.1)}, {"w": "frozen"}).init(params)

    Fix::

        optim.multi_transform(
            {"a": optim.sgd(0.1), "frozen": optim.set_to_zero()}, {"w": "frozen"}
        ).init(params)
    """


class StaticArgsError(OptimError, ValueError):
    """`inject_hyperparams(..., static_args=...)` named arguments the factory does not take.

    Failing code::

        optim.inject_hyperparams(optim.sgd, static_args=("momentun",))(learning_rate=0.1)

    Fix::

        optim.inject_hyperparams(optim.sgd, static_args=("nesterov",))(learning_rate=0.1)
    """


class ScheduleArgumentError(OptimError, ValueError):
    """A schedule was built with arguments outside its domain (e.g. `decay_steps <= 0`).

    Failing code::

        optim.cosine_decay_schedule(1e-3, decay_steps=0)

    Fix::

        optim.cosine_decay_schedule(1e-3, decay_steps=1000)
    """


class SkipFunctionOutputError(OptimError, ValueError):
    """A `MultiSteps` `should_skip_update_fn` returned something other than a boolean scalar.

    Failing code::

        skip = lambda updates, step, params: (jnp.zeros(3, bool), {})
        tx = optim.MultiSteps(optim.sgd(0.1), 2, should_skip_update_fn=skip)
        tx.update(grads, tx.init(params), params)

    Fix::

        # a scalar bool, and a dict of values to record
        skip = lambda updates, step, params: (jnp.asarray(False), {})
        tx = optim.MultiSteps(optim.sgd(0.1), 2, should_skip_update_fn=skip)
        tx.update(grads, tx.init(params), params)
    """


class ComplexParamsError(OptimError, ValueError):
    """A transformation that only supports real parameters received complex ones (a
    `ValueError`, as Optax's).

    Failing code::

        optim.scale_by_sm3().init({"w": jnp.ones(3, jnp.complex64)})

    Fix::

        # a transformation that takes complex parameters (or split real and imaginary parts)
        optim.adam(1e-3).init({"w": jnp.ones(3, jnp.complex64)})
    """


class TreeKeyError(OptimError, KeyError):
    """`optim.tree.get`/`optim.tree.set` found no value (or several values) for a key.

    Failing code::

        state = optim.chain(optim.scale_by_adam(), optim.scale_by_adam()).init(params)
        optim.tree.get(state, "mu")  # two values named mu

    Fix::

        # list the matches, or narrow the search with `filtering`
        state = optim.chain(optim.scale_by_adam(), optim.scale_by_adam()).init(params)
        optim.tree.get_all_with_path(state, "mu")  # every match, with its path
    """

    def __str__(self) -> str:
        # the message quoted, as a KeyError shows its key (Optax's are KeyErrors), then the link
        message, _, see = str(self.args[0]).rpartition("\n")
        return f"{message!r}\n{see}"


class TreeDtypeError(OptimError, ValueError):
    """`optim.tree.dtype` found leaves of different dtypes and no rule to combine them.

    Failing code::

        optim.tree.dtype({"w": jnp.ones(2, jnp.float32), "n": jnp.ones(2, jnp.int32)})

    Fix::

        tree = {"w": jnp.ones(2, jnp.float32), "n": jnp.ones(2, jnp.int32)}
        optim.tree.dtype(tree, mixed_dtype_handler="promote")  # or "highest", "lowest"
    """


class NormOrderError(OptimError, ValueError):
    """`optim.tree.norm` was asked for an unsupported `ord`.

    Failing code::

        optim.tree.norm(params, ord=3)

    Fix::

        optim.tree.norm(params, ord=2)  # or None, 1, "inf"
    """


class UnravelInputError(OptimError, TypeError):
    """An `unravel` of `optim.tree.ravel` (as in `second_order.hvp`'s vector) got something
    that is not an array, e.g. a params-shaped tree instead of the flat vector.

    Failing code::

        flat, unravel = optim.tree.ravel(params)
        unravel(params)

    Fix::

        flat, unravel = optim.tree.ravel(params)
        unravel(flat)
    """


class LossInputError(OptimError, TypeError):
    """A loss received inputs of the wrong dtype or shape (e.g. float labels where ints go).

    Failing code::

        logits = jnp.zeros((2, 3))
        optim.softmax_cross_entropy_with_integer_labels(logits, jnp.array([0.0, 1.0]))

    Fix::

        # integer class indices; one-hot labels go to `softmax_cross_entropy`
        logits = jnp.zeros((2, 3))
        optim.softmax_cross_entropy_with_integer_labels(logits, jnp.array([0, 1]))
    """


class LossShapeError(LossInputError, ValueError):
    """A loss's predictions and targets of different shapes (Optax raises ValueError; a
    LossInputError, hence a TypeError, too).

    Failing code::

        optim.losses.squared_error(jnp.ones(2), jnp.ones(3))

    Fix::

        # arrays of one shape (broadcast or reshape them explicitly)
        optim.losses.squared_error(jnp.ones(3), jnp.ones(3))
    """


class LossArgumentError(OptimError, ValueError):
    """A loss received values outside its domain, where Optax raises ValueError: predictions
    and targets of different shapes or predictions that are not probabilities (the dice
    losses), an unknown `reduction`.

    Failing code::

        optim.losses.dice_loss(jnp.zeros((2, 4, 3)), jnp.zeros((2, 4, 2)))

    Fix::

        # one target channel per predicted class (one-hot targets)
        optim.losses.dice_loss(jnp.zeros((2, 4, 3)), jnp.eye(3)[jnp.zeros((2, 4), int)])
    """


class OptimizerArgumentError(OptimError, ValueError):
    """A transformation was built with an argument outside its domain (e.g. `sync_period < 1`,
    `memory_size < 1`, an unknown `variant` or line-search strategy).

    Failing code::

        optim.scale_by_lion(mode="soft")

    Fix::

        # a value the message lists
        optim.scale_by_lion(mode="smooth")
    """


class LookaheadParamsError(OptimError, AttributeError):
    """`lookahead`'s `update` needs `params=LookaheadParams(fast=..., slow=...)`; an
    `AttributeError` naming the missing `fast`, as Optax's attribute lookup.

    Failing code::

        tx = optim.lookahead(optim.sgd(0.1), sync_period=5, slow_step_size=0.5)
        tx.update(grads, tx.init(params), params)

    Fix::

        # keep the parameters as fast and slow copies
        tx = optim.lookahead(optim.sgd(0.1), sync_period=5, slow_step_size=0.5)
        params = optim.LookaheadParams.init_synced(params)
        updates, state = tx.update(grads, tx.init(params), params)
    """


class UnusedExtraArgsError(OptimError, TypeError):
    """A line search got keyword arguments that its `value_fn` does not accept.

    Failing code::

        f = lambda p: jnp.sum(p["w"] ** 2)
        tx = optim.scale_by_backtracking_linesearch(max_backtracking_steps=5)
        state = tx.init(params)
        tx.update(grads, state, params, value=f(params), grad=grads, value_fn=f, batch=2.0)

    Fix::

        # make `value_fn` take every extra keyword
        f = lambda p, batch: jnp.sum(p["w"] ** 2) * batch
        tx = optim.scale_by_backtracking_linesearch(max_backtracking_steps=5)
        state, value = tx.init(params), f(params, 2.0)
        tx.update(grads, state, params, value=value, grad=grads, value_fn=f, batch=2.0)
    """


class MissingLossValueError(OptimError, TypeError):
    """An optimizer whose step size uses the loss (`contrib.momo`, `contrib.momo_adam`) was
    updated without `value=`; a `TypeError`, as Optax's missing keyword argument.

    Failing code::

        tx = optim.contrib.momo()
        tx.update(grads, tx.init(params), params)

    Fix::

        # the loss at `params`, e.g. from core.value_and_grad
        tx = optim.contrib.momo()
        tx.update(grads, tx.init(params), params, value=jnp.sum(params["w"] ** 2))
    """

    def __init__(self, name: str) -> None:
        super().__init__(
            # Python's message for Optax's required keyword argument, then the fix
            f"{name}.<locals>.update_fn() missing 1 required keyword-only argument: 'value'\n"
            "Pass the latest loss: `tx.update(grads, state, params, value=loss)` with the loss "
            "from core.value_and_grad."
        )


class NotScheduleFreeStateError(OptimError, AttributeError):
    """`contrib.schedule_free_eval_params` got a state without `b1` and `z` (not a
    `ScheduleFreeState`); an `AttributeError`, as Optax's attribute lookup.

    Failing code::

        optim.contrib.schedule_free_eval_params(optim.sgd(0.1).init(params), params)

    Fix::

        # the state of the schedule-free optimizer itself
        tx = optim.contrib.schedule_free_sgd(0.1)
        optim.contrib.schedule_free_eval_params(tx.init(params), params)
    """


class NnlsShapeError(OptimError, AssertionError):
    """`nnls` got `A` that is not a matrix or `b` that does not match its rows; an
    `AssertionError`, as Optax's shape assertions.

    Failing code::

        optim.nnls(jnp.ones((3, 2)), jnp.ones(2), iters=10)

    Fix::

        # b has one entry per row of A
        optim.nnls(jnp.ones((3, 2)), jnp.ones(3), iters=10)
    """


class StateValueNotFoundError(OptimError, ValueError):
    """`value_and_grad_from_state` found no `value`/`grad` in the optimizer state.

    Failing code::

        f = lambda p: jnp.sum(p["w"] ** 2)
        optim.value_and_grad_from_state(f)(params, state=optim.sgd(0.1).init(params))

    Fix::

        # an optimizer that stores them, such as `lbfgs` or a line search with store_grad=True
        f = lambda p: jnp.sum(p["w"] ** 2)
        value, grad = optim.value_and_grad_from_state(f)(params, state=optim.lbfgs().init(params))
    """


class AggregatorStateError(OptimError, ValueError):
    """`experimental.aggregating.get_unbiased_mean_and_variance_ema` was given an optimizer
    state without the mean/variance moving averages.

    Failing code::

        state = optim.adam(0.1).init(params)
        optim.experimental.aggregating.get_unbiased_mean_and_variance_ema(state)

    Fix::

        # the state of an optimizer wrapped by add_mean_variance_to_opt
        opt = optim.experimental.aggregating.add_mean_variance_to_opt(optim.adam(0.1))
        optim.experimental.aggregating.get_unbiased_mean_and_variance_ema(opt.init(params))
    """

    def __init__(self) -> None:
        super().__init__(
            "State must have PerElementMeanAndVarianceEMAState to compute unbiased mean and "
            "variance EMA.\nWrap the optimizer with "
            "optim.experimental.aggregating.add_mean_variance_to_opt."
        )


class BatchAxisError(OptimError, ValueError):
    """Per-example or microbatched inputs disagree on their batch axis (or it does not divide
    into microbatches); also the batch checks of `ntxent` and `ctc_loss`.

    Failing code::

        optim.microbatching.micro_vmap(lambda x: x, microbatch_size=3)(jnp.ones((10, 4)))

    Fix::

        # a microbatch size that divides the batch size
        optim.microbatching.micro_vmap(lambda x: x, microbatch_size=2)(jnp.ones((10, 4)))
    """


class AccumulatorError(OptimError, ValueError):
    """A microbatching accumulator cannot handle the values (e.g. MEAN on integers).

    Failing code::

        mean = optim.microbatching.AccumulationType.MEAN
        optim.microbatching.microbatch(lambda x: x.sum(0), 0, 2, mean)(jnp.ones((4, 3), int))

    Fix::

        # floating-point values, or AccumulationType.SUM
        mean = optim.microbatching.AccumulationType.MEAN
        optim.microbatching.microbatch(lambda x: x.sum(0), 0, 2, mean)(jnp.ones((4, 3)))
    """


class CountDtypeError(OptimError, ValueError):
    """`safe_increment` (every optimizer's step counter) got a count that is neither an integer
    nor a floating-point array: a bool or complex count has no largest value to saturate at.

    Failing code::

        optim.safe_increment(jnp.asarray(1, jnp.complex64))

    Fix::

        optim.safe_increment(jnp.asarray(1, jnp.int32))
    """
