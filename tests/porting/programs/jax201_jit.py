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


"""JAX's docs/new_docs/201/jit.md ("JAX 201: Just-in-time compilation", 75d6d03e89): its code
cells verbatim in `_cells()` on eight CPU devices, a cell's last expression shown as the
notebook shows it (`_show`); run() returns what the cells printed (numbers apart) and the
errors of its `raises-exception` cells by built-in class and first line.
Covers: what a jitted function captures (side effects at trace time), `if` on tracers' errors,
`static_argnums`/`static_argnames`, caching of partials, lambdas and named functions,
`jax_explain_cache_misses`, `jit` of methods (the `self` error, static `self`), an in-place
`sin` on a Ref, the 1000x1000 product of the asynchronous dispatch section. The Ref's buffer
addresses left out (numbax replaces a Ref's array on a write)."""

from tests.porting import printed
from tests.porting.printed import error as _error, show as _show  # (port) the harness


def run():
  return printed.notebook(_cells)


def _cells(out, errors, mark):
  import jax
  import jax.numpy as jnp

  def selu(x, alpha=1.67, lambda_=1.05):
    return lambda_ * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

  x = jnp.arange(1000000)
  mark(1)

  selu_jit = jax.jit(selu)

  # Warm up: the first call traces and compiles.
  _show(selu_jit(x).block_until_ready())
  mark(2)

  def log2_if_rank_2(x):
    if x.ndim == 2:
      return jnp.log(x) / jnp.log(2.0)
    else:
      return x

  _show(jax.jit(log2_if_rank_2).trace(jnp.array([1, 2, 3])).jaxpr)
  mark(3)

  try:
    # Condition on the value of x.

    def f(x):
      if x > 0:
        return x
      else:
        return 2 * x

    _show(jax.jit(f)(10))  # Raises an error
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(4)

  try:
    # While loop conditioned on x and n.

    def g(x, n):
      i = 0
      while i < n:
        i += 1
      return x + i

    _show(jax.jit(g)(10, 20))  # Raises an error
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(5)

  @jax.jit
  def loop_body(prev_i):
    return prev_i + 1

  def g_inner_jitted(x, n):
    i = 0
    while i < n:
      i = loop_body(i)
    return x + i

  _show(g_inner_jitted(10, 20))
  mark(6)

  f_jit_correct = jax.jit(f, static_argnums=0)
  print(f_jit_correct(10))
  mark(7)

  g_jit_correct = jax.jit(g, static_argnames=['n'])
  print(g_jit_correct(10, 20))
  mark(8)

  @jax.jit(static_argnames=['n'])
  def g_jit_decorated(x, n):
    i = 0
    while i < n:
      i += 1
    return x + i

  print(g_jit_decorated(10, 20))
  mark(9)

  from functools import partial

  def unjitted_loop_body(prev_i):
    return prev_i + 1

  def g_inner_jitted_partial(x, n):
    i = 0
    while i < n:
      # Don't do this! A fresh `partial` has a different hash each time,
      # so this recompiles on every iteration.
      i = jax.jit(partial(unjitted_loop_body))(i)
    return x + i

  def g_inner_jitted_lambda(x, n):
    i = 0
    while i < n:
      # Don't do this either! Same problem: a fresh lambda every iteration.
      i = jax.jit(lambda x: unjitted_loop_body(x))(i)
    return x + i

  def g_inner_jitted_normal(x, n):
    i = 0
    while i < n:
      # This is OK: `jax.jit` sees the same function object each time,
      # and finds the cached executable.
      i = jax.jit(unjitted_loop_body)(i)
    return x + i

  print("jit called in a loop with partials:")

  print("jit called in a loop with lambdas:")

  print("jit called in a loop with caching:")
  mark(10)

  jax.config.update("jax_explain_cache_misses", True)

  @jax.jit
  def double(x):
    return 2 * x

  _ = double(jnp.arange(3))    # cache miss: never seen this function before
  _ = double(jnp.arange(3))    # cache hit: silent
  _ = double(jnp.arange(3.0))  # cache miss: x's JAX type changed
  mark(11)

  _show(jax.config.update("jax_explain_cache_misses", False))
  mark(12)

  try:
    class CustomClass:
      def __init__(self, x: jax.Array, mul: bool):
        self.x = x
        self.mul = mul

      @jax.jit  # <---- How to do this correctly?
      def calc(self, y):
        if self.mul:
          return self.x * y
        return y

    c = CustomClass(2, True)
    _show(c.calc(3))
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(13)

  class CustomClass:
    def __init__(self, x: jax.Array, mul: bool):
      self.x = x
      self.mul = mul

    def calc(self, y):
      return _calc(self.mul, self.x, y)

  @jax.jit(static_argnums=0)
  def _calc(mul, x, y):
    if mul:
      return x * y
    return y

  c = CustomClass(2, True)
  print(c.calc(3))
  mark(14)

  class CustomClass:
    def __init__(self, x: jax.Array, mul: bool):
      self.x = x
      self.mul = mul

    # WARNING: broken, as we'll see below. Don't copy & paste!
    @jax.jit(static_argnums=0)
    def calc(self, y):
      if self.mul:
        return self.x * y
      return y

  c = CustomClass(2, True)
  print(c.calc(3))
  mark(15)

  c.mul = False
  print(c.calc(3))  # Should print 3... but the cache doesn't know mul changed
  mark(16)

  class CustomClass:
    def __init__(self, x: jax.Array, mul: bool):
      self.x = x
      self.mul = mul

    @jax.jit(static_argnums=0)
    def calc(self, y):
      if self.mul:
        return self.x * y
      return y

    def __hash__(self):
      return hash((self.x, self.mul))

    def __eq__(self, other):
      return (isinstance(other, CustomClass) and
              (self.x, self.mul) == (other.x, other.mul))
  mark(17)

  from jax import tree_util

  class CustomClass:
    def __init__(self, x: jax.Array, mul: bool):
      self.x = x
      self.mul = mul

    @jax.jit
    def calc(self, y):
      if self.mul:
        return self.x * y
      return y

    def _tree_flatten(self):
      children = (self.x,)          # arrays / dynamic values
      aux_data = {'mul': self.mul}  # static values
      return (children, aux_data)

    @classmethod
    def _tree_unflatten(cls, aux_data, children):
      return cls(*children, **aux_data)

  _show(tree_util.register_pytree_node(CustomClass,
                                 CustomClass._tree_flatten,
                                 CustomClass._tree_unflatten))
  mark(18)

  c = CustomClass(2, True)
  print(c.calc(3))

  c.mul = False                        # mutation is detected
  print(c.calc(3))

  c = CustomClass(jnp.array(2), True)  # non-hashable x is supported
  print(c.calc(3))
  mark(19)

  @jax.jit
  def sin_inplace(x_ref):
    x_ref[...] = jnp.sin(x_ref[...])

  x_ref = jax.new_ref(jnp.arange(3.0))
  print(x_ref)  # (port) without the buffer's address (numbax replaces a Ref's array on a write)
  sin_inplace(x_ref)
  print(x_ref)  # (port) without the buffer's address (numbax replaces a Ref's array on a write)
  mark(20)

  import numpy as np
  from jax import random

  x = random.uniform(random.key(0), (1000, 1000))
  _show(jnp.dot(x, x) + 3.0)
  mark(21)
