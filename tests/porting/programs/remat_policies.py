"""Rematerialization with `jax.checkpoint` on networks of our own: which residuals the forward
pass keeps under each policy (`print_saved_residuals`' text), that every variant gives the same
gradients, and checkpointing inside `scan` and in a recursive chain.

Checked (printed text with source locations as file:line, gradients' values):
- `print_saved_residuals` of a three-layer tanh network: unchanged, each layer checkpointed,
  the whole under `dots_with_no_batch_dims_saveable`, with `checkpoint_name`s under
  `save_only_these_names` and `save_any_names_but_these`, and `jax.remat` with
  `nothing_saveable`; the gradients of all of them;
- hand-written VJPs that store or recompute the first stage's residuals, against `grad` of
  a checkpointed composition; a `vjp` function flattened as a pytree, rebuilt and called;
- the offloading policies (`offload_dot_with_no_batch_dims`,
  `save_and_offload_only_these_names` with names inside a `scan`): their gradients eagerly and
  under `jit` (offloading to `pinned_host` is saving on a CPU);
- a chain of sixteen `cos` against the chain checkpointed recursively: residuals and
  gradients;
- a scan over stacked layers with the body checkpointed by `partial(jax.checkpoint,
  policy=...)`: values, gradients and residuals.
"""

import contextlib
import io
import re


def run():
    out = {"printed": []}

    @contextlib.contextmanager
    def residuals():
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            yield
        out["printed"].append(re.sub(r"[^ ]*/([\w.]+\.py:)", r"\1", buffer.getvalue()))

    _cells(out, residuals)
    return out


def _cells(out, residuals):
    import functools

    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import lax
    from jax.ad_checkpoint import checkpoint_name, print_saved_residuals

    policies = jax.checkpoint_policies

    def stage(m, v):
        return jnp.tanh(jnp.dot(m, v))

    def net(m1, m2, m3, v):
        return stage(m3, stage(m2, stage(m1, v)))

    def net_each(m1, m2, m3, v):
        for m in (m1, m2, m3):
            v = jax.checkpoint(stage)(m, v)
        return v

    def net_named(m1, m2, m3, v):
        for name, m in zip(("first", "second", "third"), (m1, m2, m3)):
            v = checkpoint_name(stage(m, v), name=name)
        return v

    args = (
        jnp.linspace(-0.5, 0.5, 12).reshape(4, 3),
        jnp.linspace(0.3, -0.3, 8).reshape(2, 4),
        jnp.linspace(-0.2, 0.4, 10).reshape(5, 2),
        jnp.array([1.0, -2.0, 0.5]),
    )
    variants = [
        net,
        net_each,
        jax.checkpoint(net, policy=policies.dots_with_no_batch_dims_saveable),
        jax.checkpoint(net_named, policy=policies.save_only_these_names("second")),
        jax.checkpoint(net_named, policy=policies.save_any_names_but_these("second")),
        jax.remat(net, policy=policies.nothing_saveable),
    ]
    grads = []
    for fn in variants:
        with residuals():
            print_saved_residuals(fn, *args)
        grads.append(jax.grad(lambda *a, fn=fn: jnp.sum(fn(*a) ** 2), argnums=(0, 1, 2, 3))(*args))
    out["grads"] = grads

    first, second = jnp.tanh, jnp.cos

    def keep_vjp(x):
        y, first_pull = jax.vjp(first, x)
        z, second_pull = jax.vjp(second, y)
        return z, lambda g: first_pull(second_pull(g)[0])[0]

    def recompute_vjp(x):
        y = first(x)
        z, second_pull = jax.vjp(second, y)

        def backward(g):
            (y_bar,) = second_pull(g)
            _, first_pull = jax.vjp(first, x)
            return first_pull(y_bar)[0]

        return z, backward

    composed = jax.grad(lambda x: second(jax.checkpoint(first)(x)))
    _, pull = jax.vjp(lambda a, b: jnp.sin(a) * b, jnp.array([0.5, 1.0]), jnp.array([2.0, 3.0]))
    leaves, treedef = jax.tree_util.tree_flatten(pull)
    rebuilt = jax.tree_util.tree_unflatten(treedef, leaves)
    out["manual"] = [
        keep_vjp(0.7)[1](1.0),
        recompute_vjp(0.7)[1](1.0),
        composed(0.7),
        rebuilt(jnp.array([1.0, -1.0])),
    ]

    dot_offload = policies.offload_dot_with_no_batch_dims("device", "pinned_host")

    @functools.partial(jax.checkpoint, policy=dot_offload)
    def square_chain(a):
        for _ in range(2):
            a = jnp.tanh(jnp.einsum("ij,jk->ik", a, a, precision=lax.Precision.HIGHEST))
        return jnp.sum(a)

    named_offload = policies.save_and_offload_only_these_names(
        names_which_can_be_saved=["kept"],
        names_which_can_be_offloaded=["moved"],
        offload_src="device",
        offload_dst="pinned_host",
    )
    rows = np.linspace(0.0, 1.0, 12, dtype=np.float32).reshape(4, 3)

    @functools.partial(jax.checkpoint, policy=named_offload)
    def scanned(a):
        def body(carry, row):
            kept = checkpoint_name(jnp.tanh(carry * row), "kept")
            moved = checkpoint_name(kept * kept + row, "moved")
            dropped = checkpoint_name(jnp.tanh(moved) - carry, "dropped")
            return dropped, jnp.sum(dropped)

        last, sums = lax.scan(body, a, rows)
        return jnp.sum(last) + jnp.sum(sums)

    mat = jnp.arange(9.0).reshape(3, 3) / 9.0
    vec = jnp.array([0.2, -0.4, 0.6])
    out["offload"] = [
        jax.grad(square_chain)(mat),
        jax.jit(jax.grad(square_chain))(mat),
        jax.grad(scanned)(vec),
        jax.jit(jax.grad(scanned))(vec),
    ]

    def chain(fns):
        def run_all(x):
            for fn in fns:
                x = fn(x)
            return x

        return run_all

    def halving(fns):
        if len(fns) <= 2:
            return chain(fns)
        head, tail = halving(fns[: len(fns) // 2]), halving(fns[len(fns) // 2 :])
        return lambda x: tail(jax.checkpoint(head)(x))

    coss = [jnp.cos] * 16
    for fn in (chain(coss), halving(coss)):
        with residuals():
            print_saved_residuals(fn, 0.4)
    out["chains"] = [jax.grad(chain(coss))(0.4), jax.grad(halving(coss))(0.4)]

    weights = jnp.stack([jnp.eye(3) * 0.5 + 0.1, jnp.eye(3)[::-1] - 0.2, jnp.full((3, 3), 0.3)])
    biases = jnp.stack([jnp.full(3, 0.1), jnp.zeros(3), jnp.full(3, -0.2)])
    start = jnp.array([1.0, 2.0, -1.0])

    def layer(v, wb):
        wm, bv = wb
        return jax.nn.relu(jnp.dot(v, wm) + bv), None

    saving_layer = functools.partial(
        jax.checkpoint, policy=policies.dots_with_no_batch_dims_saveable
    )(layer)

    for body in (layer, saving_layer):

        def loss(ws, bs, v, body=body):
            return jnp.sum(lax.scan(body, v, (ws, bs))[0] ** 2)

        with residuals():
            print_saved_residuals(loss, weights, biases, start)
        out[f"scan_{body is layer}"] = [
            lax.scan(body, start, (weights, biases))[0],
            jax.grad(loss, argnums=(0, 1))(weights, biases, start),
        ]
