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

"""Optax's examples/contrib/muon.ipynb: `contrib.muon` partitioning a pytree of matrices,
vectors and a 4-D kernel between Muon and Adam, by default (`ndim == 2`) and by
`muon_weight_dimension_numbers` (`MuonDimensionNumbers` with default, positional and keyword
axes, a 4-D kernel reshaped to 36x16); `print_state` prints the key paths
(`jax.tree.flatten_with_path` joined with `str`) of each partition's state with `pprint`. The
notebook's cells verbatim in `run()`; the docstring cell's text is Optax's own prose, so only
its header line is kept. The notebook only initializes the optimizers: each also takes two
jitted steps on the notebook's `loss_fn` (marked). Everything printed is captured per cell;
run() returns it, the states and the parameters after the steps."""

from tests.porting import printed

from pprint import pprint

import jax
import jax.numpy as jnp
from jax import random

import optax


def run():
  out = {}
  cells = printed.Cells()

  def mark(cell, keep=None):
    """The lines printed since the last mark, the first `keep` of them if given."""
    cells.printed[cell] = cells.take().splitlines()[:keep]

  with cells:
    _cells(out, mark)
  out['printed'] = cells.printed
  return out


def _steps(opt, opt_state, params, loss_fn):
  """(port) Two jitted steps of `opt` on `loss_fn`: the losses, parameters and state."""
  @jax.jit
  def step(params, opt_state):
    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss

  losses = []
  for _ in range(2):
    params, opt_state, loss = step(params, opt_state)
    losses.append(loss)
  return dict(losses=losses, params=params, state=jax.tree.leaves(opt_state))


def _cells(out, mark):
  # Create a sample PyTree of parameters with different dimensions
  keys = iter(random.split(random.key(0), 1024))
  params = {
      "layer1": {
          "w": jax.random.normal(next(keys), (128, 64)),  # 2D matrix
          "b": jax.random.normal(next(keys), (64,)),  # 1D vector
      },
      "layer2": {
          "w": jax.random.normal(next(keys), (64, 32)),  # 2D matrix
      },
      "layer3_conv": {
          "w": jax.random.normal(next(keys), (4, 3, 3, 16))  # 4D tensor
      },
  }


  # A simple loss function: sum of squares of parameters.
  # The gradient of this loss is just the parameters themselves.
  @jax.jit
  def loss_fn(p):
      return sum(jnp.sum(x**2) for x in jax.tree.leaves(p))

  def print_state(state):
      print(
          "State variables using the muon transform ---------------------------"
      )
      pprint(
          {
              "".join(map(str, k)): "MUON"
              for k, v in jax.tree.flatten_with_path(state.inner_states["muon"])[
                  0
              ]
              if v.ndim > 0 and not str(k[-1]).endswith("ns_coeffs")
          }
      )
      print()
      print(
          "State variables using the adam transform ---------------------------"
      )
      pprint(
          {
              "".join(map(str, k)): "ADAM"
              for k, v in jax.tree.flatten_with_path(state.inner_states["adam"])[
                  0
              ]
              if v.ndim > 0 and not str(k[-1]).endswith("ns_coeffs")
          }
      )

  # Use muon with default partitioning (ndim == 2 for muon)
  opt = optax.contrib.muon(learning_rate=1e-3)
  opt_state = opt.init(params)

  print_state(opt_state)
  mark('default')
  out['default'] = _steps(opt, opt_state, params, loss_fn)  # (port)

  print("optax.contrib.MuonDimensionNumbers doctring:\n")
  print(optax.contrib.MuonDimensionNumbers.__doc__)
  mark('docstring', keep=2)

  # Mask to apply Muon ONLY to layer1's weights.
  weight_dim_nums = {
      "layer1": {
          # default for 2D is `optax.contrib.MuonDimensionNumbers(0, 1)`
          "w": optax.contrib.MuonDimensionNumbers(),
          "b": None,
      },
      "layer2": {
          "w": None,
      },
      "layer3_conv": {
          "w": None,
      },
  }

  opt = optax.contrib.muon(
      learning_rate=1e-3, muon_weight_dimension_numbers=weight_dim_nums
  )
  opt_state = opt.init(params)
  print_state(opt_state)
  mark('layer1_only')
  out['layer1_only'] = _steps(opt, opt_state, params, loss_fn)  # (port)

  # We want to apply Muon to the 4D convolutional kernel in 'layer3_conv'.
  # The shape is (4, 3, 3, 16). Let's treat the first three axes (4*3*3=36)
  # as the 'reduction' dimension and the last axis (16) as the 'output' dimension.

  #  Define the corresponding MuonDimensionNumbers for the selected tensors.
  #  The structure must match parameters. Use None for non-Muon params.
  weight_dim_nums = {
      "layer1": {"w": optax.contrib.MuonDimensionNumbers((0,), (1,)), "b": None},
      "layer2": {"w": None},
      "layer3_conv": {
          "w": optax.contrib.MuonDimensionNumbers(
              reduction_axis=(0, 1, 2), output_axis=(3,)
          ),
      },
  }

  opt = optax.contrib.muon(
      learning_rate=1e-3, muon_weight_dimension_numbers=weight_dim_nums
  )
  opt_state = opt.init(params)

  print_state(opt_state)
  mark('conv')
  out['conv'] = _steps(opt, opt_state, params, loss_fn)  # (port)
