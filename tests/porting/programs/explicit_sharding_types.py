"""Sharding in types: meshes of Explicit axes set with `jax.set_mesh`, `jax.typeof` showing each
dimension's mesh axes (`f32[8@a,6]`), and the rules that propagate them (eight CPU devices).

Checks: `make_mesh` with default (Explicit) and given axis types, `set_mesh` as a global setter
and as a context manager, `get_abstract_mesh`'s repr outside and inside `jit`, the `Mesh`'s
reprs and `axis_sizes`/`axis_types`; `reshard` and `device_put(x, P(...))`, `typeof` of numpy
and jax values, eagerly and while tracing; shards per device (`addressable_shards`), an array
unreduced over an axis (`P('a', None, unreduced={'b'})`, its shards the summands), an array on a
second mesh; `random.normal(out_sharding=)`; the propagation rules: creation ops with and
without `out_sharding`, unary ops, broadcasting binary ops, reshapes that split, merge or add
singletons (and the ambiguous one's error), products (free axes kept, sharded contractions
needing `out_sharding`), reductions, transposes; every `ShardingTypeError` met by name and
first line; `auto_axes` (all axes, `axes=` inside `jit`) with `out_sharding`, `explicit_axes`
with `in_sharding` under an Auto mesh, concrete vs type shardings inside `auto_axes`; an Auto
mesh where a sharded contraction is fine and `with_sharding_constraint` places the result; a
`shard_map` product by `psum_scatter` against `dot(out_sharding=)`. run() returns what was
printed (numbers apart), the errors and a few results.
"""

import functools

import numpy as np

from tests.porting import printed


def run():
    import jax

    return printed.notebook(_cells, jax.set_mesh(jax.sharding.get_mesh()))


def _sharding_error(e):
    """Whether `e` is JAX's ShardingTypeError (by class name: it is not exported)."""
    return "ShardingTypeError" in [c.__name__ for c in type(e).__mro__]


