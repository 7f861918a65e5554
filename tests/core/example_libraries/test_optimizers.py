"""`core.example_libraries.optimizers` against JAX's: trajectories of a few jitted steps on the
same loss and initial params, schedules, `clip_grads`/`l2_norm` (answers recorded from JAX by
`make_answers.py`), and the state (un)packing round trip."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.example_libraries import optimizers
from core.example_libraries.errors import OptimizerTreeError, ScheduleError, StepSizeTypeError
from tests.core.example_libraries.answers import ANSWERS
from tests.core.example_libraries.cases import (
    OPTIMIZER_CASES,
    run_optimizer_case,
    run_schedule_case,
    run_utils,
    schedules,
)


@pytest.mark.parametrize("index", range(len(OPTIMIZER_CASES)))
def test_trajectory_matches_jax(index):
    got = run_optimizer_case(core, jnp, optimizers, OPTIMIZER_CASES[index])
    want = ANSWERS["optimizers"][index]
    for step_got, step_want in zip(got, want, strict=True):
        for g, w in zip(step_got, step_want, strict=True):
            np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("name", sorted(schedules(optimizers)))
def test_schedule_matches_jax(name):
    np.testing.assert_allclose(
        run_schedule_case(jnp, optimizers, name), ANSWERS["schedules"][name], rtol=1e-6
    )


def test_clip_grads_and_l2_norm_match_jax():
    got, want = run_utils(core, jnp, optimizers), ANSWERS["utils"]
    np.testing.assert_allclose(got["l2_norm"], want["l2_norm"], rtol=1e-6)
    for key in ("clip_1", "clip_10"):
        for g, w in zip(got[key], want[key], strict=True):
            np.testing.assert_allclose(g, w, rtol=1e-6)


def test_state_is_a_pytree_and_round_trips_through_join_points():
    opt_init, opt_update, get_params = optimizers.adam(0.1)
    params = {"a": jnp.ones((2,)), "b": [jnp.zeros(()), jnp.full((1, 2), 3.0)]}
    state = opt_update(0, params, opt_init(params))
    assert isinstance(state, optimizers.OptimizerState)
    assert len(core.tree_util.tree_leaves(state)) == 9  # (x, m, v) per leaf
    marked = optimizers.unpack_optimizer_state(state)
    assert isinstance(marked["a"], optimizers.JoinPoint)
    x, m, v = marked["a"].subtree
    np.testing.assert_allclose(m, 0.1)  # (1 - b1) * g
    packed = optimizers.pack_optimizer_state(marked)
    assert core.tree_util.tree_structure(packed) == core.tree_util.tree_structure(state)
    for a, b in zip(core.tree_util.tree_leaves(packed), core.tree_util.tree_leaves(state)):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(get_params(packed)["b"][1], get_params(state)["b"][1])


def test_custom_optimizer_through_the_decorator():
    @optimizers.optimizer
    def halve():
        return (lambda x: (x, 0), lambda i, g, s: (s[0] / 2 + g, s[1] + 1), lambda s: s[0])

    opt_init, opt_update, get_params = halve()
    state = opt_update(0, {"w": jnp.ones(2)}, opt_init({"w": jnp.full(2, 4.0)}))
    np.testing.assert_array_equal(get_params(state)["w"], [3.0, 3.0])


def test_errors_name_the_problem():
    opt_init, opt_update, _ = optimizers.sgd(0.1)
    state = opt_init({"w": jnp.ones(2)})
    with pytest.raises(OptimizerTreeError, match="did not match the parameter tree"):
        opt_update(0, {"v": jnp.ones(2)}, state)
    with pytest.raises(TypeError):  # JAX's class
        opt_update(0, [jnp.ones(2)], state)
    with pytest.raises(ScheduleError, match="one shorter"):
        optimizers.piecewise_constant([1, 2], [0.1, 0.2])
    with pytest.raises(StepSizeTypeError, match="scalar or a callable"):
        optimizers.sgd(jnp.ones(3))
    with pytest.raises(OptimizerTreeError, match="JoinPoint"):
        optimizers.pack_optimizer_state({"w": 1.0})
