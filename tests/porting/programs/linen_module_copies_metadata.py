"""Linen module objects and boxed metadata off the beaten path (our own program): `clone` with
field updates, `clone(parent=None)` of a submodule taken out of a bound model and initialised
alone, `copy(name=, scale=)` inside a compact method, a module held by a dataclass field and reused under two parents, a
bound model's submodule run eagerly and `unbind` of it; `nn.jit` decorating a compact method
(a counter in a mutable collection, called twice); `is_initializing`,
`is_mutable_collection`, `has_variable`, `put_variable`; `nn.Partitioned` and
`nn.LogicallyPartitioned` boxes built by hand (`add_axis`/`remove_axis`, `get_partition_spec`,
`unbox`, `replace_boxed`), `nn.add_metadata_axis` on a layer stacked by `nn.vmap` (the names
gaining the stacked axis), `logical_to_mesh_axes` with rules given and from
`nn.logical_axis_rules`, `get_logical_axis_rules`; no devices are needed."""

import jax
import jax.numpy as jnp
from flax import linen as nn


class Block(nn.Module):
    width: int
    scale: float = 1.0

    @nn.compact
    def __call__(self, x):
        return self.scale * nn.tanh(nn.Dense(self.width)(x))


class Pipeline(nn.Module):
    block: nn.Module

    @nn.compact
    def __call__(self, x):
        first = self.block.copy(name="first")
        second = self.block.copy(scale=2.0, name="second")
        return second(first(x))


class Model(nn.Module):
    def setup(self):
        self.encoder = Block(4)
        self.head = nn.Dense(2)

    def __call__(self, x):
        return self.head(self.encoder(x))


class Counted(nn.Module):
    @nn.jit
    @nn.compact
    def __call__(self, x):
        calls = self.variable("counters", "calls", lambda: jnp.zeros((), jnp.int32))
        initializing = self.is_initializing()
        if not initializing:
            calls.value += 1
        y = nn.Dense(3)(x)
        if self.is_mutable_collection("intermediates"):
            self.sow("intermediates", "y", y)
        return y


class Stash(nn.Module):
    @nn.compact
    def __call__(self, x):
        had = self.has_variable("cache", "last")
        self.put_variable("cache", "last", x.sum())
        return x * 2, had


class Tagged(nn.Module):
    @nn.compact
    def __call__(self, x):
        w = self.param("w", nn.with_logical_partitioning(nn.initializers.ones_init(),
                                                         ("embed", "mlp")), (x.shape[-1], 3))  # fmt: skip
        b = self.param("b", nn.with_partitioning(nn.initializers.zeros_init(), ("model",)), (3,))
        return x @ w + b


def run():
    out = {}
    key = jax.random.key(2)
    x = jax.random.normal(key, (2, 3))

    # clone, copy, reuse
    b = Block(5)
    wide = b.clone(width=7)
    out["clone_fields"] = [b.width, wide.width, wide.scale, wide.parent is None]
    pv = Pipeline(Block(3)).init(key, x)
    out["pipeline_shapes"] = jax.tree.map(jnp.shape, pv)
    out["pipeline"] = Pipeline(Block(3)).apply(pv, x)

    model = Model()
    mv = model.init(key, x)
    bound = model.bind(mv)
    out["bound_encoder"] = bound.encoder(x)
    enc, enc_vars = bound.encoder.unbind()
    out["unbound"] = [type(enc).__name__, enc.parent is None,
                      jax.tree.map(jnp.shape, enc_vars)]  # fmt: skip
    alone = bound.encoder.clone(parent=None)
    av = alone.init(jax.random.key(9), x)
    out["detached"] = [alone.parent is None, alone.apply(av, x), alone.apply(enc_vars, x)]

    # nn.jit on a compact method, counters and sown values
    cv = Counted().init(key, x)
    out["counted_init"] = cv["counters"]["calls"]
    y, upd = Counted().apply(cv, x, mutable=["counters"])
    y2, upd2 = Counted().apply({**cv, **upd}, x + 1, mutable=["counters", "intermediates"])
    out["counted"] = [y, upd["counters"]["calls"], upd2["counters"]["calls"],
                      upd2["intermediates"]["y"][0], sorted(upd2)]  # fmt: skip

    (s1, had1), sv = Stash().init_with_output(key, x)
    (s2, had2), sv2 = Stash().apply(sv, x + 1, mutable=["cache"])
    out["stash"] = [had1, had2, sv["cache"]["last"], sv2["cache"]["last"]]

    # boxes by hand
    p = nn.Partitioned(jnp.arange(6.0).reshape(2, 3), names=("data", None))
    stacked = p.add_axis(0, {nn.PARTITION_NAME: "layers"})
    out["partitioned"] = [list(p.names), list(stacked.names), str(p.get_partition_spec()),
                          list(stacked.remove_axis(0, {nn.PARTITION_NAME: "layers"}).names),
                          p.unbox(), p.replace_boxed(p.value * 2).value]  # fmt: skip
    rules = (("embed", None), ("mlp", "model"), ("batch", "data"))
    lp = nn.LogicallyPartitioned(jnp.ones((4, 2)), ("embed", "mlp"), rules=rules)
    out["logical"] = [str(lp.get_partition_spec()), list(lp.names), lp.unbox().shape]
    out["to_mesh"] = [str(nn.logical_to_mesh_axes(("batch", "embed", "mlp"), rules)),
                      str(nn.logical_to_mesh_axes(("mlp", "unknown"), rules))]  # fmt: skip
    with nn.logical_axis_rules(rules):
        out["rules_in_context"] = [str(nn.logical_to_mesh_axes(("batch", "mlp"))),
                                   [list(r) for r in nn.get_logical_axis_rules()]]  # fmt: skip
    out["rules_outside"] = list(nn.get_logical_axis_rules())

    tv = Tagged().init(key, x)
    out["tagged"] = [type(tv["params"]["w"]).__name__, type(tv["params"]["b"]).__name__,
                     jax.tree.map(str, nn.get_partition_spec(tv))]  # fmt: skip

    # a vmapped stack of layers, the stacked axis named
    Stacked = nn.vmap(Tagged, variable_axes={"params": 0}, split_rngs={"params": True},
                      in_axes=0, axis_size=2,
                      metadata_params={nn.PARTITION_NAME: "layers"})  # fmt: skip
    xs = jnp.stack([x, -x])
    stv = Stacked().init(key, xs)
    out["stacked"] = [list(stv["params"]["w"].names), list(stv["params"]["b"].names),
                      jax.tree.map(jnp.shape, nn.meta.unbox(stv)),
                      Stacked().apply(stv, xs)]  # fmt: skip
    Added = nn.add_metadata_axis(Tagged, variable_axes={"params": 0},
                                 metadata_params={nn.PARTITION_NAME: "copies"})  # fmt: skip
    mv = Added().init(key, x)
    out["add_metadata_axis"] = [list(mv["params"]["w"].names), list(mv["params"]["b"].names),
                                jax.tree.map(jnp.shape, nn.meta.unbox(mv))]  # fmt: skip
    return out
