"""Optax and Flax names no other area calls (session 35's survey): optax.contrib's scale_by_acprop,
scale_by_ademamix, scale_by_adopt, scale_by_cocob, scale_by_madgrad, scale_by_simplified_ademamix
and scale_by_galore run for a few steps (states and their types included); measure_with_ema,
init_empty_state, with_extra_args_support, update_infinity_moment; the losses convex_kl_divergence,
cosine_distance, hinge_loss, binary_dice_loss and multiclass_generalized_dice_loss; the
tree_utils moment, bias-correction, cast, dtype, conj/real, random and key helpers; the
projections onto spheres, hyperplanes, hypercubes and balls; the state classes by name; Flax's
linen ones/zeros/normalize, serialization's current_path/is_serializable, traverse_util's
traversals and ModelParamTraversal, train_state's OVERWRITE_WITH_GRADIENT; with float16 and
bfloat16 parameters, jit and the usual mistakes.
"""

# ruff: noqa: E501

PRELUDE = """
UO_P = {'w': jnp.array([[0.5, -1.0], [2.0, 0.25]]), 'b': jnp.array([0.1, -0.3])}
def uo_grad(p):
    return jax.tree.map(lambda x: (x - 0.5 * jnp.sign(x) + 0.2 * x ** 2).astype(x.dtype), p)
def uo_run(tx, steps=5, params=None, dtype=None, **kw):
    params = UO_P if params is None else params
    if dtype is not None:
        params = jax.tree.map(lambda x: x.astype(dtype), params)
    st = tx.init(params)
    for _ in range(steps):
        u, st = tx.update(uo_grad(params), st, params, **kw)
        params = optax.apply_updates(params, u)
    return params, st
"""


def _contrib() -> list[str]:
    c = []
    txs = (
        "optax.contrib.scale_by_acprop()",
        "optax.contrib.scale_by_acprop(b1=0.8, b2=0.99, eps=1e-8)",
        "optax.contrib.scale_by_ademamix()",
        "optax.contrib.scale_by_ademamix(b3=0.999, alpha=5.0, mu_dtype=jnp.bfloat16)",
        "optax.contrib.scale_by_ademamix(b3=optax.linear_schedule(0.9, 0.999, 3), alpha=optax.linear_schedule(0.0, 5.0, 3))",
        "optax.contrib.scale_by_adopt()",
        "optax.contrib.scale_by_adopt(nesterov=True)",
        "optax.contrib.scale_by_adopt(use_clipping=False, b2=0.99)",
        "optax.contrib.scale_by_adopt(clip_value_fn=lambda c: 0.5 * c ** 0.25)",
        "optax.contrib.scale_by_cocob()",
        "optax.contrib.scale_by_cocob(alpha=10.0, eps=1e-6)",
        "optax.contrib.scale_by_madgrad(0.01)",
        "optax.contrib.scale_by_madgrad(optax.linear_schedule(0.01, 0.001, 3), momentum=0.0)",
        "optax.contrib.scale_by_simplified_ademamix()",
        "optax.contrib.scale_by_simplified_ademamix(b1=0.9, b2=0.99, alpha=2.0)",
        "optax.chain(optax.contrib.scale_by_adopt(), optax.scale(-0.1))",
        "optax.chain(optax.contrib.scale_by_acprop(), optax.scale_by_learning_rate(0.05))",
        "optax.contrib.ademamix(0.01)",
        "optax.contrib.simplified_ademamix(0.01)",
        "optax.contrib.adopt(0.01)",
        "optax.contrib.acprop(0.01)",
        "optax.contrib.cocob()",
        "optax.contrib.madgrad(0.01)",
    )
    for tx in txs:
        c.append(f"uo_run({tx})")
    for tx in txs[:12:2]:
        c.append(f"uo_run({tx}, dtype=jnp.bfloat16)")
        c.append(f"uo_run({tx}, dtype=jnp.float16)[0]")
        c.append(f"type(({tx}).init(UO_P)).__name__")
        c.append(f"jax.jit(lambda p: uo_run({tx}, steps=2, params=p)[0])(UO_P)")
    c += [
        "optax.contrib.scale_by_ademamix(b3=2.0)",
        "uo_run(optax.contrib.scale_by_madgrad(0.01), params={'w': jnp.array([1, 2])})",
        "optax.contrib.scale_by_galore(rank=1, update_proj_gap=2).init({'w': jnp.ones((4, 3))})",
        "uo_run(optax.contrib.scale_by_galore(rank=1, update_proj_gap=2), params={'w': jnp.arange(12.0).reshape(4, 3) / 10, 'b': jnp.ones(3)})[0]",
        "uo_run(optax.contrib.galore(0.01, rank=2, update_proj_gap=3), params={'w': jnp.arange(12.0).reshape(4, 3) / 10})[0]",
    ]
    return c


