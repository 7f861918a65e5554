# Copyright 2024 DeepMind Technologies Limited. All Rights Reserved.
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

"""Optax's examples/linear_assignment_problem.ipynb: `optax.assignment.hungarian_algorithm` on
a 5x3 cost matrix from `random.key(0)`, the graph's edge labels (`f"{cost:g}"` of array
elements) and highlighted nodes and edges (`in` on arrays and on a zip of them), then optimal
transport between two point clouds (`jnp.linalg.norm` distances, fancy-indexed total). The
notebook's cells verbatim in `run()` without networkx and matplotlib (the graph's and the
plot's data kept), 20 instead of 200 points. Everything printed is captured; run() returns
each line as its text with the numbers taken out (compared exactly) and its numbers (within
float32 round-off), the graph's labels and colours, and the values the plot showed."""

from tests.porting import printed

import numpy as np

from jax import random
import optax


def run():
  out = {}
  with printed.Cells() as cells:
    _cells(out)
  out['printed'] = printed.numbered(cells.take(), columns=True)
  return out


def _cells(out):
  n = 5  # number of rows
  m = 3  # number of columns

  key = random.key(0)
  costs = random.normal(key, (n, m))
  print(costs)

  rows = [f"row {i}" for i in range(n)]
  cols = [f"col {j}" for j in range(m)]
  edges = [(rows[i], cols[j], {"cost": costs[i, j]}) for i in range(n) for j in range(m)]
  out['edge_labels'] = [f"{u} {v}: {label}" for (u, v), label in
                        {(u, v): f"{info['cost']:g}" for u, v, info in edges}.items()]

  sol_i, sol_j = optax.assignment.hungarian_algorithm(costs)
  print(sol_i, sol_j)
  out.update(costs=costs, sol_i=sol_i, sol_j=sol_j)

  out['node_color'] = (["red" if i in sol_i else "grey" for i in range(n)]
                       + ["red" if j in sol_j else "grey" for j in range(m)])
  out['edge_color'] = ["red" if (i, j) in zip(sol_i, sol_j) else "grey"
                       for i in range(n) for j in range(m)]
  _transport(out)


def _transport(out):
  import jax
  import optax
  from jax import numpy as jnp, random

  def get_optimal_transport(x, y):
      assert x.ndim == 2
      assert x.shape == y.shape
      displacements = x[:, None] - y[None, :]
      distance_matrix = jnp.linalg.norm(displacements, axis=-1)
      i, j = optax.assignment.hungarian_algorithm(distance_matrix)
      total_distance = distance_matrix[i, j].sum()
      return (i, j), total_distance

  def main():
      num_points = 20

      key = random.key(0)
      keys = random.split(key)
      x = random.normal(keys[0], (num_points, 2))
      y = random.normal(keys[1], (num_points, 2)) + jnp.array([0.2, 0.0])

      (i, j), total_distance = get_optimal_transport(x, y)

      data = jnp.stack((x[i], y[j]), 1)
      out.update(transport_i=i, transport_j=j, transport_lines=data)
      out['title'] = f"Optimal transport distance: {total_distance:g}"

  main()
