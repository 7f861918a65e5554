"""Optax's optimizers, chains, schedules and losses on small problems (our own program).

Checks, on a 3-feature linear regression: eager fits by `adam`, a hand-built `chain` of
`clip_by_global_norm`/`scale_by_adam(b1, b2, eps)`/`scale_by_schedule(exponential_decay)`/
`scale(-1)`, `chain(clip, adamw(warmup_cosine_decay_schedule))`, `chain(scale_by_rms, scale)`,
`flatten(sgd(momentum, nesterov))` and `rmsprop`; `inject_hyperparams` driving
`clip_by_global_norm`'s `max_norm` by a `linear_schedule` (updates of `None`) and `adamw`'s
learning rate (read back from `hyperparams`); a table of schedules (exponential with
staircase and transition_begin, polynomial, piecewise constant, linear one-cycle, warmup
cosine) under `vmap`; losses (`l2_loss`, `huber_loss`, `sigmoid_binary_cross_entropy`,
`softmax_cross_entropy_with_integer_labels`); the bilinear game `min_x max_y x*y` by `sgd`,
`optimistic_gradient_descent`, `adam(nesterov=True)` and `optimistic_adam`, the max player's
gradient flipped by `.at[1].apply(jnp.negative)` and the iterations a `lax.scan` carrying the
optimizer state; `contrib.ademamix` (schedules for `alpha` and `b3`) against `adam` on the
Rosenbrock function in a `lax.scan` printing through `jax.debug.print` inside `lax.cond` (a
Python float printed as float32); `contrib.reduce_on_plateau` after `adam` fed `value=` with
its scale read by `optax.tree.get`. Everything printed is compared line by line.
"""

import functools

import jax
import jax.numpy as jnp
import optax
import optax.contrib

from tests.porting import printed

W_TRUE = jnp.array([1.5, -0.5, 2.0])


def _data():
    xs = jax.random.normal(jax.random.PRNGKey(3), (24, 3))
    noise = 0.01 * jax.random.normal(jax.random.PRNGKey(4), (24,))
    return xs, xs @ W_TRUE + noise


@functools.partial(jax.vmap, in_axes=(None, 0))
def predict(w, x):
    return jnp.inner(w, x)


def mse(w, xs, ys):
    return jnp.mean(optax.l2_loss(predict(w, xs), ys))


def run():
    out = {}
    with printed.Cells(functools.partial(printed.numbered, columns=True)) as cells:
        _eager_fits(out)
        cells.mark("fits")
        _injected(out)
        cells.mark("injected")
        _schedules_and_losses(out)
        cells.mark("schedules")
        _bilinear_game(out)
        cells.mark("game")
        _rosenbrock(out)
        cells.mark("rosenbrock")
        _plateau(out)
        cells.mark("plateau")
    out["printed"] = cells.printed
    return out


def _eager_fits(out):
    xs, ys = _data()
    decay = optax.exponential_decay(init_value=0.1, transition_steps=10, decay_rate=0.9)
    warmup = optax.warmup_cosine_decay_schedule(
        init_value=0.0, peak_value=0.2, warmup_steps=5, decay_steps=30, end_value=0.01
    )
    optimizers = {
        "adam": optax.adam(0.1),
        "chain": optax.chain(
            optax.clip_by_global_norm(1.0),
            optax.scale_by_adam(b1=0.8, b2=0.99, eps=1e-6),
            optax.scale_by_schedule(decay),
            optax.scale(-1.0),
        ),
        "adamw_clip": optax.chain(optax.clip(0.5), optax.adamw(warmup, weight_decay=0.05)),
        "rms": optax.chain(optax.scale_by_rms(decay=0.8), optax.scale(-0.02)),
        "flat_nesterov": optax.flatten(optax.sgd(0.05, momentum=0.8, nesterov=True)),
        "rmsprop": optax.rmsprop(0.02, centered=True, momentum=0.5),
    }
    fits = {}
    for name, tx in optimizers.items():
        w = jnp.zeros(3)
        state = tx.init(w)
        for _ in range(30):
            grads = jax.grad(mse)(w, xs, ys)
            updates, state = tx.update(grads, state, w)
            w = optax.apply_updates(w, updates)
        print(f"{name}: loss {mse(w, xs, ys):.5f} w {w}")
        fits[name] = dict(w=w, state=jax.tree.leaves(state))
    fits["state_names"] = [type(s).__name__ for s in optimizers["chain"].init(jnp.zeros(3))]
    out["fits"] = fits