def _transforms_and_losses() -> list[str]:
    return [
        "optax.init_empty_state(UO_P)",
        "optax.init_empty_state(None)",
        "type(optax.with_extra_args_support(optax.sgd(0.1))).__name__",
        "uo_run(optax.with_extra_args_support(optax.sgd(0.1)), loss=1.0)[0]",
        "optax.with_extra_args_support(optax.with_extra_args_support(optax.adam(0.1))).update(uo_grad(UO_P), optax.adam(0.1).init(UO_P), UO_P, foo=3)[0]",
        "tx = optax.measure_with_ema(lambda u: jax.tree.map(lambda x: jnp.abs(x).sum(), u), 0.9)\nout = uo_run(tx)",
        "tx = optax.measure_with_ema(lambda u: optax.global_norm(u), 0.5, debias=False)\nout = uo_run(tx)",
        "tx = optax.measure_with_ema(lambda u: optax.global_norm(u), 0.5, accumulator_dtype=jnp.bfloat16)\nout = uo_run(tx)",
        "optax.update_infinity_moment(uo_grad(UO_P), jax.tree.map(jnp.zeros_like, UO_P), 0.9, 1e-8)",
        "optax.update_infinity_moment({'a': jnp.array([1.0, -3.0])}, {'a': jnp.array([2.0, 2.0])}, 0.5, 0.0)",
        "optax.convex_kl_divergence(jnp.log(jnp.array([0.2, 0.3, 0.5])), jnp.array([0.1, 0.6, 0.3]))",
        "optax.convex_kl_divergence(jnp.log(jnp.array([[0.2, 0.8], [0.5, 0.5]])), jnp.array([[0.0, 1.0], [0.5, 0.5]]), axis=0)",
        "optax.convex_kl_divergence(jnp.log(jnp.array([0.2, 0.8])), jnp.array([0.3, 0.7]), where=jnp.array([True, False]))",
        "optax.convex_kl_divergence(jnp.array([-1.0, -2.0], jnp.float16), jnp.array([0.5, 0.5], jnp.float16))",
        "jax.grad(optax.convex_kl_divergence)(jnp.log(jnp.array([0.2, 0.8])), jnp.array([0.3, 0.7]))",
        "optax.cosine_distance(jnp.array([1.0, 0.0, 1.0]), jnp.array([0.5, 0.5, 0.0]))",
        "optax.cosine_distance(jnp.array([[1.0, 2.0], [0.0, 0.0]]), jnp.array([[2.0, 4.0], [1.0, 1.0]]))",
        "optax.cosine_distance(jnp.array([[1.0, 2.0], [0.0, 0.0]]), jnp.array([[2.0, 4.0], [1.0, 1.0]]), epsilon=1e-3)",
        "optax.cosine_distance(jnp.array([[1.0, 2.0], [3.0, 1.0]]), jnp.array([[2.0, 4.0], [1.0, 1.0]]), axis=0)",
        "optax.cosine_distance(jnp.array([1.0, 2.0, 3.0]), jnp.array([1.0, -1.0, 2.0]), where=jnp.array([True, True, False]))",
        "optax.cosine_distance(jnp.array([1, 2]), jnp.array([2, 1]))",
        "jax.grad(lambda p: optax.cosine_distance(p, jnp.array([1.0, 0.0])))(jnp.array([0.5, 0.5]))",
        "optax.cosine_distance(jnp.ones(2), jnp.ones(3))",
        "optax.hinge_loss(jnp.array([0.5, -2.0, 3.0, 0.0]), jnp.array([1, -1, -1, 1]))",
        "optax.hinge_loss(jnp.array([[0.5], [-0.2]]), jnp.array([[1.0], [1.0]]))",
        "optax.hinge_loss(jnp.array([0.5, -0.5], jnp.float16), jnp.array([1, -1]))",
        "optax.hinge_loss(2.0, -1)",
        "jax.grad(lambda s: optax.hinge_loss(s, jnp.array([1.0, -1.0])).sum())(jnp.array([0.5, -2.0]))",
        "optax.losses.binary_dice_loss(jnp.array([[2.0, -1.0, 0.5, -3.0]]), jnp.array([[1.0, 0.0, 1.0, 0.0]]))",
        "optax.losses.binary_dice_loss(jnp.array([[0.9, 0.1], [0.2, 0.8]]), jnp.array([[1.0, 0.0], [0.0, 1.0]]), apply_sigmoid=False, smooth=0.0)",
        "optax.losses.binary_dice_loss(jnp.zeros((2, 3, 3)), jnp.ones((2, 3, 3)))",
        "optax.losses.binary_dice_loss(jnp.array([1.0, -1.0]), jnp.array([1.0, 0.0]))",
        "jax.grad(lambda x: optax.losses.binary_dice_loss(x, jnp.array([[1.0, 0.0]])).sum())(jnp.array([[0.3, -0.4]]))",
        "optax.losses.multiclass_generalized_dice_loss(jnp.array([[[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]]]), jnp.array([[[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]]))",
        "optax.losses.multiclass_generalized_dice_loss(jnp.array([[[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]]]), jnp.array([[[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]]), ignore_background=True)",
        "optax.losses.multiclass_generalized_dice_loss(jnp.array([[[0.7, 0.3], [0.4, 0.6]]]), jnp.array([[[1.0, 0.0], [0.0, 1.0]]]), apply_softmax=False, smooth=0.5)",
        "optax.losses.multiclass_generalized_dice_loss(jnp.ones((1, 3)), jnp.ones((1, 3)))",
        "optax.losses.dice_loss(jnp.array([[[2.0, 0.5], [0.1, 0.2]]]), jnp.array([[[1.0, 0.0], [0.0, 1.0]]]))",
    ]


