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


"""JAX's docs/notebooks/explicit-sharding.md ("Explicit sharding (a.k.a. "sharding in
types")", removed in a900877d84, "new-sharding-docs"): its code cells verbatim in `_cells()`
on eight CPU devices, without `jax.config.update('jax_num_cpu_devices', 8)` (the devices
exist before the program runs). What the cells showed is printed too (the results of
`foo(some_array)`, `add_arrays(arg0, arg1)`, the two `f(some_x)`s and
`check_in_auto_context(my_array, ...)` as a list: its `sin`s differ from XLA's in the last
bit, which changes the repr's padding), and beside "ERROR!" whether the error is a
`ShardingTypeError` (numbax raises a subclass naming the failure). The
types of `jax.typeof` with their `@X` shardings, the current meshes (`Explicit`/`Auto` per
axis, inside `auto_axes` and `explicit_axes` too), the illegally sharded addition's error, the
concrete and type-specified specs. After the notebook, the sharding rules its prose lists
(nullary ops with and without `out_sharding`, unary and binary elementwise ops, reshapes,
products, reductions and their `ShardingTypeError`s) shown with `jax.typeof`. run() returns each printed line as its text with the
numbers taken out (compared exactly) and its numbers (compared within float32 round-off); the
mesh is restored after."""

from tests.porting import printed

def run():
  import jax
  with jax.set_mesh(jax.sharding.get_mesh()), printed.Cells(printed.numbered) as cells:
    _cells(cells.mark)
  return {'printed': cells.printed}


