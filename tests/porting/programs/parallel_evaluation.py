# Copyright 2020 The JAX Authors.
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


"""JAX's docs/jax-101/06-parallelism.md ("Parallel Evaluation in JAX", removed in 10ed827fe9)
and the `pmap` sections of cloud_tpu_colabs/Pmap_Cookbook.ipynb: their code cells verbatim in
`run()`, with `jax.tree.map` for the removed `jax.tree_map`, the migration guide's drop-in
`device_put_replicated` for the removed `jax.device_put_replicated` (whose error is recorded),
a seeded `np.random`, 300 instead of 1000 regression steps, 50x60 instead of 5000x6000
matrices, and no plots. The cookbook's nested `pmap`s (rows/cols normalisation, `grad` through
a pmap inside a pmap) are left out: JAX 0.10.2's pmap, a `jit` of `shard_map`, fails on a pmap
inside a pmap ("The context mesh AbstractMesh('rows': 4, ...) should match the mesh passed to
shard_map Mesh('cols': 2, ...)"), where numbax maps the inner one as `vmap`. `print` records
what the cells printed or showed (arrays as arrays and as their reprs, the rest as strings);
`type(...)` cells are recorded as `isinstance` checks (JAX's array class is
`jaxlib._jax.ArrayImpl`)."""

import builtins
import re

import jax as _jax
import numpy as np


def _is_numbers(a):
  """Arrays of numbers are compared as values (within float32 round-off), the rest as printed."""
  dtype = None if isinstance(a, type) else getattr(a, 'dtype', None)
  if dtype is None or dtype == object or _jax.dtypes.issubdtype(dtype, _jax.dtypes.prng_key):
    return False
  try:
    np.asarray(a)  # a tracer has no values
  except Exception:  # noqa: BLE001
    return False
  return True


