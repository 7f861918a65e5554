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

"""JAX's docs/jax-primitives.md ("JAX Internals: primitives"): its code cells verbatim in
`_cells`. `multiply_add` written on `lax` and `jnp`, then as a new
`jax.extend.core.Primitive` given its rules one at a time (`def_impl`, `def_abstract_eval` with
`core.ShapedArray`, `ad.primitive_jvps`, `ad.primitive_transposes` with `ad.Zero` and
`ad.is_undefined_primal`, `batching.primitive_batchers`), each transformation first failing
with `NotImplementedError` and then running: eagerly, `jvp`, `grad`, `vmap` and their `jit`s.

Recorded: what each cell printed (the tutorial's `trace` decorator shows every call of a rule),
for the cells without `jit`, and the values of all cells. Tracers are written `Traced`: JAX's
tutorial shows its own tracer classes by name (`ad.JVPTracer`) and JAX 0.10 prints `grad`'s as
`GradTracer(primal=..., ...)`. Left out of the prints: the abstract evaluations of the tangent's
equations that follow the JVP rule (JAX's linearization evaluates them again inside the
primitive's call, numbax's when the function has returned). `expectNotImplementedError` takes
`NotImplementedError`'s subclasses (numbax raises `core.errors.PrimitiveRuleError`, one), and
the cells run in a function (`nonlocal _indentation` for the notebook's `global`). Left out: the cell expecting `jit`'s
missing-lowering error (numbax runs a primitive's `impl` as a host call under `jit`), and the
lowering by MLIR's `hlo.AddOp` (`jax._src.lib.mlir.dialects`), registered instead as
`mlir.lower_fun(multiply_add_lax, multiple_results=False)`, JAX's public lowering by a JAX
function, which numbax accepts and does not use. The `jit` cells' prints are not recorded: JAX's
come from the lowering, numbax's from the host call of the `impl`."""

import contextlib
import io
import re

from tests.porting import printed


def run():
  shown = {}
  cells = printed.Cells()

  def mark(cell, value=None, recorded=True):
    """Records `value` and the lines printed since the last mark (unless not `recorded`),
    tracers written `Traced`, without the abstract evaluations of the tangent equations
    repeated outside the JVP rule."""
    text = re.sub(r"GradTracer\(primal=[^,]*, typeof\(tangent\)=[^)]*\)|Traced<[^>]*>(with<\w+>)?",
                  "Traced", cells.take())
    lines = [line for line in text.splitlines()
             if not (re.match(r" {0,5}(call|\|<-) multiply_add_abstract_eval", line))]
    if recorded:
      cells.printed[cell] = lines
    shown[cell] = value

  # The tracebacks `expectNotImplementedError` prints go to stderr.
  with cells, contextlib.redirect_stderr(io.StringIO()):
    _cells(mark)
  return {'printed': cells.printed, 'shown': shown}


