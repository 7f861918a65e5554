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

"""JAX's docs/array_refs.md ("`Ref`: mutable arrays for data plumbing and memory control") as of
JAX 0.10.2 (8e784c546d): its code cells verbatim in `run()` (a `jax.new_ref` updated by `+=`
in a jitted function that closes over it, a ref inside `grad`, math on a ref's error, int,
tuple, slice and integer-array indexing reads and writes, pure and impure jitted functions,
the four `jit` errors: a returned ref, a ref passed twice, passed and closed over, frozen
outside its scope, `vmap` over ref arguments and over a closed-over ref's error, `grad` of a
function with an internal ref, a `custom_vjp` stashing its cotangent into a ref, a jitted
in-place `sin` keeping its buffer, `scan` as a `foreach` accumulating into a ref). The page's
`err6`/`foo` are defined and not called there: called here under `grad` (port). run() returns
what the cells printed (numbers apart), errors by built-in class and text, and the refs' values. Left out:
the buffer pointers printed around `sin_inplace` (JAX updates the Ref's buffer in place, numbax
replaces its array: the pointer changes)."""

import re

from tests.porting import printed


def _shown(text):
  """(port) what a cell printed, its numbers apart and array columns as one space; in the
  errors, the traced function's file and line as `<file>` (JAX names the program's path) and
  a tracer's class as `<tracer>` (JAX's own class path; numbax's names its `Ref`); a Ref's `weak_type=True` left out
  (after a write, JAX's depends on its dispatch cache's history: the first eager write of a
  process keeps a weak Ref weak, later ones and writes under `grad` do not)."""
  text = text.replace(', weak_type=True)', ')')
  text = re.sub(r' at \S+\.py:\d+', ' at <file>', text)
  text = re.sub(r"<class '[\w.]*(?:Tracer|Ref)'>", '<tracer>', text)
  return printed.numbered(text, columns=True)


def run():
  out = {}
  errors = []
  with printed.Cells(_shown) as cells:
    _cells(out, errors, cells.mark)
  out['printed'] = cells.printed
  out['errors'] = errors
  return out


