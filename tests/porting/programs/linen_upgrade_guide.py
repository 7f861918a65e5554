# Copyright 2024 The Flax Authors.
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

"""Flax's docs/guides/converting_and_upgrading/linen_upgrade_guide.rst ("Upgrading my codebase
to Linen"): the Linen side of each `codediff` and its `testsetup` verbatim in `run()`, the
page's elisions (`# [...]`) and undefined names filled minimally (port): a `Decoder`, a `CNN`,
a `Transformer` of one `Dropout`, the config and batch, `true` as `True` in `ResNet(train=true)`
(the page's typo). Covers: a hand-written `Dense` with `lecun_normal`/`zeros_init` attributes,
an `Encoder` with a named `Dense`, a `setup` auto-encoder with a `generate` method applied by
`method=`, a ResNet stem from `functools.partial`s of `Conv`/`BatchNorm`, a `TrainState` from
`CNN.apply` and its loss, `batch_stats` variables declared without `@nn.compact` (Flax's
error), initial variables, a mutable `batch_stats` training apply and an immutable
evaluation apply, a `Dropout` written with `make_rng`/`bernoulli`/`lax.select`. run() returns
the parameters, outputs, losses and errors (a Flax error by its most general `flax.errors`
class, another by its built-in class and first line)."""

import re


def _error(e):  # (port) Flax's own error classes (numbax keeps them in nn.flax_errors)
  import flax
  mro = type(e).__mro__
  named = [c for c in mro if getattr(flax.errors, c.__name__, None) is c
           and c.__module__ in ('flax.errors', 'nn.flax_errors')]
  named = [c for c in named if c is not flax.errors.FlaxError]
  if named:
    return named[-1].__name__
  builtin = next(c for c in mro if c.__module__ == 'builtins')
  line = str(e).splitlines()[0].replace(f'{__name__}.', '')
  return f"{builtin.__name__}: {re.sub(' at 0x[0-9a-f]+', ' at 0x...', line)}"


