"""Optax's wrappers and partitioning transformations (our own program).

Checks, on a small dict of parameters pulled towards targets: freezing by
`transforms.freeze(mask)` chained after `adam`, by `transforms.selective_transform` (its mask
swapped halfway, the optimizer rebuilt), by `masked(set_to_zero(), mask)` and by `partition`
(labels as a tree and as a function of the parameters); `MultiSteps` accumulating three
mini-batch gradients against one `sgd` step on the whole batch (a constant and a
piecewise-constant learning rate; `has_updated`, `mini_step`, the state's fields); `lookahead`
of `adam` on `LookaheadParams.init_synced` (gradients of the fast weights, `apply_updates` on
the pair); `contrib.sam` with `contrib.normalize` over momentum SGD (default mode) and `adam`
(`opaque_mode=True`, `grad_fn=`) in jitted steps on a `NamedTuple` store, against plain SGD;
a learning rate of `inject_hyperparams(rmsprop)` meta-learned by `adam` through an unrolled,
jitted inner loop that writes `state.hyperparams`; `contrib.muon` splitting a tree with a 4-D
kernel between Muon and Adam by default and by `MuonDimensionNumbers`, the states' key paths
printed with `pprint`, two jitted steps each. Everything printed is compared line by line.
"""

import functools
import re
from pprint import pprint
from typing import NamedTuple

import jax
import jax.numpy as jnp
import optax
from optax import contrib, transforms

from tests.porting import printed

TARGETS = {
    "enc": {"w": jnp.array([1.0, -2.0, 0.5]), "b": jnp.array(3.0)},
    "head": jnp.array([-1.0, 4.0]),
}


def start():
    return {"enc": {"w": jnp.zeros(3), "b": jnp.array(0.0)}, "head": jnp.full(2, 2.0)}


def distance(params):
    sq = jax.tree.map(lambda p, t: jnp.sum((p - t) ** 2), params, TARGETS)
    return sum(jax.tree.leaves(sq))


def run():
    out = {}
    with printed.Cells(functools.partial(printed.numbered, columns=True)) as cells:
        _freezing(out)
        cells.mark("freezing")
        _multi_steps(out)
        cells.mark("multi_steps")
        _lookahead(out)
        cells.mark("lookahead")
        _sam(out)
        cells.mark("sam")
        _meta_learning(out)
        cells.mark("meta")
        _muon(out)
        cells.mark("muon")
    out["printed"] = cells.printed
    return out


def _descend(tx, params, steps):
    state = tx.init(params)
    for _ in range(steps):
        grads = jax.grad(distance)(params)
        updates, state = tx.update(grads, state, params)
        params = optax.apply_updates(params, updates)
    return params, state


def _freezing(out):
    frozen_head = {"enc": {"w": False, "b": False}, "head": True}
    labels = {"enc": {"w": "fit", "b": "hold"}, "head": "fit"}
    optimizers = {
        "freeze": optax.chain(optax.adam(0.3), transforms.freeze(frozen_head)),
        "selective": transforms.selective_transform(optax.adam(0.3), freeze_mask=frozen_head),
        "masked_zero": optax.chain(optax.adam(0.3), optax.masked(optax.set_to_zero(), frozen_head)),
        "partition_tree": optax.partition(
            {"fit": optax.adam(0.3), "hold": optax.set_to_zero()}, labels
        ),
        "partition_fn": optax.partition(
            {"fit": optax.sgd(0.1), "hold": optax.set_to_zero()},
            lambda p: jax.tree.map(lambda x: "hold" if x.ndim == 0 else "fit", p),
        ),
    }
    results = {}
    for name, tx in optimizers.items():
        params, state = _descend(tx, start(), 12)
        print(f"{name}: distance {distance(params):.4f} head {params['head']}")
        results[name] = params
    # The mask swapped after 6 steps: the encoder freezes and the head trains.
    params = start()
    for phase, mask in enumerate([frozen_head, {"enc": {"w": True, "b": True}, "head": False}]):
        params, _ = _descend(
            transforms.selective_transform(optax.adam(0.3), freeze_mask=mask), params, 6
        )
        print(f"phase {phase}: enc.b {params['enc']['b']:.4f} head {params['head']}")
    results["swapped"] = params
    out["freezing"] = results


def _mlp_loss(params, xs, ys):
    hidden = jnp.tanh(xs @ params["w1"] + params["b1"])
    return jnp.mean((hidden @ params["w2"] - ys) ** 2)