def _cells(out, errors, mark):
  import jax
  import jax.numpy as jnp

  def print_error(e):  # (port) the cells print the error; its built-in class kept too
    print(e)
    errors.append(next(c.__name__ for c in type(e).__mro__ if c.__module__ == 'builtins'))

  x_ref = jax.new_ref(jnp.zeros(3))  # new array ref, with initial value [0., 0., 0.]

  @jax.jit
  def f():
    x_ref[1] += 1.  # indexed add-update

  print(x_ref)  # Ref([0., 0., 0.])
  f()
  f()
  print(x_ref)  # Ref([0., 2., 0.])
  mark('intro')

  def g(x):
    x_ref = jax.new_ref(0.)
    x_ref[...] = jnp.sin(x)
    return x_ref[...]

  print(jax.grad(g)(1.0))  # 0.54
  mark('grad')

  x_ref = jax.new_ref(1.0)
  try:
    jnp.sin(x_ref)  # error! can't do math on refs
  except Exception as e:
    print_error(e)
  mark('math_error')

  from jax import Array, Ref

  def array_ref(init_val: Array) -> Ref:
    """Introduce a new reference with given initial value."""

  def freeze(ref: Ref) -> Array:
    """Invalidate given reference and produce its final value."""

  import types
  Index = int | slice | Array | types.EllipsisType
  Indexer = Index | tuple[Index, ...]

  def get(ref: Ref, idx: Indexer) -> Array:
    """Returns `ref[idx]` for NumPy-style indexer `idx`."""

  def swap(ref: Ref, idx: Indexer, val: Array) -> Array:
    """Performs `newval, ref[idx] = ref[idx], val` and returns `newval`."""

  x_ref = jax.new_ref(jnp.arange(12.).reshape(3, 4))

  # int indexing
  row = x_ref[0]
  x_ref[1] = row

  # tuple indexing
  val = x_ref[1, 2]
  x_ref[2, 3] = val

  # slice indexing
  col = x_ref[:, 1]
  x_ref[0, :3] = col

  # advanced int array indexing
  vals = x_ref[jnp.array([0, 0, 1]), jnp.array([1, 2, 3])]
  x_ref[jnp.array([1, 2, 1]), jnp.array([0, 0, 1])] = vals
  out['indexing'] = [row, val, col, vals, x_ref[...]]  # (port) shown

  # takes ref as an argument => impure
  @jax.jit
  def impure1(x_ref, y_ref):
    x_ref[...] = y_ref[...]

  # closes over ref => impure
  y_ref = jax.new_ref(0)

  @jax.jit
  def impure2(x):
    y_ref[...] = x

  # internal refs => still pure
  @jax.jit
  def pure1(x):
    ref = jax.new_ref(x)
    ref[...] = ref[...] + ref[...]
    return ref[...]

  a_ref, b_ref = jax.new_ref(jnp.zeros(2)), jax.new_ref(jnp.arange(2.))  # (port) called
  impure1(a_ref, b_ref)
  impure2(7)
  out['impure'] = [a_ref[...], y_ref[...], pure1(jnp.arange(3.))]

  x_ref = jax.new_ref(0.)

  # can't return refs
  @jax.jit
  def err1(x_ref):
    x_ref[...] = 5.
    return x_ref  # error!
  try:
    err1(x_ref)
  except Exception as e:
    print_error(e)
  mark('err1')

  # can't pass a ref as an argument more than once
  @jax.jit
  def err2(x_ref, y_ref):
    ...
  try:
    err2(x_ref, x_ref)  # error!
  except Exception as e:
    print_error(e)
  mark('err2')

  # can't pass and close over the same ref
  @jax.jit
  def err3(y_ref):
    y_ref[...] = x_ref[...]
  try:
    err3(x_ref)  # error!
  except Exception as e:
    print_error(e)
  mark('err3')

  # can only freeze in creation scope
  @jax.jit
  def err4(x_ref):
    jax.freeze(x_ref)
  try:
    err4(x_ref)  # error!
  except Exception as e:
    print_error(e)
  mark('err4')
  out['after_errors'] = x_ref[...]  # (port) err1's write

  # vmap over ref args is okay
  def dist(x, y, out_ref):
    assert x.ndim == y.ndim == 1
    assert out_ref.ndim == 0
    out_ref[...] = jnp.sum((x - y) ** 2)

  vecs = jnp.arange(12.).reshape(3, 4)
  out_ref = jax.new_ref(jnp.zeros((3, 3)))
  jax.vmap(jax.vmap(dist, (0, None, 0)), (None, 0, 0))(vecs, vecs, out_ref)  # ok!
  print(out_ref)
  mark('vmap')

  # vmap with a closed-over ref is not
  x_ref = jax.new_ref(0.)

  def err5(x):
    x_ref[...] = x

  try:
    jax.vmap(err5)(jnp.arange(3.))  # error!
  except Exception as e:
    print_error(e)
  mark('err5')

  @jax.jit
  def pure1(x):
    ref = jax.new_ref(x)
    ref[...] = ref[...] + ref[...]
    return ref[...]

  print(jax.grad(pure1)(3.0))  # 2.0
  mark('grad_pure')

  # error
  def err6(x, some_plumbing_ref):
    y = x + x
    some_plumbing_ref[...] += y
    return y

  # fine
  def foo(x, some_plumbing_ref):
    y = x + x
    some_plumbing_ref[...] += jax.lax.stop_gradient(y)
    return y

  plumbing = jax.new_ref(0.)  # (port) both called under grad
  try:
    print(jax.grad(err6)(1., plumbing))
  except Exception as e:
    print_error(e)
  mark('err6')
  print(jax.grad(foo)(1., plumbing))
  print(plumbing)
  mark('foo')

  # First, define the helper `stash_grads`:

  @jax.custom_vjp
  def stash_grads(grads_ref, x):
    return x

  def stash_grads_fwd(grads_ref, x):
    return x, grads_ref

  def stash_grads_bwd(grads_ref, g):
    grads_ref[...] = g
    return None, g

  stash_grads.defvjp(stash_grads_fwd, stash_grads_bwd)

  # Now, use `stash_grads` to stash intermediate gradients:

  def f(x, grads_ref):
    x = jnp.sin(x)
    x = stash_grads(grads_ref, x)
    return x

  grads_ref = jax.new_ref(0.)
  f(1., grads_ref)
  print(grads_ref)
  jax.grad(f)(1., grads_ref)  # (port) the backward pass run
  print(grads_ref)
  mark('stash')

  @jax.jit
  def sin_inplace(x_ref):
    x_ref[...] = jnp.sin(x_ref[...])

  x_ref = jax.new_ref(jnp.arange(3.))
  print(x_ref)  # (port) without the buffer pointers: see the docstring
  sin_inplace(x_ref)
  print(x_ref)
  mark('inplace')

  import jax
  import jax.numpy as jnp
  from jax.lax import scan

  def foreach(*args):
    def decorator(body):
      return scan(lambda _, elts: (None, body(*elts)), None, args)[1]
    return decorator

  r = jax.new_ref(0)
  xs = jnp.arange(10)

  @foreach(xs)
  def ys(x):
    r[...] += x
    return x * 2

  print(r)   # Ref(45, dtype=int32)
  print(ys)  # [ 0  2  4  6  8 10 12 14 16 18]
  mark('foreach')
  out['types'] = [type(r).__name__, str(jax.typeof(r)), str(r.dtype), r.shape]
