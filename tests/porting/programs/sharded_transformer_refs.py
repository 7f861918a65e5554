"""A small transformer language model with bfloat16 parameters trained on an Explicit 8-device
'fsdp' mesh, its parameters and optimizer state held in `jax.Ref`s and updated inside a jitted
step.

Checks: a frozen dataclass config registered with `jax.tree_util.register_static` (passed to
`jit` as an argument) holding `jax.P` specs, the mesh set by `jax.sharding.set_mesh` as a
global setter; a dict pytree with keys (`register_pytree_with_keys_class`); `he_normal`,
`truncated_normal` and `constant` initializers given a dtype and an `out_sharding` (the types
seen while tracing), `random.fold_in` keys; `.at[ids].get(out_sharding=)`,
`einsum(out_sharding=)`, causal `jax.nn.dot_product_attention`, `jax.nn.gelu`, `lax.rsqrt`
of a norm, `one_hot`/`log_softmax`; Adam written on refs (`jax.ref.new_ref`, `jax.ref.get`,
`ref[...]` reads, writes and `-=`), the refs mutated by a `jit` that returns only metrics;
batches made with `jax.make_array_from_process_local_data` and a `PartitionSpec`, their values,
types and shardings; losses per step and their types; the state's values, dtypes and weak
types, its tree structure and key paths; the mesh inside and after. The model computes in
float32 from its bfloat16 parameters (the gradients rounded to bfloat16 once, by the casts'
transposes): chains of bfloat16 operations round once per XLA fusion on JAX, once per operation
on numbax, a bfloat16 ulp apart in a few elements. Left out: the shardings of a `jit` call's
results (JAX places them on the mesh `set_mesh` set; numbax by its inputs' shardings only).
"""

import dataclasses
import itertools

import numpy as np

from tests.porting import printed


def run():
    import jax

    with jax.set_mesh(jax.sharding.get_mesh()):
        out = printed.notebook(_cells)
        out["mesh"] = [str(jax.sharding.get_abstract_mesh().axis_names),
                       str(jax.sharding.get_abstract_mesh().axis_types)]  # fmt: skip
    out["mesh_after"] = str(jax.sharding.get_abstract_mesh().axis_names)
    return out


