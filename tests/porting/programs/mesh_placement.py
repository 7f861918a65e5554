"""Arrays placed on meshes of Auto axes and on subsets of the devices, and two small MLPs trained
across them (eight CPU devices).

Checks: `jax.make_mesh` (Auto axes, `devices=` subsets, reversed device orders) and `Mesh`
built from device lists; `device_put` by `NamedSharding` for many `PartitionSpec`s
(`visualize_array_sharding`'s tables), elementwise ops and products following their inputs'
shardings, `jnp.copy`, `device_put` to one device; the errors of arrays committed to different
or permuted device lists, and that uncommitted arrays join committed ones; `committed`,
`jax.typeof` of a submesh array, moving arrays between meshes (what each device holds), the
error of a `device_put` onto another mesh inside `jit`, a pipeline of stages on four 2-device
meshes; `with_sharding_constraint` inside `jit`; the reprs and queries of meshes, shardings,
`addressable_shards`, `devices_indices_map`, `shard_shape`; `jit`'s `in_shardings` and
`out_shardings`; an MLP trained with its batch split 8 ways (checked against one device) and
with its hidden layer split 2 ways by a 'model' axis. run() returns what was printed (numbers
apart), the first lines of the errors and the trained values.
"""

import textwrap

import numpy as np

from tests.porting import printed


def run():
    return printed.notebook(_cells)


