"""Variables that are not parameters, and training loops around them: a running-mean layer
(`has_variable` to skip the update at `init`, `mutable=['batch_stats']`, `flax.core.pop` and
`freeze` to reassemble), an `int32` counter guarded by `is_initializing()`, a jitted step
taking the optimizer and `apply` as static arguments with `mutable=list(state)`, `BatchNorm`
across examples under `jax.vmap(axis_name=..., out_axes=(0, None))`, `BatchNorm(momentum=)`
with `use_running_average` at call time and `grad(has_aux=True)`; a `TrainState` subclass
carrying `batch_stats` (jitted train and eval steps, `replace`), one carrying a dropout key
folded with the step (`fold_in`), a learning-rate schedule (linear warmup joined to cosine
decay) given to `jit` as a static argument and read back per step, and `sgd` with momentum
on that schedule over shuffled epochs (`random.permutation`); evaluation with
`mutable=False`."""

import functools
from typing import Any

import numpy as np

import jax
import jax.numpy as jnp
import flax
import optax
from flax import linen as nn
from flax.training import train_state


class RunningMean(nn.Module):
    decay: float = 0.8

    @nn.compact
    def __call__(self, x):
        ready = self.has_variable("batch_stats", "avg")
        avg = self.variable("batch_stats", "avg", jnp.zeros, x.shape[1:])
        shift = self.param("shift", nn.initializers.zeros_init(), x.shape[1:])
        if ready:
            avg.value = self.decay * avg.value + (1 - self.decay) * x.mean(axis=0)
        return x - avg.value + shift


class Ticker(nn.Module):
    @nn.compact
    def __call__(self, x):
        n = self.variable("counter", "n", lambda: jnp.zeros((), jnp.int32))
        scale = self.param("scale", nn.initializers.ones_init(), (1,), x.dtype)
        if not self.is_initializing():
            n.value += 1
        return x * scale + n.value


class NormNet(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = False):
        x = nn.Dense(6)(x)
        x = nn.BatchNorm(use_running_average=not train, momentum=0.7, axis_name="examples")(x)
        return nn.Dense(1)(nn.relu(x))


class CallTimeNorm(nn.Module):
    @nn.compact
    def __call__(self, x, training: bool):
        x = nn.Dense(5, use_bias=False)(x)
        x = nn.BatchNorm(momentum=0.95)(x, use_running_average=not training)
        return nn.Dense(3)(nn.relu(x))


def state_layers(out):
    x = jnp.arange(12.0).reshape(4, 3)
    model = RunningMean()
    v = model.init(jax.random.key(0), x)
    history = []
    for scale in (1.0, -2.0, 0.5):
        y, upd = model.apply(v, scale * x, mutable=["batch_stats"])
        _, params = flax.core.pop(v, "params")
        v = flax.core.freeze({"params": params, **upd})
        history.append(upd["batch_stats"]["avg"])
    out["running mean"] = [history, y, type(v).__name__]

    tv = Ticker().init(jax.random.key(0), x)
    seen = []
    for _ in range(3):
        y, upd = Ticker().apply(tv, x, mutable=["counter"])
        tv = {"params": tv["params"], **upd}
        seen.append(upd["counter"]["n"])
    out["ticker"] = [Ticker().init(jax.random.key(0), x)["counter"], seen, y]

    @functools.partial(jax.jit, static_argnums=(0, 1))
    def step(tx, apply_fn, x, opt_state, params, state):
        def loss(p):
            y, new = apply_fn({"params": p, **state}, x, mutable=list(state))
            return jnp.sum((y - 1.0) ** 2), new

        (l, state), g = jax.value_and_grad(loss, has_aux=True)(params)
        upd, opt_state = tx.update(g, opt_state)
        return opt_state, optax.apply_updates(params, upd), state, l

    state, params = flax.core.pop(model.init(jax.random.key(0), x), "params")
    tx = optax.sgd(0.05)
    opt_state = tx.init(params)
    losses = []
    for _ in range(3):
        opt_state, params, state, l = step(tx, model.apply, x, opt_state, params, state)
        losses.append(l)
    out["static step"] = [losses, params, state]


