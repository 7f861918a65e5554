"""Optax transformations written by their users and Optax's combinators for them (our own
program): a `GradientTransformation` with a `NamedTuple` state (sign momentum) and a
`GradientTransformationExtraArgs` reading the loss given to `update(..., value=)`, chained
with Optax's own (`chain` forwarding the extra argument, `with_extra_args_support`),
`named_chain` (its state by name), `stateless` and `stateless_with_tree_map` (functions of the
updates and parameters); `conditionally_mask` and `conditionally_transform` on a step predicate
(their counters and the inner state frozen while masked); `MultiSteps` with
`should_skip_update_fn` as `skip_not_finite` and `skip_large_updates`;
`inject_stateful_hyperparams` over a schedule; all in a few eager steps and one jitted loop."""

import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp
import optax


class SignMomentumState(NamedTuple):
    trace: optax.Updates
    steps: jax.Array


def sign_momentum(decay: float = 0.8) -> optax.GradientTransformation:
    def init_fn(params):
        return SignMomentumState(jax.tree.map(jnp.zeros_like, params), jnp.zeros([], jnp.int32))

    def update_fn(updates, state, params=None):
        del params
        trace = jax.tree.map(lambda t, g: decay * t + (1 - decay) * g, state.trace, updates)
        return jax.tree.map(jnp.sign, trace), SignMomentumState(trace, state.steps + 1)

    return optax.GradientTransformation(init_fn, update_fn)


class LossScaleState(NamedTuple):
    best: jax.Array


def shrink_when_worse(factor: float = 0.5) -> optax.GradientTransformationExtraArgs:
    def init_fn(params):
        del params
        return LossScaleState(jnp.asarray(jnp.inf, jnp.float32))

    def update_fn(updates, state, params=None, *, value=None, **extra):
        del params, extra
        scale = jnp.where(value > state.best, factor, 1.0)
        updates = jax.tree.map(lambda u: scale * u, updates)
        return updates, LossScaleState(jnp.minimum(state.best, value))

    return optax.GradientTransformationExtraArgs(init_fn, update_fn)


PARAMS = {"w": jnp.array([1.5, -0.5, 2.0]), "b": jnp.array(0.3)}
XS = jnp.linspace(-1.0, 1.0, 6)


def loss(params):
    pred = params["w"][0] * XS**2 + params["w"][1] * XS + params["w"][2] * jnp.sin(XS)
    return jnp.mean((pred + params["b"] - jnp.cos(XS)) ** 2)


def steps(tx, n, params=PARAMS, with_value=False, bad=None):
    state = tx.init(params)
    losses = []
    for i in range(n):
        value, grads = jax.value_and_grad(loss)(params)
        if bad is not None and i in bad:
            grads = {**grads, "b": grads["b"] * bad[i]}
        extra = {"value": value} if with_value else {}
        updates, state = tx.update(grads, state, params, **extra)
        params = optax.apply_updates(params, updates)
        losses.append(value)
    return params, state, jnp.stack(losses)


def run():
    out = {}

    params, state, losses = steps(optax.chain(sign_momentum(), optax.scale(-0.05)), 5)
    out["sign_momentum"] = dict(params=params, losses=losses, steps=state[0].steps,
                                type=type(state[0]).__name__)  # fmt: skip

    tx = optax.chain(optax.sgd(0.6), shrink_when_worse(0.25))
    params, state, losses = steps(tx, 6, with_value=True)
    out["extra_args"] = dict(params=params, losses=losses, best=state[1].best,
                             kind=type(tx).__name__)  # fmt: skip
    wrapped = optax.with_extra_args_support(optax.adam(0.1))
    u, _ = wrapped.update(jax.grad(loss)(PARAMS), wrapped.init(PARAMS), PARAMS, value=1.0)
    out["with_extra_args"] = [type(wrapped).__name__, u]

    named = optax.named_chain(("clip", optax.clip(0.1)), ("momentum", sign_momentum(0.5)),
                              ("lr", optax.scale(-0.1)))  # fmt: skip
    params, state, losses = steps(named, 4)
    out["named_chain"] = dict(keys=sorted(state), params=params, losses=losses,
                              trace=state["momentum"].trace)  # fmt: skip

    decay = optax.stateless_with_tree_map(lambda g, p: g + 0.1 * p)
    clip_total = optax.stateless(
        lambda u, p: jax.tree.map(lambda x: x / jnp.maximum(1.0, optax.tree.norm(u)), u)
    )
    params, state, losses = steps(optax.chain(decay, clip_total, optax.sgd(0.3)), 5)
    out["stateless"] = dict(params=params, losses=losses, empty=type(state[0]).__name__)

    every_other = optax.conditionally_mask(optax.adam(0.1), lambda step: step % 2 == 0)
    params, state, losses = steps(every_other, 5)
    out["conditionally_mask"] = dict(params=params, losses=losses, step=state.step,
                                     inner_count=state.inner_state[0].count,
                                     type=type(state).__name__)  # fmt: skip
    after_two = optax.conditionally_transform(optax.sgd(0.05), lambda step: step >= 2)
    params, state, losses = steps(after_two, 5)
    out["conditionally_transform"] = dict(params=params, losses=losses, step=state.step,
                                          type=type(state).__name__)  # fmt: skip

    big = functools.partial(optax.skip_large_updates, max_squared_norm=4.0)
    for name, skip in [("not_finite", optax.skip_not_finite), ("large", big)]:
        acc = optax.MultiSteps(optax.sgd(0.3), every_k_schedule=2, should_skip_update_fn=skip)
        params, state, losses = steps(acc, 6, bad={1: jnp.nan, 2: 1e3, 4: jnp.inf})
        out[f"skip_{name}"] = dict(params=params, mini_step=state.mini_step,
                                   gradient_step=state.gradient_step,
                                   skip_state=state.skip_state)  # fmt: skip

    factory = optax.inject_stateful_hyperparams(optax.sgd)
    itx = factory(learning_rate=optax.linear_schedule(0.4, 0.1, 4), momentum=0.5)

    @jax.jit
    def train(params):
        def body(carry, _):
            params, state = carry
            value, grads = jax.value_and_grad(loss)(params)
            updates, state = itx.update(grads, state, params)
            lr = state.hyperparams["learning_rate"]
            return (optax.apply_updates(params, updates), state), (value, lr)

        (params, state), (values, lrs) = jax.lax.scan(body, (params, itx.init(params)),
                                                     length=6)  # fmt: skip
        return params, values, lrs, state.hyperparams_states

    params, values, lrs, hstates = train(PARAMS)
    out["inject_stateful"] = dict(params=params, losses=values, lrs=lrs,
                                  hstates=sorted(hstates))  # fmt: skip
    return out