def _tree_utils() -> list[str]:
    t = "optax.tree_utils"
    g = "uo_grad(UO_P)"
    z = "jax.tree.map(jnp.zeros_like, UO_P)"
    return [
        f"{t}.tree_update_moment({g}, {z}, 0.9, 1)",
        f"{t}.tree_update_moment({g}, {z}, 0.999, 2)",
        f"{t}.tree_update_moment({{'a': jnp.array([1.0 + 1j])}}, {{'a': jnp.array([0j])}}, 0.9, 2)",
        f"{t}.tree_update_moment({{'a': jnp.array([1.0, 2.0], jnp.bfloat16)}}, {{'a': jnp.zeros(2, jnp.float32)}}, 0.9, 1)",
        f"{t}.tree_update_moment({{'a': jnp.array([1.0]), 'n': None}}, {{'a': jnp.array([0.5]), 'n': None}}, 0.5, 1)",
        f"{t}.tree_update_moment_per_elem_norm({g}, {z}, 0.999, 2)",
        f"{t}.tree_update_moment_per_elem_norm({{'a': jnp.array([1.0 + 1j, -2j])}}, {{'a': jnp.zeros(2)}}, 0.9, 2)",
        f"{t}.tree_update_moment_per_elem_norm({g}, {z}, 0.9, 3)",
        f"{t}.tree_update_infinity_moment({g}, {z}, 0.9, 1e-8)",
        f"{t}.tree_update_infinity_moment({{'a': jnp.array([-3.0, 0.5])}}, {{'a': jnp.array([1.0, 1.0])}}, 0.5, 0.0)",
        f"{t}.tree_bias_correction({g}, 0.9, jnp.int32(1))",
        f"{t}.tree_bias_correction({g}, 0.999, 10)",
        f"{t}.tree_bias_correction({{'a': jnp.array([1.0], jnp.bfloat16)}}, 0.9, jnp.int32(3))",
        f"{t}.tree_bias_correction({g}, 0.9, jnp.int32(0))",
        f"{t}.tree_cast_like({{'a': jnp.array([1.5]), 'b': jnp.array([2])}}, {{'a': jnp.zeros(1, jnp.bfloat16), 'b': jnp.zeros(1, jnp.float32)}})",
        f"{t}.tree_cast_like([jnp.array([1.7])], [jnp.zeros(1, jnp.int8)])",
        f"{t}.tree_cast_like({{'a': jnp.ones(1)}}, {{'b': jnp.ones(1)}})",
        f"{t}.tree_dtype({{'a': jnp.ones(2), 'b': jnp.ones(2, jnp.bfloat16)}})",
        f"{t}.tree_dtype({{'a': jnp.ones(2), 'b': jnp.ones(2, jnp.bfloat16)}}, 'promote')",
        f"{t}.tree_dtype({{'a': jnp.ones(2), 'b': jnp.ones(2, jnp.bfloat16)}}, 'lowest')",
        f"{t}.tree_dtype({{'a': jnp.ones(2), 'b': jnp.ones(2)}}, 'identical')",
        f"{t}.tree_dtype({{'a': jnp.ones(2), 'b': jnp.ones(2, jnp.int8)}}, 'identical')",
        f"{t}.tree_dtype({{'a': jnp.ones(2), 'b': jnp.ones(2, jnp.int8)}}, 'bad')",
        f"{t}.tree_dtype({{}})",
        f"{t}.tree_conj({{'a': jnp.array([1 + 2j]), 'b': jnp.array([3.0])}})",
        f"{t}.tree_real({{'a': jnp.array([1 + 2j]), 'b': jnp.array([3.0])}})",
        f"{t}.tree_allclose({g}, {g})",
        f"{t}.tree_allclose({{'a': jnp.array([1.0])}}, {{'a': jnp.array([1.0 + 1e-6])}})",
        f"{t}.tree_allclose({{'a': jnp.array([1.0])}}, {{'a': jnp.array([1.1])}}, rtol=0.2)",
        f"{t}.tree_allclose({{'a': jnp.array([jnp.nan])}}, {{'a': jnp.array([jnp.nan])}}, equal_nan=True)",
        f"{t}.tree_allclose({{'a': jnp.array([jnp.nan])}}, {{'a': jnp.array([jnp.nan])}})",
        f"{t}.tree_allclose({{'a': jnp.ones(1)}}, {{'b': jnp.ones(1)}})",
        f"{t}.tree_random_like(K0, UO_P)",
        f"{t}.tree_random_like(K1, UO_P, sampler=random.uniform)",
        f"{t}.tree_random_like(K0, UO_P, dtype=jnp.bfloat16)",
        f"{t}.tree_random_like(K0, {{'a': jnp.ones(2, jnp.float16)}})",
        f"{t}.tree_split_key_like(K0, UO_P)",
        f"{t}.tree_split_key_like(K1, [1, (2, 3)])",
        f"jax.random.key_data({t}.tree_split_key_like(K0, {{'x': 1}})['x'])",
        f"{t}.NamedTupleKey('ScaleByAdamState', 'mu')",
        f"{t}.tree_get_all_with_path(optax.adam(0.1).init(UO_P), 'mu')[0][0]",
        f"{t}.tree_get_all_with_path(optax.adam(0.1).init(UO_P), 'count')",
        f"{t}.NamedTupleKey('ScaleByAdamState', 'mu') == {t}.NamedTupleKey('ScaleByAdamState', 'mu')",
    ]


