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

"""Optax's examples/contrib/differentially_private_sgd.ipynb: a `stax.serial` CNN
(strided SAME/VALID `Conv`, `MaxPool`, `Flatten`, `Dense`) trained by `contrib.dpsgd` (per-example
gradients clipped and noised from its seed) on per-example gradients from `vmap(grad(has_aux))`
over a batch with an inserted axis (`jax.tree.map`), evaluated by a jitted test step with
`losses.softmax_cross_entropy_with_integer_labels`. The notebook's cells verbatim in `run()`;
synthetic MNIST-shaped batches (uint8 images scaled by `/ 255.` as the loader did, integer
labels) in place of the tfds/grain loaders: 2 training and 2 test batches of 32 per epoch,
2 epochs instead of 15. `dp_accounting` (the privacy accountant) is not installed: the
notebook's `compute_epsilon` is replaced by one returning the steps it was asked about; no
plots. run() returns what it printed (each line's text with the numbers taken out, compared
exactly, and its numbers), the accuracies, losses, final parameters and the noise key's data."""

from tests.porting import printed

import warnings
import jax
import jax.numpy as jnp
from optax import contrib
from optax import losses
import optax
from jax.example_libraries import stax

import numpy as np

def _batches(rng, n, batch_size):
  """(port) `n` batches shaped like the loader's: (uint8 images / 255., int64 labels)."""
  return [(rng.randint(0, 256, (batch_size, 28, 28, 1)).astype(np.uint8) / 255.,
           rng.randint(0, 10, (batch_size,)).astype(np.int64)) for _ in range(n)]


def run():
  out = {}
  with printed.Cells() as cells:
    _cells(out)
  out['printed'] = printed.numbered(cells.take(), printed.NUMBER)
  return out


def _cells(out):
  # Shows on which platform JAX is running.
  print("JAX running on", jax.devices()[0].platform.upper())

  # Whether to use DP-SGD or vanilla SGD:
  DPSGD = True
  # Learning rate for the optimizer:
  LEARNING_RATE = 0.25
  # Noise multiplier for DP-SGD optimizer:
  NOISE_MULTIPLIER = 1.3
  # L2 norm clip:
  L2_NORM_CLIP = 1.5
  # Number of samples in each batch:
  BATCH_SIZE = 32  # (port) 256
  # Number of epochs:
  NUM_EPOCHS = 2  # (port) 15
  # Probability of information leakage:
  DELTA = 1e-5

  # (port) synthetic data in place of tfds.data_source("mnist") and grain's loaders
  rng_data = np.random.RandomState(0)
  train_loader_batched = _batches(rng_data, 2, BATCH_SIZE)  # (port) 4 steps (programs/README.md)
  test_loader_batched = _batches(rng_data, 2, BATCH_SIZE)
  NUM_EXAMPLES = 10000  # len(test_loader), MNIST's test split

  init_random_params, predict = stax.serial(
      stax.Conv(16, (8, 8), padding="SAME", strides=(2, 2)),
      stax.Relu,
      stax.MaxPool((2, 2), (1, 1)),
      stax.Conv(32, (4, 4), padding="VALID", strides=(2, 2)),
      stax.Relu,
      stax.MaxPool((2, 2), (1, 1)),
      stax.Flatten,
      stax.Dense(32),
      stax.Relu,
      stax.Dense(10),
  )

  def compute_epsilon(steps):  # (port) dp_accounting is not installed
    return steps

  @jax.jit
  def loss_fn(params, batch):
    images, labels = batch
    logits = predict(params, images)
    return losses.softmax_cross_entropy_with_integer_labels(logits, labels).mean(), logits


  @jax.jit
  def test_step(params, batch):
    images, labels = batch
    logits = predict(params, images)
    loss = losses.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
    accuracy = (logits.argmax(1) == labels).mean()
    return loss, accuracy * 100

  if DPSGD:
    tx = contrib.dpsgd(
        learning_rate=LEARNING_RATE, l2_norm_clip=L2_NORM_CLIP,
        noise_multiplier=NOISE_MULTIPLIER, seed=1337)
  else:
    tx = optax.sgd(learning_rate=LEARNING_RATE)

  _, params = init_random_params(jax.random.PRNGKey(1337), (-1, 28, 28, 1))
  opt_state = tx.init(params)

  @jax.jit
  def train_step(params, opt_state, batch):
    grad_fn = jax.grad(loss_fn, has_aux=True)
    if DPSGD:
      # Inserts a dimension in axis 1 to use jax.vmap over the batch.
      batch = jax.tree.map(lambda x: x[:, None], batch)
      # Uses jax.vmap across the batch to extract per-example gradients.
      grad_fn = jax.vmap(grad_fn, in_axes=(None, 0))

    grads, _ = grad_fn(params, batch)
    updates, new_opt_state = tx.update(grads, opt_state, params)
    new_params = optax.apply_updates(params, updates)
    return new_params, new_opt_state

  accuracy, loss, epsilon = [], [], []

  for epoch in range(NUM_EPOCHS):
    for batch in train_loader_batched:
      params, opt_state = train_step(params, opt_state, batch)

    # Evaluates test accuracy.
    test_acc = 0
    test_loss = 0
    for test_batch in test_loader_batched:
      test_batch_loss, test_batch_acc = test_step(params, test_batch)
      test_acc += test_batch_acc / len(test_loader_batched)
      test_loss += test_batch_loss
    accuracy.append(test_acc)
    loss.append(test_loss)
    print(f"Epoch {epoch + 1}/{NUM_EPOCHS}, test accuracy: {test_acc}")

    #
    if DPSGD:
      steps = (1 + epoch) * NUM_EXAMPLES // BATCH_SIZE
      eps = compute_epsilon(steps)
      epsilon.append(eps)

  print(f'Final accuracy: {accuracy[-1]}')
  out.update(accuracy=accuracy, loss=loss, epsilon=epsilon, params=jax.tree.leaves(params),
             noise_key=jax.random.key_data(opt_state[0].rng_key))
