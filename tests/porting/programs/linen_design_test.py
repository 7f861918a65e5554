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

"""Flax's examples/linen_design_test: dense.py, linear_regression.py, mlp_inline.py,
mlp_lazy.py and autoencoder.py, verbatim, each script's top-level code in a function of its
name (`dense` names this module; linear_regression runs 5 SGD steps instead of 50); run()
returns what they printed (`print`/`pprint` into a list; arrays with four decimals,
scalars with five significant digits) and the error
autoencoder meets on JAX 0.10.2 (`jnp.prod` of a tuple). Not here: mlp_explicit.py, which
imports the removed `flax.deprecated` and, on Flax 0.12.8, fails inside Flax
(SetAttributeFrozenModuleError on its internal `_compact_name_scope_modules`)."""

import re
import sys
from pprint import pformat
from typing import Optional, Tuple
from collections.abc import Callable, Iterable

import jax
from jax import lax
from jax import numpy as jnp, jit, random
from flax import linen as nn
from flax.linen import initializers
from flax.linen import Module, compact

dense = sys.modules[__name__]
printed = []


def print(*args):
  printed.append(" ".join(map(str, args)))


def pprint(value):
  printed.append(pformat(value))


class Dense(Module):
  features: int
  kernel_init: Callable = initializers.lecun_normal()
  bias_init: Callable = initializers.zeros_init()
  use_bias: bool = True

  @compact
  def __call__(self, inputs):
    kernel = self.param(
        'kernel', self.kernel_init, (inputs.shape[-1], self.features)
    )
    y = lax.dot_general(
        inputs,
        kernel,
        (((inputs.ndim - 1,), (0,)), ((), ())),
    )
    if self.use_bias:
      bias = self.param('bias', self.bias_init, (self.features,))
      y = y + bias
    return y


def linear_regression():
  X = jnp.ones((1, 10))
  Y = jnp.ones((5,))

  model = Dense(features=5)


  @jit
  def predict(params):
    return model.apply({"params": params}, X)


  @jit
  def loss_fn(params):
    return jnp.mean(jnp.abs(Y - predict(params)))


  @jit
  def init_params(rng):
    mlp_variables = model.init({"params": rng}, X)
    return mlp_variables["params"]


  # Get initial parameters
  params = init_params(jax.random.key(42))
  print("initial params", params)

  # Run SGD.
  for i in range(5):
    loss, grad = jax.value_and_grad(loss_fn)(params)
    print(i, "loss = ", loss, "Yhat = ", predict(params))
    lr = 0.03
    params = jax.tree_util.tree_map(lambda x, d: x - lr * d, params, grad)
  return params


# Many NN layers and blocks are best described by a single function with inline variables.
# In this case, variables are initialized during the first call.
class InlineMLP(Module):
  sizes: Iterable[int]

  @compact
  def __call__(self, x):
    for size in self.sizes[:-1]:
      x = Dense(size)(x)
      x = nn.relu(x)
    return Dense(self.sizes[-1])(x)


def mlp_inline():
  rngkey = jax.random.key(10)
  model = InlineMLP((2, 1))
  x = jnp.ones((1, 3))
  mlp_variables = model.init(rngkey, x)
  print(mlp_variables)
  # {'params': {'Dense_0': {'bias': DeviceArray([0.], dtype=float32),
  #                        'kernel': DeviceArray([[-0.04267037],
  #              [-0.51097125]], dtype=float32)},
  #            'Dense_1': {'bias': DeviceArray([0., 0.], dtype=float32),
  #                        'kernel': DeviceArray([[-6.3845289e-01,  6.0373604e-01],
  #              [-5.9814966e-01,  5.1718324e-01],
  #              [-6.2220657e-01,  5.8988278e-04]], dtype=float32)}}}
  print(model.apply(mlp_variables, x))


