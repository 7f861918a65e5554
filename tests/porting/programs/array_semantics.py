"""JAX arrays against numpy's: immutability, indexed updates, out-of-bounds rules, dtypes,
promotion and the pure-function rules of `jit`, on data of our own.

Checks what JAX's array guide and "sharp bits" describe: `jnp` arithmetic and indexing like
numpy's, `isinstance(x, jax.Array)`, `jax.typeof`, the sharding of an array; numpy's in-place
writes and aliasing `+=` against JAX's immutable arrays (the item-assignment error, `+=`
rebinding) and `.at[]`'s `set`/`add`/`multiply`/`min`/`max`/`get` with `mode='clip'`,
`'fill'` and `'drop'`; out-of-bounds reads clamped and writes dropped, eagerly and under `jit`,
numpy's `IndexError`, `nanargmin`/`nanargmax` of all-NaN rows; default dtypes (numpy's
float64, JAX's float32, weak types), `jnp.add` promoting where `lax.add` raises, `astype`
clamping floats to `uint8`, a subnormal float32; the warning of requesting float64 with x64
off and the reprs with `jax_enable_x64` on; rank promotion allowed, warned (by context manager
and by `config.update`) and raised, scalars always allowed; `jnp.sum` of a list's error, the
jaxpr of converting a list first; a boolean mask eagerly and its error under `jit`, `where`
instead; impure functions under `jit` (a print seen only while tracing, a global read at trace
time, a leaked tracer saved to a global, internal mutable state being fine, `fori_loop` over a
Python iterator) and `lax.cond` of an array operand.
"""

import warnings

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tests.porting import printed


def run():
    x64, promotion = jax.config.jax_enable_x64, jax.config.jax_numpy_rank_promotion
    try:
        return printed.notebook(_cells)
    finally:
        jax.config.update("jax_enable_x64", x64)
        jax.config.update("jax_numpy_rank_promotion", promotion)


def _try(errors, f, *args):
    try:
        printed.show(f(*args))
    except Exception as e:  # noqa: BLE001
        printed.error(errors, e)


def _warned(caught):
    """Prints the warnings caught so far (whether a `UserWarning`, the first line), then forgets
    them (numbax's are subclasses naming the case)."""
    for w in caught:
        print(issubclass(w.category, UserWarning), str(w.message).splitlines()[0])
    caught.clear()


def _arrays(errors, mark):
    m = jnp.arange(1.0, 7.0).reshape(2, 3)
    print(m @ jnp.array([1.0, 0.0, -1.0]), m.mean(axis=1), m[1, ::2], m[:, -1])
    print(isinstance(m, jax.Array), isinstance(np.ones(2), jax.Array), jax.typeof(m))
    printed.show(m.sharding)
    mark("arrays")

    host = np.arange(5)
    alias = host
    alias += 10
    host[0] = -1
    print(host, alias)
    dev = jnp.arange(5)
    same = dev
    same += 10
    print(dev, same)
    _try(errors, dev.__setitem__, 0, -1)
    mark("immutable")

    v = jnp.arange(6.0)
    print(v.at[2].set(-1.0), v)
    print(v.at[1:4].add(10.0), v.at[::2].multiply(3.0))
    print(v.at[jnp.array([0, 0, 5])].add(1.0))
    print(v.at[jnp.array([1, 4])].min(2.0), v.at[jnp.array([1, 4])].max(2.0))
    grid = jnp.ones((3, 4))
    print(grid.at[1:, ::3].add(5.0))
    mark("at")

    try:
        np.arange(6)[8]
    except IndexError as e:
        printed.error(errors, e)
    printed.show(v[8])
    printed.show(v.at[8].get())
    printed.show(v.at[jnp.array([2, 8, -9])].get(mode="fill", fill_value=-7.0))
    printed.show(v.at[jnp.array([2, -9])].get(mode="clip"))
    printed.show(v.at[jnp.array([2, 8])].set(0.5))
    printed.show(v.at[jnp.array([2, 8])].set(0.5, mode="clip"))
    printed.show(v.at[jnp.array([2, 8])].add(0.5, mode="drop"))
    printed.show(jnp.nanargmin(jnp.array([[jnp.nan, 3.0], [jnp.nan, jnp.nan]]), axis=1))
    printed.show(jnp.nanargmax(jnp.full(3, jnp.nan)))
    mark("out_of_bounds")

    printed.show(jax.jit(lambda a, i: a[i])(v, 10))
    printed.show(jax.jit(lambda a, i: a.at[i].add(1.0))(v, jnp.array([0, 9])))
    printed.show(jax.jit(lambda a, i: a.at[i].set(-1.0, mode="clip"))(v, jnp.array([3, 9])))
    printed.show(jax.jit(lambda a, i: a.at[i].get(mode="fill", fill_value=jnp.inf))(v, 6))
    printed.show(jax.jit(lambda a, i: a.at[i].max(9.0))(v, jnp.array([-1, 6])))
    mark("out_of_bounds_jit")