def _projections() -> list[str]:
    pj = "optax.projections"
    x = "jnp.array([0.5, -2.0, 3.0])"
    return [
        f"{pj}.projection_l1_sphere({x})",
        f"{pj}.projection_l1_sphere({x}, scale=2.0)",
        f"{pj}.projection_l1_sphere({{'a': {x}, 'b': jnp.array([1.0])}})",
        f"{pj}.projection_l2_sphere({x})",
        f"{pj}.projection_l2_sphere({x}, 0.5)",
        f"{pj}.projection_l2_sphere({{'a': {x}, 'b': jnp.array([1.0])}}, scale=3.0)",
        f"{pj}.projection_l2_sphere(jnp.zeros(3))",
        f"{pj}.projection_linf_ball({x})",
        f"{pj}.projection_linf_ball({x}, scale=2.5)",
        f"{pj}.projection_linf_ball({{'a': {x}}}, 0.1)",
        f"{pj}.projection_hypercube({x})",
        f"{pj}.projection_hypercube({x}, scale=2.0)",
        f"{pj}.projection_hypercube({{'a': {x}, 'b': -{x}}}, 0.5)",
        f"{pj}.projection_hyperplane({x}, jnp.array([1.0, 1.0, 1.0]), 1.0)",
        f"{pj}.projection_hyperplane({{'a': {x}}}, {{'a': jnp.array([0.0, 2.0, 0.0])}}, -1.0)",
        f"{pj}.projection_vector({x}, jnp.array([1.0, 0.0, 1.0]))",
        f"{pj}.projection_vector({{'a': {x}, 'b': jnp.ones(2)}}, {{'a': jnp.ones(3), 'b': jnp.array([1.0, -1.0])}})",
        f"{pj}.projection_l2_sphere({x}.astype(jnp.bfloat16))",
        f"{pj}.projection_l1_sphere({x}.astype(jnp.float16))",
        f"{pj}.projection_linf_ball(jnp.array([1, 5, -7]), 2)",
        f"jax.jit({pj}.projection_l1_sphere)({x})",
        f"jax.grad(lambda v: {pj}.projection_l2_sphere(v).sum())({x})",
        f"jax.vmap({pj}.projection_l2_sphere)(jnp.arange(6.0).reshape(2, 3) + 1)",
    ]


