# Copyright 2024 The JAX Authors.
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


"""JAX's docs/pytrees.md ("Working with pytrees"): its code cells verbatim in `run()` (a
[1, 8, 8, 1] instead of a [1, 128, 128, 1] MLP, three update steps); run() returns what the
cells printed or showed, and the mixed-key dictionary's error."""

import jax
import jax.numpy as jnp


def run():
  out = {}
  example_trees = [
      [1, 'a', None],
      (1, (2, 3), ()),
      [1, {'k1': 2, 'k2': (3, 4)}, 5],
      {'a': 2, 'b': (2, 3)},
      jnp.array([1, 2, 3]),
  ]

  # Print how many leaves the pytrees have.
  printed = []
  for pytree in example_trees:
    # This `jax.tree.leaves()` method extracts the flattened leaves from the pytrees.
    leaves = jax.tree.leaves(pytree)
    printed.append(f"{repr(pytree) if not hasattr(pytree, 'dtype') else 'array':<45} has {len(leaves)} leaves: {leaves if not hasattr(pytree, 'dtype') else ''}")
  out['leaves'] = printed

  list_of_lists = [
      [1, 2, 3],
      [1, 2],
      [1, 2, 3, 4]
  ]

  out['doubled'] = jax.tree.map(lambda x: x*2, list_of_lists)
  another_list_of_lists = list_of_lists
  out['summed'] = jax.tree.map(lambda x, y: x+y, list_of_lists, another_list_of_lists)

  import numpy as np
  np.random.seed(0)

  def init_mlp_params(layer_widths):
    params = []
    for n_in, n_out in zip(layer_widths[:-1], layer_widths[1:]):
      params.append(
          dict(weights=np.random.normal(size=(n_in, n_out)) * np.sqrt(2/n_in),
               biases=np.ones(shape=(n_out,))
              )
      )
    return params

  params = init_mlp_params([1, 8, 8, 1])
  out['shapes'] = jax.tree.map(lambda x: x.shape, params)

  # Define the forward pass.
  def forward(params, x):
    *hidden, last = params
    for layer in hidden:
      x = jax.nn.relu(x @ layer['weights'] + layer['biases'])
    return x @ last['weights'] + last['biases']

  # Define the loss function.
  def loss_fn(params, x, y):
    return jnp.mean((forward(params, x) - y) ** 2)

  # Set the learning rate.
  LEARNING_RATE = 0.0001

  @jax.jit
  def update(params, x, y):
    grads = jax.grad(loss_fn)(params, x, y)
    return jax.tree.map(
        lambda p, g: p - LEARNING_RATE * g, params, grads
    )

  xs = np.random.normal(size=(16, 1))
  ys = xs ** 2
  for _ in range(3):
    params = update(params, xs, ys)
  out['trained'] = params
  out['loss'] = loss_fn(params, xs, ys)

  from jax.tree_util import tree_structure
  out['tree_structure'] = str(tree_structure(object))

  import collections

  ATuple = collections.namedtuple("ATuple", ('name'))

  tree = [1, {'k1': 2, 'k2': (3, 4)}, ATuple('foo')]
  flattened, _ = jax.tree_util.tree_flatten_with_path(tree)

  out['values'] = [f'Value of tree{jax.tree_util.keystr(key_path)}: {value}'
                   for key_path, value in flattened]
  out['key_paths'] = [f'Key path of tree{jax.tree_util.keystr(key_path)}: {repr(key_path)}'
                      for key_path, _ in flattened]

  a_tree = [jnp.zeros((2, 3)), jnp.zeros((3, 4))]

  # Try to make another pytree with ones instead of zeros.
  shapes = jax.tree.map(lambda x: x.shape, a_tree)
  out['ones'] = jax.tree.map(jnp.ones, shapes)

  out['none_leaves'] = jax.tree.leaves([None, None, None])
  out['none_is_leaf'] = jax.tree.leaves([None, None, None], is_leaf=lambda x: x is None)

  try:
    jax.tree.map(lambda x: x + 1, {1: 7, "y": 42})
  except ValueError as e:  # the class JAX raises; numbax's message goes on to name the fix
    out['mixed_keys'] = str(e).split('.')[0]

  def tree_transpose(list_of_trees):
    """
    Converts a list of trees of identical structure into a single tree of lists.
    """
    return jax.tree.map(lambda *xs: list(xs), *list_of_trees)

  # Convert a dataset from row-major to column-major.
  episode_steps = [dict(t=1, obs=3), dict(t=2, obs=4)]
  out['tree_transpose'] = tree_transpose(episode_steps)
  out['transpose'] = jax.tree.transpose(
    outer_treedef = jax.tree.structure([0 for e in episode_steps]),
    inner_treedef = jax.tree.structure(episode_steps[0]),
    pytree_to_transpose = episode_steps
  )
  return out