def _multi_steps(out):
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(11), 3)
    params = {
        "w1": 0.5 * jax.random.normal(k1, (4, 5)),
        "b1": jnp.zeros(5),
        "w2": 0.5 * jax.random.normal(k2, (5,)),
    }
    xs = jax.random.uniform(k3, (9, 4), minval=-1.0, maxval=1.0)
    ys = jnp.sin(xs.sum(axis=1))
    results = {}
    for name, lr in (
        ("constant", 0.3),
        ("piecewise", optax.piecewise_constant_schedule(0.3, {1: 0.1})),
    ):
        big = optax.sgd(lr)
        whole = params
        big_state = big.init(whole)
        acc = optax.MultiSteps(optax.sgd(lr), every_k_schedule=3)
        parts = params
        acc_state = acc.init(parts)
        updated = []
        for _ in range(2):
            updates, big_state = big.update(jax.grad(_mlp_loss)(whole, xs, ys), big_state)
            whole = optax.apply_updates(whole, updates)
            for j in range(3):
                g = jax.grad(_mlp_loss)(parts, xs[3 * j : 3 * j + 3], ys[3 * j : 3 * j + 3])
                updates, acc_state = acc.update(g, acc_state, parts)
                parts = optax.apply_updates(parts, updates)
                updated.append(bool(acc.has_updated(acc_state)))
        gap = max(
            float(jnp.max(jnp.abs(a - b)))
            for a, b in zip(jax.tree.leaves(whole), jax.tree.leaves(parts))
        )
        print(f"{name}: accumulated equals whole batch: {gap < 1e-6}, updated {updated}")
        results[name] = dict(
            params=parts, mini_step=acc_state.mini_step, gradient_step=acc_state.gradient_step
        )
    results["fields"] = list(type(acc_state)._fields)
    results["type"] = type(acc_state).__name__
    out["multi_steps"] = results


def _lookahead(out):
    tx = optax.lookahead(optax.adam(0.2), sync_period=3, slow_step_size=0.5)
    pair = optax.LookaheadParams.init_synced(start())
    state = tx.init(pair)
    slow_distances = []
    for _ in range(7):
        grads = jax.grad(distance)(pair.fast)
        updates, state = tx.update(grads, state, pair)
        pair = optax.apply_updates(pair, updates)
        slow_distances.append(distance(pair.slow))
    print(f"lookahead: fast {distance(pair.fast):.4f} slow {distance(pair.slow):.4f}")
    out["lookahead"] = dict(
        fast=pair.fast, slow=pair.slow, slow_distances=slow_distances, state=jax.tree.leaves(state)
    )


def _two_valleys(p):
    """A deep narrow valley at the origin and a wide shallow one at (2, 0)."""
    x, y = p[0], p[1]
    return -jnp.exp(-((x - 2.0) ** 2) / 2.0 - y**2) - 1.5 * jnp.exp(-(x**2) * 20.0 - y**2 * 20.0)


class Store(NamedTuple):
    params: jax.Array
    state: optax.OptState
    step: int = 0


