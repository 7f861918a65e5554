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


"""JAX's docs/new_docs/201/placement.md ("JAX 201: Placement", 0f1cbf0f64): its code cells
verbatim in `_cells()` on eight CPU devices, a cell's last expression shown as the notebook
shows it (`_show`); run() returns what the cells printed (numbers apart) and the errors of its
`raises-exception` cells by built-in class and first line.
Covers: meshes over subsets of the devices, commitment, computing on arrays committed to
different meshes (JAX's error), moving between meshes and device orders, `device_put` inside
`jit` to other devices (JAX's error)."""

from tests.porting import printed
from tests.porting.printed import error as _error, show as _show  # (port) the harness


def run():
  return printed.notebook(_cells)


def _cells(out, errors, mark):
  import jax

  jax.config.update('jax_num_cpu_devices', 8)

  import jax.numpy as jnp
  import numpy as np
  from jax.sharding import NamedSharding
  mark(1)

  full = jax.make_mesh((8,), ('x',))
  _show(full)
  mark(2)

  mesh_a = jax.make_mesh((4,), ('x',), devices=full.devices[:4])
  mesh_b = jax.make_mesh((4,), ('x',), devices=full.devices[4:])

  m0 = jax.make_mesh((1,), ('x',), devices=full.devices[:1])
  m1 = jax.make_mesh((1,), ('x',), devices=full.devices[1:2])
  mark(3)

  x = jnp.arange(4.0)
  print(x.committed)
  print(x.sharding)
  mark(4)

  data = np.arange(8.0)
  xa = jax.device_put(data, NamedSharding(mesh_a, jax.P('x')))
  print(xa.committed)
  print(jax.typeof(xa))
  mark(5)

  try:
    a = jax.device_put(1.0, NamedSharding(m0, jax.P()))
    b = jax.device_put(2.0, NamedSharding(m1, jax.P()))

    _show(a + b)  # committed to different meshes!
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(6)

  c = jnp.float32(3.0)   # uncommitted
  print((a + c).sharding)  # runs on m0, where `a` is committed
  mark(7)

  xb = jax.device_put(xa, NamedSharding(mesh_b, jax.P('x')))
  print(xb.sharding.mesh == mesh_b)
  mark(8)

  mesh_rev = jax.make_mesh((8,), ('x',), devices=full.devices[::-1])

  x = jax.device_put(np.arange(8.0), NamedSharding(full, jax.P('x')))
  y = jax.device_put(x, NamedSharding(mesh_rev, jax.P('x')))  # same devices, new order

  def data_by_device(arr):
    return [float(s.data[0]) for s in sorted(arr.addressable_shards,
                                             key=lambda s: s.device.id)]

  print(data_by_device(x))  # what each of devices 0, 1, ..., 7 holds
  print(data_by_device(y))
  mark(9)

  try:
    @jax.jit
    def f(x):
      return jax.device_put(x, NamedSharding(mesh_b, jax.P('x')))

    _show(f(xa))  # error: can't move to a different mesh inside jit!
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(10)

  stage_meshes = [jax.make_mesh((2,), ('x',), devices=full.devices[2*i:2*i+2])
                  for i in range(4)]

  @jax.jit
  def stage(x):
    return jnp.sin(x) + 1.0   # stand-in for real per-stage computation

  microbatches = [np.full((256, 256), float(i)) for i in range(8)]

  results = []
  for mb in microbatches:
    for m in stage_meshes:
      mb = jax.device_put(mb, NamedSharding(m, jax.P('x')))
      mb = stage(mb)
    results.append(mb)

  print(results[-1].sharding.mesh == stage_meshes[-1])
  mark(11)
