# Copyright 2020 The JAX Authors.
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

"""JAX's tests/ode_test.py (`jax.experimental.ode.odeint`, 07dea6966f): its systems and
calls verbatim as a program, ten tests' bodies in `run()` returning the solutions and
gradients they checked (against scipy's `odeint` as the tests did): a damped pendulum's
solution and gradients, a pytree state, a decay with array arguments, `vmap` inside `grad`,
`disable_jit` with `vmap`, a closure over a traced value under `jit`/`vmap`/`value_and_grad`,
forward mode's error, a complex state under `numpy_dtype_promotion('standard')`, `hmax` with a
`piecewise` right-hand side; added: the two `TypeError`s of `odeint`'s argument checks. The
tests' `check_grads(order=2)` calls are left out (second-order reverse mode through the
adjoint solver compiles dozens of numba kernels, minutes cold), and so are the tests of other
right-hand sides (time-dependent, swoop, closures without `vmap`); the decay's arguments from
a seeded `RandomState` in place of `self.rng()`; the closure's `vmap` over 12 times instead of
100."""

from functools import partial

import numpy as np

import jax
from jax._src import test_util as jtu
import jax.numpy as jnp
from jax.experimental.ode import odeint

import scipy.integrate as osp_integrate


def check_against_scipy(out, name, fun, y0, tspace, *args, tol=1e-1):
  y0, tspace = np.array(y0), np.array(tspace)
  np_fun = partial(fun, np)
  scipy_result = jnp.asarray(osp_integrate.odeint(np_fun, y0, tspace, args))

  y0, tspace = jnp.array(y0), jnp.array(tspace)
  jax_fun = partial(fun, jnp)
  jax_result = odeint(jax_fun, y0, tspace, *args)

  np.testing.assert_allclose(jax_result, scipy_result, atol=tol, rtol=tol)
  out[name] = jax_result


def test_pend_grads(out):
  def pend(_np, y, _, m, g):
    theta, omega = y
    return [omega, -m * omega - g * _np.sin(theta)]

  y0 = [np.pi - 0.1, 0.0]
  ts = np.linspace(0., 1., 11)
  args = (0.25, 9.8)
  tol = 1e-1 if jtu.num_float_bits(np.float64) == 32 else 1e-3

  check_against_scipy(out, 'pend', pend, y0, ts, *args, tol=tol)

  integrate = partial(odeint, partial(pend, jnp))
  out['pend_grads'] = jax.grad(lambda y0, ts, m, g: integrate(y0, ts, m, g)[0][-1],
                               argnums=(0, 1, 2, 3))(y0, ts, *args)


def test_pytree_state(out):
  """Test calling odeint with y(t) values that are pytrees."""
  def dynamics(y, _t):
    return jax.tree.map(jnp.negative, y)

  y0 = (np.array(-0.1), np.array([[[0.1]]]))
  ts = np.linspace(0., 1., 11)
  tol = 1e-1 if jtu.num_float_bits(np.float64) == 32 else 1e-3

  integrate = partial(odeint, dynamics)
  out['pytree'] = integrate(y0, ts)


def test_decay(out):
  def decay(_np, y, t, arg1, arg2):
    return -_np.sqrt(t) - y + arg1 - _np.mean((y + arg2)**2)

  rng = np.random.RandomState(0)
  args = (rng.randn(3), rng.randn(3))
  y0 = rng.randn(3)
  ts = np.linspace(0.1, 0.2, 4)
  tol = 1e-1 if jtu.num_float_bits(np.float64) == 32 else 1e-3

  check_against_scipy(out, 'decay', decay, y0, ts, *args, tol=tol)

  integrate = partial(odeint, partial(decay, jnp))


def test_odeint_vmap_grad(out):
  # https://github.com/jax-ml/jax/issues/2531

  def dx_dt(x, *args):
    return 0.1 * x

  def f(x, y):
    y0 = jnp.array([x, y])
    t = jnp.array([0., 5.])
    y = odeint(dx_dt, y0, t)
    return y[-1].sum()

  def g(x):
    # Two initial values for the ODE
    y0_arr = jnp.array([[x, 0.1],
                        [x, 0.2]])

    # Run ODE twice
    t = jnp.array([0., 5.])
    y = jax.vmap(lambda y0: odeint(dx_dt, y0, t))(y0_arr)
    return y[:,-1].sum()

  ans = jax.grad(g)(2.)  # don't crash
  expected = jax.grad(f, 0)(2., 0.1) + jax.grad(f, 0)(2., 0.2)
  out['vmap_grad'] = [ans, expected]