def _state_classes() -> list[str]:
    names = (
        "AdaptiveGradClipState",
        "AddDecayedWeightsState",
        "ApplyIfFiniteState",
        "ClipByGlobalNormState",
        "ClipState",
        "ConditionallyMaskState",
        "ConditionallyTransformState",
        "InjectHyperparamsState",
        "LookaheadState",
        "MaskedState",
        "MonitorState",
        "MultiTransformState",
        "NonNegativeParamsState",
        "PartitionState",
        "ScaleByAdanState",
        "ScaleByBacktrackingLinesearchState",
        "ScaleByLBFGSState",
        "ScaleByRpropState",
        "ScaleByScheduleState",
        "ScaleByTrustRatioState",
        "ScaleByZoomLinesearchState",
        "ScaleState",
        "SnapshotState",
        "ZoomLinesearchInfo",
        "ApplyEvery",
    )
    c = [f"optax.{n}._fields" for n in names]
    c += [
        "isinstance(optax.clip(1.0).init(UO_P), optax.ClipState)",
        "isinstance(optax.clip_by_global_norm(1.0).init(UO_P), optax.ClipByGlobalNormState)",
        "isinstance(optax.apply_if_finite(optax.sgd(0.1), 3).init(UO_P), optax.ApplyIfFiniteState)",
        "isinstance(optax.lookahead(optax.sgd(0.1), 2, 0.5).init(optax.LookaheadParams.init_synced(UO_P)), optax.LookaheadState)",
        "isinstance(optax.masked(optax.sgd(0.1), {'w': True, 'b': False}).init(UO_P), optax.MaskedState)",
        "isinstance(optax.scale_by_schedule(optax.constant_schedule(0.1)).init(UO_P), optax.ScaleByScheduleState)",
        "isinstance(optax.scale_by_trust_ratio().init(UO_P), optax.ScaleByTrustRatioState)",
        "isinstance(optax.scale_by_rprop(0.1).init(UO_P), optax.ScaleByRpropState)",
        "isinstance(optax.inject_hyperparams(optax.adam)(learning_rate=0.1).init(UO_P), optax.InjectHyperparamsState)",
        "isinstance(optax.add_decayed_weights(0.1).init(UO_P), optax.AddDecayedWeightsState)",
        "isinstance(optax.keep_params_nonnegative().init(UO_P), optax.NonNegativeParamsState)",
        "isinstance(optax.scale_by_lbfgs().init(UO_P), optax.ScaleByLBFGSState)",
        "isinstance(optax.scale_by_adan().init(UO_P), optax.ScaleByAdanState)",
        "isinstance(optax.scale(0.5).init(UO_P), optax.ScaleState)",
        "isinstance(optax.multi_transform({'a': optax.sgd(0.1), 'b': optax.adam(0.1)}, {'w': 'a', 'b': 'b'}).init(UO_P), optax.MultiTransformState)",
        "isinstance(optax.partition({'a': optax.sgd(0.1), 'b': optax.adam(0.1)}, {'w': 'a', 'b': 'b'}).init(UO_P), optax.PartitionState)",
        "isinstance(optax.contrib.scale_by_adopt().init(UO_P), optax.contrib.ScaleByAdoptState) if hasattr(optax.contrib, 'ScaleByAdoptState') else type(optax.contrib.scale_by_adopt().init(UO_P)).__name__",
        "[type(s).__name__ for s in optax.contrib.ademamix(0.1).init(UO_P)]",
        "type(optax.contrib.cocob().init(UO_P)).__name__",
        "type(optax.contrib.madgrad(0.1).init(UO_P)).__name__",
        "optax.contrib.COCOBState._fields, optax.contrib.MadgradState._fields, optax.contrib.ScaleByAdemamixState._fields",
        "optax.contrib.ScaleBySimplifiedAdEMAMixState._fields, optax.contrib.MomoState._fields, optax.contrib.ProdigyState._fields",
        "optax.contrib.DoGState._fields, optax.contrib.DoWGState._fields, optax.contrib.MechanicState._fields, optax.contrib.SAMState._fields",
        "optax.contrib.ReduceLROnPlateauState._fields, optax.contrib.ScheduleFreeState._fields, optax.contrib.SophiaState._fields",
        "optax.contrib.MuonState._fields, optax.contrib.NormalizeState._fields, optax.contrib.DAdaptAdamWState._fields",
        "optax.contrib.MomoAdamState._fields, optax.contrib.DifferentiallyPrivateAggregateState._fields, optax.contrib.SplitRealAndImaginaryState._fields",
        "optax.contrib.GaLoreState._fields, optax.contrib.HutchinsonState._fields",
        "optax.ScaleByAdamState(count=jnp.zeros([], jnp.int32), mu=UO_P, nu=UO_P)",
        "optax.ScaleByAdamState(count=jnp.zeros([], jnp.int32), mu=UO_P, nu=UO_P)._replace(count=jnp.int32(3)).count",
        "optax.adam(0.1).update(uo_grad(UO_P), (optax.ScaleByAdamState(jnp.int32(2), UO_P, UO_P), optax.EmptyState()), UO_P)[0]",
        "optax.TraceState(trace=UO_P)",
        "optax.EmaState(count=jnp.int32(0), ema=UO_P)",
        "optax.ScaleByLionState(count=jnp.int32(0), mu=UO_P)._fields",
        "optax.ScaleByRmsState(nu=UO_P)",
        "optax.ScaleByRssState(sum_of_squares=UO_P)._fields",
        "optax.ScaleByAmsgradState._fields, optax.ScaleByBeliefState._fields, optax.ScaleByNovogradState._fields",
        "optax.ScaleByAdaDeltaState._fields, optax.ScaleByRStdDevState._fields, optax.ScaleBySM3State._fields",
        "optax.ZeroNansState._fields, optax.MultiStepsState._fields, optax.FactoredState._fields, optax.AddNoiseState._fields",
        "optax.ConditionallyMaskState._fields, optax.ConditionallyTransformState._fields, optax.MonitorState._fields",
        "jax.tree.leaves(optax.ScaleByAdamState(jnp.int32(1), UO_P, UO_P))",
        "jax.tree.map(lambda x: x * 0, optax.adamw(0.1).init(UO_P))",
        "optax.tree_utils.tree_get(optax.adam(0.1).init(UO_P), 'count')",
        "optax.tree_utils.tree_set(optax.adam(0.1).init(UO_P), count=jnp.int32(7))[0].count",
        "optax.tree_utils.tree_get(optax.inject_hyperparams(optax.adam)(learning_rate=0.1).init(UO_P), 'learning_rate')",
        "optax.tree_utils.tree_set(optax.inject_hyperparams(optax.adam)(learning_rate=0.1).init(UO_P), learning_rate=0.5).hyperparams",
        "optax.tree_utils.tree_get(optax.adam(0.1).init(UO_P), 'missing', default=-1)",
        "optax.tree_utils.tree_get(optax.chain(optax.adam(0.1), optax.adam(0.2)).init(UO_P), 'count')",
    ]
    return c


