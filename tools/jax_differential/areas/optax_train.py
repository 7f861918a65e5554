"""Optax's schedules and losses and flax.training (`optax_train`): every schedule over steps,
the losses over logits and labels, TrainState, DynamicScale and EarlyStopping.

Left knowingly (2 of 620): Python names the function in "got multiple values for keyword
argument" by its module and qualified name (`flax.struct.dataclass.<locals>.replace`,
`flax.training.train_state.TrainState`); numbax's live in `core.struct` and `train`.
"""

# ruff: noqa: E501


def cases() -> list[str]:
    o = "optax"
    sched = [
        f"{o}.constant_schedule(0.1)",
        f"{o}.polynomial_schedule(1.0, 0.1, 2.0, 10)",
        f"{o}.polynomial_schedule(1.0, 0.1, 2.0, 0)",
        f"{o}.polynomial_schedule(1.0, 0.1, 2.0, -3)",
        f"{o}.polynomial_schedule(1.0, 0.1, 1, 10, transition_begin=3)",
        f"{o}.polynomial_schedule(1.0, 0.1, 1, 10, transition_begin=-3)",
        f"{o}.linear_schedule(1.0, 0.0, 10)",
        f"{o}.linear_schedule(1, 0, 10)",
        f"{o}.linear_schedule(1.0, 0.0, 0)",
        f"{o}.exponential_decay(1.0, 5, 0.5)",
        f"{o}.exponential_decay(1.0, 5, 0.5, staircase=True)",
        f"{o}.exponential_decay(1.0, 5, 0.5, transition_begin=3, end_value=0.3)",
        f"{o}.exponential_decay(1.0, 5, 2.0, end_value=3.0)",
        f"{o}.exponential_decay(1.0, 0, 0.5)",
        f"{o}.exponential_decay(1.0, -1, 0.5)",
        f"{o}.exponential_decay(1.0, 5, 0.5, transition_begin=-2)",
        f"{o}.exponential_decay(1.0, 5, 0.0)",
        f"{o}.cosine_decay_schedule(1.0, 10)",
        f"{o}.cosine_decay_schedule(1.0, 10, alpha=0.1, exponent=2.0)",
        f"{o}.cosine_decay_schedule(1.0, 0)",
        f"{o}.cosine_decay_schedule(1.0, -5)",
        f"{o}.cosine_decay_schedule(1, 10)",
        f"{o}.warmup_cosine_decay_schedule(0.0, 1.0, 3, 10)",
        f"{o}.warmup_cosine_decay_schedule(0.0, 1.0, 0, 10, end_value=0.1)",
        f"{o}.warmup_cosine_decay_schedule(0.0, 1.0, 10, 10)",
        f"{o}.warmup_cosine_decay_schedule(0.0, 1.0, 12, 10)",
        f"{o}.warmup_cosine_decay_schedule(0.0, 1.0, 3, 10, exponent=0.5)",
        f"{o}.warmup_exponential_decay_schedule(0.0, 1.0, 3, 4, 0.5)",
        f"{o}.warmup_exponential_decay_schedule(0.0, 1.0, 0, 4, 0.5, staircase=True, end_value=0.2)",
        f"{o}.piecewise_constant_schedule(1.0, {{3: 0.5, 6: 0.1}})",
        f"{o}.piecewise_constant_schedule(1.0, {{3: -0.5}})",
        f"{o}.piecewise_constant_schedule(1.0)",
        f"{o}.piecewise_interpolate_schedule('linear', 1.0, {{3: 0.5, 6: 2.0}})",
        f"{o}.piecewise_interpolate_schedule('cosine', 1.0, {{3: 0.5, 6: 2.0}})",
        f"{o}.piecewise_interpolate_schedule('cubic', 1.0, {{3: 0.5}})",
        f"{o}.piecewise_interpolate_schedule('linear', 1.0, {{3: -0.5}})",
        f"{o}.piecewise_interpolate_schedule('linear', 1.0, {{-3: 0.5}})",
        f"{o}.piecewise_interpolate_schedule('linear', 1.0)",
        f"{o}.linear_onecycle_schedule(10, 1.0)",
        f"{o}.linear_onecycle_schedule(10, 1.0, pct_start=0.5, pct_final=0.9)",
        f"{o}.linear_onecycle_schedule(10, 1.0, pct_start=0.9, pct_final=0.5)",
        f"{o}.cosine_onecycle_schedule(10, 1.0)",
        f"{o}.cosine_onecycle_schedule(10, 1.0, pct_start=0.0)",
        f"{o}.sgdr_schedule([dict(init_value=0.0, peak_value=1.0, warmup_steps=2, decay_steps=5), "
        "dict(init_value=0.0, peak_value=0.5, warmup_steps=1, decay_steps=4)])",
        f"{o}.join_schedules([{o}.constant_schedule(1.0), {o}.linear_schedule(1.0, 0.0, 4)], [3])",
        f"{o}.join_schedules([{o}.constant_schedule(1.0)], [])",
        f"{o}.join_schedules([{o}.constant_schedule(1.0), {o}.constant_schedule(2)], [3])",
        f"{o}.warmup_constant_schedule(0.0, 1.0, 4)",
        f"{o}.warmup_constant_schedule(0.0, 1.0, 0)",
    ]
    c = []
    for s in sched:
        for step in (
            "0",
            "3",
            "7",
            "10",
            "25",
            "-2",
            "jnp.int32(5)",
            "jnp.arange(12)",
            "2.5",
            "jnp.array(4.5)",
            "jnp.float16(3)",
        ):
            c.append(f"({s})({step})")
    logits = "jnp.array([[1.0, -jnp.inf, 2.0], [0.0, 0.0, 0.0]])"
    labels = "jnp.array([[0.0, 0.0, 1.0], [0.5, 0.5, 0.0]])"
    L = f"{o}.losses"
    c += [
        f"{L}.softmax_cross_entropy({logits}, {labels})",
        f"{L}.softmax_cross_entropy({logits}, jnp.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]))",
        f"{L}.softmax_cross_entropy({logits}, {labels}, axis=0)",
        f"{L}.softmax_cross_entropy({logits}, {labels}, where=jnp.array([[True, False, True], [True] * 3]))",
        f"{L}.softmax_cross_entropy_with_integer_labels({logits}, jnp.array([2, 0]))",
        f"{L}.softmax_cross_entropy_with_integer_labels({logits}, jnp.array([1, 0]))",
        f"{L}.softmax_cross_entropy_with_integer_labels({logits}, jnp.array([5, -1]))",
        f"{L}.softmax_cross_entropy_with_integer_labels({logits}, jnp.array([2.0, 0.0]))",
        f"{L}.softmax_cross_entropy_with_integer_labels({logits}, jnp.array([1, 0]), axis=0)",
        f"{L}.softmax_cross_entropy_with_integer_labels({logits}, jnp.array([1, 0, 1]), axis=0)",
        f"{L}.softmax_cross_entropy_with_integer_labels({logits}.astype(jnp.float16), jnp.array([2, 0]))",
        f"{L}.safe_softmax_cross_entropy({logits}, {labels})",
        f"{L}.safe_softmax_cross_entropy(jnp.full((2, 3), -jnp.inf), {labels})",
        f"{L}.sigmoid_binary_cross_entropy(jnp.array([-100.0, 0.0, 100.0]), jnp.array([1, 0, 1]))",
        f"{L}.sigmoid_binary_cross_entropy(jnp.array([-100.0, 0.0, 100.0]), jnp.array([1.0, 0.5, 0.0]))",
        f"{L}.sigmoid_binary_cross_entropy(jnp.array([1.0]), jnp.array([1.0, 0.0]))",
        f"{L}.sigmoid_focal_loss(jnp.array([-3.0, 0.0, 3.0]), jnp.array([1.0, 0.0, 1.0]))",
        f"{L}.sigmoid_focal_loss(jnp.array([-3.0, 0.0, 3.0]), jnp.array([1.0, 0.0, 1.0]), alpha=0.25, gamma=0.0)",
        f"{L}.huber_loss(jnp.array([0.0, 1.0, 5.0]), jnp.array([0.5, 0.0, 0.0]), delta=1.0)",
        f"{L}.huber_loss(jnp.array([0.0, 1.0, 5.0]), delta=0.0)",
        f"{L}.huber_loss(jnp.array([0, 1, 5]))",
        f"{L}.l2_loss(jnp.array([1, 2]))",
        f"{L}.l2_loss(jnp.array([1.0, 2.0]), jnp.array([1, 1]))",
        f"{L}.squared_error(jnp.array([1.0, 2.0]), jnp.array([1.0]))",
        f"{L}.squared_error(jnp.array([1.0, 2.0]), jnp.array([1.0, 2.0, 3.0]))",
        f"{L}.log_cosh(jnp.array([0.0, 100.0, -1000.0]))",
        f"{L}.log_cosh(jnp.array([0.0, 100.0], jnp.float16))",
        f"{L}.cosine_similarity(jnp.zeros((2, 3)), jnp.ones((2, 3)))",
        f"{L}.cosine_similarity(jnp.ones((2, 3)), jnp.ones((2, 3)), epsilon=0.5)",
        f"{L}.cosine_distance(jnp.array([1.0, 0.0]), jnp.array([0.0, 1.0]))",
        f"{L}.kl_divergence(jnp.log(jnp.array([0.5, 0.5])), jnp.array([0.0, 1.0]))",
        f"{L}.kl_divergence(jnp.array([-jnp.inf, 0.0]), jnp.array([0.0, 1.0]))",
        f"{L}.kl_divergence(jnp.array([-jnp.inf, 0.0]), jnp.array([0.5, 0.5]))",
        f"{L}.kl_divergence_with_log_targets(jnp.array([-1.0, -0.5]), jnp.array([-jnp.inf, 0.0]))",
        f"{L}.convex_kl_divergence(jnp.array([-1.0, -0.5]), jnp.array([0.2, 0.8]))",
        f"{L}.hinge_loss(jnp.array([0.5, -2.0]), jnp.array([1, -1]))",
        f"{L}.hinge_loss(jnp.array([0.5, -2.0]), jnp.array([1, 0]))",
        f"{L}.multiclass_hinge_loss(jnp.array([[1.0, 2.0, 0.5]]), jnp.array([0]))",
        f"{L}.perceptron_loss(jnp.array([0.5, -2.0]), jnp.array([1, -1]))",
        f"{L}.multiclass_perceptron_loss(jnp.array([[1.0, 2.0, 0.5]]), jnp.array([2]))",
        f"{L}.poly_loss_cross_entropy({logits}, {labels})",
        f"{L}.poly_loss_cross_entropy({logits}, {labels}, epsilon=-1.0)",
        f"{L}.smooth_labels({labels}, 0.1)",
        f"{L}.smooth_labels(jnp.array([[0, 1]]), 0.1)",
        f"{L}.smooth_labels({labels}, 1.5)",
        f"{L}.sigmoid_binary_cross_entropy(jnp.float16(50), jnp.float16(0))",
        f"{L}.safe_softmax_cross_entropy({logits}.astype(jnp.bfloat16), {labels})",
        f"{L}.ranking_softmax_loss(jnp.array([1.0, 2.0, 0.5]), jnp.array([0.0, 1.0, 0.0]))",
        f"{L}.ranking_softmax_loss(jnp.array([1.0, 2.0, 0.5]), jnp.array([0.0, 0.0, 0.0]))",
        f"{L}.ranking_softmax_loss(jnp.array([1.0, 2.0, 0.5]), jnp.array([0.0, 1.0, 1.0]), "
        "where=jnp.array([True, True, False]))",
        f"{L}.ntxent(jnp.eye(4)[:, :3] + 0.1, jnp.array([0, 0, 1, 1]))",
        f"{L}.ntxent(jnp.eye(4)[:, :3] + 0.1, jnp.array([0, 1, 2, 3]))",
        f"{L}.triplet_margin_loss(jnp.ones((2, 3)), jnp.zeros((2, 3)), jnp.ones((2, 3)) * 2)",
        f"{L}.dice_loss(jnp.array([[[1.0, -1.0]]]), jnp.array([[[1.0, 0.0]]]))",
        f"{L}.kl_divergence(jnp.array([0.0]), jnp.array([0.0]))",
        f"{L}.ctc_loss(jnp.zeros((1, 4, 3)), jnp.zeros((1, 4)), jnp.array([[1, 2, 0]]), jnp.zeros((1, 3)))",
        f"{L}.ctc_loss(jnp.zeros((1, 4, 3)), jnp.zeros((1, 4)), jnp.array([[1, 1, 1]]), jnp.zeros((1, 3)))",
        f"{L}.ctc_loss_with_forward_probs(jnp.zeros((1, 2, 3)), jnp.zeros((1, 2)), jnp.array([[1]]), "
        "jnp.zeros((1, 1)))[0]",
        f"{L}.sparsemax_loss(jnp.array([1.0, 2.0, 0.5]), jnp.array([0.0, 1.0, 0.0]))",
        f"{L}.make_fenchel_young_loss(lambda z: jnp.sum(z ** 2) / 2)(jnp.array([1.0, 2.0]), jnp.array([0.0, 1.0]))",
    ]
    c += [
        "flax.training.common_utils.onehot(jnp.array([0, 2, 5]), 3)",
        "flax.training.common_utils.onehot(jnp.array([0, 2]), 3, on_value=2.0, off_value=-1.0)",
        "flax.training.common_utils.onehot(jnp.array([[0, 2]]), 3)",
        "flax.training.common_utils.onehot(jnp.array([0.0, 2.0]), 3)",
        "flax.training.common_utils.get_metrics([{'a': jnp.array(1.0)}, {'a': jnp.array(2.0)}])",
        "flax.training.common_utils.stack_forest([{'a': 1}, {'a': 2}])",
        "n = jax.local_device_count()\nx = flax.training.common_utils.shard(jnp.arange(6 * n).reshape(6 * n, 1))\nout = (x.shape == (n, 6, 1), x.reshape(-1)[:6], x.dtype)",
        "n = jax.local_device_count()\nx = flax.training.common_utils.shard({'a': jnp.arange(5 * n), 'b': np.ones((n, 2))})\nout = jax.tree.map(lambda v: (v.shape[0] == n, v.shape[1:], v.dtype), x)",
        "n = jax.local_device_count()\nk = flax.training.common_utils.shard_prng_key(K1)\nout = (k.shape == (n, 2), k.dtype, (k == random.split(K1, n)).all())",
        "n = jax.local_device_count()\nk = flax.training.common_utils.shard_prng_key(K0)\nout = (k.shape == (n,), k.dtype, (random.key_data(k) == random.key_data(random.split(K0, n))).all())",
        """
st = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)},
                                                 tx=optax.sgd(0.1))
st2 = st.apply_gradients(grads={'w': jnp.array([1.0, 2.0])})
out = st2.step, st2.params, st2.opt_state, type(st2).__name__
""",
        """
st = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)},
                                                 tx=optax.adam(0.1))
st2 = st.apply_gradients(grads={'w': jnp.array([1.0, 2.0])}, step=7)
out = st2.step, st2.params
""",
        """
st = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)},
                                                 tx=optax.sgd(0.1))
out = st.apply_gradients(grads={'v': jnp.array([1.0, 2.0])})
""",
        """
st = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)},
                                                 tx=optax.sgd(0.1), opt_state=5)
out = st.opt_state
""",
        """
st = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)},
                                                 tx=optax.sgd(0.1))
out = jtu.tree_leaves(st), repr(jtu.tree_structure(st)).split('[')[0]
""",
        "flax.training.dynamic_scale.DynamicScale().scale",
        """
ds = flax.training.dynamic_scale.DynamicScale()
fn = ds.value_and_grad(lambda p: jnp.sum(p ** 2))
ds2, finite, v, g = fn(jnp.array([1.0, jnp.inf]))
out = ds2.scale, ds2.fin_steps, finite, v, g
""",
        """
ds = flax.training.dynamic_scale.DynamicScale(growth_interval=1)
fn = ds.value_and_grad(lambda p: jnp.sum(p ** 2))
ds2, finite, v, g = fn(jnp.array([1.0, 2.0]))
out = ds2.scale, ds2.fin_steps, finite, v, g
""",
        "flax.training.early_stopping.EarlyStopping(min_delta=0.1, patience=1).update(1.0)",
        """
es = flax.training.early_stopping.EarlyStopping(min_delta=0.1, patience=1)
for v in (1.0, 0.95, 0.97, 0.5):
    es = es.update(v)
out = es.best_metric, es.patience_count, es.should_stop, es.has_improved
""",
        "flax.training.common_utils.onehot(jnp.array([1]), 2, dtype=jnp.int8)",
    ]
    return c
