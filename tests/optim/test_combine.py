"""Combinators and wrappers: chain, named_chain, masked, partition, freeze, inject_hyperparams,
MultiSteps, apply_if_finite; and states as pytrees (tree_map, jit, checkpoint round trip)."""

from __future__ import annotations

import collections

import numpy as np
import pytest

import core
import core.numpy as jnp
import optim
from core import tree_util
from tests.optim import cases

P = {"w": np.array([[1.0, 2.0], [-0.5, 0.25]]), "b": np.array([-1.0, 2.0])}
G = {"w": np.array([[3.0, -4.0], [1.0, 2.0]]), "b": np.array([1.0, 0.5])}


def _j(t, dtype=np.float32):
    return {k: jnp.asarray(np.asarray(v, dtype)) for k, v in t.items()}


def _n(t):
    return {k: np.asarray(v) for k, v in t.items()}


def _run(tx, steps=3, grads=None, dtype=np.float32):
    params = _j(P, dtype)
    state = tx.init(params)
    for i in range(steps):
        g = _j(G if grads is None else grads(i), dtype)
        updates, state = tx.update(g, state, params)
        params = optim.apply_updates(params, updates)
    return _n(params), state


def _close(a, b, rtol=1e-6, atol=1e-7):
    for k in b:
        np.testing.assert_allclose(a[k], b[k], rtol=rtol, atol=atol, err_msg=k)


def test_chain_threads_updates_and_collects_states():
    tx = optim.chain(optim.scale_by_adam(), optim.scale(-0.1))
    params, state = _run(tx)
    _close(params, _run(optim.adam(0.1))[0])
    assert isinstance(state[0], optim.ScaleByAdamState) and state[1] == optim.EmptyState()


def test_named_chain_state_is_keyed_by_name():
    tx = optim.named_chain(("adam", optim.scale_by_adam()), ("lr", optim.scale(-0.1)))
    params, state = _run(tx)
    _close(params, _run(optim.adam(0.1))[0])
    assert list(state) == ["adam", "lr"] and int(state["adam"].count) == 3
    # an OrderedDict, as Optax's: its leaves keep the chain's order (a dict's sort by name)
    z = optim.named_chain(("z", optim.scale_by_adam()), ("a", optim.trace(0.9))).init(P)
    assert type(z) is collections.OrderedDict
    assert [k[0].key for k, _ in tree_util.tree_flatten_with_path(z)[0]][0] == "z"


def test_masked_applies_inner_only_where_true():
    tx = optim.masked(optim.sgd(0.1, momentum=0.9), {"w": True, "b": False})
    params, state = _run(tx, steps=2)
    ref, _ = _run(optim.sgd(0.1, momentum=0.9), steps=2)
    np.testing.assert_allclose(params["w"], ref["w"], rtol=1e-6)
    np.testing.assert_allclose(params["b"], P["b"] + 2 * G["b"], rtol=1e-6)  # raw updates
    assert isinstance(state.inner_state[0].trace["b"], optim.MaskedNode)
    # A callable mask and a single bool covering the whole tree.
    params2, _ = _run(
        optim.masked(optim.sgd(0.1, momentum=0.9), lambda p: {"w": True, "b": False}), 2
    )
    _close(params2, params)
    params3, _ = _run(optim.masked(optim.sgd(0.1), True), 2)
    _close(params3, _run(optim.sgd(0.1), 2)[0])


def test_partition_gives_each_group_its_transformation():
    labels = {"w": "adam", "b": "sgd"}
    tx = optim.partition({"adam": optim.adam(0.1), "sgd": optim.sgd(0.5)}, labels)
    params, state = _run(tx)
    np.testing.assert_allclose(params["w"], _run(optim.adam(0.1))[0]["w"], rtol=1e-6)
    np.testing.assert_allclose(params["b"], _run(optim.sgd(0.5))[0]["b"], rtol=1e-6)
    assert set(state.inner_states) == {"adam", "sgd"}
    assert optim.multi_transform is optim.partition
    params2, _ = _run(optim.multi_transform({"adam": optim.adam(0.1), "sgd": optim.sgd(0.5)},
                                            lambda p: labels))  # fmt: skip
    _close(params2, params)


