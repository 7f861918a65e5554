"""Tier-2 optimizers, transformations and wrappers against answers recorded from Optax 0.2.8:
parameters and every state field after a few steps (`optax_cases.py` explains the runs), the
Optax errors, and a few of them under `core.jit`."""

from __future__ import annotations

import numpy as np
import pytest

import core
import core.numpy as jnp
import optim
from tests.optim.cases import CURVATURE, TARGET
from tests.optim.optax_answers import ANSWERS
from tests.optim.optax_cases import CASES, INIT, state_to_py, to_np

NAMESPACE = {n: getattr(optim, n) for n in optim.__all__}
NAMESPACE.update(jnp=jnp, tree=optim.tree)


def loss(p):
    return sum(
        jnp.sum(
            0.5
            * jnp.asarray(CURVATURE[k], jnp.float32)
            * (p[k] - TARGET[k].astype(np.float32)) ** 2
        )
        for k in p
    )


def run_case(expr: str, mode: str, steps: int, step_fn=None):
    tx = eval(expr, NAMESPACE)
    params = {k: jnp.asarray(v) for k, v in to_np(INIT).items()}
    if mode == "lookahead":
        params = optim.LookaheadParams.init_synced(params)
    state = tx.init(params)

    def step(params, state):
        fast = params.fast if mode == "lookahead" else params
        value, grads = core.value_and_grad(loss)(fast)
        extra = {}
        if mode == "value":
            extra = {"value": value}
        elif mode == "linesearch":
            extra = {"value": value, "grad": grads, "value_fn": loss}
        updates, state = tx.update(grads, state, params, **extra)
        return optim.apply_updates(params, updates), state

    step = step_fn(step) if step_fn is not None else step
    for _ in range(steps):
        params, state = step(params, state)
    return params, state


def _is_numeric(x) -> bool:
    return isinstance(x, (int, float)) or (isinstance(x, list) and all(_is_numeric(v) for v in x))


def assert_tree_close(ours, expected, path="", rtol=2e-5, atol=2e-6):
    if isinstance(expected, dict):
        assert isinstance(ours, dict), f"{path}: expected a dict/NamedTuple, got {ours!r}"
        assert list(ours) == list(expected), f"{path}: fields {list(ours)} != {list(expected)}"
        for k in expected:
            assert_tree_close(ours[k], expected[k], f"{path}.{k}", rtol, atol)
    elif isinstance(expected, str):
        assert ours == expected, f"{path}: {ours!r} != {expected!r}"
    elif isinstance(expected, list) and not _is_numeric(expected):
        assert len(ours) == len(expected), path
        for i, (a, b) in enumerate(zip(ours, expected)):
            assert_tree_close(a, b, f"{path}[{i}]", rtol, atol)
    elif expected is None:
        assert ours is None, path
    else:
        np.testing.assert_allclose(ours, expected, rtol=rtol, atol=atol, err_msg=path)


# Rprop and the line searches branch on float comparisons, so they get a looser tolerance for
# the accumulated float32 differences (the branches taken are checked by the step counts).
LOOSE = {
    "lbfgs": 1e-4,
    "zoom": 1e-4,
    "zoom_overshoot": 1e-4,
    "backtracking_grad": 1e-4,
    "dog": 1e-4,
}


@pytest.mark.filterwarnings("ignore:`optimistic_adam` is deprecated:DeprecationWarning")
@pytest.mark.parametrize("case_id, expr, mode, steps", CASES, ids=[c[0] for c in CASES])
def test_matches_optax(case_id, expr, mode, steps):
    params, state = run_case(expr, mode, steps)
    expected = ANSWERS[case_id]
    tol = LOOSE.get(case_id, 2e-5)
    assert_tree_close(state_to_py(params), expected["params"], "params", tol, tol / 10)
    assert_tree_close(state_to_py(state), expected["state"], "state", tol, tol / 10)


@pytest.mark.parametrize(
    "case_id", ["adan", "rprop", "lookahead", "backtracking", "zoom_overshoot", "polyak_sgd"]
)
def test_under_jit(case_id):
    _, expr, mode, steps = next(c for c in CASES if c[0] == case_id)
    params, state = run_case(expr, mode, steps, step_fn=core.jit)
    tol = LOOSE.get(case_id, 2e-5)
    assert_tree_close(state_to_py(params), ANSWERS[case_id]["params"], "params", tol, tol / 10)
    assert_tree_close(state_to_py(state), ANSWERS[case_id]["state"], "state", tol, tol / 10)


P = {"w": jnp.asarray([[1.0, 2.0]]), "b": jnp.asarray([0.5])}


@pytest.mark.parametrize(
    "build",
    [
        lambda: optim.lookahead(optim.sgd(0.1), sync_period=0, slow_step_size=0.5),
        lambda: optim.scale_by_lbfgs(memory_size=0),
    ],
    ids=["lookahead_period", "lbfgs_memory"],
)
def test_constructor_errors(build):
    with pytest.raises(optim.errors.OptimizerArgumentError):
        build()


