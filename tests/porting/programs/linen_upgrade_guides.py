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

"""Flax's docs/guides/converting_and_upgrading/ `optax_update_guide.rst` ("Upgrading my codebase
to Optax") and `regular_dict_upgrade_guide.rst` ("Migrate to regular dicts"): the Optax and
utility-function sides of their code blocks verbatim in `run()` (the `flax.optim` sides are
gone from Flax). The Optax guide's `tx`s (`sgd` with momentum and its `chain(trace, scale)`
equivalent, `scale_by_adam` + `add_decayed_weights`, `clip_by_global_norm`,
`scale_by_schedule`, `masked` by `traverse_util.ModelParamTraversal` masks) each train the
testsetup's `nn.Dense(1)` with the guide's jitted `train_step` for three steps; the testsetup's
`loss` (a constant: "the minimal code required to make below code run") is a mean squared error
of the model on a batch of random images (port), so that every transformation sees gradients.
The dict guide's `FrozenDict` methods and `flax.core` utilities on a frozen and a regular dict,
`pretty_repr`'s text, and `flax.config.update('flax_return_frozendict', ...)`. run() returns
the parameters, states, masks, types and texts."""

import flax
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax


def run():
  out = {}
  # Note: this is the minimal code required to make below code run. See in the
  # Colab linked above for a more meaningful definition of datasets etc.
  batch = {'image': jnp.ones([1, 28, 28, 1]), 'label': jnp.array([0])}
  batch = {'image': jax.random.uniform(jax.random.key(1), [1, 28, 28, 1]),
           'label': jnp.array([0])}  # (port) not all ones
  ds_train = [batch]
  get_ds_train = lambda: [batch]
  model = nn.Dense(1)
  variables = model.init(jax.random.key(0), batch['image'])
  learning_rate, momentum, weight_decay, grad_clip_norm = .1, .9, 1e-3, 1.
  loss = lambda params, batch: jnp.array(0.)
  loss = lambda params, batch: jnp.mean(  # (port) a loss with gradients
      (model.apply({'params': params}, batch['image']) - 1.) ** 2)

  def fit(tx):
    """(port) the guide's first block, `train_step` and the loop, three times over
    `ds_train`, for `tx`."""
    @jax.jit
    def train_step(params, opt_state, batch):
      grads = jax.grad(loss)(params, batch)
      updates, opt_state = tx.update(grads, opt_state, params)  # (port) params for the decay
      params = optax.apply_updates(params, updates)
      return params, opt_state

    params = variables['params']
    opt_state = tx.init(params)
    for batch in ds_train * 3:
      params, opt_state = train_step(params, opt_state, batch)
    return dict(params=params, state=jax.tree.leaves(opt_state),
                state_types=[type(s).__name__ for s in jax.tree.leaves(
                    opt_state, is_leaf=lambda s: isinstance(s, tuple) and hasattr(s, '_fields'))])

  # Replacing ``flax.optim`` with ``optax``
  tx = optax.sgd(learning_rate, momentum)
  out['sgd'] = fit(tx)

  # Composable Gradient Transformations
  # Note that the aliases follow the convention to use positive
  # values for the learning rate by default.
  tx = optax.sgd(learning_rate, momentum)
  out['alias'] = fit(tx)

  tx = optax.chain(
      # 1. Step: keep a trace of past updates and add to gradients.
      optax.trace(decay=momentum),
      # 2. Step: multiply result from step 1 with negative learning rate.
      # Note that `optax.apply_updates()` simply adds the final updates to the
      # parameters, so we must make sure to flip the sign here for gradient
      # descent.
      optax.scale(-learning_rate),
  )
  out['chain'] = fit(tx)

  # Weight Decay
  # (Note that you could also use `optax.adamw()` in this case)
  tx = optax.chain(
      optax.scale_by_adam(),
      optax.add_decayed_weights(weight_decay),
      # params -= learning_rate * (adam(grads) + params * weight_decay)
      optax.scale(-learning_rate),
  )
  # Note that you'll need to specify `params` when computing the udpates:
  # tx.update(grads, opt_state, params)
  out['weight_decay'] = fit(tx)

  # Gradient Clipping
  tx = optax.chain(
      optax.clip_by_global_norm(grad_clip_norm),
      optax.trace(decay=momentum),
      optax.scale(-learning_rate),
  )
  out['clipping'] = fit(tx)

  # Learning Rate Schedules
  schedule = optax.exponential_decay(learning_rate, 1, 0.5)  # (port) the guide's `schedule`
  tx = optax.chain(
      optax.trace(decay=momentum),
      # Note that we still want a negative value for scaling the updates!
      optax.scale_by_schedule(lambda step: -schedule(step)),
  )
  out['schedule'] = fit(tx)

  # Multiple Optimizers / Updating a Subset of Parameters
  params = variables['params']
  kernels = flax.traverse_util.ModelParamTraversal(lambda p, _: 'kernel' in p)
  biases = flax.traverse_util.ModelParamTraversal(lambda p, _: 'bias' in p)
  all_false = jax.tree_util.tree_map(lambda _: False, params)
  kernels_mask = kernels.update(lambda _: True, all_false)
  biases_mask = biases.update(lambda _: True, all_false)
  tx = optax.chain(
      optax.trace(decay=momentum),
      optax.masked(optax.scale(-learning_rate), kernels_mask),
      optax.masked(optax.scale(-learning_rate * 0.1), biases_mask),
  )
  out['masks'] = [kernels_mask, biases_mask, type(kernels_mask).__name__,
                  sorted(kernels_mask)]
  out['masked'] = fit(tx)

  # Migrate to regular dicts: the testsetup, then each utility's two sides
  x = jnp.empty((1,3))
  variables = flax.core.freeze(nn.Dense(5).init(jax.random.key(0), x))
  other_variables = jnp.array([1, 1, 1, 1, 1], dtype=jnp.float32)
  frozen = variables  # (port) each side from the same variables

  texts = []
  variables = frozen
  variables = variables.copy(add_or_replace={'other_variables': other_variables})
  texts.append(type(variables).__name__)
  state, params = variables.pop('params')
  texts += [type(state).__name__, type(params).__name__, str(state)]
  str_repr = variables.pretty_repr()
  texts.append(str_repr)
  variables = variables.unfreeze()
  texts.append(type(variables).__name__)

  for variables in (frozen, flax.core.unfreeze(frozen)):  # (port) both kinds of dict
    variables = flax.core.copy(variables, add_or_replace={'other_variables': other_variables})
    texts.append(type(variables).__name__)
    state, params = flax.core.pop(variables, 'params')
    texts += [type(state).__name__, type(params).__name__, str(state), sorted(variables)]
    str_repr = flax.core.pretty_repr(variables)
    texts.append(str_repr)
    variables = flax.core.unfreeze(variables)
    texts.append(type(variables).__name__)
  out['dicts'] = texts

  x = jnp.empty((1,3))
  flax.config.update('flax_return_frozendict', True) # set Flax to return FrozenDicts
  variables = nn.Dense(5).init(jax.random.key(0), x)
  assert isinstance(variables, flax.core.FrozenDict)
  flax.config.update('flax_return_frozendict', False) # set Flax to return regular dicts
  variables = nn.Dense(5).init(jax.random.key(0), x)
  assert isinstance(variables, dict)
  out['config'] = flax.config.flax_return_frozendict
  return out
