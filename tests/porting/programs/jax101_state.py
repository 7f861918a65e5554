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


"""JAX's docs/new_docs/101/state.md ("JAX 101: State", 0f1cbf0f64): its code cells verbatim in
`_cells()` on eight CPU devices, a cell's last expression shown as the notebook shows it
(`_show`); run() returns what the cells printed (numbers apart) and the errors of its `raises-
exception` cells by built-in class and first line.
Covers: a counter's Python state under `jit` (its jaxprs), state threaded through pure
functions (momentum SGD), Refs: `jax.new_ref` updated in `jit`, under `grad`, math on a ref's
error, indexing, `jax.freeze`, `vmap` over ref arguments and a shared ref's error."""

from tests.porting import printed
from tests.porting.printed import error as _error, show as _show  # (port) the harness


def run():
  return printed.notebook(_cells)


def _cells(out, errors, mark):
  import jax
  import jax.numpy as jnp

  class Counter:
    """A simple counter."""

    def __init__(self):
      self.n = 0

    def count(self) -> int:
      """Increments the counter and returns the new value."""
      self.n += 1
      return self.n

  counter = Counter()

  for _ in range(3):
    print(counter.count())
  mark(1)

  counter = Counter()
  _show(jax.jit(counter.count).trace().jaxpr)
  mark(2)

  CounterState = int

  class CounterV2:

    def count(self, n: CounterState) -> tuple[int, CounterState]:
      # You could just return n+1 once, but here we separate its role as
      # the output and as the counter state for didactic purposes.
      return n + 1, n + 1

    def reset(self) -> CounterState:
      return 0

  counter = CounterV2()
  state = counter.reset()

  for _ in range(3):
    value, state = counter.count(state)
    print(value)
  mark(3)

  _show(jax.jit(counter.count).trace(0).jaxpr)
  mark(4)

  def update(params, opt_state, batch):
    """One training step: consume state, produce new state."""
    grads = jax.grad(loss_fn)(params, batch)
    new_params, new_opt_state = optimizer_step(params, grads, opt_state)
    return new_params, new_opt_state

  def loss_fn(params, batch):
    x, y = batch
    return jnp.mean((params['w'] * x + params['b'] - y) ** 2)

  def optimizer_step(params, grads, opt_state, lr=0.1, decay=0.9):
    # gradient descent with momentum: the momentum is optimizer state
    new_opt_state = jax.tree.map(
        lambda m, g: decay * m + g, opt_state, grads)
    new_params = jax.tree.map(
        lambda p, m: p - lr * m, params, new_opt_state)
    return new_params, new_opt_state

  params = {'w': jnp.float32(1.0), 'b': jnp.float32(0.0)}
  opt_state = jax.tree.map(jnp.zeros_like, params)
  batch = (jnp.array([1.0, 2.0, 3.0]), jnp.array([3.0, 5.0, 7.0]))

  for step in range(100):
    params, opt_state = update(params, opt_state, batch)

  print(jax.tree.map(lambda x: round(float(x), 2), params))  # fits y = 2x + 1
  mark(5)

  x_ref = jax.new_ref(jnp.zeros(3))  # new array ref, with initial value [0., 0., 0.]

  @jax.jit
  def f():
    x_ref[1] += 1.  # indexed add-update

  print(x_ref)  # Ref([0., 0., 0.])
  f()
  f()
  print(x_ref)  # Ref([0., 2., 0.])
  mark(6)

  def g(x):
    x_ref = jax.new_ref(0.)
    x_ref[...] = jnp.sin(x)
    return x_ref[...]

  print(jax.grad(g)(1.0))  # 0.54
  mark(7)

  try:
    x_ref = jax.new_ref(1.0)
    _show(jnp.sin(x_ref))  # error! can't do math on refs
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(8)

  x_ref = jax.new_ref(jnp.arange(12.).reshape(3, 4))

  # int indexing
  row = x_ref[0]
  x_ref[1] = row

  # tuple indexing
  val = x_ref[1, 2]
  x_ref[2, 3] = val

  # slice indexing
  col = x_ref[:, 1]
  x_ref[0, :3] = col

  # advanced int array indexing
  vals = x_ref[jnp.array([0, 0, 1]), jnp.array([1, 2, 3])]
  x_ref[jnp.array([1, 2, 1]), jnp.array([0, 0, 1])] = vals
  mark(9)

  final = jax.freeze(x_ref)
  _show(final)
  mark(10)

  def normalize(x):        # pure: refs used internally only
    acc = jax.new_ref(0.0)
    acc[...] = jnp.sum(x)  # (a real program would do something less trivial)
    return x / acc[...]

  _show(jax.grad(lambda x: normalize(x).sum())(jnp.arange(1.0, 4.0)))
  mark(11)

  def scale_into(x, out_ref):   # impure: takes a ref argument
    out_ref[...] = 2.0 * x

  xs = jnp.arange(3.0)
  out_ref = jax.new_ref(jnp.zeros(3))
  jax.vmap(scale_into)(xs, out_ref)   # each instance writes its own entry
  print(out_ref[...])
  mark(12)

  try:
    r = jax.new_ref(0.0)

    def write_shared(x):
      r[...] = x    # every batch member writes the same ref!

    _show(jax.vmap(write_shared)(jnp.arange(3.0)))
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(13)
