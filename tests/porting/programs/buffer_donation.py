# Copyright 2021 The JAX Authors.
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

"""Three short pages of JAX's docs, their code verbatim in `run()`: docs/buffer_donation.md
(`jit` with `donate_argnums` of one argument and of a pytree: the donated arrays deleted, the
deleted array's use raising, the unusable donations' warnings), docs/rank_promotion_warning.rst
(`x + y` of ranks 2 and 1 allowed, then under `jax.numpy_rank_promotion("warn")` and
`jax.config.update("jax_numpy_rank_promotion", ...)` with "warn" and "raise": the warnings'
and error's texts) and docs/default_dtypes.md (32-bit defaults, `arange(dtype='float64')`'s
truncation warning, the same calls under `jax_enable_x64`). The pages' `pmap` fragments
(`update_fn` undefined) left out; each donation block gets fresh `x`, `y` (port: the page
reuses `y` after donating it). The configuration is restored after. run() returns the values,
dtypes, `is_deleted()`s, warnings' texts and errors' texts (`except` by JAX's class)."""

import warnings


def run():
  import jax
  out = {}
  promotion, x64 = jax.config.jax_numpy_rank_promotion, jax.config.jax_enable_x64
  try:
    with warnings.catch_warnings(record=True) as caught:
      warnings.simplefilter('always')
      _donation(out)
      out['donation_warnings'] = _texts(caught)
    _rank_promotion(out)
    _default_dtypes(out)
  finally:
    jax.config.update('jax_numpy_rank_promotion', promotion)
    jax.config.update('jax_enable_x64', x64)
  return out


def _texts(caught):
  """(port) the warnings' texts and whether each is a `UserWarning` (numbax's are subclasses
  naming the case), emptied."""
  texts = [[issubclass(w.category, UserWarning), str(w.message)] for w in caught]
  caught.clear()
  return texts


def _donation(out):
  import jax
  import numpy as np
  from typing import List
  from jax import Array

  def add(x, y):
    return x + y

  x = jax.device_put(np.ones((2, 3)))
  y = jax.device_put(np.ones((2, 3)))

  # Execute `add` with donation of the buffer for `y`. The result has
  # the same shape and type as `y`, so it will share its buffer.
  z = jax.jit(add, donate_argnums=(1,))(x, y)
  out['donate_y'] = [z, x.is_deleted(), y.is_deleted()]

  def add_ones(xs: List[Array]):
    return [x + 1 for x in xs]

  xs = [jax.device_put(np.ones((2, 3))), jax.device_put(np.ones((3, 4)))]
  # Execute `add_ones` with donation of all the buffers for `xs`.
  # The outputs have the same shape and type as the elements of `xs`,
  # so they will share those buffers.
  z = jax.jit(add_ones, donate_argnums=0)(xs)
  out['donate_tree'] = [z, [x.is_deleted() for x in xs]]

  x = jax.device_put(np.ones((2, 3)))  # (port) fresh arrays
  y = jax.device_put(np.ones((2, 3)))
  # Donate the buffer for `y`
  z = jax.jit(add, donate_argnums=(1,))(x, y)
  try:
    w = y + 1  # Reuses `y` whose buffer was donated above
  except RuntimeError as e:  # (port) the error's first sentence (numbax's adds the fix)
    out['reuse_error'] = str(e).split('. ')[0].rstrip('.')

  x = jax.device_put(np.ones((2, 3)))  # (port) fresh arrays
  y = jax.device_put(np.ones((2, 3)))
  # Execute `add` with donation of the buffers for both `x` and `y`.
  # One of those buffers will be used for the result, but the other will
  # not be used.
  z = jax.jit(add, donate_argnums=(0, 1))(x, y)
  out['donate_both'] = [z, x.is_deleted(), y.is_deleted()]

  x = jax.device_put(np.ones((2, 3)))  # (port) a fresh `x`
  y = jax.device_put(np.ones((1, 3)))  # `y` has different shape than the output
  # Execute `add` with donation of the buffer for `y`.
  z = jax.jit(add, donate_argnums=(1,))(x, y)
  out['donate_mismatch'] = [z, y.is_deleted()]


def _rank_promotion(out):
  from jax import numpy as jnp
  x = jnp.arange(12).reshape(4, 3)
  y = jnp.array([0, 1, 0])
  out['rank_allow'] = x + y

  import jax
  with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    with jax.numpy_rank_promotion("warn"):
      z = x + y
    out['rank_warn'] = [z, _texts(caught)]

    jax.config.update("jax_numpy_rank_promotion", "warn")
    z = x * y  # (port) the global setting, on another function
    out['rank_config_warn'] = [z, _texts(caught), jax.config.jax_numpy_rank_promotion]
    out['rank_scalar'] = [x + 1, x * jnp.float32(2), _texts(caught)]  # (port) scalars allowed

  jax.config.update("jax_numpy_rank_promotion", "raise")  # (port) the 'raise' setting
  try:
    x + y
  except ValueError as e:
    out['rank_raise'] = str(e)
  jax.config.update("jax_numpy_rank_promotion", "allow")


def _default_dtypes(out):
  import jax.numpy as jnp
  out['x32'] = [jnp.arange(5), jnp.zeros(5), jnp.ones(5, dtype=int)]
  with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    out['x32_float64'] = [jnp.arange(5, dtype='float64'), _texts(caught)]

  import jax
  import jax.numpy as jnp
  jax.config.update('jax_enable_x64', True)
  shown = []  # (port) what the prints showed
  shown.append(repr(jnp.arange(5)))
  shown.append(repr(jnp.zeros(5)))
  shown.append(repr(jnp.ones(5, dtype=int)))
  out['x64'] = shown
  jax.config.update('jax_enable_x64', False)
