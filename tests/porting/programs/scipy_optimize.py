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

"""JAX's tests/scipy_optimize_test.py (`jax.scipy.optimize.minimize`, cec06d116c): its test
functions verbatim and its tests' bodies as a program, `run()` returning what they checked
against scipy's `minimize` (whose answers they are compared with here too, as the tests did):
BFGS under `jit` on Rosenbrock, Himmelblau, Matyas and Eggholder from float32 and float64
numpy starts, the badly scaled quadratic of issue 4594 under `default_matmul_precision`, bad
initial values with scipy given `jax.grad`, the `args` type error; the experimental L-BFGS under
`jit` on the same functions, a complex sphere and a complex Rosenbrock. The results' fields but
the iteration and evaluation counts (which follow float32 round-off) are returned. Left out:
`test_zakharov`, which runs only with `jax_enable_x64`."""

import numpy as np
import scipy.optimize

import jax
from jax import numpy as jnp
from jax import jit
import jax.scipy.optimize


def rosenbrock(np):
  def func(x):
    return np.sum(100. * np.diff(x) ** 2 + (1. - x[:-1]) ** 2)

  return func


def himmelblau(np):
  def func(p):
    x, y = p
    return (x ** 2 + y - 11.) ** 2 + (x + y ** 2 - 7.) ** 2

  return func


def matyas(np):
  def func(p):
    x, y = p
    return 0.26 * (x ** 2 + y ** 2) - 0.48 * x * y

  return func


def eggholder(np):
  def func(p):
    x, y = p
    return - (y + 47) * np.sin(np.sqrt(np.abs(x / 2. + y + 47.))) - x * np.sin(
      np.sqrt(np.abs(x - (y + 47.))))

  return func


def assert_all_close(a, b, atol, rtol=0):  # (port) JaxTestCase.assertAllClose
  np.testing.assert_allclose(np.asarray(a), np.asarray(b), atol=atol, rtol=rtol)


def fields(result):  # (port) what run() returns of an OptimizeResults
  return dict(x=result.x, success=result.success, status=result.status, fun=result.fun,
              jac=result.jac)


def bfgs_test_minimize(out, maxiter, func_and_init):
  # Note, cannot compare step for step with scipy BFGS because our line search is _slightly_ different.

  func, x0 = func_and_init

  @jit
  def min_op(x0):
    result = jax.scipy.optimize.minimize(
        func(jnp),
        x0,
        method='BFGS',
        options=dict(maxiter=maxiter, gtol=1e-6),
    )
    return result.x

  jax_res = min_op(x0)
  # Newer scipy versions perform poorly in float32. See
  # https://github.com/scipy/scipy/issues/19024.
  x0_f64 = x0.astype('float64')
  scipy_res = scipy.optimize.minimize(func(np), x0_f64, method='BFGS').x
  assert_all_close(scipy_res, jax_res, atol=2e-4, rtol=2e-4)
  out[f'bfgs_{func.__name__}'] = jax_res


def test_fixes4594(out):
  with jax.default_matmul_precision("highest"):
    n = 2
    A = jnp.eye(n) * 1e4
    def f(x):
      return jnp.mean((A @ x) ** 2)
    results = jax.scipy.optimize.minimize(f, jnp.ones(n), method='BFGS')
    assert_all_close(results.x, jnp.zeros(n), atol=1e-6, rtol=1e-6)
  out['fixes4594'] = fields(results)


def test_minimize_bad_initial_values(out):
  # This test runs deliberately "bad" initial values to test that handling
  # of failed line search, etc. is the same across implementations
  initial_value = jnp.array([92, 0.001])
  opt_fn = himmelblau(jnp)
  jax_res = jax.scipy.optimize.minimize(
      fun=opt_fn,
      x0=initial_value,
      method='BFGS',
  ).x
  scipy_res = scipy.optimize.minimize(
      fun=opt_fn,
      jac=jax.grad(opt_fn),
      method='BFGS',
      x0=initial_value
  ).x
  assert_all_close(scipy_res, jax_res, atol=2e-5)
  out['bad_initial_values'] = jax_res


