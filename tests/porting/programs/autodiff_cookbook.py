# Copyright 2018 The JAX Authors.
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

"""JAX's docs/notebooks/autodiff_cookbook.md: its code cells verbatim in `run()` (without the
%timeit lines; 8 instead of 128 covectors, a 3x4 instead of a 30x40 Hessian-vector product);
run() returns what the cells printed or showed."""

import jax.numpy as jnp
from jax import grad, jit, vmap
from jax import random


def run():
  out = {}
  key = random.key(0)

  grad_tanh = grad(jnp.tanh)
  out['grad_tanh'] = grad_tanh(2.0)
  out['grad2_tanh'] = grad(grad(jnp.tanh))(2.0)
  out['grad3_tanh'] = grad(grad(grad(jnp.tanh)))(2.0)

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
  out['W'], out['b'] = W, b

  W_grad = grad(loss, argnums=0)(W, b)
  out['W_grad'] = W_grad
  b_grad = grad(loss, 1)(W, b)
  out['b_grad'] = b_grad
  out['Wb_grad'] = grad(loss, (0, 1))(W, b)

  def loss2(params_dict):
      preds = predict(params_dict['W'], params_dict['b'], inputs)
      label_probs = preds * targets + (1 - preds) * (1 - targets)
      return -jnp.sum(jnp.log(label_probs))

  out['grad_dict'] = grad(loss2)({'W': W, 'b': b})

  from jax import value_and_grad
  loss_value, Wb_grad = value_and_grad(loss, (0, 1))(W, b)
  out['loss_value'] = [loss_value, loss(W, b), Wb_grad]

  # Set a step size for finite differences calculations
  eps = 1e-4

  # Check b_grad with scalar finite differences
  b_grad_numerical = (loss(W, b + eps / 2.) - loss(W, b - eps / 2.)) / eps
  out['b_grad_numerical'] = jnp.round(b_grad_numerical, 1)

  # Check W_grad with finite differences in a random direction
  key, subkey = random.split(key)
  vec = random.normal(subkey, W.shape)
  unitvec = vec / jnp.sqrt(jnp.vdot(vec, vec))
  out['W_dirderiv_autodiff'] = jnp.vdot(grad(loss)(W, b), unitvec)

  from jax.test_util import check_grads
  out['check_grads'] = check_grads(loss, (W, b), order=2)  # check up to 2nd order derivatives

  from jax import jacfwd, jacrev

  # Isolate the function from the weight matrix to the predictions
  f = lambda W: predict(W, b, inputs)

  out['jacfwd'] = jacfwd(f)(W)
  out['jacrev'] = jacrev(f)(W)

  def predict_dict(params, inputs):
      return predict(params['W'], params['b'], inputs)

  out['J_dict'] = jacrev(predict_dict)({'W': W, 'b': b}, inputs)

  def hessian(f):
      return jacfwd(jacrev(f))

  out['hessian'] = hessian(f)(W)

  from jax import jvp

  key, subkey = random.split(key)
  v = random.normal(subkey, W.shape)

  # Push forward the vector `v` along `f` evaluated at `W`
  y, u = jvp(f, (W,), (v,))
  out['jvp'] = [y, u]

  from jax import vjp

  y, vjp_fun = vjp(f, W)

  key, subkey = random.split(key)
  u = random.normal(subkey, y.shape)

  # Pull back the covector `u` along `f` evaluated at `W`
  v = vjp_fun(u)
  out['vjp'] = v

  def vgrad(f, x):
    y, vjp_fn = vjp(f, x)
    return vjp_fn(jnp.ones(y.shape))[0]

  out['vgrad'] = vgrad(lambda x: 3*x**2, jnp.ones((2, 2)))

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
  out['hvp'] = [ans1, bool(jnp.allclose(ans1, ans2, 1e-4, 1e-4))]

  # reverse-over-forward
  def hvp_revfwd(f, primals, tangents):
    g = lambda primals: jvp(f, primals, tangents)[1]
    return grad(g)(primals)

  # reverse-over-reverse, only works for single arguments
  def hvp_revrev(f, primals, tangents):
    x, = primals
    v, = tangents
    return grad(lambda x: jnp.vdot(grad(f)(x), v))(x)

  out['hvp_revfwd'] = hvp_revfwd(f, (X,), (V,))
  out['hvp_revrev'] = hvp_revrev(f, (X,), (V,))

  # Isolate the function from the weight matrix to the predictions
  f = lambda W: predict(W, b, inputs)

  def loop_mjp(f, x, M):
      y, vjp_fun = vjp(f, x)
      return jnp.vstack([jnp.asarray(vjp_fun(mi)) for mi in M])

  def vmap_mjp(f, x, M):
      y, vjp_fun = vjp(f, x)
      outs, = vmap(vjp_fun)(M)
      return outs

  key = random.key(0)
  num_covecs = 8
  U = random.normal(key, (num_covecs,) + y.shape)

  loop_vs = loop_mjp(f, W, M=U)
  vmap_vs = vmap_mjp(f, W, M=U)
  assert jnp.allclose(loop_vs, vmap_vs), 'Vmap and non-vmapped Matrix-Jacobian Products should be identical'
  out['mjp'] = [loop_vs, vmap_vs]

  def loop_jmp(f, W, M):
      return jnp.vstack([jvp(f, (W,), (mi,))[1] for mi in M])

  def vmap_jmp(f, W, M):
      _jvp = lambda s: jvp(f, (W,), (s,))[1]
      return vmap(_jvp)(M)

  num_vecs = 8
  S = random.normal(key, (num_vecs,) + W.shape)

  loop_vs = loop_jmp(f, W, M=S)
  vmap_vs = vmap_jmp(f, W, M=S)
  assert jnp.allclose(loop_vs, vmap_vs), 'Vmap and non-vmapped Jacobian-Matrix products should be identical'
  out['jmp'] = [loop_vs, vmap_vs]

  from jax import jacrev as builtin_jacrev

  def our_jacrev(f):
      def jacfun(x):
          y, vjp_fun = vjp(f, x)
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
  out['our_jac'] = [our_jacrev(f)(W), our_jacfwd(f)(W)]

  def f(x):
      try:
          if x < 3:
              return 2 * x ** 3
          else:
              raise ValueError
      except ValueError:
          return jnp.pi * x

  y, f_vjp = vjp(f, 4.)
  out['jit_f_vjp'] = jit(f_vjp)(1.)

  checks = []

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
    checks.append(bool(jnp.allclose(ans, expected)))

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
    checks.append([jnp.real(ans), jnp.imag(ans)])

  check(0)
  check(1)
  check(2)
  out['checks'] = checks

  def f(z):
    x, y = jnp.real(z), jnp.imag(z)
    return x**2 + y**2

  z = 3. + 4j
  g = grad(f)(z)
  out['grad_complex'] = [str(g.dtype), jnp.real(g), jnp.imag(g)]

  def f(z):
    return jnp.sin(z)

  z = 3. + 4j
  g = grad(f, holomorphic=True)(z)
  out['grad_sin'] = [str(g.dtype), jnp.real(g), jnp.imag(g)]

  def f(z):
    return jnp.conjugate(z)

  z = 3. + 4j
  g = grad(f, holomorphic=True)(z)  # f is not actually holomorphic!
  out['grad_conj'] = [str(g.dtype), jnp.real(g), jnp.imag(g)]

  A = jnp.array([[5.,    2.+3j,    5j],
                [2.-3j,   7.,  1.+7j],
                [-5j,  1.-7j,    12.]])

  def f(X):
      L = jnp.linalg.cholesky(X)
      return jnp.sum((L - jnp.sin(L))**2)

  g = grad(f, holomorphic=True)(A)
  out['grad_cholesky'] = [str(g.dtype), jnp.real(g), jnp.imag(g)]
  return out
