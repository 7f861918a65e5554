"""Indexed reads and updates below NumPy indexing, as JAX users write them for embeddings,
histograms and sparse updates.

- `.at[]` updates: `set`/`add`/`multiply`/`divide`/`power`/`min`/`max`/`apply` with repeated
  indices, `.get(mode="fill", fill_value=)`, `mode="drop"`/`"clip"`/`"promise_in_bounds"`,
  `indices_are_sorted=`/`unique_indices=`, negative and out-of-range indices, slices and
  boolean-free masks by `where`;
- `jnp.take(mode=)`, `take_along_axis(mode=, fill_value=)`, `jnp.put(inplace=False)`,
  `jnp.place(inplace=False)`, `jnp.choose(mode=)`, `jnp.compress`, `jnp.extract(size=)`;
- NumPy ufunc methods: `jnp.add.at(inplace=False)`, `jnp.maximum.at`, `jnp.multiply.reduce`,
  `jnp.add.accumulate`, `jnp.subtract.outer`, `jnp.add.reduceat`, `jnp.frompyfunc`;
- `lax.gather` and `lax.scatter_add` with explicit `GatherDimensionNumbers`/
  `ScatterDimensionNumbers` (rows of a table, patches), against indexing;
- gradients of gathers with repeated indices, of `.at[].max` (ties), of `.at[].set` wrt the
  values and the operand, and under `vmap` (batched indices).

`.at[].multiply` is differentiated with `unique_indices=True`: with repeated indices JAX raises
`NotImplementedError` (scatter_mul gradients), numbax differentiates the product (deliberate,
as for `segment_prod`).
"""

import jax
import jax.numpy as jnp
from jax import lax, random


def at_updates(out):
    x = jnp.arange(1.0, 7.0)
    i = jnp.array([0, 2, 2, 5])
    v = jnp.array([10.0, 1.0, 2.0, -1.0])
    out["set"] = x.at[i].set(v)
    out["add"] = x.at[i].add(v)
    out["multiply"] = x.at[i].multiply(v)
    out["divide"] = x.at[i].divide(jnp.array([2.0, 4.0, 4.0, 8.0]))
    out["power"] = x.at[i].power(2.0)
    out["min"] = x.at[i].min(v)
    out["max"] = x.at[i].max(v)
    out["apply"] = x.at[i].apply(jnp.sqrt)
    out["negative"] = x.at[-1].add(100.0)
    out["slice"] = x.at[1:5:2].set(0.0)
    out["get_fill"] = x.at[jnp.array([0, 7, -9])].get(mode="fill", fill_value=-1.0)
    out["get_clip"] = x.at[jnp.array([0, 7, -9])].get(mode="clip")
    out["get_default_oob"] = x[jnp.array([7, -9])]
    out["set_drop"] = x.at[jnp.array([1, 9])].set(0.0, mode="drop")
    out["add_clip"] = x.at[jnp.array([1, 9])].add(5.0, mode="clip")
    out["sorted_unique"] = x.at[jnp.array([1, 3])].add(
        1.0, indices_are_sorted=True, unique_indices=True
    )
    out["promise"] = x.at[jnp.array([0, 1])].get(mode="promise_in_bounds")
    m = jnp.zeros((3, 4), jnp.int32)
    out["2d_pairs"] = m.at[jnp.array([0, 2, 0]), jnp.array([1, 3, 1])].add(1)
    out["2d_rows"] = m.at[jnp.array([2, 0])].set(jnp.array([[1, 2, 3, 4], [5, 6, 7, 8]]))
    out["int_divide"] = jnp.array([7, 8, 9]).at[1].divide(2)
    out["bool_set"] = jnp.zeros(4, bool).at[jnp.array([1, 3])].set(True)


def take_family(out):
    a = jnp.arange(12.0).reshape(3, 4)
    idx = jnp.array([0, 5, -1])
    out["take_fill"] = jnp.take(a, idx, axis=1, mode="fill", fill_value=-7.0)
    out["take_clip"] = jnp.take(a, idx, axis=1, mode="clip")
    out["take_wrap"] = jnp.take(a, idx, axis=1, mode="wrap")
    out["take_flat"] = jnp.take(a, jnp.array([1, 11]))
    order = jnp.argsort(-a, axis=1)
    out["take_along"] = jnp.take_along_axis(a, order, axis=1)
    out["take_along_fill"] = jnp.take_along_axis(
        a, jnp.array([[0], [9], [2]]), axis=1, mode="fill", fill_value=0.5
    )
    out["put"] = jnp.put(jnp.zeros(6), jnp.array([1, 4]), jnp.array([3.0, 5.0]), inplace=False)
    out["put_wrap"] = jnp.put(jnp.zeros(6), jnp.array([7]), 1.0, mode="wrap", inplace=False)
    out["place"] = jnp.place(
        jnp.arange(6.0), jnp.arange(6) % 2 == 0, jnp.array([-1.0, -2.0]), inplace=False
    )
    choices = [jnp.zeros(4), jnp.ones(4), jnp.full(4, 2.0)]
    out["choose"] = jnp.choose(jnp.array([0, 2, 1, 0]), choices)
    out["choose_clip"] = jnp.choose(jnp.array([0, 5, 1, -1]), choices, mode="clip")
    out["compress"] = jnp.compress(jnp.array([True, False, True]), a, axis=0)
    out["extract"] = jnp.extract(a > 6, a, size=6, fill_value=-1.0)


