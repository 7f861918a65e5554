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


"""Flax's docs/developer_notes/module_lifecycle.rst ("The Flax Module lifecycle") and
docs/developer_notes/lift.md ("Lifted transformations"): their code verbatim in `run()`,
hidden test cells included. `init` as `apply({}, mutable=True)`, `nn.init` of a function of a
module, an unbound module's missing `setup` attribute, the module that "will break" (run
through the hidden cell's `init_fn`) and the closure over a module that a lifted `nn.vmap`
cannot take; a detached `MLP(parent=None)` vmapped by
hand with `jax.vmap(mlp.init)`, `nn.vmap` of a module and of one with `BatchNorm` (the note's
call without `train=`, then with `train=False` and `train=True`). Left out: the
closure's fix, a `flax.struct.PyTreeNode` holding a module passed to the `nn.vmap`ped method
(numbax's lifted transforms do not lift modules inside a method's arguments), the
`AutoEncoder(...)` placeholder and `lift.pack`'s `lift_transpose` (numbax has no
`flax.core.lift.pack` nor `flax.core.nn`). Everything printed is captured per cell (a Flax
error as its class name: numbax's messages name the fix; another error as its built-in class
and first line); run() returns each printed line as its text with the
numbers taken out (compared exactly) and its numbers (compared within float32 round-off), and
the cells' arrays."""

import re

from tests.porting import printed

def _error(e):
  """A Flax error as the most general `flax.errors` class it is (below `FlaxError`) by name;
  another as its built-in class's name and its first line, without this module's name and
  objects' addresses."""
  import flax
  mro = type(e).__mro__
  named = [c for c in mro if getattr(flax.errors, c.__name__, None) is c]
  named = [c for c in named if c is not flax.errors.FlaxError]
  if named:
    return named[-1].__name__
  builtin = next(c for c in mro if c.__module__ == 'builtins')
  line = str(e).splitlines()[0].replace(f'{__name__}.', '')
  return f"{builtin.__name__}: {re.sub(' at 0x[0-9a-f]+', ' at 0x...', line)}"


def run():
  out = {}
  with printed.Cells(lambda text: printed.numbered(text, columns=True)) as cells:
    _lifecycle(out, cells.mark)
    _lift(out, cells.mark)
    cells.mark('end')
  out['printed'] = cells.printed
  return out


def _lifecycle(out, mark):
  from typing import Any, Callable, Iterable
  import flax
  from flax import linen as nn
  from jax import random
  import jax

  class MLP(nn.Module):
    # 1. Attribute annotations
    hidden_size: int
    out_size: int

    # 2. The ``setup`` method
    def setup(self):
      self.hidden = nn.Dense(self.hidden_size)
      self.out = nn.Dense(self.out_size)

    # 3. User methods
    def __call__(self, x):
      a = self.hidden(x)
      h = nn.relu(a)
      return self.out(h)

  mlp = MLP(hidden_size=5, out_size=3)
  x = jax.numpy.ones((1, 2))
  variables = mlp.init(random.key(0), x)
  y = mlp.apply(variables, x)
  out['MLP'] = [variables, y]

  # equivalent to: variables = mlp.init(random.key(0), x)
  _, variables = mlp.apply({}, x, rngs={"params": random.key(0)}, mutable=True)
  out['apply as init'] = [_, variables]
  print(jax.tree_util.tree_map(jax.numpy.shape, variables))
  print(mlp.hidden_size, mlp.out_size)
  mark('MLP')

  class CompactMLP(nn.Module):
    hidden_size: int
    out_size: int

    @nn.compact
    def __call__(self, x):
      a = nn.Dense(self.hidden_size)(x)
      h = nn.relu(a)
      return nn.Dense(self.out_size)(h)

  class CompactScaledMLP(nn.Module):
    hidden_size: int
    out_size: int

    @nn.compact
    def __call__(self, x):
      scale = self.param("scale", nn.initializers.ones_init(), x.shape[-1:])
      x *= scale[None]
      a = nn.Dense(self.hidden_size)(x)
      h = nn.relu(a)
      return nn.Dense(self.out_size)(h)

  mdl = CompactScaledMLP(hidden_size=4, out_size=5)
  x = jax.numpy.ones((3, 2))
  vars = mdl.init(random.key(0), x)
  assert vars["params"]["scale"].shape == (2,)
  out['CompactScaledMLP'] = vars
  print(jax.tree_util.tree_map(jax.numpy.shape, vars))
  mark('compact')

  class WrongModule(nn.Module):
    @nn.compact
    def __call__(self, x, mode):
      if mode == "encode":
        return nn.Dense(features=8)(x)
      elif mode == "decode":
        return nn.Dense(features=4)(x)

  class CorrectModule(nn.Module):
    @nn.compact
    def __call__(self, x, mode):
      encoder = nn.Dense(8)
      decoder = nn.Dense(4)
      if mode == "encode":
        return encoder(x)
      elif mode == "decode":
        return decoder(x)

  def init_fn(mdl):
    x = jax.numpy.ones((3, 2))
    z = mdl(x, "encode")
    return mdl(z, "decode")

  mdl = CorrectModule()
  vars = nn.init(init_fn, mdl)(random.key(0))
  assert vars["params"]["Dense_0"]["kernel"].shape == (2, 8)
  assert vars["params"]["Dense_1"]["kernel"].shape == (8, 4)
  out['CorrectModule'] = vars
  print(jax.tree_util.tree_map(jax.numpy.shape, vars))

  try:
    nn.init(init_fn, WrongModule())(random.key(0))
  except Exception as e:
    print(_error(e))
  mark('control flow')

  class TopLevelAccess(nn.Module):

    def setup(self):
      self.foo = nn.Dense(2)

  mdl = TopLevelAccess()
  assert not hasattr(mdl, "foo")  # foo is not defined because setup is not called
  print(hasattr(mdl, "foo"))
  mark('top level')

  class Foo(nn.Module):
    @nn.compact
    def __call__(self, x):
      dense = nn.Dense(x.shape[-1])
      fn = lambda x: dense(x) + 1
      # simply calling inner works fine
      # return self.inner(x, fn)
      # but applying a transformation doesn't:
      vmap_inner = nn.vmap(Foo.inner, in_axes=0, variable_axes={"params": 0}, split_rngs={"params": True})
      return vmap_inner(self, x, fn)

    def inner(self, x, fn):
      for i in range(3):
        x = fn(x)
      return x

  x = jax.numpy.ones((3, 2))
  try:
    Foo().init(random.key(0), x)
  except Exception as e:
    print(_error(e))
  mark('closure')


