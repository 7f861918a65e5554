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


"""Flax's docs/guides/flax_fundamentals/rng_guide.md ("Randomness and PRNGs in Flax"): its
code cells verbatim in `run()` (without `jax.devices()`, the XLA flag and
`visualize_array_sharding`; a shard's index and data instead of `addressable_shards`' repr);
`print` records what the cells printed or showed (keys and arrays as their printed strings,
`FrozenDict`s as dicts); run() returns it. The configuration it sets is restored after."""

import builtins
import hashlib

import flax, flax.linen as nn
import jax, jax.numpy as jnp
from jax.sharding import Mesh, PartitionSpec, NamedSharding
from jax.experimental import mesh_utils
from jax.experimental.shard_map import shard_map


def _shown(a):
  if isinstance(a, flax.core.FrozenDict):
    a = flax.core.unfreeze(a)
  if isinstance(a, (Mesh, NamedSharding)) or getattr(a, 'dtype', None) == object or jnp.issubdtype(getattr(a, 'dtype', None) or bool,
                                                            jax.dtypes.prng_key):
    return str(a)
  return a


def run():
  printed = []

  def print(*args):
    builtins.print(*args)
    printed.append([_shown(a) for a in args])

  partitionable = jax.config.jax_threefry_partitionable
  try:
    jax.config.update('jax_threefry_partitionable', True)
    assert jax.config.jax_threefry_partitionable == True
    assert jax.config.jax_default_prng_impl == 'threefry2x32'

    class RNGModule(nn.Module):
      @nn.compact
      def __call__(self):
        print(self.make_rng('rng_stream'))
        print(self.make_rng('rng_stream'))
        print(self.make_rng('rng_stream'))

    rng_module = RNGModule()
    variables = rng_module.init({'rng_stream': jax.random.key(0)})

    variables = rng_module.init({'rng_stream': jax.random.key(1)})

    class RNGModuleTwoStreams(nn.Module):
      @nn.compact
      def __call__(self):
        # same value as first code snippet above
        print(f"rng_stream1: {self.make_rng('rng_stream1')}")
        # same value as second code snippet above
        print(f"rng_stream2: {self.make_rng('rng_stream2')}")
        # same value as first code snippet above
        print(f"rng_stream1: {self.make_rng('rng_stream1')}")
        # same value as second code snippet above
        print(f"rng_stream2: {self.make_rng('rng_stream2')}")
        # same value as first code snippet above
        print(f"rng_stream1: {self.make_rng('rng_stream1')}")
        # same value as second code snippet above
        print(f"rng_stream2: {self.make_rng('rng_stream2')}")

    rng_module_two_streams = RNGModuleTwoStreams()
    variables = rng_module_two_streams.init(
      {'rng_stream1': jax.random.key(0), 'rng_stream2': jax.random.key(1)}
    )

    variables = rng_module_two_streams.init(
      {'rng_stream1': jax.random.key(0), 'rng_stream2': jax.random.key(0)}
    )

    def produce_hash(data):
      m = hashlib.sha1()
      for x in data:
        if isinstance(x, str):
          m.update(x.encode('utf-8'))
        elif isinstance(x, int):
          m.update(x.to_bytes((x.bit_length() + 7) // 8, byteorder='big'))
        else:
          raise ValueError(f'Expected int or string, got: {x}')
      d = m.digest()
      hash_int = int.from_bytes(d[:4], byteorder='big')
      return hash_int

    stream_seed = jax.random.key(0)
    for call_count in range(1, 4):
      hash_int = produce_hash(data=(call_count,))
      print(jax.random.fold_in(stream_seed, jnp.uint32(hash_int)))

    variables = rng_module.init({'rng_stream': jax.random.key(0)})

    class RNGSubSubModule(nn.Module):
      def __call__(self):
        print(f"{self.name}, count 1: {self.make_rng('rng_stream')}")
        print(f"{self.name}, count 2: {self.make_rng('rng_stream')}")

    class RNGSubModule(nn.Module):
      @nn.compact
      def __call__(self):
        print(f"{self.name}, count 1: {self.make_rng('rng_stream')}")
        print(f"{self.name}, count 2: {self.make_rng('rng_stream')}")
        RNGSubSubModule()()

    class RNGModule(nn.Module):
      @nn.compact
      def __call__(self):
        print(f"RNGModule, count 1: {self.make_rng('rng_stream')}")
        print(f"RNGModule, count 2: {self.make_rng('rng_stream')}")
        RNGSubModule()()

    rng_module = RNGModule()
    variables = rng_module.init({'rng_stream': jax.random.key(0)})

    stream_seed = jax.random.key(0)
    for initial_data in ((), ('RNGSubModule_0',), ('RNGSubModule_0', 'RNGSubSubModule_0')):
      if initial_data:
        module_name = initial_data[-1]
      else:
        module_name = 'RNGModule'
      for call_count in (1, 2):
        hash_int = produce_hash(data=initial_data+(call_count,))
        rng_key = jax.random.fold_in(stream_seed, jnp.uint32(hash_int))
        print(f"{module_name}, count {call_count}: {rng_key}")

    class RNGSubModule(nn.Module):
      @nn.compact
      def __call__(self):
        print(f"{self.name}, count 1: {self.make_rng('rng_stream')}")
        print(f"{self.name}, count 2: {self.make_rng('rng_stream')}")

    class RNGModule(nn.Module):
      @nn.compact
      def __call__(self):
        print(f"RNGModule, count 1: {self.make_rng('rng_stream')}")
        print(f"RNGModule, count 2: {self.make_rng('rng_stream')}")
        RNGSubModule()()
        RNGSubModule()()

    rng_module = RNGModule()
    variables = rng_module.init({'rng_stream': jax.random.key(0)})

    stream_seed = jax.random.key(0)
    for initial_data in ((), ('RNGSubModule_0',), ('RNGSubModule_1',)):
      if initial_data:
        module_name = initial_data[-1]
      else:
        module_name = 'RNGModule'
      for call_count in (1, 2):
        hash_int = produce_hash(data=initial_data+(call_count,))
        rng_key = jax.random.fold_in(stream_seed, jnp.uint32(hash_int))
        print(f"{module_name}, count {call_count}: {rng_key}")

    class Model(nn.Module):
      @nn.compact
      def __call__(self, x):
        # kernel will use 'params' seed, initial data will include 'Dense_0', call count 1
        x = nn.Dense(2, kernel_init=jax.random.normal, use_bias=False)(x)
        # model_param will use 'params' seed, call count 1
        model_param = self.param('model_param', jax.random.normal, x.shape)
        # model_variable1 will use 'params' seed, call count 2
        model_variable1 = self.variable(
          'other_collection',
          'model_variable1',
          lambda: jax.random.normal(self.make_rng('params'), x.shape),
        )
        # model_variable2 will use 'other' seed, call count 1
        model_variable2 = self.variable(
          'other_collection',
          'model_variable2',
          lambda: jax.random.normal(self.make_rng('other'), x.shape),
        )
        # kernel will use 'params' seed, initial data will include 'Dense_1', call count 1
        # bias will use 'params' seed, initial data will include 'Dense_1', call count 2
        x = nn.Dense(2, kernel_init=jax.random.normal, bias_init=jax.random.normal)(
          x
        )
        return x

    model = Model()
    variables = model.init(
      {'params': jax.random.key(0), 'other': jax.random.key(1)}, jnp.ones((2, 2))
    )
    print(variables['params']['Dense_0']['kernel'])
    print(variables['params']['model_param'])
    print(variables['other_collection']['model_variable1'])
    print(variables['other_collection']['model_variable2'])
    print(variables['params']['Dense_1']['kernel'])
    print(variables['params']['Dense_1']['bias'])

    params_seed = jax.random.key(0)
    other_seed = jax.random.key(1)
    for initial_data, count, seed, shape in (
      (('Dense_0',), 1, params_seed, (2, 2)),
      ((), 1, params_seed, (2, 2)),
      ((), 2, params_seed, (2, 2)),
      ((), 1, other_seed, (2, 2)),
      (('Dense_1',), 1, params_seed, (2, 2)),
      (('Dense_1',), 2, params_seed, (1, 2)),
    ):
      hash_int = produce_hash(data=(*initial_data, count))
      rng_key = jax.random.fold_in(seed, jnp.uint32(hash_int))
      print(jax.random.normal(rng_key, shape))

    class SubModule(nn.Module):
      @nn.compact
      def __call__(self, x, train):
        # variables created using `self.param` will use `self.make_rng('params')`
        kernel = self.param('submodule_kernel', jax.random.normal, x.shape)
        x = x + kernel
        # `nn.Dropout` will use self.make_rng('dropout')
        x = nn.Dropout(0.2)(x, deterministic=not train)
        # `nn.Dense` will use self.make_rng('params')
        x = nn.Dense(3)(x)
        return x

    class Model(nn.Module):
      @nn.compact
      def __call__(self, x, train):
        # make kernel use `self.make_rng('other')`
        kernel = self.variable(
          'other_collection',
          'module_kernel',
          lambda: jax.random.normal(self.make_rng('other'), x.shape),
        )
        x = (
          x + kernel.value
        )  # `.value` will extract the underlying value of the variable
        x = SubModule()(x, train)
        # `nn.Dropout` will use self.make_rng('dropout')
        x = nn.Dropout(0.2)(x, deterministic=not train)
        # `nn.Dense` will use self.make_rng('params')
        x = nn.Dense(2)(x)
        return x

    params_rng, other_rng, train_rng = jax.random.split(jax.random.key(0), 3)
    init_rngs = {'params': params_rng, 'other': other_rng}

    x = jnp.ones((1, 3))
    y = jnp.ones((1, 2))

    module = Model()
    variables = module.init(init_rngs, x, train=False)

    def update(variables, rng):
      # we don't need to provide a 'params' or 'other' rng, as only 'dropout' rng will be used during training
      # split the rng to get a dropout_rng to be used for this training iteration,
      # and to get another rng key to be used for the next training iteration
      dropout_rng, next_rng = jax.random.split(rng)
      def loss(params):
        out = module.apply(
          {'params': params, 'other_collection': variables['other_collection']},
          x,
          train=True,
          rngs={'dropout': dropout_rng},
        )
        return jnp.mean((y - out) ** 2)
      grads = jax.grad(loss)(variables['params'])
      params = jax.tree_util.tree_map(lambda p, g: p - 1e-3 * g, variables['params'], grads)
      return {
        'params': params,
        'other_collection': variables['other_collection'],
      }, next_rng

    for _ in range(10):
      variables, train_rng = update(variables, train_rng)
      out = module.apply(variables, x, train=False)
      print(jnp.mean((y - out)**2))

    class Leaf(nn.Module):
      def __call__(self, x):
        return x + jax.random.randint(self.make_rng("rng"), (), 0, 100)

    class Node(nn.Module):
      leaf_name: str
      @nn.compact
      def __call__(self, x):
        return Leaf(name=self.leaf_name)(x)

    class Model(nn.Module):
      @nn.compact
      def __call__(self, x):
        return (Node(name="ab", leaf_name="cdef")(x),
                Node(name="abc", leaf_name="def")(x),
        )

    out1, out2 = Model().apply({}, 0, rngs={"rng": jax.random.key(33)})
    print(out1 == out2)

    print(produce_hash(data=('A', 'B', 'C', 1)))
    print(produce_hash(data=('AB', 'C', 1)))
    print(produce_hash(data=('A', 'BC', 1)))
    print(produce_hash(data=('ABC', 1)))

    flax.config.update('flax_fix_rng_separator', True)
    out1, out2 = Model().apply({}, 0, rngs={"rng": jax.random.key(33)})
    print(out1 == out2)

    # Create a mesh and annotate the axis with a name.
    device_mesh = mesh_utils.create_device_mesh((8,))
    print(device_mesh)

    mesh = Mesh(devices=device_mesh, axis_names=('data',))
    print(mesh)

    data_sharding = NamedSharding(mesh, PartitionSpec('data',))
    print(data_sharding)

    class Model(nn.Module):
      @nn.compact
      def __call__(self, x, add_noise):
        x = nn.Dense(1)(x)
        # use jnp.where for control flow; for more details see: https://jax.readthedocs.io/en/latest/errors.html#jax.errors.TracerBoolConversionError
        return jnp.where(
          add_noise, x + jax.random.normal(self.make_rng('params'), x.shape), x
        )

    module = Model()
    init_rng, apply_rng = jax.random.split(jax.random.key(0))
    x = jnp.ones((8, 1))
    variables = module.init(init_rng, x, False)

    # create custom forward function, since jit does not support kwargs when in_shardings is specified
    def forward(variables, x, add_noise, rng):
      return module.apply(variables, x, add_noise, rngs={'params': rng})

    # shard the inputs x across devices
    # replicate the variables, add_noise boolean and rng key across devices
    # shard the output across devices
    jit_forward = jax.jit(
      forward,
      in_shardings=(None, data_sharding, None, None),
      out_shardings=data_sharding,
    )
    out = jit_forward(variables, x, True, apply_rng)
    print(out)

    print([(str(s.index), s.data) for s in out.addressable_shards])

    out = jit_forward(variables, x, False, apply_rng)
    print(out)

    out = forward(variables, x, True, apply_rng)
    print(out)

    out = forward(variables, x, False, apply_rng)
    print(out)

    def forward(variables, x, add_noise, rng_key_batch):
      # rng_key_batch is a batch of size 1 containing 1 PRNG key
      # index slice into the rng_key_batch to access the PRNG key
      return module.apply(
        variables, x, add_noise, rngs={'params': rng_key_batch[0]}
      )

    # define partition specifications
    data_pspec = PartitionSpec('data')
    no_pspec = PartitionSpec()

    # shard the inputs x and rng keys across devices
    # replicate the variables and add_noise boolean across devices
    # shard the output across devices
    shmap_forward = shard_map(
      forward,
      mesh=mesh,
      in_specs=(no_pspec, data_pspec, no_pspec, data_pspec),
      out_specs=data_pspec,
    )
    # get 8 different rng's that will be used by the 8 devices when doing forward inference
    apply_rngs = jax.random.split(apply_rng, 8)
    out = shmap_forward(variables, x, True, apply_rngs)
    print(out)

    print([(str(s.index), s.data) for s in out.addressable_shards])

    x = jnp.ones((3, 2))

    BatchDense = nn.vmap(
        nn.Dense,
        in_axes=0, out_axes=0,
        variable_axes={'params': None},
        split_rngs={'params': False})

    print(BatchDense(2).init(jax.random.key(0), x))

    BatchDense = nn.vmap(
        nn.Dense,
        in_axes=0, out_axes=0,
        variable_axes={'params': 0},
        split_rngs={'params': False})

    print(BatchDense(2).init(jax.random.key(0), x))

    BatchDense = nn.vmap(
        nn.Dense,
        in_axes=0, out_axes=0,
        variable_axes={'params': 0},
        split_rngs={'params': True})

    print(BatchDense(2).init(jax.random.key(0), x))

    class Model(nn.Module):
      @nn.compact
      def __call__(self, x):
        x = nn.Dense(2)(x)
        kernel = self.variable(
          'other_collection',
          'kernel',
          lambda: jax.random.normal(self.make_rng('other'), x.shape),
        )
        return x + kernel.value

    BatchModel = nn.vmap(
      Model,
      in_axes=0,
      out_axes=0,
      variable_axes={'params': 0, 'other_collection': 0},
      split_rngs={'params': True, 'other': True},
    )

    print(BatchModel().init({'params': jax.random.key(0), 'other': jax.random.key(1)}, x))

    BatchModel = nn.vmap(
        Model,
        in_axes=0, out_axes=0,
        variable_axes={'params': 0, 'other_collection': 0},
        split_rngs={'params': True, 'other': False})

    print(BatchModel().init({'params': jax.random.key(0), 'other': jax.random.key(1)}, x))

    BatchModel = nn.vmap(
        Model,
        in_axes=0, out_axes=0,
        variable_axes={'params': 0, 'other_collection': None},
        split_rngs={'params': True, 'other': False})

    print(BatchModel().init({'params': jax.random.key(0), 'other': jax.random.key(1)}, x))

    x = jnp.ones((3, 2))

    class ResidualMLPBlock(nn.Module):
      @nn.compact
      def __call__(self, x, _):
        h = nn.Dense(features=2)(x)
        h = nn.relu(h)
        return x + h, None # return an empty carry

    ScanMLP = nn.scan(
          ResidualMLPBlock, variable_axes={'params': 0},
          variable_broadcast=False, split_rngs={'params': True},
          length=3)

    print(ScanMLP().init(jax.random.key(0), x, None))

    ScanMLP = nn.scan(
          ResidualMLPBlock, variable_axes={'params': 0},
          variable_broadcast=False, split_rngs={'params': False},
          length=3)

    print(ScanMLP().init(jax.random.key(0), x, None))
  finally:
    jax.config.update('jax_threefry_partitionable', partitionable)
    flax.config.update('flax_fix_rng_separator', False)
  return printed
