"""More of Optax (`optax_more`): every alias of optax and optax.contrib run for several steps on
a dict of mixed-shape params with non-default hyperparameters (masks as pytrees and callables,
schedules as learning rates, `mu_dtype`, half-precision params), the wrappers (`inject_hyperparams`,
`MultiSteps`, `masked`, `multi_transform`, `apply_if_finite`, linesearches with L-BFGS ...),
schedules at edge steps, the losses at edge inputs, `optax.tree`, projections, assignment,
perturbations, second-order helpers and the first lines of the usual mistakes' errors.

`om_run` steps a transformation on the gradient of a fixed bowl-plus-quartic loss written with
plain jnp operations (no autodiff, so differences are Optax's), and returns the params and the
final state (type names, fields, dtypes and values are compared).

Left knowingly (1 of 803): `projection_box(tree, lower, upper)` with a scalar bound and a
dict tree raises a pytree structure error in Optax 0.2.8, whose docstring allows "a scalar or
tree"; numbax follows the docstring and uses the scalar for every leaf.
"""

# ruff: noqa: E501

PRELUDE = """
OM_P = {'w': jnp.array([[0.2, 0.1], [-0.3, 0.4], [1.0, 0.0]]), 'b': jnp.array([0.0, 0.5]), 's': jnp.array(-1.0)}
OM_T = {'w': jnp.array([[1.0, -1.0], [0.5, 2.0], [0.0, -0.5]]), 'b': jnp.array([0.3, -0.7]), 's': jnp.array(1.5)}
def om_grad(p):
    return jax.tree.map(lambda x, t: (x - t.astype(x.dtype)) + (0.1 * x ** 3).astype(x.dtype), p, OM_T)
def om_loss(p):
    return sum(jnp.sum(0.5 * (x.astype(jnp.float32) - t) ** 2 + 0.025 * x.astype(jnp.float32) ** 4)
               for x, t in zip(jax.tree.leaves(p), jax.tree.leaves(OM_T)))
def om_run(tx, steps=8, params=None, dtype=None, value=False, obj=False, grads=None):
    params = OM_P if params is None else params
    if dtype is not None:
        params = jax.tree.map(lambda x: x.astype(dtype), params)
    st = tx.init(params)
    for i in range(steps):
        g = om_grad(params) if grads is None else grads[i % len(grads)]
        kw = {}
        if value:
            kw['value'] = om_loss(params)
        if obj:
            kw['obj_fn'] = om_loss
        u, st = tx.update(g, st, params, **kw)
        params = optax.apply_updates(params, u)
    return params, st
def om_ls(tx, steps=6):
    params = OM_P
    st = tx.init(params)
    for _ in range(steps):
        v, g = om_loss(params), om_grad(params)
        u, st = tx.update(g, st, params, value=v, grad=g, value_fn=om_loss)
        params = optax.apply_updates(params, u)
    return params, om_loss(params)
OM_NAN = [{'w': jnp.full((3, 2), jnp.nan), 'b': jnp.ones(2), 's': jnp.array(1.0)},
          {'w': jnp.ones((3, 2)), 'b': jnp.array([jnp.inf, 1.0]), 's': jnp.array(2.0)},
          {'w': jnp.ones((3, 2)), 'b': jnp.ones(2), 's': jnp.array(-1.0)}]
OM_MASK = {'w': True, 'b': False, 's': True}
def om_mask_fn(p):
    return jax.tree.map(lambda x: x.ndim > 1, p)
"""

LR_SCHED = "optax.warmup_cosine_decay_schedule(0.0, 0.1, 3, 10, end_value=0.01)"

ALIASES = [
    "adabelief(0.05, b1=0.8, b2=0.99, eps=1e-8, eps_root=1e-10)",
    "adabelief(optax.cosine_decay_schedule(0.1, 10), nesterov=True)",
    "adadelta(0.8, rho=0.7, eps=1e-4, weight_decay=0.05, weight_decay_mask=OM_MASK)",
    "adadelta(optax.linear_schedule(1.0, 0.1, 5), weight_decay=0.1, weight_decay_mask=om_mask_fn)",
    "adafactor(0.05, min_dim_size_to_factor=2, decay_rate=0.7, decay_offset=2, momentum=0.8, dtype_momentum=jnp.bfloat16)",
    "adafactor(0.05, min_dim_size_to_factor=2, factored=False, eps=1e-20, weight_decay_rate=0.02, weight_decay_mask=om_mask_fn)",
    "adafactor(0.05, min_dim_size_to_factor=3, clipping_threshold=0.5, multiply_by_parameter_scale=False)",
    "adafactor(optax.linear_schedule(0.1, 0.0, 10), min_dim_size_to_factor=2, weight_decay_rate=0.1)",
    "adagrad(0.3, initial_accumulator_value=0.5, eps=1e-3)",
    "adagrad(optax.exponential_decay(0.3, 3, 0.7))",
    "adam(0.05, b1=0.7, b2=0.95, eps=1e-6, eps_root=1e-9, mu_dtype=jnp.bfloat16)",
    "adam(0.05, nesterov=True, mu_dtype=jnp.float16)",
    f"adam({LR_SCHED})",
    "adam(jnp.array(0.05))",
    "adam(0.05, b1=0.0)",
    "adamax(0.05, b1=0.5, b2=0.9, eps=1e-4)",
    "adamaxw(0.05, weight_decay=0.1, mask={'w': True, 'b': False, 's': False})",
    "adamaxw(optax.exponential_decay(0.1, 2, 0.5), weight_decay=0.2, mask=om_mask_fn)",
    "adamw(0.05, b1=0.8, weight_decay=0.2, mask=om_mask_fn)",
    "adamw(0.05, weight_decay=optax.linear_schedule(0.1, 0.0, 5), nesterov=True, eps_root=1e-8)",
    "adamw(0.05, mu_dtype=jnp.bfloat16, weight_decay=0.0)",
    f"adamw({LR_SCHED}, weight_decay=0.5, mask=OM_MASK)",
    "adan(0.05, b1=0.9, b2=0.9, b3=0.95, eps_root=1e-6, weight_decay=0.05, mask={'w': True, 'b': True, 's': False})",
    "adan(optax.linear_schedule(0.1, 0.01, 6), weight_decay=0.1, mask=om_mask_fn)",
    "amsgrad(0.05, b1=0.8, b2=0.9, eps_root=1e-8, mu_dtype=jnp.bfloat16)",
    "amsgrad(0.05, bias_correction_mu=False, bias_correction_nu=False)",
    "fromage(0.05, min_norm=0.5)",
    "fromage(optax.linear_schedule(0.1, 0.0, 4))",
    "lamb(0.05, b1=0.8, b2=0.9, eps=1e-4, eps_root=1e-8, weight_decay=0.1, mask={'w': True, 'b': False, 's': False})",
    "lamb(0.05, weight_decay=0.1, mask=om_mask_fn)",
    "lars(0.1, weight_decay=0.01, weight_decay_mask={'w': True, 'b': False, 's': False}, trust_coefficient=0.01, eps=1e-6, trust_ratio_mask=om_mask_fn, momentum=0.5, nesterov=True)",
    "lars(0.1, weight_decay=0.1, weight_decay_mask=om_mask_fn, momentum=0.0)",
    "lion(0.01, b1=0.8, b2=0.95, mu_dtype=jnp.bfloat16, weight_decay=0.1, mask={'w': False, 'b': True, 's': True})",
    "lion(optax.cosine_decay_schedule(0.02, 8, alpha=0.1), weight_decay=0.5, mask=om_mask_fn)",
    "nadam(0.05, b1=0.8, eps_root=1e-8)",
    "nadam(0.05, mu_dtype=jnp.bfloat16)",
    "nadamw(0.05, weight_decay=0.05, mask=lambda p: {'w': True, 'b': False, 's': False})",
    "noisy_sgd(0.05, eta=0.1, gamma=0.3, key=random.key(7))",
    "noisy_sgd(0.05, key=random.PRNGKey(3))",
    "novograd(0.05, b1=0.8, b2=0.5, eps=1e-4, weight_decay=0.01)",
    "novograd(optax.linear_schedule(0.1, 0.0, 8), eps_root=1e-6)",
    "optimistic_adam(0.05, optimism=0.5, b1=0.8)",
    "optimistic_adam(0.05, nesterov=False)",
    "optimistic_adam_v2(0.05, beta=0.5, nesterov=False)",
    "optimistic_gradient_descent(0.05, alpha=0.5, beta=0.5)",
    "optimistic_gradient_descent(optax.linear_schedule(0.1, 0.0, 8), alpha=2.0)",
    "radam(0.05, b1=0.8, threshold=3.0, nesterov=True)",
    "radam(0.05, eps_root=1e-8, threshold=100.0)",
    "rmsprop(0.05, decay=0.8, eps=1e-4, initial_scale=0.1, eps_in_sqrt=False, centered=True, momentum=0.5, nesterov=True, bias_correction=True)",
    "rmsprop(optax.linear_schedule(0.1, 0.01, 6), decay=0.5)",
    "rmsprop(0.05, centered=True, bias_correction=True, initial_scale=0.5)",
    "rprop(0.05, eta_minus=0.3, eta_plus=1.5, min_step_size=1e-3, max_step_size=0.2)",
    "sgd(0.05, momentum=0.5, nesterov=True, accumulator_dtype=jnp.bfloat16)",
    "sgd(optax.piecewise_constant_schedule(0.1, {3: 0.5, 6: 0.1}), momentum=0.9)",
    "sgd(0.05, momentum=0.0)",
    "sgd(jnp.float32(0.05))",
    "sign_sgd(optax.linear_schedule(0.1, 0.0, 8))",
    "signum(0.05, momentum=0.5, accumulator_dtype=jnp.bfloat16)",
    "signum(optax.linear_schedule(0.1, 0.0, 8), momentum=0.0)",
    "sm3(0.1, momentum=0.5, eps=1e-4)",
    "sm3(optax.linear_schedule(0.1, 0.0, 8), momentum=0.0)",
    "yogi(0.05, b1=0.8, b2=0.9, eps=1e-2)",
    "yogi(optax.linear_schedule(0.1, 0.0, 8), initial_accumulator_value=0.5)",
]