def _flax() -> list[str]:
    tu = "flax.traverse_util"
    return [
        "fnn.ones(K0, (2, 3))",
        "fnn.zeros(K0, (2,), jnp.int8)",
        "fnn.ones(K0, (2, 2), jnp.bfloat16)",
        "fnn.Dense(2, kernel_init=fnn.ones, bias_init=fnn.zeros).init(K0, jnp.ones((1, 3)))",
        "fnn.normalize(jnp.array([[1.0, 2.0, 3.0], [0.0, 0.0, 6.0]]))",
        "fnn.normalize(jnp.array([[1.0, 2.0, 3.0]]), axis=0)",
        "fnn.normalize(jnp.array([1.0, 2.0, 3.0]), mean=2.0, variance=4.0)",
        "fnn.normalize(jnp.array([1.0, 2.0, 3.0], jnp.float16))",
        "fnn.normalize(jnp.array([1.0, 2.0, 3.0]), epsilon=1.0)",
        "fnn.standardize(jnp.array([[1.0, 2.0, 3.0]]))",
        "flax.training.train_state.OVERWRITE_WITH_GRADIENT",
        "flax.serialization.is_serializable(1)",
        "flax.serialization.is_serializable(flax.training.train_state.TrainState.create(apply_fn=None, params=UO_P, tx=optax.sgd(0.1)))",
        "flax.serialization.is_serializable(fnn.Dense(2))",
        "flax.serialization.current_path()",
        "flax.serialization.MAX_CHUNK_SIZE",
        "flax.serialization.msgpack_restore(flax.serialization.msgpack_serialize({'a': jnp.arange(3), 'b': {'c': jnp.ones(2, jnp.bfloat16)}}))",
        "flax.serialization.from_bytes(UO_P, flax.serialization.to_bytes(jax.tree.map(lambda x: x * 2, UO_P)))",
        f"{tu}.TraverseItem('w').update(lambda x: x * 2, UO_P)",
        f"list({tu}.TraverseItem('b').iterate(UO_P))",
        f"{tu}.TraverseItem('w').set([jnp.zeros(2)], UO_P)",
        f"({tu}.TraverseItem('w') + {tu}.TraverseItem('b')).update(jnp.negative, UO_P)",
        f"list({tu}.TraverseId().iterate(3))",
        f"list({tu}.t_identity.iterate([1, 2]))",
        f"list({tu}.t_identity.each().iterate([1, 2]))",
        f"{tu}.t_identity.each().update(lambda x: x + 1, [1, 2])",
        f"list({tu}.t_identity.tree().iterate({{'a': [1, 2], 'b': 3}}))",
        f"{tu}.t_identity.tree().update(lambda x: x * 10, {{'a': [1, 2], 'b': 3}})",
        f"list({tu}.t_identity.each().filter(lambda x: x > 1).iterate([1, 2, 3]))",
        f"{tu}.t_identity.each().filter(lambda x: x > 1).update(lambda x: -x, [1, 2, 3])",
        f"list({tu}.TraverseAttr('x').iterate(Pt(1, 2)))",
        f"{tu}.TraverseAttr('x').update(lambda v: v * 5, Pt(1, 2))",
        f"{tu}.t_identity['w'].update(lambda x: x + 1, UO_P)",
        f"list({tu}.TraverseMerge(({tu}.TraverseItem(0), {tu}.TraverseItem(2))).iterate([7, 8, 9]))",
        f"list({tu}.TraverseCompose({tu}.TraverseItem('w'), {tu}.TraverseItem(0)).iterate(UO_P))",
        f"{tu}.ModelParamTraversal(lambda path, _: 'w' in path).update(lambda x: x * 0, {{'params': UO_P}})",
        f"list({tu}.ModelParamTraversal(lambda path, v: path.endswith('b')).iterate({{'params': UO_P}}))",
        f"{tu}.path_aware_map(lambda path, x: x.sum() if 'w' in path else x, UO_P)",
        f"{tu}.flatten_dict({{'a': {{'b': 1, 'c': {{}}}}}}, keep_empty_nodes=True)",
        f"{tu}.flatten_dict({{'a': {{'b': 1}}}}, sep='/', is_leaf=lambda path, x: path == ('a',))",
        f"{tu}.unflatten_dict({{'a/b': 1, 'a/c': 2}}, sep='/')",
        f"{tu}.empty_node",
        f"{tu}.flatten_dict({{'a': {{}}}})",
        "flax.core.frozen_dict.FrozenDict({'a': 1, 'b': 2}).keys()",
        "list(flax.core.frozen_dict.FrozenDict({'a': 1, 'b': 2}).values())",
        "type(flax.core.frozen_dict.FrozenDict({'a': 1}).keys()).__name__",
        "repr(flax.core.frozen_dict.FrozenDict({'a': 1, 'b': {'c': 2}}).keys())",
    ]


def cases() -> list[str]:
    return (
        _contrib()
        + _transforms_and_losses()
        + _tree_utils()
        + _projections()
        + _state_classes()
        + _flax()
    )