def _cells(mark):
  from jax._src.lax import lax
  from jax._src import api

  def multiply_add_lax(x, y, z):
    """Implementation of multiply-add using the `jax.lax` primitives."""
    return lax.add(lax.mul(x, y), z)

  def square_add_lax(a, b):
    """A square-add function using the newly defined multiply-add."""
    return multiply_add_lax(a, a, b)

  print("square_add_lax = ", square_add_lax(2., 10.))
  # Differentiate w.r.t. the first argument
  print("grad(square_add_lax) = ", api.grad(square_add_lax, argnums=0)(2.0, 10.))
  mark('lax')

  #@title Helper functions (execute this cell)
  import functools
  import traceback

  _indentation = 0
  def _trace(msg=None):
      """Print a message at current indentation."""
      if msg is not None:
          print("  " * _indentation + msg)

  def _trace_indent(msg=None):
      """Print a message and then indent the rest."""
      nonlocal _indentation
      _trace(msg)
      _indentation = 1 + _indentation

  def _trace_unindent(msg=None):
      """Unindent then print a message."""
      nonlocal _indentation
      _indentation = _indentation - 1
      _trace(msg)

  def trace(name):
    """A decorator for functions to trace arguments and results."""

    def trace_func(func):
      def pp(v):
          """Print certain values more succinctly"""
          vtype = str(type(v))
          if "jax._src.xla_bridge._JaxComputationBuilder" in vtype:
              return "<JaxComputationBuilder>"
          elif "jaxlib._jax_.XlaOp" in vtype:
              return "<XlaOp at 0x{:x}>".format(id(v))
          elif ("partial_eval.JaxprTracer" in vtype or
                "batching.BatchTracer" in vtype or
                "ad.JVPTracer" in vtype):
              return "Traced<{}>".format(v.aval)
          elif isinstance(v, tuple):
              return "({})".format(pp_values(v))
          else:
              return str(v)
      def pp_values(args):
          return ", ".join([pp(arg) for arg in args])

      @functools.wraps(func)
      def func_wrapper(*args):
        _trace_indent("call {}({})".format(name, pp_values(args)))
        res = func(*args)
        _trace_unindent("|<- {} = {}".format(name, pp(res)))
        return res

      return func_wrapper

    return trace_func

  class expectNotImplementedError(object):
    """Context manager to check for NotImplementedError."""
    def __enter__(self): pass
    def __exit__(self, type, value, tb):
      nonlocal _indentation
      _indentation = 0
      if type is NotImplementedError or (type and issubclass(type, NotImplementedError)):
        print("\nFound expected exception:")
        traceback.print_exc(limit=3)
        return True
      elif type is None:  # No exception
        assert False, "Expected NotImplementedError"
      else:
        return False

  import jax.numpy as jnp
  import numpy as np

  @trace("multiply_add_numpy")
  def multiply_add_numpy(x, y, z):
      return jnp.add(jnp.multiply(x, y), z)

  @trace("square_add_numpy")
  def square_add_numpy(a, b):
      return multiply_add_numpy(a, a, b)

  print("\nNormal evaluation:")
  print("square_add_numpy = ", square_add_numpy(2., 10.))
  print("\nGradient evaluation:")
  print("grad(square_add_numpy) = ", api.grad(square_add_numpy)(2.0, 10.))
  mark('numpy')

  from jax.extend import core

  multiply_add_p = core.Primitive("multiply_add")  # Create the primitive

  @trace("multiply_add_prim")
  def multiply_add_prim(x, y, z):
    """The JAX-traceable way to use the JAX primitive.

    Note that the traced arguments must be passed as positional arguments
    to `bind`.
    """
    return multiply_add_p.bind(x, y, z)

  @trace("square_add_prim")
  def square_add_prim(a, b):
    """A square-add function implemented using the new JAX-primitive."""
    return multiply_add_prim(a, a, b)

  with expectNotImplementedError():
    square_add_prim(2., 10.)
  mark('no_impl')

  @trace("multiply_add_impl")
  def multiply_add_impl(x, y, z):
    """Concrete implementation of the primitive.

    This function does not need to be JAX traceable.

    Args:
      x, y, z: The concrete arguments of the primitive. Will only be called with
        concrete values.

    Returns:
      the concrete result of the primitive.
    """
    # Note: you can use the ordinary (non-JAX) NumPy, which is not JAX-traceable.
    return np.add(np.multiply(x, y), z)

  # Now, register the primal implementation with JAX:
  multiply_add_p.def_impl(multiply_add_impl)

  assert square_add_prim(2., 10.) == 14.
  mark('impl', float(square_add_prim(2., 10.)))

  with expectNotImplementedError():
    api.jit(square_add_prim)(2., 10.)
  mark('jit_no_abstract_eval', recorded=False)

  from jax import core

  @trace("multiply_add_abstract_eval")
  def multiply_add_abstract_eval(xs, ys, zs):
    """Abstract evaluation of the primitive.

    This function does not need to be JAX traceable. It will be invoked with
    abstractions of the actual arguments

    Args:
      xs, ys, zs: Abstractions of the arguments.

    Result:
      a ShapedArray for the result of the primitive.
    """
    assert xs.shape == ys.shape
    assert xs.shape == zs.shape
    return core.ShapedArray(xs.shape, xs.dtype)

  # Now, register the abstract evaluation with JAX:
  multiply_add_p.def_abstract_eval(multiply_add_abstract_eval)

  # Left out: `jit` failing for want of a lowering, and the lowering by `hlo.AddOp`.
  from jax.interpreters import mlir

  mlir.register_lowering(multiply_add_p,
                         mlir.lower_fun(multiply_add_lax, multiple_results=False),
                         platform='cpu')

  assert api.jit(lambda x, y: square_add_prim(x, y))(2., 10.) == 14.
  mark('jit', float(api.jit(lambda x, y: square_add_prim(x, y))(2., 10.)), recorded=False)

  assert api.jit(lambda x, y: square_add_prim(x, y),
                 static_argnums=1)(2., 10.) == 14.
  mark('jit_static', recorded=False)

  # The second argument is set to `(2., 10.)` values where you
  # evaluate the Jacobian, and the third argument `(1., 1.)`
  # contains the values of the tangents for the arguments.
  with expectNotImplementedError():
    api.jvp(square_add_prim, (2., 10.), (1., 1.))
  mark('no_jvp')

  from jax.interpreters import ad

  @trace("multiply_add_value_and_jvp")
  def multiply_add_value_and_jvp(arg_values, arg_tangents):
    """Evaluates the primal output and the tangents (Jacobian-vector product).

    Given values of the arguments and perturbation of the arguments (tangents),
    compute the output of the primitive and the perturbation of the output.

    This method must be JAX-traceable. JAX may invoke it with abstract values
    for the arguments and tangents.

    Args:
      arg_values: A tuple of arguments
      arg_tangents: A tuple with the tangents of the arguments. The tuple has
        the same length as the arg_values. Some of the tangents may also be the
        special value `ad.Zero` to specify a zero tangent

    Returns:
       A pair of the primal output and the tangent.
    """
    x, y, z = arg_values
    xt, yt, zt = arg_tangents
    _trace("Primal evaluation:")
    # Now, you have a JAX-traceable computation of the output.
    # Normally, you can use the multiply add (`ma`) primitive itself to compute the primal output.
    primal_out = multiply_add_prim(x, y, z)

    _trace("Tangent evaluation:")
    # You must use a JAX-traceable way to compute the tangent. It turns out that
    # the output tangent can be computed as (xt * y + x * yt + zt),
    # which you can implement in a JAX-traceable way using the same "multiply_add_prim" primitive.

    # You do need to deal specially with `Zero`. Here, you just turn it into a
    # proper tensor of 0s (of the same shape as 'x').
    # An alternative would be to check for `Zero` and perform algebraic
    # simplification of the output tangent computation.
    def make_zero(tan):
      return lax.full_like(x, 0) if type(tan) is ad.Zero else tan

    output_tangent = multiply_add_prim(make_zero(xt), y, multiply_add_prim(x, make_zero(yt), make_zero(zt)))
    return (primal_out, output_tangent)

  # Register the forward differentiation rule with JAX:
  ad.primitive_jvps[multiply_add_p] = multiply_add_value_and_jvp

  # Tangent is: xt*y + x*yt + zt = 1.*2. + 2.*1. + 1. = 5.
  assert api.jvp(square_add_prim, (2., 10.), (1., 1.)) == (14., 5.)
  mark('jvp')

  assert api.jit(lambda arg_values, arg_tangents:
                     api.jvp(square_add_prim, arg_values, arg_tangents))(
           (2., 10.), (1., 1.)) == (14., 5.)
  mark('jit_jvp', recorded=False)

  # This is reverse differentiation w.r.t. the first argument of `square_add_prim`
  with expectNotImplementedError():
    api.grad(square_add_prim)(2., 10.)
  mark('no_transpose')

  @trace("multiply_add_transpose")
  def multiply_add_transpose(ct, x, y, z):
    """Evaluates the transpose of a linear primitive.

    This method is only used when computing the backward gradient following
    `value_and_jvp`, and is only needed for primitives that are used in the JVP
    calculation for some other primitive. You need a transposition for `multiply_add_prim`,
    because you have used `multiply_add_prim` in the computation of the `output_tangent` in
    `multiply_add_value_and_jvp`.

    In this case, multiply_add is not a linear primitive. However, it is used linearly
    w.r.t. tangents in `multiply_add_value_and_jvp`:
         `output_tangent(xt, yt, zt) = multiply_add_prim(xt, y, multiply_add_prim(x, yt, zt))`.

    Always one of the first two multiplicative arguments is a constant.

    Args:
        ct: The cotangent of the output of the primitive.
        x, y, z: The values of the arguments. The arguments that are used linearly
          get an ad.UndefinedPrimal value. The other arguments get a constant
          value.

    Returns:
        A tuple with the cotangent of the inputs, with the value None
        corresponding to the constant arguments.
    """
    if not ad.is_undefined_primal(x):
      # This use of multiply_add is with a constant "x".
      assert ad.is_undefined_primal(y)
      ct_y = ad.Zero(y.aval) if type(ct) is ad.Zero else multiply_add_prim(x, ct, lax.full_like(x, 0))
      res = None, ct_y, ct
    else:
      # This use of multiply_add is with a constant "y".
      assert ad.is_undefined_primal(x)
      ct_x = ad.Zero(x.aval) if type(ct) is ad.Zero else multiply_add_prim(ct, y, lax.full_like(y, 0))
      res = ct_x, None, ct
    return res

  ad.primitive_transposes[multiply_add_p] = multiply_add_transpose

  assert api.grad(square_add_prim)(2., 10.) == 4.
  mark('grad')

  assert api.jit(api.grad(square_add_prim))(2., 10.) == 4.
  mark('jit_grad', recorded=False)

  # The arguments are two vectors instead of two scalars.
  with expectNotImplementedError():
    api.vmap(square_add_prim, in_axes=0, out_axes=0)(np.array([2., 3.]),
                                                 np.array([10., 20.]))
  mark('no_batch')

  from jax.interpreters import batching

  @trace("multiply_add_batch")
  def multiply_add_batch(vector_arg_values, batch_axes):
    """Computes the batched version of the primitive.

    This must be a JAX-traceable function.

    Since the `multiply_add primitive` already operates point-wise on arbitrary
    dimension tensors, to batch it you can use the primitive itself. This works as
    long as both the inputs have the same dimensions and are batched along the
    same axes. The result is batched along the axis that the inputs are batched.

    Args:
      vector_arg_values: A tuple of two arguments, each being a tensor of matching
        shape.
      batch_axes: The axes that are being batched. See vmap documentation.

    Returns:
      A tuple of the result, and the result axis that was batched.
    """
    assert batch_axes[0] == batch_axes[1]
    assert batch_axes[0] == batch_axes[2]
    _trace("Using multiply_add to compute the batch:")
    res = multiply_add_prim(*vector_arg_values)
    return res, batch_axes[0]

  batching.primitive_batchers[multiply_add_p] = multiply_add_batch

  assert np.allclose(api.vmap(square_add_prim, in_axes=0, out_axes=0)(
    np.array([2., 3.]),
    np.array([10., 20.])),
    [14., 29.])
  mark('vmap')

  assert np.allclose(api.jit(api.vmap(square_add_prim, in_axes=0, out_axes=0))
                      (np.array([2., 3.]),
                       np.array([10., 20.])),
                      [14., 29.])
  mark('jit_vmap', recorded=False)