def test_freeze_and_selective_transform():
    params, _ = _run(optim.chain(optim.freeze({"w": False, "b": True}), optim.sgd(0.1)))
    np.testing.assert_array_equal(params["b"], P["b"].astype(np.float32))
    np.testing.assert_allclose(params["w"], P["w"] - 0.3 * G["w"], rtol=1e-6)
    params, _ = _run(optim.selective_transform(optim.sgd(0.1), freeze_mask={"w": False, "b": True}))
    np.testing.assert_array_equal(params["b"], P["b"].astype(np.float32))
    np.testing.assert_allclose(params["w"], P["w"] - 0.3 * G["w"], rtol=1e-6)


def test_inject_hyperparams_matches_the_plain_optimizer():
    # In float64: in float32, `1 - b1` rounds differently for a Python float and for a float32
    # array, which moves the result by ~1e-6 (optax#1532).
    with core.enable_x64():
        tx = optim.inject_hyperparams(optim.adam)(learning_rate=0.1, b1=0.8)
        params, _ = _run(tx, steps=10, dtype=np.float64)
        expected, _ = _run(optim.adam(0.1, b1=0.8), steps=10, dtype=np.float64)
    _close(params, expected, rtol=1e-12, atol=1e-12)
    tx = optim.inject_hyperparams(optim.adam)(learning_rate=0.1, b1=0.8)
    params, state = _run(tx, steps=10)
    _close(params, _run(optim.adam(0.1, b1=0.8), steps=10)[0], rtol=1e-5, atol=1e-5)
    assert isinstance(state, optim.InjectStatefulHyperparamsState)
    assert set(state.hyperparams) >= {"learning_rate", "b1", "b2", "eps"}
    lr = state.hyperparams["learning_rate"]
    assert lr.dtype == jnp.float32 and lr.shape == () and np.isclose(float(lr), 0.1)
    assert int(state.count) == 10 and int(state.inner_state[0].count) == 10


def test_inject_hyperparams_schedule_uses_the_count():
    schedule = optim.linear_schedule(1.0, 0.0, 10)
    tx = optim.inject_hyperparams(optim.sgd)(learning_rate=schedule)
    state = tx.init(_j(P))
    np.testing.assert_allclose(float(state.hyperparams["learning_rate"]), 1.0)
    for n in range(3):
        updates, state = tx.update(_j(G), state, _j(P))
        np.testing.assert_allclose(float(state.hyperparams["learning_rate"]), float(schedule(n)))
        np.testing.assert_allclose(
            np.asarray(updates["w"]), -float(schedule(n)) * G["w"], rtol=1e-6
        )


def test_inject_hyperparams_are_settable_without_recompiling():
    tx = optim.inject_hyperparams(optim.sgd)(learning_rate=0.1, momentum=0.9)
    step = core.jit(lambda g, s, p: tx.update(g, s, p))
    state = tx.init(_j(P))
    updates, state = step(_j(G), state, _j(P))
    np.testing.assert_allclose(np.asarray(updates["b"]), -0.1 * G["b"], rtol=1e-6)
    state.hyperparams["learning_rate"] = jnp.asarray(0.01, jnp.float32)
    state = optim.tree.set(state, momentum=jnp.asarray(0.0, jnp.float32))
    compiles = core.compile_count()
    updates, state = step(_j(G), state, _j(P))
    assert core.compile_count() == compiles
    np.testing.assert_allclose(np.asarray(updates["b"]), -0.01 * G["b"], rtol=1e-6)