def _cells(mark):
  # cell 1
  import jax
  import numpy as np
  import jax.numpy as jnp
  from jax.sharding import PartitionSpec as P, AxisType, get_abstract_mesh, reshard
  mark(1)

  # ## Setting up an explicit mesh
  # cell 2
  some_array = np.arange(8)
  print(f"JAX-level type of some_array: {jax.typeof(some_array)}")
  mark(2)

  # cell 3
  @jax.jit
  def foo(x):
    print(f"JAX-level type of x during tracing: {jax.typeof(x)}")
    return x + x

  print(repr(foo(some_array)))
  mark(3)

  # cell 4
  mesh = jax.make_mesh((2, 4), ("X", "Y"),
                       axis_types=(AxisType.Explicit, AxisType.Explicit))
  jax.set_mesh(mesh)

  print(f"Current mesh is: {get_abstract_mesh()}")
  mark(4)

  # cell 5
  replicated_array = np.arange(8).reshape(4, 2)
  sharded_array = reshard(replicated_array, P("X", None))

  print(f"replicated_array type: {jax.typeof(replicated_array)}")
  print(f"sharded_array type: {jax.typeof(sharded_array)}")
  mark(5)

  # cell 6
  arg0 = reshard(np.arange(4).reshape(4, 1), P("X", None))
  arg1 = reshard(np.arange(8).reshape(1, 8), P(None, "Y"))

  result = arg0 + arg1

  print(f"arg0 sharding: {jax.typeof(arg0)}")
  print(f"arg1 sharding: {jax.typeof(arg1)}")
  print(f"result sharding: {jax.typeof(result)}")
  mark(6)

  # cell 7
  @jax.jit
  def add_arrays(x, y):
    ans = x + y
    print(f"x sharding: {jax.typeof(x)}")
    print(f"y sharding: {jax.typeof(y)}")
    print(f"ans sharding: {jax.typeof(ans)}")
    return ans

  print(repr(add_arrays(arg0, arg1)))
  mark(7)

  # ## Working around unimplemented sharding rules using `auto_axes`
  # cell 8
  from jax.sharding import auto_axes, explicit_axes

  some_x = reshard(np.arange(16).reshape(4, 4), P("X", None))
  some_y = reshard(np.arange(16).reshape(4, 4), P(None, "X"))

  try:
    some_x + some_y
  except Exception as e:
    print("ERROR!", [c.__name__ for c in type(e).__mro__].count('ShardingTypeError'))
    print(e)

  print("=== try again with auto_axes ===")

  @auto_axes
  def add_with_out_sharding_kwarg(x, y):
    print(f"We're in auto-sharding mode here. This is the current mesh: {get_abstract_mesh()}")
    return x + y

  result = add_with_out_sharding_kwarg(some_x, some_y, out_sharding=P("X", None))
  print(f"Result type: {jax.typeof(result)}")
  mark(8)

  # ## Using a mixture of sharding modes
  # cell 9
  print(f"Current mesh is: {get_abstract_mesh()}")
  mark(9)

  # cell 10
  import functools

  @functools.partial(auto_axes, axes='X')
  def g(y):
    print(f'mesh inside g: {get_abstract_mesh()}')
    print(f'y.sharding inside g: {jax.typeof(y) = }', end='\n\n')
    return y * 2

  @jax.jit
  def f(arr1):
    print(f'mesh inside f: {get_abstract_mesh()}')
    x = jnp.sin(arr1)
    print(f'x.sharding: {jax.typeof(x)}', end='\n\n')

    z = g(x, out_sharding=P("X", "Y"))

    print(f'z.sharding: {jax.typeof(z)}', end="\n\n")
    return z + 1

  some_x = reshard(np.arange(16).reshape(4, 4), P("X", "Y"))
  print(repr(f(some_x)))
  mark(10)

  # cell 11
  auto_mesh = jax.make_mesh((2, 4), ("X", "Y"),
                             axis_types=(AxisType.Auto, AxisType.Auto))

  @functools.partial(explicit_axes, axes=('X', 'Y'))
  def explicit_g(y):
    print(f'mesh inside g: {get_abstract_mesh()}')
    print(f'y.sharding inside g: {jax.typeof(y) = }')
    z = y * 2
    print(f'z.sharding inside g: {jax.typeof(z) = }', end='\n\n')
    return z

  @jax.jit
  def f(arr1):
    print(f'mesh inside f: {get_abstract_mesh()}', end='\n\n')
    x = jnp.sin(arr1)

    z = explicit_g(x, in_sharding=P("X", "Y"))

    return z + 1

  with jax.set_mesh(auto_mesh):
    some_x = jax.device_put(np.arange(16).reshape(4, 4), P("X", "Y"))
    print(repr(f(some_x)))
  mark(11)

  # ## Concrete array shardings can mention `Auto` mesh axis
  # cell 12
  def compare_shardings(x):
    print(f"=== with mesh: {get_abstract_mesh()} ===")
    print(f"Concrete value sharding: {x.sharding.spec}")
    print(f"Type-specified sharding: {jax.typeof(x).sharding.spec}")

  my_array = jnp.sin(reshard(np.arange(8), P("X")))
  compare_shardings(my_array)

  @auto_axes
  def check_in_auto_context(x):
    compare_shardings(x)
    return x

  print(check_in_auto_context(my_array, out_sharding=P("X")).tolist())
  mark(12)

  # After the notebook: the sharding rules its prose lists ("Sharding rules and operations
  # with ambiguous sharding"), shown with `jax.typeof` on the notebook's Explicit mesh.
  def show(name, thunk):
    try:
      print(f"{name}: {jax.typeof(thunk())}")
    except Exception as e:
      shown = [c.__name__ for c in type(e).__mro__].count('ShardingTypeError')
      print(f"{name}: ERROR! {shown} {str(e).splitlines()[0]}")

  a = reshard(np.arange(64.).reshape(8, 8), P("X", "Y"))
  rows = reshard(np.arange(64.).reshape(8, 8), P("X", None))
  cols = reshard(np.arange(64.).reshape(8, 8), P(None, "X"))
  # nullary ops: unsharded unless out_sharding says otherwise
  show("zeros", lambda: jnp.zeros((8, 8)))
  show("zeros out_sharding", lambda: jnp.zeros((8, 8), out_sharding=P("X", None)))
  show("arange", lambda: jnp.arange(8))
  # unary elementwise ops: sharded as the input
  show("sin", lambda: jnp.sin(a))
  show("exp", lambda: jnp.exp(rows))
  # binary ops: zipped axes must agree, outer-product axes keep theirs
  show("add", lambda: a + a)
  show("add replicated", lambda: rows + jnp.ones((8, 8)))
  show("add broadcast", lambda: rows + reshard(np.arange(8.), P("Y")))
  show("add mismatch", lambda: a + reshard(np.arange(64.).reshape(8, 8), P("Y", "X")))
  show("add same axis twice", lambda: rows + cols)
  # reshape: splits and merges of sharded axes, otherwise out_sharding
  show("reshape merge", lambda: a.reshape(64))
  show("reshape split", lambda: rows.reshape(2, 4, 8))
  show("reshape singleton", lambda: rows.reshape(8, 1, 8))
  show("reshape other", lambda: a.reshape(4, 16))
  show("reshape out_sharding", lambda: jnp.reshape(a, (4, 16), out_sharding=P("X", None)))
  # dot: free axes keep their shardings, sharded contractions need out_sharding
  show("dot", lambda: rows @ reshard(np.arange(64.).reshape(8, 8), P(None, "Y")))
  show("dot sharded contraction", lambda: cols @ rows)
  show("dot out_sharding", lambda: jnp.dot(cols, rows, out_sharding=P(None, "Y")))
  show("dot same axis twice", lambda: rows @ cols)
  # reductions drop the reduced axes' shardings
  show("sum axis 0", lambda: jnp.sum(a, axis=0))
  show("max axis 1", lambda: jnp.max(a, axis=1))
  show("mean", lambda: jnp.mean(a))
  show("transpose", lambda: a.T)
  mark('rules')
