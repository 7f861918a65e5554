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

"""JAX's docs/faq.rst ("Frequently asked questions"): its code cells verbatim in `run()`
(the impure function with and without `jit`, `jit`'s numerics of `log(sqrt(x))` and of
`log(exp(x))`, `where` and NaN gradients, zero gradients of a step function and the sigmoid's,
a tracer's type printed inside `jit`); what they printed. The `==>` lines are evaluated and
their values recorded. The tracer's type is recorded by its base class's name (`Tracer`):
JAX's is `jax._src.interpreters.partial_eval.DynamicJaxprTracer`, numbax's
`core.interpreters.partial_eval.JaxprTracer`."""


def run():
  printed = []

  def print(*args):
    printed.append(' '.join(str(a) for a in args))

  import jax
  import numpy as np
  import jax.numpy as jnp
  from jax import jit

  # ``jit`` changes the behavior of my function
  y = 0
  # @jit   # Different behavior with jit
  def impure_func(x):
    print("Inside:", y)
    return x + y

  for y in range(3):
    print("Result:", impure_func(y))

  y = 0
  @jit   # Different behavior with jit
  def impure_func(x):
    print("Inside:", y)
    return x + y

  for y in range(3):
    print("Result:", impure_func(y))

  # ``jit`` changes the exact numerics of outputs
  def f(x):
    return jnp.log(jnp.sqrt(x))
  x = jnp.pi
  print(f(x))
  print(jit(f)(x))

  def f(x):
    return jnp.log(jnp.exp(x))
  x = 100.0
  print(f(x))
  print(jit(f)(x))

  # Gradients contain `NaN` where using ``where``
  values = []

  def my_log(x):
    return jnp.where(x > 0., jnp.log(x), 0.)

  values.append(my_log(0.))  # ==> 0.  # Ok
  values.append(jax.grad(my_log)(0.))  # ==> NaN

  def safe_for_grad_log(x):
    return jnp.log(jnp.where(x > 0., x, 1.))

  values.append(safe_for_grad_log(0.))  # ==> 0.  # Ok
  values.append(jax.grad(safe_for_grad_log)(0.))  # ==> 0.  # Ok

  def my_log_or_y(x, y):
    """Return log(x) if x > 0 or y"""
    return jnp.where(x > 0., jnp.log(jnp.where(x > 0., x, 1.)), y)

  values.append(jax.grad(my_log_or_y, argnums=(0, 1))(0., 2.))
  values.append(jax.grad(my_log_or_y, argnums=(0, 1))(3., 2.))

  # Why are gradients zero for functions based on sort order?
  def f(x):
    return (x > 0).astype(float)

  df = jax.vmap(jax.grad(f))

  x = jnp.array([-1.0, -0.5, 0.0, 0.5, 1.0])

  print(f"f(x)  = {f(x)}")
  # f(x)  = [0. 0. 0. 1. 1.]

  print(f"df(x) = {df(x)}")
  # df(x) = [0. 0. 0. 0. 0.]

  def g(x):
    return jax.nn.sigmoid(x)

  dg = jax.vmap(jax.grad(g))

  x = jnp.array([-10.0, -1.0, 0.0, 1.0, 10.0])

  with np.printoptions(suppress=True, precision=2):
    print(f"g(x)  = {g(x)}")
    # g(x)  = [0.   0.27 0.5  0.73 1.  ]

    print(f"dg(x) = {dg(x)}")
    # dg(x) = [0.   0.2  0.25 0.2  0.  ]

  # How can I convert a JAX Tracer to a NumPy array?
  @jax.jit
  def f(x):
    print(type(x).__mro__[1].__name__)  # type(x)'s base: JAX's type is a DynamicJaxprTracer
    return x

  values.append(f(jnp.arange(5)))

  return dict(printed=printed, values=values)
