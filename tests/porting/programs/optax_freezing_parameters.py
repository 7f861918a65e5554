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

"""Optax's examples/freezing_parameters.ipynb: freezing parameters with `transforms.freeze`,
`transforms.selective_transform` (also swapping the mask midway), `masked(set_to_zero())` and
`partition`. The notebook's cells verbatim in `run()`, without the plots; run() returns
what it printed and the losses and parameters the plots showed."""

# Import libraries
import jax
import jax.numpy as jnp
import optax

from optax import transforms
freeze = transforms.freeze
selective_transform = transforms.selective_transform


def run():
  results = []  # what the plots showed
  printed = []
  print = printed.append
  def loss_fn(p):
      return jnp.abs(p["param0"][0]) + jnp.abs(p["param1"][0])

  # Initialize parameters and mask
  params = {
      "param0": jnp.array([10.0]),  # will be trained
      "param1": jnp.array([10.0]),  # will be frozen
  }
  mask = {"param0": False, "param1": True}

  # Create optimizer with freeze utility
  optimizer = optax.chain(optax.adam(0.1), freeze(mask))
  opt_state = optimizer.init(params)

  # Define a single training step
  @jax.jit
  def train_step(p, s):
      # Compute loss and gradients
      loss, grads = jax.value_and_grad(loss_fn)(p)
      # Update parameters using optimizer
      updates, s = optimizer.update(grads, s, p)
      new_p = optax.apply_updates(p, updates)
      return new_p, s, loss

  # Initialize history lists to track progress
  loss_history = []
  param0_history = []
  param1_history = []

  # Training loop
  for i in range(1, 201):
      # Perform a training step
      params, opt_state, loss = train_step(params, opt_state)
      # Record loss and parameter values
      loss_history.append(loss)
      param0_history.append(params["param0"][0])
      param1_history.append(params["param1"][0])
      # Print progress every 50 steps
      if i % 50 == 0:
          print(f"Step {i:>3d}  loss={loss:.4f}  param0={params['param0'][0]:.4f}  param1={params['param1'][0]:.4f}")

  # Verify that param0 was optimized and param1 stayed frozen
  assert not jnp.isclose(params["param0"][0], 10.0)
  assert jnp.isclose(params["param1"][0], 10.0)
  print("✅ param1 stayed at 10.0; param0 was optimized toward zero.")
  results.append(dict(loss=loss_history, param0=param0_history, param1=param1_history, params=params, state=jax.tree_util.tree_leaves(opt_state)))

  # Initialize parameters and mask
  params = {
      "param0": jnp.array([10.0]),  # will be trained
      "param1": jnp.array([10.0]),  # will be frozen
  }
  mask = {"param0": False, "param1": True}

  # Create optimizer with selective_transform utility
  optimizer = selective_transform(optax.adam(0.1), freeze_mask=mask)
  opt_state = optimizer.init(params)

  # Define a single training step
  @jax.jit
  def train_step(p, s):
      # Compute loss and gradients
      loss, grads = jax.value_and_grad(loss_fn)(p)
      # Update parameters using optimizer
      updates, s = optimizer.update(grads, s, p)
      new_p = optax.apply_updates(p, updates)
      return new_p, s, loss

  # Initialize history lists to track progress
  loss_history = []
  param0_history = []
  param1_history = []

  # Training loop
  for i in range(1, 201):
      # Perform a training step
      params, opt_state, loss = train_step(params, opt_state)
      # Record loss and parameter values
      loss_history.append(loss)
      param0_history.append(params["param0"][0])
      param1_history.append(params["param1"][0])
      # Print progress every 50 steps
      if i % 50 == 0:
          print(f"Step {i:>3d}  loss={loss:.4f}  param0={params['param0'][0]:.4f}  param1={params['param1'][0]:.4f}")

  # Verify that param0 was optimized and param1 stayed frozen
  assert not jnp.isclose(params["param0"][0], 10.0)
  assert jnp.isclose(params["param1"][0], 10.0)
  print("✅ param1 stayed at 10.0; param0 was optimized toward zero.")
  results.append(dict(loss=loss_history, param0=param0_history, param1=param1_history, params=params, state=jax.tree_util.tree_leaves(opt_state)))

  # Initialize parameters and mask
  params = {"param0": jnp.array([10.0]), "param1": jnp.array([10.0])}
  mask = {"param0": False, "param1": True}

  # Create optimizer with selective_transform utility
  optimizer = selective_transform(optax.adam(0.1), freeze_mask=mask)
  opt_state = optimizer.init(params)

  # Initialize history lists to track progress
  loss_history = []
  param0_history = []
  param1_history = []

  # Training loop with dynamic mask swap at step 200
  for step in range(1, 401):
      # At step 200, swap which parameter is frozen
      if step == 200:
          mask = {"param0": True, "param1": False}
          optimizer = selective_transform(optax.adam(0.1), freeze_mask=mask)
          opt_state = optimizer.init(params)  # ⚠️ resets optimizer state

      # Compute loss and gradients
      loss, grads = jax.value_and_grad(loss_fn)(params)

      # Update parameters using optimizer
      updates, opt_state = optimizer.update(grads, opt_state, params)
      params = optax.apply_updates(params, updates)

      # Record loss and parameter values
      loss_history.append(loss)
      param0_history.append(params["param0"][0])
      param1_history.append(params["param1"][0])

      # Print progress every 100 steps
      if step % 100 == 0:
          print(f"Step {step:3d}  loss={loss:.4f}  param0={params['param0'][0]:.4f}  param1={params['param1'][0]:.4f}")

  # Verify that param0 reached near zero and param1 was updated
  assert jnp.isclose(params["param0"][0], 0.0, atol=1e-2)
  assert params["param1"][0] != 10.0
  print("✅ Dynamic swap worked param0: train→frozen, param1: frozen→train")
  results.append(dict(loss=loss_history, param0=param0_history, param1=param1_history, params=params, state=jax.tree_util.tree_leaves(opt_state)))

  # Define two scalar “parameters”
  params = {
      "param0": jnp.array([10.0]),  # will be trained
      "param1": jnp.array([10.0]),  # will be frozen
  }

  # Build a mask: False → train, True → freeze
  mask = {"param0": False, "param1": True}

  # Create optimizer: Adam + masked(set_to_zero)
  optimizer = optax.chain(optax.adam(0.1), optax.masked(optax.set_to_zero(), mask))
  opt_state = optimizer.init(params)


  # training step
  @jax.jit
  def train_step(p, s):
      loss, grads = jax.value_and_grad(loss_fn)(p)
      updates, s = optimizer.update(grads, s, p)
      new_p = optax.apply_updates(p, updates)
      return new_p, s, loss


  # Initialize lists to store loss and parameter values
  loss_history = []
  param0_history = []
  param1_history = []

  # Run 200 steps to verify
  for i in range(1, 201):
      params, opt_state, loss = train_step(params, opt_state)
      loss_history.append(loss)
      param0_history.append(params["param0"][0])
      param1_history.append(params["param1"][0])
      if i % 50 == 0:
          print(
              f"Step {i:>3d}  loss={loss:.4f}  "
              f"param0={params['param0'][0]:.4f}  "
              f"param1={params['param1'][0]:.4f}"
          )

  # Verify freezing
  assert not jnp.isclose(params["param0"][0], 10.0), "param0 should have moved"
  assert jnp.isclose(params["param1"][0], 10.0), "param1 should remain frozen"
  print("✅ param1 stayed at 10.0; param0 was optimized toward zero.")
  results.append(dict(loss=loss_history, param0=param0_history, param1=param1_history, params=params, state=jax.tree_util.tree_leaves(opt_state)))

  # Create two scalar “parameters”
  params = {
      "param0": jnp.array([10.0]),  # will be trained
      "param1": jnp.array([10.0]),  # will be frozen
  }

  # Define two transforms: 'train' → Adam, 'freeze' → zero
  transforms = {"train": optax.adam(0.1), "freeze": optax.set_to_zero()}

  # Map each param name to one of the transforms
  label_map = {"param0": "train", "param1": "freeze"}

  # Build and initialize the optimizer using partition
  optimizer = optax.partition(transforms, label_map)
  opt_state = optimizer.init(params)


  # JIT‑compiled training step
  @jax.jit
  def train_step(p, s):
      loss, grads = jax.value_and_grad(loss_fn)(p)
      updates, s = optimizer.update(grads, s, p)
      new_p = optax.apply_updates(p, updates)
      return new_p, s, loss


  # Run a few steps and record history
  loss_history = []
  param0_history = []
  param1_history = []

  for step in range(1, 201):
      params, opt_state, loss = train_step(params, opt_state)
      loss_history.append(loss)
      param0_history.append(params["param0"][0])
      param1_history.append(params["param1"][0])
      if step % 50 == 0:
          print(
              f"Step {step:3d}  loss={loss:.4f}  "
              f"param0={params['param0'][0]:.4f}  "
              f"param1={params['param1'][0]:.4f}"
          )

  # Verify that param1 stayed frozen
  assert jnp.isclose(params["param1"][0], 10.0), "param1 should remain unchanged"
  print("✅ partition correctly froze param1!")
  results.append(dict(loss=loss_history, param0=param0_history, param1=param1_history, params=params, state=jax.tree_util.tree_leaves(opt_state)))

  # Two scalar “params”
  params = {
      "param0": jnp.array([10.0]),  # will start trainable
      "param1": jnp.array([10.0]),  # will start frozen
  }


  # Helper to build optimizer using partition
  def make_optimizer(mask):
      return optax.partition({"adam": optax.adam(0.1), "zero": optax.set_to_zero()}, mask)


  # Initial mask: train param0, freeze param1
  mask = {"param0": "adam", "param1": "zero"}
  optimizer = make_optimizer(mask)
  opt_state = optimizer.init(params)


  # Training loop with dynamic mask swap at step 200
  loss_history = []
  param0_history = []
  param1_history = []

  for step in range(1, 401):
      # At step 200, swap which param is frozen
      if step == 200:
          mask = {"param0": "zero", "param1": "adam"}
          optimizer = make_optimizer(mask)
          opt_state = optimizer.init(params)  # ⚠️ resets optimizer state

      # Compute loss and grads
      loss, grads = jax.value_and_grad(loss_fn)(params)
      updates, opt_state = optimizer.update(grads, opt_state, params)
      params = optax.apply_updates(params, updates)

      # Record history
      loss_history.append(loss)
      param0_history.append(params["param0"][0])
      param1_history.append(params["param1"][0])

      if step % 100 == 0:
          print(
              f"Step {step:3d}  loss={loss:.4f}  "
              f"param0={params['param0'][0]:.4f}  "
              f"param1={params['param1'][0]:.4f}"
          )

  # Verify
  assert jnp.isclose(params["param0"][0], 0.0, atol=1e-2)
  assert params["param1"][0] != 10.0
  print("✅ Dynamic swap worked param0: train→frozen, param1: frozen→train")
  results.append(dict(loss=loss_history, param0=param0_history, param1=param1_history, params=params, state=jax.tree_util.tree_leaves(opt_state)))
  return dict(results=results, printed=printed)
