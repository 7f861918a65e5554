# Copyright 2023 The JAX Authors.
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

"""JAX's docs/notebooks/shard_map.md ("Manual parallelism with shard_map", 56ab698017), its
"Toy examples" section (left out of `shard_map.py`): its code cells verbatim in `_cells()` on
eight CPU devices (`jax.set_mesh` as a global setter, restored after), with the names the
notebook imported in earlier cells (`partial`, `lax`, `NamedSharding`, `tree_map`/`tree_all`).
Covers: matrix multiplies by `all_gather` on one side, by `ppermute` rings overlapping
communication (one- and two-directional, `dynamic_slice_in_dim` blocks, `axis_index`/`axis_size`)
and by `psum_scatter` (plain and overlapped), each under `jit` against `lhs @ rhs`; an MLP's
loss and gradients with 8-way batch data parallelism (`pmean`), FSDP (`all_gather` of weight
fragments under `remat` with a policy on the primitive's name), tensor parallelism
(`psum_scatter` with `scatter_dimension=1`), FSDP + TP on a 4x2 mesh, and the SPMD pipeline
over 2 stages of `ppermute`s. run() returns what the cells printed (numbers apart) and the
products, losses and the data-parallel, FSDP, FSDP + TP and pipeline gradients."""

from tests.porting import printed


def run():
  import jax
  return printed.notebook(_cells, jax.set_mesh(jax.sharding.get_mesh()))