def _sam(out):
    sam_momentum = contrib.sam(
        optax.sgd(0.05, momentum=0.8),
        optax.chain(contrib.normalize(), optax.sgd(0.1)),
        sync_period=2,
    )
    sam_adam = contrib.sam(
        optax.adam(0.05),
        optax.chain(contrib.normalize(), optax.adam(0.1)),
        sync_period=3,
        opaque_mode=True,
    )
    plain = optax.sgd(0.05)

    def stepper(tx):
        @jax.jit
        def step(store):
            value, grads = jax.value_and_grad(_two_valleys)(store.params)
            if isinstance(store.state, contrib.SAMState):
                extra = dict(grad_fn=jax.grad(lambda p, _: _two_valleys(p)))
            else:
                extra = {}
            updates, state = tx.update(grads, store.state, store.params, **extra)
            params = optax.apply_updates(store.params, updates)
            return store._replace(params=params, state=state, step=store.step + 1), value

        return step

    results = {}
    for name, tx in (("sam_momentum", sam_momentum), ("sam_adam_opaque", sam_adam), ("sgd", plain)):
        p0 = jnp.array([0.3, -0.2])
        store, step = Store(p0, tx.init(p0)), stepper(tx)
        values = []
        for _ in range(9):
            store, value = step(store)
            values.append(value)
        print(f"{name}: steps {store.step} value {_two_valleys(store.params):.5f}")
        results[name] = dict(values=values, params=store.params, state=jax.tree.leaves(store.state))
    state = sam_adam.init(jnp.zeros(2))
    results["state_type"] = type(state).__name__
    try:  # the opaque mode evaluates gradients itself: it needs grad_fn
        sam_adam.update(jnp.ones(2), state, jnp.zeros(2))
    except ValueError as e:
        builtin = next(c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins")
        results["missing_grad_fn"] = [builtin, re.match("[^.:]*", str(e)).group()]
    out["sam"] = results


def _meta_learning(out):
    def draws(key):
        while True:
            key, kx, kn = jax.random.split(key, 3)
            x = jax.random.uniform(kx, minval=-2.0, maxval=2.0)
            yield x, 3.0 * x - 1.0 + 0.1 * jax.random.normal(kn)

    def model_loss(w, x, y):
        return optax.l2_loss(w[0] * x + w[1], y)

    inner = optax.inject_hyperparams(optax.rmsprop)(learning_rate=jnp.array(0.05))
    outer = optax.adam(0.1)

    def unrolled(logit, w, state, batch):
        state.hyperparams["learning_rate"] = jax.nn.sigmoid(logit)
        for x, y in batch[:-1]:
            updates, state = inner.update(jax.grad(model_loss)(w, x, y), state)
            w = optax.apply_updates(w, updates)
        return model_loss(w, *batch[-1]), (w, state)

    @jax.jit
    def meta_step(logit, w, state, meta_state, batch):
        g, (w, state) = jax.grad(unrolled, has_aux=True)(logit, w, state, batch)
        updates, meta_state = outer.update(g, meta_state)
        return optax.apply_updates(logit, updates), w, state, meta_state

    stream = draws(jax.random.PRNGKey(5))
    x, y = next(stream)
    print(f"first draw: x={x:.3f} y={y:.3f}")
    w = jnp.zeros(2)
    state = inner.init(w)
    logit = jnp.log(0.05 / 0.95)
    meta_state = outer.init(logit)
    rates = []
    for _ in range(8):
        batch = [next(stream) for _ in range(5)]
        logit, w, state, meta_state = meta_step(logit, w, state, meta_state, batch)
        rates.append(jax.nn.sigmoid(logit))
    print(f"learned rate {rates[-1]:.4f} weights {w}")
    out["meta"] = dict(rates=rates, w=w, state=state, meta_state=jax.tree.leaves(meta_state))


def _muon(out):
    keys = iter(jax.random.split(jax.random.key(2), 8))
    params = {
        "dense": {
            "kernel": jax.random.normal(next(keys), (6, 4)),
            "bias": jax.random.normal(next(keys), (4,)),
        },
        "proj": {"kernel": jax.random.normal(next(keys), (4, 3))},
        "conv": {"kernel": jax.random.normal(next(keys), (2, 2, 3, 5))},
    }

    def loss(p):
        return sum(jnp.sum(jnp.cos(x)) for x in jax.tree.leaves(p))

    def show(state):
        for part in ("muon", "adam"):
            paths = jax.tree.flatten_with_path(state.inner_states[part])[0]
            print(f"{part} holds:")
            pprint(
                sorted(
                    "".join(map(str, k))
                    for k, v in paths
                    if v.ndim > 0 and "ns_coeffs" not in str(k[-1])
                )
            )

    dims = {
        "dense": {"kernel": contrib.MuonDimensionNumbers(), "bias": None},
        "proj": {"kernel": contrib.MuonDimensionNumbers((0,), (1,))},
        "conv": {"kernel": contrib.MuonDimensionNumbers(reduction_axis=(0, 1, 2), output_axis=3)},
    }
    results = {}
    for name, tx in (
        ("default", contrib.muon(learning_rate=0.01)),
        ("numbers", contrib.muon(learning_rate=0.01, muon_weight_dimension_numbers=dims)),
    ):
        state = tx.init(params)
        show(state)

        @jax.jit
        def step(p, s, tx=tx):
            value, g = jax.value_and_grad(loss)(p)
            updates, s = tx.update(g, s, p)
            return optax.apply_updates(p, updates), s, value

        p, values = params, []
        for _ in range(2):
            p, state, value = step(p, state)
            values.append(value)
        results[name] = dict(values=values, params=p, state=jax.tree.leaves(state))
    out["muon"] = results
