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


"""JAX's docs/new_docs/101/pytrees.md ("JAX 101: Pytrees", 0f1cbf0f64): its code cells verbatim in
`_cells()` on eight CPU devices, a cell's last expression shown as the notebook shows it
(`_show`); run() returns what the cells printed (numbers apart) and the errors of its `raises-
exception` cells by built-in class and first line.
Covers: leaves, `tree.map` over several trees, an MLP's parameters updated by `grad` and
`tree.map`, key paths, custom nodes, the gotchas (a non-leaf object, `None`, mixed dictionary
keys' error). The page's unseeded numpy parameters and data seeded."""

from tests.porting import printed
from tests.porting.printed import error as _error, show as _show  # (port) the harness


def run():
  return printed.notebook(_cells)


def _cells(out, errors, mark):
  import jax
  import jax.numpy as jnp

  example_trees = [
      [1, 'a', object()],
      (1, (2, 3), ()),
      [1, {'k1': 2, 'k2': (3, 4)}, 5],
      {'a': 2, 'b': (2, 3)},
      jnp.array([1, 2, 3]),
  ]

  # Print how many leaves the pytrees have.
  for pytree in example_trees:
    leaves = jax.tree.leaves(pytree)
    print(f"{repr(pytree):<45} has {len(leaves)} leaves: {leaves}")
  mark(1)

  params = {'W': jnp.zeros((2, 3)), 'b': jnp.zeros(3)}

  leaves, treedef = jax.tree.flatten(params)
  print(leaves)
  print(treedef)
  print(jax.tree.unflatten(treedef, leaves))
  mark(2)

  list_of_lists = [
      [1, 2, 3],
      [1, 2],
      [1, 2, 3, 4]
  ]

  _show(jax.tree.map(lambda x: x * 2, list_of_lists))
  mark(3)

  another_list_of_lists = list_of_lists
  _show(jax.tree.map(lambda x, y: x + y, list_of_lists, another_list_of_lists))
  mark(4)

  def loss(params, x):
    pred = jnp.dot(x, params['W']) + params['b']
    return jnp.sum(pred ** 2)

  params = {'W': jnp.ones(3), 'b': 0.5}
  x = jnp.array([[1., 2., 3.],
                 [4., 5., 6.]])

  _show(jax.grad(loss)(params, x))
  mark(5)

  import numpy as np

  np.random.seed(0)  # (port) the page's unseeded parameters and data seeded

  def init_mlp_params(layer_widths):
    params = []
    for n_in, n_out in zip(layer_widths[:-1], layer_widths[1:]):
      params.append(
          dict(weights=np.random.normal(size=(n_in, n_out)) * np.sqrt(2/n_in),
               biases=np.ones(shape=(n_out,)))
      )
    return params

  params = init_mlp_params([1, 128, 128, 1])
  mark(6)

  _show(jax.tree.map(lambda x: x.shape, params))
  mark(7)

  def forward(params, x):
    *hidden, last = params
    for layer in hidden:
      x = jax.nn.relu(x @ layer['weights'] + layer['biases'])
    return x @ last['weights'] + last['biases']

  def loss_fn(params, x, y):
    return jnp.mean((forward(params, x) - y) ** 2)

  LEARNING_RATE = 0.0001

  def update(params, x, y):
    # `grads` is a pytree with the same structure as `params`.
    grads = jax.grad(loss_fn)(params, x, y)
    # The SGD update is one tree.map over the two matching pytrees.
    return jax.tree.map(
        lambda p, g: p - LEARNING_RATE * g, params, grads
    )
  mark(8)

  x = np.random.normal(size=(128, 1))
  y = x ** 2

  for _ in range(100):
    params = update(params, x, y)

  print(loss_fn(params, x, y))
  mark(9)

  import collections

  ATuple = collections.namedtuple("ATuple", ('name',))

  tree = [1, {'k1': 2, 'k2': (3, 4)}, ATuple('foo')]
  flattened, _ = jax.tree_util.tree_flatten_with_path(tree)

  for key_path, value in flattened:
    print(f'Value of tree{jax.tree_util.keystr(key_path)}: {value}')
  mark(10)

  class Special:
    def __init__(self, x, y):
      self.x = x
      self.y = y

  _show(jax.tree.leaves([Special(0, 1), Special(2, 4)]))
  mark(11)

  try:
    _show(jax.tree.map(lambda x: x + 1, [Special(0, 1), Special(2, 4)]))
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(12)

  from jax.tree_util import register_pytree_node

  class RegisteredSpecial(Special):
    def __repr__(self):
      return f"RegisteredSpecial(x={self.x}, y={self.y})"

  def special_flatten(v):
    children = (v.x, v.y)  # the dynamic contents, traversed recursively
    aux_data = None        # static metadata, stored in the treedef
    return children, aux_data

  def special_unflatten(aux_data, children):
    return RegisteredSpecial(*children)

  register_pytree_node(RegisteredSpecial, special_flatten, special_unflatten)

  _show(jax.tree.map(lambda x: x + 1, [RegisteredSpecial(0, 1), RegisteredSpecial(2, 4)]))
  mark(13)

  _show(jax.grad(lambda s: s.x ** 2 + s.y)(RegisteredSpecial(3.0, 4.0)))
  mark(14)

  from typing import NamedTuple, Any

  class MyOtherContainer(NamedTuple):
    name: str
    a: Any
    b: Any

  _show(jax.tree.leaves([MyOtherContainer('Alice', 1, 2),
                   MyOtherContainer('Bob', 4, 5)]))
  mark(15)

  from dataclasses import dataclass
  import functools

  @functools.partial(jax.tree_util.register_dataclass,
                     data_fields=['a', 'b'],
                     meta_fields=['name'])
  @dataclass
  class MyDataclassContainer:
    name: str
    a: Any
    b: Any

  _show(jax.tree.leaves([
      MyDataclassContainer('apple', 5.3, 1.2),
      MyDataclassContainer('banana', jnp.zeros(4), -1.0),
  ]))
  mark(16)

  a_tree = [jnp.zeros((2, 3)), jnp.zeros((3, 4))]

  # Try to make another pytree with ones instead of zeros.
  shapes = jax.tree.map(lambda x: x.shape, a_tree)
  _show(jax.tree.map(jnp.ones, shapes))
  mark(17)

  _show(jax.tree.leaves([None, None, None]))
  mark(18)

  _show(jax.tree.leaves([None, None, None], is_leaf=lambda x: x is None))
  mark(19)

  try:
    _show(jax.tree.map(lambda x: x + 1, {1: 7, "y": 42}))
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(20)

  def tree_transpose(list_of_trees):
    """Converts a list of trees of identical structure into a single tree of lists."""
    return jax.tree.map(lambda *xs: list(xs), *list_of_trees)

  # Convert a dataset from row-major to column-major.
  episode_steps = [dict(t=1, obs=3), dict(t=2, obs=4)]
  _show(tree_transpose(episode_steps))
  mark(21)
