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


"""JAX's docs/new_docs/101/random.md ("JAX 101: Pseudorandom numbers", 0f1cbf0f64): its code cells
verbatim in `_cells()` on eight CPU devices, a cell's last expression shown as the notebook
shows it (`_show`); run() returns what the cells printed (numbers apart) and the errors of its
`raises-exception` cells by built-in class and first line.
Covers: numpy's global generator, typed keys printed and typed (`key<fry>[]`), `split`,
`fold_in`, no sequential equivalence, `vmap` over keys."""

from tests.porting import printed
from tests.porting.printed import error as _error, show as _show  # (port) the harness


def run():
  return printed.notebook(_cells)


def _cells(out, errors, mark):
  import numpy as np

  np.random.seed(0)
  print(np.random.uniform())
  print(np.random.uniform())  # different: the hidden state advanced
  mark(1)

  np.random.seed(0)

  def bar(): return np.random.uniform()
  def baz(): return np.random.uniform()

  def foo(): return bar() + 2 * baz()

  print(foo())
  mark(2)

  import jax
  from jax import random

  key = random.key(42)
  _show(key)
  mark(3)

  print(jax.typeof(key))
  mark(4)

  print(random.normal(key))
  print(random.normal(key))  # same key, same value — necessarily
  mark(5)

  key = random.key(42)
  key, subkey = random.split(key)
  print(random.normal(subkey))
  mark(6)

  key = random.key(42)
  subkeys = random.split(key, num=4)
  _show([float(random.normal(k)) for k in subkeys])
  mark(7)

  key = random.key(42)
  for step in range(3):
    step_key = random.fold_in(key, step)
    print(f"step {step}: {random.normal(step_key)}")
  mark(8)

  key = random.key(42)
  subkeys = random.split(key, 3)
  print("individually:", np.stack([random.normal(k) for k in subkeys]))

  key = random.key(42)
  print("all at once: ", random.normal(key, shape=(3,)))
  mark(9)

  import jax
  _show(jax.vmap(random.normal)(subkeys))
  mark(10)