def _regression_grads(w, x, y):
    """Mean gradient of 0.5 * (x @ w - y)**2 over the rows of x."""
    return {"w": x.T @ (x @ w - y) / len(x)}


def test_multi_steps_equals_one_step_on_the_k_times_larger_batch():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(8, 3)), rng.normal(size=8)
    k = 4
    big = optim.adam(0.1)
    acc = optim.MultiSteps(optim.adam(0.1), every_k_schedule=k)
    w_big = w_acc = {"w": jnp.asarray(np.zeros(3, np.float32))}
    s_big, s_acc = big.init(w_big), acc.init(w_acc)
    for _ in range(2):
        g = _regression_grads(np.asarray(w_big["w"], np.float64), x, y)
        u, s_big = big.update(_j(g), s_big, w_big)
        w_big = optim.apply_updates(w_big, u)
        for i in range(k):
            rows = slice(2 * i, 2 * i + 2)
            g = _regression_grads(np.asarray(w_acc["w"], np.float64), x[rows], y[rows])
            u, s_acc = acc.update(_j(g), s_acc, w_acc)
            w_acc = optim.apply_updates(w_acc, u)
            assert bool(acc.has_updated(s_acc)) == (i == k - 1)
            if i < k - 1:
                np.testing.assert_array_equal(np.asarray(u["w"]), 0.0)
        np.testing.assert_allclose(np.asarray(w_acc["w"]), np.asarray(w_big["w"]), rtol=1e-5)
    assert int(s_acc.gradient_step) == 2 and int(s_acc.mini_step) == 0
    assert isinstance(s_acc, optim.MultiStepsState)
    tx = acc.gradient_transformation()
    assert isinstance(tx, optim.GradientTransformation) and tx.init(w_acc).mini_step.shape == ()


def test_multi_steps_skips_non_finite_minibatches():
    acc = optim.MultiSteps(optim.sgd(1.0), 2, should_skip_update_fn=optim.skip_not_finite)
    w = {"w": jnp.zeros(2)}
    state = acc.init(w)
    _, state = acc.update({"w": jnp.asarray([1.0, 1.0])}, state, w)
    _, state = acc.update({"w": jnp.asarray([np.nan, 1.0])}, state, w)  # skipped
    assert int(state.mini_step) == 1 and int(state.skip_state["num_not_finite"]) == 1
    u, state = acc.update({"w": jnp.asarray([3.0, 3.0])}, state, w)
    np.testing.assert_allclose(np.asarray(u["w"]), [-2.0, -2.0])


def test_apply_if_finite_skips_bad_steps_and_keeps_the_state():
    tx = optim.apply_if_finite(optim.sgd(1.0, momentum=0.5), max_consecutive_errors=1)
    w = {"w": jnp.zeros(2)}
    state = tx.init(w)
    u, state = tx.update({"w": jnp.asarray([1.0, 1.0])}, state, w)
    trace = np.asarray(state.inner_state[0].trace["w"])
    u, state = tx.update({"w": jnp.asarray([np.inf, 1.0])}, state, w)
    np.testing.assert_array_equal(np.asarray(u["w"]), [0.0, 0.0])
    np.testing.assert_array_equal(np.asarray(state.inner_state[0].trace["w"]), trace)
    assert not bool(state.last_finite) and int(state.notfinite_count) == 1
    u, state = tx.update({"w": jnp.asarray([np.nan, 1.0])}, state, w)  # 2 > 1 in a row: applied
    assert np.isnan(np.asarray(u["w"])[0]) and int(state.total_notfinite) == 2
    u, state = tx.update({"w": jnp.asarray([1.0, 1.0])}, state, w)
    assert bool(state.last_finite) and int(state.notfinite_count) == 0


# ------------------------------------------------------------------ states are pytrees

STATE_CASES = sorted({name for name, *_ in cases.TRAJECTORY_CASES}) + ["masked", "inject", "multi"]


