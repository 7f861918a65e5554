"""Optax 0.2.8's exception class (the built-in one a caller catches) and first line for the
same mistakes, recorded with /opt/ref (JAX 0.10, Optax 0.2.8); numbax's errors keep that
line first and add the fix below it."""

import ast

import pytest

import core.numpy as jnp
import optim
from optim import errors

PARAMS = {"w": jnp.ones(3)}


def _chain_with_a_foreign_state():
    tx = optim.chain(optim.clip(1.0), optim.adam(1e-3))
    tx.update(PARAMS, optim.sgd(0.1).init(PARAMS), PARAMS)


def _skip_returning_a_vector():
    tx = optim.MultiSteps(
        optim.sgd(0.1), 2, should_skip_update_fn=lambda u, s, p: (jnp.zeros(3, bool), {})
    )
    tx.update(PARAMS, tx.init(PARAMS), PARAMS)


def _value_from_a_state_without_it():
    f = lambda p: jnp.sum(p["w"] ** 2)  # noqa: E731
    optim.value_and_grad_from_state(f)(PARAMS, state=optim.sgd(0.1).init(PARAMS))


def _mean_of_integers():
    mean = optim.microbatching.AccumulationType.MEAN
    optim.microbatching.microbatch(lambda x: x.sum(0), 0, 2, mean)(jnp.ones((4, 3), int))


def _aggregates_of_adam():
    state = optim.adam(0.1).init(PARAMS)
    optim.experimental.aggregating.get_unbiased_mean_and_variance_ema(state)


def _lion_mode():
    tx = optim.scale_by_lion(mode="soft")
    tx.update(PARAMS, tx.init(PARAMS))


CASES = [
    (_chain_with_a_foreign_state, errors.StateMismatchError, ValueError,
     "The number of updates and states has to be the same in chain! Make sure you have "
     "called init first!"),
    (_skip_returning_a_vector, errors.SkipFunctionOutputError, ValueError,
     "The `should_skip_update_fn` function should return a boolean scalar array, but it "
     "returned an array of dtype bool and shape (3,)"),
    (_value_from_a_state_without_it, errors.StateValueNotFoundError, ValueError,
     "Value or gradient not found in the state. Make sure that these values are stored in "
     "the state by the optimizer."),
    (_mean_of_integers, errors.AccumulatorError, ValueError,
     "MEAN and RUNNING_MEAN Accumulators require floating-point values."),
    (_aggregates_of_adam, errors.AggregatorStateError, ValueError,
     "State must have PerElementMeanAndVarianceEMAState to compute unbiased mean and "
     "variance EMA."),
    (_lion_mode, errors.OptimizerArgumentError, ValueError,
     'Unknown lion mode: soft. It needs to be one of ["hard", "smooth", "refined"].'),
]  # fmt: skip


@pytest.mark.parametrize("fn,cls,builtin,first_line", CASES, ids=[c[0].__name__ for c in CASES])
def test_first_line_and_class_are_optaxs(fn, cls, builtin, first_line):
    with pytest.raises(cls) as info:
        fn()
    assert isinstance(info.value, builtin)
    assert str(info.value).splitlines()[0] == first_line


def _sets(line: str) -> list:
    return [ast.literal_eval(part[: part.index("}") + 1]) for part in line.split(": ")[1:]]


def test_inject_hyperparams_static_args_line_is_optaxs():
    # Optax prints two sets (in hash order): compared as sets
    optax_line = (
        "`static_args` must specify a subset of `inner_factory`'s parameters. Given "
        "`static_args`: {'momentun'}. `inner_factory` parameters: {'momentum', "
        "'accumulator_dtype', 'learning_rate', 'nesterov'}"
    )
    with pytest.raises(errors.StaticArgsError) as info:
        optim.inject_hyperparams(optim.sgd, static_args=("momentun",))(learning_rate=0.1)
    line = str(info.value).splitlines()[0]
    assert line.split(": ")[0] == optax_line.split(": ")[0]
    assert _sets(line) == _sets(optax_line)