def _injected(out):
    clipper = optax.inject_hyperparams(optax.clip_by_global_norm)(
        max_norm=optax.linear_schedule(2.0, 0.0, transition_steps=8)
    )
    state = clipper.init(None)
    norms = []
    for _ in range(10):
        norms.append(state.hyperparams["max_norm"])
        _, state = clipper.update(None, state)
    print(f"max_norm after 10 updates: {state.hyperparams['max_norm']}, count {state.count}")

    xs, ys = _data()
    lr = optax.piecewise_constant_schedule(0.1, {4: 0.5, 8: 0.2})
    tx = optax.inject_hyperparams(optax.adamw)(learning_rate=lr, weight_decay=0.01)

    @jax.jit
    def step(w, state):
        loss, grads = jax.value_and_grad(mse)(w, xs, ys)
        updates, state = tx.update(grads, state, w)
        return optax.apply_updates(w, updates), state, loss

    w, state = jnp.zeros(3), tx.init(jnp.zeros(3))
    rates = []
    for i in range(12):
        w, state, loss = step(w, state)
        rates.append(state.hyperparams["learning_rate"])
        if i % 4 == 3:
            print(f"step {i}: loss {loss:.5f} lr {state.hyperparams['learning_rate']:.4f}")
    out["injected"] = dict(
        max_norms=norms, rates=rates, w=w, keys=sorted(state.hyperparams), type=type(state).__name__
    )


def _schedules_and_losses(out):
    schedules = {
        "exponential": optax.exponential_decay(
            1.0, transition_steps=3, decay_rate=0.5, transition_begin=2, staircase=True
        ),
        "polynomial": optax.polynomial_schedule(1.0, 0.1, power=2, transition_steps=8),
        "piecewise": optax.piecewise_constant_schedule(2.0, {3: 0.5, 7: 0.1}),
        "onecycle": optax.linear_onecycle_schedule(transition_steps=10, peak_value=0.4),
        "warmup_cosine": optax.warmup_cosine_decay_schedule(0.0, 1.0, 3, 10, end_value=0.2),
    }
    steps = jnp.arange(12)
    out["schedules"] = {name: jax.vmap(s)(steps) for name, s in schedules.items()}
    print("polynomial:", [round(float(schedules["polynomial"](i)), 4) for i in range(0, 10, 3)])

    logits = jnp.array([[2.0, -1.0, 0.5], [0.1, 0.2, 0.3], [-3.0, 4.0, 0.0]])
    labels = jnp.array([0, 2, 1])
    out["losses"] = dict(
        huber=optax.huber_loss(jnp.array([0.0, 0.5, 3.0, -2.0]), delta=1.0),
        sigmoid_bce=optax.sigmoid_binary_cross_entropy(
            logits, jax.nn.one_hot(labels, 3, dtype=jnp.float32)
        ),
        softmax_int=optax.softmax_cross_entropy_with_integer_labels(logits, labels),
        l2=optax.l2_loss(jnp.array([1.0, -2.0]), jnp.array([0.5, 0.5])),
    )
    print(f"softmax CE mean: {out['losses']['softmax_int'].mean():.5f}")


