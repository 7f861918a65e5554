# Copyright 2024 The Flax Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.


"""Flax's examples/mnist/train.py, Linen version (before 0ef9abb2, which moved it to NNX): its
functions verbatim (the CNN, the jitted `apply_model` with `value_and_grad(has_aux=True)` and
`update_model` on a `TrainState`, `train_epoch` batching by a `jax.random.permutation` of the
examples and `np.mean` of the JAX scalars, `create_train_state` with `sgd` and momentum), and
`train_and_evaluate` as written with three changes marked (port): the config is
configs/default.py's as a small attribute dict (`ml_collections` is not installed), `get_datasets`
gives synthetic MNIST-shaped data (tfds's `as_numpy` dict of uint8 images and int64 labels, the
images scaled by `jnp.float32(...) / 255.0` as written) instead of downloading MNIST, and the
TensorBoard writer and `logging.info` lines are collected (Flax's writer needs TensorFlow).
`train_test.py`'s CNN check is `run()`'s first step. run() returns the logged lines' numbers, the
parameter count, the epochs' metrics and the final parameters: 2 epochs of 3 batches of 32 (the
config's 10 epochs of 468 batches of 128), 64 test images."""

# See issue #620.
# pytype: disable=wrong-keyword-args

from flax import linen as nn
from flax.training import train_state
import jax
import jax.numpy as jnp
import numpy as np
import optax


class CNN(nn.Module):
  """A simple CNN model."""

  @nn.compact
  def __call__(self, x):
    x = nn.Conv(features=32, kernel_size=(3, 3))(x)
    x = nn.relu(x)
    x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
    x = nn.Conv(features=64, kernel_size=(3, 3))(x)
    x = nn.relu(x)
    x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
    x = x.reshape((x.shape[0], -1))  # flatten
    x = nn.Dense(features=256)(x)
    x = nn.relu(x)
    x = nn.Dense(features=10)(x)
    return x


@jax.jit
def apply_model(state, images, labels):
  """Computes gradients, loss and accuracy for a single batch."""

  def loss_fn(params):
    logits = state.apply_fn({'params': params}, images)
    one_hot = jax.nn.one_hot(labels, 10)
    loss = jnp.mean(optax.softmax_cross_entropy(logits=logits, labels=one_hot))
    return loss, logits

  grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
  (loss, logits), grads = grad_fn(state.params)
  accuracy = jnp.mean(jnp.argmax(logits, -1) == labels)
  return grads, loss, accuracy


@jax.jit
def update_model(state, grads):
  return state.apply_gradients(grads=grads)


def train_epoch(state, train_ds, batch_size, rng):
  """Train for a single epoch."""
  train_ds_size = len(train_ds['image'])
  steps_per_epoch = train_ds_size // batch_size

  perms = jax.random.permutation(rng, len(train_ds['image']))
  perms = perms[: steps_per_epoch * batch_size]  # skip incomplete batch
  perms = perms.reshape((steps_per_epoch, batch_size))

  epoch_loss = []
  epoch_accuracy = []

  for perm in perms:
    batch_images = train_ds['image'][perm, ...]
    batch_labels = train_ds['label'][perm, ...]
    grads, loss, accuracy = apply_model(state, batch_images, batch_labels)
    state = update_model(state, grads)
    epoch_loss.append(loss)
    epoch_accuracy.append(accuracy)
  train_loss = np.mean(epoch_loss)
  train_accuracy = np.mean(epoch_accuracy)
  return state, train_loss, train_accuracy


def get_datasets():
  """Load MNIST train and test datasets into memory."""
  # (port) synthetic data shaped and typed as tfds's `as_numpy` of MNIST, for the download
  rs = np.random.RandomState(0)
  train_ds, test_ds = (
      {'image': rs.randint(0, 256, (n, 28, 28, 1)).astype(np.uint8),
       'label': rs.randint(0, 10, (n,)).astype(np.int64)} for n in (96, 64))
  train_ds['image'] = jnp.float32(train_ds['image']) / 255.0
  test_ds['image'] = jnp.float32(test_ds['image']) / 255.0
  return train_ds, test_ds


