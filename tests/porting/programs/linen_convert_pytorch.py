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


"""Flax's docs/guides/converting_and_upgrading/convert_pytorch_to_flax.rst ("Convert PyTorch
models to Flax"): its Flax code verbatim in `run()`, with PyTorch's weights as seeded numpy
arrays in PyTorch's layouts (`t_fc.weight` [outC, inC], `t_conv.weight` [outC, inC, kH, kW],
`ConvTranspose2d`'s [inC, outC, kH, kW], BatchNorm's weight/bias/running statistics) in place
of the `torch` modules, and without the comparisons with PyTorch's outputs (no `torch` at run
time): the transposed kernels loaded into `nn.Dense`, `nn.Conv` with 'valid' padding, a conv +
fc model transposing to NCHW before flattening, `nn.BatchNorm(use_running_average=True)`,
average pooling without the padding through `nn.pool`, and `nn.ConvTranspose` with
`transpose_kernel=True`. run() returns the Flax outputs."""

import numpy as np


def run():
  import jax
  from jax import random, numpy as jnp
  import flax

  from flax import linen as nn

  rs = np.random.RandomState(0)
  out = {}

  # FC Layers
  kernel = rs.uniform(-0.5, 0.5, (4, 3)).astype(np.float32)  # t_fc.weight
  bias = rs.uniform(-0.5, 0.5, (4,)).astype(np.float32)  # t_fc.bias

  # [outC, inC] -> [inC, outC]
  kernel = jnp.transpose(kernel, (1, 0))

  key = random.key(0)
  x = random.normal(key, (1, 3))

  variables = {'params': {'kernel': kernel, 'bias': bias}}
  j_fc = nn.Dense(features=4)
  j_out = j_fc.apply(variables, x)
  out['fc'] = j_out

  # Convolutions
  kernel = rs.uniform(-0.3, 0.3, (4, 3, 2, 2)).astype(np.float32)  # t_conv.weight
  bias = rs.uniform(-0.3, 0.3, (4,)).astype(np.float32)  # t_conv.bias

  # [outC, inC, kH, kW] -> [kH, kW, inC, outC]
  kernel = jnp.transpose(kernel, (2, 3, 1, 0))

  key = random.key(0)
  x = random.normal(key, (1, 6, 6, 3))

  variables = {'params': {'kernel': kernel, 'bias': bias}}
  j_conv = nn.Conv(features=4, kernel_size=(2, 2), padding='valid')
  j_out = j_conv.apply(variables, x)
  out['conv'] = j_out

  # Convolutions and FC Layers
  class JModel(nn.Module):

    @nn.compact
    def __call__(self, x):
      x = nn.Conv(features=4, kernel_size=(2, 2), padding='valid', name='conv')(x)
      # [N, H, W, C] -> [N, C, H, W]
      x = jnp.transpose(x, (0, 3, 1, 2))
      x = jnp.reshape(x, (x.shape[0], -1))
      x = nn.Dense(features=2, name='fc')(x)
      return x


  j_model = JModel()

  state_dict = {  # t_model.state_dict()
      'conv.weight': rs.uniform(-0.3, 0.3, (4, 3, 2, 2)).astype(np.float32),
      'conv.bias': rs.uniform(-0.3, 0.3, (4,)).astype(np.float32),
      'fc.weight': rs.uniform(-0.1, 0.1, (2, 100)).astype(np.float32),
      'fc.bias': rs.uniform(-0.1, 0.1, (2,)).astype(np.float32),
  }
  conv_kernel = state_dict['conv.weight']
  conv_bias = state_dict['conv.bias']
  fc_kernel = state_dict['fc.weight']
  fc_bias = state_dict['fc.bias']

  # [outC, inC, kH, kW] -> [kH, kW, inC, outC]
  conv_kernel = jnp.transpose(conv_kernel, (2, 3, 1, 0))

  # [outC, inC] -> [inC, outC]
  fc_kernel = jnp.transpose(fc_kernel, (1, 0))

  variables = {'params': {'conv': {'kernel': conv_kernel, 'bias': conv_bias},
                          'fc': {'kernel': fc_kernel, 'bias': fc_bias}}}

  key = random.key(0)
  x = random.normal(key, (1, 6, 6, 3))

  j_out = j_model.apply(variables, x)
  out['conv and fc'] = j_out

  # Batch Norm
  scale = rs.uniform(0.5, 1.5, (3,)).astype(np.float32)  # t_bn.weight
  bias = rs.uniform(-0.5, 0.5, (3,)).astype(np.float32)  # t_bn.bias
  mean = rs.uniform(-0.5, 0.5, (3,)).astype(np.float32)  # t_bn.running_mean
  var = rs.uniform(0.5, 1.5, (3,)).astype(np.float32)  # t_bn.running_var

  variables = {'params': {'scale': scale, 'bias': bias},
               'batch_stats': {'mean': mean, 'var': var}}

  key = random.key(0)
  x = random.normal(key, (1, 6, 6, 3))

  j_bn = nn.BatchNorm(momentum=0.9, use_running_average=True)

  j_out = j_bn.apply(variables, x)
  out['batch norm'] = j_out

  # Average Pooling
  def avg_pool(inputs, window_shape, strides=None, padding='VALID'):
    """
    Pools the input by taking the average over a window.
    In comparison to nn.avg_pool(), this pooling operation does not
    consider the padded zero's for the average computation.
    """
    assert len(window_shape) == 2

    y = nn.pool(inputs, 0., jax.lax.add, window_shape, strides, padding)
    counts = nn.pool(jnp.ones_like(inputs), 0., jax.lax.add, window_shape, strides, padding)
    y = y / counts
    return y


  key = random.key(0)
  x = random.normal(key, (1, 6, 6, 3))

  j_out = avg_pool(x, window_shape=(2, 2), strides=(1, 1), padding=((1, 1), (1, 1)))
  out['avg pool'] = j_out
  out['nn.avg_pool'] = nn.avg_pool(x, window_shape=(2, 2), strides=(1, 1),
                                   padding=((1, 1), (1, 1)))
  out['nn.avg_pool count_include_pad=False'] = nn.avg_pool(
      x, window_shape=(2, 2), strides=(1, 1), padding=((1, 1), (1, 1)),
      count_include_pad=False)

  # Transposed Convolutions
  # padding is inverted
  torch_padding = 0
  flax_padding = 1 - torch_padding

  kernel = rs.uniform(-0.3, 0.3, (3, 4, 2, 2)).astype(np.float32)  # t_conv.weight
  bias = rs.uniform(-0.3, 0.3, (4,)).astype(np.float32)  # t_conv.bias

  # [inC, outC, kH, kW] -> [kH, kW, outC, inC]
  kernel = jnp.transpose(kernel, (2, 3, 1, 0))

  key = random.key(0)
  x = random.normal(key, (1, 6, 6, 3))

  variables = {'params': {'kernel': kernel, 'bias': bias}}
  # ConvTranspose expects the kernel to be [kH, kW, inC, outC],
  # but with `transpose_kernel=True`, it expects [kH, kW, outC, inC] instead
  j_conv = nn.ConvTranspose(features=4, kernel_size=(2, 2), padding=flax_padding, transpose_kernel=True)
  j_out = j_conv.apply(variables, x)
  out['conv transpose'] = j_out
  return out