CONTRIB = [
    "acprop(0.05, b1=0.8, b2=0.99, eps=1e-8, weight_decay=0.01, mask=OM_MASK)",
    "ademamix(0.05, b1=0.8, b2=0.99, b3=0.999, alpha=2.0, weight_decay=0.01, mask=om_mask_fn)",
    "ademamix(0.05, alpha=optax.linear_schedule(0.0, 5.0, 5), b3=optax.linear_schedule(0.9, 0.999, 5), mu_dtype=jnp.bfloat16)",
    "adopt(0.05, b1=0.8, b2=0.99, nesterov=True, use_clipping=False)",
    "adopt(0.05, mu_dtype=jnp.bfloat16)",
    "adopt(optax.linear_schedule(0.1, 0.0, 8), clip_value_fn=lambda c: 2.0 + 0.0 * c)",
    "cocob(1.0, alpha=50.0, weight_decay=0.01)",
    "cocob(0.5, eps=1e-4, mask=OM_MASK, weight_decay=0.1)",
    "dadapt_adamw(1.0, betas=(0.8, 0.99), estim_lr0=1e-3, weight_decay=0.01)",
    "dadapt_adamw(optax.linear_schedule(1.0, 0.5, 8))",
    "dog(0.5, init_step=('learning_rate', 0.01), weight_decay=0.01)",
    "dog(1.0, init_step=('heuristic', 1e-4), mask=OM_MASK, weight_decay=0.1)",
    "dowg(1.0, init_estim_sq_dist=1e-2, eps=1e-3, weight_decay=0.01, mask=om_mask_fn)",
    "dowg(0.5)",
    "madgrad(0.05, momentum=0.5, weight_decay=0.01, eps=1e-4)",
    "madgrad(optax.linear_schedule(0.1, 0.0, 8))",
    "mechanize(optax.adam(0.05), weight_decay=0.001, s_init=1e-4, num_betas=3)",
    "mechanize(optax.sgd(0.1, momentum=0.9))",
    "muon(0.05, ns_steps=3, beta=0.9, weight_decay=0.01, nesterov=False)",
    "muon(0.05, adaptive=True, adam_b1=0.8, adam_learning_rate=0.01)",
    "muon(0.05, mu_dtype=jnp.bfloat16, weight_decay=0.1, weight_decay_mask=om_mask_fn)",
    "muon(0.05, consistent_rms=0.2)",
    "prodigy(1.0, betas=(0.8, 0.99), beta3=0.9, estim_lr0=1e-3, weight_decay=0.01, safeguard_warmup=True)",
    "prodigy(0.5, estim_lr_coef=2.0)",
    "simplified_ademamix(0.05, b1=0.9, b2=0.9, alpha=2.0, weight_decay=0.01, mask=OM_MASK)",
    "simplified_ademamix(optax.linear_schedule(0.1, 0.0, 8), alpha=optax.linear_schedule(0.0, 2.0, 4))",
    "schedule_free_adamw(0.05, warmup_steps=3, b1=0.8, weight_decay=0.01)",
    "schedule_free_adamw(0.05, b2=0.9, weight_lr_power=1.0, state_dtype=jnp.bfloat16)",
    "schedule_free_sgd(0.5, warmup_steps=2, b1=0.8, weight_decay=0.01)",
    "schedule_free_sgd(0.2, weight_decay=None, weight_lr_power=0.0)",
    "schedule_free(optax.adam(0.05), 0.05, b1=0.8, weight_lr_power=1.0)",
    "schedule_free(optax.sgd(0.5), optax.linear_schedule(0.5, 0.0, 10))",
    "normalize()",
    "galore(0.05, rank=1, update_proj_gap=3)",
    "galore(0.05, rank=2, update_proj_gap=2, scale=0.5, weight_decay=0.01)",
]

TX = [
    "chain(optax.clip_by_global_norm(0.5), optax.add_decayed_weights(0.1, mask=OM_MASK), optax.scale_by_adam(b1=0.8), optax.scale_by_learning_rate(0.05))",
    "chain(optax.centralize(), optax.trace(0.9, nesterov=True), optax.scale(-0.05))",
    "chain(optax.scale_by_rms(decay=0.5, eps=1e-3, initial_scale=1.0), optax.scale(-0.05))",
    "chain(optax.scale_by_stddev(decay=0.5, initial_scale=1.0), optax.scale(-0.05))",
    "chain(optax.scale_by_adam(mu_dtype=jnp.float16, nesterov=True), optax.scale(-0.05))",
    "chain(optax.scale_by_amsgrad(mu_dtype=jnp.bfloat16), optax.scale(-0.05))",
    "chain(optax.scale_by_lion(b1=0.5, b2=0.9), optax.scale(-0.05))",
    "chain(optax.scale_by_belief(b1=0.5, eps_root=1e-6), optax.scale(-0.05))",
    "chain(optax.scale_by_yogi(initial_accumulator_value=0.1, eps=1e-2), optax.scale(-0.05))",
    "chain(optax.scale_by_radam(threshold=2.0), optax.scale(-0.05))",
    "chain(optax.scale_by_novograd(b1=0.5, b2=0.5, weight_decay=0.1), optax.scale(-0.05))",
    "chain(optax.scale_by_sm3(b1=0.5), optax.scale(-0.05))",
    "chain(optax.scale_by_adamax(b1=0.5), optax.scale(-0.05))",
    "chain(optax.scale_by_adadelta(rho=0.5), optax.scale(-0.5))",
    "chain(optax.scale_by_adan(b1=0.5), optax.scale(-0.05))",
    "chain(optax.scale_by_factored_rms(min_dim_size_to_factor=2, decay_rate=0.5), optax.scale(-0.05))",
    "chain(optax.scale_by_factored_rms(min_dim_size_to_factor=1, factored=False), optax.scale(-0.05))",
    "chain(optax.scale_by_rss(initial_accumulator_value=0.5, eps=1e-3), optax.scale(-0.05))",
    "chain(optax.scale_by_trust_ratio(min_norm=0.5, trust_coefficient=0.5, eps=1e-3), optax.scale(-0.05))",
    "chain(optax.scale_by_param_block_norm(min_scale=0.5), optax.scale(-0.05))",
    "chain(optax.scale_by_param_block_rms(min_scale=0.5), optax.scale(-0.05))",
    "chain(optax.scale_by_distance_over_gradients(reps_rel=1e-2, eps=1e-4), optax.scale(-0.05))",
    "chain(optax.scale_by_polyak(f_min=0.1, max_learning_rate=0.5), optax.scale(-1.0))",
    "chain(optax.scale_by_schedule(optax.exponential_decay(1.0, 2, 0.5, staircase=True)), optax.scale(-0.05))",
    "chain(optax.scale_by_rprop(0.05, eta_minus=0.2), optax.scale(-1.0))",
    "chain(optax.scale_by_optimistic_gradient(alpha=0.5, beta=2.0), optax.scale(-0.05))",
    "chain(optax.scale_by_lbfgs(memory_size=3, scale_init_precond=False), optax.scale(-0.5))",
    "chain(optax.scale_by_sign(), optax.scale(-0.05))",
    "chain(optax.scale_by_learning_rate(optax.linear_schedule(0.1, 0.0, 4)), optax.keep_params_nonnegative())",
    "chain(optax.sgd(0.5), optax.keep_params_nonnegative())",
    "chain(optax.normalize_by_update_norm(scale_factor=0.5, eps=1e-3), optax.scale(-0.1))",
    "chain(optax.clip(0.3), optax.sgd(0.1))",
    "chain(optax.clip_by_block_rms(0.3), optax.sgd(0.1))",
    "chain(optax.adaptive_grad_clip(0.05, eps=1e-2), optax.sgd(0.1))",
    "chain(optax.adaptive_grad_clip(0.05, axis=0), optax.sgd(0.1))",
    "chain(optax.clip_by_global_norm(0.5), optax.sgd(0.1))",
    "chain(optax.ema(0.5, debias=True), optax.sgd(0.1))",
    "chain(optax.ema(0.5, debias=False, accumulator_dtype=jnp.bfloat16), optax.sgd(0.1))",
    "chain(optax.trace(0.5, accumulator_dtype=jnp.bfloat16), optax.scale(-0.05))",
    "chain(optax.add_noise(0.1, 0.5, key=random.key(2)), optax.sgd(0.1))",
    "chain(optax.add_noise(0.5, 0.0, seed=4), optax.sgd(0.1))",
    "chain(optax.add_decayed_weights(optax.linear_schedule(0.5, 0.0, 4)), optax.sgd(0.1))",
    "chain(optax.add_decayed_weights(0.5, mask=om_mask_fn), optax.sgd(0.1))",
    "chain(optax.zero_nans(), optax.sgd(0.1))",
    "named_chain(('clip', optax.clip_by_global_norm(1.0)), ('adam', optax.scale_by_adam()), ('lr', optax.scale(-0.05)))",
    "named_chain()",
    "inject_hyperparams(optax.adamw)(learning_rate=optax.linear_schedule(0.1, 0.0, 6), weight_decay=0.1, b1=0.8)",
    "inject_hyperparams(optax.sgd)(learning_rate=optax.piecewise_constant_schedule(0.1, {2: 0.5}), momentum=optax.linear_schedule(0.0, 0.9, 4))",
    "inject_hyperparams(optax.adam, static_args=('nesterov',))(0.05, nesterov=True)",
    "inject_hyperparams(optax.clip_by_global_norm)(max_norm=optax.linear_schedule(1.0, 0.1, 4))",
    "inject_hyperparams(optax.adam, hyperparam_dtype=jnp.bfloat16)(learning_rate=optax.linear_schedule(0.1, 0.0, 4))",
    "inject_hyperparams(optax.lion)(learning_rate=jnp.array(0.01), mask=OM_MASK)",
    "inject_stateful_hyperparams(optax.adam)(learning_rate=optax.WrappedSchedule(optax.cosine_decay_schedule(0.1, 5)))",
    "inject_stateful_hyperparams(optax.sgd)(learning_rate=0.05, momentum=0.9)",
    "MultiSteps(optax.adam(0.05), every_k_schedule=3)",
    "MultiSteps(optax.sgd(0.1, momentum=0.9), every_k_schedule=lambda s: jnp.where(s < 2, 1, 3), use_grad_mean=False)",
    "MultiSteps(optax.adamw(0.05, mask=OM_MASK), every_k_schedule=2, accumulator_dtype=jnp.bfloat16)",
    "masked(optax.adam(0.05), {'w': True, 'b': False, 's': True})",
    "masked(optax.adam(0.05), lambda p: {'w': False, 'b': True, 's': False})",
    "masked(optax.chain(optax.sgd(0.1), optax.add_decayed_weights(0.1)), OM_MASK)",
    "masked(optax.masked(optax.adam(0.05), {'w': True, 's': False}), {'w': True, 'b': False, 's': True})",
    "masked(optax.set_to_zero(), om_mask_fn)",
    "multi_transform({'m': optax.adam(0.05), 'v': optax.sgd(0.1, momentum=0.5), 'z': optax.set_to_zero()}, {'w': 'm', 'b': 'v', 's': 'z'})",
    "multi_transform({'big': optax.lion(0.01), 'small': optax.adagrad(0.1)}, lambda p: jax.tree.map(lambda x: 'big' if x.size > 2 else 'small', p))",
    "multi_transform({'a': optax.adam(0.05), 'b': optax.masked(optax.sgd(0.1), OM_MASK)}, {'w': 'a', 'b': 'b', 's': 'b'})",
    "partition({'a': optax.adam(0.05), 'f': optax.set_to_zero()}, {'w': 'a', 'b': 'f', 's': 'a'})",
    "apply_if_finite(optax.adam(0.05), max_consecutive_errors=3)",
    "flatten(optax.sgd(0.1, momentum=0.9))",
    "flatten(optax.lion(0.01))",
    "conditionally_mask(optax.adam(0.05), lambda step: step >= 3)",
    "conditionally_transform(optax.adam(0.05), lambda step: step % 3 == 0)",
    "freeze({'w': False, 'b': True, 's': True})",
    "freeze(om_mask_fn)",
    "selective_transform(optax.adam(0.05), freeze_mask={'w': False, 'b': True, 's': False})",
    "lookahead(optax.adam(0.05), sync_period=3, slow_step_size=0.5)",
    "lookahead(optax.sgd(0.1), sync_period=2, slow_step_size=0.3, reset_state=True)",
    "apply_every(3)",
    "contrib.reduce_on_plateau(factor=0.5, patience=1, rtol=0.0, atol=1e-3, cooldown=1, accumulation_size=1, min_scale=0.1)",
]

