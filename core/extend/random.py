"""`jax.extend.random`: the Threefry-2x32 hash behind numbax's keys, as a primitive
(`threefry2x32_p`) and as JAX's `threefry_2x32` over an array of counts, and JAX's PRNG
implementations (`core/prims/prng.py`'s `PRNGImpl`s: `threefry_prng_impl`, `rbg_prng_impl`,
`unsafe_rbg_prng_impl`, and a program's own from `define_prng_impl`), with `seed_with_impl` and
`random_seed` making keys of one.

A program's implementation takes and returns the data of one key (`split(key, shape)`, ...), as
in JAX; batched keys run it under `vmap`. Partial: under `jit` such keys compile as their
functions do; numbax's key arrays are wrappers of their data (`core/prng_key.py`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

import core.numpy as jnp
from core.api import vmap
from core.prims import prng
from core.prims.prng import PRNGImpl, rbg_prng_impl, threefry_prng_impl, unsafe_rbg_prng_impl
from core.prims.random_bits import threefry2x32_p
from core.prng_key import PRNGKeyArray

__all__ = [
    "define_prng_impl",
    "random_seed",
    "rbg_prng_impl",
    "seed_with_impl",
    "threefry2x32_p",
    "threefry_2x32",
    "threefry_prng_impl",
    "unsafe_rbg_prng_impl",
]


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


def random_seed(seeds: Any, impl: PRNGImpl) -> PRNGKeyArray:
    """Keys of implementation `impl` from integer seeds (JAX's `random_seed_p`).

    Args:
      seeds: an integer scalar or array.
      impl: a `PRNGImpl` (`threefry_prng_impl`, ...).

    Returns:
      A key array of `seeds`' shape.
    """
    keys = prng.random_seed(jnp.asarray(seeds), impl)
    return PRNGKeyArray(prng.random_unwrap(keys), impl.name)


def seed_with_impl(impl: PRNGImpl, seed: Any) -> PRNGKeyArray:
    """A key of implementation `impl` from an integer seed (`random.key(seed, impl=impl)`).

    Args:
      impl: a `PRNGImpl`.
      seed: an integer scalar.

    Returns:
      A key array of shape ().
    """
    return random_seed(seed, impl)


def define_prng_impl(
    *,
    key_shape: tuple[int, ...],
    seed: Callable,
    split: Callable,
    random_bits: Callable,
    fold_in: Callable,
    name: str = "<unnamed>",
    tag: str = "?",
) -> PRNGImpl:
    """A PRNG implementation from functions on the data of one key, as JAX's.

    Args:
      key_shape: the shape of one key's uint32 data (`(2,)` for threefry).
      seed: an int32 scalar seed -> key data.
      split: (key data, shape) -> data of `shape` new keys.
      random_bits: (key data, bit width, shape) -> unsigned bits of `shape`.
      fold_in: (key data, uint32 scalar) -> new key data.
      name: its name (`random.key(0, impl=name)` finds it).
      tag: its short name, printed in its key dtype (`key<tag>`).

    Returns:
      The `PRNGImpl`, usable as `impl=` of `random.key`, `wrap_key_data`, `seed_with_impl`.
    """
    key_ndim = len(key_shape)
    impl = PRNGImpl(
        tuple(key_shape),
        _mapped(seed, 0),
        _mapped(split, key_ndim),
        _mapped(random_bits, key_ndim),
        _mapped_fold_in(fold_in, key_ndim),
        name,
        tag,
    )
    prng.register_impl(impl)
    return impl


def _mapped(fun: Callable, item_ndim: int) -> Callable:
    """`fun` of one item (`item_ndim` axes) and static arguments, mapped by `vmap` over the
    leading axes its first argument has beyond one item's (keys under `vmap`, `split`'s)."""

    @functools.wraps(fun)
    def mapped(items: Any, *static: Any) -> Any:
        f = lambda x: fun(x, *static)  # noqa: E731
        for _ in range(jnp.ndim(items) - item_ndim):
            f = vmap(f)
        return f(items)

    return mapped


def _mapped_fold_in(fun: Callable, key_ndim: int) -> Callable:
    """`fold_in` of one key and one message, mapped over keys and messages of one batch shape
    (one of them broadcast when it has none)."""

    @functools.wraps(fun)
    def mapped(keys: Any, msgs: Any) -> Any:
        kshape = jnp.shape(keys)[: jnp.ndim(keys) - key_ndim]
        shape = kshape or jnp.shape(msgs)
        keys = jnp.broadcast_to(keys, (*shape, *jnp.shape(keys)[len(kshape) :]))
        msgs = jnp.broadcast_to(msgs, shape)
        f = fun
        for _ in shape:
            f = vmap(f)
        return f(keys, msgs)

    return mapped
