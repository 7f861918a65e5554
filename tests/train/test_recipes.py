"""The TrainState recipes: BatchNorm statistics and a dropout key, as documented."""

import numpy as np

import core
import core.numpy as jnp
import nn
import optim
from core import random, tree_util
from train import BatchStatsTrainState, DropoutTrainState
from train.checkpoints import restore_checkpoint, save_checkpoint


class Net(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool):
        x = nn.Dense(8)(x)
        x = nn.BatchNorm(use_running_average=not train, momentum=0.9)(x)
        x = nn.Dropout(0.5, deterministic=not train)(x)
        return nn.Dense(1)(x)


class State(BatchStatsTrainState, DropoutTrainState):
    pass


X = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(6, 4)
Y = np.arange(6, dtype=np.float32).reshape(6, 1)


def _create(cls=State):
    model = Net()
    variables = model.init(random.key(0), X, train=False)
    return cls.create(
        apply_fn=model.apply,
        params=variables["params"],
        batch_stats=variables["batch_stats"],
        dropout_key=random.key(1),
        tx=optim.sgd(0.1),
    )


@core.jit
def train_step(state, x, y):
    def loss_fn(params):
        out, updates = state.apply_fn(
            {"params": params, "batch_stats": state.batch_stats},
            x,
            train=True,
            mutable=["batch_stats"],
            rngs=state.rngs(),
        )
        return jnp.mean((out - y) ** 2), (out, updates)

    (_, (out, updates)), grads = core.value_and_grad(loss_fn, has_aux=True)(state.params)
    return state.apply_gradients(grads=grads, batch_stats=updates["batch_stats"]), out


def test_fields_and_helpers():
    state = _create()
    assert set(state.variables()) == {"params", "batch_stats"}
    np.testing.assert_array_equal(
        random.key_data(state.rngs()["dropout"]),
        random.key_data(random.fold_in(random.key(1), 0)),
    )
    assert set(state.rngs("noise")) == {"noise"}
    fields = {tree_util.keystr(p[:1]) for p, _ in tree_util.tree_leaves_with_path(state)}
    assert fields == {".step", ".params", ".batch_stats", ".dropout_key"}  # sgd: no opt leaves


def test_train_step_updates_batch_stats_and_draws_new_masks():
    state = _create()
    mean0 = np.asarray(state.batch_stats["BatchNorm_0"]["mean"])
    state1, out1 = train_step(state, X, Y)
    state2, out2 = train_step(state1, X, Y)
    assert int(state2.step) == 2
    mean1 = np.asarray(state1.batch_stats["BatchNorm_0"]["mean"])
    assert not np.allclose(mean0, mean1)  # the running mean moved towards the batch mean
    h = np.asarray(
        X @ np.asarray(state.params["Dense_0"]["kernel"]) + state.params["Dense_0"]["bias"]
    )
    np.testing.assert_allclose(mean1, 0.1 * h.mean(0), rtol=1e-5, atol=1e-6)
    # dropout: the masks depend on the step, and repeat for the same state
    zeroed1 = np.asarray(out1)
    _, again = train_step(state, X, Y)
    np.testing.assert_array_equal(zeroed1, np.asarray(again))
    assert not np.array_equal(np.asarray(train_step(state1, X, Y)[1]), zeroed1)
    del out2


def test_eval_uses_averages_and_needs_no_rng():
    state, _ = train_step(_create(), X, Y)
    out = state.apply_fn(state.variables(), X, train=False)
    again = state.apply_fn(state.variables(), X, train=False)
    np.testing.assert_array_equal(np.asarray(out), np.asarray(again))
    assert out.shape == (6, 1)


def test_single_recipes_and_checkpoint(tmp_path):
    model = Net()
    variables = model.init(random.key(0), X, train=False)
    bs = BatchStatsTrainState.create(
        apply_fn=model.apply,
        params=variables["params"],
        batch_stats=variables["batch_stats"],
        tx=optim.adam(1e-3),
    )
    dk = DropoutTrainState.create(
        apply_fn=model.apply, params=variables["params"], dropout_key=random.key(3), tx=optim.sgd(1)
    )
    assert not hasattr(bs, "dropout_key") and not hasattr(dk, "batch_stats")

    state, _ = train_step(_create(), X, Y)
    save_checkpoint(tmp_path, state, step=1)
    restored = restore_checkpoint(tmp_path, _create())
    for a, b in zip(tree_util.tree_leaves(state), tree_util.tree_leaves(restored)):
        # the dropout key comes back a key array
        assert isinstance(a, random.PRNGKeyArray) == isinstance(b, random.PRNGKeyArray)
        np.testing.assert_array_equal(*optim.tree_utils.tree_unwrap_random_key_data([a, b]))
