"""Learning-rate schedules and stopping rules around a training loop (our own program): Flax's
`training.lr_schedule` and `early_stopping`, and the schedules and plateau logic of Optax.

- Flax's `create_constant_learning_rate_schedule`, `create_stepped_learning_rate_schedule`
  and `create_cosine_learning_rate_schedule` (with warm-up), evaluated at a table of steps;
- `optax.schedules`: `warmup_exponential_decay_schedule` (with `end_value` and `staircase`),
  `piecewise_interpolate_schedule` (linear and cosine), `warmup_constant_schedule`,
  `join_schedules` of three pieces, `inject_hyperparams(sgd)` driven by a joined schedule
  and its learning rates read back from the state;
- `early_stopping.EarlyStopping(min_delta, patience)` over a validation curve: the step it
  stops at, `has_improved` and `best_metric` along the way, `reset()`;
- `optax.contrib.reduce_on_plateau` scaling the updates of a noisy quadratic (its
  `scale`, `best_value`, `plateau_count` and `cooldown_count` after each epoch);
- `apply_if_finite` skipping two NaN gradients (its counters) and `MultiSteps` with an
  `every_k_schedule` function (the steps that update).
"""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import early_stopping, lr_schedule

STEPS = jnp.array([0, 1, 3, 5, 8, 10, 15, 20, 29, 40])


def flax_schedules(out):
    const = lr_schedule.create_constant_learning_rate_schedule(0.1, 10, warmup_length=2)
    stepped = lr_schedule.create_stepped_learning_rate_schedule(
        0.1, 10, [[1, 0.5], [3, 0.1]], warmup_length=1
    )
    cosine = lr_schedule.create_cosine_learning_rate_schedule(0.1, 10, 4, warmup_length=1)
    out["flax_constant"] = jnp.array([const(s) for s in STEPS])
    out["flax_stepped"] = jnp.array([stepped(s) for s in STEPS])
    out["flax_cosine"] = jnp.array([cosine(s) for s in STEPS])


def optax_schedules(out):
    s = optax.schedules
    table = {
        "warmup_exp": s.warmup_exponential_decay_schedule(0.0, 1.0, 5, 4, 0.5, end_value=0.1),
        "warmup_exp_stair": s.warmup_exponential_decay_schedule(
            0.01, 1.0, 3, 6, 0.3, transition_begin=2, staircase=True
        ),
        "interp_linear": s.piecewise_interpolate_schedule(
            "linear", 1.0, {5: 2.0, 10: 0.5, 20: 0.1}
        ),
        "interp_cosine": s.piecewise_interpolate_schedule("cosine", 1.0, {5: 2.0, 10: 0.5}),
        "warmup_constant": s.warmup_constant_schedule(0.0, 0.5, 8),
        "joined": s.join_schedules(
            [s.linear_schedule(0.0, 1.0, 5), s.cosine_decay_schedule(1.0, 10, alpha=0.2),
             s.constant_schedule(0.2)],
            [5, 15],
        ),
    }  # fmt: skip
    out["optax_schedules"] = {k: jax.vmap(f)(STEPS) for k, f in table.items()}
    out["optax_schedule_dtypes"] = {k: str(jnp.asarray(f(3)).dtype) for k, f in table.items()}

    tx = optax.inject_hyperparams(optax.sgd)(learning_rate=table["joined"], momentum=0.5)
    params = {"w": jnp.array([1.0, -2.0])}
    state = tx.init(params)
    rates = []
    for _ in range(8):
        grads = jax.grad(lambda p: jnp.sum(p["w"] ** 2))(params)
        updates, state = tx.update(grads, state)
        params = optax.apply_updates(params, updates)
        rates.append(state.hyperparams["learning_rate"])
    out["injected_rates"] = jnp.stack(rates)
    out["injected_params"] = params["w"]


def stopping(out):
    curve = [1.0, 0.8, 0.7, 0.69, 0.695, 0.68, 0.7, 0.71, 0.72, 0.5]
    es = early_stopping.EarlyStopping(min_delta=0.015, patience=2)
    improved, best, stopped_at = [], [], None
    for epoch, value in enumerate(curve):
        es = es.update(value)
        improved.append(bool(es.has_improved))
        best.append(float(es.best_metric))
        if es.should_stop and stopped_at is None:
            stopped_at = epoch
    out["es_improved"] = improved
    out["es_best"] = np.array(best)
    out["es_stopped_at"] = stopped_at
    out["es_patience_count"] = int(es.patience_count)
    es = es.reset()
    out["es_reset"] = [float(es.best_metric), int(es.patience_count), bool(es.should_stop)]


def plateau(out):
    tx = optax.chain(
        optax.sgd(0.1),
        optax.contrib.reduce_on_plateau(factor=0.5, patience=2, cooldown=1, accumulation_size=3),
    )
    params = jnp.array([2.0, -1.0])
    state = tx.init(params)
    key = jax.random.key(3)
    trace = []
    for i in range(18):
        key, sub = jax.random.split(key)
        noise = 0.3 * jax.random.normal(sub, (2,))
        loss, grads = jax.value_and_grad(lambda p: jnp.sum((p - noise) ** 2))(params)
        updates, state = tx.update(grads, state, params, value=loss)
        params = optax.apply_updates(params, updates)
        s = state[1]
        trace.append([s.scale, s.best_value, s.plateau_count, s.cooldown_count])
    trace = jnp.array(trace)
    out["plateau_trace"] = jnp.where(jnp.isinf(trace), -1.0, trace)  # no best value yet: inf
    out["plateau_params"] = params


def wrappers(out):
    tx = optax.apply_if_finite(optax.adam(0.1), max_consecutive_errors=3)
    params = {"w": jnp.ones(3)}
    state = tx.init(params)
    counts = []
    for i in range(6):
        g = {"w": jnp.full(3, jnp.nan if i in (1, 2) else 0.5)}
        updates, state = tx.update(g, state, params)
        params = optax.apply_updates(params, updates)
        counts.append([state.notfinite_count, state.total_notfinite, state.last_finite])
    out["finite_counts"] = jnp.array(counts)
    out["finite_params"] = params["w"]

    ms = optax.MultiSteps(optax.sgd(1.0), every_k_schedule=lambda step: jnp.where(step < 4, 2, 3))
    p = jnp.zeros(2)
    s = ms.init(p)
    updated = []
    for i in range(10):
        u, s = ms.update(jnp.array([1.0, float(i)]), s, p)
        p = optax.apply_updates(p, u)
        updated.append(bool(ms.has_updated(s)))
    out["multisteps_updated"] = updated
    out["multisteps_params"] = p
    out["multisteps_gradient_step"] = s.gradient_step


def run():
    out = {}
    flax_schedules(out)
    optax_schedules(out)
    stopping(out)
    plateau(out)
    wrappers(out)
    return out
