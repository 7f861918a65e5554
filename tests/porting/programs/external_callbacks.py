# Copyright 2024 The JAX Authors.
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

"""JAX's docs/external-callbacks.md ("External callbacks"): its code cells verbatim in `_cells`
(`print` and `jax.debug.print` inside `jit`, `jax.pure_callback` with `vmap_method` under `jit`,
`scan` and `vmap`, a callback whose unused output is dropped, the `raise_via_callback` example,
`io_callback` with and without `ordered`, `jax.debug.callback` under `vmap`/`grad`, and
`scipy.special.jv` wrapped by `pure_callback` with a `custom_jvp`). Everything printed is
captured per cell: each line as its text with the numbers taken out (compared exactly) and its
numbers (compared within float32 round-off); the cells that raise record their error's first line
(caught by JAX's class), the cells' last expressions are kept in `out`."""

from tests.porting import printed

def _error(cls, e):
  """An error caught by JAX's class `cls`, as that class's name and its first line."""
  return f'{cls.__name__}: {str(e).splitlines()[0]}'


def run():
  out = {}
  with printed.Cells(printed.numbered) as cells:
    _cells(out, cells.mark)
  out['printed'] = cells.printed
  return out


def _cells(out, mark):
  import jax

  @jax.jit
  def f(x):
    y = x + 1
    print("intermediate value: {}".format(y))
    return y * 2

  result = f(2)
  out['print'] = result
  mark('print')

  @jax.jit
  def f(x):
    y = x + 1
    jax.debug.print("intermediate value: {}", y)
    return y * 2

  result = f(2)
  out['debug_print'] = result
  mark('debug_print')

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
  out['pure_callback'] = f(x)

  out['pure_callback_jit'] = jax.jit(f)(x)

  def body_fun(_, x):
    return _, f(x)
  out['pure_callback_scan'] = jax.lax.scan(body_fun, None, jnp.arange(5.0))[1]

  out['pure_callback_vmap'] = jax.vmap(f)(x)

  try:
    jax.grad(f)(x)
  except ValueError as e:
    print(_error(ValueError, e))
  mark('pure_callback')

  def print_something():
    print('printing something')
    return np.int32(0)

  @jax.jit
  def f1():
    return jax.pure_callback(print_something, np.int32(0))
  f1();
  mark('f1')

  @jax.jit
  def f2():
    jax.pure_callback(print_something, np.int32(0))
    return 1.0
  f2();
  mark('f2')

  import jax
  import jax.numpy as jnp

  def raise_via_callback(x):
    def _raise(x):
      raise ValueError(f"value of x is {x}")
    return jax.pure_callback(_raise, x, x)

  def raise_if_negative(x):
    return jax.lax.cond(x < 0, raise_via_callback, lambda x: x, x)

  x_batch = jnp.arange(4)

  out['raise_if_negative'] = [raise_if_negative(x) for x in x_batch]  # does not raise

  try:
    jax.vmap(raise_if_negative)(x_batch)  # ValueError: value of x is 0
  except NotImplementedError as e:
    print(_error(NotImplementedError, e))
  mark('raise_via_callback')

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
  out['io_callback'] = numpy_random_like(x)
  mark('io_callback')

  out['io_callback_vmap'] = jax.vmap(numpy_random_like)(x)
  mark('io_callback_vmap')

  @jax.jit
  def numpy_random_like_ordered(x):
    return io_callback(host_side_random_like, x, x, ordered=True)

  try:
    jax.vmap(numpy_random_like_ordered)(x)
  except ValueError as e:
    print(_error(ValueError, e))
  mark('io_callback_ordered_vmap')

  def body_fun(_, x):
    return _, numpy_random_like_ordered(x)
  out['io_callback_scan'] = jax.lax.scan(body_fun, None, jnp.arange(5.0))[1]
  mark('io_callback_scan')

  try:
    jax.grad(numpy_random_like)(x)
  except ValueError as e:
    print(_error(ValueError, e))
  mark('io_callback_grad')

  @jax.jit
  def f(x):
    io_callback(lambda: print('hello'), None)
    return x

  out['io_callback_unused'] = jax.grad(f)(1.0);
  mark('io_callback_unused')

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
  mark('debug_callback')

  x = jnp.arange(5.0)
  jax.vmap(f)(x);
  mark('debug_callback_vmap')

  jax.grad(f)(1.0);
  mark('debug_callback_grad')

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

  from functools import partial
  j1 = partial(jv, 1)
  z = jnp.arange(5.0)

  print(j1(z))

  print(jax.jit(j1)(z))

  print(jax.vmap(j1)(z))

  try:
    jax.grad(j1)(z)
  except ValueError as e:
    print(_error(ValueError, e))
  mark('jv')

  jv = jax.custom_jvp(jv)

  @jv.defjvp
  def _jv_jvp(primals, tangents):
    v, z = primals
    _, z_dot = tangents  # Note: v_dot is always 0 because v is integer.
    jv_minus_1, jv_plus_1 = jv(v - 1, z), jv(v + 1, z)
    djv_dz = jnp.where(v == 0, -jv_plus_1, 0.5 * (jv_minus_1 - jv_plus_1))
    return jv(v, z), z_dot * djv_dz

  j1 = partial(jv, 1)
  print(jax.grad(j1)(2.0))

  out['hessian'] = jax.hessian(j1)(2.0)
  mark('jv_custom_jvp')