def _optimizer(name):
    if name == "masked":
        return optim.adamw(0.1, mask={"w": True, "b": False})
    if name == "inject":
        return optim.inject_hyperparams(optim.adam)(
            learning_rate=optim.linear_schedule(0.1, 0.0, 5)
        )
    if name == "multi":
        return optim.MultiSteps(optim.adam(0.1), 2)
    kwargs = {"learning_rate": 0.1} if name not in ("adadelta", "adafactor") else {}
    return getattr(optim, name)(**kwargs)


@pytest.mark.parametrize("name", STATE_CASES)
def test_state_is_a_pytree_that_survives_tree_map_jit_and_a_checkpoint(name, tmp_path):
    tx = _optimizer(name)
    params = _j(P)
    state = tx.init(params)
    _, state = tx.update(_j(G), state, params)
    leaves, treedef = tree_util.tree_flatten(state)
    rebuilt = tree_util.tree_unflatten(treedef, leaves)
    assert type(rebuilt) is type(state) and tree_util.tree_structure(rebuilt) == treedef
    mapped = tree_util.tree_map(lambda x: x, state)
    assert tree_util.tree_structure(mapped) == treedef
    through_jit = core.jit(lambda s: s)(state)
    assert tree_util.tree_structure(through_jit) == treedef
    # Checkpoint round trip: plain numbers on disk (a typed PRNG key, as add_noise keeps one, as
    # its data: numpy refuses keys, as with JAX), restored against the structure.
    keys = [jnp.issubdtype(x.dtype, core.dtypes.prng_key) for x in leaves]
    np.savez(tmp_path / "state.npz", *[np.asarray(_data(x)) for x in leaves])
    with np.load(tmp_path / "state.npz") as data:
        restored = tree_util.tree_unflatten(
            treedef,
            [
                core.random.wrap_key_data(data[f"arr_{i}"]) if k else jnp.asarray(data[f"arr_{i}"])
                for i, k in enumerate(keys)
            ],
        )
    u1, s1 = tx.update(_j(G), state, params)
    u2, s2 = tx.update(_j(G), restored, params)
    _close(_n(u2), _n(u1), rtol=0, atol=0)
    for a, b in zip(tree_util.tree_leaves(s1), tree_util.tree_leaves(s2)):
        np.testing.assert_array_equal(np.asarray(_data(a)), np.asarray(_data(b)))


def _data(x):
    """A typed PRNG key's data, any other leaf as it is."""
    return core.random.key_data(x) if jnp.issubdtype(x.dtype, core.dtypes.prng_key) else x


@pytest.mark.parametrize(
    "tx",
    [
        optim.MultiSteps(optim.adam(0.1), 3).gradient_transformation(),
        optim.apply_if_finite(optim.sgd(0.1, momentum=0.9), 2),
        optim.inject_hyperparams(optim.adamw)(learning_rate=optim.cosine_decay_schedule(0.1, 5)),
        optim.partition({"a": optim.adam(0.1), "b": optim.lamb(0.1)}, {"w": "a", "b": "b"}),
    ],
    ids=["multi_steps", "apply_if_finite", "inject", "partition"],
)
def test_wrappers_trace_under_jit_like_eager(tx):
    step = core.jit(tx.update)
    grads = [G, {"w": G["w"], "b": np.array([np.nan, 1.0])}, G, G, G]
    params = _j(P)
    eager_state, jit_state = tx.init(params), tx.init(params)
    for i, g in enumerate(grads):
        u_eager, eager_state = tx.update(_j(g), eager_state, params)
        u_jit, jit_state = step(_j(g), jit_state, params)
        if i == 1:
            compiles = core.compile_count()
        _close(_n(u_jit), _n(u_eager), rtol=1e-6, atol=1e-7)
    assert core.compile_count() == compiles
    for a, b in zip(tree_util.tree_leaves(jit_state), tree_util.tree_leaves(eager_state)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)