DTYPE_RUNS = [
    ("adam(0.05)", "jnp.bfloat16"),
    ("adam(0.05, mu_dtype=jnp.float32)", "jnp.bfloat16"),
    ("adamw(0.05, weight_decay=0.1)", "jnp.float16"),
    ("sgd(0.05, momentum=0.9)", "jnp.bfloat16"),
    ("sgd(0.05, momentum=0.9, accumulator_dtype=jnp.float32)", "jnp.float16"),
    ("lion(0.01)", "jnp.bfloat16"),
    ("adafactor(0.05, min_dim_size_to_factor=2)", "jnp.bfloat16"),
    ("rmsprop(0.05, momentum=0.5)", "jnp.float16"),
    ("adagrad(0.1)", "jnp.bfloat16"),
    ("lamb(0.05)", "jnp.bfloat16"),
    ("nadam(0.05)", "jnp.float16"),
    ("amsgrad(0.05)", "jnp.bfloat16"),
    ("adabelief(0.05)", "jnp.bfloat16"),
    ("yogi(0.05)", "jnp.bfloat16"),
    ("contrib.adopt(0.05)", "jnp.bfloat16"),
    ("contrib.schedule_free_adamw(0.05)", "jnp.bfloat16"),
    ("MultiSteps(optax.adam(0.05), 2)", "jnp.bfloat16"),
    ("chain(optax.clip_by_global_norm(0.5), optax.adam(0.05))", "jnp.float16"),
    ("inject_hyperparams(optax.adam)(0.05)", "jnp.bfloat16"),
    ("contrib.muon(0.05)", "jnp.bfloat16"),
]

SCHEDULES = [
    "optax.polynomial_schedule(0.5, 0.01, 3, 6, transition_begin=2)",
    "optax.polynomial_schedule(1, 0, 1, 4)",
    "optax.polynomial_schedule(0.5, 1.0, 0.5, 5)",
    "optax.linear_schedule(0.1, 0.5, 4, transition_begin=2)",
    "optax.exponential_decay(0.5, 3, 0.1, transition_begin=2, staircase=True, end_value=0.02)",
    "optax.exponential_decay(0.5, 2, 0.5, end_value=0.3)",
    "optax.cosine_decay_schedule(0.5, 6, alpha=0.2, exponent=3.0)",
    "optax.warmup_cosine_decay_schedule(0.1, 1.0, 2, 8, end_value=0.05, exponent=2.0)",
    "optax.warmup_cosine_decay_schedule(0, 1, 2, 8)",
    "optax.warmup_exponential_decay_schedule(0.1, 1.0, 2, 3, 0.5, transition_begin=1, end_value=0.3)",
    "optax.piecewise_constant_schedule(2.0, {2: 0.5, 4: 0.5, 6: 4.0})",
    "optax.piecewise_constant_schedule(1, {3: 2})",
    "optax.piecewise_interpolate_schedule('cosine', 2.0, {0: 0.5, 5: 0.1})",
    "optax.piecewise_interpolate_schedule('linear', 1.0, {2: 2.0, 4: 0.5, 7: 0.0})",
    "optax.linear_onecycle_schedule(8, 2.0, pct_start=0.25, pct_final=0.75, div_factor=4.0, final_div_factor=100.0)",
    "optax.cosine_onecycle_schedule(8, 2.0, pct_start=0.5, div_factor=10.0, final_div_factor=1000.0)",
    "optax.sgdr_schedule([dict(init_value=0.1, peak_value=1.0, warmup_steps=1, decay_steps=4, end_value=0.05), dict(init_value=0.0, peak_value=0.5, warmup_steps=0, decay_steps=3)])",
    "optax.join_schedules([optax.linear_schedule(0.0, 1.0, 2), optax.cosine_decay_schedule(1.0, 3), optax.constant_schedule(0.01)], [2, 5])",
    "optax.join_schedules([optax.constant_schedule(1.0), optax.polynomial_schedule(1.0, 0.0, 2, 4, transition_begin=1)], [3])",
    "optax.warmup_constant_schedule(0.1, 0.5, 3)",
    "optax.constant_schedule(jnp.float16(0.5))",
    "optax.schedules.linear_schedule(jnp.array(1.0), jnp.array(0.0), 4)",
]
STEPS = ["0", "1", "2", "4", "5", "8", "100", "-1", "3.5", "jnp.int32(6)", "jnp.array([0, 2, 7])"]

