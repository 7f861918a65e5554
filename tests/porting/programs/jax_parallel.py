# Copyright 2026 The JAX Authors.
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


"""JAX's docs/parallel.md ("Distributed arrays and automatic parallelization", 6b6e8a2230): its
code cells verbatim in `_cells()` on eight CPU devices, a cell's last expression shown as the
notebook shows it (`_show`); run() returns what the cells printed (numbers apart) and the
errors of its `raises-exception` cells by built-in class and first line.
Covers: Explicit meshes by `set_mesh`, `jax.typeof` with shardings, `visualize_array_sharding`,
shards by device, an array unreduced over a mesh axis (`P('X', None, unreduced={'Y'})`: its
shards the summands of the value), arrays on two meshes, types' shardings inside `jit`,
sharding propagation and its errors, `auto_axes`/`explicit_axes`, Auto meshes with
`with_sharding_constraint`, a `shard_map` matmul with `psum_scatter`. Left out: a reshard onto
an abstract mesh of another shape inside `jit` (numbax's `use_abstract_mesh` changes axis types
only) and the `all-reduce(` in XLA's compiled text."""

from tests.porting import printed
from tests.porting.printed import error as _error, show as _show  # (port) the harness


def run():
  import jax
  # (port) the page sets the global mesh: restored after the run
  return printed.notebook(_cells, jax.set_mesh(jax.sharding.get_mesh()))


