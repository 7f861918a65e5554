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

"""Optax's examples/contrib/rosenbrock_ademamix.ipynb: Adam with four `b1`s and
`contrib.ademamix` with a `linear_schedule` for `alpha` and the notebook's own `b3` schedule
minimizing the Rosenbrock function, each by `lax.scan` whose body prints the objective every
25000 iterations by `jax.debug.print` inside a `lax.cond` (the Python floats `b1` printed as
float32 values); the final parameters printed with `float`. The notebook's cells verbatim in
`run()`, without the plots, 25001 iterations instead of 100000 (the schedules span them);
everything printed is captured per cell; run() returns each line as its text with the numbers
taken out (compared exactly) and its numbers, the trajectories and the plot's grid values."""

from tests.porting import printed

from functools import partial

import optax
import jax
import jax.numpy as jnp
import numpy as np

from optax.schedules import linear_schedule
from optax._src import base


def run():
  out = {}
  with printed.Cells(lambda text: printed.numbered(text, printed.NUMBER)) as cells:
    _cells(out, cells.mark)
  out['printed'] = cells.printed
  return out


def _cells(out, mark):
  def cond_print(cond, fmt, *args):
      return jax.lax.cond(cond, lambda: (jax.debug.print(fmt, *args), 0)[1], lambda: 0)

  def rosenbrock(x):
      return jnp.square(1 - x[0]) + 100.0 * jnp.square(x[1] - jnp.square(x[0]))


  # Create a grid of x and y values
  x = jnp.linspace(-5, 10, 1000)
  y = jnp.linspace(-5, 10, 1000)
  X, Y = jnp.meshgrid(x, y)

  # Compute the Rosenbrock function values for each point on the grid
  Z = rosenbrock([X, Y])

  num_iterations = 25001  # (port) 100000

  def _body_fn(carry, _, *, solver, b1):
      params, opt_state, i = carry
      grad = jax.grad(rosenbrock)(params)
      updates, opt_state = solver.update(grad, opt_state, params)
      params = optax.apply_updates(params, updates)
      cond_print(
          i % 25000 == 0,
          "Objective function for b1={} at iteration {} = {}",
          b1,
          i,
          rosenbrock(params),
      )
      return (params, opt_state, i + 1), params

  all_b1_params = []
  for b1 in [0.9, 0.99, 0.999, 0.9999]:
      solver = optax.adam(learning_rate=0.003, b1=b1, b2=0.9999)
      params = jnp.array([-3.0, 5.0])
      print("Objective function: ", rosenbrock(params))
      opt_state = solver.init(params)

      _, all_params = jax.lax.scan(
          partial(_body_fn, solver=solver, b1=b1),
          (params, opt_state, 0),
          length=num_iterations
      )
      all_b1_params.append(jnp.concatenate([params[None, ...], all_params], 0))
  all_b1_params_array = jnp.array(all_b1_params)
  mark('adam')

  alpha = 0.8
  alpha = linear_schedule(0, alpha, num_iterations)

  def b3_scheduler(beta_end: float, beta_start: float = 0, warmup: int = 0):
      def f(beta):
          return jnp.log(0.5) / jnp.log(beta) - 1

      def f_inv(t):
          return jnp.power(0.5, 1 / (t + 1))

      def schedule(step):
          is_warmup = jnp.array(step < warmup).astype(jnp.float32)
          alpha = step / float(warmup)
          return is_warmup * f_inv(
              (1.0 - alpha) * f(beta_start) + alpha * f(beta_end)
          ) + beta_end * (1.0 - is_warmup)

      return schedule

  def _body_fn(carry, _, *, solver, b3):
      params, opt_state, i = carry
      grad = jax.grad(rosenbrock)(params)
      updates, opt_state = solver.update(grad, opt_state, params)
      params = optax.apply_updates(params, updates)
      cond_print(
          i % 25000 == 0,
          "Objective function for b3={} at iteration {} = {}",
          b3(i),
          i,
          rosenbrock(params),
      )
      return (params, opt_state, i + 1), params

  all_ademamix_params = []
  for b3 in [0.999, 0.9999]:
      b3 = b3_scheduler(b3, 0, num_iterations)
      solver = optax.contrib.ademamix(
          learning_rate=0.003, b1=0.99, b2=0.999, b3=b3, alpha=alpha
      )
      params = jnp.array([-3.0, 5.0])
      print("Objective function: ", rosenbrock(params))
      opt_state = solver.init(params)

      _, all_params = jax.lax.scan(
          partial(_body_fn, solver=solver, b3=b3),
          (params, opt_state, 0),
          length=num_iterations
      )
      all_ademamix_params.append(jnp.concatenate([params[None, ...], all_params], 0))
  all_ademamix_params_array = jnp.array(all_ademamix_params)
  mark('ademamix')

  print("Adam Values:")
  print(
      "Final value with b1 = 0.9:"
      f" ({float(all_b1_params_array[0,-1,0])},"
      f" {float(all_b1_params_array[0,-1,1])})"
  )
  print(
      "Final value with b1 = 0.99:"
      f" ({float(all_b1_params_array[1,-1,0])},"
      f" {float(all_b1_params_array[1,-1,1])})"
  )
  print(
      "Final value with b1 = 0.999:"
      f" ({float(all_b1_params_array[2,-1,0])},"
      f" {float(all_b1_params_array[2,-1,1])})"
  )
  print(
      "Final value with b1 = 0.9999:"
      f" ({float(all_b1_params_array[3,-1,0])},"
      f" {float(all_b1_params_array[3,-1,1])})"
  )
  print("AdeMAMix Values:")
  print(
      "Final value with b3 = 0.999:"
      f" ({float(all_ademamix_params_array[0,-1,0])},"
      f" {float(all_ademamix_params_array[0,-1,1])})"
  )
  print(
      "Final value with b3 = 0.9999:"
      f" ({float(all_ademamix_params_array[1,-1,0])},"
      f" {float(all_ademamix_params_array[1,-1,1])})"
  )
  mark('final')
  out.update(Z=Z, adam=all_b1_params_array, ademamix=all_ademamix_params_array)
