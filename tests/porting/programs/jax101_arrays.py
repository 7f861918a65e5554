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


"""JAX's docs/new_docs/101/arrays.md ("JAX 101: Arrays", 0f1cbf0f64): its code cells verbatim in
`_cells()` on eight CPU devices, a cell's last expression shown as the notebook shows it
(`_show`); run() returns what the cells printed (numbers apart) and the errors of its `raises-
exception` cells by built-in class and first line.
Covers: `jnp` vs numpy arrays, `jax.typeof`, immutability and `.at[]` updates, default dtypes,
clamped out-of-bounds indexing, `jnp.sum` of a list's error, `x.sharding`, `lax.add`'s
promotion error."""

from tests.porting import printed
from tests.porting.printed import error as _error, show as _show  # (port) the harness


def run():
  return printed.notebook(_cells)


def _cells(out, errors, mark):
  import jax
  import jax.numpy as jnp
  import numpy as np
  mark(1)

  x = jnp.arange(9.0).reshape(3, 3)
  y = jnp.ones(3)

  print(x @ y)
  print(x.sum(axis=0))
  print(x[1, :2])
  mark(2)

  _show(isinstance(x, jax.Array))
  mark(3)

  print(jax.typeof(x))
  mark(4)

  x_np = np.arange(10)
  x_np[0] = 10
  print(x_np)
  mark(5)

  try:
    x = jnp.arange(10)
    x[0] = 10
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(6)

  y = x.at[0].set(10)
  print(x)  # unchanged
  print(y)
  mark(7)

  print(x.at[3].add(100))
  print(x.at[:3].max(5))
  mark(8)

  print(np.array([1.0, 2.0]).dtype)
  print(jnp.array([1.0, 2.0]).dtype)
  mark(9)

  _show((jnp.arange(3) + 1.5).dtype)
  mark(10)

  x = jnp.arange(10)
  _show(x[11])  # clamped to x[9]
  mark(11)

  _show(x.at[11].set(99))  # update is dropped
  mark(12)

  try:
    _show(jnp.sum([1, 2, 3]))
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(13)

  _show(jnp.sum(jnp.array([1, 2, 3])))
  mark(14)

  _show(x.sharding)
  mark(15)

  _show(jnp.add(1, 1.0))
  mark(16)

  try:
    from jax import lax
    _show(lax.add(1, 1.0))
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(17)
