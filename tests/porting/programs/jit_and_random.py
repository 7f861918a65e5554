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


"""JAX's docs/jit-compilation.md ("Just-in-time compilation") and docs/random-numbers.md
("Pseudorandom numbers"): their code cells verbatim in `run()` (without %timeit, `selu` on
10 instead of 1000000 values); `print` records what the cells printed (the strings, as users
see them), and the cells that raise record their error's JAX class and first line."""

import builtins


def run():
  printed = []

  def print(*args):
    builtins.print(*args)
    printed.append(' '.join(str(a) for a in args))

  import jax
  import jax.numpy as jnp

  global_list = []

  def log2(x):
    global_list.append(x)
    ln_x = jnp.log(x)
    ln_2 = jnp.log(2.0)
    return ln_x / ln_2

  print(jax.make_jaxpr(log2)(3.0))

  def log2_with_print(x):
    print("printed x:", x)
    ln_x = jnp.log(x)
    ln_2 = jnp.log(2.0)
    return ln_x / ln_2

  print(jax.make_jaxpr(log2_with_print)(3.))

  def log2_if_rank_2(x):
    if x.ndim == 2:
      ln_x = jnp.log(x)
      ln_2 = jnp.log(2.0)
      return ln_x / ln_2
    else:
      return x

  print(jax.make_jaxpr(log2_if_rank_2)(jax.numpy.array([1, 2, 3])))

  def selu(x, alpha=1.67, lambda_=1.05):
    return lambda_ * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

  x = jnp.arange(10)
  selu_jit = jax.jit(selu)
  out = dict(selu=selu(x), selu_jit=selu_jit(x).block_until_ready())

  # Condition on value of x.

  def f(x):
    if x > 0:
      return x
    else:
      return 2 * x

  errors = []
  try:
    jax.jit(f)(10)  # Raises an error
  except jax.errors.TracerBoolConversionError as e:
    errors.append(str(e).splitlines()[0])

  # While loop conditioned on x and n.

  def g(x, n):
    i = 0
    while i < n:
      i += 1
    return x + i

  try:
    jax.jit(g)(10, 20)  # Raises an error
  except jax.errors.TracerBoolConversionError as e:
    errors.append(str(e).splitlines()[0])

  # While loop conditioned on x and n with a jitted body.

  @jax.jit
  def loop_body(prev_i):
    return prev_i + 1

  def g_inner_jitted(x, n):
    i = 0
    while i < n:
      i = loop_body(i)
    return x + i

  out['g_inner_jitted'] = g_inner_jitted(10, 20)

  f_jit_correct = jax.jit(f, static_argnums=0)
  print(f_jit_correct(10))

  g_jit_correct = jax.jit(g, static_argnames=['n'])
  print(g_jit_correct(10, 20))

  @jax.jit(static_argnames=['n'])
  def g_jit_decorated(x, n):
    i = 0
    while i < n:
      i += 1
    return x + i

  print(g_jit_decorated(10, 20))

  from functools import partial

  def unjitted_loop_body(prev_i):
    return prev_i + 1

  def g_inner_jitted_partial(x, n):
    i = 0
    while i < n:
      i = jax.jit(partial(unjitted_loop_body))(i)
    return x + i

  def g_inner_jitted_lambda(x, n):
    i = 0
    while i < n:
      i = jax.jit(lambda x: unjitted_loop_body(x))(i)
    return x + i

  def g_inner_jitted_normal(x, n):
    i = 0
    while i < n:
      i = jax.jit(unjitted_loop_body)(i)
    return x + i

  out['loops'] = [g_inner_jitted_partial(10, 20).block_until_ready(),
                  g_inner_jitted_lambda(10, 20).block_until_ready(),
                  g_inner_jitted_normal(10, 20).block_until_ready()]

  # docs/random-numbers.md
  import numpy as np
  np.random.seed(0)

  from jax import random

  key = random.key(42)
  print(key)

  print(random.normal(key))
  print(random.normal(key))

  for i in range(3):
    new_key, subkey = random.split(key)
    del key  # The old key is consumed by split() -- we must never use it again.

    val = random.normal(subkey)
    del subkey  # The subkey is consumed by normal().

    print(f"draw {i}: {val}")
    key = new_key  # new_key is safe to use in the next iteration.

  key, subkey = random.split(key)
  key, *forty_two_subkeys = random.split(key, num=43)
  out['forty_two'] = [len(forty_two_subkeys), random.key_data(forty_two_subkeys[-1])]

  key = random.key(42)
  subkeys = random.split(key, 3)
  sequence = np.stack([random.normal(subkey) for subkey in subkeys])
  print("individually:", sequence)

  key = random.key(42)
  print("all at once: ", random.normal(key, shape=(3,)))

  print("vectorized:", jax.vmap(random.normal)(subkeys))
  out.update(printed=printed, errors=errors, global_list=[str(v) for v in global_list])
  return out
