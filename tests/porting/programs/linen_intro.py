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


"""Flax's docs/linen_intro.md ("Preface"): its code cells verbatim in `run()` (without the
install cell): `Dense` init/apply, setup and compact MLPs, parameters by `lax.dot_general`
declared inline and in `setup`, a `has_variable` counter, `Dropout` + `BatchNorm` with
`flax.core.pop`, and the lifted `nn.jit`, `nn.remat`, `nn.vmap` (multi-head attention over
heads and batch) and `nn.scan` (an `LSTMCell` over time). Everything printed is captured per
cell; what a cell showed without printing (its last expression) is printed too. run()
returns each printed line as its text with the numbers taken out (compared exactly) and its
numbers (compared within float32 round-off), and the cells' outputs as arrays."""

from tests.porting import printed


def run():
  out = {}
  with printed.Cells(lambda text: printed.numbered(text, columns=True)) as cells:
    _cells(out, cells.mark)
    cells.mark('end')
  out['printed'] = cells.printed
  return out


def _cells(out, mark):
  import functools
  from typing import Any, Callable, Sequence, Optional
  import jax
  from jax import lax, random, numpy as jnp
  import flax
  from flax import linen as nn

  # # Invoking Modules
  model = nn.Dense(features=3)

  # Make RNG Keys and a fake input.
  key1, key2 = random.split(random.key(0), 2)
  x = random.uniform(key1, (4,4))

  # provide key and fake input to get initialized variables
  init_variables = model.init(key2, x)

  print(init_variables)
  mark('dense init')
  out['dense init'] = init_variables

  y = model.apply(init_variables, x)
  print(y)
  mark('dense apply')
  out['dense apply'] = y

  # ## Composing submodules
  class ExplicitMLP(nn.Module):
    features: Sequence[int]

    def setup(self):
      # we automatically know what to do with lists, dicts of submodules
      self.layers = [nn.Dense(feat) for feat in self.features]
      # for single submodules, we would just write:
      # self.layer1 = nn.Dense(feat1)

    def __call__(self, inputs):
      x = inputs
      for i, lyr in enumerate(self.layers):
        x = lyr(x)
        if i != len(self.layers) - 1:
          x = nn.relu(x)
      return x

  key1, key2 = random.split(random.key(0), 2)
  x = random.uniform(key1, (4,4))

  model = ExplicitMLP(features=[3,4,5])
  init_variables = model.init(key2, x)
  y = model.apply(init_variables, x)

  print('initialized parameter shapes:\n', jax.tree_util.tree_map(jnp.shape, flax.core.unfreeze(init_variables)))
  print('output:\n', y)
  mark('ExplicitMLP')
  out['ExplicitMLP'] = y

  class SimpleMLP(nn.Module):
    features: Sequence[int]

    @nn.compact
    def __call__(self, inputs):
      x = inputs
      for i, feat in enumerate(self.features):
        x = nn.Dense(feat, name=f'layers_{i}')(x)
        if i != len(self.features) - 1:
          x = nn.relu(x)
        # providing a name is optional though!
        # the default autonames would be "Dense_0", "Dense_1", ...
        # x = nn.Dense(feat)(x)
      return x

  key1, key2 = random.split(random.key(0), 2)
  x = random.uniform(key1, (4,4))

  model = SimpleMLP(features=[3,4,5])
  init_variables = model.init(key2, x)
  y = model.apply(init_variables, x)

  print('initialized parameter shapes:\n', jax.tree_util.tree_map(jnp.shape, flax.core.unfreeze(init_variables)))
  print('output:\n', y)
  mark('SimpleMLP')
  out['SimpleMLP'] = y

  # ## Declaring and using variables
  class SimpleDense(nn.Module):
    features: int
    kernel_init: Callable = nn.initializers.lecun_normal()
    bias_init: Callable = nn.initializers.zeros_init()

    @nn.compact
    def __call__(self, inputs):
      kernel = self.param('kernel',
                          self.kernel_init,  # RNG passed implicitly.
                          (inputs.shape[-1], self.features))  # shape info.
      y = lax.dot_general(inputs, kernel,
                          (((inputs.ndim - 1,), (0,)), ((), ())),)
      bias = self.param('bias', self.bias_init, (self.features,))
      y = y + bias
      return y

  key1, key2 = random.split(random.key(0), 2)
  x = random.uniform(key1, (4,4))

  model = SimpleDense(features=3)
  init_variables = model.init(key2, x)
  y = model.apply(init_variables, x)

  print('initialized parameters:\n', init_variables)
  print('output:\n', y)
  mark('SimpleDense')
  out['SimpleDense'] = y

  class ExplicitDense(nn.Module):
    features_in: int  # <-- explicit input shape
    features: int
    kernel_init: Callable = nn.initializers.lecun_normal()
    bias_init: Callable = nn.initializers.zeros_init()

    def setup(self):
      self.kernel = self.param('kernel',
                               self.kernel_init,
                               (self.features_in, self.features))
      self.bias = self.param('bias', self.bias_init, (self.features,))

    def __call__(self, inputs):
      y = lax.dot_general(inputs, self.kernel,
                          (((inputs.ndim - 1,), (0,)), ((), ())),)
      y = y + self.bias
      return y

  key1, key2 = random.split(random.key(0), 2)
  x = random.uniform(key1, (4,4))

  model = ExplicitDense(features_in=4, features=3)
  init_variables = model.init(key2, x)
  y = model.apply(init_variables, x)

  print('initialized parameters:\n', init_variables)
  print('output:\n', y)
  mark('ExplicitDense')
  out['ExplicitDense'] = y

  # ## General Variables
  class Counter(nn.Module):
    @nn.compact
    def __call__(self):
      # easy pattern to detect if we're initializing
      is_initialized = self.has_variable('counter', 'count')
      counter = self.variable('counter', 'count', lambda: jnp.zeros((), jnp.int32))
      if is_initialized:
        counter.value += 1
      return counter.value


  key1 = random.key(0)

  model = Counter()
  init_variables = model.init(key1)
  print('initialized variables:\n', init_variables)

  y, mutated_variables = model.apply(init_variables, mutable=['counter'])

  print('mutated variables:\n', mutated_variables)
  print('output:\n', y)
  mark('Counter')
  out['Counter'] = y

  # ## Another Mutability and RNGs Example
  class Block(nn.Module):
    features: int
    training: bool
    @nn.compact
    def __call__(self, inputs):
      x = nn.Dense(self.features)(inputs)
      x = nn.Dropout(rate=0.5)(x, deterministic=not self.training)
      x = nn.BatchNorm(use_running_average=not self.training)(x)
      return x

  key1, key2, key3, key4 = random.split(random.key(0), 4)
  x = random.uniform(key1, (3,4,4))

  model = Block(features=3, training=True)

  init_variables = model.init({'params': key2, 'dropout': key3}, x)
  _, init_params = flax.core.pop(init_variables, 'params')

  # When calling `apply` with mutable kinds, returns a pair of output,
  # mutated_variables.
  y, mutated_variables = model.apply(
      init_variables, x, rngs={'dropout': key4}, mutable=['batch_stats'])

  # Now we reassemble the full variables from the updates (in a real training
  # loop, with the updated params from an optimizer).
  updated_variables = flax.core.freeze(dict(params=init_params,
                                            **mutated_variables))

  print('updated variables:\n', updated_variables)
  print('initialized variable shapes:\n',
        jax.tree_util.tree_map(jnp.shape, init_variables))
  print('output:\n', y)
  out['Block train'] = y

  # Let's run these model variables during "evaluation":
  eval_model = Block(features=3, training=False)
  y = eval_model.apply(updated_variables, x)  # Nothing mutable; single return value.
  print('eval output:\n', y)
  mark('Block')
  out['Block eval'] = y

  # # JAX transformations inside modules
  # ## JIT
  class MLP(nn.Module):
    features: Sequence[int]

    @nn.compact
    def __call__(self, inputs):
      x = inputs
      for i, feat in enumerate(self.features):
        # JIT the Module (it's __call__ fn by default.)
        x = nn.jit(nn.Dense)(feat, name=f'layers_{i}')(x)
        if i != len(self.features) - 1:
          x = nn.relu(x)
      return x

  key1, key2 = random.split(random.key(3), 2)
  x = random.uniform(key1, (4,4))

  model = MLP(features=[3,4,5])
  init_variables = model.init(key2, x)
  y = model.apply(init_variables, x)

  print('initialized parameter shapes:\n', jax.tree_util.tree_map(jnp.shape, flax.core.unfreeze(init_variables)))
  print('output:\n', y)
  mark('jit')
  out['jit'] = y

  # ## Remat
  class RematMLP(nn.Module):
    features: Sequence[int]
    # For all transforms, we can annotate a method, or wrap an existing
    # Module class. Here we annotate the method.
    @nn.remat
    @nn.compact
    def __call__(self, inputs):
      x = inputs
      for i, feat in enumerate(self.features):
        x = nn.Dense(feat, name=f'layers_{i}')(x)
        if i != len(self.features) - 1:
          x = nn.relu(x)
      return x

  key1, key2 = random.split(random.key(3), 2)
  x = random.uniform(key1, (4,4))

  model = RematMLP(features=[3,4,5])
  init_variables = model.init(key2, x)
  y = model.apply(init_variables, x)

  print('initialized parameter shapes:\n', jax.tree_util.tree_map(jnp.shape, flax.core.unfreeze(init_variables)))
  print('output:\n', y)
  mark('remat')
  out['remat'] = y

  # ## Vmap
  class RawDotProductAttention(nn.Module):
    attn_dropout_rate: float = 0.1
    train: bool = False

    @nn.compact
    def __call__(self, query, key, value, bias=None, dtype=jnp.float32):
      assert key.ndim == query.ndim
      assert key.ndim == value.ndim

      n = query.ndim
      attn_weights = lax.dot_general(
          query, key,
          (((n-1,), (n - 1,)), ((), ())))
      if bias is not None:
        attn_weights += bias
      norm_dims = tuple(range(attn_weights.ndim // 2, attn_weights.ndim))
      attn_weights = jax.nn.softmax(attn_weights, axis=norm_dims)
      attn_weights = nn.Dropout(self.attn_dropout_rate)(attn_weights,
                                                        deterministic=not self.train)
      attn_weights = attn_weights.astype(dtype)

      contract_dims = (
          tuple(range(n - 1, attn_weights.ndim)),
          tuple(range(0, n  - 1)))
      y = lax.dot_general(
          attn_weights, value,
          (contract_dims, ((), ())))
      return y

  class DotProductAttention(nn.Module):
    qkv_features: Optional[int] = None
    out_features: Optional[int] = None
    train: bool = False

    @nn.compact
    def __call__(self, inputs_q, inputs_kv, bias=None, dtype=jnp.float32):
      qkv_features = self.qkv_features or inputs_q.shape[-1]
      out_features = self.out_features or inputs_q.shape[-1]

      QKVDense = functools.partial(
        nn.Dense, features=qkv_features, use_bias=False, dtype=dtype)
      query = QKVDense(name='query')(inputs_q)
      key = QKVDense(name='key')(inputs_kv)
      value = QKVDense(name='value')(inputs_kv)

      y = RawDotProductAttention(train=self.train)(
          query, key, value, bias=bias, dtype=dtype)

      y = nn.Dense(features=out_features, dtype=dtype, name='out')(y)
      return y

  class MultiHeadDotProductAttention(nn.Module):
    qkv_features: Optional[int] = None
    out_features: Optional[int] = None
    batch_axes: Sequence[int] = (0,)
    num_heads: int = 1
    broadcast_dropout: bool = False
    train: bool = False
    @nn.compact
    def __call__(self, inputs_q, inputs_kv, bias=None, dtype=jnp.float32):
      qkv_features = self.qkv_features or inputs_q.shape[-1]
      out_features = self.out_features or inputs_q.shape[-1]

      # Make multiheaded attention from single-headed dimension.
      Attn = nn.vmap(DotProductAttention,
                     in_axes=(None, None, None),
                     out_axes=2,
                     axis_size=self.num_heads,
                     variable_axes={'params': 0},
                     split_rngs={'params': True,
                                 'dropout': not self.broadcast_dropout})

      # Vmap across batch dimensions.
      for axis in reversed(sorted(self.batch_axes)):
        Attn = nn.vmap(Attn,
                       in_axes=(axis, axis, axis),
                       out_axes=axis,
                       variable_axes={'params': None},
                       split_rngs={'params': False, 'dropout': False})

      # Run the vmap'd class on inputs.
      y = Attn(qkv_features=qkv_features // self.num_heads,
               out_features=out_features,
               train=self.train,
               name='attention')(inputs_q, inputs_kv, bias)

      return y.mean(axis=-2)


  key1, key2, key3, key4 = random.split(random.key(0), 4)
  x = random.uniform(key1, (3, 13, 64))

  model = functools.partial(
    MultiHeadDotProductAttention,
    broadcast_dropout=False,
    num_heads=2,
    batch_axes=(0,))

  init_variables = model(train=False).init({'params': key2}, x, x)
  print('initialized parameter shapes:\n', jax.tree_util.tree_map(jnp.shape, flax.core.unfreeze(init_variables)))

  y = model(train=True).apply(init_variables, x, x, rngs={'dropout': key4})
  print('output:\n', y.shape)
  mark('vmap')
  out['vmap'] = y
  out['vmap params'] = init_variables

  # ## Scan
  class SimpleScan(nn.Module):
    features: int

    @nn.compact
    def __call__(self, xs):
      LSTM = nn.scan(nn.LSTMCell,
                     in_axes=1, out_axes=1,
                     variable_broadcast='params',
                     split_rngs={'params': False})
      lstm = LSTM(self.features, name="lstm_cell")

      dummy_rng = random.key(0)
      input_shape = xs[:, 0].shape
      init_carry = lstm.initialize_carry(dummy_rng, input_shape)

      return lstm(init_carry, xs)

  key1, key2 = random.split(random.key(0), 2)
  xs = random.uniform(key1, (1, 5, 2))

  model = SimpleScan(2)
  init_variables = model.init(key2, xs)

  print('initialized parameter shapes:\n', jax.tree_util.tree_map(jnp.shape, flax.core.unfreeze(init_variables)))

  y = model.apply(init_variables, xs)
  print('output:\n', y)
  mark('scan')
  out['scan'] = y
