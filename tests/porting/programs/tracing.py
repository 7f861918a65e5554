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

"""JAX's docs/tracing.md ("Tracing") and docs/automatic-differentiation.md ("Automatic
differentiation"): their code cells verbatim in `run()`. Tracing: prints inside a jitted
function on float64 numpy inputs (the tracers' text), no retrace on a second call,
`make_jaxpr`'s input and output types, `-x if neg else x` on a tracer's error, `jit` used as a
decorator factory with `static_argnums`, a traced shape's `reshape` error, `x.shape` static
and `jnp.array(x.shape).prod()` traced, `np.prod` of the shape, and `grad` of the page's
`divide` (the page says it works; called here). Autodiff: higher derivatives of `tanh` and of
a cubic, logistic regression gradients by `argnums` (0, 1, a tuple), a dict of parameters,
`value_and_grad`, finite differences and `check_grads(order=2)`. run() returns what the cells
printed and showed (numbers apart) and errors by class and first line."""

from tests.porting import printed


def run():
  out = {}
  errors = []
  with printed.Cells(lambda text: printed.numbered(text, columns=True)) as cells:
    _tracing(out, errors, cells.mark)
    _autodiff(out, cells.mark)
  out['printed'] = cells.printed
  out['errors'] = errors
  return out


def _error(errors, e):
  """(port) a `raises-exception` cell's error: its class and first line."""
  errors.append([type(e).__name__, str(e).splitlines()[0]])


def _tracing(out, errors, mark):
  from jax import jit
  import jax.numpy as jnp
  import numpy as np

  np.random.seed(0)  # (port) the page's unseeded inputs seeded

  @jit
  def f(x, y):
    print("Running f():")
    print(f"  x = {x}")
    print(f"  y = {y}")
    result = jnp.dot(x + 1, y + 1)
    print(f"  result = {result}")
    return result

  x = np.random.randn(3, 4)
  y = np.random.randn(4)
  out['f'] = f(x, y)
  mark('f')

  x2 = np.random.randn(3, 4)
  y2 = np.random.randn(4)
  out['f2'] = f(x2, y2)
  mark('f2')

  from jax import make_jaxpr

  def f(x, y):
    return jnp.dot(x + 1, y + 1)

  jaxpr = make_jaxpr(f)(x, y)
  out['jaxpr'] = [str(v.aval) for v in [*jaxpr.jaxpr.invars, *jaxpr.jaxpr.outvars]]

  @jit
  def f(x, neg):
    return -x if neg else x

  try:
    f(1, True)
  except Exception as e:
    _error(errors, e)

  from functools import partial

  @jit(static_argnums=(1,))
  def f(x, neg):
    return -x if neg else x

  out['static'] = [f(1, True), f(1, False)]

  import jax.numpy as jnp
  from jax import jit

  @jit
  def f(x):
    return x.reshape(jnp.array(x.shape).prod())

  x = jnp.ones((2, 3))
  try:
    f(x)
  except Exception as e:
    _error(errors, e)

  @jit
  def f(x):
    print(f"x = {x}")
    print(f"x.shape = {x.shape}")
    print(f"jnp.array(x.shape).prod() = {jnp.array(x.shape).prod()}")
    # comment this out to avoid the error:
    # return x.reshape(jnp.array(x.shape).prod())

  f(x)
  mark('shape')

  from jax import jit
  import jax.numpy as jnp
  import numpy as np

  @jit
  def f(x):
    return x.reshape((np.prod(x.shape),))

  out['reshape'] = f(x)

  def divide(x, y):
    return x / y if y >= 1. else 0.

  import jax
  out['divide'] = [jax.grad(divide)(3., 2.), jit(divide, static_argnums=1)(3., 2.)]  # (port)
  try:
    jit(divide)(3., 2.)  # (port) what the page says static_argnums avoids
  except Exception as e:
    _error(errors, e)


def _autodiff(out, mark):
  import jax
  import jax.numpy as jnp
  from jax import grad

  grad_tanh = grad(jnp.tanh)
  print(grad_tanh(2.0))

  print(grad(grad(jnp.tanh))(2.0))
  print(grad(grad(grad(jnp.tanh)))(2.0))

  f = lambda x: x**3 + 2*x**2 - 3*x + 1

  dfdx = jax.grad(f)

  d2fdx = jax.grad(dfdx)
  d3fdx = jax.grad(d2fdx)
  d4fdx = jax.grad(d3fdx)

  print(dfdx(1.))
  print(d2fdx(1.))
  print(d3fdx(1.))
  print(d4fdx(1.))
  mark('derivatives')

  key = jax.random.key(0)

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
  key, W_key, b_key = jax.random.split(key, 3)
  W = jax.random.normal(W_key, (3,))
  b = jax.random.normal(b_key, ())

  # Differentiate `loss` with respect to the first positional argument:
  W_grad = grad(loss, argnums=0)(W, b)
  print(f'{W_grad=}')

  # Since argnums=0 is the default, this does the same thing:
  W_grad = grad(loss)(W, b)
  print(f'{W_grad=}')

  # But you can choose different values too, and drop the keyword:
  b_grad = grad(loss, 1)(W, b)
  print(f'{b_grad=}')

  # Including tuple values
  W_grad, b_grad = grad(loss, (0, 1))(W, b)
  print(f'{W_grad=}')
  print(f'{b_grad=}')
  mark('argnums')

  def loss2(params_dict):
    preds = predict(params_dict['W'], params_dict['b'], inputs)
    label_probs = preds * targets + (1 - preds) * (1 - targets)
    return -jnp.sum(jnp.log(label_probs))

  print(grad(loss2)({'W': W, 'b': b}))
  mark('dict')

  loss_value, Wb_grad = jax.value_and_grad(loss, (0, 1))(W, b)
  print('loss value', loss_value)
  print('loss value', loss(W, b))
  mark('value_and_grad')

  # Set a step size for finite differences calculations
  eps = 1e-4

  # Check b_grad with scalar finite differences
  b_grad_numerical = (loss(W, b + eps / 2.) - loss(W, b - eps / 2.)) / eps
  print('b_grad_numerical', b_grad_numerical)
  print('b_grad_autodiff', grad(loss, 1)(W, b))

  # Check W_grad with finite differences in a random direction
  key, subkey = jax.random.split(key)
  vec = jax.random.normal(subkey, W.shape)
  unitvec = vec / jnp.sqrt(jnp.vdot(vec, vec))
  W_grad_numerical = (loss(W + eps / 2. * unitvec, b) - loss(W - eps / 2. * unitvec, b)) / eps
  print('W_dirderiv_numerical', W_grad_numerical)
  print('W_dirderiv_autodiff', jnp.vdot(grad(loss)(W, b), unitvec))
  mark('numerical')

  from jax.test_util import check_grads

  check_grads(loss, (W, b), order=2)  # check up to 2nd order derivatives
  out['Wb_grad'] = Wb_grad