def test_disable_jit_odeint_with_vmap(out):
  # https://github.com/jax-ml/jax/issues/2598
  with jax.disable_jit():
    t = jnp.array([0.0, 1.0])
    x0_eval = jnp.zeros((5, 2))
    f = lambda x0: odeint(lambda x, _t: x, x0, t)
    out['disable_jit_vmap'] = jax.vmap(f)(x0_eval)  # doesn't crash


def test_grad_closure_with_vmap(out):
  # https://github.com/jax-ml/jax/issues/2718
  @jax.jit
  def experiment(x):
    def model(y, t):
      return -x * y
    history = odeint(model, 1., np.arange(0, 10, 0.1))
    return history[-1]

  gradfun = jax.value_and_grad(experiment)
  t = np.arange(0., 0.12, 0.01)
  h, g = jax.vmap(gradfun)(t)  # doesn't crash
  ans = h[11], g[11]

  expected_h = experiment(t[11])
  expected_g = (experiment(t[11] + 5e-6) - experiment(t[11] - 5e-6)) / 1e-5
  expected = expected_h, expected_g
  out['grad_closure_vmap'] = [h, g, ans, expected_h]


def test_forward_mode_error(out):
  # https://github.com/jax-ml/jax/issues/3558

  def f(k):
    return odeint(lambda x, t: k*x, 1.,  jnp.linspace(0, 1., 50)).sum()

  try:
    jax.jacfwd(f)(3.)
  except TypeError as e:
    out['forward_mode_error'] = str(e).splitlines()[0]


def test_complex_odeint(out):
  # https://github.com/jax-ml/jax/issues/3986
  # https://github.com/jax-ml/jax/issues/8757

  def dy_dt(y, t, alpha):
    return alpha * y * jnp.exp(-t).astype(y.dtype)

  def f(y0, ts, alpha):
    return odeint(dy_dt, y0, ts, alpha).real

  alpha = 3 + 4j
  y0 = 1 + 2j
  ts = jnp.linspace(0., 1., 11)
  tol = 1e-1 if jtu.num_float_bits(np.float64) == 32 else 1e-3

  # During the backward pass, this ravels all parameters into a single array
  # such that dtype promotion is unavoidable.
  with jax.numpy_dtype_promotion('standard'):
    ys = odeint(dy_dt, y0, ts, alpha)
    out['complex'] = [f(y0, ts, alpha), ys.dtype.name, ys.real, ys.imag]  # (port) parts


def test_hmax(out):
  """Test max step size control."""

  def rhs(y, t):
    return jnp.piecewise(
      t,
      [t <= 2., (t >= 5.) & (t <= 7.)],
      [lambda s: jnp.array(1.), lambda s: jnp.array(-1.), lambda s: jnp.array(0.)]
    )
  ys = odeint(func=rhs, y0=jnp.array(0.), t=jnp.array([0., 5., 10.]), hmax=1.)

  assert jnp.abs(ys[1] - 2.) < 1e-4
  assert jnp.abs(ys[2]) < 1e-4
  out['hmax'] = ys


def test_args_error(out):
  try:
    odeint(lambda y, t, s: y, 1., jnp.linspace(0., 1., 3), "a string")
  except TypeError as e:
    out['args_error'] = str(e)
  try:
    odeint(lambda y, t: y, 1., jnp.arange(3))
  except TypeError as e:
    out['t_error'] = str(e)


def run():
  out = {}
  for test in [test_pend_grads, test_pytree_state, test_decay, test_odeint_vmap_grad,
               test_disable_jit_odeint_with_vmap, test_grad_closure_with_vmap,
               test_forward_mode_error, test_complex_odeint, test_hmax, test_args_error]:
    test(out)
  return out
