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


"""Flax's docs/guides/model_inspection/model_surgery.md: its code cells verbatim in `run()`
(8x8 instead of 28x28 images); run() returns the shapes each cell showed, the types and pytree
structures involved, and the modified kernel."""

import functools

import jax
import jax.numpy as jnp
from flax import traverse_util
from flax import linen as nn
from flax.core import freeze, unfreeze
import jax
import optax


def run():
  out = {}

  class CNN(nn.Module):
      @nn.compact
      def __call__(self, x):
        x = nn.Conv(features=32, kernel_size=(3, 3))(x)
        x = nn.relu(x)
        x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
        x = nn.Conv(features=64, kernel_size=(3, 3))(x)
        x = nn.relu(x)
        x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
        x = x.reshape((x.shape[0], -1))
        x = nn.Dense(features=256)(x)
        x = nn.relu(x)
        x = nn.Dense(features=10)(x)
        x = nn.log_softmax(x)
        return x

  def get_initial_params(key):
      init_shape = jnp.ones((1, 8, 8, 1), jnp.float32)
      initial_params = CNN().init(key, init_shape)['params']
      return initial_params

  key = jax.random.key(0)
  params = get_initial_params(key)

  out['params'] = [type(params).__name__, jax.tree_util.tree_map(jnp.shape, params)]

  # Get a flattened key-value list.
  flat_params = traverse_util.flatten_dict(params, sep='/')

  out['flat_params'] = [type(flat_params).__name__, sorted(flat_params),
                        jax.tree_util.tree_map(jnp.shape, flat_params)]

  # Somehow modify a layer
  dense_kernel = flat_params['Dense_1/kernel']
  flat_params['Dense_1/kernel'] = dense_kernel / jnp.linalg.norm(dense_kernel)

  # Unflatten.
  unflat_params = traverse_util.unflatten_dict(flat_params, sep='/')
  # Refreeze.
  unflat_params = freeze(unflat_params)
  out['unflat_params'] = [type(unflat_params).__name__,
                          unfreeze(jax.tree_util.tree_map(jnp.shape, unflat_params)),
                          unflat_params['Dense_1']['kernel']]

  tx = optax.adam(1.0)
  opt_state = tx.init(params)

  # The optimizer state is a tuple of gradient transformation states.
  out['opt_state'] = [str(jax.tree.structure(opt_state)),
                      jax.tree_util.tree_map(jnp.shape, opt_state)]

  flat_mu = traverse_util.flatten_dict(opt_state[0].mu, sep='/')
  flat_nu = traverse_util.flatten_dict(opt_state[0].nu, sep='/')

  out['flat_mu'] = jax.tree_util.tree_map(jnp.shape, flat_mu)

  opt_state = (
      opt_state[0]._replace(
          mu=traverse_util.unflatten_dict(flat_mu, sep='/'),
          nu=traverse_util.unflatten_dict(flat_nu, sep='/'),
      ),
  ) + opt_state[1:]
  out['replaced'] = [str(jax.tree.structure(opt_state)),
                     jax.tree_util.tree_map(jnp.shape, opt_state)]
  return out
