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


"""Flax's docs/guides/training_techniques/ batch_norm.rst, dropout.rst and lr_schedule.rst:
the "With BatchNorm", "With Dropout" and "Learning rate schedule" code blocks verbatim in
`run()`, each driven for a few steps on small synthetic data (8x8 instead of 28x28 images;
lr_schedule's `ml_collections.ConfigDict` as a `SimpleNamespace`, its `logging` dropped);
run() returns variables' shapes, losses, metrics and parameters."""

import functools
from types import SimpleNamespace
from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state


def batch_norm():
  class MLP(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool): #!
      x = nn.Dense(features=4)(x)
      x = nn.BatchNorm(use_running_average=not train)(x) #!
      x = nn.relu(x)
      x = nn.Dense(features=1)(x)
      return x

  mlp = MLP()
  x = jnp.ones((1, 3))
  variables = mlp.init(jax.random.key(0), x, train=False) #!
  params = variables['params']
  batch_stats = variables['batch_stats'] #!
  shapes = jax.tree_util.tree_map(jnp.shape, variables)

  y, updates = mlp.apply( #!
    {'params': params, 'batch_stats': batch_stats}, #!
    x,
    train=True, mutable=['batch_stats'] #!
  )
  batch_stats = updates['batch_stats'] #!

  class TrainState(train_state.TrainState):  #!
    batch_stats: Any  #!

  state = TrainState.create( #!
    apply_fn=mlp.apply,
    params=params,
    batch_stats=batch_stats, #!
    tx=optax.adam(1e-3),
  )

  @jax.jit
  def train_step(state: TrainState, batch):
    """Train for a single step."""
    def loss_fn(params):
      logits, updates = state.apply_fn(  #!
        {'params': params, 'batch_stats': state.batch_stats},  #!
        x=batch['image'], train=True, mutable=['batch_stats']) #!
      loss = optax.softmax_cross_entropy_with_integer_labels(
        logits=logits, labels=batch['label']).mean()
      return loss, (logits, updates) #!
    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
    (loss, (logits, updates)), grads = grad_fn(state.params) #!
    state = state.apply_gradients(grads=grads)
    state = state.replace(batch_stats=updates['batch_stats']) #!
    metrics = {
      'loss': loss,
        'accuracy': jnp.mean(jnp.argmax(logits, -1) == batch['label']),
    }
    return state, metrics

  @jax.jit
  def eval_step(state: TrainState, batch):
    """Evaluate for a single step."""
    logits = state.apply_fn(
      {'params': state.params, 'batch_stats': state.batch_stats}, #!
      x=batch['image'], train=False) #!
    loss = optax.softmax_cross_entropy_with_integer_labels(
      logits=logits, labels=batch['label']).mean()
    metrics = {
      'loss': loss,
        'accuracy': jnp.mean(jnp.argmax(logits, -1) == batch['label']),
    }
    return state, metrics

  rng = np.random.RandomState(0)
  batch = {'image': rng.normal(size=(8, 3)).astype(np.float32),
           'label': np.zeros((8,), np.int32)}
  train_metrics = []
  for _ in range(3):
    state, metrics = train_step(state, batch)
    train_metrics.append(metrics)
  _, eval_metrics = eval_step(state, batch)
  return dict(shapes=shapes, y=y, first_batch_stats=batch_stats, train=train_metrics,
              eval=eval_metrics, params=state.params, batch_stats=state.batch_stats,
              step=state.step)


def dropout():
  root_key = jax.random.key(seed=0)
  main_key, params_key, dropout_key = jax.random.split(key=root_key, num=3) #!

  class MyModel(nn.Module):
    num_neurons: int

    @nn.compact
    def __call__(self, x, training: bool): #!
      x = nn.Dense(self.num_neurons)(x)
      # Set the dropout layer with a `rate` of 50%. #!
      # When the `deterministic` flag is `True`, dropout is turned off. #!
      x = nn.Dropout(rate=0.5, deterministic=not training)(x) #!
      return x

  my_model = MyModel(num_neurons=3)
  x = jnp.empty((3, 4, 4))
  # Dropout is disabled with `training=False` (that is, `deterministic=True`). #!
  variables = my_model.init(params_key, x, training=False) #!
  params = variables['params']

  # Dropout is enabled with `training=True` (that is, `deterministic=False`). #!
  x = jax.random.normal(main_key, (3, 4, 4))
  y = my_model.apply({'params': params}, x, training=True, rngs={'dropout': dropout_key}) #!

  class TrainState(train_state.TrainState): #!
    key: jax.Array #!

  state = TrainState.create( #!
    apply_fn=my_model.apply,
    params=params,
    key=dropout_key, #!
    tx=optax.adam(1e-3)
  )

  @jax.jit
  def train_step(state: TrainState, batch, dropout_key): #!
    dropout_train_key = jax.random.fold_in(key=dropout_key, data=state.step) #!
    def loss_fn(params):
      logits = state.apply_fn(
        {'params': params},
        x=batch['image'],
        training=True, #!
        rngs={'dropout': dropout_train_key} #!
        )
      loss = optax.softmax_cross_entropy_with_integer_labels(
        logits=logits, labels=batch['label'])
      return loss.mean(), logits
    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
    (loss, logits), grads = grad_fn(state.params)
    state = state.apply_gradients(grads=grads)
    return state

  batch = {'image': x, 'label': jnp.array([[0, 1, 2, 0]] * 3)}
  for _ in range(3):
    state = train_step(state, batch, state.key)
  return dict(y=y, params=state.params, step=state.step)


