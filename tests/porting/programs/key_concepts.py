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

"""JAX's docs/key-concepts.md ("Key concepts"): its code cells verbatim in `run()` (a jitted
SELU, a tracer printed inside `jit`, `make_jaxpr` of SELU, the tree structures and leaves of a
nested list, a dict and a `NamedTuple`, `jnp.add`'s implicit promotion and `lax.add`'s error,
`jnp.convolve` and its `lax.conv_general_dilated` equivalent); what they printed and the
cells' last values (`show`: repr text and value), errors by their first line. SELU's jaxpr is
recorded by its input and output types: numbax's text broadcasts scalar operands first and
inlines `jnp.where`'s inner `jit` (see tests/core/test_jaxpr_text.py)."""


def run():
  printed, shown, errors = [], [], []

  def print(*args):
    printed.append(' '.join(str(a) for a in args))

  def show(value):
    shown.append([repr(value), value] if hasattr(value, 'dtype') else [str(value)])

  import jax
  import jax.numpy as jnp

  def selu(x, alpha=1.67, lambda_=1.05):
    return lambda_ * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

  selu_jit = jax.jit(selu)
  print(selu_jit(1.0))

  @jax.jit
  def selu(x, alpha=1.67, lambda_=1.05):
    return lambda_ * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

  show(selu(jnp.arange(-2.0, 3.0)))

  @jax.jit
  def f(x):
    print(x)
    return x + 1

  x = jnp.arange(5)
  result = f(x)
  show(result)

  def selu(x, alpha=1.67, lambda_=1.05):
    return lambda_ * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

  x = jnp.arange(5.0)
  jaxpr = jax.make_jaxpr(selu)(x)  # shown; its text is not compared (see the docstring)
  shown.append([str(v.aval) for v in [*jaxpr.jaxpr.invars, *jaxpr.jaxpr.outvars]])

  # (nested) list of parameters
  params = [1, 2, (jnp.arange(3), jnp.ones(2))]

  print(jax.tree.structure(params))
  print(jax.tree.leaves(params))

  # Dictionary of parameters
  params = {'n': 5, 'W': jnp.ones((2, 2)), 'b': jnp.zeros(2)}

  print(jax.tree.structure(params))
  print(jax.tree.leaves(params))

  # Named tuple of parameters
  from typing import NamedTuple

  class Params(NamedTuple):
    a: int
    b: float

  params = Params(1, 5.0)
  print(jax.tree.structure(params))
  print(jax.tree.leaves(params))

  import jax.numpy as jnp
  show(jnp.add(1, 1.0))  # jax.numpy API implicitly promotes mixed types.

  from jax import lax
  try:
    lax.add(1, 1.0)  # jax.lax API requires explicit type promotion.
  except Exception as e:  # noqa: BLE001
    errors.append([isinstance(e, TypeError), str(e).splitlines()[0]])

  show(lax.add(jnp.float32(1), 1.0))

  x = jnp.array([1, 2, 1])
  y = jnp.ones(10)
  show(jnp.convolve(x, y))

  from jax import lax
  result = lax.conv_general_dilated(
      x.reshape(1, 1, 3).astype(float),  # note: explicit promotion
      y.reshape(1, 1, 10),
      window_strides=(1,),
      padding=[(len(y) - 1, len(y) - 1)])  # equivalent of padding='full' in NumPy
  show(result[0, 0])

  return dict(printed=printed, shown=shown, errors=errors)
