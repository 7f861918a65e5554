"""Manual SPMD with `jax.shard_map`: blocks, collectives, distributed products and the usual
ways of splitting an MLP's training over devices (eight CPU devices, Explicit meshes set with
`jax.set_mesh`).

Checks: `shard_map` as a decorator (mesh from `set_mesh`, or `mesh=`), `in_specs`/`out_specs`
over one and two axes (and `P()`: the whole array), the block shapes a function sees (printed
inside eager and jitted calls, each device's block), out_specs that tile a replicated value,
`vmap`-like semantics against a loop over blocks and `vmap`; the collectives `psum` (one and two axes), `pmean`, `all_gather`
(tiled and stacked), `psum_scatter` (tiled and not, `scatter_dimension=1`), `ppermute` (a shift
and a reversal), `all_to_all`, `axis_index`, `axis_size`; products of a split contraction by
`all_gather`, by a ring of `ppermute`s overlapping blocks (`dynamic_slice_in_dim`, one and two
directions) and by `psum_scatter`; an MLP's loss and gradients with the batch split 8 ways,
its weights split FSDP-style (gathered under `jax.remat` with a policy that saves no
`all_gather`), tensor-parallel, FSDP with tensor parallelism on a 4x2 mesh, and a 4-stage
pipeline of microbatches by `ppermute` (loss and gradients against the plain model). run()
returns what was printed (numbers apart) and the results.
"""

from functools import partial

import numpy as np

from tests.porting import printed


def run():
    import jax

    return printed.notebook(_cells, jax.set_mesh(jax.sharding.get_mesh()))


def _close(a, b):
    import jax

    return all(np.allclose(x, y, rtol=1e-4, atol=1e-4)
               for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b)))  # fmt: skip


