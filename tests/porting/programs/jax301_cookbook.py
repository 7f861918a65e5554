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

"""JAX's docs/new_docs/301/cookbook.md ("The Autodiff Cookbook with JVP and VJP", the new
docs' reorganized cookbook, 0f1cbf0f64): its code cells verbatim in `_cells()`, a cell's last
expression shown as the notebook shows it (`_show`); run() returns what the cells printed
(numbers apart) and the `%timeit`ed values (`timed`, (port): each statement run once). Covers:
`jacfwd`/`jacrev`/`hessian` of a logistic regression, a TD(0) loss with `stop_gradient`, a
straight-through rounding, `jvp`, `vjp`, `linearize`, vector-valued gradients by `vjp`, HVPs
forward-over-reverse, reverse-over-forward and reverse-over-reverse, matrix-Jacobian products
by loops and by `vmap`, `jacfwd`/`jacrev` rebuilt from `vmap`, a `jit`ted VJP of a function
with Python control flow, complex JVPs and VJPs, conjugated gradient descent, Wirtinger
derivatives, `grad(holomorphic=True)` of `sin`, `conjugate` and a Cholesky factor."""

from tests.porting import printed
from tests.porting.printed import show as _show  # (port) the harness


def run():
  return printed.notebook(_cells)


def _cells(out, errors, mark):
  import jax.numpy as jnp
  from jax import grad, jit, vmap
  from jax import random

  key = random.key(0)
  mark(1)
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
  targets = jnp.array([True, True, False, True])

  # Training loss is the negative log-likelihood of the training examples.
  def loss(W, b):
      preds = predict(W, b, inputs)
      label_probs = preds * targets + (1 - preds) * (1 - targets)
      return -jnp.sum(jnp.log(label_probs))

  # Initialize random model coefficients
  key, W_key, b_key = random.split(key, 3)
  W = random.normal(W_key, (3,))
  b = random.normal(b_key, ())
  mark(2)
  from jax import jacfwd, jacrev

  # Isolate the function from the weight matrix to the predictions
  f = lambda W: predict(W, b, inputs)

  J = jacfwd(f)(W)
  print("jacfwd result, with shape", J.shape)
  print(J)

  J = jacrev(f)(W)
  print("jacrev result, with shape", J.shape)
  print(J)
  mark(3)
  def predict_dict(params, inputs):
      return predict(params['W'], params['b'], inputs)

  J_dict = jacrev(predict_dict)({'W': W, 'b': b}, inputs)
  for k, v in J_dict.items():
      print("Jacobian from {} to logits is".format(k))
      print(v)
  mark(4)
  def hessian(f):
      return jacfwd(jacrev(f))

  H = hessian(f)(W)
  print("hessian, with shape", H.shape)
  print(H)
  mark(5)
  from jax import lax

  def value_fn(theta, state):
    return jnp.dot(theta, state)

  def td_loss(theta, s_prev, r, s):
    v_prev = value_fn(theta, s_prev)
    target = r + value_fn(theta, s)
    return -0.5 * (lax.stop_gradient(target) - v_prev) ** 2

  theta = jnp.array([0.1, -0.1, 0.])
  s_prev, r, s = jnp.array([1., 2., -1.]), 1., jnp.array([2., 1., 0.])
  print(grad(td_loss)(theta, s_prev, r, s))
  mark(6)
  def straight_through_round(x):
    return x + lax.stop_gradient(jnp.round(x) - x)

  print(straight_through_round(1.7))        # rounds like round
  print(grad(straight_through_round)(1.7))  # differentiates like the identity
  mark(7)
  from jax import jvp

  # Isolate the function from the weight matrix to the predictions
  f = lambda W: predict(W, b, inputs)

  key, subkey = random.split(key)
  v = random.normal(subkey, W.shape)

  # Push forward the vector `v` along `f` evaluated at `W`
  y, u = jvp(f, (W,), (v,))
  mark(8)
  from jax import vjp

  # Isolate the function from the weight matrix to the predictions
  f = lambda W: predict(W, b, inputs)

  y, vjp_fun = vjp(f, W)

  key, subkey = random.split(key)
  u = random.normal(subkey, y.shape)

  # Pull back the covector `u` along `f` evaluated at `W`
  v = vjp_fun(u)
  mark(9)
  from jax import linearize

  f = lambda W: predict(W, b, inputs)

  y, f_jvp = linearize(f, W)
  print(y)
  mark(10)
  key, k1, k2 = random.split(key, 3)
  v1, v2 = random.normal(k1, W.shape), random.normal(k2, W.shape)
  print(f_jvp(v1))
  print(f_jvp(v2))
  mark(11)
  from jax import linear_transpose, vjp

  f_vjp = linear_transpose(f_jvp, W)      # transpose of the linearization...

  y2, f_vjp_ref = vjp(f, W)               # ...is exactly what vjp computes

  u = jnp.ones_like(y)
  print(jnp.allclose(f_vjp(u)[0], f_vjp_ref(u)[0]))
  mark(12)
  from jax import vjp

  def vgrad(f, x):
    y, vjp_fn = vjp(f, x)
    return vjp_fn(jnp.ones(y.shape))[0]

  print(vgrad(lambda x: 3*x**2, jnp.ones((2, 2))))
  mark(13)
  from jax import jvp, grad

  # forward-over-reverse
  def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]
  mark(14)
  def f(X):
    return jnp.sum(jnp.tanh(X)**2)

  key, subkey1, subkey2 = random.split(key, 3)
  X = random.normal(subkey1, (30, 40))
  V = random.normal(subkey2, (30, 40))

  ans1 = hvp(f, (X,), (V,))
  ans2 = jnp.tensordot(hessian(f)(X), V, 2)

  print(jnp.allclose(ans1, ans2, 1e-4, 1e-4))
  mark(15)
  # reverse-over-forward
  def hvp_revfwd(f, primals, tangents):
    g = lambda primals: jvp(f, primals, tangents)[1]
    return grad(g)(primals)
  mark(16)
  # reverse-over-reverse, only works for single arguments
  def hvp_revrev(f, primals, tangents):
    x, = primals
    v, = tangents
    return grad(lambda x: jnp.vdot(grad(f)(x), v))(x)


  print("Forward over reverse")
  out.setdefault('timed', []).append(hvp(f, (X,), (V,)))  # (port) %timeit
  print("Reverse over forward")
  out.setdefault('timed', []).append(hvp_revfwd(f, (X,), (V,)))  # (port) %timeit
  print("Reverse over reverse")
  out.setdefault('timed', []).append(hvp_revrev(f, (X,), (V,)))  # (port) %timeit

  print("Naive full Hessian materialization")
  out.setdefault('timed', []).append(jnp.tensordot(hessian(f)(X), V, 2))  # (port) %timeit
  mark(17)
  # Isolate the function from the weight matrix to the predictions
  f = lambda W: predict(W, b, inputs)

  # Pull back the covectors `m_i` along `f`, evaluated at `W`, for all `i`.
  # First, use a list comprehension to loop over rows in the matrix M.
  def loop_mjp(f, x, M):
      y, vjp_fun = vjp(f, x)
      return jnp.vstack([jnp.asarray(vjp_fun(mi)) for mi in M])

  # Now, use vmap to build a computation that does a single fast matrix-matrix
  # multiply, rather than an outer loop over vector-matrix multiplies.
  def vmap_mjp(f, x, M):
      y, vjp_fun = vjp(f, x)
      outs, = vmap(vjp_fun)(M)
      return outs

  key = random.key(0)
  num_covecs = 128
  U = random.normal(key, (num_covecs,) + y.shape)

  loop_vs = loop_mjp(f, W, M=U)
  print('Non-vmapped Matrix-Jacobian product')
  out.setdefault('timed', []).append(loop_mjp(f, W, M=U))  # (port) %timeit

  print('\nVmapped Matrix-Jacobian product')
  vmap_vs = vmap_mjp(f, W, M=U)
  out.setdefault('timed', []).append(vmap_mjp(f, W, M=U))  # (port) %timeit

  assert jnp.allclose(loop_vs, vmap_vs), 'Vmap and non-vmapped Matrix-Jacobian Products should be identical'
  mark(18)
  def loop_jmp(f, W, M):
      # jvp immediately returns the primal and tangent values as a tuple,
      # so we'll compute and select the tangents in a list comprehension
      return jnp.vstack([jvp(f, (W,), (mi,))[1] for mi in M])

  def vmap_jmp(f, W, M):
      _jvp = lambda s: jvp(f, (W,), (s,))[1]
      return vmap(_jvp)(M)

  num_vecs = 128
  S = random.normal(key, (num_vecs,) + W.shape)

  loop_vs = loop_jmp(f, W, M=S)
  print('Non-vmapped Jacobian-Matrix product')
  out.setdefault('timed', []).append(loop_jmp(f, W, M=S))  # (port) %timeit
  vmap_vs = vmap_jmp(f, W, M=S)
  print('\nVmapped Jacobian-Matrix product')
  out.setdefault('timed', []).append(vmap_jmp(f, W, M=S))  # (port) %timeit

  assert jnp.allclose(loop_vs, vmap_vs), 'Vmap and non-vmapped Jacobian-Matrix products should be identical'
  mark(19)
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
  mark(20)
  from jax import jacfwd as builtin_jacfwd

  def our_jacfwd(f):
      def jacfun(x):
          _jvp = lambda s: jvp(f, (x,), (s,))[1]
          Jt = vmap(_jvp, in_axes=1)(jnp.eye(len(x)))
          return jnp.transpose(Jt)
      return jacfun

  assert jnp.allclose(builtin_jacfwd(f)(W), our_jacfwd(f)(W)), 'Incorrect forward-mode Jacobian results!'
  mark(21)
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
  mark(22)
  def u(x, y): return x**2 + jnp.sin(y)
  def v(x, y): return x * y

  def fun(z):  # not holomorphic!
    x, y = jnp.real(z), jnp.imag(z)
    return u(x, y) + v(x, y) * 1j

  z = 1.5 + 0.5j
  x, y = jnp.real(z), jnp.imag(z)
  J = jnp.array([[grad(u, 0)(x, y), grad(u, 1)(x, y)],
                 [grad(v, 0)(x, y), grad(v, 1)(x, y)]])

  t = 0.7 - 0.3j
  _, t_out = jvp(fun, (z,), (t,))
  t_pair = J @ jnp.array([jnp.real(t), jnp.imag(t)])
  print(jnp.allclose(t_out, t_pair[0] + t_pair[1] * 1j))
  mark(23)
  w = -0.2 + 1.1j

  _, fun_vjp = vjp(fun, z)
  w_out, = fun_vjp(w)

  print(jnp.allclose(jnp.real(w * t_out), jnp.real(w_out * t)))       # True
  print(jnp.allclose(jnp.real(jnp.conj(w) * t_out),
                     jnp.real(jnp.conj(w_out) * t)))                  # False!
  mark(24)
  _, t_out = jvp(jnp.sin, (z,), (t,))
  _, sin_vjp = vjp(jnp.sin, z)
  w_out, = sin_vjp(w)
  print(jnp.allclose(t_out, jnp.cos(z) * t))
  print(jnp.allclose(w_out, jnp.cos(z) * w))
  mark(25)
  def f(z):
    x, y = jnp.real(z), jnp.imag(z)
    return x**2 + y**2      # |z|^2, minimized at z = 0

  print(grad(f)(3. + 4j))   # 6 - 8j: conjugate of the steepest-ascent 6 + 8j
  mark(26)
  z = 3. + 4j
  for _ in range(100):
    z = z - 0.05 * jnp.conj(grad(f)(z))   # with the conjugate: descends
  print(f(z))

  z = 3. + 4j
  for _ in range(100):
    z = z - 0.05 * grad(f)(z)             # without: the imaginary part grows!
  print(f(z))
  mark(27)
  z = 1.5 + 0.5j                # the point where we computed J above

  fx = J[0, 0] + J[1, 0] * 1j   # df/dx = du/dx + i dv/dx
  fy = J[0, 1] + J[1, 1] * 1j   # df/dy = du/dy + i dv/dy
  dfdz    = 0.5 * (fx - 1j * fy)
  dfdzbar = 0.5 * (fx + 1j * fy)

  _, t_out = jvp(fun, (z,), (t,))
  print(jnp.allclose(t_out, dfdz * t + dfdzbar * jnp.conj(t)))
  mark(28)
  print(grad(jnp.sin, holomorphic=True)(3. + 4j))
  print(jnp.cos(3. + 4j))
  mark(29)
  def f(z):
    return jnp.conjugate(z)   # not holomorphic!

  _show(grad(f, holomorphic=True)(3. + 4j))
  mark(30)
  A = jnp.array([[5.,    2.+3j,    5j],
                [2.-3j,   7.,  1.+7j],
                [-5j,  1.-7j,    12.]])

  def f(X):
      L = jnp.linalg.cholesky(X)
      return jnp.sum((L - jnp.sin(L))**2)

  _show(grad(f, holomorphic=True)(A))

  mark(99)
