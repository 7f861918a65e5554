"""The cases of `test_prng_key.py`'s table, shared with `record_key_arrays.py`: typed key arrays
(`random.key`) crossing a user's `jit` (arguments, results, closures, donated and static
arguments), `vmap`, `grad`, `scan`/`fori_loop`/`while_loop`/`cond`, pytrees and the
`key_data`/`wrap_key_data` round trip, and the misuses JAX rejects; legacy `uint32` keys
(`random.PRNGKey`) alongside.

`cases(jax)` builds them on a `jax`-like module (JAX or `core`), so both run the same code. Each
case is `(fun, args)`: `fun` takes the keys and arrays `args` (built by the same module).
`summary(jax, out)` is what is compared: per result leaf its kind (`key` with its dtype and
data, or an array with its dtype), shape and values. `op_cases(jax)` is a second table: the
array functions on key arrays, eagerly, under `vmap` and `jit`.
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


def op_cases(jax):
    """Key arrays through the array functions that move, select or fill whole keys (shape
    ops, `take`, `.at[]`, `*_like`, lax's slices and scatters) and those JAX refuses them:
    name -> function of one key array, run on `split(key(0), 3)` eagerly (`out`), under `vmap`
    over a (2, 3) batch (`vmap_out`) and, for `OP_JIT`, under `jit` (`jit_out`)."""
    lax, jnp = jax.lax, jax.numpy
    mask, idx = np.array([True, False, True]), np.array([2, 0])
    dus = lax.ScatterDimensionNumbers(
        update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)
    )
    return {
        "flip": jnp.flip,
        "reverse_slice": lambda k: k[::-1],
        "roll": lambda k: jnp.roll(k, 1),
        "rot90": lambda k: jnp.rot90(k.reshape(3, 1)),
        "tile": lambda k: jnp.tile(k, (2, 1)),
        "repeat": lambda k: jnp.repeat(k, 2),
        "split": lambda k: jnp.split(k, 3),
        "array_split": lambda k: jnp.array_split(k, 2),
        "insert": lambda k: jnp.insert(k, 1, k[0]),
        "resize": lambda k: jnp.resize(k, (5,)),
        "array_of_keys": lambda k: jnp.array([k, k]),
        "triu": lambda k: jnp.triu(jnp.stack([k, k, k])),
        "take": lambda k: jnp.take(k, idx),
        "take_scalar": lambda k: jnp.take(k, 1),
        "take_fill": lambda k: jnp.take(k, np.array([0, 5]), mode="fill"),
        "take_clip": lambda k: jnp.take(k, np.array([0, 5]), mode="clip"),
        "take_wrap": lambda k: jnp.take(k, np.array([0, 4]), mode="wrap"),
        "take_method": lambda k: k.take(np.array([1])),
        "take_along_axis": lambda k: jnp.take_along_axis(k, np.array([2, 1, 0]), axis=0),
        "choose": lambda k: jnp.choose(np.array([0, 1, 0]), [k, k[::-1]]),
        "at_get": lambda k: k.at[0].get(),
        "at_get_fill": lambda k: k.at[5].get(mode="fill"),
        "at_set": lambda k: k.at[0].set(k[2]),
        "at_set_slice": lambda k: k.at[1:].set(k[0]),
        "at_set_array": lambda k: k.at[idx].set(k[1]),
        "at_set_repeated": lambda k: k.at[np.array([0, 0])].set(k[1:]),
        "at_set_drop": lambda k: k.at[np.array([0, 9])].set(k[1:], mode="drop"),
        "at_apply": lambda k: k.at[0].apply(lambda x: x),
        "zeros_like": jnp.zeros_like,
        "ones_like": jnp.ones_like,
        "empty_like": jnp.empty_like,
        "full_like_key": lambda k: jnp.full_like(k, k[0]),
        "full_like_number": lambda k: jnp.full_like(k, 7),
        "zeros_like_shape": lambda k: jnp.zeros_like(k, shape=(2,)),
        "zeros_of_key_dtype": lambda k: jnp.zeros((2,), k.dtype),
        "full_of_key": lambda k: jnp.full((2,), k[1]),
        "lax_full_like": lambda k: lax.full_like(k, 0),
        "dynamic_update_slice": lambda k: lax.dynamic_update_slice(k, k[:1], (2,)),
        "scatter": lambda k: lax.scatter(k, np.array([[1]]), k[:1], dus),
        "rev": lambda k: lax.rev(k, (0,)),
        "where_keys": lambda k: jnp.where(mask, k, k[::-1]),
        # misuses: JAX's errors
        "at_add": lambda k: k.at[0].add(k[2]),
        "at_divide": lambda k: k.at[0].divide(k[2]),
        "at_set_int": lambda k: k.at[0].set(1),
        "at_set_uint32": lambda k: k.at[0].set(np.uint32(1)),
        "where_number": lambda k: jnp.where(mask, k, 0),
        "sort": jnp.sort,
        "argsort": jnp.argsort,
        "argmax": jnp.argmax,
        "sum": jnp.sum,
        "max": jnp.max,
        "mean": jnp.mean,
        "nonzero": jnp.nonzero,
        "bitcast": lambda k: lax.bitcast_convert_type(k, np.uint32),
        "pad": lambda k: jnp.pad(k, 1),
        "true_divide": lambda k: k / k,
    }


# the functions of `op_cases` run under `jit` too (one compile each)
OP_JIT = ["flip", "tile", "split", "take_fill", "at_set", "at_apply", "zeros_like", "scatter"]


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
