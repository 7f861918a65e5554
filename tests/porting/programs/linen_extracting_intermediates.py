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


"""Flax's docs/guides/model_inspection/extracting_intermediates.rst: its code blocks verbatim
in `run()` (8x8 instead of 32x32 and 28x28 images); run() returns the extracted
intermediates, their structure and the perturbations' gradients."""

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
from typing import Sequence


def run():
  out = {}
  batch = jnp.ones((4, 8, 8, 3))

  class CNN(nn.Module):
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
      x = nn.log_softmax(x)
      return x

  class SowCNN(nn.Module):
    @nn.compact
    def __call__(self, x):
      x = nn.Conv(features=32, kernel_size=(3, 3))(x)
      x = nn.relu(x)
      x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
      x = nn.Conv(features=64, kernel_size=(3, 3))(x)
      x = nn.relu(x)
      x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
      x = x.reshape((x.shape[0], -1))  # flatten
      self.sow('intermediates', 'features', x) #!
      x = nn.Dense(features=256)(x)
      x = nn.relu(x)
      x = nn.Dense(features=10)(x)
      x = nn.log_softmax(x)
      return x

  class SowCNN2(nn.Module):
    @nn.compact
    def __call__(self, x):
      mod = SowCNN(name='SowCNN')
      return mod(x) + mod(x)  # Calling same module instance twice.

  @jax.jit
  def init(key, x):
    variables = SowCNN2().init(key, x)
    # By default the 'intermediates' collection is not mutable during init.
    # So variables will only contain 'params' here.
    return variables

  @jax.jit
  def predict(variables, x):
    # If mutable='intermediates' is not specified, then .sow() acts as a noop.
    output, mod_vars = SowCNN2().apply(variables, x, mutable='intermediates')
    features = mod_vars['intermediates']['SowCNN']['features']
    return output, features

  batch = jnp.ones((1,8,8,1))
  variables = init(jax.random.key(0), batch)
  preds, feats = predict(variables, batch)
  assert len(feats) == 2  # Tuple with two values since module was called twice.
  out['sow'] = dict(collections=sorted(variables), preds=preds, feats=feats,
                    feats_type=type(feats).__name__)

  class RefactoredCNN(nn.Module):
    def setup(self):
      self.features = Features()
      self.classifier = Classifier()

    def __call__(self, x):
      x = self.features(x)
      x = self.classifier(x)
      return x

  class Features(nn.Module):
    @nn.compact
    def __call__(self, x):
      x = nn.Conv(features=32, kernel_size=(3, 3))(x)
      x = nn.relu(x)
      x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
      x = nn.Conv(features=64, kernel_size=(3, 3))(x)
      x = nn.relu(x)
      x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
      x = x.reshape((x.shape[0], -1))  # flatten
      return x

  class Classifier(nn.Module):
    @nn.compact
    def __call__(self, x):
      x = nn.Dense(features=256)(x)
      x = nn.relu(x)
      x = nn.Dense(features=10)(x)
      x = nn.log_softmax(x)
      return x

  @jax.jit
  def init(key, x):
    variables = RefactoredCNN().init(key, x)
    return variables['params']

  @jax.jit
  def features(params, x):
    return RefactoredCNN().apply({"params": params}, x,
      method=lambda module, x: module.features(x))

  batch = jnp.ones((4, 8, 8, 3))
  params = init(jax.random.key(0), batch)
  out['refactored'] = features(params, batch)

  @jax.jit
  def init(key, x):
    variables = CNN().init(key, x)
    return variables

  @jax.jit
  def predict(variables, x):
    y, state = CNN().apply(variables, x, capture_intermediates=True, mutable=["intermediates"])
    intermediates = state['intermediates']
    fin = jax.tree_util.tree_map(lambda xs: jnp.all(jnp.isfinite(xs)), intermediates)
    return y, fin

  variables = init(jax.random.key(0), batch)
  y, is_finite = predict(variables, batch)
  all_finite = all(jax.tree_util.tree_leaves(is_finite))
  assert all_finite, "non-finite intermediate detected!"
  out['capture'] = dict(y=y, is_finite=is_finite)

  filter_Dense = lambda mdl, method_name: isinstance(mdl, nn.Dense)
  filter_encodings = lambda mdl, method_name: method_name == "encode"

  y, state = CNN().apply(variables, batch, capture_intermediates=filter_Dense, mutable=["intermediates"])
  dense_intermediates = state['intermediates']
  out['dense_intermediates'] = dense_intermediates

  class Model(nn.Module):
    @nn.compact
    def __call__(self, x):
      a = nn.Dense(4)(x) # Dense_0
      b = nn.Dense(4)(x) # Dense_1
      c = a + b # not a Flax layer, so won't be stored as an intermediate
      d = nn.Dense(4)(c) # Dense_2
      return d

  @jax.jit
  def init(key, x):
    variables = Model().init(key, x)
    return variables['params']

  @jax.jit
  def predict(params, x):
    return Model().apply({"params": params}, x, capture_intermediates=True)

  batch = jax.random.uniform(jax.random.key(1), (1,3))
  params = init(jax.random.key(0), batch)
  preds, feats = predict(params, batch)
  out['model'] = dict(preds=preds, feats=feats)

  class Model(nn.Module):
    @nn.compact
    def __call__(self, x):
      a = nn.Dense(4)(x) # Dense_0
      b = nn.Dense(4)(x) # Dense_1
      c = a + b
      self.sow('intermediates', 'c', c) # store intermediate c #!
      d = nn.Dense(4)(c) # Dense_2
      return d

  @jax.jit
  def init(key, x):
    variables = Model().init(key, x)
    return variables['params']

  @jax.jit
  def predict(params, x):
    # filter specifically for only the Dense_0 and Dense_2 layer #!
    filter_fn = lambda mdl, method_name: isinstance(mdl.name, str) and (mdl.name in {'Dense_0', 'Dense_2'}) #!
    return Model().apply({"params": params}, x, capture_intermediates=filter_fn) #!

  batch = jax.random.uniform(jax.random.key(1), (1,3))
  params = init(jax.random.key(0), batch)
  preds, feats = predict(params, batch)
  out['model_sow'] = dict(preds=preds, feats=feats)

  flattened_dict = flax.traverse_util.flatten_dict(feats['intermediates'], sep='/')
  out['flattened_c'] = flattened_dict['c']
  out['flattened_keys'] = sorted(flattened_dict)

  class Sequential(nn.Module):
    layers: Sequence[nn.Module]

    def __call__(self, x):
      for layer in self.layers:
        x = layer(x)
      return x

  def SeqCNN():
    return Sequential([
      nn.Conv(features=32, kernel_size=(3, 3)),
      nn.relu,
      lambda x: nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2)),
      nn.Conv(features=64, kernel_size=(3, 3)),
      nn.relu,
      lambda x: nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2)),
      lambda x: x.reshape((x.shape[0], -1)),  # flatten
      nn.Dense(features=256),
      nn.relu,
      nn.Dense(features=10),
      nn.log_softmax,
    ])

  @jax.jit
  def init(key, x):
    variables = SeqCNN().init(key, x)
    return variables['params']

  @jax.jit
  def features(params, x):
    return Sequential(SeqCNN().layers[0:7]).apply({"params": params}, x)

  batch = jnp.ones((1,8,8,1))
  params = init(jax.random.key(0), batch)
  out['sequential'] = dict(features=features(params, batch),
                           params=jax.tree.map(jnp.shape, params))

  class Model(nn.Module):
    @nn.compact
    def __call__(self, x):
      x = nn.relu(nn.Dense(8)(x))
      x = self.perturb('hidden', x)
      x = nn.Dense(2)(x)
      x = self.perturb('logits', x)
      return x

  x = jnp.empty((1, 4)) # random data
  y = jnp.empty((1, 2)) # random data

  model = Model()
  variables = model.init(jax.random.key(1), x)
  params, perturbations = variables['params'], variables['perturbations']

  def loss_fn(params, perturbations, x, y):
    y_pred = model.apply({'params': params, 'perturbations': perturbations}, x)
    return jnp.mean((y_pred - y) ** 2)

  intermediate_grads = jax.grad(loss_fn, argnums=1)(params, perturbations, x, y)
  out['perturb'] = dict(perturbations=perturbations, grads=intermediate_grads)
  return out
