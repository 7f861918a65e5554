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

"""Optax's examples/contrib/reduce_on_plateau.ipynb: an MLP classifier trained with
`optax.chain(adam, contrib.reduce_on_plateau(...))`, the loss passed as `value=`, the
learning-rate scale read with `optax.tree.get`. The notebook's cells verbatim in `run()`
without the plots; fashion_mnist is random images of its shapes (four training and two test
batches of 8), 6 epochs, patience 1 and accumulation size 2 instead of 50, 5 and 200; run()
returns what it printed, the scale history, losses and accuracies."""

from typing import Sequence
from flax import linen as nn
import jax
import jax.numpy as jnp
import numpy as np

import optax
import optax.tree
from optax import contrib



def run():
  printed = []
  print = printed.append
  # @markdown Number of samples in each batch:
  BATCH_SIZE = 8  # @param{type:"integer"}
  # fashion_mnist's shapes, random images: four training and two test batches
  rs = np.random.RandomState(0)
  IMG_SIZE = (28, 28, 1)
  NUM_CLASSES = 10
  train_loader_batched = [(rs.rand(BATCH_SIZE, *IMG_SIZE).astype(np.float32),
                           rs.randint(0, NUM_CLASSES, BATCH_SIZE)) for _ in range(4)]
  test_loader_batched = [(rs.rand(BATCH_SIZE, *IMG_SIZE).astype(np.float32),
                          rs.randint(0, NUM_CLASSES, BATCH_SIZE)) for _ in range(2)]

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
  def loss_accuracy(params, data):
    """Computes loss and accuracy over a mini-batch.

    Args:
      params: parameters of the model.
      data: tuple of (inputs, labels).

    Returns:
      loss: float
    """
    inputs, labels = data
    logits = net.apply({"params": params}, inputs)
    loss = optax.softmax_cross_entropy_with_integer_labels(
        logits=logits, labels=labels
    ).mean()
    accuracy = jnp.mean(jnp.argmax(logits, axis=-1) == labels)
    return loss, {"accuracy": accuracy}

  rng = jax.random.PRNGKey(0)
  fake_data = jnp.ones((1,) + IMG_SIZE, dtype=jnp.float32)
  init_params = net.init({"params": rng}, fake_data)["params"]


  def dataset_stats(params, data_loader):
    """Computes loss and accuracy over the dataset `data_loader`."""
    all_accuracy = []
    all_loss = []
    for batch in data_loader:
      batch_loss, batch_aux = loss_accuracy(params, batch)
      all_loss.append(batch_loss)
      all_accuracy.append(batch_aux["accuracy"])
    return {"loss": np.mean(all_loss), "accuracy": np.mean(all_accuracy)}

  # @markdown Total number of epochs to train for:
  N_EPOCHS = 6  # @param{type:"integer"}
  # @markdown The base learning rate for the optimizer:
  LEARNING_RATE = 0.01  # @param{type:"number"}

  # @markdown Number of epochs with no improvement after which learning rate will be reduced:
  PATIENCE = 1  # @param{type:"integer"}
  # @markdown Number of epochs to wait before resuming normal operation after the learning rate reduction:
  COOLDOWN = 0  # @param{type:"integer"}
  # @markdown Factor by which to reduce the learning rate:
  FACTOR = 0.5  # @param{type:"number"}
  # @markdown Relative tolerance for measuring the new optimum:
  RTOL = 1e-4  # @param{type:"number"}
  # @markdown Number of iterations to accumulate an average value:
  ACCUMULATION_SIZE = 2

  opt = optax.chain(
      optax.adam(LEARNING_RATE),
      contrib.reduce_on_plateau(
          patience=PATIENCE,
          cooldown=COOLDOWN,
          factor=FACTOR,
          rtol=RTOL,
          accumulation_size=ACCUMULATION_SIZE,
      ),
  )
  opt_state = opt.init(init_params)

  @jax.jit
  def train_step(params, opt_state, batch):
    """Performs a one step update."""
    (value, aux), grad = jax.value_and_grad(loss_accuracy, has_aux=True)(
        params, batch
    )
    updates, opt_state = opt.update(grad, opt_state, params, value=value)
    params = optax.apply_updates(params, updates)
    return params, opt_state, value, aux


  params = init_params

  # Computes metrics at initialization.
  train_stats = dataset_stats(params, test_loader_batched)
  train_accuracy = [train_stats["accuracy"]]
  train_losses = [train_stats['loss']]

  test_stats = dataset_stats(params, test_loader_batched)
  test_accuracy = [test_stats["accuracy"]]
  test_losses = [test_stats["loss"]]

  lr_scale_history = []
  for epoch in range(N_EPOCHS):
    train_accuracy_epoch = []
    train_losses_epoch = []

    for _, train_batch in enumerate(train_loader_batched):
      params, opt_state, train_loss, train_aux = train_step(
          params, opt_state, train_batch
      )
      train_accuracy_epoch.append(train_aux["accuracy"])
      train_losses_epoch.append(train_loss)

    mean_train_accuracy = np.mean(train_accuracy_epoch)
    mean_train_loss = np.mean(train_losses_epoch)

    # fetch the scaling factor from the reduce_on_plateau transform
    lr_scale = optax.tree.get(opt_state, "scale")
    lr_scale_history.append(lr_scale)

    train_accuracy.append(mean_train_accuracy)
    train_losses.append(mean_train_loss)

    test_stats = dataset_stats(params, test_loader_batched)
    test_accuracy.append(test_stats["accuracy"])
    test_losses.append(test_stats["loss"])
    print(
        f"Epoch {epoch + 1}/{N_EPOCHS}, mean train accuracy:"
        f" {mean_train_accuracy}, lr scale: {optax.tree.get(opt_state, 'scale')}"
    )


  # @markdown Number of epochs with no improvement after which learning rate will be reduced:
  PATIENCE = 1  # @param{type:"integer"}
  # @markdown Number of epochs to wait before resuming normal operation after the learning rate reduction:
  COOLDOWN = 0  # @param{type:"integer"}
  # @markdown Factor by which to reduce the learning rate:
  FACTOR = 0.5  # @param{type:"number"}
  # @markdown Relative tolerance for measuring the new optimum:
  RTOL = 1e-4  # @param{type:"number"}
  # @markdown Number of iterations to accumulate an average value:
  ACCUMULATION_SIZE = 1

  solver = optax.adam(LEARNING_RATE)
  solver_state = solver.init(init_params)

  transform = contrib.reduce_on_plateau(
      patience=PATIENCE,
      cooldown=COOLDOWN,
      factor=FACTOR,
      rtol=RTOL,
      accumulation_size=ACCUMULATION_SIZE
      )

  # Creates initial state for `contrib.reduce_on_plateau` transformation.
  transform_state = transform.init(init_params)
  transform_state

  @jax.jit
  def train_step(params, solver_state, transform_state, batch):
    """Performs a one step update."""
    (loss, aux), grad = jax.value_and_grad(loss_accuracy, has_aux=True)(
        params, batch
    )
    # Computes updates scaled by the learning rate that was used to initialize
    # the `solver`.
    updates, solver_state = solver.update(grad, solver_state, params)
    # Scales updates, produced by `solver`, by the scaling value.
    updates = optax.tree.scale(transform_state.scale, updates)
    params = optax.apply_updates(params, updates)
    return params, solver_state, loss, aux

  params = init_params

  # Computes metrics at initialization.
  train_stats = dataset_stats(params, test_loader_batched)
  train_accuracy = [train_stats["accuracy"]]
  train_losses = [train_stats['loss']]

  test_stats = dataset_stats(params, test_loader_batched)
  test_accuracy = [test_stats["accuracy"]]
  test_losses = [test_stats["loss"]]

  params = init_params
  lr_scale_history = [transform_state.scale]
  for epoch in range(N_EPOCHS):
    train_accuracy_epoch = []
    train_losses_epoch = []

    for train_batch in train_loader_batched:
      params, solver_state, train_loss, train_aux = train_step(
          params, solver_state, transform_state, train_batch
      )
      train_accuracy_epoch.append(train_aux["accuracy"])
      train_losses_epoch.append(train_loss)

    mean_train_accuracy = np.mean(train_accuracy_epoch)
    mean_train_loss = np.mean(train_losses_epoch)

    # Adjusts the learning rate scaling value using the loss computed on the
    # test set.
    _, transform_state = transform.update(
        updates=params, state=transform_state, value=test_stats["loss"]
    )
    lr_scale_history.append(transform_state.scale)

    train_accuracy.append(mean_train_accuracy)
    train_losses.append(mean_train_loss)

    test_stats = dataset_stats(params, test_loader_batched)
    test_accuracy.append(test_stats["accuracy"])
    test_losses.append(test_stats["loss"])

    test_stats = dataset_stats(params, test_loader_batched)
    test_accuracy.append(test_stats["accuracy"])
    test_losses.append(test_stats["loss"])

    print(
        f"Epoch {epoch + 1}/{N_EPOCHS}, mean train accuracy:"
        f" {mean_train_accuracy}, lr scale: {transform_state.scale}"
    )


  return dict(printed=printed, lr_scale_history=lr_scale_history, train_losses=train_losses,
              train_accuracy=train_accuracy, test_losses=test_losses, test_accuracy=test_accuracy,
              params=jax.tree_util.tree_leaves(params)[:2])
