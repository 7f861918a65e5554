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

"""Optax's examples/meta_learning.ipynb: RMSProp's learning rate meta-learned by Adam. The inner
optimizer is `inject_hyperparams(rmsprop)`; the jitted outer step writes `sigmoid(eta)` into the
state's `hyperparams` dict, unrolls six inner steps over a list of samples from a generator of
`random.split`/`uniform`/`normal` draws and differentiates the last loss with respect to `eta`
(`grad` with `has_aux`). The notebook's cells verbatim in `run()`, without the plot, 25 outer
steps instead of 2000; run() returns what it printed and the learning rates and parameters the
plot showed."""

from typing import Iterator, Tuple
import jax
import jax.numpy as jnp
import numpy as np
import optax


def run():
  printed = []
  print = printed.append

  def generator() -> Iterator[Tuple[jax.Array, jax.Array]]:
    rng = jax.random.PRNGKey(0)

    while True:
      rng, k1, k2 = jax.random.split(rng, num=3)
      x = jax.random.uniform(k1, minval=0.0, maxval=10.0)
      y = 10.0 * x + jax.random.normal(k2)
      yield x, y

  g = generator()

  for _ in range(5):
    x, y = next(g)
    print(f"Sampled y = {y:.3f}, x = {x:.3f}")

  def f(theta: jax.typing.ArrayLike, x: jax.typing.ArrayLike) -> jax.typing.ArrayLike:
    return x * theta

  theta = jax.random.normal(jax.random.PRNGKey(42))

  init_learning_rate = jnp.array(0.1)
  meta_learning_rate = jnp.array(0.03)

  opt = optax.inject_hyperparams(optax.rmsprop)(learning_rate=init_learning_rate)
  meta_opt = optax.adam(learning_rate=meta_learning_rate)

  def loss(theta, x, y):
    return optax.l2_loss(y, f(theta, x))


  def step(theta, state, x, y):
    grad = jax.grad(loss)(theta, x, y)
    updates, state = opt.update(grad, state)
    theta = optax.apply_updates(theta, updates)
    return theta, state

  def outer_loss(eta, theta, state, samples):
    state.hyperparams['learning_rate'] = jax.nn.sigmoid(eta)

    for x, y in samples[:-1]:
      theta, state = step(theta, state, x, y)

    x, y = samples[-1]

    return loss(theta, x, y), (theta, state)


  @jax.jit
  def outer_step(eta, theta, meta_state, state, samples):
    grad, (theta, state) = jax.grad(
        outer_loss, has_aux=True)(eta, theta, state, samples)

    meta_updates, meta_state = meta_opt.update(grad, meta_state)
    eta = optax.apply_updates(eta, meta_updates)

    return eta, theta, meta_state, state

  state = opt.init(theta)
  # inverse sigmoid, to match the value we initialized the inner optimizer with.
  eta = -np.log(1. / init_learning_rate - 1)
  meta_state = meta_opt.init(eta)
  initial = dict(eta=eta, state=state, meta_state=jax.tree.leaves(meta_state))

  N = 7
  learning_rates = []
  thetas = []

  for i in range(25):
    samples = [next(g) for i in range(N)]
    eta, theta, meta_state, state = outer_step(eta, theta, meta_state, state, samples)
    learning_rates.append(jax.nn.sigmoid(eta))
    thetas.append(theta)

  return dict(printed=printed, initial=initial, learning_rates=learning_rates, thetas=thetas,
              eta=eta, state=state, meta_state=jax.tree.leaves(meta_state))
