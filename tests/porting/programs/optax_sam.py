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

"""Optax's examples/contrib/sam.ipynb: SAM (`contrib.sam` with `contrib.normalize`) against
SGD, momentum and Adam on a 2-D loss with a sharp and a flat minimum, in the default and the
opaque mode. The notebook's cells verbatim in `run()`, without the plots, 12 and 10 steps
instead of 8000 and 4000; run() returns the losses and parameters the plots showed."""

from typing import NamedTuple

import jax
import jax.numpy as np
import optax
from optax import contrib


def run():
  results = []  # what the plots showed, per mode
  lr = 0.01
  rho = 0.1
  opt = optax.sgd(lr)
  adv_opt = optax.chain(contrib.normalize(), optax.sgd(rho))
  sam_opt = contrib.sam(opt, adv_opt, sync_period=2)  # This is the drop-in SAM optimizer.

  sgd_opt = optax.sgd(lr)  # Baseline SGD optimizer

  def sam_mom(lr=1e-3, momentum=0.1, rho=0.1, sync_period=2):
    opt = optax.sgd(lr, momentum=momentum)
    adv_opt = optax.chain(contrib.normalize(), optax.sgd(rho))
    return contrib.sam(opt, adv_opt, sync_period=sync_period)

  mom = 0.9
  sam_mom_opt = sam_mom(lr, momentum=mom)
  mom_opt = optax.sgd(lr, momentum=mom)

  def sam_adam(lr=1e-3, b1=0.9, b2=0.999, rho=0.03, sync_period=5):
    """A SAM optimizer using Adam for the outer optimizer."""
    opt = optax.adam(lr, b1=b1, b2=b2)
    adv_opt = optax.chain(contrib.normalize(), optax.adam(rho))
    return contrib.sam(opt, adv_opt, sync_period=sync_period)

  sam_adam_opt = sam_adam(lr)
  adam_opt = optax.adam(lr)

  # An example 2D loss function. It has two minima at (0,0) and (2,0).
  # Both points attain almost zero loss value, but the first one is much sharper.

  def loss(params):
    x, y = params
    return -np.exp(-(x - 2)**2 - y**2) - 1.0*np.exp(-((x)**2 + (y)**2*100))


  params = np.array([-0.4, -0.4])

  class Store(NamedTuple):
    params: jax.typing.ArrayLike
    state: optax.OptState
    step: int = 0

  sam_store = Store(params=params, state=sam_opt.init(params))
  sgd_store = Store(params=params, state=sgd_opt.init(params))
  sam_mom_store = Store(params=params, state=sam_mom_opt.init(params))
  mom_store = Store(params=params, state=mom_opt.init(params))
  sam_adam_store = Store(params=params, state=sam_adam_opt.init(params))
  adam_store = Store(params=params, state=adam_opt.init(params))

  def make_step(opt):
    @jax.jit
    def step(store):
      value, grads = jax.value_and_grad(loss)(store.params)
      updates, state = opt.update(grads, store.state, store.params)
      params = optax.apply_updates(store.params, updates)
      return store._replace(
          params=params,
          state=state,
          step=store.step+1), value
    return step

  sam_step = make_step(sam_opt)
  sgd_step = make_step(sgd_opt)

  sam_mom_step = make_step(sam_mom_opt)
  mom_step = make_step(mom_opt)

  sam_adam_step = make_step(sam_adam_opt)
  adam_step = make_step(adam_opt)

  sam_vals = []
  sam_params = []
  sgd_vals = []
  sgd_params = []

  sam_mom_vals = []
  sam_mom_params = []
  mom_vals = []
  mom_params = []

  sam_adam_vals = []
  sam_adam_params = []
  adam_vals = []
  adam_params = []

  T = 12
  for i in range(T):
    sam_store, sam_val = sam_step(sam_store)
    sgd_store, sgd_val = sgd_step(sgd_store)
    sam_mom_store, sam_mom_val = sam_mom_step(sam_mom_store)
    mom_store, mom_val = mom_step(mom_store)
    sam_adam_store, sam_adam_val = sam_adam_step(sam_adam_store)
    adam_store, adam_val = adam_step(adam_store)

    sam_vals.append(sam_val)
    sgd_vals.append(sgd_val)
    sam_mom_vals.append(sam_mom_val)
    mom_vals.append(mom_val)
    sam_adam_vals.append(sam_adam_val)
    adam_vals.append(adam_val)

    sam_params.append(sam_store.params)
    sgd_params.append(sgd_store.params)
    sam_mom_params.append(sam_mom_store.params)
    mom_params.append(mom_store.params)
    sam_adam_params.append(sam_adam_store.params)
    adam_params.append(adam_store.params)
  results.append(dict(vals=[sam_vals, sgd_vals, sam_mom_vals, mom_vals, sam_adam_vals, adam_vals],
                      params=[sam_params, sgd_params, sam_mom_params, mom_params, sam_adam_params, adam_params],
                      steps=[sam_store.step, sam_adam_store.step], state=jax.tree_util.tree_leaves(sam_adam_store.state)))

  lr = 0.01
  rho = 0.1
  opt = optax.sgd(lr)
  adv_opt = optax.chain(contrib.normalize(), optax.sgd(rho))
  sam_opt = contrib.sam(opt, adv_opt, sync_period=2, opaque_mode=True)

  sgd_opt = optax.sgd(lr)  # Baseline SGD optimizer

  def sam_mom(lr=1e-3, momentum=0.1, rho=0.1, sync_period=2):
    opt = optax.sgd(lr, momentum=momentum)
    adv_opt = optax.chain(contrib.normalize(), optax.sgd(rho))
    return contrib.sam(opt, adv_opt, sync_period=sync_period, opaque_mode=True)

  mom = 0.9
  sam_mom_opt = sam_mom(lr, momentum=mom)
  mom_opt = optax.sgd(lr, momentum=mom)

  def sam_adam(lr=1e-3, b1=0.9, b2=0.999, rho=0.03, sync_period=5):
    """A SAM optimizer using Adam for the outer optimizer."""
    opt = optax.adam(lr, b1=b1, b2=b2)
    adv_opt = optax.chain(contrib.normalize(), optax.adam(rho))
    return contrib.sam(opt, adv_opt, sync_period=sync_period, opaque_mode=True)

  sam_adam_opt = sam_adam(lr)
  adam_opt = optax.adam(lr)

  params = np.array([-0.4, -0.4])

  class Store(NamedTuple):
    params: jax.typing.ArrayLike
    state: optax.OptState
    step: int = 0

  sam_store = Store(params=params, state=sam_opt.init(params))
  sgd_store = Store(params=params, state=sgd_opt.init(params))
  sam_mom_store = Store(params=params, state=sam_mom_opt.init(params))
  mom_store = Store(params=params, state=mom_opt.init(params))
  sam_adam_store = Store(params=params, state=sam_adam_opt.init(params))
  adam_store = Store(params=params, state=adam_opt.init(params))

  def make_step(opt):
    @jax.jit
    def step(store):
      value, grads = jax.value_and_grad(loss)(store.params)
      if isinstance(store.state, contrib.SAMState):
        updates, state = opt.update(
            grads, store.state, store.params,
            grad_fn=jax.grad(lambda p, _: loss(p)))  # NOTICE THE ADDITIONAL grad_fn ARGUMENT!
      else:
        updates, state = opt.update(grads, store.state, store.params)
      params = optax.apply_updates(store.params, updates)
      return store._replace(
          params=params,
          state=state,
          step=store.step+1), value
    return step

  sam_step = make_step(sam_opt)
  sgd_step = make_step(sgd_opt)

  sam_mom_step = make_step(sam_mom_opt)
  mom_step = make_step(mom_opt)

  sam_adam_step = make_step(sam_adam_opt)
  adam_step = make_step(adam_opt)

  sam_vals = []
  sam_params = []
  sgd_vals = []
  sgd_params = []

  sam_mom_vals = []
  sam_mom_params = []
  mom_vals = []
  mom_params = []

  sam_adam_vals = []
  sam_adam_params = []
  adam_vals = []
  adam_params = []

  T = 10
  for i in range(T):
    sam_store, sam_val = sam_step(sam_store)
    sgd_store, sgd_val = sgd_step(sgd_store)
    sam_mom_store, sam_mom_val = sam_mom_step(sam_mom_store)
    mom_store, mom_val = mom_step(mom_store)
    sam_adam_store, sam_adam_val = sam_adam_step(sam_adam_store)
    adam_store, adam_val = adam_step(adam_store)

    sam_vals.append(sam_val)
    sgd_vals.append(sgd_val)
    sam_mom_vals.append(sam_mom_val)
    mom_vals.append(mom_val)
    sam_adam_vals.append(sam_adam_val)
    adam_vals.append(adam_val)

    sam_params.append(sam_store.params)
    sgd_params.append(sgd_store.params)
    sam_mom_params.append(sam_mom_store.params)
    mom_params.append(mom_store.params)
    sam_adam_params.append(sam_adam_store.params)
    adam_params.append(adam_store.params)
  results.append(dict(vals=[sam_vals, sgd_vals, sam_mom_vals, mom_vals, sam_adam_vals, adam_vals],
                      params=[sam_params, sgd_params, sam_mom_params, mom_params, sam_adam_params, adam_params],
                      steps=[sam_store.step, sam_adam_store.step], state=jax.tree_util.tree_leaves(sam_adam_store.state)))
  return results
