# Copyright 2019 DeepMind Technologies Limited. All Rights Reserved.
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

"""Optax's examples/lookahead_mnist.ipynb, Linen version (before 7afa8808): a Flax Linen CNN
trained by `lookahead(adam)` on `LookaheadParams.init_synced` parameters (gradients of the fast
parameters, `apply_updates` on the pair, evaluation on the slow ones), jitted steps calling a
jitted `predict`. The notebook's cells verbatim in `run()`; synthetic MNIST-shaped batches (uint8
images scaled by `/ 255.` as the loader did, integer labels) in place of the tfds/grain
loaders: 21 training and 2 test batches of 32 instead of 234 and 39 of 256. run() returns what
it printed and showed (each line's text with the numbers taken out, compared exactly, and its
numbers), the accuracies and losses, and the parameters and state after the epoch."""

from tests.porting import printed

from flax import linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax

def _batches(rng, n, batch_size, img_size):
  """(port) `n` batches shaped like the loader's: (uint8 images / 255., int64 labels)."""
  return [(rng.randint(0, 256, (batch_size,) + img_size).astype(np.uint8) / 255.,
           rng.randint(0, 10, (batch_size,)).astype(np.int64)) for _ in range(n)]


def run():
  out = {}
  with printed.Cells() as cells:
    _cells(out)
  out['printed'] = printed.numbered(cells.take(), printed.NUMBER)
  return out


def _cells(out):
  # @markdown The learning rate for the fast optimizer:
  FAST_LEARNING_RATE = 0.002 # @param{type:"number"}
  # @markdown The learning rate for the slow optimizer:
  SLOW_LEARNING_RATE = 0.1 # @param{type:"number"}
  # @markdown Number of fast optimizer steps to take before synchronizing parameters:
  SYNC_PERIOD = 5 # @param{type:"integer"}
  # @markdown Number of samples in each batch:
  BATCH_SIZE = 32 # @param{type:"integer"}  (port) 256
  # @markdown Total number of epochs to train for:
  N_EPOCHS = 1 # @param{type:"integer"}

  # (port) synthetic data in place of tfds.data_source("mnist") and grain's loaders
  IMG_SIZE = (28, 28, 1)
  NUM_CLASSES = 10
  rng_data = np.random.RandomState(0)
  train_loader_batched = _batches(rng_data, 21, BATCH_SIZE, IMG_SIZE)
  test_loader_batched = _batches(rng_data, 2, BATCH_SIZE, IMG_SIZE)

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

  net = CNN()

  @jax.jit
  def predict(params, inputs):
    return net.apply({'params': params}, inputs)


  @jax.jit
  def loss_accuracy(params, data):
    """Computes loss and accuracy over a mini-batch.

    Args:
      params: parameters of the model.
      data: tuple of (inputs, labels).

    Returns:
      loss: float
    """
    inputs, labels = data
    logits = predict(params, inputs)
    loss = optax.softmax_cross_entropy_with_integer_labels(
        logits=logits, labels=labels
    ).mean()
    accuracy = jnp.mean(jnp.argmax(logits, axis=-1) == labels)
    return loss, {"accuracy": accuracy}

  fast_solver = optax.adam(FAST_LEARNING_RATE)
  solver = optax.lookahead(fast_solver, SYNC_PERIOD, SLOW_LEARNING_RATE)
  rng = jax.random.PRNGKey(0)
  dummy_data = jnp.ones((1,) + IMG_SIZE, dtype=jnp.float32)

  params = net.init({"params": rng}, dummy_data)["params"]

  # Initializes the lookahead optimizer with the initial model parameters.
  params = optax.LookaheadParams.init_synced(params)
  solver_state = solver.init(params)

  def dataset_stats(params, data_loader):
    """Computes loss and accuracy over the dataset `data_loader`."""
    all_accuracy = []
    all_loss = []
    for batch in data_loader:
      batch_loss, batch_aux = loss_accuracy(params, batch)
      all_loss.append(batch_loss)
      all_accuracy.append(batch_aux["accuracy"])
    return {"loss": jnp.mean(jnp.array(all_loss)),
            "accuracy": jnp.mean(jnp.array(all_accuracy))}

  train_accuracy = []
  train_losses = []

  # Computes test set accuracy at initialization.
  test_stats = dataset_stats(params.slow, test_loader_batched)
  test_accuracy = [test_stats["accuracy"]]
  test_losses = [test_stats["loss"]]


  @jax.jit
  def train_step(params, solver_state, batch):
    # Performs a one step update.
    (loss, aux), grad = jax.value_and_grad(loss_accuracy, has_aux=True)(
        params.fast, batch
    )
    updates, solver_state = solver.update(grad, solver_state, params)
    params = optax.apply_updates(params, updates)
    return params, solver_state, loss, aux


  for epoch in range(N_EPOCHS):
    train_accuracy_epoch = []
    train_losses_epoch = []

    for step, train_batch in enumerate(train_loader_batched):
      params, solver_state, train_loss, train_aux = train_step(
          params, solver_state, train_batch
      )
      train_accuracy_epoch.append(train_aux["accuracy"])
      train_losses_epoch.append(train_loss)
      if step % 20 == 0:
        print(
            f"step {step}, train loss: {train_loss:.2e}, train accuracy:"
            f" {train_aux['accuracy']:.2f}"
        )

    # Validation is done on the slow lookahead parameters.
    test_stats = dataset_stats(params.slow, test_loader_batched)
    test_accuracy.append(test_stats["accuracy"])
    test_losses.append(test_stats["loss"])
    train_accuracy.append(jnp.mean(jnp.array(train_accuracy_epoch)))
    train_losses.append(jnp.mean(jnp.array(train_losses_epoch)))

  print(f"Improved accuracy on test DS from {test_accuracy[0]} to {test_accuracy[-1]}")  # (port) shown
  out.update(test_accuracy=test_accuracy, test_losses=test_losses,
             train_accuracy=train_accuracy, train_losses=train_losses,
             params=jax.tree.leaves(params), state=jax.tree.leaves(solver_state))