def _dtypes(errors, mark):
    print(np.array([0.5]).dtype, jnp.array([0.5]).dtype, np.arange(2).dtype, jnp.arange(2).dtype)
    printed.show((jnp.arange(2) + 0.5).dtype)
    printed.show(jnp.multiply(2, 0.5))
    printed.show(jnp.float32(1.0) + 2)
    _try(errors, lax.add, 2, 0.5)
    printed.show(lax.add(jnp.float32(2), jnp.float32(0.5)))
    mark("dtypes")

    print(np.linspace(250.0, 258.0, 5).astype("uint8"))
    printed.show(jnp.linspace(250.0, 258.0, 5).astype("uint8"))
    printed.show(jnp.array([-3.5, 300.0]).astype(jnp.uint8))
    printed.show(jnp.float32(2e-45))
    mark("casts")

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        printed.show(jnp.ones(3, dtype="float64"))
        _warned(caught)
        printed.show(jax.random.normal(jax.random.key(1), (2,), dtype=jnp.float64).dtype)
        _warned(caught)
    jax.config.update("jax_enable_x64", True)
    try:
        printed.show(jnp.arange(3))
        printed.show(jnp.ones(2))
        printed.show(jnp.full(2, 3, dtype=int))
        printed.show(jnp.arange(3) * 0.5)
    finally:
        jax.config.update("jax_enable_x64", False)
    printed.show(jnp.arange(3) * 0.5)
    mark("x64")


def _rank_promotion(errors, mark):
    m = jnp.arange(6).reshape(3, 2)
    row = jnp.array([10, 20])
    printed.show(m + row)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with jax.numpy_rank_promotion("warn"):
            printed.show(m - row)
        _warned(caught)
        jax.config.update("jax_numpy_rank_promotion", "warn")
        printed.show(jnp.maximum(m, row))
        _warned(caught)
        printed.show(m * 2 + jnp.int32(1))
        _warned(caught)
        print(jax.config.jax_numpy_rank_promotion)
    jax.config.update("jax_numpy_rank_promotion", "raise")
    _try(errors, jnp.add, m, row)
    printed.show(m + 1)
    jax.config.update("jax_numpy_rank_promotion", "allow")
    mark("rank_promotion")


def _inputs_and_shapes(errors, mark):
    printed.show(np.sum([4, 5, 6]))
    _try(errors, jnp.sum, [4, 5, 6])
    printed.show(jnp.sum(jnp.array([4, 5, 6])))
    print(jax.make_jaxpr(lambda xs: jnp.sum(jnp.array(xs)))([4, 5, 6]))
    mark("list_inputs")

    def mean_of_finite(x):
        return x[jnp.isfinite(x)].mean()

    data = jnp.array([1.0, jnp.inf, 2.0, jnp.nan, 6.0])
    printed.show(mean_of_finite(data))
    _try(errors, jax.jit(mean_of_finite), data)

    @jax.jit
    def mean_of_finite_where(x):
        ok = jnp.isfinite(x)
        return jnp.where(ok, x, 0.0).sum() / ok.sum()

    printed.show(mean_of_finite_where(data))
    mark("dynamic_shapes")


def _purity(mark):
    def chatty(x):
        print("running the Python function")
        return x * 2

    print("first", jax.jit(chatty)(1.0))
    print("second", jax.jit(chatty)(2.0))
    print("new shape", jax.jit(chatty)(jnp.ones(2)))

    scale = 3.0

    def uses_global(x):
        return x * scale

    print("first", jax.jit(uses_global)(1.0))
    scale = 5.0
    print("cached", jax.jit(uses_global)(1.0))
    print("new shape", jax.jit(uses_global)(jnp.ones(2)))

    leaked = []

    def saves(x):
        leaked.append(x)
        return x

    print(jax.jit(saves)(4.0), leaked[0])

    @jax.jit
    def tally(x):
        counts = {"pos": 0.0, "neg": 0.0}
        for k in range(6):
            counts["pos" if k % 3 else "neg"] += x * k
        return counts["pos"] - counts["neg"]

    print(tally(2.0))
    table = jnp.arange(8)
    print(lax.fori_loop(0, 8, lambda i, acc: acc + table[i], 0))
    values = iter(range(1, 9))
    print(lax.fori_loop(0, 8, lambda i, acc: acc + next(values), 0))
    printed.show(lax.cond(False, lambda a: a * 10, lambda a: a - 10, jnp.array([1.0, 2.0])))
    mark("purity")


def _cells(out, errors, mark):
    _arrays(errors, mark)
    _dtypes(errors, mark)
    _rank_promotion(errors, mark)
    _inputs_and_shapes(errors, mark)
    _purity(mark)