def _bilinear_game(out):
    def payoff(z):
        return z[0] * z[1]

    def flipped_grad(z):
        return jax.grad(payoff)(z).at[1].apply(jnp.negative)

    players = {
        "sgd": optax.sgd(0.05),
        "ogd": optax.optimistic_gradient_descent(0.05),
        "adam_nesterov": optax.adam(0.05, nesterov=True),
        "optimistic_adam": optax.optimistic_adam(0.02, nesterov=True),
    }
    games = {}
    for name, tx in players.items():

        def step(carry, _, tx=tx):
            z, state = carry
            updates, state = tx.update(flipped_grad(z), state)
            z = optax.apply_updates(z, updates)
            return (z, state), z

        z0 = jnp.array([1.0, 1.0])
        (_, _), path = jax.lax.scan(step, (z0, tx.init(z0)), length=300)
        dist = jnp.hypot(path[:, 0], path[:, 1])
        print(f"{name}: distance to the saddle {dist[-1]:.4f}")
        games[name] = dict(every_50th=path[::50], dist=dist)
    out["game"] = games


def _rosenbrock(out):
    def rosen(p):
        return (1.0 - p[0]) ** 2 + 100.0 * (p[1] - p[0] ** 2) ** 2

    def report(flag, label, setting, i, value):
        def show():
            jax.debug.print(label + " {} at step {}: {}", setting, i, value)
            return 0

        return jax.lax.cond(flag, show, lambda: 0)

    def b3_schedule(end, span):
        half_life = jnp.log(0.5) / jnp.log(end)

        def b3(step):
            frac = jnp.minimum(step / span, 1.0)
            return jnp.power(0.5, 1.0 / (frac * half_life + 1.0))

        return b3

    n = 601
    solvers = [
        ("adam b1", 0.9, optax.adam(0.01, b1=0.9, b2=0.999)),
        ("adam b1", 0.99, optax.adam(0.01, b1=0.99, b2=0.999)),
        (
            "ademamix b3",
            0.999,
            optax.contrib.ademamix(
                learning_rate=0.01,
                b1=0.9,
                b2=0.999,
                b3=b3_schedule(0.999, n),
                alpha=optax.linear_schedule(0.0, 5.0, n),
            ),
        ),
    ]
    paths = {}
    for label, setting, tx in solvers:

        def body(carry, _, tx=tx, label=label, setting=setting):
            p, state, i = carry
            updates, state = tx.update(jax.grad(rosen)(p), state, p)
            p = optax.apply_updates(p, updates)
            report(i % 200 == 0, label, setting, i, rosen(p))
            return (p, state, i + 1), p

        p0 = jnp.array([-1.5, 2.0])
        (p, state, _), path = jax.lax.scan(body, (p0, tx.init(p0), 0), length=n)
        print(f"{label}={setting}: final ({float(p[0])}, {float(p[1])})")
        paths[f"{label} {setting}"] = path[::100]
    grid_x, grid_y = jnp.meshgrid(jnp.linspace(-2.0, 2.0, 5), jnp.linspace(-1.0, 3.0, 4))
    paths["grid"] = rosen([grid_x, grid_y])
    out["rosenbrock"] = paths
    out["ademamix_state"] = [type(s).__name__ for s in state]


def _plateau(out):
    xs, ys = _data()
    ys = ys + jnp.sign(jnp.sin(7.0 * jnp.arange(24.0)))  # a floor the loss cannot go below
    tx = optax.chain(
        optax.adam(0.2),
        optax.contrib.reduce_on_plateau(
            factor=0.5, patience=1, cooldown=1, accumulation_size=2, rtol=1e-3
        ),
    )
    w = jnp.zeros(3)
    state = tx.init(w)
    scales = []
    for i in range(16):
        loss, grads = jax.value_and_grad(mse)(w, xs, ys)
        updates, state = tx.update(grads, state, w, value=loss)
        w = optax.apply_updates(w, updates)
        scale = optax.tree.get(state, "scale")
        scales.append(scale)
        if i % 4 == 3:
            print(f"step {i}: loss {loss:.5f} scale {optax.tree.get(state, 'scale')}")
    base_step = optax.tree.scale(1.0 / scale, updates)
    out["plateau"] = dict(
        w=w, scales=scales, best=optax.tree.get(state, "best_value"), base_step=base_step
    )
