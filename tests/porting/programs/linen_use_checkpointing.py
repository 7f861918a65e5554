# Copyright 2024 The Flax Authors.
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


"""Flax's docs/guides/training_techniques/use_checkpointing.md (3e789b71): its code cells with the
legacy `flax.training.checkpoints` API verbatim in `run()`: a checkpoint of a `TrainState`
after one SGD step, a numpy config and a list of arrays saved by `save_checkpoint` (`overwrite`,
`keep=2`), restored raw (`target=None`) and into a target of fresh structures, a
`CustomTrainState` with an extra `batch_stats` field, the "Flax-with-Orbax" backend
(`flax_use_orbax_checkpointing` on: saved, restored into the custom target with
`orbax_transforms={}`), the legacy backend (off: a raw state dict completed by hand and
`serialization.from_state_dict` into the custom target). The cells of `orbax.checkpoint`'s own
API (`PyTreeCheckpointer`, `CheckpointManager`, asynchronous checkpointing) are left out, and
with them `import orbax.checkpoint` and the lines of the shared cells that call it. What each
cell showed: trees by their leaves' key paths, types and values."""

import os
os.environ["XLA_FLAGS"] = '--xla_force_host_platform_device_count=8'

from typing import Optional, Any
import shutil

import numpy as np
import jax
from jax import random, numpy as jnp

import flax
from flax import linen as nn
from flax.training import checkpoints, train_state
from flax import struct, serialization

import optax


def _shown(tree):
  """(port) A tree as the notebook showed it: its leaves' key paths, types and values."""
  paths, leaves = zip(*jax.tree_util.tree_flatten_with_path(tree)[0])
  kinds = ['jax.Array' if isinstance(leaf, jax.Array) else type(leaf).__name__ for leaf in leaves]
  return [[jax.tree_util.keystr(path) for path in paths], kinds, list(leaves)]


def run():
  out = {}

  ckpt_dir = '/tmp/flax_ckpt'

  if os.path.exists(ckpt_dir):
      shutil.rmtree(ckpt_dir)  # Remove any existing checkpoints from the last notebook run.

  # A simple model with one linear layer.
  key1, key2 = random.split(random.key(0))
  x1 = random.normal(key1, (5,))      # A simple JAX array.
  model = nn.Dense(features=3)
  variables = model.init(key2, x1)

  # Flax's TrainState is a pytree dataclass and is supported in checkpointing.
  # Define your class with `@flax.struct.dataclass` decorator to make it compatible.
  tx = optax.sgd(learning_rate=0.001)      # An Optax SGD optimizer.
  state = train_state.TrainState.create(
      apply_fn=model.apply,
      params=variables['params'],
      tx=tx)
  # Perform a simple gradient update similar to the one during a normal training workflow.
  state = state.apply_gradients(grads=jax.tree_util.tree_map(jnp.ones_like, state.params))

  # Some arbitrary nested pytree with a dictionary and a NumPy array.
  config = {'dimensions': np.array([5, 3])}

  # Bundle everything together.
  ckpt = {'model': state, 'config': config, 'data': [x1]}
  out['ckpt'] = _shown(ckpt)

  # Import Flax Checkpoints.
  from flax.training import checkpoints

  out['saved'] = checkpoints.save_checkpoint(ckpt_dir='/tmp/flax_ckpt/flax-checkpointing',
                              target=ckpt,
                              step=0,
                              overwrite=True,
                              keep=2)

  raw_restored = checkpoints.restore_checkpoint(ckpt_dir='/tmp/flax_ckpt/flax-checkpointing', target=None)
  out['raw_restored'] = _shown(raw_restored)

  empty_state = train_state.TrainState.create(
      apply_fn=model.apply,
      params=jax.tree_util.tree_map(np.zeros_like, variables['params']),  # values of the tree leaf doesn't matter
      tx=tx,
  )
  empty_config = {'dimensions': np.array([0, 0])}
  target = {'model': empty_state, 'config': empty_config, 'data': [jnp.zeros_like(x1)]}

  restored = checkpoints.restore_checkpoint(ckpt_dir='/tmp/flax_ckpt/flax-checkpointing', target=target)
  out['restored'] = _shown(restored) + [type(restored['model']).__name__,
                                        restored['model'].apply_fn == model.apply]

  class CustomTrainState(train_state.TrainState):
      batch_stats: Any = None

  custom_state = CustomTrainState.create(
      apply_fn=state.apply_fn,
      params=state.params,
      tx=state.tx,
      batch_stats=np.arange(10),
  )

  custom_ckpt = {'model': custom_state, 'config': config, 'data': [x1]}
  # Use a custom state to read the old `TrainState` checkpoint.
  custom_target = {'model': custom_state, 'config': None, 'data': [jnp.zeros_like(x1)]}

  # Save in the "Flax-with-Orbax" backend.
  flax.config.update('flax_use_orbax_checkpointing', True)
  checkpoints.save_checkpoint(ckpt_dir='/tmp/flax_ckpt/flax-checkpointing',
                              target=ckpt,
                              step=4,
                              overwrite=True,
                              keep=2)

  restored = checkpoints.restore_checkpoint('/tmp/flax_ckpt/flax-checkpointing', target=custom_target, step=4,
                                 orbax_transforms={})
  out['orbax_backend'] = _shown(restored) + [type(restored['model']).__name__]

  # Save using the legacy Flax `checkpoints` API.
  flax.config.update('flax_use_orbax_checkpointing', False)
  checkpoints.save_checkpoint(ckpt_dir='/tmp/flax_ckpt/flax-checkpointing',
                              target=ckpt,
                              step=5,
                              overwrite=True,
                              keep=2)

  # Pass no target to get a raw state dictionary first.
  raw_state_dict = checkpoints.restore_checkpoint('/tmp/flax_ckpt/flax-checkpointing', target=None, step=5)
  # Add/remove fields as needed.
  raw_state_dict['model']['batch_stats'] = np.flip(np.arange(10))
  # Restore the classes with correct target now
  restored = flax.serialization.from_state_dict(custom_target, raw_state_dict)
  out['legacy_backend'] = _shown(restored) + [type(restored['model']).__name__]

  # (port) The steps kept (keep=2) and the latest checkpoint's name.
  out['kept'] = sorted(os.listdir('/tmp/flax_ckpt/flax-checkpointing'))
  out['latest'] = checkpoints.latest_checkpoint('/tmp/flax_ckpt/flax-checkpointing')
  flax.config.update('flax_use_orbax_checkpointing', True)
  return out
