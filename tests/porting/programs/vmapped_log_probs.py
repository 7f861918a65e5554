# Copyright 2018 The JAX Authors.
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

"""JAX's docs/notebooks/vmapped_log_probs.md ("Autobatching for Bayesian inference"): its
code cells verbatim in `run()` (a fake binary classification dataset from numpy's seeded
generator and `scipy.special.expit`, a log-joint with `jax.scipy.stats.norm.logpdf`, the
unbatched function's broadcasting error on a batch, the manually batched and the `vmap`ped
log-joints, the ELBO's `value_and_grad` under `jit` with `argnums=(0, 1)`, a jitted sampler
with `static_argnums`, 1000 SGD steps); what the cells printed and showed, and the posterior
the plot showed. No plot."""

from tests.porting import printed as _printed

import jax
import jax.numpy as jnp
import jax.scipy as jsp
from jax import random

import numpy as np
import scipy as sp


def run():
  out = {}
  printed = []

  def print(*args):
    printed.append(' '.join(str(a) for a in args))

  np.random.seed(10009)

  num_features = 10
  num_points = 100

  true_beta = np.random.randn(num_features).astype(jnp.float32)
  all_x = np.random.randn(num_points, num_features).astype(jnp.float32)
  y = (np.random.rand(num_points) < sp.special.expit(all_x.dot(true_beta))).astype(jnp.int32)
  out['y'] = y

  def log_joint(beta):
      result = 0.
      # Note that no `axis` parameter is provided to `jnp.sum`.
      result = result + jnp.sum(jsp.stats.norm.logpdf(beta, loc=0., scale=1.))
      result = result + jnp.sum(-jnp.log(1 + jnp.exp(-(2*y-1) * jnp.dot(all_x, beta))))
      return result

  out['log_joint'] = log_joint(np.random.randn(num_features))

  # This doesn't work, because we didn't write `log_prob()` to handle batching.
  try:
    batch_size = 10
    batched_test_beta = np.random.randn(batch_size, num_features)

    log_joint(np.random.randn(batch_size, num_features))
  except ValueError as e:
    print("Caught expected exception " + str(e))

  def batched_log_joint(beta):
      result = 0.
      # Here (and below) `sum` needs an `axis` parameter. At best, forgetting to set axis
      # or setting it incorrectly yields an error; at worst, it silently changes the
      # semantics of the model.
      result = result + jnp.sum(jsp.stats.norm.logpdf(beta, loc=0., scale=1.),
                             axis=-1)
      # Note the multiple transposes. Getting this right is not rocket science,
      # but it's also not totally mindless. (I didn't get it right on the first
      # try.)
      result = result + jnp.sum(-jnp.log(1 + jnp.exp(-(2*y-1) * jnp.dot(all_x, beta.T).T)),
                             axis=-1)
      return result

  batch_size = 10
  batched_test_beta = np.random.randn(batch_size, num_features)

  out['batched_log_joint'] = batched_log_joint(batched_test_beta)

  vmap_batched_log_joint = jax.vmap(log_joint)
  out['vmap_batched_log_joint'] = vmap_batched_log_joint(batched_test_beta)

  @jax.jit
  def log_joint(beta):
      result = 0.
      # Note that no `axis` parameter is provided to `jnp.sum`.
      result = result + jnp.sum(jsp.stats.norm.logpdf(beta, loc=0., scale=10.))
      result = result + jnp.sum(-jnp.log(1 + jnp.exp(-(2*y-1) * jnp.dot(all_x, beta))))
      return result

  batched_log_joint = jax.jit(jax.vmap(log_joint))

  def elbo(beta_loc, beta_log_scale, epsilon):
      beta_sample = beta_loc + jnp.exp(beta_log_scale) * epsilon
      return jnp.mean(batched_log_joint(beta_sample), 0) + jnp.sum(beta_log_scale - 0.5 * np.log(2*np.pi))

  elbo = jax.jit(elbo)
  elbo_val_and_grad = jax.jit(jax.value_and_grad(elbo, argnums=(0, 1)))

  def normal_sample(key, shape):
      """Convenience function for quasi-stateful RNG."""
      new_key, sub_key = random.split(key)
      return new_key, random.normal(sub_key, shape)

  normal_sample = jax.jit(normal_sample, static_argnums=(1,))

  key = random.key(10003)

  beta_loc = jnp.zeros(num_features, jnp.float32)
  beta_log_scale = jnp.zeros(num_features, jnp.float32)

  step_size = 0.01
  batch_size = 128
  epsilon_shape = (batch_size, num_features)
  for i in range(1000):
      key, epsilon = normal_sample(key, epsilon_shape)
      elbo_val, (beta_loc_grad, beta_log_scale_grad) = elbo_val_and_grad(
          beta_loc, beta_log_scale, epsilon)
      beta_loc += step_size * beta_loc_grad
      beta_log_scale += step_size * beta_log_scale_grad
      if i % 10 == 0:
          print('{}\t{}'.format(i, elbo_val))

  # What the plot showed.
  out['true_beta'] = true_beta
  out['beta_loc'] = beta_loc
  out['upper'] = beta_loc + 2*jnp.exp(beta_log_scale)
  out['lower'] = beta_loc - 2*jnp.exp(beta_log_scale)
  out['printed'] = _printed.numbered('\n'.join(printed))
  out['dtypes'] = [str(elbo_val.dtype), str(beta_loc.dtype), str(epsilon.dtype), str(key.dtype)]
  return out
