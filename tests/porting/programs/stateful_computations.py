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


"""JAX's docs/stateful-computations.md ("Stateful computations"): its code cells verbatim in
`run()` (without the plot, 100 instead of 1000 regression steps); run() returns what the cells
printed and the fitted parameters."""

import jax
import jax.numpy as jnp
from typing import NamedTuple


def run():
  printed = []

  class Counter:
    """A simple counter."""

    def __init__(self):
      self.n = 0

    def count(self) -> int:
      """Increments the counter and returns the new value."""
      self.n += 1
      return self.n

    def reset(self):
      """Resets the counter to zero."""
      self.n = 0


  counter = Counter()

  for _ in range(3):
    printed.append(counter.count())

  counter.reset()
  fast_count = jax.jit(counter.count)

  for _ in range(3):
    printed.append(fast_count())

  CounterState = int

  class CounterV2:

    def count(self, n: CounterState) -> tuple[int, CounterState]:
      return n+1, n+1

    def reset(self) -> CounterState:
      return 0

  counter = CounterV2()
  state = counter.reset()

  for _ in range(3):
    value, state = counter.count(state)
    printed.append(value)

  state = counter.reset()
  fast_count = jax.jit(counter.count)

  for _ in range(3):
    value, state = fast_count(state)
    printed.append(value)

  class Params(NamedTuple):
    weight: jnp.ndarray
    bias: jnp.ndarray


  def init(rng) -> Params:
    """Returns the initial model params."""
    weights_key, bias_key = jax.random.split(rng)
    weight = jax.random.normal(weights_key, ())
    bias = jax.random.normal(bias_key, ())
    return Params(weight, bias)


  def loss(params: Params, x: jnp.ndarray, y: jnp.ndarray) -> jnp.ndarray:
    """Computes the least squares error of the model's predictions on x against y."""
    pred = params.weight * x + params.bias
    return jnp.mean((pred - y) ** 2)


  LEARNING_RATE = 0.005

  @jax.jit
  def update(params: Params, x: jnp.ndarray, y: jnp.ndarray) -> Params:
    """Performs one SGD update step on params using the given data."""
    grad = jax.grad(loss)(params, x, y)
    new_params = jax.tree.map(
        lambda param, g: param - g * LEARNING_RATE, params, grad)

    return new_params

  rng = jax.random.key(42)

  # Generate true data from y = w*x + b + noise
  true_w, true_b = 2, -1
  x_rng, noise_rng = jax.random.split(rng)
  xs = jax.random.normal(x_rng, (128, 1))
  noise = jax.random.normal(noise_rng, (128, 1)) * 0.5
  ys = xs * true_w + true_b + noise

  # Fit regression
  params = init(rng)
  for _ in range(100):
    params = update(params, xs, ys)

  return {'printed': [repr(p) for p in printed], 'params_type': type(params).__name__,
          'params': params, 'ys': ys, 'prediction': params.weight * xs + params.bias}
