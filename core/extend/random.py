"""`jax.extend.random`: the Threefry-2x32 hash behind numbax's keys, as a primitive
(`threefry2x32_p`) and as JAX's `threefry_2x32` over an array of counts.

JAX's PRNG-implementation objects (`define_prng_impl`, `seed_with_impl`, `random_seed`,
`threefry_prng_impl`, `rbg_prng_impl`, `unsafe_rbg_prng_impl`) are not provided: numbax has one
implementation, threefry (`core.random.key(seed, impl="threefry2x32")`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core.prims.random_bits import threefry2x32_p

__all__ = ["threefry2x32_p", "threefry_2x32"]


def threefry_2x32(keypair: Any, count: Any) -> Any:
    """The Threefry 2x32 hash of `count` under the key `keypair`.

    Args:
      keypair: two uint32 scalars (a pair or a 2-element array).
      count: a uint32 array.

    Returns:
      A uint32 array of `count`'s shape: the hash of its first half paired with its second
      (an odd count padded with a 0).
    """
    key1, key2 = keypair
    count = jnp.asarray(count)
    dtypes = [jnp.asarray(x).dtype for x in (key1, key2, count)]
    if any(d != np.uint32 for d in dtypes):
        raise TypeError(f"threefry_2x32 requires uint32 arguments, got {dtypes}")
    flat = count.ravel()
    odd = flat.shape[0] % 2
    if odd:
        flat = jnp.concatenate([flat, jnp.zeros(1, jnp.uint32)])
    half = flat.shape[0] // 2
    k1, k2 = (jnp.broadcast_to(k, (half,)) for k in (key1, key2))  # numbax's takes one shape
    out = jnp.concatenate(threefry2x32_p.bind(k1, k2, flat[:half], flat[half:]))
    return (out[:-1] if odd else out).reshape(count.shape)
