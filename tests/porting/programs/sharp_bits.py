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


"""JAX's docs/notebooks/Common_Gotchas_in_JAX.md ("JAX - The Sharp Bits"): its code cells
verbatim in `run()` (without %xmode), the examples of its "Miscellaneous divergences" list,
and the cells of its "Random numbers", "Control flow" and "NaNs" sections before they moved to
their own tutorials (jax e6f6a8af8d^; the NaN checker scoped by `jax.debug_nans(True)` instead
of JAX_DEBUG_NANS). `print` records what the cells printed (arrays as arrays, the rest as
strings), `show` what a cell displayed (its repr), and the cells
that raise record their error's JAX class and first line (without object addresses and the
program's module name)."""

import builtins
import re
import warnings

import jax as _jax
import numpy as np


def _is_numbers(a):
  """Arrays of numbers are compared as values (within float32 round-off), the rest as printed."""
  dtype = None if isinstance(a, type) else getattr(a, 'dtype', None)
  if dtype is None or dtype == object or _jax.dtypes.issubdtype(dtype, _jax.dtypes.prng_key):
    return False
  try:
    np.asarray(a)  # a tracer has no values
  except Exception:  # noqa: BLE001
    return False
  return True


def run():
  printed = []
  shown = []
  errors = []

  def print(*args):
    builtins.print(*args)
    printed.append([a if _is_numbers(a) else str(a) for a in args])

  def show(value):
    shown.append(repr(value))

  def error(e):  # without addresses and this module's name (the test's differs from JAX's)
    line = re.sub(r' at 0x[0-9a-f]+', '', str(e).splitlines()[0])
    errors.append(line.replace(__name__ + '.', ''))

  import numpy as np
  from jax import jit
  from jax import lax
  from jax import random
  import jax
  import jax.numpy as jnp

  # Pure functions

  def impure_print_side_effect(x):
    print("Executing function")  # This is a side-effect
    return x

  # The side-effects appear during the first run
  print ("First call: ", jit(impure_print_side_effect)(4.))

  # Subsequent runs with parameters of same type and shape may not show the side-effect
  # This is because JAX now invokes a cached compilation of the function
  print ("Second call: ", jit(impure_print_side_effect)(5.))

  # JAX re-runs the Python function when the type or shape of the argument changes
  print ("Third call, different type: ", jit(impure_print_side_effect)(jnp.array([5.])))

  g = 0.
  def impure_uses_globals(x):
    return x + g

  # JAX captures the value of the global during the first run
  print ("First call: ", jit(impure_uses_globals)(4.))
  g = 10.  # Update the global

  # Subsequent runs may silently use the cached value of the globals
  print ("Second call: ", jit(impure_uses_globals)(5.))

  # JAX re-runs the Python function when the type or shape of the argument changes
  # This will end up reading the latest value of the global
  print ("Third call, different type: ", jit(impure_uses_globals)(jnp.array([4.])))

  g = 0.
  def impure_saves_global(x):
    nonlocal g  # the notebook's `global g` (its cells run at module level)
    g = x
    return x

  # JAX runs once the transformed function with special Traced values for arguments
  print ("First call: ", jit(impure_saves_global)(4.))
  print ("Saved global: ", g)  # Saved global has an internal JAX value

  def pure_uses_internal_state(x):
    state = dict(even=0, odd=0)
    for i in range(10):
      state['even' if i % 2 == 0 else 'odd'] += x
    return state['even'] + state['odd']

  print(jit(pure_uses_internal_state)(5.))

  import jax.numpy as jnp
  from jax import make_jaxpr

  # lax.fori_loop
  array = jnp.arange(10)
  print(lax.fori_loop(0, 10, lambda i,x: x+array[i], 0)) # expected result 45
  iterator = iter(range(10))
  print(lax.fori_loop(0, 10, lambda i,x: x+next(iterator), 0)) # unexpected result 0

  # lax.scan
  def func11(arr, extra):
      ones = jnp.ones(arr.shape)
      def body(carry, aelems):
          ae1, ae2 = aelems
          return (carry + ae1 * ae2 + extra, carry)
      return lax.scan(body, 0., (arr, ones))
  show(make_jaxpr(func11)(jnp.arange(16), 5.))
  # make_jaxpr(func11)(iter(range(16)), 5.) # throws error

  # lax.cond
  array_operand = jnp.array([0.])
  show(lax.cond(True, lambda x: x+1, lambda x: x-1, array_operand))
  iter_operand = iter(range(10))
  # lax.cond(True, lambda x: next(x)+1, lambda x: next(x)-1, iter_operand) # throws error

  # In-place updates

  numpy_array = np.zeros((3,3), dtype=np.float32)
  print("original array:")
  print(numpy_array)

  # In place, mutating update
  numpy_array[1, :] = 1.0
  print("updated array:")
  print(numpy_array)

  jax_array = jnp.zeros((3,3), dtype=jnp.float32)

  # In place update of JAX's array will yield an error!
  try:
    jax_array[1, :] = 1.0
  except TypeError as e:
    error(e)

  jax_array = jnp.array([10, 20])
  jax_array_new = jax_array
  jax_array_new += 10
  print(jax_array_new)  # `jax_array_new` is rebound to a new value [20, 30], but...
  print(jax_array)      # the original value is unmodified as [10, 20] !

  numpy_array = np.array([10, 20])
  numpy_array_new = numpy_array
  numpy_array_new += 10
  print(numpy_array_new)  # `numpy_array_new is numpy_array`, and it was updated
  print(numpy_array)      # in-place, so both are [20, 30] !

  jax_array = jnp.zeros((3,3), dtype=jnp.float32)
  updated_array = jax_array.at[1, :].set(1.0)
  print("updated array:\n", updated_array)

  print("original array unchanged:\n", jax_array)

  print("original array:")
  jax_array = jnp.ones((5, 6))
  print(jax_array)

  new_jax_array = jax_array.at[::2, 3:].add(7.)
  print("new array post-addition:")
  print(new_jax_array)

  # Using jax.jit with class methods

  import jax.numpy as jnp
  from jax import jit

  class CustomClass:
    def __init__(self, x: jnp.ndarray, mul: bool):
      self.x = x
      self.mul = mul

    @jit  # <---- How to do this correctly?
    def calc(self, y):
      if self.mul:
        return self.x * y
      return y

  c = CustomClass(2, True)
  try:
    c.calc(3)
  except TypeError as e:
    error(e)

  class CustomClass:
    def __init__(self, x: jnp.ndarray, mul: bool):
      self.x = x
      self.mul = mul

    def calc(self, y):
      return _calc(self.mul, self.x, y)

  @jit(static_argnums=0)
  def _calc(mul, x, y):
    if mul:
      return x * y
    return y

  c = CustomClass(2, True)
  print(c.calc(3))

  class CustomClass:
    def __init__(self, x: jnp.ndarray, mul: bool):
      self.x = x
      self.mul = mul

    # WARNING: this example is broken, as we'll see below. Don't copy & paste!
    @jit(static_argnums=0)
    def calc(self, y):
      if self.mul:
        return self.x * y
      return y

  c = CustomClass(2, True)
  print(c.calc(3))

  c.mul = False
  print(c.calc(3))  # Should print 3

  class CustomClass:
    def __init__(self, x: jnp.ndarray, mul: bool):
      self.x = x
      self.mul = mul

    @jit(static_argnums=0)
    def calc(self, y):
      if self.mul:
        return self.x * y
      return y

    def __hash__(self):
      return hash((self.x, self.mul))

    def __eq__(self, other):
      return (isinstance(other, CustomClass) and
              (self.x, self.mul) == (other.x, other.mul))

  # Not a notebook cell: the class it shows, called on equal and unequal objects.
  print(CustomClass(2, True).calc(3), CustomClass(2, True).calc(3), CustomClass(2, False).calc(3))

  class CustomClass:
    def __init__(self, x: jnp.ndarray, mul: bool):
      self.x = x
      self.mul = mul

    @jit
    def calc(self, y):
      if self.mul:
        return self.x * y
      return y

    def _tree_flatten(self):
      children = (self.x,)  # arrays / dynamic values
      aux_data = {'mul': self.mul}  # static values
      return (children, aux_data)

    @classmethod
    def _tree_unflatten(cls, aux_data, children):
      return cls(*children, **aux_data)

  from jax import tree_util
  tree_util.register_pytree_node(CustomClass,
                                 CustomClass._tree_flatten,
                                 CustomClass._tree_unflatten)

  c = CustomClass(2, True)
  print(c.calc(3))

  c.mul = False  # mutation is detected
  print(c.calc(3))

  c = CustomClass(jnp.array(2), True)  # non-hashable x is supported
  print(c.calc(3))

  # Out-of-bounds indexing

  try:
    np.arange(10)[11]
  except IndexError as e:
    error(e)

  show(jnp.arange(10)[11])

  show(jnp.arange(10.0).at[11].get())

  show(jnp.arange(10.0).at[11].get(mode='fill', fill_value=jnp.nan))

  # Not cells: the prose's claims (out-of-bounds updates skipped, nanargmin of NaNs -1) and
  # the linked `ndarray.at` page's other updates, at an in- and an out-of-bounds index.
  show([jnp.arange(5.0).at[jnp.array([1, 7])].set(9.0),
        jnp.arange(5.0).at[jnp.array([1, 7])].add(9.0),
        jnp.arange(5.0).at[jnp.array([1, 7])].multiply(9.0),
        jnp.arange(5.0).at[jnp.array([1, 7])].min(-1.0),
        jnp.arange(5.0).at[jnp.array([1, 7])].max(9.0),
        jnp.arange(5.0).at[jnp.array([1, -7])].get(mode='clip'),
        jnp.arange(5.0).at[jnp.array([1, 7])].set(9.0, mode='clip'),
        jnp.arange(5.0).at[jnp.array([1, 7, -1])].get(mode='fill', fill_value=-2.0),
        jnp.nanargmin(jnp.array([[jnp.nan, jnp.nan], [1.0, jnp.nan]]), axis=1),
        jnp.nanargmax(jnp.array([jnp.nan, jnp.nan]))])
  # the same under jit (a traced index: a gather clamps, a scatter drops)
  show([jit(lambda x, i: x[i])(jnp.arange(10), 11),
        jit(lambda x, i: x.at[i].add(9.0))(jnp.arange(5.0), jnp.array([1, 7])),
        jit(lambda x, i: x.at[i].set(9.0, mode='clip'))(jnp.arange(5.0), jnp.array([1, 7])),
        jit(lambda x, i: x.at[i].get(mode='fill', fill_value=jnp.nan))(jnp.arange(5.0), 7),
        jit(lambda x, i: x.at[i].min(-1.0))(jnp.arange(5.0), jnp.array([-1, 5]))])

  # Non-array inputs: NumPy vs. JAX

  show(np.sum([1, 2, 3]))

  try:
    jnp.sum([1, 2, 3])
  except TypeError as e:
    error(e)

  def permissive_sum(x):
    return jnp.sum(jnp.array(x))

  x = list(range(10))
  show(permissive_sum(x))

  show(make_jaxpr(permissive_sum)(x))

  show(jnp.sum(jnp.array(x)))

  # Dynamic shapes

  def nansum(x):
    mask = ~jnp.isnan(x)  # boolean mask selecting non-nan values
    x_without_nans = x[mask]
    return x_without_nans.sum()

  x = jnp.array([1, 2, jnp.nan, 3, 4])
  print(nansum(x))

  try:
    jax.jit(nansum)(x)
  except jax.errors.NonConcreteBooleanIndexError as e:
    error(e)

  @jax.jit
  def nansum_2(x):
    mask = ~jnp.isnan(x)  # boolean mask selecting non-nan values
    return jnp.where(mask, x, 0).sum()

  print(nansum_2(x))

  # Double (64bit) precision

  with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    x = random.uniform(random.key(0), (1000,), dtype=jnp.float64)
  show(x.dtype)
  shown.extend(f'{w.category.__name__}: {str(w.message).splitlines()[0]}' for w in caught)

  # Miscellaneous divergences from NumPy (the list's doctest examples)

  show(np.arange(254.0, 258.0).astype('uint8'))
  show(jnp.arange(254.0, 258.0).astype('uint8'))

  subnormal = jnp.float32(1E-45)
  show(subnormal)  # subnormals are representable
  # subnormal + 0  # but are flushed to zero within operations (not by numbax, README)

  # Before e6f6a8af8d: "Random numbers" (its JAX PRNG cells; NumPy's unseeded draws left out)

  from jax import grad

  key = random.key(0)
  show(key)

  print(random.normal(key, shape=(1,)))
  print(key)
  # No no no!
  print(random.normal(key, shape=(1,)))
  print(key)

  print("old key", key)
  key, subkey = random.split(key)
  normal_pseudorandom = random.normal(subkey, shape=(1,))
  print(r"    \---SPLIT --> new key   ", key)
  print(r"             \--> new subkey", subkey, "--> normal", normal_pseudorandom)

  print("old key", key)
  key, subkey = random.split(key)
  normal_pseudorandom = random.normal(subkey, shape=(1,))
  print(r"    \---SPLIT --> new key   ", key)
  print(r"             \--> new subkey", subkey, "--> normal", normal_pseudorandom)

  key, *subkeys = random.split(key, 4)
  for subkey in subkeys:
    print(random.normal(subkey, shape=(1,)))

  # Before e6f6a8af8d: "Control flow"

  def f(x):
    if x < 3:
      return 3. * x ** 2
    else:
      return -4 * x

  print(grad(f)(2.))  # ok!
  print(grad(f)(4.))  # ok!

  @jit
  def f(x):
    for i in range(3):
      x = 2 * x
    return x

  print(f(3))

  @jit
  def g(x):
    y = 0.
    for i in range(x.shape[0]):
      y = y + x[i]
    return y

  print(g(jnp.array([1., 2., 3.])))

  @jit
  def f(x):
    if x < 3:
      return 3. * x ** 2
    else:
      return -4 * x

  # This will fail!
  try:
    f(2)
  except jax.errors.TracerBoolConversionError as e:
    error(e)

  def f(x):
    if x < 3:
      return 3. * x ** 2
    else:
      return -4 * x

  f = jit(f, static_argnums=(0,))

  print(f(2.))

  def f(x, n):
    y = 0.
    for i in range(n):
      y = y + x[i]
    return y

  f = jit(f, static_argnums=(1,))

  show(f(jnp.array([2., 3., 4.]), 2))

  def example_fun(length, val):
    return jnp.ones((length,)) * val
  # un-jit'd works fine
  print(example_fun(5, 4))

  bad_example_jit = jit(example_fun)
  # this will fail:
  try:
    bad_example_jit(10, 4)
  except TypeError as e:
    error(e)

  # static_argnums tells JAX to recompile on changes at these argument positions:
  good_example_jit = jit(example_fun, static_argnums=(0,))
  # first compile
  print(good_example_jit(10, 4))
  # recompiles
  print(good_example_jit(5, 4))

  @jit
  def f(x):
    print(x)
    y = 2 * x
    print(y)
    return y
  show(f(2))

  from jax import lax

  operand = jnp.array([0.])
  show(lax.cond(True, lambda x: x+1, lambda x: x-1, operand))
  # --> array([1.], dtype=float32)
  show(lax.cond(False, lambda x: x+1, lambda x: x-1, operand))
  # --> array([-1.], dtype=float32)

  init_val = 0
  cond_fun = lambda x: x < 10
  body_fun = lambda x: x+1
  show(lax.while_loop(cond_fun, body_fun, init_val))
  # --> array(10, dtype=int32)

  init_val = 0
  start = 0
  stop = 10
  body_fun = lambda i,x: x+i
  show(lax.fori_loop(start, stop, body_fun, init_val))
  # --> array(45, dtype=int32)

  # Before e6f6a8af8d: "NaNs" (its two sessions, run with JAX_DEBUG_NANS=True)

  with jax.debug_nans(True):
    try:
      jnp.divide(0., 0.)
    except FloatingPointError as e:
      error(e)

    @jit
    def f(x, y):
        a = x * y
        b = (x + y) / (x - y)
        c = a + 2
        return a + b * c

    x = jnp.array([2., 0.])

    y = jnp.array([3., 0.])

    try:
      f(x, y)
    except FloatingPointError as e:
      error(e)

  show(jnp.divide(0., 0.))  # without the checker: nan
  show(f(x, y))
  return dict(printed=printed, shown=shown, errors=errors)
