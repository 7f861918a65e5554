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

"""Flax's docs/guides/converting_and_upgrading/haiku_migration_guide.rst ("Migrating from Haiku
to Flax"): the Flax side of each `codediff` verbatim in `run()` (Haiku is not installed; the
`...` placeholders left out): a dropout MLP's `init` with a keyword input and a jitless
`train_step` with `rngs={'dropout': key}`, its BatchNorm variant through `mutable='batch_stats'`
and `grad(has_aux=True)`, a `setup` auto-encoder applied with `method="encode"`, an RNN by
`nn.scan` of a cell class whose extra `initial_state` method is called on the lifted instance,
scan over layers with `variable_axes={'params': 0}` and `length=`, a `counter` variable that
`is_initializing()` guards. The scanned stack is applied too, deterministic and in training:
the `dropout` stream, not among `split_rngs`, does not reach the scanned blocks (Flax's
`InvalidRngError`, recorded by its class). run() returns the parameters' shapes (what the guide's tab-sets
show) and values, the outputs and the updated states; the train steps run as the guide's hidden
`testcode` runs them."""

import jax
import jax.numpy as jnp
from jax import random
import optax
import flax.linen as nn


def run():
  out = {}

  class Block(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x, training: bool):
      x = nn.Dense(self.features)(x)
      x = nn.Dropout(0.5, deterministic=not training)(x)
      x = jax.nn.relu(x)
      return x

  class Model(nn.Module):
    dmid: int
    dout: int

    @nn.compact
    def __call__(self, x, training: bool):
      x = Block(self.dmid)(x, training)
      x = nn.Dense(self.dout)(x)
      return x

  model = Model(256, 10)

  sample_x = jax.numpy.ones((1, 784))
  variables = model.init(
    random.key(0),
    sample_x, training=False # <== inputs
  )
  params = variables["params"]
  out['basic_shapes'] = jax.tree.map(lambda x: x.shape, params)

  def train_step(key, params, inputs, labels):
    def loss_fn(params):
        logits = model.apply(
          {'params': params},
          inputs, training=True, # <== inputs
          rngs={'dropout': key}
        )
        return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()

    grads = jax.grad(loss_fn)(params)
    params = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)

    return params

  out['basic_step'] = train_step(random.key(0), params, sample_x, jnp.ones((1,), dtype=jnp.int32))

  class Block(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x, training: bool):
      x = nn.Dense(self.features)(x)
      x = nn.BatchNorm(
        momentum=0.99
      )(x, use_running_average=not training)
      x = jax.nn.relu(x)
      return x

  model = Model(256, 10)

  sample_x = jax.numpy.ones((1, 784))
  variables = model.init(
    random.key(0), #!
    sample_x, training=False # <== inputs
  )
  params, batch_stats = variables["params"], variables["batch_stats"]
  out['state_shapes'] = jax.tree.map(lambda x: x.shape, variables)

  def train_step(params, batch_stats, inputs, labels):
    def loss_fn(params):
      logits, updates = model.apply(
        {'params': params, 'batch_stats': batch_stats},
        inputs, training=True, # <== inputs
        mutable='batch_stats',
      )
      loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
      return loss, updates["batch_stats"]

    grads, batch_stats = jax.grad(loss_fn, has_aux=True)(params)
    params = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)

    return params, batch_stats

  # (port) Two examples instead of the guide's one: BatchNorm of one example normalizes it to 0.
  out['state_step'] = train_step(params, batch_stats, jnp.stack([sample_x[0], 2 * sample_x[0]]),
                                 jnp.ones((2,), dtype=jnp.int32))

  class AutoEncoder(nn.Module):
    embed_dim: int
    output_dim: int

    def setup(self):
      self.encoder = nn.Dense(self.embed_dim)
      self.decoder = nn.Dense(self.output_dim)

    def encode(self, x):
      return self.encoder(x)

    def decode(self, x):
      return self.decoder(x)

    def __call__(self, x):
      x = self.encode(x)
      x = self.decode(x)
      return x

  model = AutoEncoder(256, 784)

  variables = model.init(
    random.key(0),
    x=jax.numpy.ones((1, 784)),
  )
  params = variables["params"]
  out['autoencoder_shapes'] = jax.tree.map(lambda x: x.shape, params)

  z = model.apply(
    {"params": params},
    x=jax.numpy.ones((1, 784)),
    method="encode",
  )
  out['z'] = z

  class RNNCell(nn.Module):
    hidden_size: int

    @nn.compact
    def __call__(self, carry, x):
      x = jnp.concatenate([carry, x], axis=-1)
      x = nn.Dense(self.hidden_size)(x)
      x = jax.nn.relu(x)
      return x, x

    def initial_state(self, batch_size: int):
      return jnp.zeros((batch_size, self.hidden_size))

  class RNN(nn.Module):
    hidden_size: int

    @nn.compact
    def __call__(self, x):
      rnn = nn.scan(RNNCell, variable_broadcast='params', split_rngs={'params': False},
                    in_axes=1, out_axes=1)(self.hidden_size)
      carry = rnn.initial_state(x.shape[0])
      carry, y = rnn(carry, x)
      return y

  model = RNN(64)
  variables = model.init(
    random.key(0),
    x=jax.numpy.ones((3, 12, 32)),
  )
  params = variables['params']
  y = model.apply(
    {'params': params},
    x=jax.numpy.ones((3, 12, 32)),
  )
  out['rnn_params'] = params
  out['rnn_y'] = y

  class Block(nn.Module):
    features: int
    training: bool

    @nn.compact
    def __call__(self, x, _):
      x = nn.Dense(self.features)(x)
      x = nn.Dropout(0.5)(x, deterministic=not self.training)
      x = jax.nn.relu(x)
      return x, None

  class MLP(nn.Module):
    features: int
    num_layers: int

    @nn.compact
    def __call__(self, x, training: bool):
      ScanBlock = nn.scan(
        Block, variable_axes={'params': 0}, split_rngs={'params': True},
        length=self.num_layers)

      y, _ = ScanBlock(self.features, training)(x, None)
      return y

  model = MLP(64, num_layers=5)

  sample_x = jax.numpy.ones((1, 64))
  variables = model.init(
    random.key(0),
    sample_x, training=False # <== inputs
  )
  params = variables['params']
  out['scan_params'] = params
  # (port) The stack applied, deterministic and with dropout.
  out['scan_eval'] = model.apply(variables, sample_x, training=False)
  try:
    out['scan_train'] = model.apply(variables, sample_x, training=True,
                                    rngs={'dropout': random.key(1)})
  except Exception as e:  # noqa: BLE001  (port) the most general `flax.errors` class it is
    import flax
    named = [c.__name__ for c in type(e).__mro__
             if getattr(flax.errors, c.__name__, None) is c and c is not flax.errors.FlaxError]
    out['scan_train'] = named[-1:]

  class FooModule(nn.Module):
    @nn.compact
    def __call__(self, x):
      counter = self.variable('counter', 'count', lambda: jnp.ones((), jnp.int32))
      multiplier = self.param('multiplier', nn.initializers.ones_init(), [1,], x.dtype)
      output = x + multiplier * counter.value
      if not self.is_initializing():  # otherwise model.init() also increases it
        counter.value += 1
      return output

  model = FooModule()
  variables = model.init(random.key(0), jax.numpy.ones((1, 64)))
  params, counter = variables['params'], variables['counter']
  out['foo_init'] = variables
  # (port) Applied twice, the counter threaded through.
  y1, state = model.apply(variables, jax.numpy.ones((1, 64)), mutable=['counter'])
  y2, state = model.apply({'params': params, **state}, jax.numpy.ones((1, 64)),
                          mutable=['counter'])
  out['foo_apply'] = [y1, y2, state]
  return out