@pytest.mark.parametrize(
    "tx, kwargs, error",
    [
        (optim.adaptive_grad_clip(0.1), {}, TypeError),
        (optim.scale_by_lbfgs(), {}, TypeError),
        (
            optim.scale_by_polyak(variant="bad"),
            {"params": P, "value": 1.0},
            optim.errors.OptimizerArgumentError,
        ),
        (optim.lookahead(optim.sgd(0.1), 2, 0.5), {"params": P}, optim.errors.LookaheadParamsError),
        (
            optim.scale_by_backtracking_linesearch(3),
            {"params": P, "value": 1.0, "grad": P, "value_fn": lambda p: 0.0, "batch": 1},
            optim.errors.UnusedExtraArgsError,
        ),
    ],
    ids=["agc_params", "lbfgs_params", "polyak_variant", "lookahead_params", "ls_extra_arg"],
)
def test_update_errors(tx, kwargs, error):
    state = tx.init(P)
    with pytest.raises(error):
        tx.update(P, state, **kwargs)


def test_optimistic_adam_is_deprecated_and_rejects_schedules():
    with pytest.warns(DeprecationWarning):
        optim.optimistic_adam(0.1)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="schedules"):
        optim.optimistic_adam(optim.constant_schedule(0.1))


def test_value_and_grad_from_state_of_a_constant_function():
    # A function returning a Python float, on a fresh state (value inf: recomputed); Optax
    # 0.2.8 gives Array(1., float32, weak_type=True) and zero gradients (its cond makes arrays).
    params = jnp.asarray([1.0, 2.0])
    state = optim.scale_by_backtracking_linesearch(5, store_grad=True).init(params)
    value, grad = optim.value_and_grad_from_state(lambda p: 1.0)(params, state=state)
    assert value.dtype == jnp.float32 and float(value) == 1.0
    np.testing.assert_array_equal(grad, [0.0, 0.0])


def test_value_and_grad_from_state_reuses_the_stored_value():
    f = lambda x: jnp.sum(x**2)  # noqa: E731
    tx = optim.chain(optim.sgd(1.0), optim.scale_by_backtracking_linesearch(15, store_grad=True))
    value_and_grad = optim.value_and_grad_from_state(f)
    params = jnp.asarray([1.0, 2.0, 3.0])
    state = tx.init(params)
    values = []
    for _ in range(5):
        value, grad = value_and_grad(params, state=state)
        updates, state = tx.update(grad, state, params, value=value, grad=grad, value_fn=f)
        params = optim.apply_updates(params, updates)
        values.append(float(f(params)))
        # The stored value is the objective at the new params: reused, not recomputed.
        assert float(value_and_grad(params, state=state)[0]) == pytest.approx(values[-1])
    # Optax's docstring example.
    np.testing.assert_allclose(values, [5.04, 1.81, 0.653, 0.235, 0.0847], rtol=5e-3)
    with pytest.raises(optim.errors.StateValueNotFoundError, match="not found"):
        value_and_grad(params, state=optim.sgd(0.1).init(params))


def test_scale_gradient():
    f = lambda x: jnp.sum(optim.scale_gradient({"a": x * x}, 3.0)["a"])  # noqa: E731
    x = jnp.asarray([1.0, 2.0])
    np.testing.assert_allclose(core.grad(f)(x), [6.0, 12.0])
    assert float(f(x)) == 5.0
    g0 = core.grad(lambda x: jnp.sum(optim.scale_gradient(x, 0.0) * x))(x)
    np.testing.assert_allclose(g0, [1.0, 2.0])


def test_scale_gradient_of_a_tree_with_none():
    # Optax 0.2.8 (JAX 0.10.2): a None leaf passes through, its neighbours' gradients scale
    def f(x):
        return jnp.sum(optim.scale_gradient({"a": x * x, "b": None}, 3.0)["a"])

    x = jnp.asarray([1.0, 2.0])
    np.testing.assert_array_equal(core.grad(f)(x), [6.0, 12.0])
    np.testing.assert_array_equal(core.jit(core.grad(f))(x), [6.0, 12.0])
    assert optim.scale_gradient({"a": x, "b": None}, 3.0)["b"] is None


def test_per_example_clips():
    grads = {
        "w": jnp.asarray([[[3.0, 4.0]], [[0.3, 0.4]], [[0.0, 6.0]]]),
        "b": jnp.asarray([[0.0], [0.5], [8.0]]),
    }
    # Recorded from Optax 0.2.8.
    clipped, num = optim.per_example_global_norm_clip(grads, 1.0)
    np.testing.assert_allclose(clipped["w"], [[0.90000004, 1.8000001]], rtol=1e-6)
    np.testing.assert_allclose(clipped["b"], [1.3], rtol=1e-6)
    assert int(num) == 2
    clipped, nums = optim.per_example_layer_norm_clip(grads, 2.0)
    np.testing.assert_allclose(clipped["w"], [[1.1485281, 2.9455843]], rtol=1e-6)
    np.testing.assert_allclose(clipped["b"], [1.9142135], rtol=1e-6)
    assert (int(nums["w"]), int(nums["b"])) == (2, 1)
    clipped, nums = optim.per_example_layer_norm_clip(grads, 2.0, uniform=False)
    np.testing.assert_allclose(clipped["w"], [[1.2797959, 3.339388]], rtol=1e-6)
    np.testing.assert_allclose(clipped["b"], [1.6547005], rtol=1e-6)
    with pytest.raises(optim.errors.BatchAxisError, match="batch dimension"):
        optim.per_example_global_norm_clip({"a": jnp.ones((2, 3)), "b": jnp.ones((3,))}, 1.0)
