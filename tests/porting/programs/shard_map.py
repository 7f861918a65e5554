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


"""JAX's docs/notebooks/shard_map.md ("Manual parallelism with shard_map"): its code cells
verbatim in `_cells()` on eight CPU devices (Explicit meshes, `jax.set_mesh`), from "So, let's
see a `shard_map`!" to the end of the collectives tutorial, without the XLA flag cell and the
cells that print varying-axis types (`f32[3]{V:i}`), `lax.pcast`, the replication check's
error, the staged `shard_map` jaxpr and the in_specs mismatch error (numbax tracks no varying
axes and stages shard_map as vmaps); the toy examples are not included. What the cells showed
is printed: `jnp.dot(..., out_sharding=...)`, `visualize_array_sharding`'s tables, shapes and
values printed inside eager `shard_map`s (each device's block after its mesh coordinates),
the collectives' results. run() returns each printed line as its text with the numbers taken
out (compared exactly) and its numbers (compared within float32 round-off); the mesh is
restored after."""

from tests.porting import printed

def run():
  import jax
  with jax.set_mesh(jax.sharding.get_mesh()), printed.Cells(printed.numbered) as cells:
    _cells(cells.mark)
  return {'printed': cells.printed}


def _cells(mark):
  # cell 1
  from functools import partial

  import jax
  import jax.numpy as jnp

  from jax.sharding import Mesh, PartitionSpec as P
  Explicit = jax.sharding.AxisType.Explicit
  Auto = jax.sharding.AxisType.Auto
  mark(1)

  # cell 2
  mesh = jax.make_mesh((4, 2), ('x', 'y'))
  jax.set_mesh(mesh)

  a = jax.device_put(jnp.arange( 8 * 16.).reshape(8, 16), P('x', 'y'))
  b = jax.device_put(jnp.arange(16 *  4.).reshape(16, 4), P('y', None))

  @jax.shard_map(in_specs=(P('x', 'y'), P('y', None)), out_specs=P('x', None))
  def matmul_basic(a_block, b_block):
    # a_block: f32[2, 8]
    # b_block: f32[8, 4]
    c_partialsum = jnp.dot(a_block, b_block)
    c_block = jax.lax.psum(c_partialsum, 'y')
    # c_block: f32[2, 4]
    return c_block

  c = matmul_basic(a, b)   # c: f32[8, 4]
  mark(2)

  # cell 3
  from jax.tree_util import tree_map, tree_all

  def allclose(a, b):
    return tree_all(tree_map(partial(jnp.allclose, atol=1e-2, rtol=1e-2), a, b))

  print(allclose(c, jnp.dot(a, b, out_sharding=P('x', None))))
  mark(3)

  # cell 4
  jax.debug.visualize_array_sharding(c)
  mark(4)

  # cell 5
  from jax.sharding import NamedSharding

  a = jax.device_put(a, P('x', 'y'))
  b = jax.device_put(b, P('y', None))

  @jax.jit
  def matmul_reference(a, b):
    return jnp.dot(a, b, out_sharding=P('x', None))

  c_ref = matmul_reference(a, b)
  print(allclose(c_ref, jnp.dot(a, b, out_sharding=P('x', None))))
  mark(5)

  # cell 6
  print('a blocks:'); jax.debug.visualize_array_sharding(a)
  print('b blocks:'); jax.debug.visualize_array_sharding(b)
  print('c blocks:'); jax.debug.visualize_array_sharding(c)
  mark(6)

  # cell 7
  def check_vmap(f, xs):
    ans = jax.vmap(f, in_axes=(0,), out_axes=0)(xs)
    expected = jnp.stack([f(x) for x in xs])  # vmap reference semantics
    print(allclose(ans, expected))

  check_vmap(lambda x: x @ x, jnp.arange(12).reshape(4, 3))
  mark(7)

  # cell 8
  import numpy as np
  devices = np.array(jax.devices()[:4])
  mesh = Mesh(devices, ('i',))  # mesh.shape['i'] = 4
  jax.set_mesh(mesh)

  def check_shmap(f, y):
    ans = jax.shard_map(f, in_specs=P('i'), out_specs=P('i'))(y)
    expected = jnp.concatenate([f(y_blk) for y_blk in jnp.split(y, mesh.shape['i'])])
    print(allclose(ans, expected))

  check_shmap(lambda x: x.T @ x, jnp.arange(32).reshape(8, 4))
  mark(8)

  # cell 9
  mesh = jax.make_mesh((4, 2), ('i', 'j'))
  jax.set_mesh(mesh)

  @jax.shard_map(in_specs=P('i', None), out_specs=P('i', 'j'))
  def f1(x_block):
    print(x_block.shape)  # prints (3, 12)
    return x_block

  x1 = jax.device_put(jnp.arange(12 * 12).reshape(12, 12), P('i', None))
  y = f1(x1)
  mark(9)

  # cell 10
  @jax.shard_map(in_specs=P('i', 'j'), out_specs=P('i', 'j'))
  def f2(x_block):
    print(x_block.shape)
    return x_block

  x = jnp.arange(12 * 12).reshape(12, 12)
  x_ = jnp.tile(x, (1, mesh.shape['j']))  # x_ has shape (12, 24)
  x_ = jax.device_put(x, P('i', 'j'))
  y = f2(x_)  # prints (3,12), and f1(x) == f2(x_)
  mark(10)

  # cell 11
  auto_mesh = jax.make_mesh((4, 2), ('i', 'j'), (Auto, Auto))
  with jax.set_mesh(auto_mesh):
    x = jnp.array([[3.]])

    z = jax.shard_map(lambda: x, in_specs=(), out_specs=P('i', 'j'))()
    print(z)  # prints the same as jnp.tile(x, (4, 2))

    z = jax.shard_map(lambda: x, in_specs=(), out_specs=P('i', None))()
    print(z)  # prints the same as jnp.tile(x, (4, 1)), or just jnp.tile(x, (4,))

    z = jax.shard_map(lambda: x, in_specs=(), out_specs=P(None, None))()
    print(z)  # prints the same as jnp.tile(x, (1, 1)), or just x
  mark(11)

  # cell 12
  @jax.shard_map(in_specs=P('i', 'j'), out_specs=P('i', None))
  def f3(x_block):
    return jax.lax.psum(x_block, 'j')

  x = jax.device_put(jnp.arange(12 * 12).reshape(12, 12), P('i', 'j'))
  y3 = f3(x)
  print(y3.shape)
  mark(12)

  # cell 13
  @jax.shard_map(in_specs=P('i', 'j'), out_specs=P(None, 'j'))
  def f4(x_block):
    return jax.lax.psum(x_block, 'i')

  x = jax.device_put(jnp.arange(12 * 12).reshape(12, 12), P('i', 'j'))
  y4 = f4(x)
  print(y4.shape)  # (3,12)


  @jax.shard_map(in_specs=P('i', 'j'), out_specs=P(None, None))
  def f5(x_block):
    return jax.lax.psum(x_block, ('i', 'j'))

  y5 = f5(x)
  print(y5.shape)  # (3,6)
  mark(13)

  # cell 14
  mesh = jax.make_mesh((2,), ('i',))
  jax.set_mesh(mesh)

  @jax.shard_map(in_specs=P('i'), out_specs=P('i'))
  def f(x):
    print(x)
    return 2 * x

  x = jax.device_put(jnp.arange(6.), P('i'))
  print(f(x))
  mark(14)

  # cell 15
  @jax.shard_map(in_specs=P(), out_specs=P())
  def f(x):
    print(x)
    return 2 * x

  x = jnp.arange(6.)
  print(f(x))
  mark(15)

  # cell 24
  import jax
  import jax.numpy as jnp
  from jax import lax

  from jax.sharding import Mesh, PartitionSpec as P
  mark(24)

  # cell 25
  mesh1d = Mesh(jax.devices()[:4], ('i',))
  jax.set_mesh(mesh1d)

  @jax.shard_map(mesh=mesh1d, in_specs=P('i'), out_specs=P(None))
  def f1(x_block):
    print('BEFORE:\n', x_block)
    y_block = jax.lax.psum(x_block, 'i')
    print('AFTER:\n', y_block)
    return y_block
  mark(25)

  # cell 26
  x = jnp.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 1, 2])
  y = f1(x)
  print('FINAL RESULT:\n', y)
  mark(26)

  # cell 27
  mesh2d = Mesh(np.array(jax.devices()[:4]).reshape(2, 2), ('i', 'j'))
  jax.set_mesh(mesh2d)

  @jax.shard_map(mesh=mesh2d, in_specs=P('i', 'j'), out_specs=P(None, 'j'))
  def f2(x_block):
    print('BEFORE:\n', x_block)
    y_block = jax.lax.psum(x_block, 'i')
    print('AFTER:\n', y_block)
    return y_block

  y = f2(jnp.arange(16).reshape(4, 4))
  print('FINAL RESULT:\n', y)
  mark(27)

  # cell 28
  @jax.shard_map(mesh=mesh2d, in_specs=P('i', 'j'), out_specs=P(None, None))
  def f3(x_block):
    print('BEFORE:\n', x_block)
    y_block = jax.lax.psum(x_block, ('i', 'j'))
    print('AFTER:\n', y_block)
    return y_block

  y = f3(jnp.arange(16).reshape(4, 4))
  print('FINAL RESULT:\n', y)
  mark(28)

  # cell 29
  jax.set_mesh(mesh1d)

  @jax.shard_map(mesh=mesh1d, in_specs=P('i'), out_specs=P('i'))
  def f4(x_block):
    print('BEFORE:\n', x_block)
    y_block = jax.lax.all_gather(x_block, 'i', tiled=True)
    print('AFTER:\n', y_block)
    return y_block

  x = jnp.array([3, 9, 5, 2])
  y = f4(x)
  print('FINAL RESULT:\n', y)
  mark(29)

  # cell 30
  @jax.shard_map(mesh=mesh1d, in_specs=P('i'), out_specs=P('i'))
  def f5(x_block):
    print('BEFORE:\n', x_block)
    y_block = jax.lax.all_gather(x_block, 'i', tiled=False)
    print('AFTER:\n', y_block)
    return y_block

  y = f5(x)
  print('FINAL RESULT:\n', y)
  mark(30)

  # cell 31
  @jax.shard_map(in_specs=P('i'), out_specs=P('i'))
  def f6(x_block):
    print('BEFORE:\n', x_block)
    y_block = jax.lax.psum_scatter(x_block, 'i', tiled=True)
    print('AFTER:\n', y_block)
    return y_block

  x = jnp.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 1, 2])
  y = f6(x)
  print('FINAL RESULT:\n', y)
  mark(31)

  # cell 32
  @jax.shard_map(in_specs=P('i'), out_specs=P('i'))
  def f7(x_block):
    sz = jax.lax.axis_size('i')
    print('BEFORE:\n', x_block)
    y_block = jax.lax.ppermute(x_block, 'i', [(i, (i + 1) % sz) for i in range(sz)])
    print('AFTER:\n', y_block)
    return y_block

  y = f7(jnp.arange(8))
  print('FINAL RESULT:\n', y)
  mark(32)

  # cell 33
  def psum_scatter(x, axis_name, *, tiled=False):
    size = jax.lax.axis_size(axis_name)
    idx = jax.lax.axis_index(axis_name)  # function instance index along axis_name
    if tiled:
      x = x.reshape(size, -1, *x.shape[1:])  # split leading axis
    shift = partial(jax.lax.ppermute, axis_name=axis_name,
                    perm=[(i, (i - 1) % size) for i in range(size)])
    for i in range(1, size):
      update = shift(x[(idx + i) % size])
      x = x.at[(idx + i + 1) % size].add(update)
    return x[idx]
  mark(33)

  # cell 34
  @jax.shard_map(in_specs=P('i'), out_specs=P('i'))
  def f8(x_block):
    print('BEFORE:\n', x_block)
    y_block = psum_scatter(x_block, 'i', tiled=True)
    print('AFTER:\n', y_block)
    return y_block

  x = jnp.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 1, 2])
  y = f8(x)
  print('FINAL RESULT:\n', y)
  mark(34)

  # cell 35
  @jax.shard_map(mesh=mesh1d, in_specs=P('i'), out_specs=P('i'))
  def f9(x_block):
    print('BEFORE:\n', x_block)
    y_block = jax.lax.all_to_all(x_block, 'i', split_axis=0, concat_axis=0,
                                 tiled=True)
    print('AFTER:\n', y_block)
    return y_block

  x = jnp.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 1, 2])
  y = f9(x)
  print('FINAL RESULT:\n', y)
  mark(35)