def _lift(out, mark):
  import jax
  from jax import random, numpy as jnp
  from flax import linen as nn

  class MLP(nn.Module):
    @nn.compact
    def __call__(self, xs):
      h = nn.Dense(4, name='hidden')(xs)
      h = nn.relu(h)
      return nn.Dense(1, name='out')(h)

  class NaiveVmapMLP(nn.Module):
    @nn.compact
    def __call__(self, xs):
      mlp = MLP()
      return jax.vmap(lambda mlp, x: mlp(x))(mlp, xs)  # fails

  xs = jnp.ones((3, 4))
  try:
    NaiveVmapMLP().init(random.key(0), xs)
  except Exception as e:
    print(_error(e))
  mark('naive vmap')

  class ManualVmapMLP(nn.Module):
    @nn.compact
    def __call__(self, xs):
      mlp = MLP(parent=None)
      init_fn = lambda rng, xs: jax.vmap(mlp.init, in_axes=0)(random.split(rng, xs.shape[0]), xs)['params']
      apply_fn = jax.vmap(mlp.apply, in_axes=0)
      mlp_params = self.param('mlp', init_fn, xs)
      return apply_fn({'params': mlp_params}, xs)

  xs = jnp.ones((3, 4))
  variables = ManualVmapMLP().init(random.key(0), xs)
  print(jax.tree_util.tree_map(jnp.shape, variables['params']))
  out['ManualVmapMLP'] = [variables, ManualVmapMLP().apply(variables, xs)]
  mark('manual vmap')

  class LinenVmapMLP(nn.Module):
    @nn.compact
    def __call__(self, xs):
      VmapMLP = nn.vmap(MLP, variable_axes={'params': 0}, split_rngs={'params': True}, in_axes=0)
      return VmapMLP(name='mlp')(xs)

  variables = LinenVmapMLP().init(random.key(0), xs)
  print(jax.tree_util.tree_map(jnp.shape, variables['params']))
  out['LinenVmapMLP'] = [variables, LinenVmapMLP().apply(variables, xs)]
  mark('nn.vmap')

  class StatefulMLP(nn.Module):
    @nn.compact
    def __call__(self, x, *, train):
      h = nn.Dense(4, name='hidden')(x)
      h = nn.BatchNorm(axis_name='batch')(h, use_running_average=not train)
      h = nn.relu(h)
      return nn.Dense(1, name='out')(h)

  class LinenStatefulVmapMLP(nn.Module):
    @nn.compact
    def __call__(self, xs, *, train):
      VmapMLP = nn.vmap(StatefulMLP, variable_axes={'params': 0, 'batch_stats': 0}, split_rngs={'params': True}, in_axes=0)
      return VmapMLP(name='mlp')(xs, train=train)
  try:
    variables = LinenStatefulVmapMLP().init(random.key(0), xs)
  except Exception as e:
    print(_error(e))

  for train in (False, True):
    try:
      variables = LinenStatefulVmapMLP().init(random.key(0), xs, train=train)
      print(train, jax.tree_util.tree_map(jnp.shape, variables))
      out[f'LinenStatefulVmapMLP train={train}'] = variables
    except Exception as e:
      print(train, _error(e))
  mark('stateful nn.vmap')
