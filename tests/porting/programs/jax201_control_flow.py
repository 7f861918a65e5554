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


"""JAX's docs/new_docs/201/control-flow.md ("JAX 201: Control flow", 549f98493e): its code cells
verbatim in `_cells()` on eight CPU devices, a cell's last expression shown as the notebook
shows it (`_show`); run() returns what the cells printed (numbers apart) and the errors of its
`raises-exception` cells by built-in class and first line.
Covers: `if`/`while` on tracers' errors, `static_argnames`, `lax.cond`/`switch`/`while_loop`/
`fori_loop`/`scan`, `logical_and` vs `and`, Python control flow under `grad`."""

from tests.porting import printed
from tests.porting.printed import error as _error, show as _show  # (port) the harness


def run():
  return printed.notebook(_cells)


def _cells(out, errors, mark):
  from jax import grad, jit
  import jax.numpy as jnp
  mark(1)

  @jit
  def f(x):
    for i in range(3):
      x = 2 * x
    return x

  print(f(3))
  mark(2)

  @jit
  def g(x):
    y = 0.
    for i in range(x.shape[0]):
      y = y + x[i]
    return y

  print(g(jnp.array([1., 2., 3.])))
  mark(3)

  try:
    @jit
    def f(x):
      if x < 3:
        return 3. * x ** 2
      else:
        return -4 * x

    # This will fail!
    _show(f(2))
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(4)

  try:
    @jit
    def g(x):
      return (x > 0) and (x < 3)

    # This will fail!
    _show(g(2))
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(5)

  def f(x):
    if x < 3:
      return 3. * x ** 2
    else:
      return -4 * x

  f = jit(f, static_argnames='x')

  print(f(2.))
  mark(6)

  def f(x, n):
    y = 0.
    for i in range(n):
      y = y + x[i]
    return y

  f = jit(f, static_argnames='n')

  _show(f(jnp.array([2., 3., 4.]), 2))
  mark(7)

  def example_fun(length, val):
    return jnp.ones((length,)) * val
  # un-jit'd works fine
  print(example_fun(5, 4))
  mark(8)

  try:
    bad_example_jit = jit(example_fun)
    # this will fail:
    _show(bad_example_jit(10, 4))
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(9)

  # static_argnames tells JAX to recompile on changes at these argument positions:
  good_example_jit = jit(example_fun, static_argnames='length')
  # first compile
  print(good_example_jit(10, 4))
  # recompiles
  print(good_example_jit(5, 4))
  mark(10)

  @jit
  def f(x):
    print(x)
    y = 2 * x
    print(y)
    return y
  _show(f(2))
  mark(11)

  from jax import lax

  operand = jnp.array([0.])
  print(lax.cond(True, lambda x: x+1, lambda x: x-1, operand))
  # --> array([1.], dtype=float32)
  print(lax.cond(False, lambda x: x+1, lambda x: x-1, operand))
  # --> array([-1.], dtype=float32)
  mark(12)

  init_val = 0
  cond_fun = lambda x: x < 10
  body_fun = lambda x: x + 1
  _show(lax.while_loop(cond_fun, body_fun, init_val))
  # --> array(10, dtype=int32)
  mark(13)

  init_val = 0
  start = 0
  stop = 10
  body_fun = lambda i, x: x + i
  _show(lax.fori_loop(start, stop, body_fun, init_val))
  # --> array(45, dtype=int32)
  mark(14)

  def cumsum_step(carry, x):
    new_carry = carry + x
    return new_carry, new_carry   # (next state, this step's output)

  final, cumulative = lax.scan(cumsum_step, 0.0, jnp.arange(1., 5.))
  print(final)
  print(cumulative)
  mark(15)

  def python_check_positive_even(x):
    is_even = x % 2 == 0
    # `and` short-circuits, so when `is_even` is `False`, `x > 0` is not evaluated.
    return is_even and (x > 0)

  @jit
  def jax_check_positive_even(x):
    is_even = x % 2 == 0
    # `logical_and` does not short circuit, so `x > 0` is always evaluated.
    return jnp.logical_and(is_even, x > 0)

  print(python_check_positive_even(24))
  print(jax_check_positive_even(24))
  mark(16)

  x = jnp.array([-1, 2, 5])
  print(jax_check_positive_even(x))
  mark(17)

  try:
    print(python_check_positive_even(x))
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(18)
