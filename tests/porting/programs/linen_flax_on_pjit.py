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


"""Flax's docs/guides/parallel_training/flax_on_pjit.md ("Scale up Flax Modules on multiple
devices"): its code cells verbatim in `run()` on eight CPU devices (without the XLA flag, the
`jax.devices()` print and the %%timeit cell), DEPTH 64 instead of 1024; what a cell showed
without printing (its last expression) is printed: of `state_sharding` its step, params and
opt_state (its `apply_fn` and `tx` show addresses); the cells printing an array's type print
`isinstance(..., jax.Array)` instead (JAX's array class is `jaxlib._jax.ArrayImpl`). After
the guide, the `use_scan=True` models it defines but does not run: their abstract init's
partition specs (the scan's `metadata_params` axis) and a jitted init and train step. Everything printed
(`visualize_array_sharding`'s tables too) is captured per cell; run() returns each printed
line as its text with the numbers taken out (compared exactly; a class shown by its name
without its module) and its numbers (compared within float32 round-off), and the states'
arrays."""

import re

from tests.porting import printed

_CLASS = re.compile(r"<class '(?:[\w.]*\.)?(\w+)'>")


def run():
  out = {}
  shown = lambda text: printed.numbered(text, columns=True, rename=_class_name)
  with printed.Cells(shown) as cells:
    _cells(out, cells.mark)
    cells.mark('end')
  out['printed'] = cells.printed
  return out


def _class_name(line):
  """`line` with a class shown by its name (`<class 'Array'>`)."""
  return _CLASS.sub(r"<class '\1'>", line)


