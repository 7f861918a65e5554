# Copyright 2024 The Flax Authors.
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


"""Flax's docs/guides/parallel_training/ensembling.rst: the "Ensemble" code blocks verbatim in
`run()` (one CNN per device under `pmap`, `pmean` of the ensemble's probabilities,
`jax_utils.replicate`/`unreplicate`); 8x8 instead of 28x28 images, random instead of zero
images, 16 examples in batches of 8, two epochs; `logging` dropped. run() returns the epochs'
losses and accuracies and the replicated state."""

import functools
from flax import jax_utils
from flax import linen as nn
from flax.training import train_state
import jax
import jax.numpy as jnp
import numpy as np
import optax


def run():
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

  # Fake data for faster execution.
  def get_datasets():
    train_ds = test_ds = {
      'image': jax.random.normal(jax.random.key(1), [16, 8, 8, 1]),
      'label': jnp.arange(16, dtype=jnp.int32) % 10,
    }
    return train_ds, test_ds

  # Modified from examples/mnist/configs.default.py
  learning_rate = 0.1
  momentum = 0.9
  batch_size = 8
  num_epochs = 2

  @functools.partial(jax.pmap, static_broadcasted_argnums=(1, 2))  #!
  def create_train_state(rng, learning_rate, momentum):
    cnn = CNN()
    params = cnn.init(rng, jnp.ones([1, 8, 8, 1]))['params']
    tx = optax.sgd(learning_rate, momentum)
    return train_state.TrainState.create(
        apply_fn=cnn.apply, params=params, tx=tx)

  @functools.partial(jax.pmap, axis_name='ensemble')  #!
  def apply_model(state, images, labels):
    def loss_fn(params):
      logits = CNN().apply({'params': params}, images)
      one_hot = jax.nn.one_hot(labels, 10)
      loss = optax.softmax_cross_entropy(logits=logits, labels=one_hot).mean()
      return loss, logits
    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
    (loss, logits), grads = grad_fn(state.params)
    probs = jax.lax.pmean(jax.nn.softmax(logits), axis_name='ensemble')  #!
    accuracy = jnp.mean(jnp.argmax(probs, -1) == labels)  #!
    return grads, loss, accuracy

  @jax.pmap  #!
  def update_model(state, grads):
    return state.apply_gradients(grads=grads)

  def train_epoch(state, train_ds, batch_size, rng):
    train_ds_size = len(train_ds['image'])
    steps_per_epoch = train_ds_size // batch_size
    perms = jax.random.permutation(rng, len(train_ds['image']))
    perms = perms[:steps_per_epoch * batch_size]
    perms = perms.reshape((steps_per_epoch, batch_size))
    epoch_loss = []
    epoch_accuracy = []
    for perm in perms:
      batch_images = jax_utils.replicate(train_ds['image'][perm, ...])  #!
      batch_labels = jax_utils.replicate(train_ds['label'][perm, ...])  #!
      grads, loss, accuracy = apply_model(state, batch_images, batch_labels)
      state = update_model(state, grads)
      epoch_loss.append(jax_utils.unreplicate(loss))  #!
      epoch_accuracy.append(jax_utils.unreplicate(accuracy))  #!
    train_loss = np.mean(epoch_loss)
    train_accuracy = np.mean(epoch_accuracy)
    return state, train_loss, train_accuracy

  train_ds, test_ds = get_datasets()
  test_ds = jax_utils.replicate(test_ds)  #!
  rng = jax.random.key(0)
  rng, init_rng = jax.random.split(rng)
  state = create_train_state(jax.random.split(init_rng, jax.device_count()), #!
                             learning_rate, momentum)  #!
  epochs = []
  for epoch in range(1, num_epochs + 1):
    rng, input_rng = jax.random.split(rng)
    state, train_loss, train_accuracy = train_epoch(
        state, train_ds, batch_size, input_rng)
    _, test_loss, test_accuracy = jax_utils.unreplicate(  #!
        apply_model(state, test_ds['image'], test_ds['label']))  #!
    epochs.append([train_loss, train_accuracy, test_loss, test_accuracy])
  return dict(epochs=epochs, device_count=jax.device_count(), step=state.step,
              params=state.params, test_ds=jax.tree.map(jnp.shape, test_ds))
