"""The cases of `test_prng_key.py`'s table, shared with `record_key_arrays.py`: typed key arrays
(`random.key`) crossing a user's `jit` (arguments, results, closures, donated and static
arguments), `vmap`, `grad`, `scan`/`fori_loop`/`while_loop`/`cond`, pytrees and the
`key_data`/`wrap_key_data` round trip, and the misuses JAX rejects; legacy `uint32` keys
(`random.PRNGKey`) alongside.

`cases(jax)` builds them on a `jax`-like module (JAX or `core`), so both run the same code. Each
case is `(fun, args)`: `fun` takes the keys and arrays `args` (built by the same module).
`summary(jax, out)` is what is compared: per result leaf its kind (`key` with its dtype and
data, or an array with its dtype), shape and values.
"""

import numpy as np


def cases(jax):
    r, lax, jnp = jax.random, jax.lax, jax.numpy
    k = r.key(0)
    ks = r.split(k, 3)
    raw = r.PRNGKey(0)

    def scan_keys(kk):
        return lax.scan(lambda c, _: (r.split(c)[0], r.normal(c)), kk, None, length=3)

    def while_keys(kk):
        return lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, r.split(c[1])[1]), (0, kk))

    def cond_keys(p, kk):
        return lax.cond(p, lambda a: r.split(a)[1], lambda a: a, kk)

    c = {}
    c["split"] = (lambda kk: r.split(kk), (k,))
    c["identity"] = (lambda kk: kk, (k,))
    c["normal"] = (lambda kk: r.normal(kk, (3,)), (k,))
    c["fold_in"] = (lambda kk: r.fold_in(kk, 3), (k,))
    c["clone"] = (lambda kk: r.clone(kk), (k,))
    c["key_data"] = (lambda kk: r.key_data(kk), (ks,))
    c["wrap_key_data"] = (lambda d: r.wrap_key_data(d), (np.array([[0, 5], [1, 2]], np.uint32),))
    c["roundtrip"] = (lambda a: r.wrap_key_data(r.key_data(a) + 1), (ks,))
    c["seed"] = (lambda s: r.key(s), (np.int32(7),))
    c["closure"] = (lambda x: x + r.normal(k), (np.float32(1.0),))
    c["pytree"] = (
        lambda d: {"k": r.split(d["k"])[1], "x": d["x"] * 2},
        ({"k": k, "x": np.float32(1.0)},),
    )
    c["index"] = (lambda a: a[1], (ks,))
    c["index_slice"] = (lambda a: a[1:], (ks,))
    c["reshape_T"] = (lambda a: a.reshape(1, 3).T, (ks,))
    c["equal"] = (lambda a, b: (a == b, a != b), (ks, ks[np.array([0, 0, 2])]))
    c["equal_scalar"] = (lambda a: (a == a[0], a[1] != a), (ks,))
    c["device_put"] = (lambda kk: jax.device_put(r.split(kk))[1], (k,))
    c["asarray"] = (lambda a: jnp.asarray(a), (k,))
    c["stack"] = (lambda a: jnp.stack([a, a]), (k,))
    c["where"] = (lambda p, a, b: jnp.where(p, a, b), (np.array([True, False, True]), ks, ks[::-1]))
    c["traced_index"] = (lambda i, a: a[i], (np.int32(2), ks))
    c["vmap_normal"] = (jax.vmap(r.normal), (ks,))
    c["vmap_traced_index"] = (jax.vmap(lambda i: r.normal(ks[i])), (np.arange(3, dtype=np.int32),))
    c["vmap_split"] = (jax.vmap(r.split), (ks,))
    c["vmap_fold_in"] = (jax.vmap(lambda a, i: r.fold_in(a, i)), (ks, np.arange(3, dtype=np.int32)))
    c["vmap_keys_out"] = (jax.vmap(lambda i: r.fold_in(k, i)), (np.arange(2, dtype=np.int32),))
    c["vmap_negative_axis"] = (
        jax.vmap(lambda a: r.key_data(a), in_axes=-1),
        (r.split(k, (2, 3)),),
    )
    c["vmap_rbg"] = (jax.vmap(r.normal), (r.split(r.key(1, impl="rbg"), 2),))
    c["grad"] = (jax.grad(lambda x, kk: x * r.normal(kk)), (np.float32(1.0), k))
    c["grad_of_jit"] = (
        jax.grad(jax.jit(lambda x, kk: x * r.normal(kk))),
        (np.float32(2.0), k),
    )
    c["scan_carry"] = (scan_keys, (k,))
    c["scan_xs"] = (
        lambda a: lax.scan(lambda s, kk: (s + r.normal(kk), r.fold_in(kk, 1)), np.float32(0), a),
        (ks,),
    )
    c["fori_loop"] = (lambda kk: lax.fori_loop(0, 3, lambda i, a: r.fold_in(a, i), kk), (k,))
    c["while_loop"] = (while_keys, (k,))
    c["cond_true"] = (cond_keys, (True, k))
    c["cond_false"] = (cond_keys, (False, k))
    c["legacy_split"] = (lambda kk: r.split(kk), (raw,))
    c["legacy_vmap"] = (jax.vmap(r.normal), (r.split(raw, 2),))
    c["legacy_scan"] = (scan_keys, (raw,))
    # misuses: JAX's errors
    c["add"] = (lambda kk: kk + 1, (k,))
    c["add_keys"] = (lambda kk: kk + kk, (k,))
    c["neg"] = (lambda kk: -kk, (k,))
    c["astype"] = (lambda kk: kk.astype(jnp.uint32), (k,))
    return c


# the cases run under the user's `jit` too (values equal the eager ones; each compiles once)
JIT = [
    "split",
    "identity",
    "normal",
    "key_data",
    "roundtrip",
    "seed",
    "closure",
    "pytree",
    "device_put",
    "index",
    "traced_index",
    "vmap_normal",
    "scan_carry",
    "while_loop",
    "cond_true",
    "legacy_split",
    "add",
]


def summary(jax, out):
    """The leaves of `out`: ("key", dtype, shape, data) or (dtype, shape, values)."""
    rows = []
    for leaf in jax.tree_util.tree_leaves(out):
        if jax.numpy.issubdtype(leaf.dtype, jax.dtypes.prng_key):
            data = np.asarray(jax.random.key_data(leaf))
            rows.append(["key", str(leaf.dtype), list(leaf.shape), data.tolist()])
        else:
            value = np.asarray(leaf)
            rows.append([str(value.dtype), list(value.shape), value.tolist()])
    return rows


def error_row(err):
    """An error as compared: its builtin class (JAX raises builtins; numbax's subclass them)
    and its first line."""
    base = next(t for t in type(err).__mro__ if t.__module__ == "builtins")
    return ["error", base.__name__, str(err).splitlines()[0]]
