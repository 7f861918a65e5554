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

"""JAX's docs/aot.md ("Ahead-of-time lowering and compilation"): its doctest cells verbatim in
`run()`. `show` records what a cell displayed (its repr and the value), `print` what it
printed, and the cells that raise whether their error is a TypeError, its first line (without
the tracer's class, a JAX module's) and its lines naming arguments; the text's `grad` and `jit`
of the compiled function too. The lowered programs' texts are recorded as being strings: JAX's
is StableHLO, numbax's the Python source its back end compiles."""

import re


def run():
  printed, shown, errors = [], [], []

  def print(*args):
    printed.append(' '.join(str(a) for a in args))

  def show(value):
    shown.append([repr(value), value])

  def raises(f):  # a TypeError's first line and the lines naming arguments, tracer types cut
    try:
      f()
    except Exception as e:  # noqa: BLE001
      first, *rest = str(e).splitlines()
      first = re.sub(r'Tracer type <.*', 'Tracer type', first)
      errors.append([isinstance(e, TypeError), first,
                     [line for line in rest if line.startswith('Argument ')]])
    else:
      errors.append(None)

  import jax
  import jax.numpy as jnp
  import numpy as np

  def f(x, y): return 2 * x + y
  x, y = 3, 4

  traced = jax.jit(f).trace(x, y)

  # Print the specialized, staged-out representation (as Jaxpr IR)
  print(traced.jaxpr)

  lowered = traced.lower()

  # Print lowered HLO
  print(isinstance(lowered.as_text(), str))

  compiled = lowered.compile()

  # Query for cost analysis, print FLOP estimate
  show(compiled.cost_analysis()['flops'])

  # Execute the compiled function!
  show(compiled(x, y))

  i32_scalar = jax.ShapeDtypeStruct((), jnp.dtype('int32'))
  show(jax.jit(f).trace(i32_scalar, i32_scalar).lower().compile()(x, y))

  x_1d = y_1d = jnp.arange(3)
  raises(lambda: jax.jit(f).trace(i32_scalar, i32_scalar).lower().compile()(x_1d, y_1d))

  x_f = y_f = jnp.float32(72.)
  raises(lambda: jax.jit(f).trace(i32_scalar, i32_scalar).lower().compile()(x_f, y_f))

  # Tracing with static arguments
  lowered_with_x = jax.jit(f, static_argnums=0).trace(7, 8).lower()

  # Lowered HLO, specialized to the *value* of the first argument (7)
  print(isinstance(lowered_with_x.as_text(), str))

  show(lowered_with_x.compile()(5))

  raises(lambda: jax.jit(f, static_argnums=0).trace(i32_scalar, i32_scalar))

  show(jax.jit(f, static_argnums=0).trace(10, i32_scalar).lower().compile()(5))

  # AOT-compiled functions cannot be transformed
  def g(x):
    assert x.shape == (3, 2)
    return x @ jnp.ones(2)

  def make_z(*shape):
    return jnp.arange(np.prod(shape)).reshape(shape)

  z, zs = make_z(3, 2), make_z(4, 3, 2)

  g_jit = jax.jit(g)
  g_aot = jax.jit(g).trace(z).lower().compile()

  show(jax.vmap(g_jit)(zs))

  raises(lambda: jax.vmap(g_aot)(zs))
  # "A similar error is raised when `g_aot` is involved in autodiff (e.g. jax.grad). For
  # consistency, transformation by `jax.jit` is disallowed as well"
  raises(lambda: jax.grad(lambda z: g_aot(z).sum())(z.astype(jnp.float32)))
  raises(lambda: jax.jit(g_aot)(z))

  return dict(printed=printed, shown=shown, errors=errors)
