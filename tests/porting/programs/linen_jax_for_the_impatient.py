# Copyright 2024 The Flax Authors.
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

"""Flax's docs/guides/jax_for_the_impatient.md ("JAX for the Impatient", removed in
1383ea30; taken from 1383ea30^): its code cells verbatim in `_cells()`, a cell's last
expression shown as the notebook shows it (`_show`); run() returns what the cells printed
(numbers apart). Covers: `jnp` arrays and their reprs, `jnp.dot` of numpy and JAX arrays,
`device_put`, `np.array` of a JAX array, `.at[].set`, printed keys and splits (`key, *subkeys
= random.split(key, 4)`), `grad`, `jvp`, `vjp`, a jitted SELU, `vmap` of a matrix product,
linear regression by `grad` under `jit` with a learning rate argument, `tree_util.tree_map`
over nested containers, regression on a dict of parameters, `value_and_grad`. The numpy
random inputs seeded (port); the `%timeit` cells run once, on 1000 elements for 1000000."""

from tests.porting import printed
from tests.porting.printed import show as _show  # (port) the harness


def run():
  return printed.notebook(_cells)


def _cells(out, errors, mark):
  import jax
  from jax import numpy as jnp, random

  import numpy as np # We import the standard NumPy library
  np.random.seed(0)  # (port)

  m = jnp.ones((4,4)) # We're generating one 4 by 4 matrix filled with ones.
  n = jnp.array([[1.0, 2.0, 3.0, 4.0],
                 [5.0, 6.0, 7.0, 8.0]]) # An explicit 2 by 4 array
  _show(m)
  mark(1)

  _show(jnp.dot(n, m).block_until_ready()) # Note: yields the same result as np.dot(m)
  mark(2)

  x = np.random.normal(size=(4,4)) # Creating one standard NumPy array instance
  _show(jnp.dot(x,m))
  mark(3)

  x = np.random.normal(size=(4,4))
  x = jax.device_put(x)
  _show(x)
  mark(4)

  x = jnp.array([[1.0, 2.0, 3.0, 4.0],
                 [5.0, 6.0, 7.0, 8.0]])
  _show(np.array(x))
  mark(5)

  x = jnp.array([[1.0, 2.0, 3.0, 4.0],
                 [5.0, 6.0, 7.0, 8.0]])
  updated = x.at[0, 0].set(3.0) # whereas x[0,0] = 3.0 would fail
  print("x: \n", x) # Note that x didn't change, no in-place mutation.
  print("updated: \n", updated)
  mark(6)

  key = random.key(0)
  _show(key)
  mark(7)

  for i in range(3):
      print("Printing the random number using key: ", key, " gives: ", random.normal(key,shape=(1,))) # Boringly not that random since we use the same key
  mark(8)

  print("old key", key, "--> normal", random.normal(key, shape=(1,)))
  key, subkey = random.split(key)
  print("    \\---SPLIT --> new key   ", key, "--> normal", random.normal(key, shape=(1,)) )
  print("             \\--> new subkey", subkey, "--> normal", random.normal(subkey, shape=(1,)) )
  mark(9)

  key, *subkeys = random.split(key, 4)
  _show((key, subkeys))
  mark(10)

  key = random.key(0)
  def f(x):
    return jnp.dot(x.T,x)/2.0

  v = jnp.ones((4,))
  _show(f(v))
  mark(11)

  v = random.normal(key,(4,))
  print("Original v:")
  print(v)
  print("Gradient of f taken at point v")
  print(jax.grad(f)(v)) # should be equal to v !
  mark(12)

  def f(x):
    return jnp.multiply(x,x)/2.0

  x = random.normal(key, (5,))
  v = jnp.ones(5)
  print("(x,f(x))")
  print((x,f(x)))
  print("jax.jvp(f, (x,),(v,))")
  print(jax.jvp(f, (x,),(v,)))
  mark(13)

  (val, jvp_fun) = jax.vjp(f,x)
  print("x = ", x)
  print("v^T Jf(x) = ", jvp_fun(jnp.ones((5,)))[0])
  mark(14)

  def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

  v = random.normal(key, (1000,))  # (port) 1000000
  out['selu'] = selu(v).block_until_ready()  # (port) %timeit
  mark(15)

  selu_jit = jax.jit(selu)
  out['selu_jit'] = selu_jit(v).block_until_ready()  # (port) %timeit
  mark(16)

  mat = random.normal(key, (15, 10))
  batched_x = random.normal(key, (5, 10)) # Batch size on axis 0
  single = random.normal(key, (10,))

  def apply_matrix(v):
    return jnp.dot(mat, v)

  print("Single apply shape: ", apply_matrix(single).shape)
  print("Batched example shape: ", jax.vmap(apply_matrix)(batched_x).shape)
  out['batched'] = jax.vmap(apply_matrix)(batched_x)  # (port)
  mark(17)

  # Linear feed-forward.
  def predict(W, b, x):
    return jnp.dot(x, W) + b

  # Loss function: Mean squared error.
  def mse(W, b, x_batched, y_batched):
    # Define the squared loss for a single pair (x,y)
    def squared_error(x, y):
      y_pred = predict(W, b, x)
      return jnp.inner(y-y_pred, y-y_pred) / 2.0
    # We vectorize the previous to compute the average of the loss on all samples.
    return jnp.mean(jax.vmap(squared_error)(x_batched, y_batched), axis=0)

  # Set problem dimensions.
  n_samples = 20
  x_dim = 10
  y_dim = 5

  # Generate random ground truth W and b.
  key = random.key(0)
  k1, k2 = random.split(key)
  W = random.normal(k1, (x_dim, y_dim))
  b = random.normal(k2, (y_dim,))

  # Generate samples with additional noise.
  key_sample, key_noise = random.split(k1)
  x_samples = random.normal(key_sample, (n_samples, x_dim))
  y_samples = predict(W, b, x_samples) + 0.1 * random.normal(key_noise,(n_samples, y_dim))
  print('x shape:', x_samples.shape, '; y shape:', y_samples.shape)
  mark(18)

  # Initialize estimated W and b with zeros.
  W_hat = jnp.zeros_like(W)
  b_hat = jnp.zeros_like(b)

  # Ensure we jit the largest-possible jittable block.
  @jax.jit
  def update_params(W, b, x, y, lr):
    W, b = W - lr * jax.grad(mse, 0)(W, b, x, y), b - lr * jax.grad(mse, 1)(W, b, x, y)
    return W, b

  learning_rate = 0.3  # Gradient step size.
  print('Loss for "true" W,b: ', mse(W, b, x_samples, y_samples))
  for i in range(101):
    # Perform one gradient update.
    W_hat, b_hat = update_params(W_hat, b_hat, x_samples, y_samples, learning_rate)
    if (i % 5 == 0):
      print(f"Loss step {i}: ", mse(W_hat, b_hat, x_samples, y_samples))
  out['regression'] = [W_hat, b_hat]  # (port)
  mark(19)

  from jax import tree_util

  t = [1, {"k1": 2, "k2": (3, 4)}, 5]

  _show(tree_util.tree_map(lambda x: x*x, t))
  mark(20)

  t2 = tree_util.tree_map(lambda x: x*x, t)
  _show(tree_util.tree_map(lambda x,y: x+y, t, t2))
  mark(21)

  # Linear feed-forward that takes a params pytree.
  def predict_pytree(params, x):
    return jnp.dot(x, params['W']) + params['b']

  # Loss function: Mean squared error.
  def mse_pytree(params, x_batched,y_batched):
    # Define the squared loss for a single pair (x,y)
    def squared_error(x,y):
      y_pred = predict_pytree(params, x)
      return jnp.inner(y-y_pred, y-y_pred) / 2.0
    # We vectorize the previous to compute the average of the loss on all samples.
    return jnp.mean(jax.vmap(squared_error)(x_batched, y_batched), axis=0)

  # Initialize estimated W and b with zeros. Store in a pytree.
  params = {'W': jnp.zeros_like(W), 'b': jnp.zeros_like(b)}

  _show(jax.grad(mse_pytree)(params, x_samples, y_samples))
  mark(22)

  # Always remember to jit!
  @jax.jit
  def update_params_pytree(params, learning_rate, x_samples, y_samples):
    params = jax.tree_util.tree_map(
          lambda p, g: p - learning_rate * g, params,
          jax.grad(mse_pytree)(params, x_samples, y_samples))
    return params

  learning_rate = 0.3  # Gradient step size.
  print('Loss for "true" W,b: ', mse_pytree({'W': W, 'b': b}, x_samples, y_samples))
  for i in range(101):
    # Perform one gradient update.
    params = update_params_pytree(params, learning_rate, x_samples, y_samples)
    if (i % 5 == 0):
      print(f"Loss step {i}: ", mse_pytree(params, x_samples, y_samples))
  mark(23)

  # Using jax.value_and_grad instead:
  loss_grad_fn = jax.value_and_grad(mse_pytree)
  for i in range(101):
    # Note that here the loss is computed before the param update.
      loss_val, grads = loss_grad_fn(params, x_samples, y_samples)
      params = jax.tree_util.tree_map(
          lambda p, g: p - learning_rate * g, params, grads)
      if (i % 5 == 0):
          print(f"Loss step {i}: ", loss_val)
  out['params'] = params  # (port)
  mark(24)
