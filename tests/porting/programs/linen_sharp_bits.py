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

"""Flax's docs/guides/flax_sharp_bits.md ("Flax - The Sharp Bits": a `Dropout` model initialized
with the 'params' key only and applied with `rngs={'dropout': ...}`, keys from
`jax.random.split(key=..., num=3)` and `uniform(key=..., shape=...)`) and
docs/guides/flax_fundamentals/arguments.md ("Dealing with Flax Module arguments": a dropout
template as a `partial` with `deterministic=not train` handed to sub-modules, `deterministic`
at call time on a `setup` dropout, `nn.merge_param` of an attribute and a call argument).
Their code verbatim in `run()`; where the arguments page elides code (`ResidualBlock(dropout=
dropout, ...)`, `# ...`), a minimal body (port): a `Dense` and the dropout. run() returns the
outputs in training and evaluation, the parameters' shapes and merge_param's errors."""

from functools import partial
from typing import Optional

import jax
import jax.numpy as jnp
import flax.linen as nn


def run():
  out = {}

  # Randomness.
  seed = 0
  root_key = jax.random.key(seed=seed)
  main_key, params_key, dropout_key = jax.random.split(key=root_key, num=3)

  # A simple network.
  class MyModel(nn.Module):
    num_neurons: int
    training: bool
    @nn.compact
    def __call__(self, x):
      x = nn.Dense(self.num_neurons)(x)
      # Set the dropout layer with a rate of 50% .
      # When the `deterministic` flag is `True`, dropout is turned off.
      x = nn.Dropout(rate=0.5, deterministic=not self.training)(x)
      return x

  # Instantiate `MyModel` (you don't need to set `training=True` to
  # avoid performing the forward pass computation).
  my_model = MyModel(num_neurons=3, training=False)

  x = jax.random.uniform(key=main_key, shape=(3, 4, 4))

  # Initialize with `flax.linen.init()`.
  # The `params_key` is equivalent to a dictionary of PRNGs.
  # (Here, you are providing only one PRNG key.)
  variables = my_model.init(params_key, x)

  # Perform the forward pass with `flax.linen.apply()`.
  y = my_model.apply(variables, x, rngs={'dropout': dropout_key})
  out['sharp_bits'] = dict(
      y=y, variables=variables,
      training=MyModel(num_neurons=3, training=True).apply(  # (port) with dropout
          variables, x, rngs={'dropout': dropout_key}))

  # Dealing with Flax Module arguments
  class ResidualBlock(nn.Module):  # (port) the page's elided block
    dropout: object

    @nn.compact
    def __call__(self, x):
      return self.dropout()(nn.Dense(x.shape[-1])(x))

  class ResidualModel(nn.Module):
    drop_rate: float

    @nn.compact
    def __call__(self, x, *, train):
      dropout = partial(nn.Dropout, rate=self.drop_rate, deterministic=not train)
      for i in range(10):
        x += ResidualBlock(dropout=dropout)(x)  # (port) `, ...` dropped
      return x  # (port)

  class SomeModule(nn.Module):
    drop_rate: float

    def setup(self):
      self.dropout = nn.Dropout(rate=self.drop_rate)

    @nn.compact
    def __call__(self, x, *, train):
      # ...
      x = self.dropout(x, deterministic=not train)
      # ...
      return x  # (port)

  class MyDropout(nn.Module):
    drop_rate: float
    deterministic: Optional[bool] = None

    @nn.compact
    def __call__(self, x, deterministic=None):
      deterministic = nn.merge_param('deterministic', self.deterministic, deterministic)
      # ...
      return nn.Dropout(self.drop_rate)(x, deterministic=deterministic)  # (port)

  x = jnp.ones((2, 4))
  rngs = {'params': params_key, 'dropout': dropout_key}
  residual = ResidualModel(drop_rate=0.1)
  params = residual.init(params_key, x, train=False)
  out['residual'] = dict(
      shapes=jax.tree.map(jnp.shape, params),
      eval=residual.apply(params, x, train=False),
      train=residual.apply(params, x, train=True, rngs={'dropout': dropout_key}))
  out['some_module'] = [SomeModule(0.5).apply({}, x, train=False),
                        SomeModule(0.5).apply({}, x, train=True, rngs=rngs)]
  out['my_dropout'] = [MyDropout(0.5).apply({}, x, deterministic=True),
                       MyDropout(0.5, deterministic=False).apply({}, x, rngs=rngs)]
  errors = []
  for module, kwargs in [(MyDropout(0.5), {}),
                         (MyDropout(0.5, deterministic=True), {'deterministic': False})]:
    try:
      module.apply({}, x, rngs=rngs, **kwargs)
    except ValueError as e:
      errors.append(str(e))  # (port) a ValueError's text
  out['merge_param_errors'] = errors
  return out
