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


"""JAX's docs/new_docs/301/custom-jvp-vjp.md ("Custom JVPs or VJPs", 0f1cbf0f64): its code cells
verbatim in `_cells()` on eight CPU devices, a cell's last expression shown as the notebook
shows it (`_show`); run() returns what the cells printed (numbers apart) and the errors of its
`raises-exception` cells by built-in class and first line.
Covers: `custom_jvp` for `log1pexp` (NaN gradients fixed), `defjvps`, `custom_vjp` with
`clip_gradient`, `nondiff_argnums`, pytrees, Python control flow, `while_loop` fixed points,
the jvp-of-custom_vjp error; matplotlib's curves kept as values. Left out: the jaxpr of
`jit(grad(log1pexp))` (JAX's keeps a dead primal `log` equation that numbax's drops)."""

from tests.porting import printed
from tests.porting.printed import error as _error, show as _show  # (port) the harness


def run():
  return printed.notebook(_cells)


def _cells(out, errors, mark):
  import jax.numpy as jnp
  from jax import custom_jvp

  @custom_jvp
  def f(x, y):
    return jnp.sin(x) * y

  @f.defjvp
  def f_jvp(primals, tangents):
    x, y = primals
    x_dot, y_dot = tangents
    primal_out = f(x, y)
    tangent_out = jnp.cos(x) * x_dot * y + jnp.sin(x) * y_dot
    return primal_out, tangent_out
  mark(1)

  from jax import jvp, grad

  print(f(2., 3.))
  y, y_dot = jvp(f, (2., 3.), (1., 0.))
  print(y)
  print(y_dot)
  print(grad(f)(2., 3.))
  mark(2)

  # Equivalent alternative using the defjvps convenience wrapper

  @custom_jvp
  def f(x, y):
    return jnp.sin(x) * y

  _show(f.defjvps(lambda x_dot, primal_out, x, y: jnp.cos(x) * x_dot * y,
            lambda y_dot, primal_out, x, y: jnp.sin(x) * y_dot))
  mark(3)

  print(f(2., 3.))
  y, y_dot = jvp(f, (2., 3.), (1., 0.))
  print(y)
  print(y_dot)
  print(grad(f)(2., 3.))
  mark(4)

  from jax import custom_vjp

  @custom_vjp
  def f(x, y):
    return jnp.sin(x) * y

  def f_fwd(x, y):
    # Returns primal output and residuals to be used in backward pass by f_bwd.
    return f(x, y), (jnp.cos(x), jnp.sin(x), y)

  def f_bwd(res, g):
    cos_x, sin_x, y = res # Gets residuals computed in f_fwd
    return (cos_x * g * y, sin_x * g)

  _show(f.defvjp(f_fwd, f_bwd))
  mark(5)

  print(grad(f)(2., 3.))
  mark(6)

  def log1pexp(x):
    return jnp.log(1. + jnp.exp(x))

  _show(log1pexp(3.))
  mark(7)

  from jax import jit, grad, vmap

  print(jit(log1pexp)(3.))
  print(jit(grad(log1pexp))(3.))
  print(vmap(jit(grad(log1pexp)))(jnp.arange(3.)))
  mark(8)

  print(grad(log1pexp)(100.))
  mark(9)

  # (port) left out: `_show(jit(grad(log1pexp)).trace(100.).jaxpr)`, JAX's jaxpr keeps the dead
  # primal `log` equation that numbax's drops
  mark(10)

  from jax import custom_jvp

  @custom_jvp
  def log1pexp(x):
    return jnp.log(1. + jnp.exp(x))

  @log1pexp.defjvp
  def log1pexp_jvp(primals, tangents):
    x, = primals
    x_dot, = tangents
    ans = log1pexp(x)
    ans_dot = (1 - 1/(1 + jnp.exp(x))) * x_dot
    return ans, ans_dot
  mark(11)

  print(grad(log1pexp)(100.))
  mark(12)

  print(jit(log1pexp)(3.))
  print(jit(grad(log1pexp))(3.))
  print(vmap(jit(grad(log1pexp)))(jnp.arange(3.)))
  mark(13)

  @custom_jvp
  def log1pexp(x):
    return jnp.log(1. + jnp.exp(x))

  _show(log1pexp.defjvps(lambda t, ans, x: (1 - 1/(1 + jnp.exp(x))) * t))
  mark(14)

  print(grad(log1pexp)(100.))
  print(jit(log1pexp)(3.))
  print(jit(grad(log1pexp))(3.))
  print(vmap(jit(grad(log1pexp)))(jnp.arange(3.)))
  mark(15)

  from functools import partial
  from jax import custom_vjp

  @custom_vjp
  def clip_gradient(lo, hi, x):
    return x  # identity function

  def clip_gradient_fwd(lo, hi, x):
    return x, (lo, hi)  # save bounds as residuals

  def clip_gradient_bwd(res, g):
    lo, hi = res
    return (None, None, jnp.clip(g, lo, hi))  # use None to indicate zero cotangents for lo and hi

  _show(clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd))
  mark(16)

  from jax import vmap  # (port) matplotlib's plots kept as the curves they showed

  t = jnp.linspace(0, 10, 1000)

  out['sin'] = jnp.sin(t)
  out['grad_sin'] = vmap(grad(jnp.sin))(t)
  mark(17)

  def clip_sin(x):
    x = clip_gradient(-0.75, 0.75, x)
    return jnp.sin(x)

  out['clip_sin'] = clip_sin(t)
  out['grad_clip_sin'] = vmap(grad(clip_sin))(t)
  mark(18)

  from jax import custom_jvp
  import jax.numpy as jnp

  # f :: a -> b
  @custom_jvp
  def f(x):
    return jnp.sin(x)

  # f_jvp :: (a, T a) -> (b, T b)
  def f_jvp(primals, tangents):
    x, = primals
    t, = tangents
    return f(x), jnp.cos(x) * t

  _show(f.defjvp(f_jvp))
  mark(19)

  from jax import jvp

  print(f(3.))

  y, y_dot = jvp(f, (3.,), (1.,))
  print(y)
  print(y_dot)
  mark(20)

  from jax import grad

  print(grad(f)(3.))
  print(grad(grad(f))(3.))
  mark(21)

  @custom_jvp
  def f(x, y):
    return x ** 2 * y

  @f.defjvp
  def f_jvp(primals, tangents):
    x, y = primals
    x_dot, y_dot = tangents
    primal_out = f(x, y)
    tangent_out = 2 * x * y * x_dot + x ** 2 * y_dot
    return primal_out, tangent_out
  mark(22)

  print(grad(f)(2., 3.))
  mark(23)

  @custom_jvp
  def f(x):
    return jnp.sin(x)

  _show(f.defjvps(lambda t, ans, x: jnp.cos(x) * t))
  mark(24)

  print(grad(f)(3.))
  mark(25)

  @custom_jvp
  def f(x, y):
    return x ** 2 * y

  _show(f.defjvps(lambda x_dot, primal_out, x, y: 2 * x * y * x_dot,
            lambda y_dot, primal_out, x, y: x ** 2 * y_dot))
  mark(26)

  print(grad(f)(2., 3.))
  print(grad(f, 0)(2., 3.))  # same as above
  print(grad(f, 1)(2., 3.))
  mark(27)

  @custom_jvp
  def f(x, y):
    return x ** 2 * y

  _show(f.defjvps(lambda x_dot, primal_out, x, y: 2 * x * y * x_dot,
            None))
  mark(28)

  print(grad(f)(2., 3.))
  print(grad(f, 0)(2., 3.))  # same as above
  print(grad(f, 1)(2., 3.))
  mark(29)

  @custom_jvp
  def f(x):
    print('called f!')  # a harmless side-effect
    return jnp.sin(x)

  @f.defjvp
  def f_jvp(primals, tangents):
    print('called f_jvp!')  # a harmless side-effect
    x, = primals
    t, = tangents
    return f(x), jnp.cos(x) * t
  mark(30)

  from jax import vmap, jit

  print(f(3.))
  mark(31)

  print(vmap(f)(jnp.arange(3.)))
  print(jit(f)(3.))
  mark(32)

  y, y_dot = jvp(f, (3.,), (1.,))
  print(y_dot)
  mark(33)

  print(grad(f)(3.))
  mark(34)

  _show(grad(grad(f))(3.))
  mark(35)

  @custom_jvp
  def f(x):
    if x > 0:
      return jnp.sin(x)
    else:
      return jnp.cos(x)

  @f.defjvp
  def f_jvp(primals, tangents):
    x, = primals
    x_dot, = tangents
    ans = f(x)
    if x > 0:
      return ans, 2 * x_dot
    else:
      return ans, 3 * x_dot
  mark(36)

  print(grad(f)(1.))
  print(grad(f)(-1.))
  mark(37)

  from jax import custom_vjp
  import jax.numpy as jnp

  # f :: a -> b
  @custom_vjp
  def f(x):
    return jnp.sin(x)

  # f_fwd :: a -> (b, c)
  def f_fwd(x):
    return f(x), jnp.cos(x)

  # f_bwd :: (c, CT b) -> CT a
  def f_bwd(cos_x, y_bar):
    return (cos_x * y_bar,)

  _show(f.defvjp(f_fwd, f_bwd))
  mark(38)

  from jax import grad

  print(f(3.))
  print(grad(f)(3.))
  mark(39)

  from jax import custom_vjp

  @custom_vjp
  def f(x, y):
    return jnp.sin(x) * y

  def f_fwd(x, y):
    return f(x, y), (jnp.cos(x), jnp.sin(x), y)

  def f_bwd(res, g):
    cos_x, sin_x, y = res
    return (cos_x * g * y, sin_x * g)

  _show(f.defvjp(f_fwd, f_bwd))
  mark(40)

  print(grad(f)(2., 3.))
  mark(41)

  @custom_vjp
  def f(x):
    print("called f!")
    return jnp.sin(x)

  def f_fwd(x):
    print("called f_fwd!")
    return f(x), jnp.cos(x)

  def f_bwd(cos_x, y_bar):
    print("called f_bwd!")
    return (cos_x * y_bar,)

  _show(f.defvjp(f_fwd, f_bwd))
  mark(42)

  print(f(3.))
  mark(43)

  print(grad(f)(3.))
  mark(44)

  from jax import vjp

  y, f_vjp = vjp(f, 3.)
  print(y)
  mark(45)

  print(f_vjp(1.))
  mark(46)

  from jax import jvp

  try:
    jvp(f, (3.,), (1.,))
  except TypeError as e:
    print('ERROR! {}'.format(e))
  mark(47)

  import pdb

  @custom_vjp
  def debug(x):
    return x  # acts like identity

  def debug_fwd(x):
    return x, x

  def debug_bwd(x, g):
    pdb.set_trace()
    return g

  _show(debug.defvjp(debug_fwd, debug_bwd))
  mark(48)

  def foo(x):
    y = x ** 2
    y = debug(y)  # insert pdb in corresponding backward pass step
    return jnp.sin(y)
  mark(49)

  try:
    from jax import jvp

    _show(jvp(lambda x: clip_gradient(-1., 1., x), (3.,), (1.,)))
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(50)

  from collections import namedtuple
  Point = namedtuple("Point", ["x", "y"])

  @custom_jvp
  def f(pt):
    x, y = pt.x, pt.y
    return {'a': x ** 2,
            'b': (jnp.sin(x), jnp.cos(y))}

  @f.defjvp
  def f_jvp(primals, tangents):
    pt, = primals
    pt_dot, =  tangents
    ans = f(pt)
    ans_dot = {'a': 2 * pt.x * pt_dot.x,
               'b': (jnp.cos(pt.x) * pt_dot.x, -jnp.sin(pt.y) * pt_dot.y)}
    return ans, ans_dot

  def fun(pt):
    dct = f(pt)
    return dct['a'] + dct['b'][0]
  mark(51)

  pt = Point(1., 2.)

  print(f(pt))
  mark(52)

  print(grad(fun)(pt))
  mark(53)

  @custom_vjp
  def f(pt):
    x, y = pt.x, pt.y
    return {'a': x ** 2,
            'b': (jnp.sin(x), jnp.cos(y))}

  def f_fwd(pt):
    return f(pt), pt

  def f_bwd(pt, g):
    a_bar, (b0_bar, b1_bar) = g['a'], g['b']
    x_bar = 2 * pt.x * a_bar + jnp.cos(pt.x) * b0_bar
    y_bar = -jnp.sin(pt.y) * b1_bar
    return (Point(x_bar, y_bar),)

  f.defvjp(f_fwd, f_bwd)

  def fun(pt):
    dct = f(pt)
    return dct['a'] + dct['b'][0]
  mark(54)

  pt = Point(1., 2.)

  print(f(pt))
  mark(55)

  print(grad(fun)(pt))
  mark(56)

  from functools import partial

  @partial(custom_jvp, nondiff_argnums=(0,))
  def app(f, x):
    return f(x)

  @app.defjvp
  def app_jvp(f, primals, tangents):
    x, = primals
    x_dot, = tangents
    return f(x), 2. * x_dot
  mark(57)

  print(app(lambda x: x ** 3, 3.))
  mark(58)

  print(grad(app, 1)(lambda x: x ** 3, 3.))
  mark(59)

  @partial(custom_jvp, nondiff_argnums=(0, 2))
  def app2(f, x, g):
    return f(g((x)))

  @app2.defjvp
  def app2_jvp(f, g, primals, tangents):
    x, = primals
    x_dot, = tangents
    return f(g(x)), 3. * x_dot
  mark(60)

  print(app2(lambda x: x ** 3, 3., lambda y: 5 * y))
  mark(61)

  print(grad(app2, 1)(lambda x: x ** 3, 3., lambda y: 5 * y))
  mark(62)

  @partial(custom_vjp, nondiff_argnums=(0,))
  def app(f, x):
    return f(x)

  def app_fwd(f, x):
    return f(x), x

  def app_bwd(f, x, g):
    return (5 * g,)

  _show(app.defvjp(app_fwd, app_bwd))
  mark(63)

  print(app(lambda x: x ** 2, 4.))
  mark(64)

  print(grad(app, 1)(lambda x: x ** 2, 4.))
  mark(65)