def test_args_must_be_tuple(out):
  A = jnp.eye(2) * 1e4
  def f(x):
    return jnp.mean((A @ x) ** 2)
  try:
    jax.scipy.optimize.minimize(f, jnp.ones(2), args=45, method='BFGS')
  except TypeError as e:
    out['args_error'] = str(e).splitlines()[0]  # (port) its first line


def lbfgs_test_minimize(out, maxiter, func_and_init):

  func, x0 = func_and_init

  @jit
  def min_op(x0):
    result = jax.scipy.optimize.minimize(
        func(jnp),
        x0,
        method='l-bfgs-experimental-do-not-rely-on-this',
        options=dict(maxiter=maxiter, gtol=1e-7),
    )
    return result.x

  jax_res = min_op(x0)
  out[f'lbfgs_{func.__name__}'] = jax_res

  # Newer scipy versions perform poorly in float32. See
  # https://github.com/scipy/scipy/issues/19024.
  x0_f64 = x0.astype('float64')
  # Note that without bounds, L-BFGS-B is just L-BFGS
  scipy_res = scipy.optimize.minimize(func(np), x0_f64, method='L-BFGS-B').x

  if func.__name__ == 'matyas':
    # scipy performs badly for Matyas, compare to true minimum instead
    assert_all_close(jax_res, jnp.zeros_like(jax_res), atol=1e-7)
    return

  if func.__name__ == 'eggholder':
    # L-BFGS performs poorly for the eggholder function.
    # Neither scipy nor jax find the true minimum, so we can only loosely (with high atol) compare the false results
    assert_all_close(jax_res, scipy_res, atol=1e-3)
    return

  assert_all_close(jax_res, scipy_res, atol=2e-5)


def test_minimize_complex_sphere(out):
  z0 = jnp.array([1., 2. - 3.j, 4., -5.j])

  def f(z):
    return jnp.real(jnp.dot(jnp.conj(z - z0), z - z0))

  @jit
  def min_op(x0):
    result = jax.scipy.optimize.minimize(
        f,
        x0,
        method='l-bfgs-experimental-do-not-rely-on-this',
        options=dict(gtol=1e-6),
    )
    return result.x

  jax_res = min_op(jnp.zeros_like(z0))

  assert_all_close(jax_res, z0, atol=1e-6, rtol=1e-6)
  out['complex_sphere'] = [jnp.real(jax_res), jnp.imag(jax_res)]  # (port) both parts


def test_complex_rosenbrock(out):
  complex_dim = 5

  f_re = rosenbrock(jnp)
  init_re = jnp.zeros((2 * complex_dim,), dtype=complex)
  expect_re = jnp.ones((2 * complex_dim,), dtype=complex)

  def f(z):
    x_re = jnp.concatenate([jnp.real(z), jnp.imag(z)])
    return f_re(x_re)

  init = init_re[:complex_dim] + 1.j * init_re[complex_dim:]
  expect = expect_re[:complex_dim] + 1.j * expect_re[complex_dim:]

  @jit
  def min_op(z0):
    result = jax.scipy.optimize.minimize(
        f,
        z0,
        method='l-bfgs-experimental-do-not-rely-on-this',
        options=dict(gtol=1e-6),
    )
    return result.x

  jax_res = min_op(init)
  assert_all_close(jax_res, expect, atol=2e-5)
  out['complex_rosenbrock'] = [jnp.real(jax_res), jnp.imag(jax_res)]  # (port) both parts


def run():
  out = {}
  for func_and_init in [(rosenbrock, np.zeros(2, dtype='float32')),
                        (himmelblau, np.ones(2, dtype='float32')),
                        (matyas, np.ones(2) * 6.),
                        (eggholder, np.ones(2) * 100.)]:
    bfgs_test_minimize(out, None, func_and_init)
  test_fixes4594(out)
  test_minimize_bad_initial_values(out)
  test_args_must_be_tuple(out)
  for func_and_init in [(rosenbrock, np.zeros(2)),
                        (himmelblau, np.zeros(2)),
                        (matyas, np.ones(2) * 6.),
                        (eggholder, np.ones(2) * 100.)]:
    lbfgs_test_minimize(out, None, func_and_init)
  test_minimize_complex_sphere(out)
  test_complex_rosenbrock(out)
  return out