def _cells(out, errors, mark):
    import jax
    import jax.numpy as jnp
    from jax.sharding import Mesh, NamedSharding
    from jax.sharding import PartitionSpec as P

    Auto = jax.sharding.AxisType.Auto
    grid = jax.make_mesh((2, 4), ("rows", "cols"), axis_types=(Auto, Auto))
    base = jax.random.uniform(jax.random.key(11), (8, 16), minval=-2.0, maxval=2.0)

    # A single device's table, then one per spec on the 2x4 grid.
    jax.debug.visualize_array_sharding(base)
    for spec in [P("rows", "cols"), P("cols", "rows"), P(None, "rows"), P("cols", None),
                 P(("cols", "rows")), P(None, ("rows", "cols")), P()]:  # fmt: skip
        print(spec)
        jax.debug.visualize_array_sharding(jax.device_put(base, NamedSharding(grid, spec)))
    mark("specs")

    # Computation follows the data: unary ops keep the layout, a product of a row-split and a
    # column-split operand is split both ways.
    tiles = jax.device_put(base, NamedSharding(grid, P("rows", "cols")))
    jax.debug.visualize_array_sharding(jnp.tanh(tiles) * 3)
    left = jax.device_put(base, NamedSharding(grid, P("cols", None)))
    right = jax.device_put(base.T, NamedSharding(grid, P(None, "rows")))
    prod = left @ right
    jax.debug.visualize_array_sharding(prod)
    jax.debug.visualize_array_sharding(jnp.copy(prod))
    one = jax.device_put(base, jax.devices()[3])
    jax.debug.visualize_array_sharding(one)
    print(one.sharding, one.committed)
    print(np.allclose(one @ one.T, prod, atol=1e-5))
    mark("follows")
    out["prod"] = prod

    # Committed operands on different or permuted device lists cannot meet.
    devs = jax.devices()
    low = NamedSharding(Mesh(devs[:4], "d"), P("d"))
    high = NamedSharding(Mesh(devs[4:], "d"), P("d"))
    shuffled = NamedSharding(Mesh([devs[i] for i in [1, 0, 2, 3, 5, 4, 7, 6]], "d"), P("d"))
    whole = NamedSharding(Mesh(devs, "d"), P("d"))
    vec = jnp.linspace(0.0, 1.0, 16)
    for a, b in [(low, high), (whole, shuffled)]:
        try:
            jax.device_put(vec, a) * jax.device_put(vec, b)
        except ValueError as e:
            print(textwrap.fill(f"ValueError: {e}", 100))
            errors.append(["ValueError", str(e).splitlines()[0]])
    placed = jax.device_put(vec, whole)
    mixed = placed - jnp.ones_like(placed) + jnp.arange(16.0)
    print(mixed.sharding == whole, mixed.committed)
    mark("committed")

    # Meshes over subsets of the devices, and moving between them.
    full = jax.make_mesh((8,), ("d",))
    print(full)
    part_a = jax.make_mesh((4,), ("d",), devices=full.devices[:4])
    part_b = jax.make_mesh((4,), ("d",), devices=full.devices[4:])
    solo0 = jax.make_mesh((1,), ("d",), devices=full.devices[2:3])
    solo1 = jax.make_mesh((1,), ("d",), devices=full.devices[5:6])
    fresh = jnp.full((3,), 2.5)
    print(fresh.committed, fresh.sharding)
    on_a = jax.device_put(np.arange(12.0).reshape(4, 3), NamedSharding(part_a, P("d")))
    print(on_a.committed, jax.typeof(on_a))
    s0 = jax.device_put(4.0, NamedSharding(solo0, P()))
    s1 = jax.device_put(-1.0, NamedSharding(solo1, P()))
    try:
        s0 - s1
    except Exception as e:
        printed.error(errors, e)
    print((s0 * jnp.float32(0.5)).sharding)
    on_b = jax.device_put(on_a, NamedSharding(part_b, P("d")))
    print(on_b.sharding.mesh == part_b, on_b.sharding.mesh == part_a)
    backwards = jax.make_mesh((8,), ("d",), devices=full.devices[::-1])
    fwd = jax.device_put(np.arange(10.0, 18.0), NamedSharding(full, P("d")))
    bwd = jax.device_put(fwd, NamedSharding(backwards, P("d")))
    for arr in (fwd, bwd):
        print([float(s.data[0]) for s in sorted(arr.addressable_shards, key=lambda s: s.device.id)])

    @jax.jit
    def move(x):
        return jax.device_put(x, NamedSharding(part_b, P("d"))) + 1

    try:
        move(on_a)
    except Exception as e:
        printed.error(errors, e)

    pairs = [jax.make_mesh((2,), ("d",), devices=full.devices[2 * i : 2 * i + 2]) for i in range(4)]
    step = jax.jit(lambda x: jnp.cos(x) * 0.5)
    flowed = []
    for k in range(3):
        chunk = np.full((4, 2), 0.25 * k)
        for m in pairs:
            chunk = step(jax.device_put(chunk, NamedSharding(m, P("d"))))
        flowed.append(chunk)
    print(flowed[-1].sharding.mesh == pairs[-1], sorted(d.id for d in flowed[-1].devices()))
    mark("placement")
    out["flowed"] = flowed

    # Constraints on intermediates inside jit.
    tiles = jax.device_put(base, NamedSharding(grid, P("rows", "cols")))
    for spec in [P("cols", "rows"), P(), P(None, "cols")]:
        g = jax.jit(
            lambda x, s=spec: jax.lax.with_sharding_constraint(
                jnp.abs(x) - 1, NamedSharding(grid, s)
            )
        )
        r = g(tiles)
        print(r.sharding.spec)
        jax.debug.visualize_array_sharding(r)
    mark("constraint")
    out["constrained"] = r

    # An MLP: the batch split 8 ways, then the hidden layer split 2 ways.
    def forward(params, x):
        for w, b in params[:-1]:
            x = jnp.tanh(x @ w + b)
        w, b = params[-1]
        return x @ w + b

    def cost(params, batch):
        x, y = batch
        return jnp.mean((forward(params, x) - y) ** 2)

    sizes = [6, 16, 16, 3]
    keys = jax.random.split(jax.random.key(5), len(sizes))
    params = [(jax.random.normal(k, (m, n)) / np.sqrt(m), jnp.full((n,), 0.1))
              for k, m, n in zip(keys[1:], sizes[:-1], sizes[1:])]  # fmt: skip
    kx, ky = jax.random.split(keys[0])
    batch = (jax.random.normal(kx, (32, 6)), jax.random.normal(ky, (32, 3)))
    cost_jit = jax.jit(cost)
    grad_jit = jax.jit(jax.grad(cost))

    def train(params, batch, steps=5, lr=0.05):
        for _ in range(steps):
            grads = grad_jit(params, batch)
            params = [(w - lr * gw, b - lr * gb) for (w, b), (gw, gb) in zip(params, grads)]
        return params

    line = jax.make_mesh((8,), ("batch",), axis_types=(Auto,))
    dp_batch = jax.device_put(batch, NamedSharding(line, P("batch")))
    dp_params = jax.device_put(params, NamedSharding(line, P()))
    print(cost_jit(dp_params, dp_batch))
    dp_params = train(dp_params, dp_batch)
    print(cost_jit(dp_params, dp_batch), dp_params[0][0].sharding.spec)
    ref = train(jax.device_put(params, devs[0]), jax.device_put(batch, devs[0]))
    print(all(np.allclose(a, b, atol=1e-5) for a, b in
              zip(jax.tree.leaves(ref), jax.tree.leaves(dp_params))))  # fmt: skip
    mark("data parallel")
    out["dp_params"] = dp_params

    mesh = jax.make_mesh((4, 2), ("batch", "model"), axis_types=(Auto, Auto))
    mp_batch = jax.device_put(batch, NamedSharding(mesh, P("batch", None)))
    rep = NamedSharding(mesh, P())
    (w1, b1), (w2, b2), (w3, b3) = params
    mp_params = [
        (jax.device_put(w1, NamedSharding(mesh, P(None, "model"))),
         jax.device_put(b1, NamedSharding(mesh, P("model")))),
        (jax.device_put(w2, NamedSharding(mesh, P("model", None))), jax.device_put(b2, rep)),
        (jax.device_put(w3, rep), jax.device_put(b3, rep)),
    ]  # fmt: skip
    jax.debug.visualize_array_sharding(mp_batch[0])
    jax.debug.visualize_array_sharding(mp_params[0][0])
    jax.debug.visualize_array_sharding(mp_params[1][0])
    print(cost_jit(mp_params, mp_batch))
    mp_params = train(mp_params, mp_batch)
    print(cost_jit(mp_params, mp_batch))
    jax.debug.visualize_array_sharding(mp_params[0][0])
    jax.debug.visualize_array_sharding(mp_params[1][0])
    mark("model parallel")
    out["mp_params"] = mp_params

    # What meshes, specs and shardings show and answer.
    w = mp_params[0][0]
    print(mesh)
    print(repr(mesh))
    print(mesh.shape, mesh.axis_names, mesh.size, mesh.devices.shape, mesh.axis_sizes)
    print(repr(NamedSharding(mesh, P("model", "batch"))))
    print(P(None, "x"), P(("x", "y")), P(), P("x", None, "y"))
    print(w.sharding, w.sharding.spec, w.sharding.is_fully_replicated)
    print(mp_params[2][1].sharding.is_fully_replicated, mp_params[2][1].is_fully_replicated)
    print(mp_batch[0].sharding.shard_shape(mp_batch[0].shape), w.is_fully_addressable)
    print(sorted(w.devices(), key=lambda d: d.id))
    for shard in sorted(w.addressable_shards, key=lambda s: s.device.id):
        print(shard.device, shard.index, shard.data.shape, shard.replica_id)
    print(w.sharding.devices_indices_map(w.shape))
    mark("reprs")

    h = jax.jit(lambda x, w: (jnp.tanh(x @ w), (x * x).mean()),
                in_shardings=(NamedSharding(mesh, P("batch", None)), rep),
                out_shardings=(NamedSharding(mesh, P("batch", "model")), rep))  # fmt: skip
    hx, hm = h(batch[0], w1)
    print(hx.sharding, hm.sharding)
    jax.debug.visualize_array_sharding(hx)
    mark("in out shardings")
    out["hx"] = hx
    out["hm"] = hm