L = "optax.losses"
LG = "jnp.array([[2.0, -1.0, 0.5, -jnp.inf], [0.0, 0.0, 0.0, 0.0], [30.0, -30.0, 1.0, 2.0]])"
LB = "jnp.array([[0.0, 0.0, 1.0, 0.0], [0.25, 0.25, 0.25, 0.25], [1.0, 0.0, 0.0, 0.0]])"
WH = "jnp.array([[True, True, True, False], [True, False, True, True], [True, True, True, True]])"
LOSSES = [
    f"{L}.softmax_cross_entropy({LG}, {LB}, where={WH})",
    f"{L}.softmax_cross_entropy({LG}, {LB}, axis=-1)",
    f"{L}.softmax_cross_entropy({LG}.astype(jnp.bfloat16), {LB})",
    f"{L}.softmax_cross_entropy(jnp.zeros((2, 3)), jnp.zeros((2, 3)))",
    f"{L}.softmax_cross_entropy({LG}, {L}.smooth_labels({LB}, 0.2))",
    f"{L}.softmax_cross_entropy_with_integer_labels({LG}, jnp.array([2, 1, 0]), where={WH})",
    f"{L}.softmax_cross_entropy_with_integer_labels({LG}, jnp.array([3, 1, 0]))",
    f"{L}.softmax_cross_entropy_with_integer_labels({LG}, jnp.array([4, -5, 0]))",
    f"{L}.softmax_cross_entropy_with_integer_labels({LG}.T, jnp.array([2, 1, 0, 1]), axis=0)",
    f"{L}.softmax_cross_entropy_with_integer_labels(jnp.zeros((2, 3, 4)), jnp.array([[0, 1, 2], [3, 3, 0]]))",
    f"{L}.softmax_cross_entropy_with_integer_labels(jnp.zeros((2, 3, 4)), jnp.array([[0, 1, 2, 0], [2, 2, 0, 1]]), axis=1)",
    f"{L}.softmax_cross_entropy_with_integer_labels(jnp.zeros((2, 3)), jnp.array([0, 1], jnp.uint8))",
    f"{L}.safe_softmax_cross_entropy({LG}, {LB})",
    f"{L}.safe_softmax_cross_entropy(jnp.array([[-jnp.inf, -jnp.inf]]), jnp.array([[0.0, 1.0]]))",
    f"{L}.sigmoid_binary_cross_entropy(jnp.array([[-jnp.inf, 0.0], [jnp.inf, 5.0]]), jnp.array([[0.0, 1.0], [1.0, 0.0]]))",
    f"{L}.sigmoid_binary_cross_entropy(jnp.array([0.5, -0.5], jnp.bfloat16), jnp.array([1.0, 0.0], jnp.bfloat16))",
    f"{L}.sigmoid_binary_cross_entropy(jnp.zeros((2, 3)), jnp.ones(3))",
    f"{L}.sigmoid_focal_loss(jnp.array([[-2.0, 0.5], [4.0, -4.0]]), jnp.array([[0.0, 1.0], [1.0, 1.0]]), alpha=0.75, gamma=3.0)",
    f"{L}.sigmoid_focal_loss(jnp.array([-50.0, 50.0]), jnp.array([1.0, 0.0]), gamma=0.5)",
    f"{L}.sigmoid_focal_loss(jnp.array([0.0, 1.0]), jnp.array([0.5, 0.5]), alpha=None)",
    f"{L}.l2_loss(jnp.array([[1.0, -2.0]]), jnp.zeros((3, 2)))",
    f"{L}.l2_loss(jnp.array([1.0, 2.0], jnp.float16))",
    f"{L}.squared_error(jnp.array([1.0, 2.0], jnp.bfloat16), jnp.array([0.0, 0.0], jnp.bfloat16))",
    f"{L}.squared_error(jnp.array([1, 2]), jnp.array([0, 5]))",
    f"{L}.huber_loss(jnp.array([0.0, 0.5, 2.0, -3.0]), jnp.array([0.0, 0.0, 1.0, 0.0]), delta=0.5)",
    f"{L}.huber_loss(jnp.array([0.5, 2.0], jnp.bfloat16), delta=1.0)",
    f"{L}.log_cosh(jnp.array([1.0, 2.0]), jnp.array([1.0, -2.0]))",
    f"{L}.log_cosh(jnp.array([1e4, -1e4]))",
    f"{L}.cosine_similarity(jnp.array([[1.0, 2.0], [0.0, 0.0]]), jnp.array([[2.0, 4.0], [1.0, 1.0]]))",
    f"{L}.cosine_similarity(jnp.array([[1.0, 2.0], [3.0, 0.0]]), jnp.array([[2.0, 4.0], [1.0, 1.0]]), epsilon=10.0)",
    f"{L}.cosine_distance(jnp.array([[1.0, 2.0], [3.0, 0.0]]), jnp.array([[-1.0, -2.0], [1.0, 1.0]]))",
    f"{L}.cosine_similarity(jnp.ones((2, 3)), jnp.ones((2, 3)), axis=0)",
    f"{L}.cosine_distance(jnp.ones((2, 3)), jnp.ones((2, 3)), where=jnp.array([True, True, False]))",
    f"{L}.kl_divergence(jnp.log(jnp.array([[0.2, 0.8], [0.5, 0.5]])), jnp.array([[0.5, 0.5], [1.0, 0.0]]), axis=-1)",
    f"{L}.kl_divergence(jnp.log(jnp.array([[0.2, 0.8], [0.5, 0.5]])), jnp.array([[0.5, 0.5], [1.0, 0.0]]), axis=0)",
    f"{L}.kl_divergence(jnp.log(jnp.array([[0.2, 0.8], [0.5, 0.5]])), jnp.array([[0.5, 0.5], [1.0, 0.0]]), where=jnp.array([[True, False], [True, True]]))",
    f"{L}.kl_divergence_with_log_targets(jnp.log(jnp.array([0.2, 0.8])), jnp.log(jnp.array([0.5, 0.5])), axis=-1)",
    f"{L}.generalized_kl_divergence(jnp.log(jnp.array([0.2, 0.8])), jnp.array([0.5, 0.5]))",
    f"{L}.convex_kl_divergence(jnp.array([[-1.0, 0.0]]), jnp.array([[0.3, 0.7]]), axis=-1)",
    f"{L}.hinge_loss(jnp.array([[0.3, -0.2], [2.0, -5.0]]), jnp.array([[1.0, -1.0], [-1.0, 1.0]]))",
    f"{L}.multiclass_hinge_loss(jnp.array([[1.0, 2.0, 0.5], [0.0, 0.0, 0.0]]), jnp.array([2, 1]))",
    f"{L}.multiclass_perceptron_loss(jnp.array([[1.0, 2.0, 0.5], [0.0, 0.0, 0.0]]), jnp.array([2, 1]))",
    f"{L}.perceptron_loss(jnp.array([0.0, 1.0, -1.0]), jnp.array([1.0, -1.0, -1.0]))",
    f"{L}.multiclass_sparsemax_loss(jnp.array([[1.0, 2.0, 0.5], [0.0, 0.0, 0.0]]), jnp.array([1, 0]))",
    f"{L}.sparsemax_loss(jnp.array([[1.0, 2.0, 0.5], [0.0, 0.0, 0.0]]), jnp.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]))",
    f"{L}.poly_loss_cross_entropy({LG}[:, :3], {LB}[:, :3], epsilon=2.0)",
    f"{L}.poly_loss_cross_entropy({LG}, {LB}, where={WH})",
    f"{L}.smooth_labels(jnp.eye(3), 0.0)",
    f"{L}.smooth_labels(jnp.eye(3, dtype=jnp.bfloat16), 0.3)",
    f"{L}.ranking_softmax_loss(jnp.array([[1.0, 2.0, 0.5], [0.0, 0.0, 0.0]]), jnp.array([[0.0, 2.0, 1.0], [1.0, 0.0, 0.0]]), reduce_fn=None)",
    f"{L}.ranking_softmax_loss(jnp.array([[1.0, 2.0, 0.5], [0.0, 0.0, 0.0]]), jnp.array([[0.0, 2.0, 1.0], [1.0, 0.0, 0.0]]), weights=jnp.array([[1.0, 0.5, 2.0], [1.0, 1.0, 1.0]]), reduce_fn=jnp.sum)",
    f"{L}.ranking_softmax_loss(jnp.array([[1.0, 2.0, 0.5]]), jnp.array([[0.0, 2.0, 1.0]]), segments=jnp.array([[0, 0, 1]]))",
    f"{L}.ntxent(jnp.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9]]), jnp.array([0, 0, 1, 1]), temperature=0.5)",
    f"{L}.triplet_margin_loss(jnp.array([[1.0, 0.0], [0.0, 1.0]]), jnp.array([[1.0, 0.1], [0.0, 0.9]]), jnp.array([[0.0, 1.0], [1.0, 0.0]]), margin=0.5, norm_degree=1)",
    f"{L}.triplet_margin_loss(jnp.zeros((1, 2)), jnp.zeros((1, 2)), jnp.zeros((1, 2)), swap=True)",
    f"{L}.dice_loss(jnp.array([[[2.0, -1.0], [0.0, 3.0]]]), jnp.array([[[1.0, 0.0], [0.0, 1.0]]]), apply_softmax=False)",
    f"{L}.dice_loss(jnp.array([[[2.0, -1.0], [0.0, 3.0]]]), jnp.array([[[1.0, 0.0], [0.0, 1.0]]]), smooth=0.0, reduction='none')",
    f"{L}.binary_dice_loss(jnp.array([[2.0, -1.0, 0.0]]), jnp.array([[1.0, 0.0, 1.0]]))",
    f"{L}.multiclass_generalized_dice_loss(jnp.array([[[2.0, -1.0], [0.0, 3.0]]]), jnp.array([[[1.0, 0.0], [0.0, 1.0]]]))",
    f"{L}.ctc_loss(jnp.log(jnp.full((1, 3, 3), 1 / 3)), jnp.array([[0.0, 0.0, 1.0]]), jnp.array([[1, 2]]), jnp.array([[0.0, 1.0]]))",
    f"{L}.ctc_loss(jnp.zeros((2, 3, 3)), jnp.zeros((2, 3)), jnp.array([[1, 2], [2, 2]]), jnp.zeros((2, 2)), blank_id=0, log_epsilon=-1e4)",
    f"{L}.convex_kl_divergence(jnp.array([0.0]), jnp.array([0.0]))",
]


