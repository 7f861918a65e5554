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

"""JAX's docs/debugging/print_breakpoint.md ("Compiled prints and breakpoints"): its code blocks
verbatim in `_cells` (`jax.debug.print` under `jit`, `vmap`, `lax.map`, `pmap` and `grad`, on the
backward pass through a `custom_vjp`, unordered prints of independent values, printing before
`block_until_ready`/`jax.effects_barrier`, a `lax.cond` that would reach a breakpoint). What each
block printed is recorded as lines (text with the numbers taken out, compared exactly, and the
numbers, within float32 round-off), the blocks' values in `out`. The blocks whose order the page
says may vary (`pmap`, independent prints under `jit`) and `lax.map`'s body (XLA prints its `y`
before its `x`) are recorded sorted. Left out: the blocks that pause in `pdb`
(`jax.debug.breakpoint()` reached) and the pseudo-code signatures."""

from tests.porting import printed

import jax


def run():
  out = {}
  cells = printed.Cells()

  def mark(cell, ordered=True):
    """The lines printed since the last mark (sorted unless `ordered`), once every callback
    in flight has run (JAX prints a `pmap`'s second device's line later)."""
    jax.effects_barrier()
    lines = cells.take().splitlines()
    cells.printed[cell] = printed.numbered('\n'.join(lines if ordered else sorted(lines)))

  with cells:
    _cells(out, mark)
  out['printed'] = cells.printed
  return out


def _cells(out, mark):
  import jax
  import jax.numpy as jnp

  @jax.jit
  def f(x):
    jax.debug.print("🤯 {x} 🤯", x=x)
    y = jnp.sin(x)
    jax.debug.print("🤯 {y} 🤯", y=y)
    return y

  out['jit'] = f(2.)
  # Prints:
  # 🤯 2.0 🤯
  # 🤯 0.9092974662780762 🤯
  mark('jit')

  xs = jnp.arange(3.)

  def f(x):
    jax.debug.print("x: {}", x)
    y = jnp.sin(x)
    jax.debug.print("y: {}", y)
    return y
  out['vmap'] = jax.vmap(f)(xs)
  # Prints: x: 0.0
  #         x: 1.0
  #         x: 2.0
  #         y: 0.0
  #         y: 0.841471
  #         y: 0.9092974
  mark('vmap')
  out['lax_map'] = jax.lax.map(f, xs)
  # Prints: x: 0.0
  #         y: 0.0
  #         x: 1.0
  #         y: 0.841471
  #         x: 2.0
  #         y: 0.9092974
  mark('lax_map', ordered=False)

  xs = jnp.arange(2.)

  def f(x):
    jax.debug.print("x: {}", x)
    return x
  out['pmap'] = jax.pmap(f)(xs)
  # Prints: x: 0.0
  #         x: 1.0
  # OR
  # Prints: x: 1.0
  #         x: 0.0
  mark('pmap', ordered=False)

  def f(x):
    jax.debug.print("x: {}", x)
    return x * 2.

  out['grad'] = jax.grad(f)(1.)
  # Prints: x: 1.0
  mark('grad')

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
  out['custom_vjp'] = jax.grad(f)(1.)
  # Prints: x_grad: 2.0
  mark('custom_vjp')

  @jax.jit
  def f(x, y):
    jax.debug.print("x: {}", x)
    jax.debug.print("y: {}", y)
    return x + y

  out['unordered'] = f(2., 3.)
  # Prints: x: 2.0
  #         y: 3.0
  # OR
  # Prints: y: 3.0
  #         x: 2.0
  mark('unordered', ordered=False)

  @jax.jit
  def f(x):
    jax.debug.print("x: {}", x)
    return x
  f(2.).block_until_ready()
  # <do something else>
  # Prints: x: 2.
  mark('block_until_ready')

  @jax.jit
  def f(x):
    jax.debug.print("x: {}", x)
    return x
  f(2.).block_until_ready()
  jax.effects_barrier()
  # Prints: x: 2.
  # <do something else>
  mark('effects_barrier')

  from jax import lax

  def breakpoint_if_nonfinite(x):
    is_finite = jnp.isfinite(x).all()
    def true_fn(x):
      pass
    def false_fn(x):
      jax.debug.breakpoint()
    lax.cond(is_finite, true_fn, false_fn, x)

  @jax.jit
  def f(x, y):
    z = x / y
    breakpoint_if_nonfinite(z)
    return z
  out['no_breakpoint'] = f(2., 1.) # ==> No breakpoint
  mark('no_breakpoint')
