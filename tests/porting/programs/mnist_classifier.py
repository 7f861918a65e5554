# Copyright 2018 The JAX Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     https://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""JAX's examples/mnist_classifier.py ("A basic MNIST example using JAX with the mini-libraries
stax and optimizers"): its functions and `stax.serial` network verbatim, `main` as `run()` on
synthetic MNIST-shaped data in place of `datasets.mnist` (256 training and 64 test images,
one-hot labels), 2 epochs instead of 10: jitted `optimizers.momentum` updates on batches from
its `data_stream`, the accuracies it printed (without the times) and the parameters."""


import itertools

import numpy as np
import numpy.random as npr

import jax.numpy as jnp
from jax import jit, grad, random
from jax.example_libraries import optimizers
from jax.example_libraries import stax
from jax.example_libraries.stax import Dense, Relu, LogSoftmax


def loss(params, batch):
  inputs, targets = batch
  preds = predict(params, inputs)
  return -jnp.mean(jnp.sum(preds * targets, axis=1))

def accuracy(params, batch):
  inputs, targets = batch
  target_class = jnp.argmax(targets, axis=1)
  predicted_class = jnp.argmax(predict(params, inputs), axis=1)
  return jnp.mean(predicted_class == target_class)

init_random_params, predict = stax.serial(
    Dense(1024), Relu,
    Dense(1024), Relu,
    Dense(10), LogSoftmax)


def run():
  printed = []
  rng = random.key(0)

  step_size = 0.001
  num_epochs = 2
  batch_size = 128
  momentum_mass = 0.9

  rs = np.random.RandomState(0)
  train_images = rs.rand(256, 28 * 28).astype(np.float32)
  train_labels = np.eye(10, dtype=np.float32)[rs.randint(0, 10, 256)]
  test_images = rs.rand(64, 28 * 28).astype(np.float32)
  test_labels = np.eye(10, dtype=np.float32)[rs.randint(0, 10, 64)]
  num_train = train_images.shape[0]
  num_complete_batches, leftover = divmod(num_train, batch_size)
  num_batches = num_complete_batches + bool(leftover)

  def data_stream():
    rng = npr.RandomState(0)
    while True:
      perm = rng.permutation(num_train)
      for i in range(num_batches):
        batch_idx = perm[i * batch_size:(i + 1) * batch_size]
        yield train_images[batch_idx], train_labels[batch_idx]
  batches = data_stream()

  opt_init, opt_update, get_params = optimizers.momentum(step_size, mass=momentum_mass)

  @jit
  def update(i, opt_state, batch):
    params = get_params(opt_state)
    return opt_update(i, grad(loss)(params, batch), opt_state)

  _, init_params = init_random_params(rng, (-1, 28 * 28))
  opt_state = opt_init(init_params)
  itercount = itertools.count()

  printed.append("\nStarting training...")
  for epoch in range(num_epochs):
    for _ in range(num_batches):
      opt_state = update(next(itercount), opt_state, next(batches))

    params = get_params(opt_state)
    train_acc = accuracy(params, (train_images, train_labels))
    test_acc = accuracy(params, (test_images, test_labels))
    printed.append(f"Epoch {epoch}")
    printed.append(f"Training set accuracy {train_acc}")
    printed.append(f"Test set accuracy {test_acc}")
  return dict(printed=printed, params=get_params(opt_state), loss=loss(params, (train_images, train_labels)))