def _tree() -> list[str]:
    T = "optax.tree"
    A = "{'a': jnp.array([1.0, -2.0]), 'b': (jnp.array(3.0), jnp.array([[0.5]]))}"
    B = "{'a': jnp.array([0.5, 4.0]), 'b': (jnp.array(-1.0), jnp.array([[2.0]]))}"
    return [
        f"{T}.add({A}, {B}, {B})",
        f"{T}.sub({A}, {B})",
        f"{T}.mul({A}, {B})",
        f"{T}.div({A}, {B})",
        f"{T}.scale(jnp.float16(2), {A})",
        f"{T}.add_scale({A}, 0.5, {B})",
        f"{T}.vdot({A}, {B})",
        f"{T}.sum({A})",
        f"{T}.max({A})",
        f"{T}.min({A})",
        f"{T}.size({A})",
        f"{T}.norm({A})",
        f"{T}.norm({A}, ord=1)",
        f"{T}.norm({A}, ord='inf')",
        f"{T}.norm({A}, squared=True)",
        f"{T}.norm({{}})",
        f"{T}.max({{}})",
        f"{T}.sum({{}})",
        f"{T}.zeros_like({A})",
        f"{T}.ones_like({A}, dtype=jnp.int32)",
        f"{T}.full_like({A}, 7)",
        f"{T}.full_like({A}, 0.5, dtype=jnp.bfloat16)",
        f"{T}.where({{'a': jnp.array([True, False]), 'b': (jnp.array(False), jnp.array([[True]]))}}, {A}, {B})",
        f"{T}.clip({A}, min_value=-1.0, max_value=1.0)",
        f"{T}.clip({A}, max_value=0.0)",
        f"{T}.conj({{'c': jnp.array([1 + 2j])}})",
        f"{T}.real({{'c': jnp.array([1 + 2j]), 'r': jnp.array([3.0])}})",
        f"{T}.cast({A}, jnp.bfloat16)",
        f"{T}.cast({A}, None)",
        f"{T}.cast_like({A}, {T}.cast({B}, jnp.float16))",
        f"{T}.dtype({A})",
        f"{T}.dtype({{'a': jnp.ones(2, jnp.float16), 'b': jnp.ones(2)}}, 'highest')",
        f"{T}.dtype({{'a': jnp.ones(2, jnp.float16), 'b': jnp.ones(2)}}, 'lowest')",
        f"{T}.dtype({{'a': jnp.ones(2, jnp.float16), 'b': jnp.ones(2)}}, 'promote')",
        f"{T}.dtype({{'a': jnp.ones(2, jnp.float16), 'b': jnp.ones(2)}})",
        f"{T}.allclose({A}, {A})",
        f"{T}.allclose({A}, {B}, atol=10.0)",
        f"{T}.batch_shape({{'a': jnp.ones((3, 2)), 'b': jnp.ones((3, 2, 4))}})",
        f"{T}.bias_correction({A}, 0.9, jnp.int32(2))",
        f"{T}.update_moment({A}, {B}, 0.5, 2)",
        f"{T}.update_infinity_moment({A}, {B}, 0.5, 1e-3)",
        f"{T}.update_moment_per_elem_norm({A}, {B}, 0.5, 1)",
        f"{T}.random_like(random.key(0), {A})",
        f"{T}.random_like(random.key(1), {A}, sampler=random.uniform, dtype=jnp.float16)",
        f"{T}.split_key_like(random.key(0), {A})",
        f"{T}.get(optax.adamw(0.1).init(OM_P), 'count')",
        f"{T}.get(optax.chain(optax.scale_by_adam(), optax.add_decayed_weights(0.1)).init(OM_P), 'mu')",
        f"{T}.get(optax.chain(optax.adam(0.1), optax.adam(0.1)).init(OM_P), 'count')",
        f"{T}.get(optax.sgd(0.1).init(OM_P), 'count', default=-1)",
        f"{T}.get(optax.inject_hyperparams(optax.adam)(0.1).init(OM_P), 'learning_rate')",
        f"{T}.get(optax.adam(0.1).init(OM_P), 'count', filtering=lambda path, value: isinstance(value, optax.ScaleByAdamState))",
        f"{T}.get_all_with_path(optax.chain(optax.adam(0.1), optax.lion(0.1)).init(OM_P), 'mu')",
        f"{T}.get_all_with_path(optax.adamw(0.1).init(OM_P), 'nu', filtering=lambda p, v: True)",
        f"{T}.set(optax.adam(0.1).init(OM_P), count=jnp.int32(5))",
        f"{T}.set(optax.inject_hyperparams(optax.adam)(0.1).init(OM_P), learning_rate=0.5, b1=0.3).hyperparams",
        f"{T}.set(optax.adam(0.1).init(OM_P), lambda path, v: isinstance(v, optax.ScaleByAdamState), count=jnp.int32(3))",
        f"{T}.set(optax.adam(0.1).init(OM_P), nonexistent=1)",
        f"{T}.map_params(optax.adam(0.1).init(OM_P), lambda x: x + 1.0)",
        f"{T}.map_params(optax.adam(0.1), lambda x: x * 0.0, optax.adam(0.1).init(OM_P))",
        "optax.tree_utils.tree_map_params(optax.adamw(0.1), lambda p: p + 2.0, optax.adamw(0.1).init(OM_P), transform_non_params=lambda x: x * 10)",
        "optax.tree_utils.tree_zeros_like(OM_P, dtype=jnp.float16)",
        "optax.tree_utils.tree_ones_like(OM_P)",
        "optax.tree_utils.tree_l1_norm(OM_P)",
        "optax.tree_utils.tree_linf_norm(OM_P)",
        "optax.tree_utils.tree_add(OM_P, OM_T)",
        "optax.tree_utils.tree_sub(OM_P, OM_T)",
        "optax.tree_utils.tree_mul(OM_P, 2)",
        "optax.tree_utils.tree_div(OM_P, 2)",
        "optax.tree_utils.tree_min(OM_P)",
        "optax.tree_utils.tree_size(OM_P)",
        "optax.tree_utils.tree_where(True, OM_P, OM_T)",
        "optax.tree_utils.tree_full_like(OM_P, 3, dtype=jnp.int8)",
        "optax.tree_utils.tree_unwrap_random_key_data(random.key(3))",
        "optax.tree_utils.tree_unwrap_random_key_data({'k': random.key(3), 'x': jnp.ones(2)})",
        "optax.tree_utils.tree_batch_shape({'a': jnp.ones((2, 3))}, shape=(2,))",
        "optax.tree.add({'a': jnp.ones(2)}, {'b': jnp.ones(2)})",
        "optax.tree.vdot({'a': jnp.ones(2)}, {'a': jnp.ones(3)})",
        "optax.tree.vdot({'a': jnp.array([1 + 1j])}, {'a': jnp.array([2 - 1j])})",
        "optax.tree.norm({'a': jnp.array([3 + 4j])})",
        "optax.tree.add(OM_P, 1.0)",
        "optax.tree.mul(OM_P, jnp.float16(2))",
    ]


