"""The cases of `test_prng.py`, shared with `record_prng.py`: functions of raw `uint32` keys
(and seeds, messages) that bind JAX's key primitives (`random_seed`, `random_wrap`,
`random_unwrap`, `random_bits`, `random_split`, `random_fold_in`, `random_clone`), directly and
under `vmap`, `jit` and `grad`, for each PRNG implementation.

`cases(jax)` builds them on a `jax`-like module (JAX or `core`), so both run the same code.
Each case is `(fun, args)`; the arguments are numpy values, the results arrays (key data, so
that they compare as arrays; typed keys crossing transformations are the table of
`tests/core/key_array_cases.py`).
"""

import numpy as np

K = np.array([0, 42], np.uint32)
KEYS = np.array([[0, 1], [2, 3], [4, 5]], np.uint32)
RBG = np.array([1, 2, 3, 4], np.uint32)
RBGS = np.array([[1, 2, 3, 4], [5, 6, 7, 8]], np.uint32)
SEED = np.int32(7)
SEEDS = np.array([3, -1, 2**31 - 1], np.int32)
MSGS = np.array([0, 5, 2**32 - 1], np.uint32)
X = np.float32(1.5)
# keys of JAX's other counter-based implementations (1, 2 and 4 words), two of each
COUNTER_KEYS = {
    "philox2x32": np.array([[7], [2**32 - 1]], np.uint32),
    "philox4x32": np.array([[1, 2], [0, 2**31]], np.uint32),
    "threefry4x32": np.array([[1, 2, 3, 4], [9, 0, 0, 2**32 - 5]], np.uint32),
}


def cases(jax):
    r = jax.random
    rbg = r.key_impl(r.key(0, impl="rbg"))
    urbg = r.key_impl(r.key(0, impl="unsafe_rbg"))

    def typed(impl, f):
        """`f` on the typed keys over raw data, returning data."""
        return lambda k, *a: r.key_data(f(r.wrap_key_data(k, impl=impl), *a))

    c = {}
    c["seed"] = (lambda s: r.PRNGKey(s), (SEED,))
    c["seed_key_data"] = (lambda s: r.key_data(r.key(s)), (SEED,))
    c["seed_rbg"] = (lambda s: r.PRNGKey(s, impl="rbg"), (SEED,))
    c["split"] = (lambda k: r.split(k), (K,))
    c["split_3"] = (lambda k: r.split(k, 3), (K,))
    c["split_shape"] = (lambda k: r.split(k, (2, 3)), (K,))
    c["fold_in"] = (lambda k: r.fold_in(k, 7), (K,))
    c["fold_in_traced"] = (lambda k, d: r.fold_in(k, d), (K, MSGS[1]))
    c["bits"] = (lambda k: r.bits(k, (2, 3)), (K,))
    c["bits_u8"] = (lambda k: r.bits(k, (5,), np.uint8), (K,))
    c["bits_u16"] = (lambda k: r.bits(k, (3,), np.uint16), (K,))
    c["clone"] = (lambda k: r.key_data(r.clone(r.wrap_key_data(k))), (K,))
    c["typed_split"] = (typed(None, lambda k: r.split(k, 2)), (K,))
    c["typed_fold_in"] = (typed(None, lambda k: r.fold_in(k, 3)), (K,))
    c["vmap_seed"] = (jax.vmap(lambda s: r.PRNGKey(s)), (SEEDS,))
    c["vmap_split"] = (jax.vmap(lambda k: r.split(k)), (KEYS,))
    c["vmap_split_out_axis"] = (jax.vmap(lambda k: r.split(k, 4), out_axes=1), (KEYS,))
    c["vmap_fold_in"] = (jax.vmap(lambda k, d: r.fold_in(k, d)), (KEYS, MSGS))
    c["vmap_fold_in_keys"] = (jax.vmap(lambda k: r.fold_in(k, 9)), (KEYS,))
    c["vmap_fold_in_msgs"] = (jax.vmap(lambda d: r.fold_in(K, d)), (MSGS,))
    c["vmap_bits"] = (jax.vmap(lambda k: r.bits(k, (2,))), (KEYS,))
    c["vmap_vmap_bits"] = (jax.vmap(jax.vmap(lambda k: r.bits(k, (2,)))), (KEYS[None],))
    c["jit_split"] = (jax.jit(lambda k: r.split(k)), (K,))
    c["jit_fold_in_bits"] = (jax.jit(lambda k, d: r.bits(r.fold_in(k, d), (3,))), (K, MSGS[2]))
    c["grad_normal"] = (jax.grad(lambda x, k: (r.normal(k, (3,)) * x).sum()), (X, K))
    c["rbg_split"] = (typed(rbg, lambda k: r.split(k, 3)), (RBG,))
    c["rbg_fold_in"] = (typed(rbg, lambda k: r.fold_in(k, 5)), (RBG,))
    c["rbg_bits"] = (lambda k: r.bits(r.wrap_key_data(k, impl=rbg), (4,)), (RBG,))
    c["rbg_vmap_bits"] = (jax.vmap(lambda k: r.bits(r.wrap_key_data(k, impl=rbg), (2,))), (RBGS,))
    c["urbg_split"] = (typed(urbg, lambda k: r.split(k, 3)), (RBG,))
    c["urbg_fold_in"] = (typed(urbg, lambda k: r.fold_in(k, 5)), (RBG,))
    c["urbg_vmap_split"] = (jax.vmap(typed(urbg, lambda k: r.split(k))), (RBGS,))
    c["urbg_vmap_fold_in"] = (
        jax.vmap(lambda k, d: r.key_data(r.fold_in(r.wrap_key_data(k, impl=urbg), d))),
        (RBGS, MSGS[:2]),
    )
    for impl, keys in COUNTER_KEYS.items():
        c[f"{impl}_seed"] = (
            jax.vmap(lambda s, impl=impl: r.key_data(r.key(s, impl=impl))),
            (SEEDS,),
        )
        c[f"{impl}_ops"] = (jax.vmap(lambda k, impl=impl: _counter_ops(jax, k, impl)), (keys,))
    c["default_impl"] = (lambda s: _default_impl_key(jax, s), (SEED,))
    return c


def _counter_ops(jax, data, impl):
    """Splits, a fold-in and bits of 8, 16 and 32 bits of one key over `data`, in one array."""
    r, jnp = jax.random, jax.numpy
    key = r.wrap_key_data(data, impl=impl)
    parts = [
        r.key_data(r.split(key, (2, 3))).ravel(),
        r.key_data(r.fold_in(key, 5)).ravel(),
        r.bits(key, (2, 3)).ravel(),
        r.bits(key, (3,), np.uint8).astype(np.uint32),
        r.bits(key, (3,), np.uint16).astype(np.uint32),
    ]
    return jnp.concatenate(parts)


def _default_impl_key(jax, seed):
    """Key data of `PRNGKey` and `key` under another default implementation, and a split of
    raw data, which is that implementation's."""
    r, jnp = jax.random, jax.numpy
    with jax.default_prng_impl("philox4x32"):
        raw = r.PRNGKey(seed)
        typed = r.key_data(r.key(seed + 1))
        return jnp.concatenate([raw, typed, r.split(raw).ravel()])
