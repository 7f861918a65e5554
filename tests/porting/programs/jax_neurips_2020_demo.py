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

"""JAX's cloud_tpu_colabs/JAX_NeurIPS_2020_demo.ipynb (the NeurIPS 2020 demo, as of
e02faabfb2): its code cells verbatim in `_cells()` on eight CPU devices, a cell's last
expression shown as the notebook shows it (`_show`); run() returns what the cells printed
(numbers apart) and the arrays; the `sharded_jit` import and the sharded convolution cells
left out (`sharded_jit` is long gone from JAX). The 5000x5000 matrices shrunk to 60x60,
the (1, 8, 2000, 1000) image to (1, 8, 20, 10), the kernel's `np.random.random` seeded, numpy's
print options restored after; no plots or `%timeit`s. Covers: `random.normal` on a typed key,
`jnp.dot`, fancy indexing with `None` and `::-1` printed, `grad` through Python control flow,
nested `grad`/`jit`, `device_count`, `pmap` of a lambda and with `psum` returning a tuple,
`lax.conv` with 'SAME' padding shown with `edgeitems=1`."""

import numpy as np

from tests.porting import printed
from tests.porting.printed import show as _show  # (port) the harness


def run():
  options = np.get_printoptions()
  try:
    return printed.notebook(_cells)
  finally:
    np.set_printoptions(**options)


def _cells(out, errors, mark):
  import jax
  import jax.numpy as jnp
  from jax import random

  key = random.key(0)
  key, subkey = random.split(key)
  x = random.normal(key, (60, 60))

  print(x.shape)
  print(x.dtype)
  mark(2)

  y = jnp.dot(x, x)
  print(y[0, 0])
  mark(3)

  _show(x)
  mark(4)

  print(jnp.dot(x, x.T))
  mark(6)

  print(jnp.dot(x, 2 * x)[[0, 2, 1, 0], ..., None, ::-1])
  mark(7)

  import numpy as np

  x_cpu = np.array(x)
  out['np_dot'] = np.dot(x_cpu, x_cpu)
  out['jnp_dot'] = jnp.dot(x, x).block_until_ready()

  from jax import grad

  def f(x):
    if x > 0:
      return 2 * x ** 3
    else:
      return 3 * x

  key = random.key(0)
  x = random.normal(key, ())

  print(grad(f)(x))
  print(grad(f)(-x))
  mark(12)

  print(grad(grad(f))(-x))
  print(grad(grad(grad(f)))(-x))
  mark(13)

  from jax import jit

  key = random.key(0)
  x = random.normal(key, (60, 60))

  def f(x):
    y = x
    for _ in range(10):
      y = y - 0.1 * y + 3.
    return y[:10, :10]

  _show(f(x))
  mark(16)

  g = jit(f)
  _show(g(x))
  mark(17)

  out['g'] = g(x).block_until_ready()

  _show(grad(jit(grad(jit(grad(jnp.tanh)))))(1.0))
  mark(20)

  _show(jax.device_count())
  mark(21)

  from jax import pmap

  y = pmap(lambda x: x ** 2)(jnp.arange(8))
  print(y)
  mark(23)

  _show(y)
  mark(24)

  from functools import partial
  from jax.lax import psum

  @partial(pmap, axis_name='i')
  def f(x):
    total = psum(x, 'i')
    return x / total, total

  normalized, total = f(jnp.arange(8.))

  print(f"normalized:\n{normalized}\n")
  print("total:", total)
  mark(26)

  # (port) `from jax.experimental import sharded_jit, PartitionSpec as P` left out with the
  # sharded convolution cells: `sharded_jit` was removed from JAX (an ImportError on both).

  from jax import lax

  conv = lambda image, kernel: lax.conv(image, kernel, (1, 1), 'SAME')

  image = jnp.ones((1, 8, 20, 10)).astype(np.float32)
  kernel = jnp.array(np.random.RandomState(0).random((8, 8, 5, 5)).astype(np.float32))  # (port) seeded

  np.set_printoptions(edgeitems=1)
  _show(conv(image, kernel))
  mark(29)
  out['conv'] = conv(image, kernel)