def _wrappers_detail() -> list[str]:
    return [
        # inject_hyperparams: the hyperparams dict over steps and its dtypes
        """
tx = optax.inject_hyperparams(optax.adam)(learning_rate=optax.linear_schedule(0.1, 0.0, 4), b1=0.8)
p, st = om_run(tx, steps=6)
out = st.hyperparams, st.count, type(st).__name__, sorted(st._fields) if hasattr(st, '_fields') else None
""",
        """
tx = optax.inject_hyperparams(optax.sgd)(learning_rate=0.1, momentum=0.9)
st = tx.init(OM_P)
out = st.hyperparams, st.hyperparams_states, optax.tree.get(st, 'count')
""",
        """
tx = optax.inject_hyperparams(optax.adam)(learning_rate=0.1)
st = tx.init(OM_P)
st.hyperparams['learning_rate'] = jnp.array(0.0)
u, st = tx.update(om_grad(OM_P), st, OM_P)
out = u, st.hyperparams
""",
        """
tx = optax.inject_hyperparams(optax.scale_by_adam)(b1=optax.linear_schedule(0.9, 0.5, 3))
p, st = om_run(tx, steps=4)
out = st.hyperparams, st.inner_state
""",
        """
tx = optax.inject_hyperparams(optax.adam)(learning_rate=5, b1=0.9)
out = tx.init(OM_P).hyperparams
""",
        """
tx = optax.inject_hyperparams(optax.adam)(learning_rate=jnp.float16(0.1))
out = tx.init(OM_P).hyperparams
""",
        """
tx = optax.inject_stateful_hyperparams(optax.sgd)(learning_rate=optax.WrappedSchedule(optax.linear_schedule(0.1, 0.0, 4)))
p, st = om_run(tx, steps=3)
out = p, st.hyperparams, st.hyperparams_states
""",
        # MultiSteps: accumulation values and has_updated
        """
ms = optax.MultiSteps(optax.sgd(1.0), every_k_schedule=3)
st = ms.init(OM_P)
flags, accs = [], []
p = OM_P
for i in range(7):
    u, st = ms.update(om_grad(p), st, p)
    p = optax.apply_updates(p, u)
    flags.append(ms.has_updated(st))
    accs.append(st.acc_grads['b'])
out = flags, accs, st.mini_step, st.gradient_step, p
""",
        """
ms = optax.MultiSteps(optax.adam(0.1), every_k_schedule=2, use_grad_mean=False)
p, st = om_run(ms, steps=5)
out = p, st.mini_step, st.gradient_step, st.skip_state, type(st).__name__
""",
        """
ms = optax.MultiSteps(optax.sgd(0.1), every_k_schedule=2, should_skip_update_fn=optax.skip_large_updates)
out = ms.init(OM_P).skip_state
""",
        """
ms = optax.MultiSteps(optax.sgd(0.1), every_k_schedule=2, should_skip_update_fn=lambda u, g, p: optax.skip_large_updates(u, g, p, max_squared_norm=1.0))
p, st = om_run(ms, steps=4)
out = p, st.skip_state, st.mini_step
""",
        """
ms = optax.MultiSteps(optax.sgd(0.1), every_k_schedule=2, should_skip_update_fn=optax.skip_not_finite)
p, st = om_run(ms, steps=4, grads=OM_NAN)
out = p, st.skip_state, st.mini_step, st.gradient_step
""",
        "optax.skip_not_finite(OM_NAN[0], optax.MultiSteps(optax.sgd(0.1), 2).init(OM_P), OM_P)",
        "optax.skip_large_updates(OM_NAN[2], None, None, 2.0)",
        "optax.skip_large_updates(OM_NAN[2], None, None, 100.0)",
        # apply_if_finite with NaN grads
        """
tx = optax.apply_if_finite(optax.adam(0.05), max_consecutive_errors=2)
p, st = om_run(tx, steps=5, grads=OM_NAN)
out = p, st.notfinite_count, st.last_finite, st.total_notfinite, type(st).__name__
""",
        """
tx = optax.apply_if_finite(optax.sgd(0.1), max_consecutive_errors=0)
p, st = om_run(tx, steps=2, grads=OM_NAN)
out = p, st
""",
        # masked with nested masks and MaskedNode
        """
tx = optax.masked(optax.adam(0.05), {'w': True, 'b': False, 's': True})
st = tx.init(OM_P)
out = st.inner_state[0].mu, repr(st.inner_state[0].mu['b']), type(st).__name__
""",
        """
P = {'enc': {'k': jnp.ones((2, 2)), 'b': jnp.zeros(2)}, 'dec': [jnp.ones(3), jnp.ones(())]}
tx = optax.masked(optax.sgd(0.1, momentum=0.9), {'enc': {'k': True, 'b': False}, 'dec': [False, True]})
st = tx.init(P)
g = jax.tree.map(jnp.ones_like, P)
u, st = tx.update(g, st, P)
out = u, jax.tree.structure(st.inner_state).num_leaves, jax.tree.leaves(st)
""",
        """
P = {'enc': {'k': jnp.ones((2, 2)), 'b': jnp.zeros(2)}, 'dec': jnp.ones(3)}
tx = optax.masked(optax.sgd(0.1), {'enc': True, 'dec': False})
out = tx.update(jax.tree.map(jnp.ones_like, P), tx.init(P), P)[0]
""",
        "optax.MaskedNode()",
        "jax.tree.leaves(optax.MaskedNode())",
        "jax.tree.leaves(optax.masked(optax.adam(0.1), OM_MASK).init(OM_P))",
        # multi_transform state
        """
tx = optax.multi_transform({'a': optax.adam(0.05), 'z': optax.set_to_zero()}, {'w': 'a', 'b': 'z', 's': 'a'})
p, st = om_run(tx, steps=3)
out = p, type(st).__name__, sorted(st.inner_states), type(st.inner_states['a']).__name__
""",
        """
tx = optax.multi_transform({'a': optax.adam(0.05), 'b': optax.sgd(0.1)}, lambda p: {'w': 'a', 'b': 'b', 's': 'a'})
u, st = tx.update(om_grad(OM_P), tx.init(OM_P), OM_P)
out = u
""",
        # flatten, lookahead state
        """
tx = optax.flatten(optax.adam(0.05))
p, st = om_run(tx, steps=3)
out = p, jax.tree.map(jnp.shape, st)
""",
        """
tx = optax.lookahead(optax.adam(0.05), sync_period=2, slow_step_size=0.5)
p = optax.LookaheadParams.init_synced(OM_P)
st = tx.init(p)
for _ in range(5):
    u, st = tx.update(om_grad(p.fast), st, p)
    p = optax.apply_updates(p, u)
out = p.fast, p.slow, st.sync_counter, type(st).__name__
""",
        # conditionally_mask / transform state
        """
tx = optax.conditionally_mask(optax.sgd(0.1, momentum=0.9), lambda step: step >= 2)
p, st = om_run(tx, steps=4)
out = p, st.step, type(st).__name__
""",
        """
tx = optax.conditionally_transform(optax.adam(0.05), lambda step: step % 2 == 0)
p, st = om_run(tx, steps=4)
out = p, st.step, st.inner_state
""",
        # named_chain state
        """
tx = optax.named_chain(('clip', optax.clip(0.5)), ('mom', optax.trace(0.5)), ('lr', optax.scale(-0.1)))
p, st = om_run(tx, steps=3)
out = p, type(st).__name__, list(st.keys()), st['mom']
""",
        # chain state types
        "[type(s).__name__ for s in optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(0.1), optax.scale_by_schedule(optax.constant_schedule(1.0))).init(OM_P)]",
        "optax.adamw(0.1, mask=OM_MASK).init(OM_P)",
        "optax.lion(0.1, mask=om_mask_fn).init(OM_P)",
        "optax.lamb(0.1).init(OM_P)",
        "optax.tree.get(optax.adafactor(0.1, min_dim_size_to_factor=2).init(OM_P), 'count')",
        "jax.tree.map(jnp.shape, optax.adafactor(0.1, min_dim_size_to_factor=2).init(OM_P))",
        "optax.contrib.muon(0.1).init(OM_P)",
        "optax.rmsprop(0.1, centered=True, momentum=0.9).init(OM_P)",
        "optax.noisy_sgd(0.1, key=random.key(0)).init(OM_P)",
        "optax.add_noise(0.1, 0.5, key=random.key(0)).init(OM_P)",
        "optax.ema(0.9, accumulator_dtype=jnp.float16).init(OM_P)",
        "optax.apply_if_finite(optax.sgd(0.1), 3).init(OM_P)",
        "optax.lookahead(optax.sgd(0.1), 2, 0.5).init(optax.LookaheadParams.init_synced(OM_P))",
        "optax.conditionally_mask(optax.sgd(0.1), lambda s: s > 1).init(OM_P)",
        "optax.contrib.reduce_on_plateau().init(OM_P)",
        "optax.contrib.schedule_free_adamw(0.1).init(OM_P)",
        "optax.contrib.sam(optax.sgd(0.1), optax.sgd(0.1)).init(OM_P)",
        "optax.contrib.dog().init(OM_P)",
        "optax.contrib.prodigy().init(OM_P)",
        "optax.contrib.mechanize(optax.sgd(0.1)).init(OM_P)",
        "optax.contrib.momo().init(OM_P)",
        "optax.contrib.cocob().init(OM_P)",
        "optax.scale_by_lbfgs(memory_size=2).init(OM_P)",
        "optax.scale_by_zoom_linesearch(5).init(OM_P)",
        "optax.scale_by_backtracking_linesearch(5).init(OM_P)",
        # add_noise values (key based)
        """
tx = optax.add_noise(0.5, 0.55, key=random.key(11))
st = tx.init(OM_P)
u1, st = tx.update(OM_P, st)
u2, st = tx.update(OM_P, st)
out = u1, u2, st.count
""",
        # ema debias over steps
        """
tx = optax.ema(0.8, debias=True)
st = tx.init(OM_P)
outs = []
for i in range(3):
    u, st = tx.update(jax.tree.map(lambda x: x * (i + 1), OM_P), st)
    outs.append(u['b'])
out = outs, st
""",
        # contrib runs needing extras
        "om_run(optax.contrib.momo(0.5, beta=0.8, lower_bound=0.1, weight_decay=0.01, adapt_lower_bound=True), value=True)",
        "om_run(optax.contrib.momo(optax.linear_schedule(1.0, 0.1, 6)), value=True)",
        "om_run(optax.contrib.momo_adam(0.05, b1=0.8, weight_decay=0.01), value=True)",
        "om_run(optax.contrib.momo_adam(0.05, adapt_lower_bound=True, lower_bound=0.05), value=True)",
        "om_run(optax.polyak_sgd(max_learning_rate=0.5, scaling=0.5, f_min=0.1, eps=1e-3), value=True)",
        "om_run(optax.polyak_sgd(variant='sps+'), value=True)",
        "om_run(optax.chain(optax.sgd(0.2), optax.contrib.reduce_on_plateau(factor=0.5, patience=1, accumulation_size=2, cooldown=1)), value=True, steps=10)",
        "om_run(optax.chain(optax.adam(0.05), optax.contrib.reduce_on_plateau(factor=0.1, patience=0, rtol=0.5, min_scale=0.05)), value=True)",
        "om_run(optax.contrib.sophia(0.05, b1=0.9, b2=0.95, update_interval=2, gamma=0.05, clip_threshold=0.5), obj=True)",
        "om_run(optax.contrib.sophia(0.05, weight_decay=0.1, weight_decay_mask=OM_MASK, hessian_diagonal_fn=optax.contrib.hutchinson_estimator_diag_hessian(random_seed=random.key(5))), obj=True, steps=4)",
        "om_run(optax.contrib.sam(optax.sgd(0.1), optax.chain(optax.contrib.normalize(), optax.sgd(0.05)), sync_period=2))",
        "om_run(optax.contrib.sam(optax.adam(0.05), optax.sgd(0.05), sync_period=3, reset_state=False))",
        """
tx = optax.contrib.schedule_free_adamw(0.05, warmup_steps=2)
p, st = om_run(tx, steps=5)
out = optax.contrib.schedule_free_eval_params(st, p), st.b1, st.weight_sum, st.max_lr
""",
        """
tx = optax.contrib.split_real_and_imaginary(optax.adam(0.05))
P = {'c': jnp.array([1 + 1j, -2j], jnp.complex64)}
st = tx.init(P)
u, st = tx.update({'c': jnp.array([0.5 - 1j, 2 + 0j], jnp.complex64)}, st, P)
out = u, st
""",
        """
tx = optax.contrib.differentially_private_aggregate(l2_norm_clip=1.0, noise_multiplier=0.0, key=random.key(0))
G = {'w': jnp.arange(12.0).reshape(2, 3, 2) / 4, 'b': jnp.array([[1.0, 0.0], [0.0, -3.0]])}
u, st = tx.update(G, tx.init({'w': jnp.ones((3, 2)), 'b': jnp.ones(2)}))
out = u, st
""",
        """
tx = optax.contrib.dpsgd(0.1, l2_norm_clip=0.5, noise_multiplier=0.0, seed=0, momentum=0.5, nesterov=True)
P = {'w': jnp.ones((3, 2)), 'b': jnp.ones(2)}
G = {'w': jnp.arange(12.0).reshape(2, 3, 2) / 4, 'b': jnp.array([[1.0, 0.0], [0.0, -3.0]])}
st = tx.init(P)
u, st = tx.update(G, st, P)
u, st = tx.update(G, st, P)
out = u
""",
        """
tx = optax.contrib.hutchinson_estimator_diag_hessian(random_seed=random.key(1))
st = tx.init(OM_P)
u, st = tx.update(om_grad(OM_P), st, OM_P, obj_fn=om_loss)
out = u, type(st).__name__
""",
        # linesearches with L-BFGS
        "om_ls(optax.lbfgs())",
        "om_ls(optax.lbfgs(memory_size=2, scale_init_precond=False))",
        "om_ls(optax.lbfgs(learning_rate=0.5, linesearch=None))",
        "om_ls(optax.lbfgs(linesearch=optax.scale_by_zoom_linesearch(max_linesearch_steps=8, initial_guess_strategy='one')))",
        "om_ls(optax.lbfgs(linesearch=optax.scale_by_backtracking_linesearch(max_backtracking_steps=15, store_grad=True)))",
        "om_ls(optax.chain(optax.sgd(1.0), optax.scale_by_backtracking_linesearch(max_backtracking_steps=15, decrease_factor=0.5, slope_rtol=0.3)))",
        "om_ls(optax.chain(optax.sgd(1.0), optax.scale_by_backtracking_linesearch(max_backtracking_steps=15, increase_factor=2.0, max_learning_rate=4.0)))",
        "om_ls(optax.chain(optax.sgd(1.0), optax.scale_by_zoom_linesearch(max_linesearch_steps=10)))",
        """
tx = optax.lbfgs()
st = tx.init(OM_P)
v, g = om_loss(OM_P), om_grad(OM_P)
u, st = tx.update(g, st, OM_P, value=v, grad=g, value_fn=om_loss)
out = u, optax.tree.get(st, 'learning_rate'), optax.tree.get(st, 'count'), [type(s).__name__ for s in st]
""",
        """
tx = optax.lbfgs()
vg = optax.value_and_grad_from_state(om_loss)
st = tx.init(OM_P)
p = OM_P
for _ in range(3):
    v, g = vg(p, state=st)
    u, st = tx.update(g, st, p, value=v, grad=g, value_fn=om_loss)
    p = optax.apply_updates(p, u)
out = p, v
""",
        "optax.lbfgs().update(om_grad(OM_P), optax.lbfgs().init(OM_P), OM_P)",
        "optax.scale_by_zoom_linesearch(5).update(om_grad(OM_P), optax.scale_by_zoom_linesearch(5).init(OM_P), OM_P, value=jnp.array(1.0), grad=om_grad(OM_P))",
        # freeze / selective_transform states
        "om_run(optax.chain(optax.adam(0.05), optax.freeze({'w': True, 'b': False, 's': False})), steps=3)",
        "jax.tree.leaves(optax.selective_transform(optax.adam(0.1), freeze_mask=OM_MASK).init(OM_P))",
    ]


