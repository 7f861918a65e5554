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



"""JAX's docs/control-flow.md ("Control flow and logical operators with JIT"): its code cells
verbatim in `run()`; `print` records what the cells printed (the strings, as users see them,
tracers printed inside `jit` included), the cells' last expressions are kept in `out`, and the
cells that raise record their error's first line (caught by JAX's class)."""

import builtins


def run():
  printed = []
  errors = []
  out = {}

  def print(*args):
    builtins.print(*args)
    printed.append(' '.join(str(a) for a in args))

  from jax import grad, jit
  import jax
  import jax.numpy as jnp

  @jit
  def f(x):
    for i in range(3):
      x = 2 * x
    return x

  print(f(3))

  @jit
  def g(x):
    y = 0.
    for i in range(x.shape[0]):
      y = y + x[i]
    return y

  print(g(jnp.array([1., 2., 3.])))

  @jit
  def f(x):
    if x < 3:
      return 3. * x ** 2
    else:
      return -4 * x

  # This will fail!
  try:
    f(2)
  except jax.errors.TracerBoolConversionError as e:
    errors.append(str(e).splitlines()[0])

  @jit
  def g(x):
    return (x > 0) and (x < 3)

  # This will fail!
  try:
    g(2)
  except jax.errors.TracerBoolConversionError as e:
    errors.append(str(e).splitlines()[0])

  def f(x):
    if x < 3:
      return 3. * x ** 2
    else:
      return -4 * x

  f = jit(f, static_argnames='x')

  print(f(2.))

  def f(x, n):
    y = 0.
    for i in range(n):
      y = y + x[i]
    return y

  f = jit(f, static_argnames='n')

  out['static_n'] = f(jnp.array([2., 3., 4.]), 2)

  def example_fun(length, val):
    return jnp.ones((length,)) * val
  # un-jit'd works fine
  print(example_fun(5, 4))

  bad_example_jit = jit(example_fun)
  # this will fail:
  try:
    bad_example_jit(10, 4)
  except TypeError as e:
    errors.append(str(e).splitlines()[0])

  # static_argnames tells JAX to recompile on changes at these argument positions:
  good_example_jit = jit(example_fun, static_argnames='length')
  # first compile
  print(good_example_jit(10, 4))
  # recompiles
  print(good_example_jit(5, 4))

  @jit
  def f(x):
    print(x)
    y = 2 * x
    print(y)
    return y
  out['print_in_jit'] = f(2)

  from jax import lax

  operand = jnp.array([0.])
  out['cond_true'] = lax.cond(True, lambda x: x+1, lambda x: x-1, operand)
  # --> array([1.], dtype=float32)
  out['cond_false'] = lax.cond(False, lambda x: x+1, lambda x: x-1, operand)
  # --> array([-1.], dtype=float32)

  init_val = 0
  cond_fun = lambda x: x < 10
  body_fun = lambda x: x+1
  out['while_loop'] = lax.while_loop(cond_fun, body_fun, init_val)
  # --> array(10, dtype=int32)

  init_val = 0
  start = 0
  stop = 10
  body_fun = lambda i,x: x+i
  out['fori_loop'] = lax.fori_loop(start, stop, body_fun, init_val)
  # --> array(45, dtype=int32)

  def python_check_positive_even(x):
    is_even = x % 2 == 0
    # `and` short-circults, so when `is_even` is `False`, `x > 0` is not evaluated.
    return is_even and (x > 0)

  @jit
  def jax_check_positive_even(x):
    is_even = x % 2 == 0
    # `logical_and` does not short circuit, so `x > 0` is always evaluated.
    return jnp.logical_and(is_even, x > 0)

  print(python_check_positive_even(24))
  print(jax_check_positive_even(24))

  x = jnp.array([-1, 2, 5])
  print(jax_check_positive_even(x))

  try:
    print(python_check_positive_even(x))
  except ValueError as e:
    errors.append(str(e).splitlines()[0])

  def f(x):
    if x < 3:
      return 3. * x ** 2
    else:
      return -4 * x

  print(grad(f)(2.))  # ok!
  print(grad(f)(4.))  # ok!
  out.update(printed=printed, errors=errors)
  return out
