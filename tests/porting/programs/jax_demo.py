# Copyright 2019 The JAX Authors.
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

"""JAX's cloud_tpu_colabs/JAX_demo.ipynb (the JAX demo notebook as of e02faabfb2): its code cells
verbatim in `_cells()` on eight CPU devices, a cell's last expression shown as the notebook
shows it (`_show`); run() returns what the cells printed (numbers apart) and the errors of its
`try`/`except` cells by built-in class and first line. The nested `pmap`s' cells left
out (JAX 0.10.2 rejects nested pmaps, numbax maps the inner one as a `vmap`). The 5000x5000
matrices shrunk to 60x60 (the pmapped ones to 40x40), no plots or `%timeit`s. Covers: `random.normal` on a typed key, fancy indexing with `None` and `::-1`,
`grad` through Python control flow and nested `grad`/`jit`, an MLP fitted by hand-written
gradient descent, the concrete-value errors of `jit` and `static_argnums`, `make_jaxpr` of
`jnp.dot` under `vmap`, `pmap` with `psum`, a `jacfwd`/`jacrev` built from `jvp`/`vjp`/`vmap`
and per-example Hessians under `pmap`."""

from tests.porting import printed
from tests.porting.printed import error as _error, show as _show  # (port) the harness


def run():
  return printed.notebook(_cells)


def _cells(out, errors, mark):
  import jax
  import jax.numpy as jnp
  from jax import random

  key = random.key(0)
  mark(1)

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

  _show(jnp.dot(x, x.T))
  mark(5)

  print(jnp.dot(x, 2 * x)[[0, 2, 1, 0], ..., None, ::-1])
  mark(6)

  import numpy as np

  x_cpu = np.array(x)
  out['x_cpu'] = np.dot(x_cpu, x_cpu)
  out['dot'] = jnp.dot(x, x).block_until_ready()

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
  mark(7)

  print(grad(grad(f))(-x))
  print(grad(grad(grad(f)))(-x))
  mark(8)

  def predict(params, inputs):
    for W, b in params:
      outputs = jnp.dot(inputs, W) + b
      inputs = jnp.tanh(outputs)  # inputs to the next layer
    return outputs                # no activation on last layer

  def loss(params, batch):
    inputs, targets = batch
    predictions = predict(params, inputs)
    return jnp.sum((predictions - targets)**2)



  def init_layer(key, n_in, n_out):
    k1, k2 = random.split(key)
    W = random.normal(k1, (n_in, n_out))
    b = random.normal(k2, (n_out,))
    return W, b

  layer_sizes = [5, 2, 3]

  key = random.key(0)
  key, *keys = random.split(key, len(layer_sizes))
  params = list(map(init_layer, keys, layer_sizes[:-1], layer_sizes[1:]))

  key, *keys = random.split(key, 3)
  inputs = random.normal(keys[0], (8, 5))
  targets = random.normal(keys[1], (8, 3))
  batch = (inputs, targets)

  print(loss(params, batch))
  mark(9)

  step_size = 1e-2

  for _ in range(20):
    grads = grad(loss)(params, batch)
    params = [(W - step_size * dW, b - step_size * db)
              for (W, b), (dW, db) in zip(params, grads)]

  print(loss(params, batch))
  out['params'] = params
  mark(10)

  from jax import jit

  key = random.key(0)
  x = random.normal(key, (60, 60))

  def f(x):
    y = x
    for _ in range(10):
      y = y - 0.1 * y + 3.
    return y[:10, :10]

  _show(f(x))
  mark(11)

  g = jit(f)
  _show(g(x))
  mark(12)

  _show(grad(jit(grad(jit(grad(jnp.tanh)))))(1.0))
  mark(13)

  def f(x):
    if x > 0:
      return 2 * x ** 2
    else:
      return 3 * x

  g = jit(f)

  _show(f(2))
  mark(14)

  try:
      g(2)
  except Exception as e:
      _error(errors, e)
      pass

  def f(x, n):
    i = 0
    while i < n:
      x = x * x
      i += 1
    return x

  g = jit(f)

  _show(f(jnp.array([1., 2., 3.]), 5))
  mark(15)

  try:
      g(jnp.array([1., 2., 3.]), 5)
  except Exception as e:
      _error(errors, e)
      pass

  g = jit(f, static_argnums=(1,))

  _show(g(jnp.array([1., 2., 3.]), 5))
  mark(16)

  from jax import vmap

  print(vmap(lambda x: x**2)(jnp.arange(8)))
  mark(17)

  from jax import make_jaxpr

  _show(make_jaxpr(jnp.dot)(jnp.ones(8), jnp.ones(8)))
  mark(18)

  _show(make_jaxpr(vmap(jnp.dot))(jnp.ones((10, 8)), jnp.ones((10, 8))))
  mark(19)

  _show(make_jaxpr(vmap(vmap(jnp.dot)))(jnp.ones((10, 10, 8)), jnp.ones((10, 10, 8))))
  mark(20)

  perex_grads = vmap(grad(loss), in_axes=(None, 0))
  out['perex_grads'] = perex_grads(params, batch)

  _show(jax.devices())
  mark(21)

  from jax import pmap

  y = pmap(lambda x: x ** 2)(jnp.arange(8))
  print(y)
  mark(22)

  _show(y)
  mark(23)

  z = y / 2
  print(z)
  mark(24)

  keys = random.split(random.key(0), 8)
  mats = pmap(lambda key: random.normal(key, (40, 40)))(keys)
  result = pmap(jnp.dot)(mats, mats)
  print(pmap(jnp.mean)(result))
  mark(25)

  from functools import partial
  from jax.lax import psum

  @partial(pmap, axis_name='i')
  def normalize(x):
    return x / psum(x, 'i')

  print(normalize(jnp.arange(8.)))
  mark(26)

  # (port) the two cells of nested `pmap`s left out: JAX 0.10.2 rejects nested pmaps
  # ("The context mesh ... should match the mesh passed to shard_map"), numbax runs them.

  from jax import jvp, vjp  # forward and reverse-mode

  curry = lambda f: partial(partial, f)

  @curry
  def jacfwd(fun, x):
    pushfwd = partial(jvp, fun, (x,))  # jvp!
    std_basis = jnp.eye(np.size(x)).reshape((-1,) + jnp.shape(x)),
    y, jac_flat = vmap(pushfwd, out_axes=(None, -1))(std_basis)  # vmap!
    return jac_flat.reshape(jnp.shape(y) + jnp.shape(x))

  @curry
  def jacrev(fun, x):
    y, pullback = vjp(fun, x)  # vjp!
    std_basis = jnp.eye(np.size(y)).reshape((-1,) + jnp.shape(y))
    jac_flat, = vmap(pullback)(std_basis)  # vmap!
    return jac_flat.reshape(jnp.shape(y) + jnp.shape(x))

  def hessian(fun):
    return jit(jacfwd(jacrev(fun)))  # jit!

  input_hess = hessian(lambda inputs: loss(params, (inputs, targets)))
  per_example_hess = pmap(input_hess)  # pmap!
  out['per_example_hess'] = per_example_hess(inputs)
