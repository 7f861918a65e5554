"""The runs of `test_aggregating.py`, written once for both libraries: `run(lib)` takes the
modules as a dict (`jax`, `jnp`, `random`, `optax`, `aggregating`) and returns the parameters
and statistics after a few steps of each case (Optax 0.2.8's docstring programs and variants:
accumulation over microbatches, mean/variance tracking under `jit`)."""

from __future__ import annotations

from typing import Any

import numpy as np


def run(lib: dict[str, Any]) -> dict[str, Any]:
    jax, jnp, jrd, optax, agg = (lib[k] for k in ("jax", "jnp", "random", "optax", "aggregating"))
    out = {}
    clip_per_sample = jax.vmap(optax.projections.projection_l2_ball, 0)

    def average(gs, s, _):
        return jax.tree.map(lambda g: jnp.mean(g, 0), gs), s

    opt = agg.process(
        optax.stateless(lambda gs, _: clip_per_sample(gs)),
        agg.Aggregator(init=optax.init_empty_state, update=average),
        optax.adam(learning_rate=1e-1),
    )
    sq = lambda w, x, y: jnp.sum((x.dot(w) - y) ** 2)
    xs, ys = jrd.normal(jrd.key(0), (8, 4)), jrd.normal(jrd.key(1), (8, 2))
    params = jrd.normal(jrd.key(2), (4, 2))
    state = opt.init(params)
    value_and_grads = jax.vmap(jax.value_and_grad(sq), (None, 0, 0))
    for _ in range(3):
        _, grads = value_and_grads(params, xs, ys)
        updates, state = opt.update(grads, state)
        params = optax.apply_updates(params, updates)
    out["process"] = np.asarray(params).tolist()

    mse = lambda w, x, y: jnp.mean(jnp.sum((x.dot(w) - y) ** 2, axis=-1))
    xs, ys = jrd.normal(jrd.key(0), (3, 4, 6)), jrd.normal(jrd.key(1), (3, 4, 2))
    params = jrd.normal(jrd.key(2), (6, 2))
    accumulate = agg.average_incrementally_updates(per_elt_axis=None, accumulation_steps=2)
    opt = agg.process(optax.identity(), accumulate, optax.adam(0.01))
    state, steps = opt.init(params), []
    for x, y in zip(xs, ys):
        updates, state = opt.update(jax.grad(mse)(params, x, y), state)
        params = optax.apply_updates(params, updates)
        steps.append(np.asarray(params).tolist())
    out["accumulate"] = steps

    for accumulation_steps in (1, 2):
        xs, ys = jrd.normal(jrd.key(0), (3, 4, 2)), jrd.normal(jrd.key(1), (3, 4, 2))
        params = jrd.normal(jrd.key(2), (2, 2))
        opt = agg.add_mean_variance_to_opt(
            optax.adam(0.01), ema_decay=0.9, accumulation_steps=accumulation_steps
        )
        value_and_grads = jax.vmap(jax.value_and_grad(mse), (None, 0, 0))

        def step(params, state, x, y, opt=opt, value_and_grads=value_and_grads):
            _, grads = value_and_grads(params, x, y)
            updates, state = opt.update(grads, state)
            return optax.apply_updates(params, updates), state

        step, state, steps = jax.jit(step), opt.init(params), []
        for x, y in zip(xs, ys):
            params, state = step(params, state, x[:, None], y[:, None])
            mean, var = agg.get_unbiased_mean_and_variance_ema(state)
            steps.append([np.asarray(a).tolist() for a in (params, mean, var)])
        out[f"mean_variance_{accumulation_steps}"] = steps

    average_3 = agg.average_incrementally_updates(per_elt_axis=0, accumulation_steps=3)
    state, steps = average_3.init(jnp.zeros(2)), []
    for i in range(4):
        updates, state = average_3.update(jnp.arange(4.0).reshape(2, 2) * (i + 1), state)
        steps.append(np.asarray(updates).tolist())
    out["average_incrementally"] = steps
    return out