def _misc() -> list[str]:
    PR = "optax.projections"
    X = "jnp.array([0.5, -1.5, 2.0, 0.25])"
    return [
        f"{PR}.projection_simplex({X})",
        f"{PR}.projection_simplex({X}, scale=3.0)",
        f"{PR}.projection_simplex({{'a': {X}, 'b': jnp.array([1.0])}})",
        f"{PR}.projection_simplex(jnp.zeros(3))",
        f"{PR}.projection_l1_ball({X})",
        f"{PR}.projection_l1_ball({X}, scale=10.0)",
        f"{PR}.projection_l1_sphere({X}, scale=2.0)",
        f"{PR}.projection_l2_ball({X})",
        f"{PR}.projection_l2_ball({X}, scale=100.0)",
        f"{PR}.projection_l2_sphere({X}, scale=0.5)",
        f"{PR}.projection_linf_ball({X}, scale=1.0)",
        f"{PR}.projection_box({X}, -1.0, 1.0)",
        f"{PR}.projection_box({{'a': {X}}}, {{'a': jnp.zeros(4)}}, 1.0)",
        f"{PR}.projection_hypercube({X}, scale=0.5)",
        f"{PR}.projection_non_negative({{'a': {X}, 'b': -jnp.ones(2)}})",
        f"{PR}.projection_hyperplane({X}, jnp.array([1.0, 0.0, 1.0, 0.0]), 1.0)",
        f"{PR}.projection_halfspace({X}, jnp.array([1.0, 0.0, 1.0, 0.0]), 1.0)",
        f"{PR}.projection_halfspace({X}, jnp.array([1.0, 0.0, 1.0, 0.0]), 10.0)",
        f"{PR}.projection_vector({X}, jnp.array([0.0, 1.0, 0.0, 1.0]))",
        f"{PR}.projection_l1_ball({X}.astype(jnp.bfloat16))",
        "optax.assignment.hungarian_algorithm(jnp.array([[4.0, 1.0, 3.0], [2.0, 0.0, 5.0], [3.0, 2.0, 2.0]]))",
        "optax.assignment.hungarian_algorithm(jnp.array([[4.0, 1.0, 3.0], [2.0, 0.0, 5.0]]))",
        "optax.assignment.hungarian_algorithm(jnp.array([[4.0, 1.0], [2.0, 0.0], [3.0, 2.0]]))",
        "optax.assignment.hungarian_algorithm(jnp.zeros((0, 3)))",
        "optax.assignment.hungarian_algorithm(jnp.array([[1, 2], [3, 0]]))",
        "optax.assignment.hungarian_algorithm(-jnp.eye(3))",
        "optax.assignment.base_hungarian_algorithm(jnp.array([[4.0, 1.0, 3.0], [2.0, 0.0, 5.0], [3.0, 2.0, 2.0]]))",
        "optax.assignment.base_hungarian_algorithm(jnp.array([[4.0, 1.0], [2.0, 0.0], [3.0, 2.0]]))",
        "optax.perturbations.make_perturbed_fun(lambda x: jnp.sum(jnp.maximum(x, 0.0)), num_samples=64, sigma=0.5)(random.key(0), jnp.array([0.5, -1.0]))",
        "optax.perturbations.make_perturbed_fun(lambda x: jnp.argmax(x) * 1.0, num_samples=32, sigma=1.0, noise=optax.perturbations.Normal())(random.key(1), jnp.array([0.5, -1.0, 0.2]))",
        "optax.perturbations.make_perturbed_fun(lambda x: x ** 2, num_samples=16, sigma=0.1, use_baseline=False)(random.key(2), jnp.array([1.0, 2.0]))",
        "optax.perturbations.Gumbel().sample(random.key(0), (3,))",
        "optax.perturbations.Gumbel().log_prob(jnp.array([0.0, 1.0]))",
        "optax.perturbations.Normal().sample(random.key(0), (2,), jnp.float16)",
        "optax.perturbations.Normal().log_prob(jnp.array([0.0, 1.0]))",
        "jax.grad(lambda x: jnp.sum(optax.perturbations.make_perturbed_fun(lambda z: jnp.sum(jnp.maximum(z, 0.0)), num_samples=64, sigma=0.5)(random.key(0), x)))(jnp.array([0.5, -1.0]))",
        "optax.second_order.hvp(lambda p, x, y: jnp.sum((x @ p['w'] - y) ** 2), jnp.array([1.0, 0.0]), {'w': jnp.array([0.5, -1.0])}, jnp.array([[1.0, 2.0], [0.0, 1.0]]), jnp.array([1.0, 0.0]))",
        "optax.second_order.hessian_diag(lambda p, x, y: jnp.sum((x @ p['w'] - y) ** 2), {'w': jnp.array([0.5, -1.0])}, jnp.array([[1.0, 2.0], [0.0, 1.0]]), jnp.array([1.0, 0.0]))",
        "optax.second_order.fisher_diag(lambda p, x, y: jnp.sum((x @ p['w'] - y) ** 2), {'w': jnp.array([0.5, -1.0])}, jnp.array([[1.0, 2.0], [0.0, 1.0]]), jnp.array([1.0, 0.0]))",
        "optax.second_order.hessian_diag(lambda p, x, y: jnp.sum(jnp.sin(p['a'] * x) - y), {'a': jnp.array([0.5, 1.0]), }, jnp.array([1.0, 2.0]), jnp.array(0.0))",
        # numerics helpers, update helpers
        "optax.safe_norm(jnp.array([[3.0, 4.0], [0.0, 0.0]]), 1e-2, axis=1, keepdims=True)",
        "optax.safe_norm(jnp.array([3.0, 4.0]), 1e-2, ord=1)",
        "optax.safe_root_mean_squares(jnp.zeros(3), 0.5)",
        "optax.safe_increment(jnp.float32(1.5))",
        "optax.safe_increment(jnp.uint8(255))",
        "optax.safe_int32_increment(jnp.array([0, 2**31 - 1], jnp.int32))",
        "optax.incremental_update(OM_P, OM_T, jnp.float32(0.1))",
        "optax.periodic_update(OM_P, OM_T, jnp.int32(3), 3)",
        "optax.periodic_update(OM_P, OM_T, jnp.int32(4), 3)",
        "optax.apply_updates(OM_P, jax.tree.map(lambda x: x.astype(jnp.float16), OM_T))",
        "optax.apply_updates({'a': jnp.ones(2, jnp.bfloat16)}, {'a': jnp.array([0.001, 0.5])})",
        "optax.global_norm({'a': jnp.ones(2, jnp.bfloat16), 'b': jnp.ones(3)})",
        "optax.scale_gradient({'a': jnp.ones(2)}, 0.5)",
        "jax.grad(lambda x: jnp.sum(optax.scale_gradient(x, 0.25) ** 2))(jnp.array([1.0, 2.0]))",
        "optax.per_example_global_norm_clip([jnp.array([[3.0, 4.0], [0.3, 0.4]]), jnp.array([[0.0], [1.0]])], 1.0)",
        "optax.per_example_layer_norm_clip([jnp.array([[3.0, 4.0], [0.3, 0.4]]), jnp.array([[0.0], [1.0]])], 1.0, use_per_layer_norm_fraction=True)",
        "optax.nnls(jnp.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]]), jnp.array([1.0, -1.0, 0.5]), iters=50)",
        "optax.matrix_inverse_pth_root(jnp.array([[2.0, 0.5], [0.5, 1.0]]), 2)[0]",
        "optax.power_iteration(jnp.array([[2.0, 0.5], [0.5, 1.0]]), num_iters=50)[1]",
    ]


