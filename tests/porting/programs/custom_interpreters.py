# Copyright 2019 The JAX Authors.
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

"""JAX's docs/notebooks/Writing_custom_interpreters_in_Jax.md: its code cells verbatim in
`_cells` (the `(5000, 5000)` random matrix of the first cell made `(50, 50)`: `fast_f` is never
called). A jaxpr's `invars`/`outvars`/`constvars`/`eqns` walked by `examine_jaxpr`, the
notebook's own `eval_jaxpr` over `closed_jaxpr.literals` with `jax.extend.core.Literal` and
`safe_map`, and the `inverse` interpreter reading `eqn.primitive`/`eqn.invars`/`eqn.outvars`
against a registry keyed by `lax.exp_p`/`lax.tanh_p`, traced by `make_jaxpr` and composed with
`jit(vmap(grad(...)))`, and the exercise's error for a primitive without an inverse. Recorded:
what the cells printed (for `bar`, `examine_jaxpr`'s lines but the equations and the jaxpr's
text, whose `dot_general` parameters and scalar broadcasts differ as
tests/core/test_jaxpr_text.py lists), and the values the cells showed."""

import re

from tests.porting import printed


def run():
  cells = printed.Cells()

  def mark(cell, keep=lambda line: True):
    """The lines printed since the last mark that `keep` accepts, variables numbered in order
    of appearance (`Var(id=<address>)`) and literals written `Literal(1)` (JAX 0.10 holds a
    Python scalar as `TypedInt(1, dtype=int32)`)."""
    ids = {}
    text = re.sub(r"Var\(id=(\d+)\)",
                  lambda m: f"Var(id={ids.setdefault(m.group(1), len(ids))})", cells.take())
    text = re.sub(r"Literal\(Typed\w+\(([^,]+), dtype=\w+\)\)", r"Literal(\1)", text)
    cells.printed[cell] = [line for line in text.splitlines() if keep(line)]

  with cells:
    shown = _cells(mark)
  return {'printed': cells.printed, 'shown': shown}


def _cells(mark):
  shown = {}

  import jax
  import jax.numpy as jnp
  from jax import jit, grad, vmap
  from jax import random

  x = random.normal(random.key(0), (50, 50))

  def f(w, b, x):
    return jnp.tanh(jnp.dot(x, w) + b)

  fast_f = jit(f)

  def examine_jaxpr(closed_jaxpr):
    jaxpr = closed_jaxpr.jaxpr
    print("invars:", jaxpr.invars)
    print("outvars:", jaxpr.outvars)
    print("constvars:", jaxpr.constvars)
    for eqn in jaxpr.eqns:
      print("equation:", eqn.invars, eqn.primitive, eqn.outvars, eqn.params)
    print()
    print("jaxpr:", jaxpr)

  def foo(x):
    return x + 1

  print("foo")
  print("=====")
  examine_jaxpr(jax.make_jaxpr(foo)(5))
  mark('foo')

  print()

  def bar(w, b, x):
    return jnp.dot(w, x) + b + jnp.ones(5), x

  print("bar")
  print("=====")
  examine_jaxpr(jax.make_jaxpr(bar)(jnp.ones((5, 10)), jnp.ones(5), jnp.ones(10)))
  mark('bar', keep=lambda line: not line.startswith(("equation:", "jaxpr:", "  ", "}")))

  # Importing Jax functions useful for tracing/interpreting.
  from functools import wraps

  from jax import lax
  from jax.extend import core
  from jax._src.util import safe_map

  def f(x):
    return jnp.exp(jnp.tanh(x))

  closed_jaxpr = jax.make_jaxpr(f)(jnp.ones(5))
  print(closed_jaxpr.jaxpr)
  print(closed_jaxpr.literals)
  mark('closed_jaxpr')

  def eval_jaxpr(jaxpr, consts, *args):
    # Mapping from variable -> value
    env = {}

    def read(var):
      # Literals are values baked into the Jaxpr
      if type(var) is core.Literal:
        return var.val
      return env[var]

    def write(var, val):
      env[var] = val

    # Bind args and consts to environment
    safe_map(write, jaxpr.invars, args)
    safe_map(write, jaxpr.constvars, consts)

    # Loop through equations and evaluate primitives using `bind`
    for eqn in jaxpr.eqns:
      # Read inputs to equation from environment
      invals = safe_map(read, eqn.invars)
      # `bind` is how a primitive is called
      outvals = eqn.primitive.bind(*invals, **eqn.params)
      # Primitives may return multiple outputs or not
      if not eqn.primitive.multiple_results:
        outvals = [outvals]
      # Write the results of the primitive into the environment
      safe_map(write, eqn.outvars, outvals)
    # Read the final result of the Jaxpr from the environment
    return safe_map(read, jaxpr.outvars)

  closed_jaxpr = jax.make_jaxpr(f)(jnp.ones(5))
  shown['eval_jaxpr'] = eval_jaxpr(closed_jaxpr.jaxpr, closed_jaxpr.literals, jnp.ones(5))

  inverse_registry = {}

  inverse_registry[lax.exp_p] = jnp.log
  inverse_registry[lax.tanh_p] = jnp.arctanh

  def inverse(fun):
    @wraps(fun)
    def wrapped(*args, **kwargs):
      # Since we assume unary functions, we won't worry about flattening and
      # unflattening arguments.
      closed_jaxpr = jax.make_jaxpr(fun)(*args, **kwargs)
      out = inverse_jaxpr(closed_jaxpr.jaxpr, closed_jaxpr.literals, *args)
      return out[0]
    return wrapped

  def inverse_jaxpr(jaxpr, consts, *args):
    env = {}

    def read(var):
      if type(var) is core.Literal:
        return var.val
      return env[var]

    def write(var, val):
      env[var] = val
    # Args now correspond to Jaxpr outvars
    safe_map(write, jaxpr.outvars, args)
    safe_map(write, jaxpr.constvars, consts)

    # Looping backward
    for eqn in jaxpr.eqns[::-1]:
      #  outvars are now invars
      invals = safe_map(read, eqn.outvars)
      if eqn.primitive not in inverse_registry:
        raise NotImplementedError(
            f"{eqn.primitive} does not have registered inverse.")
      # Assuming a unary function
      outval = inverse_registry[eqn.primitive](*invals)
      safe_map(write, eqn.invars, [outval])
    return safe_map(read, jaxpr.invars)

  def f(x):
    return jnp.exp(jnp.tanh(x))

  f_inv = inverse(f)
  assert jnp.allclose(f_inv(f(1.0)), 1.0)
  shown['f_inv'] = f_inv(f(1.0))

  shown['make_jaxpr_inverse'] = str(jax.make_jaxpr(inverse(f))(f(1.)))

  shown['jit_vmap_grad_inverse'] = jit(vmap(grad(inverse(f))))((jnp.arange(5) + 1.) / 5.)

  # The exercise's failure: a primitive without a registered inverse.
  try:
    inverse(lambda x: jnp.sin(x) + 1.)(0.5)
  except NotImplementedError as e:
    shown['no_inverse'] = str(e)
  mark('rest')
  return shown