def _cells(out, errors, mark):
    import jax
    import jax.numpy as jnp
    from jax.sharding import AxisType, auto_axes, explicit_axes, get_abstract_mesh, reshard
    from jax.sharding import PartitionSpec as P

    plain = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(2, 6)
    print(jax.typeof(plain), jax.typeof(jnp.int8(3)), jax.typeof(2.0))

    @jax.jit
    def traced(x):
        print("tracing:", jax.typeof(x), get_abstract_mesh())
        return x * 2

    traced(plain)
    mark("unsharded")

    mesh = jax.make_mesh((2, 4), ("a", "b"))
    print(mesh)
    print(repr(mesh))
    print(mesh.axis_sizes, mesh.axis_names, mesh.axis_types)
    jax.set_mesh(mesh)
    print(get_abstract_mesh())
    mark("mesh")

    x = reshard(np.arange(64.0, dtype=np.float32).reshape(8, 8), P("a", None))
    print(jax.typeof(x), x.sharding)
    jax.debug.visualize_array_sharding(x)
    for s in sorted(x.addressable_shards, key=lambda s: s.device.id)[:3]:
        print(s.device, s.index, s.data.tolist())
    traced(x)
    print(jax.typeof(jnp.cos(x).T))
    y = jax.device_put(x, P(None, ("b", "a")))
    print(jax.typeof(y))
    jax.debug.visualize_array_sharding(y)
    mark("typeof")

    u = jax.device_put(np.ones((8, 4), np.float32), P("a", None, unreduced={"b"}))
    print(u.sharding)
    print(jax.typeof(u))
    for s in sorted(u.addressable_shards, key=lambda s: s.device.id)[:4]:
        print(s.device, np.asarray(s.data).sum())
    other = jax.make_mesh((8,), ("c",))
    v = jax.device_put(x, jax.NamedSharding(other, P("c", None)))
    print(v.sharding)
    print(jax.typeof(v))
    r = jax.random.normal(jax.random.key(3), (4, 8), out_sharding=P("a", "b"))
    print(jax.typeof(r), jax.typeof(r.sum(1)))
    out["r"] = r
    mark("unreduced")

    col = reshard(np.arange(4.0).reshape(4, 1), P("b", None))
    row = reshard(np.arange(6.0).reshape(1, 6), P(None, "a"))
    print(jax.typeof(col), jax.typeof(row), jax.typeof(col - row))

    @jax.jit
    def outer(c, r):
        z = c * r
        print("inside:", jax.typeof(c), jax.typeof(r), jax.typeof(z))
        return z

    out["outer"] = outer(col, row)
    mark("outer")

    # The rules, one line each.
    def rule(name, thunk):
        try:
            print(f"{name}: {jax.typeof(thunk())}")
        except Exception as e:
            print(f"{name}: error {_sharding_error(e)}")
            errors.append([name, str(e).splitlines()[0]])

    sq = reshard(np.arange(16.0, dtype=np.float32).reshape(4, 4) - 6, P("a", "b"))
    by_row = reshard(np.arange(16.0, dtype=np.float32).reshape(4, 4), P("b", None))
    by_col = reshard(np.arange(16.0, dtype=np.float32).reshape(4, 4), P(None, "b"))
    rule("ones", lambda: jnp.ones((4, 4)))
    rule("full out_sharding", lambda: jnp.full((4, 8), 2.0, out_sharding=P(None, "b")))
    rule("arange", lambda: jnp.arange(6))
    rule("zeros_like", lambda: jnp.zeros_like(sq))
    rule("abs", lambda: jnp.abs(sq))
    rule("sqrt", lambda: jnp.sqrt(by_col))
    rule("mul", lambda: sq * sq)
    rule("add unsharded", lambda: by_row + jnp.full((4, 4), 3.0))
    rule("sub broadcast", lambda: by_row - reshard(np.arange(4.0), P("a")))
    rule("add clash", lambda: sq + reshard(np.arange(16.0).reshape(4, 4), P("b", "a")))
    rule("add rows cols", lambda: by_row + by_col)
    rule("reshape merge", lambda: sq.reshape(16))
    rule("reshape split", lambda: by_row.reshape(2, 2, 4))
    rule("reshape singleton", lambda: by_col.reshape(1, 4, 4))
    rule("reshape ambiguous", lambda: sq.reshape(2, 8))
    rule("reshape out_sharding", lambda: jnp.reshape(sq, (2, 8), out_sharding=P("a", None)))
    rule("matmul", lambda: by_row @ reshard(np.eye(4, dtype=np.float32), P(None, "a")))
    rule("matmul contracted", lambda: by_col @ by_row)
    rule("dot out_sharding", lambda: jnp.dot(by_col, by_row, out_sharding=P("a", None)))
    rule("matmul same axis", lambda: by_row @ by_col)
    rule("einsum out_sharding",
         lambda: jnp.einsum("ij,jk->ik", by_col, by_row, out_sharding=P(None, "b")))  # fmt: skip
    rule("sum 1", lambda: jnp.sum(sq, axis=1))
    rule("min 0", lambda: jnp.min(sq, axis=0))
    rule("mean", lambda: sq.mean())
    rule("swapaxes", lambda: jnp.swapaxes(sq, 0, 1))
    mark("rules")

    @auto_axes
    def auto_add(p, q):
        print("auto:", get_abstract_mesh())
        return p + q

    res = auto_add(by_row, by_col, out_sharding=P(None, "b"))
    print(jax.typeof(res))
    out["auto_add"] = res

    @functools.partial(auto_axes, axes="b")
    def half_auto(z):
        print("half auto:", get_abstract_mesh(), jax.typeof(z))
        return z - 1

    @jax.jit
    def mixed(z):
        print("jit:", get_abstract_mesh())
        w = half_auto(jnp.exp(z), out_sharding=P("a", "b"))
        print("after:", jax.typeof(w))
        return w * 0.5

    out["mixed"] = mixed(sq)
    mark("auto_axes")

    def both(z):
        print(get_abstract_mesh())
        print("concrete:", z.sharding.spec, "type:", jax.typeof(z).sharding.spec)

    vec = jnp.cos(reshard(np.arange(8.0), P("a")))
    both(vec)
    print(auto_axes(lambda z: (both(z), z)[1])(vec, out_sharding=P("a")).tolist())
    mark("concrete vs type")

    auto = jax.make_mesh((2, 4), ("a", "b"), (AxisType.Auto, AxisType.Auto))
    with jax.set_mesh(auto):
        print(get_abstract_mesh())

        @functools.partial(explicit_axes, axes=("a", "b"))
        def in_explicit(z):
            print("explicit:", get_abstract_mesh(), jax.typeof(z))
            w = z + z
            print("explicit out:", jax.typeof(w))
            return w

        @jax.jit
        def under_auto(z):
            print("auto jit:", get_abstract_mesh())
            return in_explicit(jnp.tanh(z), in_sharding=P("a", "b")) - 1

        ex = jax.device_put(np.arange(16.0).reshape(4, 4) / 8, P("a", "b"))
        out["under_auto"] = under_auto(ex)
        lhs = jax.device_put(np.arange(24.0).reshape(4, 6), P(None, "a"))
        rhs = jax.device_put(np.arange(30.0).reshape(6, 5), P("a", None))
        prod = lhs @ rhs
        print(prod.sharding)
        pinned = jax.jit(lambda p, q: jax.lax.with_sharding_constraint(p @ q, P("b", None)))(
            lhs, rhs
        )
        print(pinned.sharding, jnp.allclose(pinned, prod))
        out["prod"] = prod
    print(get_abstract_mesh())
    mark("auto mesh")

    lhs = jax.device_put(np.arange(32.0).reshape(4, 8) / 10, P(None, "b"))
    rhs = jax.device_put(np.arange(48.0).reshape(8, 6) / 10, P("b", None))

    @jax.shard_map(out_specs=P("b", None))
    def scattered(p, q):
        return jax.lax.psum_scatter(p @ q, "b", tiled=True)

    z = scattered(lhs, rhs)
    print(jax.typeof(z), jnp.allclose(z, jnp.dot(lhs, rhs, out_sharding=P("b", None))))
    out["scattered"] = z
    mark("shard_map")
