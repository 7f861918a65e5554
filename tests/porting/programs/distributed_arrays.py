# Copyright 2022 The JAX Authors.
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


"""JAX's docs/notebooks/Distributed_arrays_and_automatic_parallelization.md (removed in
a900877d84, "new-sharding-docs"): its code cells verbatim in `run()` on eight CPU devices,
without the %timeit cells; its meshes with `axis_types` Auto, the default when it was written
(JAX 0.10's `make_mesh` makes Explicit axes, under which its `jnp.dot` of a committed
single-device copy and `with_sharding_constraint` fail); 64x64 instead of 8192x8192 arrays,
layer sizes [16, 64, 64, 64, 10] and a batch of 64 instead of [784, 8192, 8192, 8192, 10] and
8192; `print_exception` without `termcolor`, naming the class it was caught as (numbax's
errors subclass JAX's). Everything printed (`print` and `visualize_array_sharding`'s tables)
is captured per cell; what the cells showed is printed too. After the notebook, what it shows
without printing: meshes', shardings' and specs' reprs, `devices()`, `addressable_shards`, and
`jit` with `in_shardings`/`out_shardings`. run() returns each printed line as its text with
the numbers taken out (compared exactly) and its numbers (compared within float32
round-off)."""

from tests.porting import printed


def run():
  out = {}
  with printed.Cells(printed.numbered) as cells:
    _cells(out, cells.mark)
    cells.mark('end')
  out['printed'] = cells.printed
  return out


