"""Optax's optimizers with the options their defaults leave off (our own program): each of
thirty-nine transformations takes three steps on the same small dict of parameters, with
gradients that change sign and size, and the parameters and the state's dtypes are compared.

Options exercised: `nesterov=` of `adam`/`adamw`/`adabelief`/`sgd`/`trace`/`rmsprop`, a mask
function for `adamw`'s decay, `mu_dtype`/`accumulator_dtype` in bfloat16, `adafactor`'s
factoring, clipping, momentum and decay, `adagrad`'s initial accumulator, a centered
`rmsprop` with bias correction, `lamb`/`lars`/`lion`/`adan`/`nadamw` with weight decay,
`noisy_sgd`'s key, `sm3` momentum, `radam`'s threshold, `optimistic_gradient_descent`'s
`alpha`/`beta`, `lbfgs` without a line search, `clip`/`clip_by_block_rms`/
`clip_by_global_norm` chained, `scale_by_trust_ratio`, `add_noise`, `ema(debias=False)`,
`scale_by_stddev`/`scale_by_rss`/`scale_by_amsgrad`/`scale_by_distance_over_gradients`/
`scale_by_polyak`/`normalize_by_update_norm`/`scale_by_optimistic_gradient`, `fromage`,
`rprop`'s step bounds, `polyak_sgd` and `signum`.
"""

import functools

import jax
import jax.numpy as jnp
import optax


def transformations():
    return {
        "adam_amsgrad_nesterov": lambda: optax.adam(0.1, nesterov=True),
        "adamw_mask_fn": lambda: optax.adamw(
            0.1, weight_decay=0.5, mask=lambda t: jax.tree.map(lambda x: x.ndim > 1, t)
        ),
        "adafactor_opts": lambda: optax.adafactor(
            0.1,
            min_dim_size_to_factor=1,
            decay_rate=0.5,
            clipping_threshold=0.5,
            momentum=0.9,
            weight_decay_rate=0.1,
            factored=True,
        ),
        "adagrad": lambda: optax.adagrad(0.1, initial_accumulator_value=0.2, eps=1e-3),
        "rmsprop_centered": lambda: optax.rmsprop(
            0.01,
            decay=0.8,
            eps=0.1,
            centered=True,
            momentum=0.5,
            nesterov=True,
            bias_correction=True,
        ),
        "sgd_nesterov": lambda: optax.sgd(0.1, momentum=0.9, nesterov=True),
        "lamb": lambda: optax.lamb(0.1, weight_decay=0.1),
        "lars": lambda: optax.lars(0.1, trust_coefficient=0.01, momentum=0.8),
        "noisy_sgd": lambda: optax.noisy_sgd(0.1, key=0),
        "adabelief": lambda: optax.adabelief(0.1, nesterov=True),
        "adamax": lambda: optax.adamax(0.1),
        "adan": lambda: optax.adan(0.1, weight_decay=0.01),
        "lion": lambda: optax.lion(0.1, weight_decay=0.1),
        "novograd": lambda: optax.novograd(0.1),
        "sm3": lambda: optax.sm3(0.1, momentum=0.5),
        "yogi": lambda: optax.yogi(0.1),
        "radam": lambda: optax.radam(0.1, threshold=1.0),
        "optimistic_gd": lambda: optax.optimistic_gradient_descent(0.1, alpha=0.5, beta=0.3),
        "lbfgs_no_ls": lambda: optax.lbfgs(0.1, memory_size=3, linesearch=None),
        "clip_norms": lambda: optax.chain(
            optax.clip(0.2),
            optax.clip_by_block_rms(0.3),
            optax.clip_by_global_norm(0.4),
            optax.identity(),
        ),
        "scale_by_trust_ratio": lambda: optax.scale_by_trust_ratio(
            min_norm=0.1, trust_coefficient=0.5
        ),
        "add_noise": lambda: optax.add_noise(0.1, 0.5, 3),
        "ema_debias": lambda: optax.ema(0.9, debias=False),
        "trace_nesterov": lambda: optax.trace(0.7, nesterov=True),
        "scale_by_stddev": lambda: optax.scale_by_stddev(0.8, initial_scale=0.1),
        "scale_by_rss": lambda: optax.scale_by_rss(0.5),
        "scale_by_amsgrad": lambda: optax.scale_by_amsgrad(),
        "scale_by_distance_over_gradients": lambda: optax.scale_by_distance_over_gradients(),
        "scale_by_polyak": lambda: optax.scale_by_polyak(max_learning_rate=0.5),
        "normalize_by_update_norm": lambda: optax.normalize_by_update_norm(0.5),
        "scale_by_optimistic_gradient": lambda: optax.scale_by_optimistic_gradient(0.5, 0.2),
        "adamw_nesterov": lambda: optax.adamw(0.1, nesterov=True, mu_dtype=jnp.bfloat16),
        "nadamw": lambda: optax.nadamw(0.1, weight_decay=0.2),
        "sgd_accum_dtype": lambda: optax.sgd(0.1, momentum=0.9, accumulator_dtype=jnp.bfloat16),
        "fromage": lambda: optax.fromage(0.1, min_norm=1e-3),
        "rprop": lambda: optax.rprop(
            0.1, eta_minus=0.3, eta_plus=1.5, min_step_size=1e-3, max_step_size=0.5
        ),
        "amsgrad": lambda: optax.amsgrad(0.1),
        "polyak_sgd": lambda: optax.polyak_sgd(0.5, f_min=-1.0),
        "signum": lambda: optax.signum(0.1, 0.7),
    }


def run():
    p = {"w": jnp.array([[0.5, -1.0], [2.0, 0.1]]), "b": jnp.array([0.3, -0.2])}
    g = {"w": jnp.array([[0.1, -0.3], [0.7, 0.0]]), "b": jnp.array([-0.5, 0.25])}
    out = {}
    for name, make in transformations().items():
        tx = make()
        params, state = p, tx.init(p)
        for i in range(3):
            grads = jax.tree.map(functools.partial(jnp.multiply, (1.0 + 0.5 * i) * (-1) ** i), g)
            polyak = name in ("polyak_sgd", "scale_by_polyak")
            extra = {"value": jnp.array(1.5 - 0.3 * i)} if polyak else {}
            updates, state = tx.update(grads, state, params, **extra)
            params = optax.apply_updates(params, updates)
        dtypes = [str(leaf.dtype) for leaf in jax.tree.leaves(state) if hasattr(leaf, "dtype")]
        out[name] = {"params": params, "state_dtypes": dtypes}
    return out
