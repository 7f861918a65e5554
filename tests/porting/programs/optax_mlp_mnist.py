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

"""Optax's examples/mlp_mnist.ipynb, Linen version (before 2f04884c): a Flax Linen MLP
(1000, 1000) flattening its images, trained by `adam` in a jitted step around
`value_and_grad(has_aux=True)` of a jitted loss calling a jitted `predict`; the test set's
statistics by `np.mean` over lists of JAX scalars. The notebook's cells verbatim in `run()`;
synthetic MNIST-shaped batches (float32 images in [0, 1] as `tf.cast(image) / 255.` gave,
int64 labels, a band of bright rows per label) in place of tfds's loaders: 21 training and 2 test batches of 32 instead of 468
and 78 of 128. run() returns what it printed and showed (each line's text with the numbers
taken out, compared exactly, and its numbers), the accuracies and losses (numpy's float32
means), and the norms of the parameters and state after the epoch."""

from tests.porting import printed

from typing import Sequence

from flax import linen as nn
import jax
import jax.numpy as jnp
import optax
import numpy as np


def _batches(rng, n, batch_size, img_size):
  """(port) `n` batches as tfds's `as_numpy_iterator()` gave: (float32 images / 255., int64
  labels). Each image is noise with a bright band of rows at its label's place, so that the
  MLP learns (noise labels leave its predictions near ties, which float32 round-off flips)."""
  out = []
  for _ in range(n):
    labels = rng.randint(0, 10, (batch_size,)).astype(np.int64)
    images = rng.randint(0, 128, (batch_size,) + img_size)
    for image, label in zip(images, labels):
      image[2 * label + 4:2 * label + 6] += 127
    out.append((images.astype(np.float32) / 255., labels))
  return out


def run():
  out = {}
  with printed.Cells() as cells:
    _cells(out)
  out['printed'] = printed.numbered(cells.take(), printed.NUMBER)
  return out


def _cells(out):
  # @markdown The learning rate for the optimizer:
  LEARNING_RATE = 0.002 # @param{type:"number"}
  # @markdown Number of samples in each batch:
  BATCH_SIZE = 32 # @param{type:"integer"}  (port) 128
  # @markdown Total number of epochs to train for:
  N_EPOCHS = 1 # @param{type:"integer"}

  # (port) synthetic data in place of tfds.load("mnist") and its batched loaders
  NUM_CLASSES = 10
  IMG_SIZE = (28, 28, 1)
  rng_data = np.random.RandomState(0)
  train_loader_batched = _batches(rng_data, 21, BATCH_SIZE, IMG_SIZE)
  test_loader_batched = _batches(rng_data, 2, BATCH_SIZE, IMG_SIZE)

  class MLP(nn.Module):
    """A simple multilayer perceptron model for image classification."""
    hidden_sizes: Sequence[int] = (1000, 1000)

    @nn.compact
    def __call__(self, x):
      # Flattens images in the batch.
      x = x.reshape((x.shape[0], -1))
      x = nn.Dense(features=self.hidden_sizes[0])(x)
      x = nn.relu(x)
      x = nn.Dense(features=self.hidden_sizes[1])(x)
      x = nn.relu(x)
      x = nn.Dense(features=NUM_CLASSES)(x)
      return x

  net = MLP()

  @jax.jit
  def predict(params, inputs):
    return net.apply({"params": params}, inputs)


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

  solver = optax.adam(LEARNING_RATE)
  rng = jax.random.PRNGKey(0)
  dummy_data = jnp.ones((1,) + IMG_SIZE, dtype=jnp.float32)

  params = net.init({"params": rng}, dummy_data)["params"]

  solver_state = solver.init(params)

  def dataset_stats(params, data_loader):
    """Computes loss and accuracy over the dataset `data_loader`."""
    all_accuracy = []
    all_loss = []
    for batch in data_loader:  # (port) data_loader.as_numpy_iterator()
      batch_loss, batch_aux = loss_accuracy(params, batch)
      all_loss.append(batch_loss)
      all_accuracy.append(batch_aux["accuracy"])
    return {"loss": np.mean(all_loss), "accuracy": np.mean(all_accuracy)}

  train_accuracy = []
  train_losses = []

  # Computes test set accuracy at initialization.
  test_stats = dataset_stats(params, test_loader_batched)
  test_accuracy = [test_stats["accuracy"]]
  test_losses = [test_stats["loss"]]


  @jax.jit
  def train_step(params, solver_state, batch):
    # Performs a one step update.
    (loss, aux), grad = jax.value_and_grad(loss_accuracy, has_aux=True)(
        params, batch
    )
    updates, solver_state = solver.update(grad, solver_state, params)
    params = optax.apply_updates(params, updates)
    return params, solver_state, loss, aux


  for epoch in range(N_EPOCHS):
    train_accuracy_epoch = []
    train_losses_epoch = []

    for step, train_batch in enumerate(train_loader_batched):  # (port) .as_numpy_iterator()
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

    test_stats = dataset_stats(params, test_loader_batched)
    test_accuracy.append(test_stats["accuracy"])
    test_losses.append(test_stats["loss"])
    train_accuracy.append(np.mean(train_accuracy_epoch))
    train_losses.append(np.mean(train_losses_epoch))

  print(f"Improved accuracy on test DS from {test_accuracy[0]} to {test_accuracy[-1]}")  # (port) shown
  out.update(test_accuracy=test_accuracy, test_losses=test_losses,
             train_accuracy=train_accuracy, train_losses=train_losses,
             types=[type(v).__name__ for v in (test_accuracy[0], train_losses[0])],
             # (port) the leaves' norms: Adam's first steps are sign-like, so entries whose
             # gradients are round-off part from JAX's by the learning rate
             params=[jnp.linalg.norm(p) for p in jax.tree.leaves(params)],
             state=[jnp.linalg.norm(s) for s in jax.tree.leaves(solver_state)])