def create_train_state(rng, config):
  """Creates initial `TrainState`."""
  cnn = CNN()
  params = cnn.init(rng, jnp.ones([1, 28, 28, 1]))['params']
  tx = optax.sgd(config.learning_rate, config.momentum)
  return train_state.TrainState.create(apply_fn=cnn.apply, params=params, tx=tx)


def train_and_evaluate(
    config: 'ml_collections.ConfigDict', workdir: str
) -> train_state.TrainState:
  """Execute model training and evaluation loop.

  Args:
    config: Hyperparameter configuration for training and evaluation.
    workdir: Directory where the tensorboard summaries are written to.

  Returns:
    The train state (which includes the `.params`).
  """
  train_ds, test_ds = get_datasets()
  rng = jax.random.key(0)

  summary_writer = _Writer(workdir)  # (port) tensorboard.SummaryWriter(workdir)
  summary_writer.hparams(dict(config))

  rng, init_rng = jax.random.split(rng)
  state = create_train_state(init_rng, config)

  for epoch in range(1, config.num_epochs + 1):
    rng, input_rng = jax.random.split(rng)
    state, train_loss, train_accuracy = train_epoch(
        state, train_ds, config.batch_size, input_rng
    )
    _, test_loss, test_accuracy = apply_model(
        state, test_ds['image'], test_ds['label']
    )

    _logged.append(  # (port) logging.info(
        'epoch:% 3d, train_loss: %.4f, train_accuracy: %.2f, test_loss: %.4f,'
        ' test_accuracy: %.2f'
        % (
            epoch,
            train_loss,
            train_accuracy * 100,
            test_loss,
            test_accuracy * 100,
        )
    )

    summary_writer.scalar('train_loss', train_loss, epoch)
    summary_writer.scalar('train_accuracy', train_accuracy, epoch)
    summary_writer.scalar('test_loss', test_loss, epoch)
    summary_writer.scalar('test_accuracy', test_accuracy, epoch)

  summary_writer.flush()
  return state


class _Config(dict):
  """(port) configs/default.py's `ml_collections.ConfigDict` as a dict with attributes."""
  __getattr__ = dict.__getitem__
  __setattr__ = dict.__setitem__


def get_config():
  """Get the default hyperparameter configuration."""
  config = _Config()  # (port) ml_collections.ConfigDict()

  config.learning_rate = 0.1
  config.momentum = 0.9
  config.batch_size = 128
  config.num_epochs = 10
  return config


_logged = []


class _Writer:
  """(port) what Flax's TensorBoard `SummaryWriter` was given, kept."""

  def __init__(self, workdir):
    self.scalars = []
    _writers.append(self)

  def hparams(self, hparams):
    self.hparams_given = hparams

  def scalar(self, tag, value, step):
    self.scalars.append([tag, value, step])

  def flush(self):
    pass


_writers = []


def run():
  # train_test.py's test_cnn
  CNN_PARAMS = 825_034
  rng = jax.random.key(0)
  inputs = jnp.ones((1, 28, 28, 3), jnp.float32)
  output, variables = CNN().init_with_output(rng, inputs)
  count = sum(np.prod(arr.shape) for arr in jax.tree_util.tree_leaves(variables["params"]))
  assert (1, 10) == output.shape and count == CNN_PARAMS

  config = get_config()
  config.num_epochs = 2
  config.batch_size = 32
  _logged.clear()
  _writers.clear()
  state = train_and_evaluate(config=config, workdir='/tmp/mnist')
  writer, = _writers
  return dict(
      cnn=[output, int(count)],
      logged=[[float(n) for n in line.replace(',', ' ').split() if n[0].isdigit()]
              for line in _logged],
      scalars=[[tag, value, isinstance(value, np.floating), step]
               for tag, value, step in writer.scalars],
      hparams=sorted(writer.hparams_given.items()),
      step=state.step, params=state.params)
