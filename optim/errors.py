"""Error classes of `optim`: one per failure, each naming the values involved and the fix.

Every class derives from the package root `OptimError` (a `core.errors.NumbaxError`) and
subclasses the matching built-in (`ValueError`, `TypeError`, `KeyError`), so plain
`except ValueError:` clauses written for Optax keep working, and every message ends with a pointer
to the class name in `optim/README.md`.
"""

from __future__ import annotations

from core.errors import NumbaxError


class OptimError(NumbaxError):
    """Root of `optim`'s errors (`except optim.errors.OptimError` catches every one of them);
    a `core.errors.NumbaxError`, like every numbax error."""

    def __init__(self, message: str) -> None:
        super().__init__(f"{message}\nSee optim/README.md#{type(self).__name__}")


class MissingParamsError(OptimError, ValueError):
    """A transformation that needs the parameters was called as `update(updates, state)`.

    Failing code::

        tx = optim.add_decayed_weights(1e-4)
        updates, state = tx.update(grads, tx.init(params))

    Fix::

        tx = optim.add_decayed_weights(1e-4)
        updates, state = tx.update(grads, tx.init(params), params)
    """

    def __init__(self, name: str) -> None:
        super().__init__(
            f"{name} needs the current parameters, but `params` was not passed to `update`. "
            "Call `tx.update(grads, opt_state, params)`."
        )


class StateMismatchError(OptimError, ValueError):
    """`update` received a state that was not produced by this transformation's `init`."""


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


class SkipFunctionOutputError(OptimError, TypeError):
    """A `MultiSteps` `should_skip_update_fn` returned something other than a boolean scalar."""


class ComplexParamsError(OptimError, TypeError):
    """A transformation that only supports real parameters received complex ones."""


class TreeKeyError(OptimError, KeyError):
    """`optim.tree.get`/`optim.tree.set` found no value (or several values) for a key."""

    def __str__(self) -> str:
        return str(self.args[0])


class TreeDtypeError(OptimError, ValueError):
    """`optim.tree.dtype` found leaves of different dtypes and no rule to combine them."""


class NormOrderError(OptimError, ValueError):
    """`optim.tree.norm` was asked for an unsupported `ord`.

    Failing code::

        optim.tree.norm(params, ord=3)

    Fix::

        optim.tree.norm(params, ord=2)  # or None, 1, "inf"
    """


class LossInputError(OptimError, TypeError):
    """A loss received inputs of the wrong dtype or shape (e.g. float labels where ints go)."""


class OptimizerArgumentError(OptimError, ValueError):
    """A transformation was built with an argument outside its domain (e.g. `sync_period < 1`,
    `memory_size < 1`, an unknown `variant` or line-search strategy)."""


class LookaheadParamsError(OptimError, TypeError):
    """`lookahead`'s `update` needs `params=LookaheadParams(fast=..., slow=...)`."""


class UnusedExtraArgsError(OptimError, TypeError):
    """A line search got keyword arguments that its `value_fn` does not accept."""


class StateValueNotFoundError(OptimError, ValueError):
    """`value_and_grad_from_state` found no `value`/`grad` in the optimizer state."""


class BatchAxisError(OptimError, ValueError):
    """Per-example or microbatched inputs disagree on their batch axis (or it does not divide
    into microbatches); also the batch checks of `ntxent` and `ctc_loss`."""


class AccumulatorError(OptimError, ValueError):
    """A microbatching accumulator cannot handle the values (e.g. MEAN on integers)."""
