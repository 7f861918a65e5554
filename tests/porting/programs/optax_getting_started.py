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

"""Optax's docs/getting_started.ipynb: a linear model fitted eagerly with `adam` and with a
`chain` of `clip_by_global_norm`, `scale_by_adam`, `scale_by_schedule(exponential_decay)` and
`scale`; `inject_hyperparams(clip_by_global_norm)` driven by a `linear_schedule`; an MLP on
8-bit parity fitted under `jit` with `adam`, `chain(clip, adamw(warmup_cosine_decay_schedule))`
and `inject_hyperparams(adamw)`; the Components section (`scale_by_rms`, `flatten`,
`polynomial_schedule`, `huber_loss`). The notebook's cells verbatim in `run()`; the random
bytes of the MLP's data seeded (`np.random.seed(0)`, the notebook draws unseeded). The
optimizers the Components cells build but never run take one step each (marked). Everything
printed is captured per cell; run() returns each line as its text with the numbers taken out
(compared exactly) and its numbers, and the parameters, states and values the cells computed.

The two MLP fits whose schedule peaks at a learning rate of 1.0 are chaotic in float32: on JAX
itself their jitted and eager runs part after 80-86 steps (the adam fit's agree to the end).
On numbax they part from the first step (its float32 dot sums in another order than XLA's),
and a spike lands on a printed step or not (the injected fit's step 200: 78.23 against 0.0
once numbax's initial parameters became JAX's bits). For those run() keeps the printed lines'
text without their numbers, whether the final parameters fit the data (mean loss below 1e-2),
the steps counted and the injected learning rate."""

from tests.porting import printed

import jax.numpy as jnp
import jax
import optax
import functools

import numpy as np


def run():
  out = {}
  cells = printed.Cells()

  def mark(cell, decimals=None, chaotic=False):
    """The lines printed since the last mark (their numbers rounded to `decimals` if given;
    only their text if `chaotic`)."""
    lines = printed.numbered(cells.take(), printed.NUMBER, decimals=decimals)
    cells.printed[cell] = [text for text, _ in lines] if chaotic else lines

  with cells:
    _cells(out, mark)
  out['printed'] = cells.printed
  return out


def _fits(loss, params, data, labels):
  """The chaotic fits' result: whether `params` fit the data."""
  return bool(loss(params, data, labels) < 1e-2)


