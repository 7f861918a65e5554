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

"""JAX's docs/new_docs/201/debugging.md ("Debugging runtime values", 0f1cbf0f64): its code
cells verbatim in `_cells()`, a cell's last expression shown as the notebook shows it
(`_show`); run() returns what the cells printed (numbers apart) and the errors of its
`raises-exception` cells by built-in class and first line. Covers: `print` vs
`jax.debug.print` under `jit` (keyword and positional formats), under `vmap`, `lax.map` and
`grad`, `ordered=True`, a `custom_vjp` printing its cotangent, `effects_barrier`,
`jax.debug.callback` logging under `jit`, `vmap` and `grad`, `jax_debug_nans` eagerly and
under `jit` and scoped off by `jax.debug_nans(False)`. (port) marks the two changes: the
logging cells' warnings captured on stdout (a handler on the root logger, `WARNING:root:`
as Python's last-resort handler prints them to stderr), and the NaN cell's `traceback` reduced
to the exception's line (the frames name files and lines). JAX's "Invalid nan value ...
Calling the de-optimized version." lines are dropped: JAX prints them for its own jitted
`jnp` functions (also inside `debug_nans(False)`), numbax's `jnp` functions are not jitted. `lax.map`'s prints recorded sorted (XLA
orders unordered prints freely)."""

from tests.porting import printed
from tests.porting.printed import error as _error, show as _show  # (port) the harness


def run():
  import jax
  try:
    out = printed.notebook(_cells)
  finally:
    jax.config.update("jax_debug_nans", False)
  out['printed'] = {cell: [line for line in lines if 'de-optimized version' not in line[0]]
                    for cell, lines in out['printed'].items()}  # (port) see the docstring
  return out


def _cells(out, errors, mark):
  import jax
  import jax.numpy as jnp

  @jax.jit
  def f(x):
    print("print(x) ->", x)
    y = jnp.sin(x)
    print("print(y) ->", y)
    return y

  result = f(2.)
  mark(1)

  @jax.jit
  def f(x):
    jax.debug.print("jax.debug.print(x) -> {x}", x=x)
    y = jnp.sin(x)
    jax.debug.print("jax.debug.print(y) -> {y}", y=y)
    return y

  result = f(2.)
  mark(2)

  def f(x):
    jax.debug.print("jax.debug.print(x) -> {}", x)
    y = jnp.sin(x)
    jax.debug.print("jax.debug.print(y) -> {}", y)
    return y

  xs = jnp.arange(3.)

  result = jax.vmap(f)(xs)
  mark(3)

  import io, contextlib  # (port) lax.map's unordered prints captured, then sorted
  with contextlib.redirect_stdout(io.StringIO()) as buffer:
    result = jax.lax.map(f, xs)
  print("\n".join(sorted(buffer.getvalue().splitlines())))
  mark(4)

  def f(x):
    jax.debug.print("jax.debug.print(x) -> {}", x)
    return x ** 2

  result = jax.grad(f)(1.)
  mark(5)

  @jax.jit
  def f(x, y):
    jax.debug.print("jax.debug.print(x) -> {}", x, ordered=True)
    jax.debug.print("jax.debug.print(y) -> {}", y, ordered=True)
    return x + y

  _show(f(1, 2))
  mark(6)

  @jax.custom_vjp
  def print_grad(x):
    return x

  def print_grad_fwd(x):
    return x, None

  def print_grad_bwd(_, x_grad):
    jax.debug.print("x_grad: {}", x_grad)
    return (x_grad,)

  print_grad.defvjp(print_grad_fwd, print_grad_bwd)

  def f(x):
    x = print_grad(x)
    return x * 2.

  _show(jax.grad(f)(1.))
  mark(7)

  @jax.jit
  def f(x):
    jax.debug.print("x: {}", x)
    return x

  f(2.).block_until_ready()
  jax.effects_barrier()
  mark(8)

  import logging
  import sys  # (port) the root logger's warnings on the captured stdout
  handler = logging.StreamHandler(sys.stdout)
  handler.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
  logging.getLogger().addHandler(handler)
  try:
    def log_value(x):
      logging.warning(f'Logged value: {x}')

    @jax.jit
    def f(x):
      jax.debug.callback(log_value, x)
      return x

    f(1.0);
    mark(9)

    x = jnp.arange(5.0)
    jax.vmap(f)(x);
    mark(10)

    jax.grad(f)(1.0);
    mark(11)
  finally:
    logging.getLogger().removeHandler(handler)

  import traceback
  jax.config.update("jax_debug_nans", True)

  def f(x):
    w = 3 * jnp.square(x)
    return jnp.log(-w)

  # The stack trace is very long, so only print a couple of lines.
  try:
    f(5.)
  except FloatingPointError as e:
    print(next(line for line in traceback.format_exc(limit=2).splitlines()
               if line.startswith('FloatingPointError')))  # (port) the exception's line
  mark(12)

  try:
    jax.jit(f)(5.)
  except Exception as e:
    _error(errors, e)

  with jax.debug_nans(False):
    print(jax.jit(f)(5.))
  mark(14)

  jax.config.update("jax_debug_nans", False)  # back off for the rest of this page
