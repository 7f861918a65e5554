# Copyright 2019 DeepMind Technologies Limited. All Rights Reserved.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""Optax's examples/ogda_example.ipynb: the bilinear min-max problem `x * y` solved by SGD,
`optimistic_gradient_descent`, `adam(nesterov=True)` and `optimistic_adam(nesterov=True)`,
the ascent player's gradient negated with `.at[1].apply(jnp.negative)`, the iterations run by
`lax.scan` over the optimizer state. The notebook's cells verbatim in `run()`, without the
plots, 1000 iterations instead of 10**4; run() returns the parameter histories and distances to
the origin the plots showed."""

import functools
import jax
import optax
from jax import lax, numpy as jnp


def run():
  results = {}  # what the plots showed, per optimizer

  def f(params):
      x, y = params
      return x * y

  def update(optimizer, state, _):
      params, opt_state = state
      grads = jax.grad(f)(params)
      grads = grads.at[1].apply(jnp.negative)
      updates, new_opt_state = optimizer.update(grads, opt_state, params)
      new_params = optax.apply_updates(params, updates)
      return (new_params, new_opt_state), params

  def optimize(optimizer, params, iters):
      opt_state = optimizer.init(params)
      _, params_hist = lax.scan(functools.partial(update, optimizer), (params, opt_state), length=iters)
      return params_hist

  params = jnp.array([1.0, 1.0])

  for label, optimizer in [
      ("SGD", optax.sgd(0.1)),
      ("Optimistic GD", optax.optimistic_gradient_descent(0.1)),
      ("Adam", optax.adam(0.05, nesterov=True)),
      ("Optimistic Adam", optax.optimistic_adam(0.05, 0.5, nesterov=True)),
  ]:
      params_hist = optimize(optimizer, params, 10**3)
      distances_to_origin = jnp.hypot(*params_hist.T)
      results[label] = dict(params=params_hist, distances=distances_to_origin,
                            last=params_hist[-1], every_100th=params_hist[::100])
  return results