def vmapped_norm(out):
    kx, ky = jax.random.split(jax.random.key(1))
    xs = jax.random.normal(kx, (8, 4))
    ys = jax.random.normal(ky, (8, 1))
    model = NormNet()
    state, params = flax.core.pop(model.init(jax.random.key(2), xs[0]), "params")
    tx = optax.sgd(0.1)
    opt_state = tx.init(params)

    @jax.jit
    def step(params, state, opt_state):
        def loss(p):
            def one(x, y):
                pred, new = model.apply({"params": p, **state}, x, train=True, mutable=list(state))
                return jnp.sum((pred - y) ** 2), new

            l, new = jax.vmap(one, out_axes=(0, None), axis_name="examples")(xs, ys)
            return l.mean(), new

        (l, new), g = jax.value_and_grad(loss, has_aux=True)(params)
        upd, opt_state = tx.update(g, opt_state)
        return optax.apply_updates(params, upd), new, opt_state, l

    losses = []
    for _ in range(3):
        params, state, opt_state, l = step(params, state, opt_state)
        losses.append(l)
    out["vmapped norm"] = dict(
        losses=losses,
        state=flax.core.unfreeze(state),
        eval=model.apply({"params": params, **state}, xs[0]),
    )

    net = CallTimeNorm()
    v = net.init(jax.random.key(3), xs, training=False)
    labels = jnp.array([0, 1, 2, 0, 1, 2, 0, 1])

    def grads_and_stats(params, stats):
        def loss(p):
            logits, upd = net.apply(
                {"params": p, "batch_stats": stats}, xs, training=True, mutable="batch_stats"
            )
            l = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
            return l, upd["batch_stats"]

        return jax.grad(loss, has_aux=True)(params)

    g, stats = grads_and_stats(v["params"], v["batch_stats"])
    out["call-time norm"] = dict(
        grads=g,
        stats=stats,
        eval=net.apply(
            {"params": v["params"], "batch_stats": stats}, xs, training=False, mutable=False
        ),
    )


class StatsState(train_state.TrainState):
    batch_stats: Any


class KeyState(train_state.TrainState):
    key: jax.Array


class Clf(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool):
        x = nn.Dense(8, use_bias=False)(x)  # a bias before BatchNorm gets round-off gradients
        x = nn.BatchNorm(use_running_average=not train)(x)
        x = nn.Dropout(0.25, deterministic=True)(nn.relu(x))
        return nn.Dense(3)(x)


class DropClf(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool):
        x = nn.Dropout(0.3, deterministic=not train)(nn.relu(nn.Dense(8)(x)))
        return nn.Dense(3)(x)


