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


"""JAX's docs/notebooks/thinking_in_jax.md ("How to think in JAX"): its code cells verbatim in
`run()` (without the plot and %timeit; a 100x10 instead of 10000x10 `X`, a 15x10 `mat`, 4
instead of 10 batched vectors); `print` records what the cells printed or showed (arrays as arrays, the rest as strings),
the cells that raise record their error's JAX class and first line."""

import builtins

import jax as _jax
import numpy as np


def _is_numbers(a):
  """Arrays of numbers are compared as values (within float32 round-off), the rest as printed."""
  dtype = None if isinstance(a, type) else getattr(a, 'dtype', None)
  if dtype is None or dtype == object or _jax.dtypes.issubdtype(dtype, _jax.dtypes.prng_key):
    return False
  try:
    np.asarray(a)  # a tracer has no values
  except Exception:  # noqa: BLE001
    return False
  return True


def run():
  printed = []

  def print(*args):
    builtins.print(*args)
    printed.append([a if _is_numbers(a) else str(a) for a in args])

  import numpy as np
  import jax.numpy as jnp

  x_np = np.linspace(0, 10, 1000)
  x_jnp = jnp.linspace(0, 10, 1000)
  y_jnp = 2 * jnp.sin(x_jnp) * jnp.cos(x_jnp)
  out = dict(y_jnp=y_jnp)

  print(type(x_np))
  # type(x_jnp) is jaxlib._jax.ArrayImpl on JAX, numbax's Array here: isinstance below

  # NumPy: mutable arrays
  x = np.arange(10)
  x[0] = 10
  print(x)

  # JAX: immutable arrays
  x = jnp.arange(10)
  try:
    x[0] = 10
  except TypeError as e:
    print(str(e).splitlines()[0])

  y = x.at[0].set(10)
  print(x)
  print(y)

  import jax
  import jax.numpy as jnp

  x = jnp.arange(5)
  print(isinstance(x, jax.Array))
  print(x.devices())
  print(x.sharding)

  def norm(X):
    X = X - X.mean(0)
    return X / X.std(0)

  from jax import jit
  norm_compiled = jit(norm)

  np.random.seed(1701)
  X = jnp.array(np.random.rand(100, 10))
  print(np.allclose(norm(X), norm_compiled(X), atol=1E-6))
  out['norm'] = norm_compiled(X)

  def get_negatives(x):
    return x[x < 0]

  x = jnp.array(np.random.randn(10))
  out['negatives'] = get_negatives(x)

  try:
    jit(get_negatives)(x)
  except jax.errors.NonConcreteBooleanIndexError as e:
    print(str(e).splitlines()[0])

  from jax import grad

  def sum_logistic(x):
    return jnp.sum(1.0 / (1.0 + jnp.exp(-x)))

  x_small = jnp.arange(3.)
  derivative_fn = grad(sum_logistic)
  print(derivative_fn(x_small))

  def first_finite_differences(f, x, eps=1E-3):
    return jnp.array([(f(x + eps * v) - f(x - eps * v)) / (2 * eps)
                     for v in jnp.eye(len(x))])

  out['finite_differences'] = first_finite_differences(sum_logistic, x_small)

  print(grad(jit(grad(jit(grad(sum_logistic)))))(1.0))

  from jax import jacobian
  print(jacobian(jnp.exp)(x_small))

  from jax import jacfwd, jacrev
  def hessian(fun):
    return jit(jacfwd(jacrev(fun)))
  print(hessian(sum_logistic)(x_small))

  from jax import random

  key = random.key(1701)
  key1, key2 = random.split(key)
  mat = random.normal(key1, (15, 10))
  batched_x = random.normal(key2, (4, 10))

  def apply_matrix(x):
    return jnp.dot(mat, x)

  def naively_batched_apply_matrix(v_batched):
    return jnp.stack([apply_matrix(v) for v in v_batched])

  @jit
  def batched_apply_matrix(batched_x):
    return jnp.dot(batched_x, mat.T)

  np.testing.assert_allclose(naively_batched_apply_matrix(batched_x),
                             batched_apply_matrix(batched_x), atol=1E-4, rtol=1E-4)

  from jax import vmap

  @jit
  def vmap_batched_apply_matrix(batched_x):
    return vmap(apply_matrix)(batched_x)

  np.testing.assert_allclose(naively_batched_apply_matrix(batched_x),
                             vmap_batched_apply_matrix(batched_x), atol=1E-4, rtol=1E-4)
  out['batched'] = vmap_batched_apply_matrix(batched_x)

  key = random.key(43)
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

  @jax.jit
  def f(x):
    print("print(x) ->", x)
    y = jnp.sin(x)
    print("print(y) ->", y)
    return y

  result = f(2.)

  @jax.jit
  def f(x):
    jax.debug.print("jax.debug.print(x) -> {x}", x=x)
    y = jnp.sin(x)
    jax.debug.print("jax.debug.print(y) -> {y}", y=y)
    return y

  result = f(2.)
  out.update(printed=printed, result=result)
  return out
