"""`flax.training.train_state.TrainState` extended the ways users extend it (our own program):
extra fields, an overridden `apply_gradients`, an EMA and a loss-scale field, and the state
through `flax.serialization` and `jax.tree_util`.

- a subclass with `batch_stats`, `ema_params`, `ema_decay` (a static `struct.field`) and a
  `key` field, whose `apply_gradients` also updates the EMA (calling `super()`); a second
  subclass built with `create(...)` and extra keyword arguments, `replace` of a static field;
- `jax.jit` of a train step taking and returning the state, donated; the state under
  `jax.tree.map`, its leaves' key paths, `tree.structure` before and after a step, and
  `jax.lax.scan` over steps carrying the state;
- `serialization.to_state_dict`/`from_state_dict`/`to_bytes`/`from_bytes` round trips (the
  state dict's top-level keys, the optimizer state's keys), `msgpack_restore` of the bytes;
  `to_bytes` refusing the typed key (so the key goes as its `key_data`);
- the first lines of the mistakes: `apply_gradients` without `grads=`, gradients of another
  structure, `replace` of an unknown field, `from_bytes` of a state with another optimizer,
  setting an attribute of the frozen dataclass.
"""

import dataclasses
from typing import Any

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax import serialization, struct
from flax.training import train_state


class Net(nn.Module):
    @nn.compact
    def __call__(self, x, train=True):
        x = nn.Dense(5, use_bias=False)(x)
        x = nn.BatchNorm(use_running_average=not train, momentum=0.9)(x)
        x = nn.Dropout(0.25, deterministic=not train)(nn.tanh(x))
        return nn.Dense(2)(x)


class EMAState(train_state.TrainState):
    batch_stats: Any
    ema_params: Any
    key: jax.Array
    ema_decay: float = struct.field(pytree_node=False, default=0.8)

    def apply_gradients(self, *, grads, **kwargs):
        new = super().apply_gradients(grads=grads, **kwargs)
        ema = jax.tree.map(
            lambda e, p: self.ema_decay * e + (1 - self.ema_decay) * p, self.ema_params, new.params
        )
        return new.replace(ema_params=ema)


class ScaledState(train_state.TrainState):
    loss_scale: jax.Array
    history: tuple = ()


def create(seed=0, tx=None):
    model = Net()
    x = jnp.ones((4, 3))
    variables = model.init({"params": jax.random.key(seed)}, x, train=False)
    return EMAState.create(
        apply_fn=model.apply,
        params=variables["params"],
        tx=tx or optax.adamw(0.05, weight_decay=0.01),
        batch_stats=variables["batch_stats"],
        ema_params=jax.tree.map(jnp.copy, variables["params"]),  # not the same buffers (donated)
        key=jax.random.key(seed + 100),
    )


def batches():
    x = jax.random.normal(jax.random.key(1), (5, 8, 3))
    y = jnp.stack([jnp.sin(x[..., 0]), x[..., 1] * x[..., 2]], axis=-1)
    return x, y


def step(state, x, y):
    key, dropout_key = jax.random.split(state.key)

    def loss_fn(params):
        pred, updates = state.apply_fn(
            {"params": params, "batch_stats": state.batch_stats}, x, rngs={"dropout": dropout_key},
            mutable=["batch_stats"],
        )  # fmt: skip
        return jnp.mean((pred - y) ** 2), updates

    (loss, updates), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    state = state.apply_gradients(grads=grads, batch_stats=updates["batch_stats"], key=key)
    return state, loss


def training(out):
    xs, ys = batches()
    state = create()
    before = jax.tree.structure(state)
    jitted = jax.jit(step, donate_argnums=0)
    losses = []
    for x, y in zip(xs, ys):
        state, loss = jitted(state, x, y)
        losses.append(loss)
    out["losses"] = jnp.stack(losses)
    out["step"] = state.step
    out["ema_kernel"] = state.ema_params["Dense_1"]["kernel"]
    out["params_kernel"] = state.params["Dense_1"]["kernel"]
    out["batch_var"] = state.batch_stats["BatchNorm_0"]["var"]
    out["same_structure"] = jax.tree.structure(state) == before
    out["ema_decay_static"] = [
        state.ema_decay,
        "ema_decay" not in serialization.to_state_dict(state),
    ]
    out["leaf_paths"] = [
        jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_flatten_with_path(state)[0]
    ][:6]
    out["num_leaves"] = len(jax.tree.leaves(state))

    scanned, scan_losses = jax.lax.scan(lambda s, b: step(s, *b), create(), (xs, ys))
    out["scan_losses"] = scan_losses
    out["scan_matches_loop"] = bool(jnp.allclose(scan_losses, out["losses"], atol=1e-5))
    out["replaced_decay"] = state.replace(ema_decay=0.5).ema_decay

    scaled = ScaledState.create(
        apply_fn=None, params={"w": jnp.ones(2)}, tx=optax.sgd(0.1), loss_scale=jnp.array(2.0**8)
    )
    scaled = scaled.apply_gradients(grads={"w": jnp.array([1.0, -1.0])}, history=(1, 2))
    out["scaled"] = [scaled.params["w"], scaled.loss_scale, list(scaled.history), scaled.step]
    return state


def round_trips(out, state):
    try:  # msgpack has no encoding of typed keys: their raw data goes in their place
        serialization.to_bytes(state)
        out["typed_key_bytes"] = "no error"
    except TypeError as e:
        out["typed_key_bytes"] = str(e).splitlines()[0]
    state = state.replace(key=jax.random.key_data(state.key))
    template = create(seed=5)
    template = template.replace(key=jax.random.key_data(template.key))
    sd = serialization.to_state_dict(state)
    out["state_dict_keys"] = sorted(sd)
    out["opt_state_keys"] = sorted(sd["opt_state"])
    out["adam_keys"] = sorted(sd["opt_state"]["0"])
    back = serialization.from_state_dict(template, sd)
    out["from_state_dict_kernel"] = back.params["Dense_1"]["kernel"]
    data = serialization.to_bytes(state)
    restored = serialization.from_bytes(template, data)
    out["from_bytes_step"] = restored.step
    out["from_bytes_ema"] = restored.ema_params["Dense_0"]["kernel"]
    out["from_bytes_key"] = restored.key
    raw = serialization.msgpack_restore(data)
    out["raw_keys"] = sorted(raw)
    out["raw_count"] = raw["opt_state"]["0"]["count"]
    return state


def first_lines(out, state):
    grads = jax.tree.map(jnp.zeros_like, state.params)
    calls = {
        "positional_grads": lambda: state.apply_gradients(grads),
        "other_structure": lambda: state.apply_gradients(grads={"Dense_0": grads["Dense_0"]}),
        "unknown_field": lambda: state.replace(momentum=3),
        "other_optimizer": lambda: serialization.from_bytes(
            create(tx=optax.sgd(0.1, momentum=0.9)), serialization.to_bytes(state)
        ),
        "frozen_attribute": lambda: setattr(state, "step", 3),
    }
    lines = {}
    for name, call in calls.items():
        try:
            call()
            lines[name] = "no error"
        except Exception as e:  # noqa: BLE001
            builtin = next(c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins")
            lines[name] = [builtin, str(e).splitlines()[0]]
    out["errors"] = lines
    out["is_dataclass"] = dataclasses.is_dataclass(state)


def run():
    out = {}
    state = training(out)
    state = round_trips(out, state)
    first_lines(out, state)
    return out
