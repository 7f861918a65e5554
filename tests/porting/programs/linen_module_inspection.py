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

"""Flax's docs/api_reference/flax.linen pages `module.rst`, `inspection.rst` and
`transformations.rst`, their examples (from the docstrings of flax/linen/module.py, summary.py
and transforms.py, Flax 0.12.8): `Module.tabulate` and `nn.tabulate` with `compute_flops`/
`compute_vjp_flops` (the docstrings show the table in a comment), `depth=1` and
`show_repeated=True` on a nested model (port): what the tables say (parameter counts, FLOPs,
paths and the total, by `_summary`), not how they are drawn (Flax's is a `rich` table with
styles, numbax's plain text), `module_paths`, `path` printed inside `init`,
`bind` of an auto-encoder and `unbind` of its encoder, `nn.share_scope` both ways (a LoRA
wrapper around a given `Dense` and around its own child), `nn.map_variables` masking a
`Dense`'s kernel causally, `lazy_init` on a `ShapeDtypeStruct`, `perturb`'s gradients.
run() returns the tables, paths and printed lines, the parameters and outputs."""

import contextlib
import io
import re

import flax.linen as nn
import jax
import jax.numpy as jnp
from jax import random


def _summary(table):  # (port) what a table says, apart from how it is drawn
  text = re.sub(r'\x1b\[[0-9;]*m', '', table)
  return dict(
      counts=sorted(set(re.findall(r'\d[\d,]* \([\d.]+ [KMG]?B\)', text))),
      flops=re.findall(r'\][^\]\d]*?(\d+)\s*[│|]\s*(\d+)\s*[│|]', text),
      paths=[p for p in re.findall(r'^[│|] ([\w/]+) +[│|]', text, re.M) if p != 'path'],
      total=re.search(r'Total Parameters: .*', text).group(0).strip())