def _errors() -> list[str]:
    return [
        "optax.sgd(0.1).update({'w': jnp.ones((3, 2))}, optax.sgd(0.1).init(OM_P), OM_P)",
        "optax.adam(0.1).update({'w': jnp.ones((3, 2)), 'b': jnp.ones(2), 'x': jnp.ones(())}, optax.adam(0.1).init(OM_P))",
        "optax.adam(0.1).update({'w': jnp.ones((2, 2)), 'b': jnp.ones(2), 's': jnp.ones(())}, optax.adam(0.1).init(OM_P))",
        "optax.adamw(0.1).update(OM_T, optax.adamw(0.1).init(OM_P))",
        "optax.lamb(0.1).update(OM_T, optax.lamb(0.1).init(OM_P))",
        "optax.lars(0.1).update(OM_T, optax.lars(0.1).init(OM_P))",
        "optax.add_decayed_weights(0.1).update(OM_T, optax.add_decayed_weights(0.1).init(OM_P))",
        "optax.keep_params_nonnegative().update(OM_T, optax.EmptyState())",
        "optax.adaptive_grad_clip(0.1).update(OM_T, optax.EmptyState())",
        "optax.scale_by_trust_ratio().update(OM_T, optax.EmptyState())",
        "optax.contrib.sophia(0.1).update(OM_T, optax.contrib.sophia(0.1).init(OM_P), OM_P)",
        "optax.polyak_sgd().update(OM_T, optax.polyak_sgd().init(OM_P), OM_P)",
        "optax.contrib.reduce_on_plateau().update(OM_T, optax.contrib.reduce_on_plateau().init(OM_P))",
        "optax.contrib.momo().update(OM_T, optax.contrib.momo().init(OM_P), OM_P)",
        "optax.scale_by_backtracking_linesearch(5).update(OM_T, optax.scale_by_backtracking_linesearch(5).init(OM_P), OM_P)",
        "optax.apply_updates(OM_P, {'w': jnp.ones((3, 2))})",
        "optax.apply_updates(OM_P, {'w': jnp.ones((2, 3)), 'b': jnp.ones(2), 's': jnp.ones(())})",
        "optax.masked(optax.sgd(0.1), {'w': True}).update(OM_T, optax.masked(optax.sgd(0.1), {'w': True}).init(OM_P))",
        "optax.masked(optax.sgd(0.1), {'w': 1, 'b': 0, 's': 1}).init(OM_P)",
        "optax.multi_transform({'a': optax.sgd(0.1)}, {'w': 'a', 'b': 'a', 's': 'b'}).init(OM_P)",
        "optax.multi_transform({'a': optax.sgd(0.1), 'b': optax.sgd(0.1)}, {'w': 'a'}).init(OM_P)",
        "optax.inject_hyperparams(optax.adam)(learning_rate=0.1, eps_root='x').init(OM_P)",
        "optax.inject_hyperparams(optax.adam)(0.1, 0.9, 0.999, 1e-8, 0.0, None, 3)",
        "optax.chain(optax.adam)",
        "optax.MultiSteps(optax.sgd(0.1), every_k_schedule=1.5).init(OM_P)",
        "optax.piecewise_constant_schedule(1.0, {-1: 0.5})(0)",
        "optax.join_schedules([optax.constant_schedule(1.0)], [2])(3)",
        "optax.join_schedules([optax.constant_schedule(1.0), optax.constant_schedule(0.5)], [])(3)",
        "optax.sgdr_schedule([])(0)",
        "optax.warmup_cosine_decay_schedule(0.0, 1.0, 5, 3)(2)",
        "optax.linear_onecycle_schedule(0, 1.0)(0)",
        "optax.cosine_onecycle_schedule(0, 1.0)(0)",
        "optax.piecewise_interpolate_schedule('quadratic', 1.0, {1: 0.5})(0)",
        "optax.polynomial_schedule(1.0, 0.0, 1, 10)(jnp.array([1.0, 2.0]))",
        "optax.losses.softmax_cross_entropy(jnp.zeros((2, 3)), jnp.zeros((2, 4)))",
        "optax.losses.softmax_cross_entropy_with_integer_labels(jnp.zeros((2, 3)), jnp.zeros((3,), jnp.int32))",
        "optax.losses.sigmoid_binary_cross_entropy(jnp.zeros(3), jnp.zeros(4))",
        "optax.losses.huber_loss(jnp.zeros(3), jnp.zeros(4))",
        "optax.losses.smooth_labels(jnp.array([[0.0, 1.0]]), jnp.array([0.1, 0.2]))",
        "optax.losses.hinge_loss(jnp.zeros(2), jnp.zeros(3))",
        "optax.losses.ctc_loss(jnp.zeros((1, 2, 3)), jnp.zeros((1, 3)), jnp.array([[1]]), jnp.zeros((1, 1)))",
        "optax.losses.ntxent(jnp.ones((3, 2)), jnp.array([0, 0]))",
        "optax.losses.triplet_margin_loss(jnp.ones((2, 3)), jnp.ones((2, 4)), jnp.ones((2, 3)))",
        "optax.losses.dice_loss(jnp.ones((1, 2, 3)), jnp.ones((1, 2, 3)), reduction='max')",
        "optax.tree.norm(OM_P, ord=3)",
        "optax.tree.add(OM_P, OM_T, {'w': 1.0})",
        "optax.tree.get(optax.adam(0.1).init(OM_P), 'nonexistent')",
        "optax.tree.dtype({'a': jnp.ones(2, jnp.float16), 'b': jnp.ones(2)}, 'none')",
        "optax.tree.cast_like(OM_P, {'w': jnp.ones(2)})",
        "optax.projections.projection_box(jnp.ones(3), jnp.ones(2), 2.0)",
        "optax.assignment.hungarian_algorithm(jnp.ones(3))",
        "optax.contrib.muon(0.1, preconditioning='bogus')",
        "optax.contrib.dog(init_step=('nonsense', 1.0))",
        "optax.adafactor(0.1, min_dim_size_to_factor=0).init(OM_P)",
        "optax.rmsprop(0.1, nesterov=True).init(OM_P)",
        "optax.lookahead(optax.sgd(0.1), 0, 0.5)",
        "optax.lookahead(optax.sgd(0.1), 2, 0.5).init(OM_P)",
        "optax.lookahead(optax.sgd(0.1), 2, 0.5).update(OM_T, optax.lookahead(optax.sgd(0.1), 2, 0.5).init(optax.LookaheadParams.init_synced(OM_P)), OM_P)",
        "optax.contrib.sam(optax.sgd(0.1), optax.sgd(0.1), opaque_mode=True).update(OM_T, optax.contrib.sam(optax.sgd(0.1), optax.sgd(0.1), opaque_mode=True).init(OM_P), OM_P)",
        "optax.noisy_sgd(0.1).init(OM_P)",
        "optax.add_noise(0.1, 0.5).init(OM_P)",
        "optax.add_noise(0.1, 0.5, 3)",
        "optax.lbfgs().update(om_grad(OM_P), optax.lbfgs().init(OM_P), OM_P, value=jnp.array(1.0), grad=om_grad(OM_P))",
        "optax.second_order.hvp(lambda p, x, y: jnp.sum(p['w'] * x), {'w': jnp.ones(2)}, {'w': jnp.ones(3)}, jnp.ones(2), jnp.zeros(()))",
    ]


def cases() -> list[str]:
    c = []
    for a in ALIASES:
        c.append(f"om_run(optax.{a})")
    for a in CONTRIB:
        c.append(f"om_run(optax.contrib.{a})")
    for t in TX:
        c.append(f"om_run(optax.{t})")
    for a, dt in DTYPE_RUNS:
        c.append(f"om_run(optax.{a}, dtype={dt}, steps=5)")
    for a in (ALIASES[10], ALIASES[19], ALIASES[32], CONTRIB[4]):
        c.append(
            f"optax.tree.get_all_with_path(om_run(optax.{'contrib.' if a in CONTRIB else ''}{a}, steps=3)[1], 'count')"
        )
    c += [
        f"om_run(optax.{t}, grads=OM_NAN, steps=3)"
        for t in (
            "adam(0.05)",
            "sgd(0.1, momentum=0.9)",
            "chain(optax.zero_nans(), optax.adam(0.05))",
            "chain(optax.clip_by_global_norm(1.0), optax.sgd(0.1))",
            "lion(0.01)",
            "apply_if_finite(optax.lion(0.01), 1)",
            "clip(0.5)",
        )
    ]
    for s in SCHEDULES:
        for step in STEPS:
            c.append(f"({s})({step})")
    c += LOSSES
    c += _tree()
    c += _wrappers_detail()
    c += _misc()
    c += _errors()
    return c