def run():
  printed = []

  def print(*args):
    builtins.print(*args)
    printed.append([a if _is_numbers(a) else str(a) for a in args])

  def show(value):  # a cell's shown value: its values and its repr, floats to 4 digits
    text = repr(value)
    builtins.print(text)
    text = re.sub(r'-?\d+\.\d*(e[-+]\d+)?', lambda m: f'{float(m[0]):.4g}', text)
    text = re.sub(r'\s+([,\]])', r'\1', re.sub(r'\s+', ' ', text))
    printed.append([value, text] if _is_numbers(value) else [text])

  def error(e):  # without addresses and this module's name (the test's differs from JAX's)
    line = re.sub(r' at 0x[0-9a-f]+', '', str(e).splitlines()[0])
    print(line.replace(__name__ + '.', ''))

  import jax
  show(jax.devices())

  # The basics
  import numpy as np
  import jax.numpy as jnp

  x = np.arange(5)
  w = np.array([2., 3., 4.])

  def convolve(x, w):
    output = []
    for i in range(1, len(x)-1):
      output.append(jnp.dot(x[i-1:i+2], w))
    return jnp.array(output)

  show(convolve(x, w))

  n_devices = jax.local_device_count()
  xs = np.arange(5 * n_devices).reshape(-1, 5)
  ws = np.stack([w] * n_devices)

  show(xs)
  show(ws)
  show(jax.vmap(convolve)(xs, ws))
  show(jax.pmap(convolve)(xs, ws))
  show(jax.pmap(convolve)(xs, jax.pmap(convolve)(xs, ws)))

  # Specifying in_axes
  show(jax.pmap(convolve, in_axes=(0, None))(xs, w))

  # Communication between devices
  def normalized_convolution(x, w):
    output = []
    for i in range(1, len(x)-1):
      output.append(jnp.dot(x[i-1:i+2], w))
    output = jnp.array(output)
    return output / jax.lax.psum(output, axis_name='p')

  show(jax.pmap(normalized_convolution, axis_name='p')(xs, ws))
  show(jax.vmap(normalized_convolution, axis_name='p')(xs, ws))

  # Example
  from typing import NamedTuple
  import functools

  class Params(NamedTuple):
    weight: jnp.ndarray
    bias: jnp.ndarray


  def init(rng) -> Params:
    """Returns the initial model params."""
    weights_key, bias_key = jax.random.split(rng)
    weight = jax.random.normal(weights_key, ())
    bias = jax.random.normal(bias_key, ())
    return Params(weight, bias)


  def loss_fn(params: Params, xs: jnp.ndarray, ys: jnp.ndarray) -> jnp.ndarray:
    """Computes the least squares error of the model's predictions on x against y."""
    pred = params.weight * xs + params.bias
    return jnp.mean((pred - ys) ** 2)

  LEARNING_RATE = 0.005

  @functools.partial(jax.pmap, axis_name='num_devices')
  def update(params: Params, xs: jnp.ndarray, ys: jnp.ndarray) -> tuple[Params, jnp.ndarray]:
    """Performs one SGD update step on params using the given data."""

    # Compute the gradients on the given minibatch (individually on each device).
    loss, grads = jax.value_and_grad(loss_fn)(params, xs, ys)

    # Combine the gradient across all devices (by taking their mean).
    grads = jax.lax.pmean(grads, axis_name='num_devices')

    # Also combine the loss. Unnecessary for the update, but useful for logging.
    loss = jax.lax.pmean(loss, axis_name='num_devices')

    # Each device performs its own update, but since we start with the same params
    # and synchronise gradients, the params stay in sync.
    new_params = jax.tree.map(
        lambda param, g: param - g * LEARNING_RATE, params, grads)

    return new_params, loss

  # Generate true data from y = w*x + b + noise
  np.random.seed(0)
  true_w, true_b = 2, -1
  xs = np.random.normal(size=(128, 1))
  noise = 0.5 * np.random.normal(size=(128, 1))
  ys = xs * true_w + true_b + noise

  # Initialise parameters and replicate across devices.
  params = init(jax.random.key(123))
  n_devices = jax.local_device_count()
  replicated_params = jax.tree.map(lambda x: jnp.array([x] * n_devices), params)

  print(isinstance(replicated_params.weight, jax.Array))
  show(replicated_params)

  def split(arr):
    """Splits the first axis of `arr` evenly across the number of devices."""
    return arr.reshape(n_devices, arr.shape[0] // n_devices, *arr.shape[1:])

  # Reshape xs and ys for the pmapped `update()`.
  x_split = split(xs)
  y_split = split(ys)

  print(type(x_split))

  def type_after_update(name, obj):
    print(f"after first `update()`, `{name}` is a jax.Array:", isinstance(obj, jax.Array))

  # Actual training loop.
  for i in range(300):

    # This is where the params and data gets communicated to devices:
    replicated_params, loss = update(replicated_params, x_split, y_split)

    # The returned `replicated_params` and `loss` are now both jax.Arrays,
    # indicating that they're on the devices.
    # `x_split`, of course, remains a NumPy array on the host.
    if i == 0:
      type_after_update('replicated_params.weight', replicated_params.weight)
      type_after_update('loss', loss)
      type_after_update('x_split', x_split)
      print(loss.sharding)
      show(loss)

    if i % 100 == 0:
      # Note that loss is actually an array of shape [num_devices], with identical
      # entries, because each device returns its copy of the loss.
      # So, we take the first element to print it.
      print(f"Step {i:3d}, loss: {loss[0]:.3f}")

  # Like the loss, the leaves of params have an extra leading dimension,
  # so we take the params from the first device.
  params = jax.device_get(jax.tree.map(lambda x: x[0], replicated_params))
  show(params)
  print(type(params.weight))

  # jax.device_put_replicated is gone; the migration guide's drop-in replacement.
  try:
    jax.device_put_replicated(params, jax.local_devices())
  except AttributeError as e:
    error(e)

  from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

  def device_put_replicated(x, devices):
    """Drop-in replacement for jax.device_put_replicated supporting pytrees."""
    mesh = Mesh(np.array(devices), ('x',))
    sharding = NamedSharding(mesh, P('x'))
    return jax.tree.map(
        lambda y: jax.device_put(jnp.stack([y] * len(devices)), sharding), x
    )

  replicated_params = device_put_replicated(params, jax.local_devices())
  print(replicated_params.weight.sharding)
  replicated_params, loss = update(replicated_params, x_split, y_split)
  show(loss)
  out = dict(params=params, replicated_params=replicated_params)

  # Aside: hosts and devices in JAX
  show(jax.devices())

  # Pmap CookBook: pure maps, with no communication
  from jax import pmap

  result = pmap(lambda x: x ** 2)(jnp.arange(7))
  print(result)

  from jax import vmap

  x = jnp.array([1., 2., 3.])
  y = jnp.array([2., 4., 6.])

  print(vmap(jnp.add)(x, y))
  print(pmap(jnp.add)(x, y))

  y = pmap(lambda x: x ** 2)(jnp.arange(8))
  z = y / 2
  print(z)
  show(y)
  show(y / 2)
  show(np.sin(y))

  from jax import random

  # create 8 random keys
  keys = random.split(random.key(0), 8)
  # create a 50 x 60 matrix on each device by mapping over keys
  mats = pmap(lambda key: random.normal(key, (50, 60)))(keys)
  # the stack of matrices is represented logically as a single array
  show(mats.shape)
  # run a local matmul on each device in parallel (no data transfer)
  result = pmap(lambda x: jnp.dot(x, x.T))(mats)
  show(result.shape)
  # compute the mean on each device in parallel and print the results
  print(pmap(jnp.mean)(result))
  out['mats'] = mats

  # Collective communication operations
  from jax import lax

  normalize = lambda x: x / lax.psum(x, axis_name='i')
  result = pmap(normalize, axis_name='i')(jnp.arange(4.))
  print(result)

  from functools import partial

  @partial(pmap, axis_name='i')
  def normalize(x):
    return x / lax.psum(x, 'i')

  print(normalize(jnp.arange(4.)))

  # A halo exchange for a Rule 30 simulation with lax.ppermute
  device_count = jax.device_count()

  def send_right(x, axis_name):
    left_perm = [(i, (i + 1) % device_count) for i in range(device_count)]
    return lax.ppermute(x, perm=left_perm, axis_name=axis_name)

  def send_left(x, axis_name):
    left_perm = [((i + 1) % device_count, i) for i in range(device_count)]
    return lax.ppermute(x, perm=left_perm, axis_name=axis_name)

  def update_board(board):
    left = board[:-2]
    right = board[2:]
    center = board[1:-1]
    return lax.bitwise_xor(left, lax.bitwise_or(center, right))

  @partial(pmap, axis_name='i')
  def step(board_slice):
    left, right = board_slice[:1], board_slice[-1:]
    right, left = send_left(left, 'i'), send_right(right, 'i')
    enlarged_board_slice = jnp.concatenate([left, board_slice, right])
    return update_board(enlarged_board_slice)

  def print_board(board):
    print(''.join('*' if x else ' ' for x in board.ravel()))


  board = np.zeros(40, dtype=bool)
  board[board.shape[0] // 2] = True
  reshaped_board = board.reshape((device_count, -1))

  print_board(reshaped_board)
  for _ in range(20):
    reshaped_board = step(reshaped_board)
    print_board(reshaped_board)
  show(reshaped_board)

  out['printed'] = printed
  return out
