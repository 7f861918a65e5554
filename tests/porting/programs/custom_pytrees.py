# Copyright 2025 The JAX Authors.
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

"""JAX's docs/custom_pytrees.md ("Custom pytree nodes"): its code cells verbatim in `run()`
(an unregistered container as a leaf and `tree.map`'s error on it, `register_pytree_node`,
`register_pytree_node_class` with `show_example`, a `NamedTuple` whose name is a leaf,
`register_dataclass` with `meta_fields` through `jit` and the `NamedTuple`'s error under
`jit`, the validating `__init__` under `vmap` and `jacobian` (their errors) and the page's two
fixes, `tree_flatten`/`tree_unflatten` of the default containers with `show_example`); what
the cells printed and showed, each error's built-in class and first line (objects' addresses
taken out). On JAX 0.10.2 the `vmap` cell raises nothing. The `jacobian` cell is recorded as
raising, not by its error, and the first fix is not run under `jacobian`: JAX 0.10.2's `jacrev`
first rebuilds the output's type with its sharding specs (`PartitionSpec`s) as leaves, so
`MyTree.__init__` sees `P(None, ...)` (a ValueError) and the first fix an array of `None`s (a
TypeError), where numbax rebuilds it with the basis arrays (the page's "MyTree(...) is passed
to MyTree", a TypeError, and the first fix's Jacobian). Leaves that are
unregistered objects are shown by their class and attributes (their `repr` holds an
address)."""

import re

from tests.porting import printed

import jax


def _shown(leaves):
  """(port) Leaves as text: an object of a class of this file by its class and `vars`."""
  return [f"{type(v).__name__}{vars(v)}" if hasattr(v, '__dict__') and not hasattr(v, 'dtype')
          else repr(v) for v in leaves]


def _error(f, *args):
  """(port) The built-in class and first line of what `f(*args)` raised, or its result."""
  try:
    return f(*args)
  except Exception as e:  # noqa: BLE001
    builtin = next(c for c in type(e).__mro__ if c.__module__ == 'builtins')
    return [builtin.__name__, re.sub(r' at 0x[0-9a-f]+', '', str(e).splitlines()[0])]


def run():
  out = {}
  with printed.Cells() as cells:
    _cells(out, cells.mark)
  out['printed'] = cells.printed
  return out


