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

"""Optax's examples/flax_example.ipynb ("Simple NN with Flax"), Linen version (before
3e139e27): an `nn.Dense` initialized on one unbatched example, a jitted MSE of `vmap`ped
`jnp.inner` errors made by a closure, `value_and_grad` of it, `chain(scale_by_adam(b1, b2,
eps), scale(-lr))` for 100 eager updates. The notebook's cells verbatim in `run()` (its
`PRNGKey(0)` data); the plot left out. run() returns the loss history, the parameters
before and after, and the optimizer state."""

def run():
  import jax
  import jax.numpy as jnp
  import optax
  from flax import linen as nn

  # @markdown Learning rate for the optimizer:
  LEARNING_RATE = 1e-2  # @param{type:"number"}
  # @markdown Number of training steps:
  NUM_STEPS = 100  # @param{type:"integer"}
  # @markdown Number of samples in the training dataset:
  NUM_SAMPLES = 20  # @param{type:"integer"}
  # @markdown Shape of the input:
  X_DIM = 10  # @param{type:"integer"}
  # @markdown Shape of the target:
  Y_DIM = 5  # @param{type:"integer"}

  rng = jax.random.PRNGKey(0)
  params_rng, w_rng, b_rng, samples_rng, noise_rng = jax.random.split(rng, num=5)

  # Creates a one linear layer instance.
  model = nn.Dense(features=Y_DIM)

  # Initializes the parameters.
  params = model.init(params_rng, jnp.ones((X_DIM,), dtype=jnp.float32))
  initial_params = params  # (port) returned

  # Generates ground truth w and b.
  w = jax.random.normal(w_rng, (X_DIM, Y_DIM))
  b = jax.random.normal(b_rng, (Y_DIM,))

  # Generates training samples.
  x_samples = jax.random.normal(samples_rng, (NUM_SAMPLES, X_DIM))
  y_samples = jnp.dot(x_samples, w) + b
  # Adds noise to the target.
  y_samples += 0.1 * jax.random.normal(noise_rng, (NUM_SAMPLES, Y_DIM))

  def make_mse_func(x_batched, y_batched):
    def mse(params):
      # Defines the squared loss for a single (x, y) pair.
      def squared_error(x, y):
        pred = model.apply(params, x)
        return jnp.inner(y-pred, y-pred) / 2.0
      # Vectorizes the squared error and computes mean over the loss values.
      return jnp.mean(jax.vmap(squared_error)(x_batched, y_batched), axis=0)
    return jax.jit(mse)  # `jit`s the result.

  # Instantiates the sampled loss.
  loss = make_mse_func(x_samples, y_samples)

  # Creates a function that returns value and gradient of the loss.
  loss_grad_fn = jax.value_and_grad(loss)

  tx = optax.chain(
      # Sets the parameters of Adam. Note the learning_rate is not here.
      optax.scale_by_adam(b1=0.9, b2=0.999, eps=1e-8),
      # Puts a minus sign to *minimize* the loss.
      optax.scale(-LEARNING_RATE)
  )

  opt_state = tx.init(params)

  loss_history = []

  # Minimizes the loss.
  for _ in range(NUM_STEPS):
    # Computes gradient of the loss.
    loss_val, grads = loss_grad_fn(params)
    loss_history.append(loss_val)
    # Updates the optimizer state, creates an update to the params.
    updates, opt_state = tx.update(grads, opt_state)
    # Updates the parameters.
    params = optax.apply_updates(params, updates)

  # (port) the plot of loss_history left out; what it showed returned
  return dict(loss_history=jnp.stack(loss_history), initial_params=initial_params,
              params=params, opt_state=jax.tree.leaves(opt_state),
              state_types=[type(s).__name__ for s in opt_state],
              data=[w, b, x_samples, y_samples])
