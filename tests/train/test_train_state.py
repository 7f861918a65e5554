"""TrainState: Flax's docstring numbers, pytree structure, jit, and a checkpoint round trip."""

import numpy as np
import pytest

import core
import core.numpy as jnp
import optim
from core import random, tree_util
from train import TrainState
from train.checkpoints import restore_checkpoint, save_checkpoint

# nn.Dense(2).init(jax.random.key(0), ones((1, 2))) in Flax (recorded with /opt/ref).
FLAX_KERNEL = np.array([[0.05841875, -1.166304], [-1.2072171, 0.54235715]], np.float32)
FLAX_KERNEL_AFTER = np.array([[0.05941875, -1.165304], [-1.206217, 0.54335713]], np.float32)


def _dense_apply(variables, x):
    return x @ variables["params"]["kernel"] + variables["params"]["bias"]


def _docstring_example(apply_fn, params):
    x = jnp.ones((1, 2))
    y = jnp.ones((1, 2))
    state = TrainState.create(apply_fn=apply_fn, params=params, tx=optim.adam(1e-3))

    def loss_fn(params, x, y):
        return optim.l2_loss(state.apply_fn({"params": params}, x), y).mean()

    before = loss_fn(state.params, x, y)
    grads = core.grad(loss_fn)(state.params, x, y)
    state = state.apply_gradients(grads=grads)
    return before, loss_fn(state.params, x, y), state


def test_flax_docstring_example():
    import nn  # only this test needs the module system

    model = nn.Dense(2)
    variables = model.init(random.key(0), jnp.ones((1, 2)))
    np.testing.assert_allclose(variables["params"]["kernel"], FLAX_KERNEL, rtol=1e-6)
    before, after, state = _docstring_example(model.apply, variables["params"])
    np.testing.assert_allclose(float(before), 1.8136346, rtol=1e-6)
    np.testing.assert_allclose(float(after), 1.8079796, rtol=1e-6)
    assert int(state.step) == 1


def test_flax_docstring_numbers_with_pinned_parameters():
    params = {"kernel": jnp.asarray(FLAX_KERNEL), "bias": jnp.zeros(2)}
    before, after, state = _docstring_example(_dense_apply, params)
    np.testing.assert_allclose(float(before), 1.8136346, rtol=1e-6)
    np.testing.assert_allclose(float(after), 1.8079796, rtol=1e-6)
    np.testing.assert_allclose(state.params["kernel"], FLAX_KERNEL_AFTER, rtol=1e-6)
    np.testing.assert_allclose(state.params["bias"], [0.00099999, 0.00099999], rtol=1e-5)
    assert state.opt_state[0].count == 1  # Optax-style NamedTuple state


def _linear_state(tx):
    params = {"w": jnp.asarray([[1.0], [-2.0]]), "b": jnp.asarray([0.5])}
    return TrainState.create(apply_fn=lambda p, x: x @ p["w"] + p["b"], params=params, tx=tx)


def _mse(params, state, x, y):
    return jnp.mean((state.apply_fn(params, x) - y) ** 2)


X = np.array([[1.0, 2.0], [3.0, -1.0], [0.0, 1.0]], np.float32)
Y = np.array([[1.0], [0.0], [2.0]], np.float32)


def test_apply_gradients_is_an_sgd_step_and_replaces_kwargs():
    state = _linear_state(optim.sgd(0.1))
    grads = core.grad(_mse)(state.params, state, X, Y)
    new = state.apply_gradients(grads=grads)
    for name in ("w", "b"):
        np.testing.assert_allclose(
            new.params[name], np.asarray(state.params[name]) - 0.1 * np.asarray(grads[name])
        )
    assert new.step == 1 and state.step == 0
    assert new.apply_fn is state.apply_fn and new.tx is state.tx
    with pytest.raises(TypeError):
        state.apply_gradients(grads=grads, no_such_field=1)


def test_pytree_structure():
    state = _linear_state(optim.adam(1e-2))
    paths = [tree_util.keystr(p) for p, _ in tree_util.tree_leaves_with_path(state)]
    assert paths[:3] == [".step", ".params['b']", ".params['w']"]
    assert all(p.startswith(".opt_state") for p in paths[3:])
    leaves, treedef = tree_util.tree_flatten(state)
    rebuilt = tree_util.tree_unflatten(treedef, leaves)
    assert rebuilt.apply_fn is state.apply_fn and rebuilt.tx is state.tx


def test_jitted_train_step_matches_eager():
    def train_step(state, x, y):
        grads = core.grad(_mse)(state.params, state, x, y)
        return state.apply_gradients(grads=grads)

    eager = jitted = _linear_state(optim.adam(1e-2))
    step = core.jit(train_step)
    for _ in range(3):
        eager, jitted = train_step(eager, X, Y), step(jitted, X, Y)
    assert int(jitted.step) == 3
    for a, b in zip(tree_util.tree_leaves(eager), tree_util.tree_leaves(jitted)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6, atol=1e-7)


def test_checkpoint_round_trip_then_training_continues_identically(tmp_path):
    step = core.jit(lambda s, x, y: s.apply_gradients(grads=core.grad(_mse)(s.params, s, x, y)))
    state = _linear_state(optim.adam(1e-2))
    for _ in range(2):
        state = step(state, X, Y)
    save_checkpoint(tmp_path, state, step=int(state.step))

    restored = restore_checkpoint(tmp_path, _linear_state(optim.adam(1e-2)))
    assert restored.step == 2
    for a, b in zip(tree_util.tree_leaves(state), tree_util.tree_leaves(restored)):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    uninterrupted = step(state, X, Y)
    resumed = step(restored, X, Y)
    for a, b in zip(tree_util.tree_leaves(uninterrupted), tree_util.tree_leaves(resumed)):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def test_overwrite_with_gradient_collection():
    """Flax 0.12.8: only params['params'] goes through tx; the OWG collection takes the
    gradient's value (recorded: w = [0.9, 0.8], s = [5.0], opt_state of sgd)."""
    from train.train_state import OVERWRITE_WITH_GRADIENT

    params = {"params": {"w": jnp.ones(2)}, OVERWRITE_WITH_GRADIENT: {"s": jnp.zeros(1)}}
    state = TrainState.create(apply_fn=None, params=params, tx=optim.sgd(0.1))
    assert tree_util.tree_leaves(state.opt_state) == []
    grads = {
        "params": {"w": jnp.array([1.0, 2.0])},
        OVERWRITE_WITH_GRADIENT: {"s": jnp.array([5.0])},
    }
    state = state.apply_gradients(grads=grads)
    np.testing.assert_allclose(state.params["params"]["w"], [0.9, 0.8], rtol=1e-7)
    np.testing.assert_array_equal(state.params[OVERWRITE_WITH_GRADIENT]["s"], [5.0])
    assert OVERWRITE_WITH_GRADIENT == "_overwrite_with_gradient"
