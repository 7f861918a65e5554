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

"""JAX's docs/debugging.md ("Introduction to debugging") + docs/debugging/flags.md ("JAX
debugging flags"): their code cells verbatim in `_cells` (without the cells that pause in `pdb`:
`jax.debug.breakpoint()` reached, `breakpoint()` under `jax_disable_jit`). Everything printed
(`print`, `jax.debug.print`, the `logging.warning` of `jax.debug.callback`, formatted
tracebacks) is captured per cell: each line as its text with the numbers taken out (compared
exactly, source paths without their directory) and its numbers (compared within float32
round-off); the cells that raise record their error's class and first line, the cells' last
expressions are kept in `out`.

Left out of the records: the order of the two unordered `jax.debug.print`s in `lax.map`'s scan
body (XLA's schedule prints each `y` before its `x`; numbax prints them in program order: that
cell's lines are recorded sorted); with `jax_debug_nans`, JAX's "Calling the de-optimized
version" line printed again by each of its own jitted `jnp` functions re-run de-optimized
(`jnp.log`; numbax's `jnp` functions are not jits: a cell's repeated lines are kept once, the
traceback cell keeps the traceback only) and the note JAX's traceback filtering adds to the
exception."""

import logging
import re

from tests.porting import printed


def _error(e):
  """An error as its class name and first line."""
  return f'{type(e).__name__}: {str(e).splitlines()[0]}'


def run():
  out = {}
  cells = printed.Cells()

  def mark(cell, once=False, traceback_only=False, ordered=True):
    """The lines printed since the last mark (`once`: each line once; `ordered=False`: sorted;
    `traceback_only`: from 'Traceback' to the exception's line), source paths without their
    directories."""
    lines = cells.take().splitlines()
    if once:
      lines = list(dict.fromkeys(lines))
    if not ordered:
      lines = sorted(lines)
    if traceback_only:
      start = lines.index('Traceback (most recent call last):')
      end = next(i for i, line in enumerate(lines) if line.startswith('FloatingPointError'))
      lines = lines[start:end + 1]
    text = re.sub(r'[^ "]*/([\w.]+\.py\b)', r'\1', '\n'.join(lines))
    cells.printed[cell] = printed.numbered(text)

  handler = logging.StreamHandler(cells.stdout)
  handler.setFormatter(logging.Formatter('%(levelname)s:%(name)s:%(message)s'))
  logging.getLogger().addHandler(handler)
  try:
    with cells:
      _cells(out, mark)
  finally:
    logging.getLogger().removeHandler(handler)
    import jax
    jax.config.update("jax_debug_nans", False)
  out['printed'] = cells.printed
  return out


def _cells(out, mark):
  import jax
  import jax.numpy as jnp

  @jax.jit
  def f(x):
    print("print(x) ->", x)
    y = jnp.sin(x)
    print("print(y) ->", y)
    return y

  result = f(2.)
  out['print'] = result
  mark('print')

  @jax.jit
  def f(x):
    jax.debug.print("jax.debug.print(x) -> {x}", x=x)
    y = jnp.sin(x)
    jax.debug.print("jax.debug.print(y) -> {y}", y=y)
    return y

  result = f(2.)
  out['debug_print'] = result
  mark('debug_print')

  def f(x):
    jax.debug.print("jax.debug.print(x) -> {}", x)
    y = jnp.sin(x)
    jax.debug.print("jax.debug.print(y) -> {}", y)
    return y

  xs = jnp.arange(3.)

  result = jax.vmap(f)(xs)
  out['vmap'] = result
  mark('vmap')

  result = jax.lax.map(f, xs)
  out['lax_map'] = result
  mark('lax_map', ordered=False)

  def f(x):
    jax.debug.print("jax.debug.print(x) -> {}", x)
    return x ** 2

  result = jax.grad(f)(1.)
  out['grad'] = result
  mark('grad')

  @jax.jit
  def f(x, y):
    jax.debug.print("jax.debug.print(x) -> {}", x, ordered=True)
    jax.debug.print("jax.debug.print(y) -> {}", y, ordered=True)
    return x + y

  out['ordered'] = f(1, 2)
  mark('ordered')

  def breakpoint_if_nonfinite(x):
    is_finite = jnp.isfinite(x).all()
    def true_fn(x):
      pass
    def false_fn(x):
      jax.debug.breakpoint()
    jax.lax.cond(is_finite, true_fn, false_fn, x)

  @jax.jit
  def f(x, y):
    z = x / y
    breakpoint_if_nonfinite(z)
    return z

  out['no_breakpoint'] = f(2., 1.) # ==> No breakpoint
  mark('no_breakpoint')

  import logging

  def log_value(x):
    logging.warning(f'Logged value: {x}')

  @jax.jit
  def f(x):
    jax.debug.callback(log_value, x)
    return x

  f(1.0);
  mark('callback')

  x = jnp.arange(5.0)
  jax.vmap(f)(x);
  mark('callback_vmap')

  jax.grad(f)(1.0);
  mark('callback_grad')

  from jax.experimental import checkify
  import jax
  import jax.numpy as jnp

  def f(x, i):
    checkify.check(i >= 0, "index needs to be non-negative!")
    y = x[i]
    z = jnp.sin(y)
    return z

  jittable_f = checkify.checkify(f)

  err, z = jax.jit(jittable_f)(jnp.ones((5,)), -1)
  print(err.get())
  # >> index needs to be non-negative! (check failed at <...>:6 (f))
  out['checkify_jit'] = z
  mark('checkify_jit')

  errors = checkify.user_checks | checkify.index_checks | checkify.float_checks
  checked_f = checkify.checkify(f, errors=errors)

  err, z = checked_f(jnp.ones((5,)), 100)
  try:
    err.throw()
  except Exception as e:
    print(_error(e))
  # ValueError: out-of-bounds indexing at <..>:7 (f)
  out['checkify_index'] = z

  err, z = checked_f(jnp.ones((5,)), -1)
  try:
    err.throw()
  except Exception as e:
    print(_error(e))
  # ValueError: index needs to be non-negative! (check failed at <…>:6 (f))

  err, z = checked_f(jnp.array([jnp.inf, 1]), 0)
  try:
    err.throw()
  except Exception as e:
    print(_error(e))
  # ValueError: nan generated by primitive sin at <...>:8 (f)
  mark('checkify_errors')

  import jax
  jax.config.update("jax_debug_nans", True)

  def f(x, y):
    return x / y

  try:
    jax.jit(f)(0., 0.)  # ==> raises FloatingPointError exception!
  except Exception as e:
    print(_error(e))
  mark('debug_nans_jit_div')

  # docs/debugging/flags.md
  import jax
  import jax.numpy as jnp
  import traceback
  jax.config.update("jax_debug_nans", True)

  def f(x):
    w = 3 * jnp.square(x)
    return jnp.log(-w)

  # The stack trace is very long so only print a couple lines.
  try:
    f(5.)
  except FloatingPointError as e:
    print(traceback.format_exc(limit=2))
  mark('debug_nans_traceback', traceback_only=True)

  try:
    jax.jit(f)(5.)
  except Exception as e:
    print(_error(e))
  mark('debug_nans_jit', once=True)

  with jax.debug_nans(False):
    print(jax.jit(f)(5.))
  mark('debug_nans_off')