def _cells(out, errors, mark):
  pass  # (port) `from __future__ import annotations` dropped (inside a function)
  import enum
  mark(1)

  import jax
  import jax.numpy as jnp
  _show(jax.config.update('jax_num_cpu_devices', 8))
  mark(2)

  jax.set_mesh(jax.make_mesh((4, 2), ('X', 'Y')))  # explicit mode by default

  x = jnp.arange(8 * 4.).reshape(8, 4)
  x = jax.device_put(x, jax.P('X', 'Y'))
  print(jax.typeof(x))  # f32[8@X, 4@Y]
  mark(3)

  _show(jax.debug.visualize_array_sharding(x))
  mark(4)

  y = jnp.sin(x).T
  print(jax.typeof(y))  # f32[4@Y, 8@X]
  mark(5)

  class AbstractMesh:
    axis_sizes: tuple[int, ...]
    axis_names: tuple[str, ...]
    axis_types: 'tuple[AxisType, ...]'  # (port) quoted: annotations are evaluated inside a function

  class AxisType(enum.Enum):
    Auto = enum.auto()
    Explicit = enum.auto()
    Manual = enum.auto()

  # A concrete mesh additionally includes physical device objects with e.g.
  # precise coordinates:
  mark(6)

  import numpy as np

  class Mesh:
    devices: np.ndarray[jax.Device]
    axis_names: tuple[str, ...]
    axis_types: 'tuple[AxisType, ...]'  # (port) quoted: annotations are evaluated inside a function

    @property
    def axis_sizes(self) -> tuple[int, ...]:
      return self.devices.shape
  mark(7)

  mesh = jax.make_mesh((4, 2), ('X', 'Y'))
  print(mesh)
  mark(8)

  _show(jax.set_mesh(mesh))
  mark(9)

  # (port) left out: a jitted function resharding onto an abstract mesh of another shape,
  # `use_abstract_mesh(AbstractMesh((8,), ('A',), ...))` under the ('X', 'Y') mesh (numbax's
  # abstract meshes change axis types only: MeshShapeError)
  mark(10)

  print(x.sharding)
  _show(jax.debug.visualize_array_sharding(x))
  mark(11)

  for s in x.addressable_shards:
    print(s.device, s.data, sep='\n', end='\n\n')
  mark(12)

  y = jax.device_put(x, jax.P('Y', 'X'))
  print(y.sharding)
  _show(jax.debug.visualize_array_sharding(y))
  mark(13)

  y = jax.device_put(x, jax.P('X', None))
  print(y.sharding)
  _show(jax.debug.visualize_array_sharding(y))
  mark(14)

  for s in y.addressable_shards:
    print(s.device, s.data, sep='\n', end='\n\n')
  mark(15)

  y = jax.device_put(x, jax.P(('X', 'Y')))
  print(y.sharding)
  _show(jax.debug.visualize_array_sharding(y))
  mark(16)

  y = jax.device_put(x, jax.P('X', None, unreduced={'Y'}))
  print(y.sharding)
  mark(17)

  for s in y.addressable_shards:
    print(s.device, s.data, sep='\n', end='\n\n')
  mark(18)

  mesh2 = jax.make_mesh((8,), ('A',))
  z = jax.device_put(x, jax.NamedSharding(mesh2, jax.P('A', None)))
  print(z.sharding)
  print(y.sharding)
  mark(19)

  print(jax.typeof(x).sharding)
  mark(20)

  _show(jax.jit(lambda x: print(jax.typeof(x).sharding))(x))
  mark(21)

  arg0 = jax.device_put(np.arange(4).reshape(4, 1), jax.P("X", None))
  arg1 = jax.device_put(np.arange(8).reshape(1, 8), jax.P(None, "Y"))

  result = arg0 + arg1

  print(f"{jax.typeof(arg0)=!s}")
  print(f"{jax.typeof(arg1)=!s}")
  print(f"{jax.typeof(result)=!s}")
  mark(22)

  @jax.jit
  def add_arrays(x, y):
    ans = x + y
    print(f"{jax.typeof(arg0)=!s}")
    print(f"{jax.typeof(arg1)=!s}")
    print(f"{jax.typeof(result)=!s}")
    return ans

  _show(add_arrays(arg0, arg1))
  mark(23)

  x = jax.random.normal(jax.random.key(0), (8, 4),
                        out_sharding=jax.P('X', 'Y'))
  print(jax.typeof(x))
  mark(24)

  y = x.sum(0)
  print(jax.typeof(y))
  mark(25)

  # (port) left out: `'all-reduce(' in jax.jit(lambda x: x.sum(0)).lower(x).compile().as_text()`,
  # XLA's compiled HLO text (numbax's is the Python source of its kernel)
  mark(26)

  x = jax.device_put(jnp.arange(8 * 4.).reshape(8, 4), jax.P(None, 'X'))
  y = jax.device_put(jnp.arange(4 * 16.).reshape(4, 16), jax.P('X', None))

  try:
    jnp.dot(x, y)
  except Exception as e:
    print("ERROR!")
    print(e)
  mark(27)

  z = jnp.dot(x, y, out_sharding=jax.P('X', None))

  print(jax.typeof(z))
  mark(28)

  from jax.sharding import auto_axes, explicit_axes

  x = jax.device_put(np.arange(16).reshape(4, 4), jax.P("X", None))
  y = jax.device_put(np.arange(16).reshape(4, 4), jax.P(None, "X"))

  try:
    x + y
  except Exception as e:
    print("ERROR!")
    print(e)
  mark(29)

  @auto_axes
  def add2(x, y):
    print("We're in auto-sharding mode here. This is the current mesh:\n"
          f"{jax.sharding.get_abstract_mesh()}")
    return x + y

  result = add2(x, y, out_sharding=jax.P("X", None))
  print(f"Result type: {jax.typeof(result)}")
  mark(30)

  Auto = jax.sharding.AxisType.Auto
  auto_mesh = jax.make_mesh((4, 2), ('X', 'Y'), (Auto, Auto))
  jax.set_mesh(auto_mesh)

  x = jax.device_put(jnp.arange(8 * 4. ).reshape(8, 4 ), jax.P(None, 'X'))
  y = jax.device_put(jnp.arange(4 * 16.).reshape(4, 16), jax.P('X', None))

  z = jnp.dot(x, y)  # not an error!
  mark(31)

  print(z.sharding)  # works at the top-level only (i.e. outside `jit`)
  mark(32)

  @jax.jit
  def f(x, y):
    z = jnp.dot(x, y)
    z = jax.lax.with_sharding_constraint(z, jax.P('X', None))
    return z

  z = f(x, y)
  print(z.sharding)
  mark(33)

  @explicit_axes
  def explicit_g(y):
    print(f'mesh inside g: {jax.sharding.get_abstract_mesh()}')
    print(f'y.sharding inside g: {jax.typeof(y) = }')
    z = y * 2
    print(f'z.sharding inside g: {jax.typeof(z) = }', end='\n\n')
    return z

  @jax.jit
  def f(arr1):
    print(f'mesh inside f: {jax.sharding.get_abstract_mesh()}', end='\n\n')
    x = jnp.sin(arr1)
    z = explicit_g(x, in_sharding=jax.P("X", "Y"))
    return z + 1

  x = jax.device_put(np.arange(16).reshape(4, 4), jax.P("X", "Y"))
  _show(f(x))
  mark(34)

  jax.set_mesh(jax.make_mesh((4, 2), ('X', 'Y')))  # Explicit mode

  def compare_shardings(x):
    print(f"=== with mesh: {jax.sharding.get_abstract_mesh()} ===")
    print(f"Concrete value sharding: {x.sharding.spec}")
    print(f"Type-specified sharding: {jax.typeof(x).sharding.spec}\n")

  my_array = jnp.sin(jax.device_put(np.arange(8), jax.P("X")))
  compare_shardings(my_array)

  @auto_axes
  def check_in_auto_context(x):
    compare_shardings(x)
    return x

  _show(check_in_auto_context(my_array, out_sharding=jax.P("X")))
  mark(35)

  mesh = jax.make_mesh((4, 2), ('X', 'Y'))
  jax.set_mesh(mesh)

  x = jax.device_put(jnp.arange(8 * 4. ).reshape(8, 4 ), jax.P(None, 'X'))
  y = jax.device_put(jnp.arange(4 * 16.).reshape(4, 16), jax.P('X', None))

  @jax.shard_map(out_specs=jax.P('X', None))
  def matmul(x_shard, y_shard):
    z_summand = jnp.dot(x_shard, y_shard)
    return jax.lax.psum_scatter(z_summand, 'X', tiled=True)

  z = matmul(x, y)
  print(jax.typeof(z))

  z_ref = jnp.dot(x, y, out_sharding=jax.P('X', None))
  print(jnp.allclose(z_ref, z))
  mark(36)
