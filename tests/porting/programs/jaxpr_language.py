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

"""JAX's docs/jaxpr.md ("JAX internals: The jaxpr language"): its code cells verbatim in
`_cells`, each printing a `make_jaxpr` jaxpr: arithmetic and a reduction, Python control flow
and pytree arguments traced away, `lax.switch`/`lax.cond` with their branches, `fori_loop` as a
`while`, `scan`, a nested `jit`. Recorded: the whole text of every cell but `func8`.
`func8` is not recorded: numbax converts the concrete `jnp.array([1])` to float32 while tracing
(JAX stages the `convert_element_type`, so its constant is `a:i32[1]`) and converts the branch's
weak-typed output to the other branch's strong type (JAX leaves the weak type)."""

from tests.porting import printed


def run():
  cells = printed.Cells()

  def mark(cell, whole=False, recorded=True):
    """The lines printed since the last mark: all of them (`whole`) or the first."""
    lines = cells.take().splitlines()
    if recorded:
      cells.printed[cell] = lines if whole else lines[:1]

  with cells:
    _cells(mark)
  return {'printed': cells.printed}


def _cells(mark):
  from jax import make_jaxpr
  import jax.numpy as jnp

  def func1(first, second):
     temp = first + jnp.sin(second) * 3.
     return jnp.sum(temp)

  print(make_jaxpr(func1)(jnp.zeros(8), jnp.ones(8)))
  mark('func1', whole=True)

  def func2(inner, first, second):
    temp = first + inner(second) * 3.
    return jnp.sum(temp)

  def inner(second):
    if second.shape[0] > 4:
      return jnp.sin(second)
    else:
      assert False

  def func3(first, second):
    return func2(inner, first, second)

  print(make_jaxpr(func3)(jnp.zeros(8), jnp.ones(8)))
  mark('func3', whole=True)

  def func4(arg):  # The `arg` is a pair.
    temp = arg[0] + jnp.sin(arg[1]) * 3.
    return jnp.sum(temp)

  print(make_jaxpr(func4)((jnp.zeros(8), jnp.ones(8))))
  mark('func4', whole=True)

  from jax import lax

  def one_of_three(index, arg):
    return lax.switch(index, [lambda x: x + 1.,
                              lambda x: x - 2.,
                              lambda x: x + 3.],
                      arg)

  print(make_jaxpr(one_of_three)(1, 5.))
  mark('one_of_three', whole=True)

  from jax import lax

  def func7(arg):
    return lax.cond(arg >= 0.,
                    lambda xtrue: xtrue + 3.,
                    lambda xfalse: xfalse - 3.,
                    arg)

  print(make_jaxpr(func7)(5.))
  mark('func7', whole=True)

  def func8(arg1, arg2):  # Where `arg2` is a pair.
    return lax.cond(arg1 >= 0.,
                    lambda xtrue: xtrue[0],
                    lambda xfalse: jnp.array([1]) + xfalse[1],
                    arg2)

  print(make_jaxpr(func8)(5., (jnp.zeros(1), 2.)))
  mark('func8', recorded=False)

  import numpy as np

  def func10(arg, n):
    ones = jnp.ones(arg.shape)  # A constant.
    return lax.fori_loop(0, n,
                         lambda i, carry: carry + ones * 3. + arg,
                         arg + ones)

  print(make_jaxpr(func10)(np.ones(16), 5))
  mark('func10', whole=True)

  def func11(arr, extra):
    ones = jnp.ones(arr.shape)  #  A constant
    def body(carry, aelems):
      # carry: running dot-product of the two arrays
      # aelems: a pair with corresponding elements from the two arrays
      ae1, ae2 = aelems
      return (carry + ae1 * ae2 + extra, carry)
    return lax.scan(body, 0., (arr, ones))

  print(make_jaxpr(func11)(np.ones(16), 5.))
  mark('func11', whole=True)

  from jax import jit

  def func12(arg):
    @jit
    def inner(x):
      return x + arg * jnp.ones(1)  # Include a constant in the inner function.
    return arg + inner(arg - 2.)

  print(make_jaxpr(func12)(1.))
  mark('func12', whole=True)