def train_states(out):
    rs = np.random.RandomState(7)
    images = rs.normal(size=(12, 5)).astype(np.float32)
    labels = rs.randint(0, 3, size=(12,)).astype(np.int32)
    model = Clf()
    v = model.init(jax.random.key(4), images[:2], train=False)
    state = StatsState.create(
        apply_fn=model.apply, params=v["params"], batch_stats=v["batch_stats"], tx=optax.adam(0.02)
    )

    def metrics(logits, y):
        return {
            "loss": optax.softmax_cross_entropy_with_integer_labels(logits, y).mean(),
            "accuracy": jnp.mean(jnp.argmax(logits, -1) == y),
        }

    @jax.jit
    def train_step(state, x, y):
        def loss(p):
            logits, upd = state.apply_fn(
                {"params": p, "batch_stats": state.batch_stats},
                x,
                train=True,
                mutable=["batch_stats"],
            )
            return metrics(logits, y)["loss"], (logits, upd)

        (_, (logits, upd)), g = jax.value_and_grad(loss, has_aux=True)(state.params)
        state = state.apply_gradients(grads=g).replace(batch_stats=upd["batch_stats"])
        return state, metrics(logits, y)

    @jax.jit
    def eval_step(state, x, y):
        logits = state.apply_fn(
            {"params": state.params, "batch_stats": state.batch_stats}, x, train=False
        )
        return metrics(logits, y)

    seen = []
    for _ in range(3):
        state, m = train_step(state, images, labels)
        seen.append(m)
    out["stats state"] = dict(
        train=seen,
        eval=eval_step(state, images, labels),
        step=state.step,
        batch_stats=state.batch_stats,
    )

    drop = DropClf()
    root, pkey, dkey = jax.random.split(jax.random.key(seed=9), num=3)
    dv = drop.init(pkey, images[:1], train=False)
    kstate = KeyState.create(apply_fn=drop.apply, params=dv["params"], key=dkey, tx=optax.sgd(0.1))

    @jax.jit
    def drop_step(state, x, y):
        step_key = jax.random.fold_in(key=state.key, data=state.step)

        def loss(p):
            logits = state.apply_fn({"params": p}, x, train=True, rngs={"dropout": step_key})
            return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()

        l, g = jax.value_and_grad(loss)(state.params)
        return state.apply_gradients(grads=g), l

    losses = []
    for _ in range(3):
        kstate, l = drop_step(kstate, images, labels)
        losses.append(l)
    out["key state"] = dict(
        losses=losses,
        params=kstate.params,
        step=kstate.step,
        sample=drop.apply(
            {"params": kstate.params}, images[:2], train=True, rngs={"dropout": root}
        ),
    )


def schedule(out):
    rs = np.random.RandomState(3)
    data = {
        "x": rs.rand(24, 4, 4, 1).astype(np.float32),
        "y": rs.randint(0, 4, size=(24,)).astype(np.int32),
    }
    batch, epochs, warm = 6, 3, 1
    per_epoch = len(data["x"]) // batch
    lr = optax.join_schedules(
        [
            optax.linear_schedule(0.0, 0.05, warm * per_epoch),
            optax.cosine_decay_schedule(0.05, (epochs - warm) * per_epoch),
        ],
        boundaries=[warm * per_epoch],
    )

    class Tiny(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.avg_pool(nn.relu(nn.Conv(4, (3, 3))(x)), (2, 2), strides=(2, 2))
            return nn.Dense(4)(x.reshape((x.shape[0], -1)))

    params = Tiny().init(jax.random.key(5), data["x"][:1])["params"]
    state = train_state.TrainState.create(
        apply_fn=Tiny().apply, params=params, tx=optax.sgd(lr, 0.9)
    )

    @functools.partial(jax.jit, static_argnums=2)
    def step(state, b, schedule_fn):
        def loss(p):
            logits = state.apply_fn({"params": p}, b["x"])
            return optax.softmax_cross_entropy(logits, jax.nn.one_hot(b["y"], 4)).mean()

        l, g = jax.value_and_grad(loss)(state.params)
        return state.apply_gradients(grads=g), {"loss": l, "lr": schedule_fn(state.step)}

    key = jax.random.key(6)
    history = []
    for _ in range(epochs):
        key, sub = jax.random.split(key)
        order = jax.random.permutation(sub, len(data["x"])).reshape(per_epoch, batch)
        ms = []
        for idx in order:
            state, m = step(state, {k: v[idx] for k, v in data.items()}, lr)
            ms.append(m)
        ms = jax.device_get(ms)
        history.append({k: np.mean([m[k] for m in ms]) for k in ms[0]})
    out["schedule"] = dict(
        epochs=history, lr=[lr(i) for i in range(13)], step=state.step, params=state.params
    )


def run():
    out = {}
    state_layers(out)
    vmapped_norm(out)
    train_states(out)
    schedule(out)
    return out
