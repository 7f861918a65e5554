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

"""JAX's docs/automatic-vectorization.md ("Automatic vectorization"): its code cells verbatim
in `run()`; `show` records what each cell showed (its last expression) as `repr` text and as
the array itself; the text's "a jitted function with vmap" and its `pairwise(dist, xs)` are
run too (with a Euclidean `dist`)."""


def run():
  shown = []

  def show(value):
    shown.append([repr(value), value])

  import jax
  import jax.numpy as jnp

  x = jnp.arange(5)
  w = jnp.array([2., 3., 4.])

  def convolve(x, w):
    output = []
    for i in range(1, len(x)-1):
      output.append(jnp.dot(x[i-1:i+2], w))
    return jnp.array(output)

  show(convolve(x, w))

  xs = jnp.stack([x, x])
  ws = jnp.stack([w, w])

  def manually_batched_convolve(xs, ws):
    output = []
    for i in range(xs.shape[0]):
      output.append(convolve(xs[i], ws[i]))
    return jnp.stack(output)

  show(manually_batched_convolve(xs, ws))

  def manually_vectorized_convolve(xs, ws):
    output = []
    for i in range(1, xs.shape[-1] -1):
      output.append(jnp.sum(xs[:, i-1:i+2] * ws, axis=1))
    return jnp.stack(output, axis=1)

  show(manually_vectorized_convolve(xs, ws))

  auto_batch_convolve = jax.vmap(convolve)

  show(auto_batch_convolve(xs, ws))

  auto_batch_convolve_v2 = jax.vmap(convolve, in_axes=1, out_axes=1)

  xst = jnp.transpose(xs)
  wst = jnp.transpose(ws)

  show(auto_batch_convolve_v2(xst, wst))

  batch_convolve_v3 = jax.vmap(convolve, in_axes=[0, None])

  show(batch_convolve_v3(xs, w))

  jitted_batch_convolve = jax.jit(auto_batch_convolve)

  show(jitted_batch_convolve(xs, ws))

  # "or a jitted function with vmap"
  show(jax.vmap(jax.jit(convolve))(xs, ws))

  def pairwise(f, xs):
    return jax.vmap(lambda x: jax.vmap(lambda y: f(x, y))(xs))(xs)

  def dist(x, y):
    return jnp.sqrt(jnp.sum((x - y) ** 2))

  points = jnp.array([[0., 0.], [3., 4.], [6., 8.]])
  show(pairwise(dist, points))
  return shown
