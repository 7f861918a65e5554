"""Checkpoint-style plumbing around a Linen model (our own program): `flax.serialization`'s
`to_state_dict`/`from_state_dict` of parameters, of an Optax state and of a `TrainState`,
`to_bytes`/`from_bytes` and `msgpack_serialize`/`msgpack_restore` round trips (dtypes, scalars,
a tuple becoming a dict of '0', '1'), restoring into a template of another structure (the
error's first line); `flax.struct.dataclass` and `struct.PyTreeNode` with
`field(pytree_node=False)` (leaves, `replace`, under `jit` as static data, frozen fields);
a `TrainState` subclass with a custom field (batch statistics) and a metrics dataclass, trained
by a jitted step; `traverse_util.flatten_dict` with `sep=` and `is_leaf=`, `unflatten_dict`
with `sep=`, `path_aware_map`, `empty_node`."""

import dataclasses
from typing import Any

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax import serialization, struct, traverse_util
from flax.training import train_state


class Net(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = True):
        x = nn.Dense(6, use_bias=False)(x)  # a bias before BatchNorm gets round-off only
        x = nn.BatchNorm(use_running_average=not train, momentum=0.9)(x)
        return nn.Dense(2)(nn.relu(x))


@struct.dataclass
class Metrics:
    loss: jnp.ndarray
    count: jnp.ndarray
    label: str = struct.field(pytree_node=False, default="train")

    def merge(self, loss):
        return self.replace(loss=self.loss + loss, count=self.count + 1)


class Scaler(struct.PyTreeNode):
    scale: jnp.ndarray
    power: int = struct.field(pytree_node=False, default=2)

    def __call__(self, x):
        return self.scale * x**self.power


class State(train_state.TrainState):
    batch_stats: Any
    ema: Any = None