def _cells(out, mark):
  @functools.partial(jax.vmap, in_axes=(None, 0))
  def network(params, x):
    return jnp.dot(params, x)

  def compute_loss(params, x, y):
    y_pred = network(params, x)
    loss = jnp.mean(optax.l2_loss(y_pred, y))
    return loss

  key = jax.random.PRNGKey(42)
  target_params = 0.5

  # Generate some data.
  xs = jax.random.normal(key, (16, 2))
  ys = jnp.sum(xs * target_params, axis=-1)

  start_learning_rate = 1e-1
  optimizer = optax.adam(start_learning_rate)

  # Initialize parameters of the model + optimizer.
  params = jnp.array([0.0, 0.0])
  opt_state = optimizer.init(params)

  # A simple update loop.
  for _ in range(1000):
    grads = jax.grad(compute_loss)(params, xs, ys)
    updates, opt_state = optimizer.update(grads, opt_state)
    params = optax.apply_updates(params, updates)

  assert jnp.allclose(params, target_params), \
  'Optimization should retrieve the target params used to generate the data.'
  out['adam'] = dict(params=params, state=jax.tree.leaves(opt_state))

  # Exponential decay of the learning rate.
  scheduler = optax.exponential_decay(
      init_value=start_learning_rate,
      transition_steps=1000,
      decay_rate=0.99)

  # Combining gradient transforms using `optax.chain`.
  gradient_transform = optax.chain(
      optax.clip_by_global_norm(1.0),  # Clip by the gradient by the global norm.
      optax.scale_by_adam(),  # Use the updates from adam.
      optax.scale_by_schedule(scheduler),  # Use the learning rate from the scheduler.
      # Scale updates by -1 since optax.apply_updates is additive and we want to descend on the loss.
      optax.scale(-1.0)
  )

  # Initialize parameters of the model + optimizer.
  params = jnp.array([0.0, 0.0])  # Recall target_params=0.5.
  opt_state = gradient_transform.init(params)

  # A simple update loop.
  for _ in range(1000):
    grads = jax.grad(compute_loss)(params, xs, ys)
    updates, opt_state = gradient_transform.update(grads, opt_state)
    params = optax.apply_updates(params, updates)

  assert jnp.allclose(params, target_params), \
  'Optimization should retrieve the target params used to generate the data.'
  out['chain'] = dict(params=params, state=jax.tree.leaves(opt_state))

  decaying_global_norm_tx = optax.inject_hyperparams(optax.clip_by_global_norm)(
      max_norm=optax.linear_schedule(1.0, 0.0, transition_steps=99))

  opt_state = decaying_global_norm_tx.init(None)
  assert opt_state.hyperparams['max_norm'] == 1.0, 'Max norm should start at 1.0'

  for _ in range(100):
    _, opt_state = decaying_global_norm_tx.update(None, opt_state)

  assert opt_state.hyperparams['max_norm'] == 0.0, 'Max norm should end at 0.0'
  out['max_norm'] = jax.tree.leaves(opt_state)

  # (the cell's imports are at the top)
  np.random.seed(0)  # (port) the notebook draws unseeded bytes
  BATCH_SIZE = 5
  NUM_TRAIN_STEPS = 1_000
  RAW_TRAINING_DATA = np.random.randint(255, size=(NUM_TRAIN_STEPS, BATCH_SIZE, 1))

  TRAINING_DATA = np.unpackbits(RAW_TRAINING_DATA.astype(np.uint8), axis=-1)
  LABELS = jax.nn.one_hot(RAW_TRAINING_DATA % 2, 2).astype(jnp.float32).reshape(NUM_TRAIN_STEPS, BATCH_SIZE, 2)

  initial_params = {
      'hidden': jax.random.normal(shape=[8, 32], key=jax.random.PRNGKey(0)),
      'output': jax.random.normal(shape=[32, 2], key=jax.random.PRNGKey(1)),
  }


  def net(x: jnp.ndarray, params: optax.Params) -> jnp.ndarray:
    x = jnp.dot(x, params['hidden'])
    x = jax.nn.relu(x)
    x = jnp.dot(x, params['output'])
    return x


  def loss(params: optax.Params, batch: jnp.ndarray, labels: jnp.ndarray) -> jnp.ndarray:
    y_hat = net(batch, params)

    # optax also provides a number of common loss functions.
    loss_value = optax.sigmoid_binary_cross_entropy(y_hat, labels).sum(axis=-1)

    return loss_value.mean()

  def fit(params: optax.Params, optimizer: optax.GradientTransformation) -> optax.Params:
    opt_state = optimizer.init(params)

    @jax.jit
    def step(params, opt_state, batch, labels):
      loss_value, grads = jax.value_and_grad(loss)(params, batch, labels)
      updates, opt_state = optimizer.update(grads, opt_state, params)
      params = optax.apply_updates(params, updates)
      return params, opt_state, loss_value

    for i, (batch, labels) in enumerate(zip(TRAINING_DATA, LABELS)):
      params, opt_state, loss_value = step(params, opt_state, batch, labels)
      if i % 100 == 0:
        print(f'step {i}, loss: {loss_value}')

    return params, opt_state

  # Finally, we can fit our parametrized function using the Adam optimizer
  # provided by optax.
  optimizer = optax.adam(learning_rate=1e-2)
  _ = fit(initial_params, optimizer)
  out['fit_adam'] = jax.tree.leaves(_)
  mark('fit_adam')

  schedule = optax.warmup_cosine_decay_schedule(
    init_value=0.0,
    peak_value=1.0,
    warmup_steps=50,
    decay_steps=1_000,
    end_value=0.0,
  )

  optimizer = optax.chain(
    optax.clip(1.0),
    optax.adamw(learning_rate=schedule),
  )

  _ = fit(initial_params, optimizer)
  out['fit_adamw'] = dict(fits=_fits(loss, _[0], TRAINING_DATA, LABELS), count=_[1][1][0].count)
  mark('fit_adamw', chaotic=True)

  optimizer = optax.inject_hyperparams(optax.adamw)(learning_rate=schedule)

  params = initial_params
  state = optimizer.init(params)
  print('initial learning rate:', state.hyperparams['learning_rate'])

  _, state = fit(initial_params, optimizer)

  print('final learning rate:', state.hyperparams['learning_rate'])
  out['fit_injected'] = dict(fits=_fits(loss, _, TRAINING_DATA, LABELS),
                             state=state.hyperparams, count=state.count)
  mark('fit_injected', chaotic=True)

  tx = optax.scale_by_rms()
  state = tx.init(params)  # init stats
  grads = jax.grad(loss)(params, TRAINING_DATA, LABELS)
  updates, state = tx.update(grads, state, params)  # transform & update stats.
  out['scale_by_rms'] = dict(grads=grads, updates=updates, state=jax.tree.leaves(state))

  max_norm = 100.
  learning_rate = 1e-3

  my_optimizer = optax.chain(
      optax.clip_by_global_norm(max_norm),
      optax.scale_by_adam(eps=1e-4),
      optax.scale(-learning_rate))
  out['my_optimizer'] = my_optimizer.update(grads, my_optimizer.init(params))  # (port)

  my_optimizer = optax.flatten(optax.adam(learning_rate))
  out['flatten'] = my_optimizer.update(grads, my_optimizer.init(params))  # (port)

  schedule_fn = optax.polynomial_schedule(
      init_value=1., end_value=0., power=1, transition_steps=5)

  for step_count in range(6):
    print(schedule_fn(step_count))  # [1., 0.8, 0.6, 0.4, 0.2, 0.]
  mark('polynomial_schedule')

  schedule_fn = optax.polynomial_schedule(
      init_value=-learning_rate, end_value=0., power=1, transition_steps=5)
  optimizer = optax.chain(
      optax.clip_by_global_norm(max_norm),
      optax.scale_by_adam(eps=1e-4),
      optax.scale_by_schedule(schedule_fn))
  out['scheduled'] = optimizer.update(grads, optimizer.init(params))  # (port)

  optimizer = optax.adam(learning_rate=schedule_fn)
  out['adam_schedule'] = optimizer.update(grads, optimizer.init(params))  # (port)

  def adamw(learning_rate, b1, b2, eps, weight_decay):
    return optax.chain(
        optax.scale_by_adam(b1=b1, b2=b2, eps=eps),
        optax.scale_and_decay(-learning_rate, weight_decay=weight_decay))

  updates, state = tx.update(grads, state, params)  # transform & update stats.
  new_params = optax.apply_updates(params, updates)  # update the parameters.
  out['new_params'] = new_params

  predictions = net(TRAINING_DATA, params)
  loss = optax.huber_loss(predictions, LABELS)
  out['huber'] = loss

  avg_loss = jnp.mean(optax.huber_loss(predictions, LABELS))
  sum_loss = jnp.sum(optax.huber_loss(predictions, LABELS))
  out['avg_sum'] = [avg_loss, sum_loss]