def _cells(out, errors, mark):
    import jax
    import jax.numpy as jnp
    from jax import lax
    from jax.sharding import Mesh, NamedSharding
    from jax.sharding import PartitionSpec as P

    AxisType = jax.sharding.AxisType
    grid = jax.make_mesh((2, 4), ("r", "c"))
    jax.set_mesh(grid)

    m = jax.device_put(np.arange(96.0).reshape(8, 12) / 10, P("r", "c"))
    n = jax.device_put(np.arange(36.0).reshape(12, 3) / 10, P("c", None))

    @jax.shard_map(in_specs=(P("r", "c"), P("c", None)), out_specs=P("r", None))
    def blocked_dot(mb, nb):
        print("blocks", mb.shape, nb.shape)
        return lax.psum(mb @ nb, "c")

    prod = blocked_dot(m, n)
    print(jax.typeof(prod), _close(prod, jnp.dot(m, n, out_sharding=P("r", None))))
    jax.debug.visualize_array_sharding(prod)
    out["prod"] = prod
    print(_close(jax.jit(blocked_dot)(m, n), prod))
    mark("blocks")

    @jax.shard_map(in_specs=P("r", None), out_specs=P("r", "c"))
    def keep(b):
        print("keep", b.shape)
        return b[:, :3]

    print(keep(jax.device_put(np.arange(48.0).reshape(4, 12), P("r", None))).shape)

    line4 = Mesh(jax.devices()[4:], ("k",), axis_types=(AxisType.Explicit,))
    jax.set_mesh(line4)
    blocks_fn = lambda b: jnp.outer(b.sum(1), b[:, 0])
    host = np.arange(24.0).reshape(8, 3)
    got = jax.shard_map(blocks_fn, in_specs=P("k"), out_specs=P("k"))(jax.device_put(host, P("k")))
    want = np.concatenate([blocks_fn(b) for b in np.split(host, 4)])
    print(
        got.shape,
        _close(got, want),
        _close(jax.vmap(blocks_fn)(host.reshape(4, 2, 3)), want.reshape(4, 2, 2)),
    )

    @jax.shard_map(in_specs=P(), out_specs=P())
    def whole(b):
        print("whole", b)
        return b + 1

    print(whole(np.arange(3.0)))

    @jax.shard_map(in_specs=P("k"), out_specs=P("k"))
    def show_block(b):
        print("device block", b)
        return b * -1

    print(show_block(jax.device_put(np.arange(4.0), P("k"))))
    mark("block semantics")

    auto = jax.make_mesh((2, 4), ("r", "c"), (AxisType.Auto, AxisType.Auto))
    with jax.set_mesh(auto):
        seed = jnp.array([[1.5, -2.0]])
        for spec in [P("r", "c"), P(None, "c"), P("r", None), P()]:
            print(spec, jax.shard_map(lambda: seed, in_specs=(), out_specs=spec)().tolist())
    mark("tiling")

    jax.set_mesh(grid)
    x = jax.device_put(np.arange(64.0).reshape(8, 8), P("r", "c"))
    for name, fn, spec in [
        ("psum c", lambda b: lax.psum(b, "c"), P("r", None)),
        ("psum r", lambda b: lax.psum(b, "r"), P(None, "c")),
        ("psum both", lambda b: lax.psum(b, ("r", "c")), P()),
        ("pmean c", lambda b: lax.pmean(b, "c"), P("r", None)),
        ("index", lambda b: b * 0 + lax.axis_index("c") + 10 * lax.axis_index("r"), P("r", "c")),
    ]:
        res = jax.shard_map(fn, in_specs=P("r", "c"), out_specs=spec)(x)
        print(name, res.shape)
        out[name] = res
    mark("reductions")

    jax.set_mesh(line4)
    v = jax.device_put(np.arange(16.0) ** 2 / 10, P("k"))
    one = lambda fn, o=P("k"): jax.shard_map(fn, in_specs=P("k"), out_specs=o)(v)
    results = {
        "psum": one(lambda b: lax.psum(b, "k"), P()),
        "gather tiled": one(lambda b: lax.all_gather(b, "k", tiled=True)),
        "gather stacked": one(lambda b: lax.all_gather(b, "k")),
        "scatter tiled": one(lambda b: lax.psum_scatter(b, "k", tiled=True)),
        "scatter": one(lambda b: lax.psum_scatter(b, "k")[None]),
        "shift": one(lambda b: lax.ppermute(b, "k", [(i, (i + 1) % 4) for i in range(4)])),
        "reverse": one(lambda b: lax.ppermute(b, "k", [(i, 3 - i) for i in range(4)])),
        "all_to_all": one(lambda b: lax.all_to_all(b, "k", 0, 0, tiled=True)),
        "size": one(lambda b: b * lax.axis_size("k")),
    }
    for name, res in results.items():
        print(name, res.shape, res.dtype)
    out["collectives"] = results
    mark("collectives")

    # A product with the contraction split over a 1-D mesh, four ways.
    rng = np.random.RandomState(4)
    lhs = jax.device_put(rng.randn(8, 16).astype(np.float32), P("k", None))
    rhs = jax.device_put(rng.randn(16, 4).astype(np.float32), P("k", None))
    expected = lhs @ rhs

    @jax.jit
    @jax.shard_map(in_specs=(P("k", None), P("k", None)), out_specs=P("k", None))
    def gathered(a, b):
        return a @ lax.all_gather(b, "k", tiled=True)

    @jax.jit
    @jax.shard_map(in_specs=(P("k", None), P("k", None)), out_specs=P("k", None))
    def ring(a, b):
        size, me = lax.axis_size("k"), lax.axis_index("k")
        width = b.shape[0]
        acc = jnp.zeros((a.shape[0], b.shape[1]), a.dtype)
        for step in range(size):
            src = (me + step) % size
            acc = acc + lax.dynamic_slice_in_dim(a, src * width, width, 1) @ b
            b = lax.ppermute(b, "k", [(i, (i - 1) % size) for i in range(size)])
        return acc

    @jax.jit
    @jax.shard_map(in_specs=(P("k", None), P("k", None)), out_specs=P("k", None))
    def two_way(a, b):
        size, me = lax.axis_size("k"), lax.axis_index("k")
        half = b.shape[0] // 2
        up, down = b[:half], b[half:]
        acc = jnp.zeros((a.shape[0], b.shape[1]), a.dtype)
        for step in range(size):
            src_up, src_down = (me + step) % size, (me - step) % size
            acc = acc + lax.dynamic_slice_in_dim(a, src_up * 2 * half, half, 1) @ up
            acc = acc + lax.dynamic_slice_in_dim(a, src_down * 2 * half + half, half, 1) @ down
            up = lax.ppermute(up, "k", [(i, (i - 1) % size) for i in range(size)])
            down = lax.ppermute(down, "k", [(i, (i + 1) % size) for i in range(size)])
        return acc

    cols = jax.device_put(np.asarray(lhs), P(None, "k"))

    @jax.jit
    @jax.shard_map(in_specs=(P(None, "k"), P("k", None)), out_specs=P("k", None))
    def scattered(a, b):
        return lax.psum_scatter(a @ b, "k", tiled=True)

    for name, fn, a in [("gathered", gathered, lhs), ("ring", ring, lhs),
                        ("two_way", two_way, lhs), ("scattered", scattered, cols)]:  # fmt: skip
        res = fn(a, rhs)
        print(name, jax.typeof(res), _close(res, expected))
        out[name] = res
    mark("products")

    # An MLP split over devices: by batch, FSDP, tensor parallel, FSDP + TP, pipeline.
    def forward(params, x):
        for w, b in params:
            x = jnp.tanh(x @ w + b)
        return x

    def loss(params, batch):
        x, y = batch
        return jnp.mean(jnp.sum((forward(params, x) - y) ** 2, axis=-1))

    width, depth = 8, 4
    draw = lambda *shape: rng.randn(*shape).astype(np.float32)
    params = [(draw(width, width) / np.sqrt(width), np.full((width,), 0.05 * i, np.float32))
              for i in range(depth)]  # fmt: skip
    batch = (draw(16, width), draw(16, width))
    line8 = jax.make_mesh((8,), ("d",))
    jax.set_mesh(line8)
    ref_loss = jax.jit(loss)(params, batch)
    ref_grad = jax.jit(jax.grad(loss))(params, batch)
    print(ref_loss)
    out["ref_grad"] = ref_grad

    @jax.shard_map(in_specs=(P(), P("d")), out_specs=P())
    def loss_dp(params, batch):
        return lax.pmean(loss(params, batch), "d")

    dp_args = (jax.device_put(params, P()), jax.device_put(batch, P("d")))
    print("dp", jax.jit(loss_dp)(*dp_args), _close(jax.jit(jax.grad(loss_dp))(*dp_args), ref_grad))

    @partial(jax.remat, policy=lambda prim, *_, **__: str(prim) != "all_gather")
    def gathered_layer(wb, x):
        w, b = (lax.all_gather(p, "d", tiled=True) for p in wb)
        return jnp.tanh(x @ w + b)

    @jax.shard_map(in_specs=(P("d"), P("d")), out_specs=P())
    def loss_fsdp(params, batch):
        x, y = batch
        for wb in params:
            x = gathered_layer(wb, x)
        return lax.pmean(jnp.mean(jnp.sum((x - y) ** 2, axis=-1)), "d")

    fsdp_args = (jax.device_put(params, P("d")), jax.device_put(batch, P("d")))
    fsdp_grad = jax.jit(jax.grad(loss_fsdp))(*fsdp_args)
    print("fsdp", jax.jit(loss_fsdp)(*fsdp_args), _close(fsdp_grad, ref_grad))
    print(jax.typeof(fsdp_grad[0][0]))

    @jax.shard_map(in_specs=(P("d"), P(None, "d")), out_specs=P(None, "d"))
    def forward_tp(params, x):
        for w, b in params:
            x = jnp.tanh(lax.psum_scatter(x @ w, "d", scatter_dimension=1, tiled=True) + b)
        return x

    tp_out = jax.jit(forward_tp)(
        jax.device_put(params, P("d")), jax.device_put(batch[0], P(None, "d"))
    )
    print("tp", jax.typeof(tp_out), _close(tp_out, forward(params, batch[0])))
    mark("dp fsdp tp")

    jax.set_mesh(jax.make_mesh((4, 2), ("d", "t")))

    @partial(jax.remat, policy=lambda prim, *_, **__: str(prim) != "all_gather")
    def fsdp_tp_layer(wb, x):
        w, b = (lax.all_gather(p, "d", tiled=True) for p in wb)
        return jnp.tanh(lax.psum_scatter(x @ w, "t", scatter_dimension=1, tiled=True) + b)

    @jax.shard_map(in_specs=(P(("t", "d")), P("d", "t")), out_specs=P())
    def loss_fsdp_tp(params, batch):
        x, y = batch
        for wb in params:
            x = fsdp_tp_layer(wb, x)
        err = lax.psum(jnp.sum((x - y) ** 2, axis=-1), "t")
        return lax.pmean(jnp.mean(err), "d")

    both_args = (jax.device_put(params, P(("t", "d"))), jax.device_put(batch, P("d", "t")))
    both_grad = jax.jit(jax.grad(loss_fsdp_tp))(*both_args)
    print("fsdp tp", jax.jit(loss_fsdp_tp)(*both_args), _close(both_grad, ref_grad))
    out["fsdp_tp_grad"] = both_grad
    mark("fsdp tp")

    # A pipeline: stage s holds layer s; microbatches enter stage 0 one per tick.
    stages, micro = depth, 4
    pipe = Mesh(jax.devices()[:stages], ("s",), axis_types=(AxisType.Explicit,))
    jax.set_mesh(pipe)
    stacked = (jnp.stack([w for w, _ in params]), jnp.stack([b for _, b in params]))

    @jax.shard_map(in_specs=(P("s"), P()), out_specs=P())
    def loss_pp(stacked, batch):
        (w,), (b,) = stacked
        x, y = batch
        chunks = x.reshape(micro, -1, width)
        me = lax.axis_index("s")
        state = jnp.zeros_like(chunks[0])
        done = jnp.zeros_like(chunks)
        for tick in range(micro + stages - 1):
            if tick < micro:
                state = jnp.where(me == 0, chunks[tick], state)
            state = jnp.tanh(state @ w + b)
            if tick >= stages - 1:
                done = done.at[tick - stages + 1].set(jnp.where(me == stages - 1, state, 0.0))
            state = lax.ppermute(state, "s", [(i, i + 1) for i in range(stages - 1)])
        preds = lax.psum(done, "s").reshape(y.shape)
        return jnp.mean(jnp.sum((preds - y) ** 2, axis=-1))

    pp_args = (jax.device_put(stacked, P("s")), jax.device_put(batch, P()))
    pp_grad = jax.jit(jax.grad(loss_pp))(*pp_args)
    ref_stacked = (np.stack([g for g, _ in ref_grad]), np.stack([g for _, g in ref_grad]))
    print("pipeline", jax.jit(loss_pp)(*pp_args), _close(pp_grad, ref_stacked))
    out["pp_grad"] = pp_grad
    mark("pipeline")
