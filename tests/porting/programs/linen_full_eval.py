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


"""Flax's docs/guides/data_preprocessing/full_eval.rst ("Processing the entire Dataset"): its
evaluation loops verbatim in `run()` on eight CPU devices: the manual pad -> shard -> predict ->
unshard -> unpad loop, `flax.jax_utils.pad_shard_unpad` around a `pmap`ped `get_preds` with
`min_device_batch`, and around a `pmap`ped `eval_step` computing metrics with `psum`
(`static_argnums=(0, 1)`, `static_return=True`; what its `print` shows per compilation). The
guide leaves its model and data out: here a small `nn.Dense` classifier on 100 synthetic
examples in host batches of 32 (the last one 4 long), `ds.as_numpy_iterator()` as a list of
numpy batches, einops' `rearrange` as the `reshape` it is, `vs`/`variables` replicated
(`flax.jax_utils.replicate`) for the `pmap`s. The `tfds` cells and the "infinite padding"
loop (its `count_p`/`count_correct_p` are not given) are left out. run() returns what it
printed, the predictions and the counts."""

import builtins

import numpy as np


def run():
  import jax
  import jax.numpy as jnp
  import flax
  from flax import linen as nn

  printed = []

  def print(*args):
    builtins.print(*args)
    printed.append([str(a) for a in args])

  class Classifier(nn.Module):
    @nn.compact
    def __call__(self, x):
      return nn.Dense(10)(nn.relu(nn.Dense(16)(x.reshape(x.shape[0], -1))))

  model = Classifier()
  rs = np.random.RandomState(0)
  images = rs.rand(100, 4, 4, 1).astype(np.float32)
  labels = rs.randint(0, 10, (100,)).astype(np.int32)
  per_device_batch_size = 4
  per_host_batch_size = per_device_batch_size * jax.local_device_count()
  ds = [dict(image=images[i:i + per_host_batch_size], label=labels[i:i + per_host_batch_size])
        for i in range(0, len(images), per_host_batch_size)]
  variables = model.init(jax.random.key(0), images[:1])
  vs = flax.jax_utils.replicate(variables)
  get_preds = jax.pmap(lambda vs, images: model.apply(vs, images))
  out = {}

  # Manual implementation
  shard = lambda x: x.reshape(jax.local_device_count(), -1, *x.shape[1:])
  unshard = lambda x: x.reshape(-1, *x.shape[2:])

  correct = total = 0
  for batch in ds:
    images = batch['image']
    n = len(images)
    padding = np.zeros([per_host_batch_size - n, *images.shape[1:]], images.dtype)
    padded_images = np.concatenate([images, padding])
    preds = unshard(get_preds(vs, shard(padded_images)))[:n]
    total += n
    correct += (batch['label'] == preds.argmax(axis=-1)).sum()
  print(correct, total)
  out['manual'] = [correct, total, preds]

  # Using pad_shard_unpad()
  correct = total = 0
  for batch in ds:
    preds = flax.jax_utils.pad_shard_unpad(get_preds)(
        vs, batch['image'], min_device_batch=per_device_batch_size)
    total += len(batch['image'])
    correct += (batch['label'] == preds.argmax(axis=-1)).sum()
  print(correct, total)
  print(type(preds).__name__, preds.shape, preds.dtype)
  out['pad_shard_unpad'] = [correct, total, preds]

  # Computing metrics in eval_step()
  def eval_step(metrics, variables, batch):
    print('retrigger compilation', {k: v.shape for k, v in batch.items()})
    preds = model.apply(variables, batch['image'])
    correct = (batch['mask'] & (batch['label'] == preds.argmax(axis=-1))).sum()
    total = batch['mask'].sum()
    return dict(
        correct=metrics['correct'] + jax.lax.psum(correct, axis_name='batch'),
        total=metrics['total'] + jax.lax.psum(total, axis_name='batch'),
    )

  eval_step = jax.pmap(eval_step, axis_name='batch')
  eval_step = flax.jax_utils.pad_shard_unpad(
      eval_step, static_argnums=(0, 1), static_return=True)

  metrics = flax.jax_utils.replicate(dict(correct=jnp.int32(0), total=jnp.int32(0)))
  for batch in ds:
    batch = dict(batch, mask=np.ones(len(batch['image']), bool))
    metrics = eval_step(metrics, vs, batch)
  print(flax.jax_utils.unreplicate(metrics))
  out['eval_step'] = metrics
  out['printed'] = printed
  return out
