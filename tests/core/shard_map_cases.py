"""A table of `shard_map` programs (and `pmap`, and `vmap` of a psum) whose `make_jaxpr` text
and values numbax compares with JAX 0.10.2's: each case is a function of a namespace `m`
(`m.jax`, `m.jnp`, `m.lax`, `m.P`) returning `(fun, args)`. `record_shard_map.py` runs the
table under JAX (8 CPU devices, meshes of `AxisType.Auto`) into `jax_shard_map.json`;
`test_shard_map_jaxprs.py` runs it under numbax. Neither this table nor the test imports JAX."""

from functools import partial

import numpy as np

F = np.float32


def _x(*shape):
    return np.arange(int(np.prod(shape)), dtype=F).reshape(shape) / 4 - 1


def _cases(m):  # noqa: PLR0915  (one line per case)
    jax, jnp, lax, P = m.jax, m.jnp, m.lax, m.P
    auto = jax.sharding.AxisType.Auto
    mesh_i = jax.make_mesh((4,), ("i",), devices=jax.devices()[:4], axis_types=(auto,))
    mesh_2 = jax.make_mesh((2,), ("i",), devices=jax.devices()[:2], axis_types=(auto,))
    mesh_xy = jax.make_mesh((2, 2), ("x", "y"), devices=jax.devices()[:4], axis_types=(auto,) * 2)

    def smap(f, mesh, in_specs, out_specs, **kw):
        return jax.shard_map(f, mesh=mesh, in_specs=in_specs, out_specs=out_specs, **kw)

    c = {}
    c["psum_of_sums"] = (
        smap(lambda b: lax.psum(b.sum(), "i"), mesh_i, P("i"), P()),
        (_x(8),),
    )
    c["axis_index_all_gather_pvary"] = (
        smap(
            lambda a, b: (a * lax.axis_index("x"), lax.all_gather(b, "y"), a + 1.0, b * 2),
            mesh_xy,
            (P("x", "y"), P()),
            (P("x", "y"), P("y"), P("x", "y"), P()),
        ),
        (_x(4, 4), _x(4)),
    )
    c["replicated_input_psum_ppermute"] = (
        smap(
            lambda a, b: (a + b, lax.psum(b, "x"), lax.ppermute(a, "x", [(0, 1), (1, 0)])),
            mesh_xy,
            (P("x"), P()),
            (P("x"), P(), P("x")),
        ),
        (_x(4), _x(2)),
    )
    c["pmax_reduce_scatter_all_to_all"] = (
        smap(
            lambda a, b: (
                lax.pmax(a, "x"),
                lax.psum_scatter(b, "y", tiled=True),
                lax.all_to_all(a, "y", 0, 0, tiled=True),
                jnp.sin(a) * b,
            ),
            mesh_xy,
            (P("y"), P()),
            (P("y"), P("y"), P("y"), P("y")),
        ),
        (_x(4), _x(2)),
    )
    c["psum_two_axes"] = (
        smap(lambda a: lax.psum(a, ("x", "y")), mesh_xy, P(("x", "y")), P()),
        (_x(8),),
    )
    c["unchecked_sum"] = (
        smap(lambda a: a.sum(), mesh_xy, P("x"), P(), check_vma=False),
        (_x(4),),
    )
    c["unchecked_psum_two_axes"] = (
        smap(lambda a: lax.psum(a, ("x", "y")), mesh_xy, P(("x", "y")), P(), check_vma=False),
        (_x(4),),
    )
    c["jit_of_shard_map"] = (
        jax.jit(smap(lambda a: lax.psum(a * 2, "i"), mesh_2, P("i"), P())),
        (_x(4),),
    )
    c["jit_inside_the_body"] = (
        smap(lambda a: jax.jit(jnp.sin)(a) * 2, mesh_2, P("i"), P("i")),
        (_x(4),),
    )
    c["cond_on_a_psum"] = (
        smap(
            lambda a: lax.cond(
                lax.psum(a.sum(), "i") > 0,
                lambda x: lax.psum(x, "i"),
                lambda x: lax.psum(x * 2, "i"),
                a,
            ),
            mesh_2,
            P("i"),
            P(),
        ),
        (_x(4),),
    )
    c["fori_loop_of_psums"] = (
        smap(
            lambda a: lax.fori_loop(0, 3, lambda k, c: c + lax.psum(a, "i"), jnp.zeros(2)),
            mesh_2,
            P("i"),
            P(),
        ),
        (_x(4),),
    )
    c["relu_inside"] = (
        smap(lambda a: lax.psum(jax.nn.relu(a) * jnp.tanh(a).sum(), "i"), mesh_2, P("i"), P()),
        (_x(4),),
    )
    c["closed_over_constant"] = (
        smap(lambda a: a * jnp.arange(2.0), mesh_2, P("i"), P("i")),
        (_x(4),),
    )
    loss = smap(lambda a, w: lax.psum((a * w).sum(), "i"), mesh_2, (P("i"), P()), P())
    c["grad_of_a_loss"] = (jax.grad(loss, argnums=(0, 1)), (_x(4), _x(2)))
    c["vmap_over_shard_map"] = (jax.vmap(loss, in_axes=(0, None)), (_x(3, 4), _x(2)))
    c["vmap_over_axis_1"] = (jax.vmap(loss, in_axes=(1, None)), (_x(4, 3), _x(2)))
    unchecked_loss = smap(
        lambda a, w: lax.psum(a * w, "i").sum(keepdims=True),
        mesh_2,
        (P("i"), P()),
        P(),
        check_vma=False,
    )
    c["grad_unchecked_replicated_input"] = (
        jax.grad(lambda a, w: unchecked_loss(a, w)[0], argnums=(0, 1)),
        (_x(4), _x(2)),
    )
    c["jvp_through_shard_map"] = (
        lambda a, w, t: jax.jvp(loss, (a, w), (t, w)),
        (_x(4), _x(2), _x(4) * 2),
    )
    unchecked = smap(lambda a: jnp.sin(a).sum(keepdims=True), mesh_2, P("i"), P(), check_vma=False)
    c["grad_unchecked"] = (jax.grad(lambda a: unchecked(a)[0]), (_x(4),))
    c["data_parallel_gradient"] = (
        jax.jit(
            smap(
                lambda w, xb: lax.pmean(
                    jax.grad(lambda w: jnp.mean(jnp.tanh(xb @ w) ** 2))(w), "i"
                ),
                mesh_2,
                (P(), P("i")),
                P(),
            )
        ),
        (_x(3, 2), _x(4, 3)),
    )

    # check_vma=True types the body while it is traced: a `grad` inside it sees the pvary of a
    # replicated `w`, whose transpose sums the blocks' gradients (psum_invariant)
    def sq_loss(w, xb):
        return jnp.sum(jnp.sin(xb @ w) ** 2)

    def body_grad(reduce, argnums=0, check_vma=True, out_specs=None, loss=sq_loss):
        return smap(
            lambda w, xb: reduce(jax.grad(loss, argnums=argnums)(w, xb)),
            mesh_2,
            (P(), P("i")),
            P() if out_specs is None else out_specs,
            check_vma=check_vma,
        )

    wx = (_x(3, 2), _x(4, 3))
    c["grad_inside_body"] = (body_grad(lambda g: g), wx)
    c["grad_inside_body_psum"] = (body_grad(lambda g: lax.psum(g, "i")), wx)
    c["grad_inside_body_pmean"] = (body_grad(lambda g: lax.pmean(g, "i")), wx)
    c["grad_inside_body_all_gather"] = (
        body_grad(lambda g: lax.all_gather(g, "i"), out_specs=P("i")),
        wx,
    )
    c["grad_of_the_block_inside_body"] = (body_grad(lambda g: g, 1, out_specs=P("i")), wx)
    c["grad_of_both_inside_body"] = (
        body_grad(lambda g: (lax.pmean(g[0], "i"), g[1]), (0, 1), out_specs=(P(), P("i"))),
        wx,
    )
    c["unchecked_grad_inside_body_pmean"] = (
        body_grad(lambda g: lax.pmean(g, "i"), check_vma=False),
        wx,
    )
    c["vjp_inside_body"] = (
        smap(
            lambda w, xb: jax.vjp(lambda w: jnp.sin(xb @ w), w)[1](jnp.cos(xb @ w))[0],
            mesh_2,
            (P(), P("i")),
            P(),
        ),
        wx,
    )
    c["grad_through_jit_inside_body"] = (
        body_grad(lambda g: lax.pmean(g, "i"), loss=jax.jit(sq_loss)),
        wx,
    )

    def scan_loss(w, xb):
        def step(h, row):
            h = jnp.tanh(row @ w + h)
            return h, h.sum()

        h, ys = lax.scan(step, xb[0, :2] * 0.0, xb)  # a varying carry, as JAX's scan needs
        return jnp.sum(h**2) + ys.sum()

    c["grad_through_scan_inside_body"] = (
        body_grad(lambda g: lax.pmean(g, "i"), loss=scan_loss),
        wx,
    )
    c["grad_inside_body_two_axes"] = (
        smap(
            lambda w, xb: lax.psum(jax.grad(sq_loss)(w, xb), "x"),
            mesh_xy,
            (P(None, "x"), P(("x", "y"))),
            P(None, "x"),
        ),
        (_x(3, 4), _x(8, 3)),
    )

    # the gradient of a shard_map whose residuals vary along fewer mesh axes than the body's
    # inputs (JAX's shard_map.md FSDP + TP: x is the batch axis, y the features')
    def tp_loss(predict):
        def body(w_frag, xb, tb):
            sq = lax.psum(jnp.sum((predict(w_frag, xb) - tb) ** 2, axis=-1), "y")
            return lax.pmean(jnp.mean(sq), "x")

        return body

    def tp_predict(w, xb):
        return lax.psum_scatter(jnp.dot(xb, w), "y", scatter_dimension=1, tiled=True)

    @partial(jax.remat, policy=lambda op, *_, **__: str(op) != "all_gather")
    def fsdp_tp_predict(w_frag, xb):
        return jax.nn.relu(tp_predict(lax.all_gather(w_frag, "x", tiled=True), xb))

    tp_specs = (P("x", "y"), P("x", "y"))
    c["grad_psum_scatter_pmean_two_axes"] = (
        jax.grad(smap(tp_loss(tp_predict), mesh_xy, (P("y"), *tp_specs), P())),
        (_x(4, 2), _x(2, 4), _x(2, 2)),
    )
    c["jit_grad_remat_fsdp_tp"] = (
        jax.jit(jax.grad(smap(tp_loss(fsdp_tp_predict), mesh_xy, (P(("y", "x")), *tp_specs), P()))),
        (_x(4, 4), _x(4, 4), _x(4, 4)),
    )
    # JAX's static replication check (check_vma=True): a gathered value varies along its axis
    c["error_gathered_output_replicated"] = (
        smap(lambda b: lax.all_gather(b, "y"), mesh_xy, P("y"), P(None)),
        (_x(4),),
    )
    c["error_second_output_replicated"] = (
        jax.jit(smap(lambda a: (a, a * 2), mesh_xy, P("x"), (P("x"), P()))),
        (_x(4),),
    )
    c["pmap_psum"] = (jax.pmap(lambda x: lax.psum(x, "i"), axis_name="i"), (_x(2, 3),))
    c["vmap_psum"] = (jax.vmap(lambda x: lax.psum(x, "i"), axis_name="i"), (_x(2, 3),))
    c["vmap_psum_unmapped_out"] = (
        jax.vmap(lambda x: lax.psum(x, "i"), axis_name="i", out_axes=None),
        (_x(2, 3),),
    )
    c["vmap_psum_in_axis_1_unmapped_out"] = (
        jax.vmap(lambda x: lax.psum(x, "i"), in_axes=1, axis_name="i", out_axes=None),
        (_x(2, 3),),
    )
    c["vmap_psum_over_axis_1"] = (
        jax.vmap(lambda x: lax.psum(x, "i") * x, in_axes=1, axis_name="i"),
        (_x(3, 2),),
    )
    return c


def cases(m):
    """The table under the API namespace `m` (attributes jax, jnp, lax, P).

    Args:
      m: a namespace with the `jax`, `jnp` and `lax` modules of one implementation, and its
        `PartitionSpec` as `P`.

    Returns:
      A dict of case name to `(function, example arguments)`.
    """
    return _cases(m)
