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


"""JAX's docs/new_docs/101/transformations.md ("JAX 101: Transformations", 0f1cbf0f64): its code
cells verbatim in `_cells()` on eight CPU devices, a cell's last expression shown as the
notebook shows it (`_show`); run() returns what the cells printed (numbers apart) and the
errors of its `raises-exception` cells by built-in class and first line.
Covers: `grad` with `argnums`, `has_aux` and `value_and_grad`, finite differences, `vmap` with
`in_axes`/`out_axes`, nested `vmap` for pairwise distances, tracers printed, `make_jaxpr` of
loops unrolled and of `vmap`, the `if` on a tracer's error."""

from tests.porting import printed
from tests.porting.printed import error as _error, show as _show  # (port) the harness


def run():
  return printed.notebook(_cells)


def _cells(out, errors, mark):
  import jax
  import jax.numpy as jnp

  grad_tanh = jax.grad(jnp.tanh)
  print(grad_tanh(2.0))
  mark(1)

  f = lambda x: x**3 + 2*x**2 - 3*x + 1

  dfdx = jax.grad(f)
  d2fdx = jax.grad(dfdx)
  d3fdx = jax.grad(d2fdx)

  print(dfdx(1.0))   # 3x² + 4x - 3  evaluated at 1, i.e. 4
  print(d2fdx(1.0))  # 6x + 4        evaluated at 1, i.e. 10
  print(d3fdx(1.0))  # 6
  mark(2)

  def sigmoid(x):
    return 0.5 * (jnp.tanh(x / 2) + 1)

  # Outputs probability of a label being true.
  def predict(W, b, inputs):
    return sigmoid(jnp.dot(inputs, W) + b)

  # A toy dataset, and some parameter values.
  inputs = jnp.array([[0.52, 1.12,  0.77],
                      [0.88, -1.08, 0.15],
                      [0.52, 0.06, -1.30],
                      [0.74, -2.49, 1.39]])
  targets = jnp.array([True, True, False, True])
  W = jnp.array([0.1, 0.4, -0.3])
  b = 0.5

  # Training loss is the negative log-likelihood of the training examples.
  def loss(W, b):
    preds = predict(W, b, inputs)
    label_probs = preds * targets + (1 - preds) * (1 - targets)
    return -jnp.sum(jnp.log(label_probs))
  mark(3)

  # Differentiate `loss` with respect to the first positional argument:
  W_grad = jax.grad(loss, argnums=0)(W, b)
  print(f'{W_grad=}')

  # Since argnums=0 is the default, this does the same thing:
  W_grad = jax.grad(loss)(W, b)
  print(f'{W_grad=}')

  # But you can choose different values too, and drop the keyword:
  b_grad = jax.grad(loss, 1)(W, b)
  print(f'{b_grad=}')

  # Including tuple values:
  W_grad, b_grad = jax.grad(loss, (0, 1))(W, b)
  print(f'{W_grad=}')
  print(f'{b_grad=}')
  mark(4)

  loss_value, Wb_grad = jax.value_and_grad(loss, (0, 1))(W, b)
  print(loss_value)
  mark(5)

  def loss_and_preds(W, b):
    preds = predict(W, b, inputs)
    label_probs = preds * targets + (1 - preds) * (1 - targets)
    return -jnp.sum(jnp.log(label_probs)), preds

  W_grad, preds = jax.grad(loss_and_preds, has_aux=True)(W, b)
  print(preds)
  mark(6)

  eps = 1e-4
  b_grad_numerical = (loss(W, b + eps / 2.) - loss(W, b - eps / 2.)) / eps
  print('b_grad_numerical', b_grad_numerical)
  print('b_grad_autodiff', jax.grad(loss, 1)(W, b))
  mark(7)

  from jax.test_util import check_grads

  _show(check_grads(loss, (W, b), order=2))  # check up to 2nd order derivatives
  mark(8)

  x = jnp.arange(5.0)
  w = jnp.array([2., 3., 4.])

  def convolve(x, w):
    output = []
    for i in range(1, len(x) - 1):
      output.append(jnp.dot(x[i-1:i+2], w))
    return jnp.array(output)

  _show(convolve(x, w))
  mark(9)

  xs = jnp.stack([x, x])
  ws = jnp.stack([w, w])
  mark(10)

  def manually_batched_convolve(xs, ws):
    output = []
    for i in range(xs.shape[0]):
      output.append(convolve(xs[i], ws[i]))
    return jnp.stack(output)

  _show(manually_batched_convolve(xs, ws))
  mark(11)

  auto_batch_convolve = jax.vmap(convolve)

  _show(auto_batch_convolve(xs, ws))
  mark(12)

  auto_batch_convolve_v2 = jax.vmap(convolve, in_axes=1, out_axes=1)

  xst = jnp.transpose(xs)
  wst = jnp.transpose(ws)

  _show(auto_batch_convolve_v2(xst, wst))
  mark(13)

  batch_convolve_v3 = jax.vmap(convolve, in_axes=[0, None])

  _show(batch_convolve_v3(xs, w))
  mark(14)

  def dist(x, y):
    return jnp.sqrt(jnp.sum((x - y) ** 2))

  def all_pairs(f):
    return jax.vmap(jax.vmap(f, in_axes=(None, 0)), in_axes=(0, None))

  points = jnp.array([[0., 0.], [1., 0.], [0., 2.]])
  _show(all_pairs(dist)(points, points))
  mark(15)

  def example_loss(W, b, x, y):
    pred = predict(W, b, x)
    label_prob = pred * y + (1 - pred) * (1 - y)
    return -jnp.log(label_prob)

  per_example_grads = jax.vmap(jax.grad(example_loss, (0, 1)),
                               in_axes=(None, None, 0, 0))
  W_grads, b_grads = per_example_grads(W, b, inputs, targets)
  print(W_grads)  # one gradient per example
  print(b_grads)
  mark(16)

  def f(x):
    print("x =", x)
    print("jax.typeof(x) =", jax.typeof(x))
    return x * 2

  result = jax.vmap(f)(jnp.arange(3))
  mark(17)

  def g(x):
    return jnp.sin(x) * 2.0

  _show(jax.jit(g).trace(1.0).jaxpr)
  mark(18)

  _show(jax.jit(convolve).trace(x, w).jaxpr)
  mark(19)

  _show(jax.jit(jax.vmap(convolve)).trace(xs, ws).jaxpr)
  mark(20)

  _show(jax.jit(manually_batched_convolve).trace(xs, ws).jaxpr)
  mark(21)

  # warning: `.val` is unsupported internals, so don't rely on it in real code!
  _show(jax.vmap(lambda x: print(x.val))(jnp.arange(3.0)))
  mark(22)

  try:
    def absolute(x):
      if x > 0:      # needs one answer, but x stands for a whole batch of values
        return x
      else:
        return -x

    _show(jax.vmap(absolute)(jnp.arange(-2.0, 3.0)))
  except Exception as e:  # (port) raises-exception
    _error(errors, e)
  mark(23)

  def absolute(x):
    return jnp.where(x > 0, x, -x)

  _show(jax.vmap(absolute)(jnp.arange(-2.0, 3.0)))
  mark(24)

  def f(x):
    if x < 3:
      return 3. * x ** 2
    else:
      return -4. * x

  print(jax.grad(f)(2.0))  # differentiates the 3x² branch: 6x at x=2
  print(jax.grad(f)(4.0))  # differentiates the -4x branch
  mark(25)

  def sqrt_newton(a):
    x = a
    while abs(x * x - a) > 1e-6:   # data-dependent loop
      x = 0.5 * (x + a / x)
    return x

  print(sqrt_newton(2.0))
  print(jax.grad(sqrt_newton)(2.0))  # 1/(2√2) ≈ 0.3536
  mark(26)

  @jax.jit          # equivalent to sum_sq = jax.jit(sum_sq)
  def sum_sq(x):
    return jnp.sum(x ** 2)

  _show(sum_sq(jnp.arange(3.0)))
  mark(27)
