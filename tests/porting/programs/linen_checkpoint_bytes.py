"""In-memory checkpoints of a whole training state, as orbax-free code writes them with
`flax.serialization`: our own small model trained a few steps, saved to bytes and restored
into a fresh template, then training resumes identically.

- `serialization.to_bytes`/`from_bytes` of a `TrainState` whose optimizer is an `optax.chain`
  of `clip_by_global_norm`, `inject_hyperparams(adamw)` and a `masked` weight decay (named
  tuples, `MaskedState`, `InjectHyperparamsState`), `to_state_dict` keys of those states;
- `msgpack_serialize`/`msgpack_restore` of bfloat16, complex64, int8, bool, a 0-d array, `None`,
  strings and nested lists (a tuple is msgpack's `TypeError`); `to_state_dict` of lists and tuples (string keys);
- a class of our own made serialisable by `register_serialization_state`, and a
  `struct.PyTreeNode` with a static field, `.replace`, `to_state_dict`;
- the errors of restoring into a template of another structure and of a frozen struct field.
"""

import dataclasses
import re
from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import serialization, struct
from flax.training import train_state


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(8)(x)
        x = nn.LayerNorm()(x)
        return nn.Dense(2)(nn.gelu(x))


def make_state(seed):
    model = Net()
    params = model.init(jax.random.key(seed), jnp.ones((1, 3)))["params"]
    decay_mask = jax.tree.map(lambda p: p.ndim > 1, params)
    tx = optax.chain(
        optax.clip_by_global_norm(1.0),
        optax.inject_hyperparams(optax.adam)(learning_rate=0.05),
        optax.masked(optax.add_decayed_weights(1e-2), decay_mask),
        optax.scale(-1.0),
    )
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)


@jax.jit
def step(state, x, y):
    def loss(p):
        return jnp.mean((state.apply_fn({"params": p}, x) - y) ** 2)

    value, grads = jax.value_and_grad(loss)(state.params)
    return state.apply_gradients(grads=grads), value


def checkpoint(out):
    x = jnp.linspace(-1.0, 1.0, 18).reshape(6, 3)
    y = jnp.stack([jnp.sin(x.sum(1)), jnp.cos(x[:, 0])], 1)
    state = make_state(0)
    for _ in range(3):
        state, _ = step(state, x, y)
    data = serialization.to_bytes(state)
    out["bytes_is_bytes"] = isinstance(data, bytes)
    sd = serialization.to_state_dict(state)
    out["state_keys"] = sorted(sd)
    out["opt_state_keys"] = sorted(sd["opt_state"])
    out["inject_keys"] = sorted(sd["opt_state"]["1"])
    out["hyperparams"] = sd["opt_state"]["1"]["hyperparams"]
    restored = serialization.from_bytes(make_state(1), data)
    out["step"] = int(restored.step)
    same = jax.tree.map(lambda a, b: bool(jnp.array_equal(a, b)), restored.params, state.params)
    out["params_restored"] = all(jax.tree.leaves(same))
    cont_a, cont_b = state, restored
    losses = []
    for _ in range(2):
        cont_a, la = step(cont_a, x, y)
        cont_b, lb = step(cont_b, x, y)
        losses.append([la, lb])
    out["resumed_losses"] = losses
    out["mu_after"] = cont_b.opt_state[1].inner_state[0].mu["Dense_1"]["kernel"]
    try:
        serialization.from_state_dict(make_state(1).params, {"Dense_0": sd["params"]["Dense_0"]})
        out["mismatch"] = "no error"
    except ValueError as e:  # the missing keys print as a Python set (hash order)
        out["mismatch"] = re.sub(r"\{[^}]*\}", "{...}", str(e).splitlines()[0])


def msgpack(out):
    tree = {
        "bf16": jnp.arange(3, dtype=jnp.bfloat16) / 3,
        "c64": jnp.array([1 + 2j, -0.5j], jnp.complex64),
        "i8": np.array([-3, 4], np.int8),
        "flag": jnp.array([True, False]),
        "scalar": jnp.float32(2.5),
        "none": None,
        "name": "model-7",
        "nested": [1, [2.5, {"k": np.arange(4)}]],
    }
    try:
        serialization.msgpack_serialize({"pair": (1, 2)})
        out["tuple_error"] = "no error"
    except TypeError as e:
        out["tuple_error"] = str(e).splitlines()[0]
    restored = serialization.msgpack_restore(serialization.msgpack_serialize(tree))
    out["msgpack_types"] = {k: type(v).__name__ for k, v in sorted(restored.items())}
    out["msgpack_dtypes"] = {k: str(v.dtype) for k, v in restored.items() if hasattr(v, "dtype")}
    out["msgpack_c64"] = [np.real(restored["c64"]), np.imag(restored["c64"])]
    out["msgpack_nested"] = [type(restored["nested"]).__name__, restored["nested"][1][1]["k"]]
    out["list_state_dict"] = sorted(serialization.to_state_dict([jnp.ones(2), (3, 4)]))
    back = serialization.from_state_dict([0, (0, 0)], {"0": 7, "1": {"0": 8, "1": 9}})
    out["list_restore"] = [back[0], list(back[1]), type(back[1]).__name__]


@dataclasses.dataclass
class RunningMean:
    total: Any
    count: int


serialization.register_serialization_state(
    RunningMean,
    lambda m: {"total": m.total, "count": m.count},
    lambda m, d: RunningMean(serialization.from_state_dict(m.total, d["total"]), int(d["count"])),
)


class Scaler(struct.PyTreeNode):
    scale: jax.Array
    name: str = struct.field(pytree_node=False, default="scaler")


def custom(out):
    m = RunningMean(jnp.array([1.0, 2.0]), 4)
    data = serialization.to_bytes(m)
    back = serialization.from_bytes(RunningMean(jnp.zeros(2), 0), data)
    out["custom"] = [back.total, back.count]
    s = Scaler(jnp.array(2.0))
    out["pytreenode_leaves"] = len(jax.tree.leaves(s))
    s2 = s.replace(scale=jnp.array(3.0))
    out["pytreenode_replace"] = [s2.scale, s2.name]
    out["pytreenode_state_dict"] = sorted(serialization.to_state_dict(s))
    out["pytreenode_jit"] = jax.jit(lambda t: t.scale * 2)(s)
    try:
        s.scale = jnp.array(1.0)
        out["frozen"] = "no error"
    except dataclasses.FrozenInstanceError as e:
        out["frozen"] = str(e).splitlines()[0]


def run():
    out = {}
    checkpoint(out)
    msgpack(out)
    custom(out)
    return out