def lr_schedule():
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

  def get_dummy_data(ds_size):
    image = np.random.rand(ds_size, 8, 8, 1)
    label = np.random.randint(low=0, high=10, size=(ds_size,))
    return {'image': image, 'label': label}

  def get_config():
    """Get the default hyperparameter configuration."""
    config = SimpleNamespace()
    config.learning_rate = 0.001
    config.momentum = 0.9
    config.batch_size = 8
    config.num_epochs = 3
    config.warmup_epochs = 1
    config.train_ds_size = 32
    return config

  def compute_metrics(logits, labels):
    one_hot = jax.nn.one_hot(labels, 10)
    loss = jnp.mean(optax.softmax_cross_entropy(logits, one_hot))
    accuracy = jnp.mean(jnp.argmax(logits, -1) == labels)
    metrics = {
        'loss': loss,
        'accuracy': accuracy,
    }
    return metrics

  def create_learning_rate_fn(config, base_learning_rate, steps_per_epoch):
    """Creates learning rate schedule."""
    warmup_fn = optax.linear_schedule(
        init_value=0., end_value=base_learning_rate,
        transition_steps=config.warmup_epochs * steps_per_epoch)
    cosine_epochs = max(config.num_epochs - config.warmup_epochs, 1)
    cosine_fn = optax.cosine_decay_schedule(
        init_value=base_learning_rate,
        decay_steps=cosine_epochs * steps_per_epoch)
    schedule_fn = optax.join_schedules(
        schedules=[warmup_fn, cosine_fn],
        boundaries=[config.warmup_epochs * steps_per_epoch])
    return schedule_fn

  @functools.partial(jax.jit, static_argnums=2) #!
  def train_step(state, batch, learning_rate_fn): #!
    def loss_fn(params):
      logits = CNN().apply({'params': params}, batch['image'])
      one_hot = jax.nn.one_hot(batch['label'], 10)
      loss = jnp.mean(optax.softmax_cross_entropy(logits, one_hot))
      return loss, logits
    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
    (_, logits), grads = grad_fn(state.params)
    new_state = state.apply_gradients(grads=grads)
    metrics = compute_metrics(logits, batch['label'])
    lr = learning_rate_fn(state.step) #!
    metrics['learning_rate'] = lr #!
    return new_state, metrics

  def train_epoch(state, train_ds, batch_size, epoch, learning_rate_fn, rng): #!
    """Trains for a single epoch."""
    train_ds_size = len(train_ds['image'])
    steps_per_epoch = train_ds_size // batch_size
    perms = jax.random.permutation(rng, len(train_ds['image']))
    perms = perms[:steps_per_epoch * batch_size]
    perms = perms.reshape((steps_per_epoch, batch_size))
    batch_metrics = []
    for perm in perms:
      batch = {k: v[perm, ...] for k, v in train_ds.items()}
      state, metrics = train_step(state, batch, learning_rate_fn) #!
      batch_metrics.append(metrics)
    # compute mean of metrics across each batch in epoch.
    batch_metrics = jax.device_get(batch_metrics)
    epoch_metrics = {
        k: np.mean([metrics[k] for metrics in batch_metrics])
        for k in batch_metrics[0]}
    return state, epoch_metrics

  def create_train_state(rng, config, learning_rate_fn): #!
    """Creates initial `TrainState`."""
    cnn = CNN()
    params = cnn.init(rng, jnp.ones([1, 8, 8, 1]))['params']
    tx = optax.sgd(learning_rate_fn, config.momentum) #!
    return train_state.TrainState.create(
        apply_fn=cnn.apply, params=params, tx=tx)

  np.random.seed(0)
  config = get_config()
  train_ds_size = config.train_ds_size
  steps_per_epoch = train_ds_size // config.batch_size
  learning_rate_fn = create_learning_rate_fn(config, config.learning_rate, steps_per_epoch)
  rng = jax.random.key(0)
  state = create_train_state(rng, config, learning_rate_fn)
  train_ds = get_dummy_data(config.train_ds_size)
  epochs = []
  for epoch in range(config.num_epochs):
    rng, _ = jax.random.split(rng)
    state, epoch_metrics = train_epoch(state, train_ds, config.batch_size, epoch,
                                       learning_rate_fn, rng)
    assert 'accuracy' in epoch_metrics and 'learning_rate' in epoch_metrics
    epochs.append(epoch_metrics)
  return dict(epochs=epochs, lr=[learning_rate_fn(i) for i in range(14)],
              params=state.params, step=state.step)


def run():
  return dict(batch_norm=batch_norm(), dropout=dropout(), lr_schedule=lr_schedule())
