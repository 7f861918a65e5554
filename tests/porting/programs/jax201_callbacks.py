# Copyright 2026 The JAX Authors.
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


"""JAX's docs/new_docs/201/callbacks.md ("JAX 201: Callbacks", 0f1cbf0f64): its code cells
verbatim in `_cells()` on eight CPU devices, a cell's last expression shown as the notebook
shows it (`_show`); run() returns what the cells printed (numbers apart) and the errors of its
`raises-exception` cells by built-in class and first line.
Covers: `print` vs `jax.debug.print`, `pure_callback` under `jit`/`vmap`/`scan` with
`vmap_method`s, an unused callback dropped, `io_callback` on numpy's generator and its
`ordered` `vmap` error, `debug.callback` logging under `vmap`/`grad`, callbacks under a sharded
`jit` (one call with the whole array) and `shard_map` (one call per device), `scipy.special.jv`
with a `custom_jvp`; the callbacks' JVP errors."""

from tests.porting import printed
from tests.porting.printed import error as _error, show as _show  # (port) the harness


def run():
  return printed.notebook(_cells)


def _cells(out, errors, mark):
  import jax

  @jax.jit
  def f(x):
    y = x + 1
    print("intermediate value: {}".format(y))
    return y * 2

  result = f(2)
  mark(1)

  @jax.jit
  def f(x):
    y = x + 1
    jax.debug.print("intermediate value: {}", y)
    return y * 2

  result = f(2)
  mark(2)

  import jax
  import jax.numpy as jnp
  import numpy as np

  def f_host(x):
    # call a numpy (not jax.numpy) operation:
    return np.sin(x).astype(x.dtype)

  def f(x):
    result_shape = jax.ShapeDtypeStruct.like(x)
    return jax.pure_callback(f_host, result_shape, x, vmap_method='sequential')

  x = jnp.arange(5.0)
  _show(f(x))
  mark(3)

  _show(jax.jit(f)(x))
  mark(4)

  def body_fun(_, x):
    return _, f(x)
  _show(jax.lax.scan(body_fun, None, jnp.arange(5.0))[1])
  mark(5)

  _show(jax.vmap(f)(x))
  mark(6)

  try:
    _show(jax.grad(f)(x))
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(7)

  def print_something():
    print('printing something')
    return np.int32(0)

  @jax.jit
  def f1():
    return jax.pure_callback(print_something, np.int32(0))
  f1();
  mark(8)

  @jax.jit
  def f2():
    jax.pure_callback(print_something, np.int32(0))
    return 1.0
  f2();
  mark(9)

  from jax.experimental import io_callback
  from functools import partial

  global_rng = np.random.default_rng(0)

  def host_side_random_like(x):
    """Generate a random array like x using the global_rng state"""
    # We have two side-effects here:
    # - printing the shape and dtype
    # - calling global_rng, thus updating its state
    print(f'generating {x.dtype}{list(x.shape)}')
    return global_rng.uniform(size=x.shape).astype(x.dtype)

  @jax.jit
  def numpy_random_like(x):
    return io_callback(host_side_random_like, x, x)

  x = jnp.zeros(5)
  _show(numpy_random_like(x))
  mark(10)

  _show(jax.vmap(numpy_random_like)(x))
  mark(11)

  try:
    @jax.jit
    def numpy_random_like_ordered(x):
      return io_callback(host_side_random_like, x, x, ordered=True)

    _show(jax.vmap(numpy_random_like_ordered)(x))
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(12)

  def body_fun(_, x):
    return _, numpy_random_like_ordered(x)
  _show(jax.lax.scan(body_fun, None, jnp.arange(5.0))[1])
  mark(13)

  try:
    _show(jax.grad(numpy_random_like)(x))
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(14)

  @jax.jit
  def f(x):
    io_callback(lambda: print('hello'), None)
    return x

  jax.grad(f)(1.0);
  mark(15)

  from jax import debug

  def log_value(x):
    # This could be an actual logging call; we'll use
    # print() for demonstration
    print("log:", x)

  @jax.jit
  def f(x):
    debug.callback(log_value, x)
    return x

  f(1.0);
  mark(16)

  x = jnp.arange(5.0)
  jax.vmap(f)(x);
  mark(17)

  jax.grad(f)(1.0);
  mark(18)

  def host_fn(x):
    print(f"callback received shape {x.shape}")
    return np.asarray(x) * 2

  def f(x):
    return jax.pure_callback(host_fn, jax.ShapeDtypeStruct.like(x), x)

  mesh = jax.make_mesh((8,), ('i',))

  with jax.set_mesh(mesh):
    x = jax.device_put(jnp.arange(8.0), jax.P('i'))
    out = jax.jit(f)(x)  # one callback, with the full gathered array
  _show(out)
  mark(19)

  with jax.set_mesh(mesh):
    out = jax.shard_map(f, in_specs=jax.P('i'), out_specs=jax.P('i'))(x)  # one callback per device
  _show(out)
  mark(20)

  import jax
  import jax.numpy as jnp
  import scipy.special

  def jv(v, z):
    v, z = jnp.asarray(v), jnp.asarray(z)

    # Require the order v to be integer type: this simplifies
    # the JVP rule below.
    assert jnp.issubdtype(v.dtype, jnp.integer)

    # Promote the input to inexact (float/complex).
    # Note that jnp.result_type() accounts for the enable_x64 flag.
    z = z.astype(jnp.result_type(float, z.dtype))

    # Wrap scipy function to return the expected dtype.
    _scipy_jv = lambda v, z: scipy.special.jv(v, z).astype(z.dtype)

    # Define the expected shape & dtype of output.
    result_shape_dtype = jax.ShapeDtypeStruct(
        shape=jnp.broadcast_shapes(v.shape, z.shape),
        dtype=z.dtype)

    # Use vmap_method="broadcast_all" because scipy.special.jv handles broadcasted inputs.
    return jax.pure_callback(_scipy_jv, result_shape_dtype, v, z, vmap_method="broadcast_all")
  mark(21)

  from functools import partial
  j1 = partial(jv, 1)
  z = jnp.arange(5.0)
  mark(22)

  print(j1(z))
  mark(23)

  print(jax.jit(j1)(z))
  mark(24)

  print(jax.vmap(j1)(z))
  mark(25)

  try:
    _show(jax.grad(j1)(z))
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(26)

  jv = jax.custom_jvp(jv)

  @jv.defjvp
  def _jv_jvp(primals, tangents):
    v, z = primals
    _, z_dot = tangents  # Note: v_dot is always 0 because v is integer.
    jv_minus_1, jv_plus_1 = jv(v - 1, z), jv(v + 1, z)
    djv_dz = jnp.where(v == 0, -jv_plus_1, 0.5 * (jv_minus_1 - jv_plus_1))
    return jv(v, z), z_dot * djv_dz
  mark(27)

  j1 = partial(jv, 1)
  print(jax.grad(j1)(2.0))
  mark(28)

  _show(jax.hessian(j1)(2.0))
  mark(29)