def run():
  out = {}

  # Module.tabulate / nn.tabulate
  class Foo(nn.Module):
    @nn.compact
    def __call__(self, x):
      h = nn.Dense(4)(x)
      return nn.Dense(2)(h)

  x = jnp.ones((16, 9))
  wide = {'width': 120}  # (port) not the terminal's width
  out['tabulate'] = _summary(Foo().tabulate(
      jax.random.key(0), x, compute_flops=True, compute_vjp_flops=True,
      console_kwargs=wide))
  tabulate_fn = nn.tabulate(
      Foo(), jax.random.key(0), compute_flops=True, compute_vjp_flops=True,
      console_kwargs=wide)
  out['nn_tabulate'] = _summary(tabulate_fn(x))
  out['tabulate_plain'] = _summary(
      Foo().tabulate(jax.random.key(0), x, console_kwargs=wide))

  class Block(nn.Module):  # (port) a nested model for depth and show_repeated
    @nn.compact
    def __call__(self, x, train: bool):
      x = nn.Dense(3)(x)
      x = nn.BatchNorm(use_running_average=not train)(x)
      return nn.relu(x)

  class Net(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = True):
      block = Block()
      x = block(x, train)
      x = block(x, train)
      return nn.Dense(1)(x)

  xs = jnp.ones((2, 3))
  out['tabulate_depth'] = _summary(Net().tabulate(
      jax.random.key(0), xs, depth=1, console_kwargs=wide))
  out['tabulate_repeated'] = _summary(Net().tabulate(
      jax.random.key(0), xs, show_repeated=True, console_kwargs={'width': 140}))

  # Module.module_paths
  modules = Foo().module_paths(jax.random.key(0), x)
  out['module_paths'] = {p: type(m).__name__ for p, m in modules.items()}

  # Module.path
  class SubModel(nn.Module):
    @nn.compact
    def __call__(self, x):
      print(f'SubModel path: {self.path}')
      return x

  class Model(nn.Module):
    @nn.compact
    def __call__(self, x):
      print(f'Model path: {self.path}')
      return SubModel()(x)

  printed = io.StringIO()
  with contextlib.redirect_stdout(printed):
    model = Model()
    variables = model.init(jax.random.key(0), jnp.ones((1, 2)))
  out['path_printed'] = printed.getvalue()

  # Module.bind
  class AutoEncoder(nn.Module):
    def setup(self):
      self.encoder = nn.Dense(3)
      self.decoder = nn.Dense(5)

    def __call__(self, x):
      return self.decoder(self.encoder(x))

  x = jnp.ones((16, 9))
  ae = AutoEncoder()
  variables = ae.init(jax.random.key(0), x)
  model = ae.bind(variables)
  z = model.encoder(x)
  x_reconstructed = model.decoder(z)
  out['bind'] = dict(z=z, x_reconstructed=x_reconstructed,
                     apply=ae.apply(variables, x))

  # Module.unbind
  class Encoder(nn.Module):
    @nn.compact
    def __call__(self, x):
      ...
      return nn.Dense(256)(x)

  class Decoder(nn.Module):
    @nn.compact
    def __call__(self, x):
      ...
      return nn.Dense(784)(x)

  class AutoEncoder(nn.Module):
    def setup(self):
      self.encoder = Encoder()
      self.decoder = Decoder()

    def __call__(self, x):
      return self.decoder(self.encoder(x))

  module = AutoEncoder()
  variables = module.init(jax.random.key(0), jnp.ones((1, 784)))

  # Extract the Encoder sub-Module and its variables
  encoder, encoder_vars = module.bind(variables).encoder.unbind()
  out['unbind'] = dict(
      encoder=type(encoder).__name__, scope=encoder.scope is None,
      shapes=jax.tree.map(jnp.shape, encoder_vars),
      same=bool(jnp.array_equal(encoder_vars['params']['Dense_0']['kernel'],
                                variables['params']['encoder']['Dense_0']['kernel'])),
      encoded=encoder.apply(encoder_vars, jnp.ones((1, 784)))[0, :8])

  # nn.share_scope
  class DenseLoRA(nn.Module):
    base: nn.Dense
    rank: int

    def setup(self):
      nn.share_scope(self, self.base)

    @nn.compact
    def __call__(self, x: jax.Array):
      din, dout = x.shape[-1], self.base.features
      A = self.param('A', nn.zeros_init(), (din, self.rank))
      B = self.param('B', nn.zeros_init(), (self.rank, dout))
      return self.base(x) + x @ A @ B

  class Model(nn.Module):
    @nn.compact
    def __call__(self, x: jax.Array):
      dense = nn.Dense(10) # base scope
      return DenseLoRA(dense, rank=2)(x) # reuse the base scope

  model = Model()

  params = model.init(random.key(0), jnp.ones((1, 5)))['params']
  out['share_scope_base'] = dict(
      keys=list(params['Dense_0'].keys()), top=list(params.keys()),
      y=model.apply({'params': params}, jnp.ones((1, 5))))

  class DenseLoRA(nn.Module):
    features: int
    rank: int

    def setup(self):
      self.child = nn.Dense(self.features)
      nn.share_scope(self, self.child)

    @nn.compact
    def __call__(self, x: jax.Array):
      din, dout = x.shape[-1], self.features
      A = self.param('A', nn.zeros_init(), (din, self.rank))
      B = self.param('B', nn.zeros_init(), (self.rank, dout))
      return self.child(x) + x @ A @ B

  class Model(nn.Module):
    @nn.compact
    def __call__(self, x: jax.Array):
      return DenseLoRA(10, rank=2)(x)

  model = Model()

  params = model.init(random.key(0), jnp.ones((1, 5)))['params']
  out['share_scope_child'] = dict(
      keys=list(params['DenseLoRA_0'].keys()), top=list(params.keys()),
      y=model.apply({'params': params}, jnp.ones((1, 5))))

  # nn.map_variables
  class CausalDense(nn.Module):
    '''A dense layer that masks the weights such that the output is
    causal, i.e. output i only depends on input <= i.
    '''
    features: int

    def apply_mask(self, variables):
      return (jax.tree_util.tree_map(jnp.triu, variables)
              if not self.is_initializing() else variables)

    def setup(self):
      # temporary class
      _CausalDense = nn.map_variables(
        nn.Dense, 'params', self.apply_mask, init=self.is_initializing())
      self.dense = _CausalDense(features=self.features, use_bias=False)

    def __call__(self, x):
      return self.dense(x)

  module = CausalDense(features=5)
  variables = module.init(jax.random.key(0), jnp.ones((1, 5)))
  eye = jnp.eye(5)
  out['map_variables'] = dict(
      variables=variables, y=module.apply(variables, eye),
      jacobian=jax.jacobian(lambda v: module.apply(variables, v[None])[0])(jnp.ones(5)))

  # Module.lazy_init
  model = nn.Dense(features=256)
  variables = model.lazy_init(
      jax.random.key(0), jax.ShapeDtypeStruct((1, 128), jnp.float32))
  out['lazy_init'] = dict(
      variables=variables,
      same=bool(jnp.array_equal(
          variables['params']['kernel'],
          model.init(jax.random.key(0), jnp.ones((1, 128)))['params']['kernel'])))

  # Module.perturb
  class Foo(nn.Module):
    @nn.compact
    def __call__(self, x):
      x = nn.Dense(3)(x)
      x = self.perturb('dense3', x)
      return nn.Dense(2)(x)

  def loss(variables, inputs, targets):
    preds = model.apply(variables, inputs)
    return jnp.square(preds - targets).mean()

  x = jnp.ones((2, 9))
  y = jnp.ones((2, 2))
  model = Foo()
  variables = model.init(jax.random.key(0), x)
  intm_grads = jax.grad(loss, argnums=0)(variables, x, y)
  no_perturbations = jax.grad(loss, argnums=0)({'params': variables['params']}, x, y)
  out['perturb'] = dict(
      dense3=intm_grads['perturbations']['dense3'],
      printed=str(intm_grads['perturbations']['dense3']),
      apply=model.apply(variables, x),
      no_op=model.apply({'params': variables['params']}, x),
      absent='perturbations' not in no_perturbations)
  return out
