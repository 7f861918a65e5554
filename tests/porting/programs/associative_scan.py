# Copyright 2018 The JAX Authors.
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

"""`jax.lax.associative_scan`: the examples of its docstring (jax/_src/lax/control_flow/loops.py,
JAX 0.10.2: partial sums, partial products of random matrices, reversed sums) and the
associative-scan tests of JAX's tests/lax_control_flow_test.py (cec06d116c) as a program:
`operator.add` over every shape and axis of the parameterized test against `np.cumsum`, 1000
elements reversed, a namedtuple pytree, `bitwise_xor` of booleans, a `vmap`ped pair of
`jsp.linalg.solve`s (the batching-rule regression test, its results returned), the
not-callable `TypeError`. Added (port): the same scans under `jit`, and `grad` of a reversed
scan of products. run() returns the scans, their dtypes and the error."""

import collections
import operator

import numpy as np

import jax
from jax import lax
import jax.numpy as jnp
import jax.scipy as jsp


def run():
  out = {}

  # The docstring's examples.
  out['doc_sums'] = lax.associative_scan(jnp.add, jnp.arange(0, 4))
  mats = jax.random.uniform(jax.random.key(0), (4, 2, 2))
  partial_prods = lax.associative_scan(jnp.matmul, mats)
  out['doc_prods'] = [partial_prods, list(partial_prods.shape)]
  out['doc_reversed'] = lax.associative_scan(jnp.add, jnp.arange(0, 4), reverse=True)

  # testAssociativeScanUnstructured
  unstructured = {}
  for shape in [[0], [1], [2], [3], [5], [10], [1000], [2, 3], [7, 5], [5, 6, 7]]:
    for axis in range(-len(shape), len(shape) - 1):
      data = np.arange(np.prod(shape)).reshape(shape) + 7
      expected = np.cumsum(data, axis=axis)
      result = lax.associative_scan(operator.add, data, axis=axis)
      np.testing.assert_allclose(result, expected)
      unstructured[f'{shape}_{axis=}'] = result
  out['unstructured'] = unstructured

  # testAssociativeScanUnstructured1000Reverse
  data = np.arange(1000) + 32
  expected = np.cumsum(data[::-1])[::-1]
  result = lax.associative_scan(operator.add, data, reverse=True)
  np.testing.assert_allclose(result, expected)
  out['reverse_1000'] = result

  # testAssociativeScanStructured3
  pair = collections.namedtuple('pair', ('first', 'second'))
  data = pair(first=np.array([0., 1., 2.]),
              second=np.array([0., 10., 20.]))

  def fn(a, b):
    return pair(first=a.first + b.first,
                second=a.second + b.second)

  result = lax.associative_scan(fn, elems=data)
  out['structured'] = [type(result).__name__, result.first, result.second]

  # testAssociativeScanOfBools
  x = jnp.array([False, True, True, True, False, True])
  y = lax.associative_scan(lax.bitwise_xor, x)
  out['bools'] = y

  # testAssociativeScanSolvingRegressionTest
  solving = []
  for shape in [2, 43, 100]:
    ms = np.repeat(np.eye(2).reshape(1, 2, 2), shape, axis=0)
    vs = np.ones((shape, 2))

    @jax.vmap
    def fn(a, b):
      m1, v1 = a
      m2, v2 = b
      return m1 + m2, jsp.linalg.solve(m1, v2) + jsp.linalg.solve(m2, v1)

    solving.append(lax.associative_scan(fn, elems=(ms, vs)))
  out['solving'] = solving

  # test_scan_typecheck_param (its last check)
  not_callable = 42
  try:
    lax.associative_scan(not_callable, 0)
  except TypeError as e:
    out['not_callable'] = str(e)

  # (port) under jit, and a gradient through a reversed scan of products
  scan = jax.jit(lax.associative_scan, static_argnums=0, static_argnames=('reverse', 'axis'))
  out['jit'] = [scan(jnp.add, jnp.arange(10.), reverse=True),
                scan(jnp.matmul, mats),
                scan(operator.add, jnp.arange(35).reshape(7, 5), axis=1)]
  out['grad'] = jax.grad(
      lambda v: lax.associative_scan(jnp.multiply, v, reverse=True).sum())(
          jnp.linspace(0.5, 1.5, 6))
  return out
