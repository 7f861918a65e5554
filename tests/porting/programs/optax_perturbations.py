# Copyright 2024 DeepMind Technologies Limited. All Rights Reserved.
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

"""Optax's examples/perturbations.ipynb: `perturbations.make_perturbed_fun` with Gumbel noise
around a one-hot argmax and a ranking (`argsort` of `argsort`), their gradients under `grad`
and `jit`, gradient descent to a target, and a perturbed argmax over a pytree (the default
normal noise, `optax.tree.sum`/`add_scale`). The notebook's cells verbatim in `run()`, 10
and 5 instead of 200 and 20 gradient steps. Everything printed is captured; run() returns
each line as its text with the numbers taken out (compared exactly) and its numbers (within
float32 round-off), and what the cells showed."""

from tests.porting import printed

import numpy as np

import jax
import jax.numpy as jnp
from jax import tree_util as jtu

import optax.tree
from optax import perturbations


def run():
  out = {}
  with printed.Cells() as cells:
    _cells(out)
  out['printed'] = printed.numbered(cells.take(), columns=True)
  return out


def _cells(out):
  def argmax_one_hot(x, axis=-1):
    return jax.nn.one_hot(jnp.argmax(x, axis=axis), x.shape[axis])

  values = jnp.array([-0.6, 1.9, -0.2, 1.1, -1.0])

  one_hot_vec = argmax_one_hot(values)
  print(one_hot_vec)

  N_SAMPLES = 100
  SIGMA = 0.5
  GUMBEL = perturbations.Gumbel()

  rng = jax.random.PRNGKey(1)
  pert_one_hot = perturbations.make_perturbed_fun(fun=argmax_one_hot,
                                                  num_samples=N_SAMPLES,
                                                  sigma=SIGMA,
                                                  noise=GUMBEL)

  rngs = jax.random.split(rng, 2)

  rng = rngs[0]

  pert_argmax = pert_one_hot(rng, values)
  print(f'computation with {N_SAMPLES} samples, sigma = {SIGMA}')
  print(f'perturbed argmax = {pert_argmax}')
  jax.nn.softmax(values/SIGMA)
  soft_max = jax.nn.softmax(values/SIGMA)
  print(f'softmax = {soft_max}')
  print(f'square norm of softmax = {jnp.linalg.norm(soft_max):.2e}')
  print(f'square norm of difference = {jnp.linalg.norm(pert_argmax - soft_max):.2e}')

  # Example loss function

  def loss_simplex(values, rng):
    n = values.shape[0]
    v_true = jnp.arange(n) + 2
    y_true = v_true / jnp.sum(v_true)
    y_pred = pert_one_hot(rng, values)
    return jnp.sum((y_true - y_pred) ** 2)

  out['loss_simplex'] = loss_simplex(values, rngs[1])

  # Gradient of the loss w.r.t input values

  gradient = jax.grad(loss_simplex)(values, rngs[1])
  print(gradient)

  # Doing 200 steps of gradient descent on the values to have the desired ranks

  steps = 10
  values_t = values
  eta = 0.5

  grad_func = jax.jit(jax.grad(loss_simplex))

  for t in range(steps):
    rngs = jax.random.split(rngs[1], 2)
    values_t = values_t - eta * grad_func(values_t, rngs[1])

  rngs = jax.random.split(rngs[1], 2)

  n = values.shape[0]
  v_true = jnp.arange(n) + 2
  y_true = v_true / jnp.sum(v_true)

  print(f'initial values = {values}')
  print(f'initial one-hot = {argmax_one_hot(values)}')
  print(f'initial diff. one-hot = {pert_one_hot(rngs[0], values)}')
  print()
  print(f'values after GD = {values_t}')
  print(f'ranks after GD = {argmax_one_hot(values_t)}')
  print(f'diff. one-hot after GD = {pert_one_hot(rngs[1], values_t)}')
  print(f'target diff. one-hot = {y_true}')

  # Function outputting a vector of ranks

  def ranking(values):
    return jnp.argsort(jnp.argsort(values))

  # Example on random values

  n = 6

  rng = jax.random.PRNGKey(0)
  values = jax.random.normal(rng, (n,))

  print(f'values = {values}')
  print(f'ranking = {ranking(values)}')

  N_SAMPLES = 100
  SIGMA = 0.2
  GUMBEL = perturbations.Gumbel()

  pert_ranking = perturbations.make_perturbed_fun(ranking,
                                                  num_samples=N_SAMPLES,
                                                  sigma=SIGMA,
                                                  noise=GUMBEL)

  # Expectation of the perturbed ranks on these values

  rngs = jax.random.split(rng, 2)

  diff_ranks = pert_ranking(rngs[0], values)
  print(f'values = {values}')

  print(f'diff_ranks = {diff_ranks}')

  # Example loss function

  def loss_example(values, rng):
    n = values.shape[0]
    y_true = ranking(jnp.arange(n))
    y_pred = pert_ranking(rng, values)
    return jnp.sum((y_true - y_pred) ** 2)

  print(loss_example(values, rngs[1]))

  # Gradient of the objective w.r.t input values

  gradient = jax.grad(loss_example)(values, rngs[1])
  print(gradient)

  steps = 5
  values_t = values
  eta = 0.1

  grad_func = jax.jit(jax.grad(loss_example))

  for t in range(steps):
    rngs = jax.random.split(rngs[1], 2)
    values_t = values_t - eta * grad_func(values_t, rngs[1])

  rngs = jax.random.split(rngs[1], 2)

  y_true = ranking(jnp.arange(n))

  print(f'initial values = {values}')
  print(f'initial ranks = {ranking(values)}')
  print(f'initial diff. ranks = {pert_ranking(rngs[0], values)}')
  print()
  print(f'values after GD = {values_t}')
  print(f'ranks after GD = {ranking(values_t)}')
  print(f'diff. ranks after GD = {pert_ranking(rngs[1], values_t)}')
  print(f'target diff. ranks = {y_true}')

  tree_a = (jnp.array((0.1, 0.4, 0.5)),
            {'k1': jnp.array((0.1, 0.2)),
             'k2': jnp.array((0.1, 0.1))},
            jnp.array((0.4, 0.3, 0.2, 0.1)))

  argmax_tree = lambda x: jax.tree.map(argmax_one_hot, x)

  out['argmax_tree'] = argmax_tree(tree_a)

  N_SAMPLES = 100
  sigma = 1.0

  pert_argmax_fun = perturbations.make_perturbed_fun(argmax_tree,
                                                     num_samples=N_SAMPLES,
                                                     sigma=SIGMA)

  out['pert_argmax_tree'] = pert_argmax_fun(rng, tree_a)

  def pert_loss(inputs, rng):
    pert_softmax = pert_argmax_fun(rng, inputs)
    argmax = argmax_tree(inputs)
    diffs = jax.tree.map(lambda x, y: jnp.sum((x - y) ** 2 / 4), argmax, pert_softmax)
    return optax.tree.sum(diffs)

  init_loss = pert_loss(tree_a, rng)

  print(f'initial loss value = {init_loss:.3f}')

  grad = jax.grad(pert_loss)(tree_a, rng)

  print('Gradient of the scalar loss')
  print()
  out['grad'] = grad
  out['grad_treedef'] = str(jtu.tree_structure(grad))

  eta = 1e-1

  loss_step = pert_loss(optax.tree.add_scale(tree_a, -eta, grad), rng)

  print(f'initial loss value = {init_loss:.3f}')
  print(f'loss after gradient step = {loss_step:.3f}')