def run():
    out = {}
    key = jax.random.key(5)
    kx, kp = jax.random.split(key)
    x = jax.random.normal(kx, (8, 3))
    y = jnp.sin(x[:, :2])
    net = Net()
    variables = net.init(kp, x)

    # state dicts of parameters and of an optimizer's state
    sd = serialization.to_state_dict(variables)
    out["state_dict_keys"] = sorted(traverse_util.flatten_dict(sd, sep="/"))
    tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-2))
    opt_state = tx.init(variables["params"])
    osd = serialization.to_state_dict(opt_state)
    out["opt_state_dict"] = [sorted(osd), sorted(osd["1"]), sorted(osd["1"]["0"])]
    back = serialization.from_state_dict(opt_state, osd)
    out["opt_state_back"] = [type(back).__name__, type(back[1][0]).__name__,
                             back[1][0].count]  # fmt: skip

    # bytes round trips
    raw = serialization.to_bytes(variables)
    zeros = jax.tree.map(jnp.zeros_like, variables)
    restored = serialization.from_bytes(zeros, raw)
    out["bytes_equal"] = jax.tree.all(jax.tree.map(jnp.array_equal, restored, variables))
    mixed = {"a": jnp.arange(3, dtype=jnp.int32), "b": jnp.float32(2.5),
             "c": (jnp.ones(2, jnp.bfloat16), 7), "d": [1.5, "text"]}  # fmt: skip
    packed = serialization.msgpack_serialize(serialization.to_state_dict(mixed))
    unpacked = serialization.msgpack_restore(packed)
    out["msgpack"] = dict(
        keys=sorted(unpacked), c_keys=sorted(unpacked["c"]), d=unpacked["d"],
        dtypes={k: str(jnp.asarray(v).dtype) for k, v in
                [("a", unpacked["a"]), ("b", unpacked["b"]), ("c0", unpacked["c"]["0"])]},
        a=unpacked["a"], c1=unpacked["c"]["1"],
    )  # fmt: skip
    out["msgpack_template"] = serialization.from_state_dict(mixed, unpacked)["c"][1]

    # restoring into a template of another structure
    wider = Net().init(kp, jnp.ones((1, 5)))
    subset = serialization.from_bytes({"params": {"Dense_0": {}}}, raw)
    out["subset_template"] = jax.tree.map(jnp.shape, subset)
    for name, template in [("renamed", {"params": {"Dense_0": {}, "Dense_7": {}}}),
                           ("list", [1, 2, 3])]:  # fmt: skip
        try:
            serialization.from_bytes(template, raw)
        except ValueError as e:  # numbax's is a subclass, as users catch it
            out[f"bad_{name}"] = str(e).splitlines()[0]
    wrong_shape = serialization.from_bytes(wider, raw)
    out["wrong_shape_kept"] = jax.tree.map(jnp.shape, wrong_shape)

    # struct dataclasses
    m = Metrics(loss=jnp.float32(0.0), count=jnp.int32(0))
    m = m.merge(1.5).merge(0.5)
    out["metrics"] = [m.loss, m.count, m.label, len(jax.tree.leaves(m)),
                      m.replace(label="eval").label]  # fmt: skip
    try:
        m.loss = 3.0
    except dataclasses.FrozenInstanceError as e:
        out["frozen"] = type(e).__name__
    s = Scaler(scale=jnp.float32(0.5), power=3)
    traced = jax.jit(lambda sc, v: sc(v))(s, jnp.arange(3.0))
    grads = jax.grad(lambda sc: jnp.sum(sc(jnp.arange(3.0))))(s)
    out["scaler"] = [traced, grads.scale, grads.power, jax.tree.structure(s).num_leaves,
                     serialization.to_state_dict(s)]  # fmt: skip

    # a TrainState with batch statistics and an EMA of the parameters
    state = State.create(apply_fn=net.apply, params=variables["params"], tx=tx,
                         batch_stats=variables["batch_stats"],
                         ema=jax.tree.map(jnp.copy, variables["params"]))  # fmt: skip

    @jax.jit
    def step(state, metrics):
        def loss_fn(params):
            pred, upd = state.apply_fn({"params": params, "batch_stats": state.batch_stats},
                                       x, mutable=["batch_stats"])  # fmt: skip
            return jnp.mean((pred - y) ** 2), upd

        (loss, upd), g = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
        state = state.apply_gradients(grads=g, batch_stats=upd["batch_stats"])
        ema = optax.incremental_update(state.params, state.ema, 0.1)
        return state.replace(ema=ema), metrics.merge(loss)

    metrics = Metrics(loss=jnp.float32(0.0), count=jnp.int32(0))
    for _ in range(4):
        state, metrics = step(state, metrics)
    out["train"] = dict(step=state.step, loss=metrics.loss / metrics.count,
                        stats=state.batch_stats, ema=state.ema["Dense_1"])  # fmt: skip
    ssd = serialization.to_state_dict(state)
    out["train_state_dict"] = sorted(ssd)
    fresh = State.create(apply_fn=net.apply, params=jax.tree.map(jnp.zeros_like, state.params),
                         tx=tx, batch_stats=jax.tree.map(jnp.zeros_like, state.batch_stats),
                         ema=jax.tree.map(jnp.zeros_like, state.ema))  # fmt: skip
    loaded = serialization.from_bytes(fresh, serialization.to_bytes(state))
    out["train_loaded"] = [loaded.step, loaded.opt_state[1][0].count,
                           net.apply({"params": loaded.params, "batch_stats": loaded.batch_stats},
                                     x, train=False)]  # fmt: skip

    # traverse_util
    tree = {"enc": {"kernel": jnp.ones((2, 3)), "bias": jnp.zeros(3)},
            "head": {"w": {"inner": jnp.ones(1)}}, "empty": {}}  # fmt: skip
    flat = traverse_util.flatten_dict(tree, sep=".")
    out["flat_sep"] = sorted(flat)
    keep = traverse_util.flatten_dict(tree, is_leaf=lambda path, v: path == ("head", "w"))
    out["flat_is_leaf"] = [list(k) for k in sorted(keep)]
    kept = traverse_util.flatten_dict(tree, keep_empty_nodes=True)
    out["empty_node"] = [kept[("empty",)] is traverse_util.empty_node, len(kept)]
    out["unflat_sep"] = jax.tree.map(jnp.shape, traverse_util.unflatten_dict(flat, sep="."))
    out["path_aware"] = traverse_util.path_aware_map(
        lambda path, v: "decay" if path[-1] == "kernel" else "none", tree
    )
    return out