def run():
  out = {}

  # testsetup
  from flax.training import train_state
  from jax import random
  import optax
  import jax
  import flax.linen as nn
  from flax.linen import initializers

  from jax import lax
  import jax.numpy as jnp
  import numpy as np
  from typing import Any, Callable, Sequence, Tuple

  PRNGKey = Any
  Shape = Tuple[int, ...]
  Dtype = Any
  Array = Any

  default_kernel_init = initializers.lecun_normal()

  # Defining simple Flax Modules
  from flax import linen as nn  # [1]

  class Dense(nn.Module):
    features: int  # [2]
    use_bias: bool = True
    kernel_init: Callable[[PRNGKey, Shape, Dtype], Array] = default_kernel_init
    bias_init: Callable[[PRNGKey, Shape, Dtype], Array] = initializers.zeros_init()

    @nn.compact
    def __call__(self, inputs):  # [3]
      kernel = self.param('kernel',
        self.kernel_init, (inputs.shape[-1], self.features))  # [4]
      y = jnp.dot(inputs, kernel)
      if self.use_bias:
        bias = self.param(
          'bias', self.bias_init, (self.features,))  # [5]
        y = y + bias
      return y

  x = random.normal(random.key(1), (2, 3))  # (port)
  variables = Dense(4).init(random.key(0), x)
  out['dense'] = dict(variables=variables, y=Dense(4).apply(variables, x),
                      no_bias=Dense(4, use_bias=False).init(random.key(0), x))

  # Using Flax Modules inside other Modules
  class Encoder(nn.Module):
    @nn.compact
    def __call__(self, x):
      x = nn.Dense(500)(x)  # [1]
      x = nn.relu(x)
      z = nn.Dense(500, name='latents')(x)  # [2]
      return z

  variables = Encoder().init(random.key(0), x)
  out['encoder'] = dict(shapes=jax.tree.map(jnp.shape, variables),
                        z=Encoder().apply(variables, x)[:, :8])

  # Sharing submodules and defining multiple methods
  class Decoder(nn.Module):  # (port) not on the page
    @nn.compact
    def __call__(self, z):
      return nn.Dense(3)(z)

  class AutoEncoder(nn.Module):
    latents: int = 20

    def setup(self):  # [1]
      self.encoder = Encoder(self.latents)  # [2]
      self.decoder = Decoder()

    def __call__(self, x):  # [3]
      z = self.encoder(x)
      return self.decoder(z)

    def generate(self, z):  # [4]
      return nn.sigmoid(self.decoder(z))

  try:
    AutoEncoder().init(random.key(0), x)
  except TypeError as e:  # (port) the page's Encoder takes no latents
    out['autoencoder_error'] = _error(e)

  class Encoder(nn.Module):  # (port) with the latents the page passes
    latents: int

    @nn.compact
    def __call__(self, x):
      x = nn.Dense(500)(x)
      x = nn.relu(x)
      return nn.Dense(self.latents, name='latents')(x)

  variables = AutoEncoder().init(random.key(0), x)
  z = jnp.ones((2, 20))
  out['autoencoder'] = dict(
      keys=jax.tree.map(jnp.shape, variables), y=AutoEncoder().apply(variables, x),
      generated=AutoEncoder().apply(variables, z, method=AutoEncoder.generate))

  # Module.partial inside other modules
  from functools import partial

  class ResNet(nn.Module):
    """ResNetV1."""
    stage_sizes: Sequence[int]
    num_filters: int = 64
    train: bool = True

    @nn.compact
    def __call__(self, x):
      conv = partial(nn.Conv, use_bias=False)
      norm = partial(nn.BatchNorm,
                    use_running_average=not self.train,
                    momentum=0.9, epsilon=1e-5)

      x = conv(self.num_filters, (7, 7), (2, 2),
              padding=[(3, 3), (3, 3)],
              name='conv_init')(x)
      x = norm(name='bn_init')(x)

      # [...]
      return x

  images = random.normal(random.key(2), (2, 8, 8, 3))  # (port)
  variables = ResNet([1], num_filters=4).init(random.key(0), images)
  y, new_state = ResNet([1], num_filters=4).apply(variables, images, mutable=['batch_stats'])
  out['resnet'] = dict(variables=variables, y=y, new_state=new_state)

  # Top-level training code patterns
  class CNN(nn.Module):  # (port) not on the page
    @nn.compact
    def __call__(self, x):
      x = nn.Conv(features=4, kernel_size=(3, 3))(x)
      x = nn.relu(x)
      x = x.reshape((x.shape[0], -1))
      return nn.Dense(10)(x)

  class config:  # (port)
    learning_rate = 0.1
    momentum = 0.9

  def create_train_state(rng, config):  # [1]
    variables = CNN().init(rng, jnp.ones([1, 28, 28, 1]))  # [2]
    params = variables['params']  # [3]
    tx = optax.sgd(config.learning_rate, config.momentum)  # [4]
    return train_state.TrainState.create(
        apply_fn=CNN.apply, params=params, tx=tx)

  batch = {'image': random.uniform(random.key(3), (4, 28, 28, 1)),  # (port)
           'label': jnp.array([0, 3, 9, 3])}

  def loss_fn(params):
    logits = CNN().apply({'params': params}, batch['image'])  # [5]
    one_hot = jax.nn.one_hot(batch['label'], 10)
    loss = jnp.mean(optax.softmax_cross_entropy(logits=logits,
                                                labels=one_hot))
    return loss, logits

  state = create_train_state(random.key(0), config)
  (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
  state = state.apply_gradients(grads=grads)
  out['train'] = dict(loss=loss, logits=logits, step=state.step, params=state.params,
                      apply_fn=state.apply_fn.__name__)

  # Non-trainable variables ("state"): Use within Modules
  class BatchNorm(nn.Module):
    def __call__(self, x):
      # [...]
      ra_mean = self.variable(
        'batch_stats', 'mean', initializers.zeros_init(), (x.shape[-1], ))
      ra_var = self.variable(
        'batch_stats', 'var', initializers.ones_init(), (x.shape[-1], ))
      # [...]
      return x  # (port)

  try:
    BatchNorm().init(random.key(0), x)
  except Exception as e:  # (port) no @nn.compact: Flax's error
    out['batchnorm_error'] = _error(e)

  # Non-trainable variables ("state"): Top-level training code patterns
  class ResNet(nn.Module):  # (port) the page's ResNet() with no arguments
    train: bool = True

    @nn.compact
    def __call__(self, x):
      x = nn.Conv(4, (3, 3), use_bias=False)(x)
      x = nn.BatchNorm(use_running_average=not self.train, momentum=0.9)(x)
      return nn.Dense(10)(x.reshape((x.shape[0], -1)))

  def compute_metrics(logits, labels):  # (port)
    return {'accuracy': jnp.mean(jnp.argmax(logits, -1) == labels)}

  # initial variables ({"param": ..., "batch_stats": ...})
  def initial_variables(key, init_batch):
    return ResNet().init(key, init_batch)  # [1]

  true = True  # (port) the page's `ResNet(train=true)`

  # updates batch statistics during training
  def loss_fn(params, batch_stats):
    variables = {'params': params, 'batch_stats': batch_stats}  # [2]
    logits, new_variables = ResNet(train=true).apply(
      variables, batch['image'], mutable=['batch_stats'])  # [3]
    new_batch_stats = new_variables['batch_stats']
    # [...]
    return optax.softmax_cross_entropy_with_integer_labels(  # (port)
        logits, batch['label']).mean(), new_batch_stats

  # reads immutable batch statistics during evaluation
  def eval_step(params, batch_stats, batch):
    variables = {'params': params, 'batch_stats': batch_stats}
    logits = ResNet(train=False).apply(
      variables, batch['image'], mutable=False)  # [4]
    return compute_metrics(logits, batch['label'])

  variables = initial_variables(random.key(0), batch['image'])
  (loss, new_batch_stats), grads = jax.value_and_grad(loss_fn, has_aux=True)(
      variables['params'], variables['batch_stats'])
  out['batch_stats'] = dict(
      loss=loss, new_batch_stats=new_batch_stats, grads=grads,
      eval=eval_step(variables['params'], new_batch_stats, batch))

  # Randomness
  class Dropout(nn.Module):
    rate: float

    @nn.compact
    def __call__(self, inputs, deterministic=False):
      keep_prob = 1. - self.rate
      if deterministic:
        return inputs
      else:
        mask = random.bernoulli(
          self.make_rng('dropout'), p=keep_prob, shape=inputs.shape)  # [1]
        return lax.select(
          mask, inputs / keep_prob, jnp.zeros_like(inputs))

  class Transformer(nn.Module):  # (port) not on the page
    @nn.compact
    def __call__(self, x):
      return Dropout(0.5)(nn.Dense(6)(x))

  inputs = jnp.ones((3, 4))  # (port)
  params = Transformer().init({'params': random.key(0), 'dropout': random.key(1)},
                              inputs)['params']

  def loss_fn(params, dropout_rng):
    logits = Transformer().apply(
      {'params': params}, inputs, rngs={'dropout': dropout_rng})  # [2]
    return logits  # (port)

  out['dropout'] = dict(
      logits=loss_fn(params, random.key(4)),
      jit=jax.jit(loss_fn)(params, random.key(4)),
      deterministic=Dropout(0.5).apply({}, inputs, deterministic=True))
  try:
    Transformer().apply({'params': params}, inputs)
  except Exception as e:  # (port) no 'dropout' rng given
    out['dropout_error'] = _error(e)
  return out