def _cells(out, errors, mark):
  # (port) the names the notebook's earlier cells imported
  from functools import partial
  from jax import lax
  from jax.sharding import NamedSharding
  from jax.tree_util import tree_map, tree_all

  import jax
  import jax.numpy as jnp

  from jax.sharding import Mesh, PartitionSpec as P

  mesh = Mesh(jax.devices()[:4], ('i',))
  jax.set_mesh(mesh)

  def device_put(x, pspec):
    return jax.device_put(x, NamedSharding(mesh, pspec))

  lhs_spec = P('i', None)
  lhs = device_put(jax.random.normal(jax.random.key(0), (8, 8)), lhs_spec)

  rhs_spec = P('i', None)
  rhs = device_put(jax.random.normal(jax.random.key(1), (8, 4)), rhs_spec)

  @jax.jit
  @jax.shard_map(in_specs=(lhs_spec, rhs_spec),
                 out_specs=rhs_spec)
  def matmul_allgather(lhs_block, rhs_block):
    rhs = jax.lax.all_gather(rhs_block, 'i', tiled=True)
    return lhs_block @ rhs

  out_ = matmul_allgather(lhs, rhs)
  print(jnp.allclose(out_, lhs @ rhs, atol=1e-3, rtol=1e-3))
  out['allgather'] = out_
  mark(6)

  @jax.jit
  @jax.shard_map(in_specs=(lhs_spec, rhs_spec),
                 out_specs=rhs_spec)
  def matmul_allgather_overlapped(lhs_block, rhs_block):
    size = jax.lax.axis_size('i')
    idx = jax.lax.axis_index('i')
    shift = partial(jax.lax.ppermute, axis_name='i',
                    perm=[(i, (i + 1) % size) for i in range(size)])

    B = lhs_block.shape[1] // size
    lhs_blocks = lambda i: lax.dynamic_slice_in_dim(lhs_block, i * B, B, 1)

    out_block = lhs_blocks(idx) @ rhs_block
    for i in range(1, size):
      rhs_block = shift(rhs_block)
      out_block += lhs_blocks((idx - i) % size) @ rhs_block
    return out_block

  out_ = matmul_allgather_overlapped(lhs, rhs)
  print(jnp.allclose(out_, lhs @ rhs, atol=1e-3, rtol=1e-3))
  out['allgather_overlapped'] = out_
  mark(8)

  @jax.jit
  @jax.shard_map(in_specs=(lhs_spec, rhs_spec),
                 out_specs=rhs_spec)
  def matmul_allgather_overlapped_bidi(lhs_block, rhs_block):
    size = jax.lax.axis_size('i')
    idx = jax.lax.axis_index('i')
    shift_up = partial(jax.lax.ppermute, axis_name='i',
                       perm=[(i, (i + 1) % size) for i in range(size)])
    shift_dn = partial(jax.lax.ppermute, axis_name='i',
                       perm=[(i, (i - 1) % size) for i in range(size)])

    B = lhs_block.shape[1] // size // 2  # half-size blocks
    lhs_blocks = lambda i, hi: lax.dynamic_slice_in_dim(lhs_block, (2*i+hi) * B, B, 1)

    def block_matmul(rhs_lo, rhs_hi, i_lo, i_hi):
      lhs_lo = jnp.pad(lhs_blocks(i_lo, 0), [(0, 0), (0, B)])
      lhs_hi = jnp.pad(lhs_blocks(i_hi, 1), [(0, 0), (B, 0)])
      rhs_lo = jnp.pad(rhs_lo, [(0, B), (0, 0)])
      rhs_hi = jnp.pad(rhs_hi, [(B, 0), (0, 0)])
      return (lhs_lo + lhs_hi) @ (rhs_lo + rhs_hi)

    rhs_block_lo, rhs_block_hi = jnp.split(rhs_block, 2, axis=0)
    out_block = block_matmul(rhs_block_lo, rhs_block_hi, idx, idx)
    for i in range(1, size):
      rhs_block_lo = shift_up(rhs_block_lo)
      rhs_block_hi = shift_dn(rhs_block_hi)
      out_block += block_matmul(rhs_block_lo, rhs_block_hi,
                                (idx - i) % size, (idx + i) % size)
    return out_block

  out_ = matmul_allgather_overlapped_bidi(lhs, rhs)
  print(jnp.allclose(out_, lhs @ rhs, atol=1e-3, rtol=1e-3))
  out['allgather_overlapped_bidi'] = out_
  mark(10)

  lhs_spec = P(None, 'i')
  lhs = device_put(lhs, lhs_spec)

  rhs_spec = P('i', None)
  rhs = device_put(rhs, rhs_spec)

  @jax.shard_map(in_specs=(lhs_spec, rhs_spec),
                 out_specs=rhs_spec)
  def matmul_psumscatter(lhs_block, rhs_block):
    out_summand = lhs_block @ rhs_block
    return jax.lax.psum_scatter(out_summand, 'i', tiled=True)

  out_ = matmul_psumscatter(lhs, rhs)
  print(jnp.allclose(out_, lhs @ rhs, atol=1e-3, rtol=1e-3))
  out['psumscatter'] = out_
  mark(12)

  @jax.shard_map(in_specs=(lhs_spec, rhs_spec),
                 out_specs=rhs_spec)
  def matmul_psumscatter_overlapped(lhs_block, rhs_block):
    size = jax.lax.axis_size('i')
    idx = jax.lax.axis_index('i')
    shift = partial(jax.lax.ppermute, axis_name='i',
                    perm=[(i, (i - 1) % size) for i in range(size)])
    lhs_block = lhs_block.reshape(size, -1, lhs_block.shape[1])  # split 1st axis

    out_summand = lhs_block[(idx + 1) % size] @ rhs_block
    for i in range(1, size):
      out_summand = shift(out_summand)
      out_summand += lhs_block[(idx + i + 1) % size] @ rhs_block
    return out_summand

  out_ = matmul_psumscatter_overlapped(lhs, rhs)
  print(jnp.allclose(out_, lhs @ rhs, atol=1e-3, rtol=1e-3))
  out['psumscatter_overlapped'] = out_
  mark(14)

  @jax.shard_map(in_specs=(lhs_spec, rhs_spec),
                 out_specs=rhs_spec)
  def matmul_psumscatter_overlapped_bidi(lhs_block, rhs_block):
    size = jax.lax.axis_size('i')
    idx = jax.lax.axis_index('i')
    shift_up = partial(jax.lax.ppermute, axis_name='i',
                       perm=[(i, (i + 1) % size) for i in range(size)])
    shift_dn = partial(jax.lax.ppermute, axis_name='i',
                       perm=[(i, (i - 1) % size) for i in range(size)])

    B = lhs_block.shape[0] // size // 2  # half-size blocks
    lhs_blocks = lambda i, hi: lax.dynamic_slice_in_dim(lhs_block, (2*i+hi) * B, B, 0)

    out_summand_lo = lhs_blocks((idx - 1) % size, 0) @ rhs_block
    out_summand_hi = lhs_blocks((idx + 1) % size, 1) @ rhs_block
    for i in range(1, size):
      out_summand_lo = shift_up(out_summand_lo)
      out_summand_hi = shift_dn(out_summand_hi)
      out_summand_lo += lhs_blocks((idx - i - 1) % size, 0) @ rhs_block
      out_summand_hi += lhs_blocks((idx + i + 1) % size, 1) @ rhs_block
    return jnp.concatenate([out_summand_lo, out_summand_hi])

  out_ = matmul_psumscatter_overlapped_bidi(lhs, rhs)
  print(jnp.allclose(out_, lhs @ rhs, atol=1e-3, rtol=1e-3))
  out['psumscatter_overlapped_bidi'] = out_
  mark(16)

  import jax
  import jax.numpy as jnp

  def predict(params, inputs):
    for W, b in params:
      outputs = jnp.dot(inputs, W) + b
      inputs = jax.nn.relu(outputs)
    return outputs

  def loss(params, batch):
    inputs, targets = batch
    predictions = predict(params, inputs)
    return jnp.mean(jnp.sum((predictions - targets) ** 2, axis=-1))

  def init_layer(key, n_in, n_out):
    k1, k2 = jax.random.split(key)
    W = jax.random.normal(k1, (n_in, n_out)) / jnp.sqrt(n_in)
    b = jax.random.normal(k2, (n_out,))
    return W, b

  def init(key, layer_sizes, batch_size):
    key, *keys = jax.random.split(key, len(layer_sizes))
    params = list(map(init_layer, keys, layer_sizes[:-1], layer_sizes[1:]))

    key, *keys = jax.random.split(key, 3)
    inputs = jax.random.normal(keys[0], (batch_size, layer_sizes[0]))
    targets = jax.random.normal(keys[1], (batch_size, layer_sizes[-1]))

    return params, (inputs, targets)

  layer_sizes = [784, 128, 128, 128, 128, 128, 8]
  batch_size = 32

  params, batch = init(jax.random.key(0), layer_sizes, batch_size)

  from jax.sharding import Mesh, PartitionSpec as P

  mesh = jax.make_mesh((8,), ('batch',))
  jax.set_mesh(mesh)

  # replicate initial params on all devices, shard data batch over devices
  batch = jax.device_put(batch, NamedSharding(mesh, P('batch')))
  params = jax.device_put(params, NamedSharding(mesh, P()))

  # adapt the loss function to sum the losses across devices
  @jax.shard_map(out_specs=P())
  def loss_dp(params, local_batch):
    inputs, targets = local_batch
    predictions = predict(params, inputs)  # use reference 'predict`
    local_loss = jnp.mean(jnp.sum((predictions - targets)**2, axis=-1))
    return jax.lax.pmean(local_loss, 'batch')

  print(jax.jit(loss)(params, batch))
  print(jax.jit(loss_dp)(params, batch))
  mark(21)

  def allclose(a, b):
    return tree_all(tree_map(partial(jnp.allclose, atol=1e-2, rtol=1e-2), a, b))

  print(allclose(jax.jit(jax.grad(loss))(params, batch),
                 jax.jit(jax.grad(loss_dp))(params, batch)))
  out['grad_dp'] = jax.jit(jax.grad(loss_dp))(params, batch)
  mark(22)

  # shard data batch *and params* over devices
  mesh = jax.make_mesh((4,), ('batch',))
  jax.set_mesh(mesh)
  batch = jax.device_put(batch, P('batch'))
  params = jax.device_put(params, P('batch'))

  # adapt the prediction function to gather weights just before their use,
  # and to re-gather them on the backward pass (rather than saving them)
  @partial(jax.remat, policy=lambda op, *_, **__: str(op) != 'all_gather')
  def predict_fsdp(params_frag, inputs):
    for W_frag, b_frag in params_frag:
      W = jax.lax.all_gather(W_frag, 'batch', tiled=True)
      b = jax.lax.all_gather(b_frag, 'batch', tiled=True)
      outputs = jnp.dot(inputs, W) + b
      inputs = jax.nn.relu(outputs)
    return outputs

  @jax.shard_map(out_specs=P())
  def loss_fsdp(local_params, local_batch):
    inputs, targets = local_batch
    predictions = predict_fsdp(local_params, inputs)
    local_loss = jnp.mean(jnp.sum((predictions - targets) ** 2, axis=-1))
    return jax.lax.pmean(local_loss, 'batch')

  repl_params = jax.device_put(params, P())
  repl_batch = jax.device_put(batch, P())
  print(jax.jit(loss)(repl_params, repl_batch))
  print(jax.jit(loss_fsdp)(params, batch))

  print(allclose(jax.jit(jax.grad(loss))(repl_params, repl_batch),
                 jax.jit(jax.grad(loss_fsdp))(params, batch)))
  out['grad_fsdp'] = jax.jit(jax.grad(loss_fsdp))(params, batch)
  mark(24)

  mesh = jax.make_mesh((8,), ('feats',))
  jax.set_mesh(mesh)

  batch = jax.device_put(batch, NamedSharding(mesh, P(None, 'feats')))
  params = jax.device_put(params, NamedSharding(mesh, P('feats')))

  def predict_tp(params, inputs):
    for W, b in params:
      outputs = gemm_tp(inputs, W, b)
      inputs = jax.nn.relu(outputs)
    return outputs

  @jax.shard_map(in_specs=(P(None, 'feats'), P('feats', None), P('feats')),
                 out_specs=P(None, 'feats'))
  def gemm_tp(inputs, W, b):
    block_result = jnp.dot(inputs, W)
    return jax.lax.psum_scatter(block_result, 'feats',
                                scatter_dimension=1, tiled=True) + b

  def loss_tp(params, batch):
    inputs, targets = batch
    predictions = predict_tp(params, inputs)
    return jnp.mean(jnp.sum((predictions - targets) ** 2, axis=-1))  # NOTE psum!

  out['loss_tp'] = jax.jit(loss_tp)(params, batch)  # (port) the page defines it only

  mesh = jax.make_mesh((4, 2), ('batch', 'feats'))
  jax.set_mesh(mesh)

  batch = jax.device_put(batch, NamedSharding(mesh, P('batch', 'feats')))
  params = jax.device_put(params, NamedSharding(mesh, P(('feats', 'batch'))))

  # mostly same as previous predict_fsdp definition, except we call gemm_tp
  @partial(jax.remat, policy=lambda op, *_, **__: str(op) != 'all_gather')
  def predict_fsdp_tp(params_frag, inputs):
    for W_frag, b_frag in params_frag:
      W = jax.lax.all_gather(W_frag, 'batch', tiled=True)
      b = jax.lax.all_gather(b_frag, 'batch', tiled=True)
      block_result = jnp.dot(inputs, W)
      outputs = jax.lax.psum_scatter(block_result, 'feats',
                                     scatter_dimension=1, tiled=True) + b
      inputs = jax.nn.relu(outputs)
    return outputs

  @jax.shard_map(in_specs=(P(('feats', 'batch')), P('batch', 'feats')),
                 out_specs=P())
  def loss_fsdp_tp(local_params, local_batch):
    inputs, targets = local_batch
    predictions = predict_fsdp_tp(local_params, inputs)
    sq_err = jax.lax.psum(jnp.sum((predictions - targets) ** 2, axis=-1), 'feats')
    return jax.lax.pmean(jnp.mean(sq_err), 'batch')

  repl_params = jax.device_put(params, P())
  repl_batch = jax.device_put(batch, P())
  print(jax.jit(loss)(repl_params, repl_batch))
  print(jax.jit(loss_fsdp_tp)(params, batch))

  print(allclose(jax.jit(jax.grad(loss))(repl_params, repl_batch),
                 jax.jit(jax.grad(loss_fsdp_tp))(params, batch)))
  out['grad_fsdp_tp'] = jax.jit(jax.grad(loss_fsdp_tp))(params, batch)
  mark(27)

  L = len(params) - 2        # num layers, excluding first and last
  N = batch_size             # batch size
  F = params[0][0].shape[1]  # num features

  # choose some pipeline parameters
  S = 2      # number of stages
  B = 8      # size of each microbatch
  assert L % S == 0, "S (number of stages) must divide L (number of inner layers)"

  # compute some useful quantities
  M, ragged = divmod(N, B)  # M is number of microbatches
  assert not ragged, "B (size of each microbatch) must divide total batch size"
  K, ragged = divmod(M, S)  # K is microbatches per stage
  assert not ragged, "S (number of stages) must divide number of microbatches"
  print(f'{S} stages, {L // S} layer(s) per stage, {L} pipelined layers total')
  print(f'{B} examples per microbatch, {M} microbatches total')
  mark(28)

  mesh = Mesh(jax.devices()[:S], ('stages',))

  def predict_pp(params, inputs):
    (W_first, b_first), inner_params, (W_last, b_last) = params
    inputs = jax.nn.relu(jnp.dot(inputs, W_first) + b_first)
    inputs = spmd_pipeline(lambda Wb, x: jax.nn.relu(x @ Wb[0] + Wb[1]),
                          inner_params, inputs)
    outputs = jnp.dot(inputs, W_last) + b_last
    return outputs

  @jax.shard_map(in_specs=((P(), P('stages'), P()), P('stages')), out_specs=P())
  def loss_pp(params, batch):
    inputs, targets = batch
    predictions = predict_pp(params, inputs.reshape(K, B, -1)).reshape(K * B, -1)
    local_loss = jnp.mean(jnp.sum((predictions - targets)**2, axis=-1))
    return jax.lax.pmean(local_loss, 'stages')

  def spmd_pipeline(fn, stage_params, inputs):
    stage = jax.lax.axis_index('stages')
    outputs = jnp.zeros_like(inputs) * jnp.nan
    state = jnp.zeros((L // S, B, F)) * jnp.nan
    for i in range(M+L-1):
      state = state.at[0].set(jnp.where(stage == 0, inputs[i % K], state[0]))
      state = jax.vmap(fn)(stage_params, state)
      outputs = outputs.at[(i-L+1) % K].set(jnp.where(stage == S-1, state[-1], outputs[(i-L+1) % K]))
      state, inputs, outputs = shift(i, state, inputs, outputs)
    outputs = jax.lax.ppermute(outputs, 'stages', [(i, (i+1) % S) for i in range(S)])
    return outputs

  def shift(i, state, inputs, outputs):
    sh = lambda x, d: jax.lax.ppermute(x, 'stages', [(i, (i+d) % S) for i in range(S)])
    state = jnp.roll(state, +1, axis=0).at[0].set(sh(state[-1], +1))
    if (i % K) == (-1 % K):
      inputs = sh(inputs, +1)
    if ((i-L+1) % K) == (-1 % K):
      outputs = sh(outputs, +1)
    return state, inputs, outputs

  first_params, *inner_params, last_params = params
  Ws, bs = zip(*inner_params)
  params_stacked = jnp.stack(Ws), jnp.stack(bs)
  first_params = jax.device_put(first_params, NamedSharding(mesh, P()))
  params_stacked = jax.device_put(params_stacked, NamedSharding(mesh, P('stages')))
  last_params = jax.device_put(last_params, NamedSharding(mesh, P()))
  params_ = first_params, params_stacked, last_params

  batch_ = jax.device_put(batch, NamedSharding(mesh, P('stages')))

  jax.set_mesh(mesh)
  print(jax.jit(loss_pp)(params_, batch_))
  mark(32)

  _ = jax.jit(jax.grad(loss_pp))(params_, batch_)   # don't crash
  out['grad_pp'] = _
