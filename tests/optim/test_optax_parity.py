"""Known answers recorded from Optax 0.2.8 for the cases a differential run against Optax found
different (signatures, state structures, `scale_by_lion` modes, `inject_hyperparams`'s state,
`tree.sum`'s associative order, the classification losses added since)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import core.numpy as jnp
import optim
from optim import losses, projections, tree
from optim.errors import OptimizerArgumentError

GRADS = [[0.5, -2.0, 0.05], [-0.3, 1.0, 0.2]]
LION_MU = [0.00195, -0.0098, 0.002495]


@pytest.mark.parametrize(
    "mode, expected",
    [
        ("hard", [[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]]),
        ("smooth", [[0.46211717, -0.96402758, 0.04995837], [-0.28673029, 0.75306594, 0.19785579]]),
        ("refined", [[0.25, -1.0, 0.025], [-0.14750001, 0.49000001, 0.10024999]]),
    ],
)
def test_scale_by_lion_modes(mode, expected):
    tx = optim.scale_by_lion(b1=0.5, mode=mode, smooth_beta=2.0)
    state = tx.init(jnp.zeros(3))
    for g, want in zip(GRADS, expected):
        updates, state = tx.update(jnp.asarray(g, jnp.float32), state)
        np.testing.assert_allclose(np.asarray(updates), want, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(np.asarray(state.mu), LION_MU, rtol=1e-6)


def test_scale_by_lion_rejects_unknown_mode():
    with pytest.raises(OptimizerArgumentError, match="soft"):
        optim.scale_by_lion(mode="soft")


def test_inject_hyperparams_state_is_optax_0_2_8s():
    tx = optim.inject_hyperparams(optim.sgd)(
        learning_rate=optim.linear_schedule(0.1, 0.0, 4), momentum=0.5
    )
    params = {"w": jnp.asarray([1.0, 2.0])}
    state = tx.init(params)
    for _ in range(2):
        updates, state = tx.update({"w": jnp.asarray([1.0, -1.0])}, state, params)
    assert type(state).__name__ == "InjectStatefulHyperparamsState"
    assert state._fields == ("count", "hyperparams", "hyperparams_states", "inner_state")
    np.testing.assert_allclose(float(state.hyperparams["learning_rate"]), 0.075, rtol=1e-6)
    np.testing.assert_allclose(float(state.hyperparams["momentum"]), 0.5)
    ((name, schedule_state),) = state.hyperparams_states.items()
    assert (name, type(schedule_state).__name__, int(schedule_state.count)) == (
        "learning_rate",
        "WrappedScheduleState",
        2,
    )
    np.testing.assert_allclose(np.asarray(updates["w"]), [-0.1125, 0.1125], rtol=1e-6)


def test_inject_stateful_hyperparams_is_the_deprecated_name():
    with pytest.warns(DeprecationWarning):
        tx = optim.inject_stateful_hyperparams(optim.sgd)(learning_rate=0.1)
    assert isinstance(tx.init({"w": jnp.zeros(2)}), optim.InjectStatefulHyperparamsState)


def test_adabelief_chain_has_no_weight_decay():
    state = optim.adabelief(0.1).init({"w": jnp.zeros(2)})
    assert [type(s).__name__ for s in state] == ["ScaleByBeliefState", "EmptyState"]


@pytest.mark.parametrize("associative, expected", [(False, 4.0), (True, 0.0)])
def test_tree_sum_order(associative, expected):
    # 1e8 + 1 rounds to 1e8 in float32, so the order of the additions shows in the result.
    t = {
        "a": jnp.asarray([1e8, 1.0], jnp.float32),
        "b": jnp.asarray(-1e8, jnp.float32),
        "c": jnp.asarray([1.0, 3.0], jnp.float32),
    }
    assert float(tree.sum(t, associative_reduction=associative)) == expected


SCORES = [[1.0, -0.5, 2.0], [0.3, 0.3, -1.0]]
LABELS = [2, 1]
ONE_HOT = [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]


@pytest.mark.parametrize(
    "fn, args, kwargs, expected",
    [
        (losses.multiclass_hinge_loss, (SCORES, LABELS), {}, [0.0, 1.0]),
        (losses.multiclass_perceptron_loss, (SCORES, LABELS), {}, [0.0, 0.0]),
        (losses.perceptron_loss, ([0.5, -1.5, 2.0], [1.0, 1.0, -1.0]), {}, [0.0, 1.5, 2.0]),
        (
            losses.sparsemax_loss,
            ([-2.0, -0.5, 0.0, 0.5, 2.0], [1, 0, 1, 1, 0]),
            {},
            [2.0, 0.0625, 0.25, 0.0625, 2.0],
        ),
        (losses.poly_loss_cross_entropy, (SCORES, ONE_HOT), {}, [0.99219501, 1.94081879]),
        (
            losses.poly_loss_cross_entropy,
            (SCORES, ONE_HOT),
            {"epsilon": -1.0},
            [0.06121114, 0.26093233],
        ),
        (
            losses.poly_loss_cross_entropy,
            (SCORES, ONE_HOT),
            {"where": [[True, False, True], [True, True, True]]},
            [0.85114443, 1.94081879],
        ),
    ],
)
def test_added_classification_losses(fn, args, kwargs, expected):
    args = [jnp.asarray(a, jnp.int32 if isinstance(a[0], int) else jnp.float32) for a in args]
    kwargs = {k: jnp.asarray(v) for k, v in kwargs.items()}
    np.testing.assert_allclose(np.asarray(fn(*args, **kwargs)), expected, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize(
    "fn, names",
    [
        (optim.adabelief, ["learning_rate", "b1", "b2", "eps", "eps_root", "nesterov"]),
        (optim.scale_by_lion, ["b1", "b2", "mu_dtype", "mode", "smooth_beta"]),
        (tree.random_like, ["rng_key", "target_tree", "sampler", "dtype"]),
        (tree.split_key_like, ["rng_key", "target_tree"]),
        (tree.sum, ["tree", "associative_reduction"]),
        (projections.projection_box, ["tree", "lower", "upper"]),
        (projections.projection_l2_ball, ["tree", "scale"]),
        (projections.projection_non_negative, ["tree"]),
    ],
)
def test_signatures_match_optax(fn, names):
    assert list(inspect.signature(fn).parameters) == names
