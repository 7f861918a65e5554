"""Data-parallel training with `pmap` on replicated state (Flax's recipe): a TrainState and
BatchNorm statistics replicated over 4 devices (`train.jax_utils.replicate`), each device taking
a quarter of the batch, gradients `pmean`'ed and BatchNorm statistics synchronised through
`axis_name`, give the same parameters, optimizer state, statistics and loss as one device taking
the whole batch; `unreplicate` brings the state back to one device. The layer before BatchNorm
has no bias: its gradient would be zero, and Adam turns the rounding noise of a zero gradient
into full-size steps that differ between the two runs."""

import numpy as np

import core
import core.numpy as jnp
import nn
import optim
from core import lax
from train import TrainState, jax_utils

N_DEVICES = 4


class MLP(nn.Module):
    axis_name: str | None = None

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(16, use_bias=False)(x.reshape((x.shape[0], -1)))
        x = nn.BatchNorm(use_running_average=False, axis_name=self.axis_name)(x)
        return nn.Dense(10)(nn.relu(x))


def _train_step(axis_name):
    def step(state, batch_stats, images, labels):
        def loss_fn(params):
            logits, updates = state.apply_fn(
                {"params": params, "batch_stats": batch_stats}, images, mutable=["batch_stats"]
            )
            loss = optim.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
            return loss, updates["batch_stats"]

        (loss, stats), grads = core.value_and_grad(loss_fn, has_aux=True)(state.params)
        if axis_name is not None:
            grads, loss = lax.pmean((grads, loss), axis_name)
        return state.apply_gradients(grads=grads), stats, loss

    return step


def _setup():
    rng = np.random.default_rng(0)
    images = rng.normal(size=(2, 8, 6, 6, 1)).astype(np.float32)  # 2 steps of global batch 8
    labels = rng.integers(0, 10, size=(2, 8)).astype(np.int32)
    variables = MLP().init(core.random.key(0), jnp.ones((1, 6, 6, 1)))
    return images, labels, variables["params"], variables["batch_stats"]


def test_pmapped_step_equals_one_device_on_the_global_batch():
    images, labels, params, stats = _setup()
    tx = optim.adam(1e-2)
    single_state = TrainState.create(apply_fn=MLP().apply, params=params, tx=tx)
    single_stats = stats
    single = core.jit(_train_step(None))

    devices = core.local_devices()[:N_DEVICES]
    state = TrainState.create(apply_fn=MLP(axis_name="batch").apply, params=params, tx=tx)
    state, stats = jax_utils.replicate((state, stats), devices)
    parallel = core.pmap(_train_step("batch"), axis_name="batch")
    shard = lambda a: a.reshape(N_DEVICES, a.shape[0] // N_DEVICES, *a.shape[1:])

    for images_t, labels_t in zip(images, labels):
        single_state, single_stats, single_loss = single(
            single_state, single_stats, images_t, labels_t
        )
        state, stats, loss = parallel(state, stats, shard(images_t), shard(labels_t))
        np.testing.assert_allclose(np.asarray(loss), [single_loss] * N_DEVICES, rtol=1e-6)

    assert state.params["Dense_0"]["kernel"].devices() == set(devices)
    np.testing.assert_array_equal(np.asarray(state.step), [2] * N_DEVICES)
    replicated = (state.params, state.opt_state, stats)
    expected = (single_state.params, single_state.opt_state, single_stats)
    for got, want in zip(core.tree.leaves(replicated), core.tree.leaves(expected), strict=True):
        for one_device in np.asarray(got):
            np.testing.assert_allclose(one_device, np.asarray(want), rtol=2e-5, atol=1e-6)
    # Back on one device, the state goes on training there (jax_utils.unreplicate).
    state = jax_utils.unreplicate(state).replace(apply_fn=single_state.apply_fn)
    assert int(state.step) == 2
    _, _, loss = single(state, jax_utils.unreplicate(stats), images[0], labels[0])
    _, _, expected_loss = single(single_state, single_stats, images[0], labels[0])
    np.testing.assert_allclose(float(loss), float(expected_loss), rtol=1e-5)