# Here submodules are explicitly defined during init, but still materialized
# lazily only once a first input is passed through and shapes are known.
class LazyMLP(Module):

  def setup(self):
    self.dense1 = Dense(features=2)
    self.dense2 = Dense(features=1)

    # shapes aren't yet known, so variables aren't materialized
    print(self.dense2.variables)
    # FrozenDict({})

  def __call__(self, x):
    return self.dense2(nn.relu(self.dense1(x)))


def mlp_lazy():
  rngkey = jax.random.key(10)
  mlp_variables = LazyMLP().init(rngkey, jnp.zeros((1, 3)))

  pprint(mlp_variables)
  # {'params': {'dense1': {'bias': DeviceArray([0., 0.], dtype=float32),
  #                       'kernel': DeviceArray([[ 0.18307537, -0.38739476],
  #              [-0.902451  , -0.5190721 ],
  #              [ 0.51552075,  1.1169153 ]], dtype=float32)},
  #            'dense2': {'bias': DeviceArray([0.], dtype=float32),
  #                       'kernel': DeviceArray([[ 0.6704609 ],
  #              [-0.90477365]], dtype=float32)}}}


def autoencoder():
  from flax.linen import Module, Dense, compact
  # A concise MLP defined via lazy submodule initialization
  class MLP(Module):
    widths: Iterable

    @compact
    def __call__(self, x):
      for width in self.widths[:-1]:
        x = nn.relu(Dense(width)(x))
      return Dense(self.widths[-1])(x)


  # An autoencoder exposes multiple methods, so we define all
  # submodules in setup().
  class AutoEncoder(Module):
    encoder_widths: Iterable
    decoder_widths: Iterable
    input_shape: tuple = None

    def setup(self):
      # Submodules attached in `setup` get names via attribute assignment
      self.encoder = MLP(self.encoder_widths)
      self.decoder = MLP(self.decoder_widths + (jnp.prod(self.input_shape),))

    def __call__(self, x):
      return self.decode(self.encode(x))

    def encode(self, x):
      assert x.shape[-len(self.input_shape) :] == self.input_shape
      return self.encoder(jnp.reshape(x, (x.shape[0], -1)))

    def decode(self, z):
      z = self.decoder(z)
      x = nn.sigmoid(z)
      x = jnp.reshape(x, (x.shape[0],) + self.input_shape)
      return x


  # `ae` is a detached module, which has no variables.
  ae = AutoEncoder(
      encoder_widths=(32, 32, 32),
      decoder_widths=(32, 32, 32),
      input_shape=(28, 28, 1),
  )


  # `ae.initialized` returns a materialized copy of `ae` by
  # running through an input to create submodules defined lazily.
  params = ae.init({"params": random.key(42)}, jnp.ones((1, 28, 28, 1)))


  # Now you can use `ae` as a normal object, calling any methods defined on AutoEncoder
  print("reconstruct", jnp.shape(ae.apply(params, jnp.ones((1, 28, 28, 1)))))
  print(
      "encoder",
      jnp.shape(ae.apply(params, jnp.ones((1, 28, 28, 1)), method=ae.encode)),
  )


  # `ae.variables` is a frozen dict that looks like
  # {'params': {"decoder": {"Dense_0": {"bias": ..., "kernel": ...}, ...}}
  print("var shapes", jax.tree_util.tree_map(jnp.shape, params))




def run():
  with jnp.printoptions(precision=4):  # XLA's samplers differ from numbax's in a last ulp
    out = {"params": linear_regression()}
    mlp_inline()
    mlp_lazy()
    try:  # fails on JAX 0.10.2 (jnp.prod of a tuple)
      autoencoder()
    except Exception as e:  # noqa: BLE001
      out["autoencoder"] = [type(e).__name__, str(e)]
  # scalars print in full: five significant digits of those (a last ulp apart)
  out["printed"] = [re.sub(r"\d+\.\d{6,}", lambda m: f"{float(m[0]):.5g}", p) for p in printed]
  printed.clear()
  return out