def _cells(out, mark):
  class Special(object):
    def __init__(self, x, y):
      self.x = x
      self.y = y

  out['special_leaves'] = _shown(jax.tree.leaves([
      Special(0, 1),
      Special(2, 4),
  ]))

  out['special_map'] = _error(lambda: jax.tree.map(lambda x: x + 1,
    [
      Special(0, 1),
      Special(2, 4)
    ]))

  from jax.tree_util import register_pytree_node

  class RegisteredSpecial(Special):
    def __repr__(self):
      return "RegisteredSpecial(x={}, y={})".format(self.x, self.y)

  def special_flatten(v):
    """Specifies a flattening recipe.

    Params:
      v: The value of the registered type to flatten.
    Returns:
      A pair of an iterable with the children to be flattened recursively,
      and some opaque auxiliary data to pass back to the unflattening recipe.
      The auxiliary data is stored in the treedef for use during unflattening.
      The auxiliary data could be used, for example, for dictionary keys.
    """
    children = (v.x, v.y)
    aux_data = None
    return (children, aux_data)

  def special_unflatten(aux_data, children):
    """Specifies an unflattening recipe.

    Params:
      aux_data: The opaque data that was specified during flattening of the
        current tree definition.
      children: The unflattened children

    Returns:
      A reconstructed object of the registered type, using the specified
      children and auxiliary data.
    """
    return RegisteredSpecial(*children)

  # Global registration
  register_pytree_node(
      RegisteredSpecial,
      special_flatten,    # Instruct JAX what are the children nodes.
      special_unflatten   # Instruct JAX how to pack back into a `RegisteredSpecial`.
  )

  out['registered_map'] = repr(jax.tree.map(lambda x: x + 1,
    [
     RegisteredSpecial(0, 1),
     RegisteredSpecial(2, 4),
    ]))

  from jax.tree_util import register_pytree_node_class

  @register_pytree_node_class
  class RegisteredSpecial2(Special):
    def __repr__(self):
      return "RegisteredSpecial2(x={}, y={})".format(self.x, self.y)

    def tree_flatten(self):
      children = (self.x, self.y)
      aux_data = None
      return (children, aux_data)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
      return cls(*children)

  def show_example(structured):
    flat, tree = structured.tree_flatten()
    unflattened = RegisteredSpecial2.tree_unflatten(tree, flat)
    print(f"{structured=}\n  {flat=}\n  {tree=}\n  {unflattened=}")

  show_example(RegisteredSpecial2(1., 2.))
  mark('show_example_class')

  from typing import NamedTuple, Any

  class MyOtherContainer(NamedTuple):
    name: str
    a: Any
    b: Any
    c: Any

  # NamedTuple subclasses are handled as pytree nodes, so
  # this will work out-of-the-box.
  out['namedtuple_leaves'] = jax.tree.leaves([
      MyOtherContainer('Alice', 1, 2, 3),
      MyOtherContainer('Bob', 4, 5, 6)
  ])

  from dataclasses import dataclass
  import jax.numpy as jnp
  import numpy as np
  import functools

  @functools.partial(jax.tree_util.register_dataclass,
                     data_fields=['a', 'b', 'c'],
                     meta_fields=['name'])
  @dataclass
  class MyDataclassContainer(object):
    name: str
    a: Any
    b: Any
    c: Any

  # MyDataclassContainer is now a pytree node.
  out['dataclass_leaves'] = jax.tree.leaves([
    MyDataclassContainer('apple', 5.3, 1.2, jnp.zeros([4])),
    MyDataclassContainer('banana', np.array([3, 4]), -1., 0.)
  ])

  @jax.jit
  def f(x: MyDataclassContainer | MyOtherContainer):
    return x.a + x.b

  # Works fine! `mdc.name` is static.
  mdc = MyDataclassContainer('mdc', 1, 2, 3)
  y = f(mdc)
  out['dataclass_jit'] = [y, str(y.dtype), y.weak_type]

  moc = MyOtherContainer('moc', 1, 2, 3)
  out['namedtuple_jit'] = _error(lambda: f(moc))

  class MyTree:
    def __init__(self, a):
      self.a = jnp.asarray(a)

  register_pytree_node(MyTree, lambda tree: ((tree.a,), None),
      lambda _, args: MyTree(*args))

  tree = MyTree(jnp.arange(5.0))

  out['vmap_error'] = _error(lambda: jax.vmap(lambda x: x)(tree).a)      # Error because object() is passed to `MyTree`.
  try:
    jax.jacobian(lambda x: x)(tree)  # Error because MyTree(...) is passed to `MyTree`.
    out['jacobian_error'] = False
  except (TypeError, ValueError):  # (port) JAX's comes from its sharding specs (see above)
    out['jacobian_error'] = True

  class MyTree:
    def __init__(self, a):
      if not (type(a) is object or a is None or isinstance(a, MyTree)):
        a = jnp.asarray(a)
      self.a = a

  # (port) The first fix, registered as the page's first `MyTree` was, run as the failing cells.
  register_pytree_node(MyTree, lambda tree: ((tree.a,), None),
      lambda _, args: MyTree(*args))
  tree = MyTree(jnp.arange(5.0))
  out['fix1_vmap'] = jax.vmap(lambda x: x)(tree).a

  def tree_unflatten(aux_data, children):
    del aux_data  # Unused in this class.
    obj = object.__new__(MyTree)
    obj.a = children[0]
    return obj

  # (port) The second fix: a class validating as the first `MyTree`, unflattened without `__init__`.
  class MyTree2:
    def __init__(self, a):
      self.a = jnp.asarray(a)

  def tree_unflatten2(aux_data, children):
    del aux_data  # Unused in this class.
    obj = object.__new__(MyTree2)
    obj.a = children[0]
    return obj

  register_pytree_node(MyTree2, lambda tree: ((tree.a,), None), tree_unflatten2)
  tree = MyTree2(jnp.arange(5.0))
  out['fix2_vmap'] = jax.vmap(lambda x: x)(tree).a
  out['fix2_jacobian'] = _error(lambda: jax.jacobian(lambda x: x)(tree).a.a)

  from jax.tree_util import tree_flatten, tree_unflatten
  import jax.numpy as jnp

  # The structured value to be transformed
  value_structured = [1., (2., 3.)]

  # The leaves in value_flat correspond to the `*` markers in value_tree
  value_flat, value_tree = tree_flatten(value_structured)
  print(f"{value_flat=}\n{value_tree=}")

  # Transform the flat value list using an element-wise numeric transformer
  transformed_flat = list(map(lambda v: v * 2., value_flat))
  print(f"{transformed_flat=}")

  # Reconstruct the structured output, using the original
  transformed_structured = tree_unflatten(value_tree, transformed_flat)
  print(f"{transformed_structured=}")
  mark('flatten_unflatten')

  from collections import namedtuple
  Point = namedtuple('Point', ['x', 'y'])

  example_containers = [
      (1., [2., 3.]),
      (1., {'b': 2., 'a': 3.}),
      1.,
      None,
      jnp.zeros(2),
      Point(1., 2.)
  ]
  def show_example(structured):
    flat, tree = tree_flatten(structured)
    unflattened = tree_unflatten(tree, flat)
    print(f"{structured=}\n  {flat=}\n  {tree=}\n  {unflattened=}")

  for structured in example_containers:
    show_example(structured)
  mark('example_containers')