def _cells(out, mark):
  from typing import Optional

  import numpy as np

  import jax
  import jax.numpy as jnp

  Auto = jax.sharding.AxisType.Auto  # the notebook's meshes (JAX 0.10's default is Explicit)

  if len(jax.local_devices()) < 8:
    raise Exception("Notebook requires 8 devices to run")

  # ## Intro and a quick example
  from jax.sharding import PartitionSpec as P, NamedSharding

  # Create a Sharding object to distribute a value across devices:
  mesh = jax.make_mesh((4, 2), ('x', 'y'), axis_types=(Auto, Auto))

  # Create an array of random values:
  x = jax.random.normal(jax.random.key(0), (64, 64))
  # and use jax.device_put to distribute it across devices:
  y = jax.device_put(x, NamedSharding(mesh, P('x', 'y')))
  jax.debug.visualize_array_sharding(y)
  mark('quick example y')

  z = jnp.sin(y)
  jax.debug.visualize_array_sharding(z)
  mark('quick example sin')
  out['z'] = z

  # ## Sharding basics, and the NamedSharding subclass
  import jax
  x = jax.random.normal(jax.random.key(0), (64, 64))

  jax.debug.visualize_array_sharding(x)
  mark('single device')

  from jax.sharding import Mesh, PartitionSpec, NamedSharding

  P = PartitionSpec

  mesh = jax.make_mesh((4, 2), ('a', 'b'), axis_types=(Auto, Auto))
  y = jax.device_put(x, NamedSharding(mesh, P('a', 'b')))
  jax.debug.visualize_array_sharding(y)
  mark("P('a', 'b')")

  default_mesh = jax.make_mesh((4, 2), ('a', 'b'), axis_types=(Auto, Auto))

  def mesh_sharding(
      pspec: PartitionSpec, mesh: Optional[Mesh] = None,
    ) -> NamedSharding:
    if mesh is None:
      mesh = default_mesh
    return NamedSharding(mesh, pspec)

  y = jax.device_put(x, mesh_sharding(P('a', 'b')))
  jax.debug.visualize_array_sharding(y)
  mark("mesh_sharding(P('a', 'b'))")

  y = jax.device_put(x, mesh_sharding(P('b', 'a')))
  jax.debug.visualize_array_sharding(y)
  mark("P('b', 'a')")

  # This `None` means that `x` is not sharded on its second dimension,
  # and since the Mesh axis name 'b' is not mentioned, shards are
  # replicated across it.
  y = jax.device_put(x, mesh_sharding(P('a', None)))
  jax.debug.visualize_array_sharding(y)
  mark("P('a', None)")

  y = jax.device_put(x, mesh_sharding(P(None, 'b')))
  jax.debug.visualize_array_sharding(y)
  mark("P(None, 'b')")

  y = jax.device_put(x, mesh_sharding(P(None, 'a')))
  jax.debug.visualize_array_sharding(y)
  mark("P(None, 'a')")

  y = jax.device_put(x, mesh_sharding(P(('a', 'b'), None)))
  jax.debug.visualize_array_sharding(y)
  mark("P(('a', 'b'), None)")

  # ## Computation follows data sharding and is automatically parallelized
  mesh = jax.make_mesh((4, 2), ('a', 'b'), axis_types=(Auto, Auto))

  x = jax.device_put(x, NamedSharding(mesh, P('a', 'b')))
  print('input sharding:')
  jax.debug.visualize_array_sharding(x)

  y = jnp.sin(x)
  print('output sharding:')
  jax.debug.visualize_array_sharding(y)
  mark('sin')

  y = jax.device_put(x, NamedSharding(mesh, P('a', None)))
  z = jax.device_put(x, NamedSharding(mesh, P(None, 'b')))
  print('lhs sharding:')
  jax.debug.visualize_array_sharding(y)
  print('rhs sharding:')
  jax.debug.visualize_array_sharding(z)

  w = jnp.dot(y, z)
  print('out sharding:')
  jax.debug.visualize_array_sharding(w)
  mark('dot')
  out['w'] = w

  x_single = jax.device_put(x, jax.devices()[0])
  jax.debug.visualize_array_sharding(x_single)
  mark('x_single')

  print(np.allclose(jnp.dot(x_single, x_single),
                    jnp.dot(y, z)))
  mark('allclose')

  w_copy = jnp.copy(w)
  jax.debug.visualize_array_sharding(w_copy)
  mark('w_copy')

  # ### When explicit shardings disagree, JAX errors
  import textwrap

  def print_exception(e, caught=ValueError):
    name = f'{caught.__name__}'
    print(textwrap.fill(f'{name}: {str(e)}'))

  sharding1 = NamedSharding(Mesh(jax.devices()[:4], 'x'), P('x'))
  sharding2 = NamedSharding(Mesh(jax.devices()[4:], 'x'), P('x'))

  y = jax.device_put(x, sharding1)
  z = jax.device_put(x, sharding2)
  try: y + z
  except ValueError as e: print_exception(e)
  mark('different devices')

  devices = jax.devices()
  permuted_devices = [devices[i] for i in [0, 1, 2, 3, 6, 7, 4, 5]]

  sharding1 = NamedSharding(Mesh(devices, 'x'), P('x'))
  sharding2 = NamedSharding(Mesh(permuted_devices, 'x'), P('x'))

  y = jax.device_put(x, sharding1)
  z = jax.device_put(x, sharding2)
  try: y + z
  except ValueError as e: print_exception(e)
  mark('permuted devices')

  y = jax.device_put(x, sharding1)
  y + jnp.ones_like(y)
  y + jnp.arange(y.size).reshape(y.shape)
  print('no error!')
  mark('uncommitted')

  # ## Constraining shardings of intermediates in `jit`ted code
  mesh = jax.make_mesh((4, 2), ('x', 'y'), axis_types=(Auto, Auto))

  x = jax.random.normal(jax.random.key(0), (64, 64))
  x = jax.device_put(x, NamedSharding(mesh, P('x', 'y')))

  @jax.jit
  def f(x):
    x = x + 1
    y = jax.lax.with_sharding_constraint(x, NamedSharding(mesh, P('y', 'x')))
    return y

  jax.debug.visualize_array_sharding(x)
  y = f(x)
  jax.debug.visualize_array_sharding(y)
  mark("with_sharding_constraint P('y', 'x')")

  @jax.jit
  def f(x):
    x = x + 1
    y = jax.lax.with_sharding_constraint(x, NamedSharding(mesh, P()))
    return y

  jax.debug.visualize_array_sharding(x)
  y = f(x)
  jax.debug.visualize_array_sharding(y)
  mark('with_sharding_constraint P()')
  out['f'] = y

  # ## Examples: neural networks
  import jax
  import jax.numpy as jnp

  def predict(params, inputs):
    for W, b in params:
      outputs = jnp.dot(inputs, W) + b
      inputs = jnp.maximum(outputs, 0)
    return outputs

  def loss(params, batch):
    inputs, targets = batch
    predictions = predict(params, inputs)
    return jnp.mean(jnp.sum((predictions - targets)**2, axis=-1))

  loss_jit = jax.jit(loss)
  gradfun = jax.jit(jax.grad(loss))

  def init_layer(key, n_in, n_out):
    k1, k2 = jax.random.split(key)
    W = jax.random.normal(k1, (n_in, n_out)) / jnp.sqrt(n_in)
    b = jax.random.normal(k2, (n_out,))
    return W, b

  def init_model(key, layer_sizes, batch_size):
    key, *keys = jax.random.split(key, len(layer_sizes))
    params = list(map(init_layer, keys, layer_sizes[:-1], layer_sizes[1:]))

    key, *keys = jax.random.split(key, 3)
    inputs = jax.random.normal(keys[0], (batch_size, layer_sizes[0]))
    targets = jax.random.normal(keys[1], (batch_size, layer_sizes[-1]))

    return params, (inputs, targets)

  layer_sizes = [16, 64, 64, 64, 10]
  batch_size = 64

  params, batch = init_model(jax.random.key(0), layer_sizes, batch_size)

  # ### 8-way batch data parallelism
  mesh = jax.make_mesh((8,), ('batch',), axis_types=(Auto,))

  sharding = NamedSharding(mesh, P('batch'))
  replicated_sharding = NamedSharding(mesh, P())

  batch = jax.device_put(batch, sharding)
  params = jax.device_put(params, replicated_sharding)

  print(loss_jit(params, batch))
  mark('data parallel loss')

  step_size = 1e-5

  for _ in range(30):
    grads = gradfun(params, batch)
    params = [(W - step_size * dW, b - step_size * db)
              for (W, b), (dW, db) in zip(params, grads)]

  print(loss_jit(params, batch))
  mark('data parallel trained')

  batch_single = jax.device_put(batch, jax.devices()[0])
  params_single = jax.device_put(params, jax.devices()[0])
  out['single'] = gradfun(params_single, batch_single)[0][0]

  # ### 4-way batch data parallelism and 2-way model tensor parallelism
  mesh = jax.make_mesh((4, 2), ('batch', 'model'), axis_types=(Auto, Auto))

  batch = jax.device_put(batch, NamedSharding(mesh, P('batch', None)))
  jax.debug.visualize_array_sharding(batch[0])
  jax.debug.visualize_array_sharding(batch[1])
  mark('batch')

  replicated_sharding = NamedSharding(mesh, P())

  (W1, b1), (W2, b2), (W3, b3), (W4, b4) = params

  W1 = jax.device_put(W1, replicated_sharding)
  b1 = jax.device_put(b1, replicated_sharding)

  W2 = jax.device_put(W2, NamedSharding(mesh, P(None, 'model')))
  b2 = jax.device_put(b2, NamedSharding(mesh, P('model')))

  W3 = jax.device_put(W3, NamedSharding(mesh, P('model', None)))
  b3 = jax.device_put(b3, replicated_sharding)

  W4 = jax.device_put(W4, replicated_sharding)
  b4 = jax.device_put(b4, replicated_sharding)

  params = (W1, b1), (W2, b2), (W3, b3), (W4, b4)

  jax.debug.visualize_array_sharding(W2)
  jax.debug.visualize_array_sharding(W3)
  mark('W2 W3')

  print(loss_jit(params, batch))
  mark('model parallel loss')

  step_size = 1e-5

  for _ in range(30):
      grads = gradfun(params, batch)
      params = [(W - step_size * dW, b - step_size * db)
                for (W, b), (dW, db) in zip(params, grads)]

  print(loss_jit(params, batch))
  mark('model parallel trained')

  (W1, b1), (W2, b2), (W3, b3), (W4, b4) = params
  jax.debug.visualize_array_sharding(W2)
  jax.debug.visualize_array_sharding(W3)
  mark('W2 W3 trained')
  out['W2'] = W2
  out['b2'] = b2

  # What the notebook's objects show, beyond its cells
  print(mesh)
  print(repr(mesh))
  print(mesh.shape, mesh.axis_names, mesh.size, mesh.devices.shape)
  print(sharding)
  print(repr(NamedSharding(mesh, P('batch', 'model'))))
  print(P('a', None), P(('a', 'b'), None), P(), P(None, 'b'))
  print(W2.sharding)
  print(W2.sharding.spec, W2.sharding.mesh.axis_names)
  print(b3.sharding, b3.sharding.is_fully_replicated)
  print(batch[0].sharding.shard_shape(batch[0].shape))
  print(x_single.sharding)
  print(x_single.devices())
  print(sorted(W2.devices(), key=lambda d: d.id))
  print(len(W2.addressable_shards))
  for shard in W2.addressable_shards:
    print(shard.device, shard.index, shard.data.shape, shard.replica_id)
  print(W2.sharding.devices_indices_map(W2.shape))
  print(W2.is_fully_addressable, W2.is_fully_replicated)
  mark('reprs')

  g = jax.jit(lambda a, b: (a @ b, a.sum()),
              in_shardings=(NamedSharding(mesh, P('batch', None)), NamedSharding(mesh, P())),
              out_shardings=(NamedSharding(mesh, P(None, 'model')), NamedSharding(mesh, P())))
  ab, s = g(batch[0], W1)
  print(ab.sharding)
  print(s.sharding)
  jax.debug.visualize_array_sharding(ab)
  mark('in_shardings out_shardings')
  out['ab'] = ab
  out['s'] = s