def ufunc_methods(out):
    x = jnp.zeros(5)
    i = jnp.array([0, 1, 1, 4, 4, 4])
    out["add_at"] = jnp.add.at(x, i, 1.0, inplace=False)
    out["maximum_at"] = jnp.maximum.at(x, i, jnp.arange(6.0), inplace=False)
    out["multiply_reduce"] = jnp.multiply.reduce(jnp.arange(1.0, 6.0))
    out["add_accumulate"] = jnp.add.accumulate(jnp.arange(5))
    out["subtract_outer"] = jnp.subtract.outer(jnp.arange(3), jnp.arange(2))
    out["add_reduceat"] = jnp.add.reduceat(jnp.arange(8.0), jnp.array([0, 4, 6]))
    clipped_add = jnp.frompyfunc(lambda a, b: jnp.minimum(a + b, 10.0), nin=2, nout=1, identity=0.0)
    out["frompyfunc_call"] = clipped_add(jnp.arange(4.0), 8.0)
    out["frompyfunc_reduce"] = clipped_add.reduce(jnp.array([3.0, 4.0, 5.0]))
    out["frompyfunc_accumulate"] = clipped_add.accumulate(jnp.array([3.0, 4.0, 5.0]))
    out["ufunc_attrs"] = [jnp.add.nin, jnp.add.nout, str(jnp.add.identity), jnp.add.__name__]


def explicit_dnums(out):
    table = jnp.arange(20.0).reshape(5, 4)
    rows = jnp.array([[3], [0], [3]])
    dn = lax.GatherDimensionNumbers(
        offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,)
    )
    out["gather_rows"] = lax.gather(table, rows, dn, slice_sizes=(1, 4))
    img = jnp.arange(36.0).reshape(6, 6)
    starts = jnp.array([[0, 0], [2, 3], [4, 4]])
    dn2 = lax.GatherDimensionNumbers(
        offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1)
    )
    out["gather_patches"] = lax.gather(img, starts, dn2, slice_sizes=(2, 2), mode="clip")
    out["gather_patches_fill"] = lax.gather(
        img, starts + 1, dn2, slice_sizes=(2, 2), mode="fill", fill_value=-1.0
    )
    sdn = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                      scatter_dims_to_operand_dims=(0,))  # fmt: skip
    out["scatter_add_rows"] = lax.scatter_add(jnp.zeros((5, 4)), rows, jnp.ones((3, 4)), sdn)
    out["scatter_rows"] = lax.scatter(jnp.zeros((5, 4)), rows[:2], 2.0 * jnp.ones((2, 4)), sdn)
    out["scatter_max"] = lax.scatter_max(
        jnp.zeros((5, 4)), rows, jnp.arange(12.0).reshape(3, 4), sdn
    )


def gradients(out):
    emb = random.normal(random.key(0), (6, 3))
    ids = jnp.array([1, 4, 1, 1, 5])
    out["gather_grad"] = jax.grad(lambda e: jnp.sum(jnp.tanh(e[ids]) ** 2))(emb)
    x = jnp.array([1.0, 3.0, 2.0])
    v = jnp.array([3.0, 0.5])
    f = lambda x, v: jnp.sum(x.at[jnp.array([1, 2])].max(v) * jnp.array([1.0, 2.0, 3.0]))
    out["max_grads"] = jax.grad(f, argnums=(0, 1))(x, v)
    g = lambda x, v: jnp.sum(x.at[jnp.array([0, 0])].set(v) ** 2)
    out["set_grads"] = jax.grad(g, argnums=(0, 1))(x, v)
    mul = lambda x, v: jnp.sum(x.at[jnp.array([1, 2])].multiply(v, unique_indices=True))
    out["mul_grads"] = jax.grad(mul, argnums=(0, 1))(x, v)
    batched = jax.vmap(lambda row, i: row.at[i].add(1.0).sum() + row[i] ** 2)
    out["vmap_grad"] = jax.grad(lambda m: jnp.sum(batched(m, jnp.array([0, 2, 1]))))(emb[:3])
    out["take_along_grad"] = jax.grad(
        lambda a: jnp.sum(jnp.take_along_axis(a, jnp.array([[2, 2], [0, 1]]), 1) ** 2)
    )(emb[:2])


def run():
    out = {}
    at_updates(out)
    take_family(out)
    ufunc_methods(out)
    explicit_dnums(out)
    gradients(out)
    return out
