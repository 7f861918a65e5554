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


"""Flax's docs/guides/flax_fundamentals/state_params.rst ("Managing parameters and state") and
setup_or_nncompact.rst: their code blocks verbatim in `run()` (three epochs instead of one; a
BatchNorm MLP under `vmap` with `axis_name='batch'` and `out_axes=(0, None)`); the `setup` and
`nn.compact` MLPs initialized and applied on one input. run() returns parameters, state and
losses."""

from functools import partial

import flax
from flax import linen as nn
from jax import random
import jax.numpy as jnp
import jax
import optax


def setup_or_compact():
  class SetupMLP(nn.Module):
    def setup(self):
      # Submodule names are derived by the attributes you assign to. In this
      # case, "dense1" and "dense2". This follows the logic in PyTorch.
      self.dense1 = nn.Dense(32)
      self.dense2 = nn.Dense(32)

    def __call__(self, x):
      x = self.dense1(x)
      x = nn.relu(x)
      x = self.dense2(x)
      return x

  class CompactMLP(nn.Module):
    @nn.compact #!
    def __call__(self, x):
      x = nn.Dense(32, name="dense1")(x) #!
      x = nn.relu(x)
      x = nn.Dense(32, name="dense2")(x) #!
      return x

  x = random.normal(random.key(1), (2, 3))
  out = []
  for model in (SetupMLP(), CompactMLP()):
    y, variables = model.init_with_output(random.key(0), x)
    out.append(dict(y=y, params=variables['params']))
  return out


def state_params():
  dummy_input = jnp.ones((3, 4))
  num_epochs = 3

  class BiasAdderWithRunningMean(nn.Module):
    momentum: float = 0.9

    @nn.compact
    def __call__(self, x):
      is_initialized = self.has_variable('batch_stats', 'mean')
      mean = self.variable('batch_stats', 'mean', jnp.zeros, x.shape[1:])
      bias = self.param('bias', lambda rng, shape: jnp.zeros(shape), x.shape[1:])
      if is_initialized:
        mean.value = (self.momentum * mean.value +
                      (1.0 - self.momentum) * jnp.mean(x, axis=0, keepdims=True))
      return mean.value + bias

  def update_step(apply_fn, x, opt_state, params, state):
    def loss(params):
      y, updated_state = apply_fn({'params': params, **state},
                                  x, mutable=list(state.keys()))
      l = ((x - y) ** 2).sum() # Replace with your loss here.
      return l, updated_state

    (l, updated_state), grads = jax.value_and_grad(
        loss, has_aux=True)(params)
    updates, opt_state = tx.update(grads, opt_state)  # Defined below.
    params = optax.apply_updates(params, updates)
    return opt_state, params, updated_state

  model = BiasAdderWithRunningMean()
  variables = model.init(random.key(0), dummy_input)
  # Split state and params (which are updated by optimizer).
  state, params = flax.core.pop(variables, 'params')
  del variables  # Delete variables to avoid wasting resources
  tx = optax.sgd(learning_rate=0.02)
  opt_state = tx.init(params)

  for _ in range(num_epochs):
    opt_state, params, state = update_step(
        model.apply, dummy_input, opt_state, params, state)
  return dict(params=params, state=state)


def batch_norm_vmap():
  dummy_input = jnp.ones((100,))
  key1, key2 = random.split(random.key(0), num=2)
  batch_size = 64
  X = random.normal(key1, (batch_size, 100))
  Y = random.normal(key2, (batch_size, 1))
  num_epochs = 3

  class MLP(nn.Module):
    hidden_size: int
    out_size: int

    @nn.compact
    def __call__(self, x, train=False):
      norm = partial(
          nn.BatchNorm,
          use_running_average=not train,
          momentum=0.9,
          epsilon=1e-5,
          axis_name="batch", # Name batch dim
      )

      x = nn.Dense(self.hidden_size)(x)
      x = norm()(x)
      x = nn.relu(x)
      x = nn.Dense(self.hidden_size)(x)
      x = norm()(x)
      x = nn.relu(x)
      y = nn.Dense(self.out_size)(x)
      return y

  def update_step(apply_fn, x_batch, y_batch, opt_state, params, state):

    def batch_loss(params):
      def loss_fn(x, y):
        pred, updated_state = apply_fn(
          {'params': params, **state},
          x, mutable=list(state.keys())
        )
        return (pred - y) ** 2, updated_state

      loss, updated_state = jax.vmap(
        loss_fn, out_axes=(0, None),  # Do not vmap `updated_state`.
        axis_name='batch'  # Name batch dim
      )(x_batch, y_batch)  # vmap only `x`, `y`, but not `state`.
      return jnp.mean(loss), updated_state

    (loss, updated_state), grads = jax.value_and_grad(
      batch_loss, has_aux=True
    )(params)

    updates, opt_state = tx.update(grads, opt_state)  # Defined below.
    params = optax.apply_updates(params, updates)
    return opt_state, params, updated_state, loss

  model = MLP(hidden_size=10, out_size=1)
  variables = model.init(random.key(0), dummy_input)
  # Split state and params (which are updated by optimizer).
  state, params = flax.core.pop(variables, 'params')
  del variables  # Delete variables to avoid wasting resources
  tx = optax.sgd(learning_rate=0.02)
  opt_state = tx.init(params)

  losses = []
  for _ in range(num_epochs):
    opt_state, params, state, loss = update_step(
        model.apply, X, Y, opt_state, params, state)
    losses.append(loss)
  return dict(losses=losses, state=flax.core.unfreeze(state), params=params)


def run():
  return dict(setup_or_compact=setup_or_compact(), state_params=state_params(),
              batch_norm_vmap=batch_norm_vmap())