def _cells(out, errors, mark):
    import jax
    import jax.numpy as jnp

    P = jax.P

    @jax.tree_util.register_static
    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Settings:
        vocab: int = 48
        width: int = 16
        heads: int = 2
        head_dim: int = 8
        hidden: int = 32
        length: int = 12
        batch: int = 8
        lr: float = 3e-3
        b1: float = 0.9
        b2: float = 0.99
        eps: float = 1e-8
        dtype: object = jnp.bfloat16
        table: P = P("fsdp", None)
        qkv: P = P(None, "fsdp", None, None)
        proj: P = P(None, None, "fsdp")
        up: P = P(None, "fsdp")
        down: P = P("fsdp", None)
        tokens: P = P("fsdp", None, None)
        scores: P = P("fsdp", None, None, None)

        def place(self):
            mesh = jax.make_mesh((8,), ("fsdp",), (jax.sharding.AxisType.Explicit,))
            jax.sharding.set_mesh(mesh)
            return mesh

    @jax.tree_util.register_pytree_with_keys_class
    class Bag(dict):
        __getattr__ = dict.__getitem__

        def tree_flatten_with_keys(self):
            names = tuple(sorted(self))
            return tuple((jax.tree_util.GetAttrKey(k), self[k]) for k in names), names

        @classmethod
        def tree_unflatten(cls, names, leaves):
            return cls(zip(names, leaves))

    def init_params(cfg):
        keys = map(lambda i: jax.random.fold_in(jax.random.key(21), i), itertools.count())
        he = jax.nn.initializers.he_normal(in_axis=1, out_axis=-1)
        small = jax.nn.initializers.truncated_normal(0.02)
        zero = jax.nn.initializers.constant(0.0)
        dt = cfg.dtype
        params = Bag(
            table=small(next(keys), (cfg.vocab, cfg.width), dt, cfg.table),
            where=zero(next(keys), (cfg.length, cfg.width), dt, P()),
            qkv=he(next(keys), (3, cfg.width, cfg.heads, cfg.head_dim), dt, cfg.qkv),
            proj=he(next(keys), (cfg.heads, cfg.head_dim, cfg.width), dt, cfg.proj),
            up=he(next(keys), (cfg.width, cfg.hidden), dt, cfg.up),
            down=he(next(keys), (cfg.hidden, cfg.width), dt, cfg.down),
        )
        print("init types:", *(f"{k}={jax.typeof(v)}" for k, v in sorted(params.items())))
        return params

    def normalize(h):
        return h * jax.lax.rsqrt(jnp.linalg.norm(h, axis=-1, keepdims=True) + 1e-6)

    def logits_of(cfg, params, ids):
        # bfloat16 storage, float32 arithmetic (XLA rounds bfloat16 chains once per fusion)
        params = jax.tree.map(lambda p: p.astype(jnp.float32), params)
        h = params.table.at[ids].get(out_sharding=cfg.tokens) + params.where
        qkv = jnp.einsum("bsd,tdnh->tbsnh", h, params.qkv, out_sharding=P(None, "fsdp"))
        att = jax.nn.dot_product_attention(qkv[0], qkv[1], qkv[2], is_causal=True)
        h = normalize(h + jnp.einsum("bsnh,nhd->bsd", att, params.proj, out_sharding=cfg.tokens))
        up = jax.nn.gelu(jnp.einsum("bsd,dk->bsk", h, params.up, out_sharding=cfg.tokens))
        h = normalize(h + jnp.einsum("bsk,kd->bsd", up, params.down, out_sharding=cfg.tokens))
        return jnp.einsum("bsd,vd->bsv", h, params.table, out_sharding=cfg.tokens)

    @jax.jit
    def init_state(cfg):
        params = init_params(cfg)
        moments = jax.tree.map(lambda p: Bag(m=jnp.zeros_like(p), v=jnp.zeros_like(p),
                                             t=jnp.array(0)), params)  # fmt: skip
        return Bag(params=params, moments=moments)

    def adam(cfg, param, grad, mom):
        mom.t[...] += 1
        mom.m[...] = cfg.b1 * mom.m[...] + (1 - cfg.b1) * grad
        mom.v[...] = cfg.b2 * mom.v[...] + (1 - cfg.b2) * grad * grad
        m_hat = mom.m[...] / (1 - cfg.b1 ** mom.t[...])
        v_hat = mom.v[...] / (1 - cfg.b2 ** mom.t[...])
        param[...] -= (cfg.lr * m_hat / (jnp.sqrt(v_hat) + cfg.eps)).astype(param.dtype)

    @jax.jit
    def train_step(cfg, state, batch):
        def loss(params):
            logp = jax.nn.log_softmax(logits_of(cfg, params, batch["inputs"]))
            return -(jax.nn.one_hot(batch["targets"], cfg.vocab) * logp).sum(-1).mean()

        value, grads = jax.value_and_grad(loss)(jax.tree.map(jax.ref.get, state.params))
        jax.tree.map(lambda p, g, m: adam(cfg, p, g, m), state.params, grads, state.moments)
        return {
            "loss": value,
            "grad_norm": jnp.sqrt(
                sum(jnp.sum(jnp.square(g.astype(jnp.float32))) for g in jax.tree.leaves(grads))
            ),
        }

    def batches(cfg):
        text = np.frombuffer(b"the quick brown fox jumps over the lazy dog; pack my box", np.uint8)
        ids = (text.astype(np.int32) - 32) % cfg.vocab
        for step in itertools.count():
            rows = np.stack([np.roll(ids, -(3 * r + step)) for r in range(cfg.batch)])
            batch = {"inputs": rows[:, : cfg.length], "targets": rows[:, 1 : cfg.length + 1]}
            yield {
                k: jax.make_array_from_process_local_data(P("fsdp"), v) for k, v in batch.items()
            }

    cfg = Settings()
    mesh = cfg.place()
    print(mesh, jax.sharding.get_abstract_mesh().axis_types)
    state = jax.tree.map(jax.ref.new_ref, init_state(cfg))
    print(isinstance(state.params.up, jax.Ref))
    stream = batches(cfg)
    first = None
    losses = []
    for step in range(4):
        batch = next(stream)
        first = first or batch
        metrics = train_step(cfg, state, batch)
        print(f"step {step}", *itertools.starmap("{}={}".format, sorted(metrics.items())), sep="\t")
        losses.append([metrics["loss"], str(jax.typeof(metrics["loss"]))])
    mark("train")

    final = jax.tree.map(jax.ref.get, state)
    print(
        jax.tree.structure(final).num_leaves,
        jax.typeof(first["inputs"]),
        first["inputs"].sharding.spec,
    )
    mark("state")
    out["batch"] = [first["inputs"], first["targets"]]
    out["losses"] = losses
    out["state"] = {jax.tree_util.keystr(path): [leaf, str(leaf.dtype), leaf.weak_type]
                    for path, leaf in jax.tree.leaves_with_path(final)}  # fmt: skip
    out["structure"] = str(jax.tree.structure(final)).replace(str(Bag), "Bag")
