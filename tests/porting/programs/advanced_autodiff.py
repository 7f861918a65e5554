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

"""JAX's docs/advanced-autodiff.md ("Advanced automatic differentiation", split into
higher-order.md, jacobian-vector-products.md and complex-differentiation.md by 8c0c43c027;
taken from 8c0c43c027^): its code cells verbatim in `run()` without the %timeit lines and
the `pdb` cells (a 3x4 instead of a 30x40 Hessian-vector product, 8 instead of 128 covectors,
the gradient clipping plots' values on 20 instead of 1000 points); `print` records what the
cells printed (arrays as arrays, also inside printed containers, the rest as strings), `show` what a cell displayed (arrays
as arrays, the rest as its repr), and the cells that raise record their error's JAX class and
first line."""

import builtins


def _recorded(a):
  """Arrays as they are (compared within float32 round-off; a printed container of arrays too,
  by its type and items), the rest as printed."""
  if hasattr(a, 'dtype'):
    return a
  if isinstance(a, dict):
    return ['dict', {k: _recorded(v) for k, v in a.items()}]
  if isinstance(a, (list, tuple)):
    return [type(a).__name__, [_recorded(v) for v in a]]
  return str(a)


def run():
  printed = []
  shown = []
  errors = []

  def print(*args):
    builtins.print(*args)
    printed.append([_recorded(a) for a in args])

  def show(value):
    if hasattr(value, 'dtype') and value.dtype.kind == 'c':  # the answers keep real numbers
      shown.append([str(value.dtype), value.real, value.imag])
    else:
      shown.append(value if hasattr(value, 'dtype') else repr(value))

  import jax
  import jax.numpy as jnp
  from jax import grad, jit, vmap
  from jax import random

  key = random.key(0)

  def hessian(f):
    return jax.jacfwd(jax.grad(f))

  def f(x):
    return jnp.dot(x, x)

  show(hessian(f)(jnp.array([1., 2., 3.])))

  # Value function and initial parameters
  value_fn = lambda theta, state: jnp.dot(theta, state)
  theta = jnp.array([0.1, -0.1, 0.])

  # An example transition.
  s_tm1 = jnp.array([1., 2., -1.])
  r_t = jnp.array(1.)
  s_t = jnp.array([2., 1., 0.])

  def td_loss(theta, s_tm1, r_t, s_t):
    v_tm1 = value_fn(theta, s_tm1)
    target = r_t + value_fn(theta, s_t)
    return -0.5 * ((target - v_tm1) ** 2)

  td_update = jax.grad(td_loss)
  delta_theta = td_update(theta, s_tm1, r_t, s_t)

  show(delta_theta)

  def td_loss(theta, s_tm1, r_t, s_t):
    v_tm1 = value_fn(theta, s_tm1)
    target = r_t + value_fn(theta, s_t)
    return -0.5 * ((jax.lax.stop_gradient(target) - v_tm1) ** 2)

  td_update = jax.grad(td_loss)
  delta_theta = td_update(theta, s_tm1, r_t, s_t)

  show(delta_theta)

  s_grad = jax.grad(value_fn)(theta, s_tm1)
  delta_theta_original_calculation = (r_t + value_fn(theta, s_t) - value_fn(theta, s_tm1)) * s_grad

  show(delta_theta_original_calculation) # [1.2, 2.4, -1.2], same as `delta_theta`

  def f(x):
    return jnp.round(x)  # non-differentiable

  def straight_through_f(x):
    # Create an exactly-zero expression with Sterbenz lemma that has
    # an exactly-one gradient.
    zero = x - jax.lax.stop_gradient(x)
    return zero + jax.lax.stop_gradient(f(x))

  print("f(x): ", f(3.2))
  print("straight_through_f(x):", straight_through_f(3.2))

  print("grad(f)(x):", jax.grad(f)(3.2))
  print("grad(straight_through_f)(x):", jax.grad(straight_through_f)(3.2))

  perex_grads = jax.jit(jax.vmap(jax.grad(td_loss), in_axes=(None, 0, 0, 0)))

  # Test it:
  batched_s_tm1 = jnp.stack([s_tm1, s_tm1])
  batched_r_t = jnp.stack([r_t, r_t])
  batched_s_t = jnp.stack([s_t, s_t])

  show(perex_grads(theta, batched_s_tm1, batched_r_t, batched_s_t))

  dtdloss_dtheta = jax.grad(td_loss)

  show(dtdloss_dtheta(theta, s_tm1, r_t, s_t))

  almost_perex_grads = jax.vmap(dtdloss_dtheta)

  batched_theta = jnp.stack([theta, theta])
  show(almost_perex_grads(batched_theta, batched_s_tm1, batched_r_t, batched_s_t))

  inefficient_perex_grads = jax.vmap(dtdloss_dtheta, in_axes=(None, 0, 0, 0))

  show(inefficient_perex_grads(theta, batched_s_tm1, batched_r_t, batched_s_t))

  perex_grads = jax.jit(inefficient_perex_grads)

  show(perex_grads(theta, batched_s_tm1, batched_r_t, batched_s_t))

  def hvp(f, x, v):
      return grad(lambda x: jnp.vdot(grad(f)(x), v))(x)

  from jax import jacfwd, jacrev

  # Define a sigmoid function.
  def sigmoid(x):
      return 0.5 * (jnp.tanh(x / 2) + 1)

  # Outputs probability of a label being true.
  def predict(W, b, inputs):
      return sigmoid(jnp.dot(inputs, W) + b)

  # Build a toy dataset.
  inputs = jnp.array([[0.52, 1.12,  0.77],
                     [0.88, -1.08, 0.15],
                     [0.52, 0.06, -1.30],
                     [0.74, -2.49, 1.39]])

  # Initialize random model coefficients
  key, W_key, b_key = random.split(key, 3)
  W = random.normal(W_key, (3,))
  b = random.normal(b_key, ())

  # Isolate the function from the weight matrix to the predictions
  f = lambda W: predict(W, b, inputs)

  J = jacfwd(f)(W)
  print("jacfwd result, with shape", J.shape)
  print(J)

  J = jacrev(f)(W)
  print("jacrev result, with shape", J.shape)
  print(J)

  def predict_dict(params, inputs):
      return predict(params['W'], params['b'], inputs)

  J_dict = jacrev(predict_dict)({'W': W, 'b': b}, inputs)
  for k, v in J_dict.items():
      print("Jacobian from {} to logits is".format(k))
      print(v)

  def hessian(f):
      return jacfwd(jacrev(f))

  H = hessian(f)(W)
  print("hessian, with shape", H.shape)
  print(H)

  from jax import jvp

  # Isolate the function from the weight matrix to the predictions
  f = lambda W: predict(W, b, inputs)

  key, subkey = random.split(key)
  v = random.normal(subkey, W.shape)

  # Push forward the vector `v` along `f` evaluated at `W`
  y, u = jvp(f, (W,), (v,))
  show(y)
  show(u)

  from jax import vjp

  # Isolate the function from the weight matrix to the predictions
  f = lambda W: predict(W, b, inputs)

  y, vjp_fun = vjp(f, W)

  key, subkey = random.split(key)
  u = random.normal(subkey, y.shape)

  # Pull back the covector `u` along `f` evaluated at `W`
  v = vjp_fun(u)
  show(v[0])

  def vgrad(f, x):
    y, vjp_fn = vjp(f, x)
    return vjp_fn(jnp.ones(y.shape))[0]

  print(vgrad(lambda x: 3*x**2, jnp.ones((2, 2))))

  def hvp(f, x, v):
      return grad(lambda x: jnp.vdot(grad(f)(x), v))(x)

  # forward-over-reverse
  def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]

  def f(X):
    return jnp.sum(jnp.tanh(X)**2)

  key, subkey1, subkey2 = random.split(key, 3)
  X = random.normal(subkey1, (3, 4))
  V = random.normal(subkey2, (3, 4))

  ans1 = hvp(f, (X,), (V,))
  ans2 = jnp.tensordot(hessian(f)(X), V, 2)

  print(jnp.allclose(ans1, ans2, 1e-4, 1e-4))
  show(ans1)

  # Reverse-over-forward
  def hvp_revfwd(f, primals, tangents):
    g = lambda primals: jvp(f, primals, tangents)[1]
    return grad(g)(primals)

  # Reverse-over-reverse, only works for single arguments
  def hvp_revrev(f, primals, tangents):
    x, = primals
    v, = tangents
    return grad(lambda x: jnp.vdot(grad(f)(x), v))(x)

  show(hvp_revfwd(f, (X,), (V,))[0])
  show(hvp_revrev(f, (X,), (V,)))

  # Isolate the function from the weight matrix to the predictions
  f = lambda W: predict(W, b, inputs)

  # Pull back the covectors `m_i` along `f`, evaluated at `W`, for all `i`.
  # First, use a list comprehension to loop over rows in the matrix M.
  def loop_mjp(f, x, M):
      y, vjp_fun = vjp(f, x)
      return jnp.vstack([vjp_fun(mi) for mi in M])

  # Now, use vmap to build a computation that does a single fast matrix-matrix
  # multiply, rather than an outer loop over vector-matrix multiplies.
  def vmap_mjp(f, x, M):
      y, vjp_fun = vjp(f, x)
      outs, = vmap(vjp_fun)(M)
      return outs

  key = random.key(0)
  num_covecs = 8
  U = random.normal(key, (num_covecs,) + y.shape)

  try:
    loop_vs = loop_mjp(f, W, M=U)
  except TypeError as e:  # vjp_fun returns a tuple
    errors.append([type(e).__name__, str(e).splitlines()[0]])

  def loop_mjp(f, x, M):  # autodiff_cookbook.md's version
      y, vjp_fun = vjp(f, x)
      return jnp.vstack([jnp.asarray(vjp_fun(mi)) for mi in M])

  loop_vs = loop_mjp(f, W, M=U)
  print('Non-vmapped Matrix-Jacobian product')

  print('\nVmapped Matrix-Jacobian product')
  vmap_vs = vmap_mjp(f, W, M=U)

  assert jnp.allclose(loop_vs, vmap_vs), 'Vmap and non-vmapped Matrix-Jacobian Products should be identical'
  show(loop_vs)
  show(vmap_vs)

  def loop_jmp(f, W, M):
      # jvp immediately returns the primal and tangent values as a tuple,
      # so we'll compute and select the tangents in a list comprehension
      return jnp.vstack([jvp(f, (W,), (mi,))[1] for mi in M])

  def vmap_jmp(f, W, M):
      _jvp = lambda s: jvp(f, (W,), (s,))[1]
      return vmap(_jvp)(M)

  num_vecs = 8
  S = random.normal(key, (num_vecs,) + W.shape)

  loop_vs = loop_jmp(f, W, M=S)
  print('Non-vmapped Jacobian-Matrix product')
  vmap_vs = vmap_jmp(f, W, M=S)
  print('\nVmapped Jacobian-Matrix product')

  assert jnp.allclose(loop_vs, vmap_vs), 'Vmap and non-vmapped Jacobian-Matrix products should be identical'
  show(loop_vs)
  show(vmap_vs)

  from jax import jacrev as builtin_jacrev

  def our_jacrev(f):
      def jacfun(x):
          y, vjp_fun = vjp(f, x)
          # Use vmap to do a matrix-Jacobian product.
          # Here, the matrix is the Euclidean basis, so we get all
          # entries in the Jacobian at once.
          J, = vmap(vjp_fun, in_axes=0)(jnp.eye(len(y)))
          return J
      return jacfun

  assert jnp.allclose(builtin_jacrev(f)(W), our_jacrev(f)(W)), 'Incorrect reverse-mode Jacobian results!'

  from jax import jacfwd as builtin_jacfwd

  def our_jacfwd(f):
      def jacfun(x):
          _jvp = lambda s: jvp(f, (x,), (s,))[1]
          Jt = vmap(_jvp, in_axes=1)(jnp.eye(len(x)))
          return jnp.transpose(Jt)
      return jacfun

  assert jnp.allclose(builtin_jacfwd(f)(W), our_jacfwd(f)(W)), 'Incorrect forward-mode Jacobian results!'
  show(our_jacrev(f)(W))
  show(our_jacfwd(f)(W))

  def f(x):
      try:
          if x < 3:
              return 2 * x ** 3
          else:
              raise ValueError
      except ValueError:
          return jnp.pi * x

  y, f_vjp = vjp(f, 4.)
  print(jit(f_vjp)(1.))

  def f(z):
    x, y = jnp.real(z), jnp.imag(z)
    return u(x, y) + v(x, y) * 1j

  def g(x, y):
    return (u(x, y), v(x, y))

  def check(seed):
    key = random.key(seed)

    # random coeffs for u and v
    key, subkey = random.split(key)
    a, b, c, d = random.uniform(subkey, (4,))

    def fun(z):
      x, y = jnp.real(z), jnp.imag(z)
      return u(x, y) + v(x, y) * 1j

    def u(x, y):
      return a * x + b * y

    def v(x, y):
      return c * x + d * y

    # primal point
    key, subkey = random.split(key)
    x, y = random.uniform(subkey, (2,))
    z = x + y * 1j

    # tangent vector
    key, subkey = random.split(key)
    c, d = random.uniform(subkey, (2,))
    z_dot = c + d * 1j

    # check jvp
    _, ans = jvp(fun, (z,), (z_dot,))
    expected = (grad(u, 0)(x, y) * c +
                grad(u, 1)(x, y) * d +
                grad(v, 0)(x, y) * c * 1j+
                grad(v, 1)(x, y) * d * 1j)
    print(jnp.allclose(ans, expected))

  check(0)
  check(1)
  check(2)

  def check(seed):
    key = random.key(seed)

    # random coeffs for u and v
    key, subkey = random.split(key)
    a, b, c, d = random.uniform(subkey, (4,))

    def fun(z):
      x, y = jnp.real(z), jnp.imag(z)
      return u(x, y) + v(x, y) * 1j

    def u(x, y):
      return a * x + b * y

    def v(x, y):
      return c * x + d * y

    # primal point
    key, subkey = random.split(key)
    x, y = random.uniform(subkey, (2,))
    z = x + y * 1j

    # cotangent vector
    key, subkey = random.split(key)
    c, d = random.uniform(subkey, (2,))
    z_bar = jnp.array(c + d * 1j)  # for dtype control

    # check vjp
    _, fun_vjp = vjp(fun, z)
    ans, = fun_vjp(z_bar)
    expected = (grad(u, 0)(x, y) * c +
                grad(v, 0)(x, y) * (-d) +
                grad(u, 1)(x, y) * c * (-1j) +
                grad(v, 1)(x, y) * (-d) * (-1j))
    assert jnp.allclose(ans, expected, atol=1e-5, rtol=1e-5)

  check(0)
  check(1)
  check(2)

  def f(z):
    x, y = jnp.real(z), jnp.imag(z)
    return x**2 + y**2

  z = 3. + 4j
  show(grad(f)(z))

  def f(z):
    return jnp.sin(z)

  z = 3. + 4j
  show(grad(f, holomorphic=True)(z))

  def f(z):
    return jnp.conjugate(z)

  z = 3. + 4j
  show(grad(f, holomorphic=True)(z))  # f is not actually holomorphic!

  A = jnp.array([[5.,    2.+3j,    5j],
                [2.-3j,   7.,  1.+7j],
                [-5j,  1.-7j,    12.]])

  def f(X):
      L = jnp.linalg.cholesky(X)
      return jnp.sum((L - jnp.sin(L))**2)

  show(grad(f, holomorphic=True)(A))

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

  print(f(2., 3.))
  y, y_dot = jvp(f, (2., 3.), (1., 0.))
  print(y)
  print(y_dot)
  print(grad(f)(2., 3.))

  # Equivalent alternative using the `defjvps` convenience wrapper

  @custom_jvp
  def f(x, y):
    return jnp.sin(x) * y

  f.defjvps(lambda x_dot, primal_out, x, y: jnp.cos(x) * x_dot * y,
            lambda y_dot, primal_out, x, y: jnp.sin(x) * y_dot)

  print(f(2., 3.))
  y, y_dot = jvp(f, (2., 3.), (1., 0.))
  print(y)
  print(y_dot)
  print(grad(f)(2., 3.))

  from jax import custom_vjp

  @custom_vjp
  def f(x, y):
    return jnp.sin(x) * y

  def f_fwd(x, y):
  # Returns primal output and residuals to be used in backward pass by `f_bwd`.
    return f(x, y), (jnp.cos(x), jnp.sin(x), y)

  def f_bwd(res, g):
    cos_x, sin_x, y = res # Gets residuals computed in `f_fwd`
    return (cos_x * g * y, sin_x * g)

  f.defvjp(f_fwd, f_bwd)

  print(grad(f)(2., 3.))

  def log1pexp(x):
    return jnp.log(1. + jnp.exp(x))

  show(log1pexp(3.))

  print(jit(log1pexp)(3.))
  print(jit(grad(log1pexp))(3.))
  print(vmap(jit(grad(log1pexp)))(jnp.arange(3.)))

  print(grad(log1pexp)(100.))

  from jax import make_jaxpr

  show(make_jaxpr(grad(log1pexp))(100.))

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

  print(grad(log1pexp)(100.))

  print(jit(log1pexp)(3.))
  print(jit(grad(log1pexp))(3.))
  print(vmap(jit(grad(log1pexp)))(jnp.arange(3.)))

  @custom_jvp
  def log1pexp(x):
    return jnp.log(1. + jnp.exp(x))

  log1pexp.defjvps(lambda t, ans, x: (1 - 1/(1 + jnp.exp(x))) * t)

  print(grad(log1pexp)(100.))
  print(jit(log1pexp)(3.))
  print(jit(grad(log1pexp))(3.))
  print(vmap(jit(grad(log1pexp)))(jnp.arange(3.)))

  def f(x):
    return x / (1 + jnp.sqrt(x))

  print(grad(f)(0.))

  @custom_jvp
  def f(x):
    return x / (1 + jnp.sqrt(x))

  @f.defjvp
  def f_jvp(primals, tangents):
    x, = primals
    x_dot, = tangents
    ans = f(x)
    ans_dot = ((jnp.sqrt(x) + 2) / (2 * (jnp.sqrt(x) + 1)**2)) * x_dot
    return ans, ans_dot

  print(grad(f)(0.))

  @custom_jvp
  def f(x):
    return x / (1 + jnp.sqrt(x))

  f.defjvps(lambda t, ans, x: ((jnp.sqrt(x) + 2) / (2 * (jnp.sqrt(x) + 1)**2)) * t)

  print(grad(f)(0.))

  from functools import partial

  @custom_vjp
  def clip_gradient(lo, hi, x):
    return x  # identity function

  def clip_gradient_fwd(lo, hi, x):
    return x, (lo, hi)  # save bounds as residuals

  def clip_gradient_bwd(res, g):
    lo, hi = res
    return (None, None, jnp.clip(g, lo, hi))  # use None to indicate zero cotangents for lo and hi

  clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)

  t = jnp.linspace(0, 10, 20)

  show(jnp.sin(t))
  show(vmap(grad(jnp.sin))(t))

  def clip_sin(x):
    x = clip_gradient(-0.75, 0.75, x)
    return jnp.sin(x)

  show(clip_sin(t))
  show(vmap(grad(clip_sin))(t))

  from jax.lax import while_loop

  def fixed_point(f, a, x_guess):
    def cond_fun(carry):
      x_prev, x = carry
      return jnp.abs(x_prev - x) > 1e-6

    def body_fun(carry):
      _, x = carry
      return x, f(a, x)

    _, x_star = while_loop(cond_fun, body_fun, (x_guess, f(a, x_guess)))
    return x_star

  def newton_sqrt(a):
    update = lambda a, x: 0.5 * (x + a / x)
    return fixed_point(update, a, a)

  print(newton_sqrt(2.))

  print(jit(vmap(newton_sqrt))(jnp.array([1., 2., 3., 4.])))

  @partial(custom_vjp, nondiff_argnums=(0,))
  def fixed_point(f, a, x_guess):
    def cond_fun(carry):
      x_prev, x = carry
      return jnp.abs(x_prev - x) > 1e-6

    def body_fun(carry):
      _, x = carry
      return x, f(a, x)

    _, x_star = while_loop(cond_fun, body_fun, (x_guess, f(a, x_guess)))
    return x_star

  def fixed_point_fwd(f, a, x_init):
    x_star = fixed_point(f, a, x_init)
    return x_star, (a, x_star)

  def fixed_point_rev(f, res, x_star_bar):
    a, x_star = res
    _, vjp_a = vjp(lambda a: f(a, x_star), a)
    a_bar, = vjp_a(fixed_point(partial(rev_iter, f),
                               (a, x_star, x_star_bar),
                               x_star_bar))
    return a_bar, jnp.zeros_like(x_star)

  def rev_iter(f, packed, u):
    a, x_star, x_star_bar = packed
    _, vjp_x = vjp(lambda x: f(a, x), x_star)
    return x_star_bar + vjp_x(u)[0]

  fixed_point.defvjp(fixed_point_fwd, fixed_point_rev)

  print(newton_sqrt(2.))

  print(grad(newton_sqrt)(2.))
  print(grad(grad(newton_sqrt))(2.))

  print(grad(jnp.sqrt)(2.))
  print(grad(grad(jnp.sqrt))(2.))

  # f :: a -> b
  @custom_jvp
  def f(x):
    return jnp.sin(x)

  # f_jvp :: (a, T a) -> (b, T b)
  def f_jvp(primals, tangents):
    x, = primals
    t, = tangents
    return f(x), jnp.cos(x) * t

  f.defjvp(f_jvp)

  print(f(3.))

  y, y_dot = jvp(f, (3.,), (1.,))
  print(y)
  print(y_dot)

  print(grad(f)(3.))
  print(grad(grad(f))(3.))

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

  print(grad(f)(2., 3.))

  @custom_jvp
  def f(x):
    return jnp.sin(x)

  f.defjvps(lambda t, ans, x: jnp.cos(x) * t)

  print(grad(f)(3.))

  @custom_jvp
  def f(x, y):
    return x ** 2 * y

  f.defjvps(lambda x_dot, primal_out, x, y: 2 * x * y * x_dot,
            lambda y_dot, primal_out, x, y: x ** 2 * y_dot)

  print(grad(f)(2., 3.))
  print(grad(f, 0)(2., 3.))  # same as above
  print(grad(f, 1)(2., 3.))

  @custom_jvp
  def f(x, y):
    return x ** 2 * y

  f.defjvps(lambda x_dot, primal_out, x, y: 2 * x * y * x_dot,
            None)

  print(grad(f)(2., 3.))
  print(grad(f, 0)(2., 3.))  # same as above
  print(grad(f, 1)(2., 3.))

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

  print(f(3.))

  print(vmap(f)(jnp.arange(3.)))
  print(jit(f)(3.))

  y, y_dot = jvp(f, (3.,), (1.,))
  print(y_dot)

  print(grad(f)(3.))

  show(grad(grad(f))(3.))

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

  print(grad(f)(1.))
  print(grad(f)(-1.))

  from jax import custom_vjp

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

  f.defvjp(f_fwd, f_bwd)

  print(f(3.))
  print(grad(f)(3.))

  @custom_vjp
  def f(x, y):
    return jnp.sin(x) * y

  def f_fwd(x, y):
    return f(x, y), (jnp.cos(x), jnp.sin(x), y)

  def f_bwd(res, g):
    cos_x, sin_x, y = res
    return (cos_x * g * y, sin_x * g)

  f.defvjp(f_fwd, f_bwd)

  print(grad(f)(2., 3.))

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

  f.defvjp(f_fwd, f_bwd)

  print(f(3.))

  print(grad(f)(3.))

  y, f_vjp = vjp(f, 3.)
  print(y)

  print(f_vjp(1.))

  from jax import jvp

  try:
    jvp(f, (3.,), (1.,))
  except TypeError as e:  # JAX's sentence; numbax's message goes on to name the fix
    print('ERROR! {}'.format(str(e).split('.')[0]))

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

  pt = Point(1., 2.)

  print(f(pt))

  print(grad(fun)(pt))

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

  pt = Point(1., 2.)

  print(f(pt))

  print(grad(fun)(pt))

  from functools import partial

  @partial(custom_jvp, nondiff_argnums=(0,))
  def app(f, x):
    return f(x)

  @app.defjvp
  def app_jvp(f, primals, tangents):
    x, = primals
    x_dot, = tangents
    return f(x), 2. * x_dot

  print(app(lambda x: x ** 3, 3.))

  print(grad(app, 1)(lambda x: x ** 3, 3.))

  @partial(custom_jvp, nondiff_argnums=(0, 2))
  def app2(f, x, g):
    return f(g((x)))

  @app2.defjvp
  def app2_jvp(f, g, primals, tangents):
    x, = primals
    x_dot, = tangents
    return f(g(x)), 3. * x_dot

  print(app2(lambda x: x ** 3, 3., lambda y: 5 * y))

  print(grad(app2, 1)(lambda x: x ** 3, 3., lambda y: 5 * y))

  @partial(custom_vjp, nondiff_argnums=(0,))
  def app(f, x):
    return f(x)

  def app_fwd(f, x):
    return f(x), x

  def app_bwd(f, x, g):
    return (5 * g,)

  app.defvjp(app_fwd, app_bwd)

  print(app(lambda x: x ** 2, 4.))

  print(grad(app, 1)(lambda x: x ** 2, 4.))
  return dict(printed=printed, shown=shown, errors=errors)