def _cells(out, mark):
  import functools
  from typing import Optional, Callable

  import numpy as np
  import jax
  from jax import lax, random, numpy as jnp

  import flax
  from flax import struct, traverse_util, linen as nn
  from flax.core import freeze, unfreeze
  from flax.training import train_state, checkpoints

  import optax # Optax for common losses and optimizers.

  from jax.sharding import Mesh, PartitionSpec, NamedSharding
  from jax.lax import with_sharding_constraint
  from jax.experimental import mesh_utils

  # Create a mesh and annotate each axis with a name.
  device_mesh = mesh_utils.create_device_mesh((2, 4))
  print(device_mesh)

  mesh = Mesh(devices=device_mesh, axis_names=('data', 'model'))
  print(mesh)

  def mesh_sharding(pspec: PartitionSpec) -> NamedSharding:
    return NamedSharding(mesh, pspec)
  mark('mesh')

  # ## Define a layer
  class DotReluDot(nn.Module):
    depth: int
    dense_init: Callable = nn.initializers.xavier_normal()
    @nn.compact
    def __call__(self, x):

      y = nn.Dense(self.depth,
                   kernel_init=nn.with_partitioning(self.dense_init, (None, 'model')),
                   use_bias=False,  # or overwrite with `bias_init`
                   )(x)

      y = jax.nn.relu(y)
      # Force a local sharding annotation.
      y = with_sharding_constraint(y, mesh_sharding(PartitionSpec('data', 'model')))

      W2 = self.param(
          'W2',
          nn.with_partitioning(self.dense_init, ('model', None)),
          (self.depth, x.shape[-1]))

      z = jnp.dot(y, W2)
      # Force a local sharding annotation.
      z = with_sharding_constraint(z, mesh_sharding(PartitionSpec('data', None)))

      # Return a tuple to conform with the API `flax.linen.scan` as shown in the cell below.
      return z, None

  # ## Define a model with `flax.linen.scan` lifted transformation
  class MLP(nn.Module):
    num_layers: int
    depth: int
    use_scan: bool
    @nn.compact
    def __call__(self, x):
      if self.use_scan:
        x, _ = nn.scan(DotReluDot, length=self.num_layers,
                       variable_axes={"params": 0},
                       split_rngs={"params": True},
                       metadata_params={nn.PARTITION_NAME: None}
                       )(self.depth)(x)
      else:
        for i in range(self.num_layers):
          x, _ = DotReluDot(self.depth)(x)
      return x

  # MLP hyperparameters.
  BATCH, LAYERS, DEPTH, USE_SCAN = 8, 4, 64, False

  # Create fake inputs.
  x = jnp.ones((BATCH, DEPTH))
  # Initialize a PRNG key.
  k = random.key(0)

  # Create an Optax optimizer.
  optimizer = optax.adam(learning_rate=0.001)
  # Instantiate the model.
  model = MLP(LAYERS, DEPTH, USE_SCAN)

  # ### The input's sharding
  x_sharding = mesh_sharding(PartitionSpec('data', None)) # dimensions: (batch, length)
  x = jax.device_put(x, x_sharding)
  jax.debug.visualize_array_sharding(x)
  mark('x sharding')

  # ### The output's sharding
  def init_fn(k, x, model, optimizer):
    variables = model.init(k, x) # Initialize the model.
    state = train_state.TrainState.create( # Create a `TrainState`.
      apply_fn=model.apply,
      params=variables['params'],
      tx=optimizer)
    return state

  # Create an abstract closure to wrap the function before feeding it in
  # because `jax.eval_shape` only takes pytrees as arguments.
  abstract_variables = jax.eval_shape(
      functools.partial(init_fn, model=model, optimizer=optimizer), k, x)

  # This `state_sharding` has the same pytree structure as `state`, the output
  # of the `init_fn`.
  state_sharding = nn.get_sharding(abstract_variables, mesh)
  print(state_sharding.step)
  print(state_sharding.params)
  print(state_sharding.opt_state)
  mark('state_sharding')

  # ## Compile the code
  jit_init_fn = jax.jit(init_fn, static_argnums=(2, 3),
                        in_shardings=(mesh_sharding(PartitionSpec()), x_sharding),  # PRNG key and x
                        out_shardings=state_sharding)

  initialized_state = jit_init_fn(k, x, model, optimizer)

  # for weight, partitioned in initialized_state.params['DotReluDot_0'].items():
  #     print(f'Sharding of {weight}: {partitioned.names}')
  jax.debug.visualize_array_sharding(initialized_state.params['DotReluDot_0']['Dense_0']['kernel'].value)
  jax.debug.visualize_array_sharding(initialized_state.params['DotReluDot_0']['W2'].value)
  mark('jit init')
  out['initialized params'] = nn.meta.unbox(initialized_state.params)

  # ## Inspect the Module output
  print(type(initialized_state.params['DotReluDot_0']['Dense_0']['kernel']))
  print(isinstance(initialized_state.params['DotReluDot_0']['Dense_0']['kernel'].value, jax.Array))
  print(initialized_state.params['DotReluDot_0']['Dense_0']['kernel'].names)
  print(initialized_state.params['DotReluDot_0']['Dense_0']['kernel'].value.shape)
  mark('Partitioned')

  # Say for some unknown reason you want to make the whole param tree all-zero
  unboxed_params = nn.meta.unbox(initialized_state.params)
  all_zero = jax.tree.map(jnp.zeros_like, unboxed_params)
  all_zero_params = nn.meta.replace_boxed(initialized_state.params, all_zero)
  assert jnp.sum(nn.meta.unbox(all_zero_params['DotReluDot_0']['Dense_0']['kernel'])) == 0

  print(initialized_state.params['DotReluDot_0']['Dense_0']['kernel'].value.sharding)
  mark('kernel sharding')

  print(initialized_state.step)
  print(initialized_state.step.sharding)
  mark('step')

  diff = jax.tree_util.tree_map(
      lambda a, b: a - b,
      initialized_state.params['DotReluDot_0'], initialized_state.params['DotReluDot_0'])
  print(jax.tree_util.tree_map(jnp.shape, diff))
  diff_array = diff['Dense_0']['kernel'].value
  print(isinstance(diff_array, jax.Array))
  print(diff_array.shape)
  mark('diff')

  # ## Compile the train step and inference
  @functools.partial(jax.jit, in_shardings=(state_sharding, x_sharding),
                     out_shardings=state_sharding)
  def train_step(state, x):
    # A fake loss function.
    def loss_unrolled(params):
      y = model.apply({'params': params}, x)
      return y.sum()
    grad_fn = jax.grad(loss_unrolled)
    grads = grad_fn(state.params)
    state = state.apply_gradients(grads=grads)
    return state

  with jax.set_mesh(mesh):
    new_state = train_step(initialized_state, x)

  print(f'Sharding of Weight 1:')
  jax.debug.visualize_array_sharding(initialized_state.params['DotReluDot_0']['Dense_0']['kernel'].value)
  print(f'Sharding of Weight 2:')
  jax.debug.visualize_array_sharding(initialized_state.params['DotReluDot_0']['W2'].value)
  mark('train_step')
  out['new params'] = nn.meta.unbox(new_state.params)
  out['new step'] = new_state.step

  @functools.partial(jax.jit, in_shardings=(state_sharding, x_sharding),
                     out_shardings=x_sharding)
  def apply_fn(state, x):
    return state.apply_fn({'params': state.params}, x)

  with jax.set_mesh(mesh):
    y = apply_fn(new_state, x)
  print(isinstance(y, jax.Array))
  print(y.dtype)
  print(y.shape)
  jax.debug.visualize_array_sharding(y)
  mark('apply_fn')
  out['y'] = y

  # ## Logical axis annotation
  class LogicalDotReluDot(nn.Module):
    depth: int
    dense_init: Callable = nn.initializers.xavier_normal()
    @nn.compact
    def __call__(self, x):
      y = nn.Dense(self.depth,
                   kernel_init=nn.with_logical_partitioning(self.dense_init, ('embed', 'hidden')),
                   use_bias=False,  # or overwrite with `bias_init`
                   )(x)

      y = jax.nn.relu(y)
      # Force a local sharding annotation.
      y = with_sharding_constraint(y, mesh_sharding(PartitionSpec('data', 'model')))

      W2 = self.param(
          'W2',
          nn.with_logical_partitioning(self.dense_init, ('hidden', 'embed')),
          (self.depth, x.shape[-1]))

      z = jnp.dot(y, W2)
      # Force a local sharding annotation.
      z = nn.with_logical_constraint(z, ('batch', 'embed'))
      return z, None

  class LogicalMLP(nn.Module):
    num_layers: int
    depth: int
    use_scan: bool
    @nn.compact
    def __call__(self, x):
      if self.use_scan:
        x, _ = nn.scan(LogicalDotReluDot, length=self.num_layers,
                      variable_axes={"params": 0},
                      split_rngs={"params": True},
                      metadata_params={nn.PARTITION_NAME: 'layer'}
                      )(self.depth)(x)
      else:
        for i in range(self.num_layers):
          x, _ = LogicalDotReluDot(self.depth)(x)
      return x

  # Unspecified rule means unsharded by default, so no need to specify `('embed', None)` and `('layer', None)`.
  rules = (('batch', 'data'),
           ('hidden', 'model'))

  logical_model = LogicalMLP(LAYERS, DEPTH, USE_SCAN)

  logical_abstract_variables = jax.eval_shape(
      functools.partial(init_fn, model=logical_model, optimizer=optimizer), k, x)
  logical_state_spec = nn.get_partition_spec(logical_abstract_variables)
  print('annotations are logical, not mesh-specific: ',
        logical_state_spec.params['LogicalDotReluDot_0']['Dense_0']['kernel'])

  logical_state_sharding = nn.logical_to_mesh_sharding(logical_state_spec, mesh, rules)
  print('sharding annotations are mesh-specific: ',
        logical_state_sharding.params['LogicalDotReluDot_0']['Dense_0']['kernel'].spec)
  mark('logical specs')

  print(state_sharding.params['DotReluDot_0'] == logical_state_sharding.params['LogicalDotReluDot_0'])
  mark('same shardings')

  logical_jit_init_fn = jax.jit(init_fn, static_argnums=(2, 3),
                        in_shardings=(mesh_sharding(PartitionSpec()), x_sharding),  # PRNG key and x
                        out_shardings=logical_state_sharding)

  logical_initialized_state = logical_jit_init_fn(k, x, logical_model, optimizer)

  print(f'Sharding of Weight 1:')
  jax.debug.visualize_array_sharding(logical_initialized_state.params['LogicalDotReluDot_0']['Dense_0']['kernel'].value)
  print(f'Sharding of Weight 2:')
  jax.debug.visualize_array_sharding(logical_initialized_state.params['LogicalDotReluDot_0']['W2'].value)
  mark('logical jit init')
  out['logical params'] = nn.meta.unbox(logical_initialized_state.params)

  # After the guide: the scanned models it defines.
  scan_model = MLP(LAYERS, DEPTH, True)
  scan_abstract = jax.eval_shape(
      functools.partial(init_fn, model=scan_model, optimizer=optimizer), k, x)
  print(nn.get_partition_spec(scan_abstract).params)
  print(nn.get_partition_spec(scan_abstract).opt_state)
  scan_sharding = nn.get_sharding(scan_abstract, mesh)
  scan_state = jax.jit(init_fn, static_argnums=(2, 3),
                       in_shardings=(mesh_sharding(PartitionSpec()), x_sharding),
                       out_shardings=scan_sharding)(k, x, scan_model, optimizer)
  scan_kernel = scan_state.params['ScanDotReluDot_0']['Dense_0']['kernel']
  print(type(scan_kernel).__name__, scan_kernel.names, scan_kernel.value.shape)
  print(scan_kernel.value.sharding)
  mark('scan')
  out['scan params'] = nn.meta.unbox(scan_state.params)
  scan_step = jax.jit(
      lambda state, x: state.apply_gradients(grads=jax.grad(
          lambda p: state.apply_fn({'params': p}, x).sum())(state.params)),
      in_shardings=(scan_sharding, x_sharding), out_shardings=scan_sharding)
  with jax.set_mesh(mesh):
    scan_new_state = scan_step(scan_state, x)
  print(scan_new_state.params['ScanDotReluDot_0']['W2'].names)
  print(scan_new_state.opt_state[0].mu['ScanDotReluDot_0']['W2'].value.sharding.spec)
  mark('scan train step')
  out['scan new params'] = nn.meta.unbox(scan_new_state.params)

  logical_scan_model = LogicalMLP(LAYERS, DEPTH, True)
  logical_scan_abstract = jax.eval_shape(
      functools.partial(init_fn, model=logical_scan_model, optimizer=optimizer), k, x)
  logical_scan_spec = nn.get_partition_spec(logical_scan_abstract)
  print(logical_scan_spec.params)
  print(nn.logical_to_mesh_sharding(logical_scan_spec, mesh, rules).params)
  mark('logical scan')
