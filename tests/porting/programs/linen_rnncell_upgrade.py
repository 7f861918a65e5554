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

"""Flax's docs/guides/converting_and_upgrading/rnncell_upgrade_guide.rst ("RNNCellBase Upgrade
Guide"): its New code verbatim in `run()` (`LSTMCell(features=)`, `initialize_carry` as an
instance method from an input shape, a method decorated with `nn.transforms.scan` around an
`OptimizedLSTMCell` with a `@staticmethod` carry from a `parent=None` cell, a class lifted by
`nn.transforms.scan` in `setup` whose `initialize_carry` is called on the lifted instance), and
the Legacy code's errors: the cell without `features` (its class and first line) and the
class-method `initialize_carry` (its class: its message comes from Flax's internals). run() returns the carries, the parameters and the
outputs; batches of 4 instead of 32, 16 input features instead of 64, 8 outputs instead of
128."""

import flax.linen as nn
import jax.numpy as jnp
import jax
import functools


def _error(f):
  """(port) The class and first line of what `f()` raised."""
  try:
    f()
  except Exception as e:  # noqa: BLE001
    return [type(e).__name__, str(e).splitlines()[0]]
  return None


def run():
  out = {}
  batch_size = 4
  seq_len = 10
  in_features = 16
  out_features = 8

  x = jnp.ones((batch_size, seq_len, in_features))

  out['legacy_cell'] = _error(lambda: nn.LSTMCell())
  cell = nn.LSTMCell(features=out_features)

  out['legacy_carry'] = _error(lambda: nn.LSTMCell.initialize_carry(jax.random.key(0), (batch_size,), out_features))[:1]
  carry = cell.initialize_carry(jax.random.key(0), x[:, 0].shape)
  out['carry'] = carry

  carry = cell.initialize_carry(jax.random.key(0), (batch_size, in_features))
  out['carry2'] = carry

  class SimpleLSTM(nn.Module):

    @functools.partial(
      nn.transforms.scan,
      variable_broadcast='params',
      in_axes=1, out_axes=1,
      split_rngs={'params': False})
    @nn.compact
    def __call__(self, carry, x):
      features = carry[0].shape[-1]
      return nn.OptimizedLSTMCell(features)(carry, x)

    @staticmethod
    def initialize_carry(batch_dims, hidden_size):
      return nn.OptimizedLSTMCell(hidden_size, parent=None).initialize_carry(
        jax.random.key(0), (*batch_dims, hidden_size))

  # (port) The minimal upgrade, run as the idiomatic one's Legacy code ran it.
  model = SimpleLSTM()
  carry = SimpleLSTM.initialize_carry((batch_size,), out_features)
  variables = model.init(jax.random.key(0), carry, x)
  out['minimal'] = [variables, model.apply(variables, carry, x)]

  class SimpleLSTM(nn.Module):
    features: int

    def setup(self):
      self.scan_cell = nn.transforms.scan(
        nn.OptimizedLSTMCell,
        variable_broadcast='params',
        in_axes=1, out_axes=1,
        split_rngs={'params': False})(self.features)


    @nn.compact
    def __call__(self, x):
      carry = self.scan_cell.initialize_carry(jax.random.key(0), x[:, 0].shape)
      return self.scan_cell(carry, x)[1]  # only return the output


  model = SimpleLSTM(features=out_features)
  variables = model.init(jax.random.key(0), x)
  out['idiomatic'] = [variables, model.apply(variables, x)]
  out['num_feature_axes'] = cell.num_feature_axes
  return out
