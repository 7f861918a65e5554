"""Flax and Optax as training programs use them (`flax_optax_usage`): layer stacks under
nn.scan / nn.vmap / nn.remat with their parameter trees and values, BatchNorm and Dropout with
mutable collections and RNG streams through init, apply and a train step, nn.share_scope,
bind/unbind, sow and capture_intermediates, partitioning metadata (with_partitioning,
Partitioned, unbox, get_partition_spec, logical rules); Optax chains, multi_transform,
masked, inject_hyperparams, MultiSteps and apply_if_finite run for a few steps with real
hyperparameters on a small regression, schedules at and around their boundaries (Python ints
and int arrays); flax.serialization round trips (bytes, state dicts, optimizer states) and
flax.traverse_util. The cases of `flax_lifted`, `flax_training`, `flax_utils` and the optax
areas are not repeated. Partition specs are compared by their text (`u_spec`), but for one
case that shows the class.

Left knowingly (1 of 419): `from_state_dict` of `Partitioned` boxes from an unboxed state
dict is Flax's incidental TypeError ("Array.__contains__: unsupported operand type"), numbax's
StateDictMismatchError (a ValueError) names the mismatch.
"""

# ruff: noqa: E501

PRELUDE = """
import importlib
TU = importlib.import_module(flax.__name__ + '.traverse_util')
SER = flax.serialization
class UMlp(fnn.Module):
    hidden: int = 4
    out: int = 2
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(self.out, name='head')(fnn.gelu(fnn.Dense(self.hidden, name='body')(x)))
class UBlock(fnn.Module):
    @fnn.compact
    def __call__(self, x, _):
        y = fnn.Dense(x.shape[-1], kernel_init=fnn.initializers.orthogonal())(x)
        return x + jnp.tanh(y), None
class UNormBlock(fnn.Module):
    @fnn.compact
    def __call__(self, x, _):
        y = fnn.BatchNorm(use_running_average=False, momentum=0.9)(fnn.Dense(x.shape[-1])(x))
        return x + fnn.relu(y), None
class UDropBlock(fnn.Module):
    rate: float = 0.25
    @fnn.compact
    def __call__(self, x, _):
        y = fnn.Dropout(self.rate, deterministic=False)(fnn.Dense(x.shape[-1])(x))
        return x + y, None
class UNet(fnn.Module):
    @fnn.compact
    def __call__(self, x, train: bool = True):
        x = fnn.Dense(4, use_bias=False, name='d1')(x)  # a bias before BatchNorm only adds roundoff
        x = fnn.BatchNorm(use_running_average=not train, momentum=0.8, name='bn')(x)
        x = fnn.Dropout(0.5, deterministic=not train, name='drop')(fnn.relu(x))
        return fnn.Dense(1, name='d2')(x)
class USow(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        h = fnn.Dense(3, name='a')(x)
        self.sow('intermediates', 'h', h)
        self.sow('stats', 'norm', jnp.linalg.norm(h), reduce_fn=lambda a, b: a + b, init_fn=lambda: 0.0)
        y = fnn.Dense(2, name='b')(fnn.relu(h))
        self.sow('intermediates', 'y', y)
        return y
class UPart(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        k = self.param('kernel', fnn.with_partitioning(fnn.initializers.lecun_normal(), ('embed', 'mlp')), (x.shape[-1], 3))
        b = self.param('bias', fnn.with_partitioning(fnn.initializers.zeros_init(), ('mlp',)), (3,))
        return x @ k + b
class ULogical(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        k = self.param('kernel', fnn.with_logical_partitioning(fnn.initializers.ones_init(), ('embed', 'hidden')), (x.shape[-1], 2))
        return x @ k
UX = jnp.sin(jnp.arange(12.0)).reshape(4, 3) / 2
UY = jnp.cos(jnp.arange(4.0)).reshape(4, 1)
UP = {'w': jnp.array([[0.5, -0.25], [0.1, 0.3], [-0.2, 0.4]]), 'b': jnp.array([0.05, -0.05]), 'emb': {'table': jnp.arange(6.0).reshape(3, 2) / 10}}
def u_loss(p, x=UX):
    h = x @ p['w'] + p['b']
    return jnp.mean((h - p['emb']['table'].sum(0)) ** 2) + 0.01 * jnp.sum(p['emb']['table'] ** 2)
def u_train(tx, steps=3, params=UP, grads=None):
    # a few optimizer steps on u_loss (or on the given gradient sequence); returns the params and the final state
    st = tx.init(params)
    p = params
    for i in range(steps):
        g = jax.grad(u_loss)(p) if grads is None else grads[i]
        up, st = tx.update(g, st, p)
        p = optax.apply_updates(p, up)
    return p, st
def u_leaves(t):
    return [np.asarray(v).tolist() if hasattr(v, 'shape') else v for v in jax.tree.leaves(t)]
def u_shapes(t):
    return jax.tree.map(lambda a: tuple(a.shape), t)
def u_spec(t):
    # partition specs by their text (JAX's `P` is no tuple, numbax's PartitionSpec is one)
    return jax.tree.map(repr, t, is_leaf=lambda s: type(s).__name__ in ('P', 'PartitionSpec'))
def u_sched(s, steps):
    return [float(s(t)) for t in steps]
U_NAN = {'w': jnp.full((3, 2), jnp.nan), 'b': jnp.zeros(2), 'emb': {'table': jnp.zeros((3, 2))}}
U_ONES = jax.tree.map(jnp.ones_like, UP)
"""


# ----------------------------------------------------------------------------------------------
# schedules at and around their boundaries

_SCHEDULES = [
    ("optax.exponential_decay(1.0, 4, 0.5)", [0, 3, 4, 5, 8, 100]),
    ("optax.exponential_decay(1.0, 4, 0.5, staircase=True)", [0, 3, 4, 7, 8, 9]),
    ("optax.exponential_decay(0.1, 2, 0.5, transition_begin=3)", [0, 2, 3, 4, 5, 7]),
    ("optax.exponential_decay(0.1, 2, 0.5, transition_begin=3, staircase=True)", [2, 3, 4, 5, 6]),
    ("optax.exponential_decay(1.0, 3, 0.1, end_value=0.05)", [0, 2, 3, 4, 6, 50]),
    ("optax.exponential_decay(0.01, 2, 2.0, end_value=0.05)", [0, 2, 4, 6, 8]),
    ("optax.exponential_decay(1.0, 5, 0.9, transition_begin=-2)", [0, 1, 5]),
    (
        "optax.linear_schedule(1e-3, 1e-5, 1000, transition_begin=100)",
        [0, 99, 100, 101, 600, 1100, 1101],
    ),
    ("optax.linear_schedule(0.0, 1.0, 0)", [0, 1, 5]),
    ("optax.polynomial_schedule(1.0, 0.0, 0.5, 10)", [0, 1, 5, 9, 10, 11]),
    ("optax.polynomial_schedule(2.0, 0.5, 3, 4, transition_begin=2)", [0, 2, 3, 5, 6, 7]),
    ("optax.cosine_decay_schedule(1.0, 1)", [0, 1, 2]),
    ("optax.cosine_decay_schedule(3e-4, 100, alpha=0.1)", [0, 1, 50, 99, 100, 101]),
    ("optax.cosine_decay_schedule(1.0, 8, exponent=2.0)", [0, 2, 4, 6, 8, 9]),
    (
        "optax.warmup_cosine_decay_schedule(0.0, 1e-3, 10, 110)",
        [0, 5, 9, 10, 11, 60, 109, 110, 200],
    ),
    ("optax.warmup_cosine_decay_schedule(1e-4, 1e-3, 0, 20, end_value=1e-5)", [0, 1, 10, 20, 21]),
    ("optax.warmup_cosine_decay_schedule(0.0, 1.0, 4, 4)", [0, 2, 3, 4, 5]),
    ("optax.warmup_exponential_decay_schedule(0.0, 1.0, 5, 2, 0.5)", [0, 4, 5, 6, 7, 9]),
    (
        "optax.warmup_exponential_decay_schedule(0.0, 1.0, 3, 2, 0.5, staircase=True, end_value=0.2)",
        [2, 3, 4, 5, 7, 9, 20],
    ),
    ("optax.warmup_constant_schedule(0.0, 0.5, 4)", [0, 1, 3, 4, 5, 1000]),
    (
        "optax.piecewise_constant_schedule(1e-2, {100: 0.1, 200: 0.1})",
        [0, 99, 100, 101, 199, 200, 201],
    ),
    ("optax.piecewise_constant_schedule(1.0, {0: 0.5})", [0, 1]),
    ("optax.piecewise_constant_schedule(1.0, {})", [0, 10]),
    (
        "optax.piecewise_interpolate_schedule('linear', 0.1, {5: 10.0, 10: 0.1})",
        [0, 3, 5, 7, 10, 12],
    ),
    ("optax.piecewise_interpolate_schedule('cosine', 1.0, {2: 0.5, 6: 0.0})", [0, 1, 2, 4, 6, 8]),
    (
        "optax.join_schedules([optax.linear_schedule(0.0, 1.0, 5), optax.cosine_decay_schedule(1.0, 10)], [5])",
        [0, 4, 5, 6, 10, 15, 16],
    ),
    (
        "optax.join_schedules([optax.constant_schedule(1.0), optax.constant_schedule(2.0), optax.linear_schedule(2.0, 0.0, 4)], [3, 6])",
        [0, 2, 3, 5, 6, 8, 10, 11],
    ),
    ("optax.cosine_onecycle_schedule(20, 1e-2)", [0, 5, 6, 10, 19, 20, 25]),
    (
        "optax.cosine_onecycle_schedule(10, 1.0, pct_start=0.2, div_factor=5.0, final_div_factor=50.0)",
        [0, 1, 2, 3, 9, 10],
    ),
    ("optax.linear_onecycle_schedule(20, 1e-2)", [0, 5, 6, 10, 16, 17, 19, 20]),
    (
        "optax.sgdr_schedule([dict(init_value=0.0, peak_value=1.0, warmup_steps=2, decay_steps=6), dict(init_value=0.0, peak_value=0.5, warmup_steps=1, decay_steps=4, end_value=0.1)])",
        [0, 1, 2, 5, 6, 7, 9, 10, 11],
    ),
    ("optax.constant_schedule(3e-4)", [0, 10**6]),
]


def _schedules() -> list[str]:
    c = []
    for sched, steps in _SCHEDULES:
        c.append(f"u_sched({sched}, {steps})")
        c.append(f"{sched}(jnp.array({steps}))")
        c.append(f"jax.jit({sched})(jnp.int32({steps[-2]}))")
    c += [
        "optax.linear_schedule(1.0, 0.0, 4)(2.5)",
        "optax.cosine_decay_schedule(1.0, 8)(jnp.float32(3.5))",
        "optax.exponential_decay(1.0, 4, 0.5)(jnp.array([-1, 0]))",
        "optax.exponential_decay(1.0, 0, 0.5)",
        "optax.exponential_decay(1.0, 4, 0.0)(jnp.arange(3))",
        "optax.polynomial_schedule(1.0, 0.0, 1, 0)",
        "optax.cosine_decay_schedule(1.0, 0)",
        "optax.warmup_cosine_decay_schedule(0.0, 1.0, 5, 10)(jnp.arange(12))",
        "optax.piecewise_constant_schedule(1.0, {3: -1.0})(jnp.arange(5))",
        "optax.join_schedules([optax.constant_schedule(1.0)], [])(7)",
        "jax.grad(lambda t: optax.cosine_decay_schedule(1.0, 10)(t))(3.0)",
        "jax.vmap(optax.linear_schedule(1.0, 0.0, 4))(jnp.arange(6))",
    ]
    return c


# ----------------------------------------------------------------------------------------------
# optimizers as training loops use them

_TXS = [
    "optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(3e-2, weight_decay=1e-2))",
    "optax.chain(optax.clip(0.05), optax.scale_by_adam(b1=0.8), optax.add_decayed_weights(1e-4), optax.scale_by_learning_rate(1e-2))",
    "optax.chain(optax.scale_by_rms(decay=0.9), optax.scale_by_schedule(optax.linear_schedule(1.0, 0.1, 3)), optax.scale(-0.1))",
    "optax.chain(optax.add_noise(0.01, 0.55, 0), optax.sgd(0.1))",
    "optax.chain(optax.zero_nans(), optax.adam(1e-2))",
    "optax.chain(optax.centralize(), optax.sgd(0.1, momentum=0.9, nesterov=True))",
    "optax.chain(optax.clip_by_block_rms(0.1), optax.lion(1e-3, b1=0.9, b2=0.99))",
    "optax.chain(optax.scale_by_trust_ratio(), optax.scale(-0.1))",
    "optax.multi_transform({'adam': optax.adam(1e-2), 'sgd': optax.sgd(1e-1, momentum=0.9), 'frozen': optax.set_to_zero()}, {'w': 'adam', 'b': 'sgd', 'emb': {'table': 'frozen'}})",
    "optax.multi_transform({'decay': optax.adamw(1e-2, weight_decay=0.1), 'no_decay': optax.adam(1e-2)}, lambda p: jax.tree.map(lambda a: 'decay' if a.ndim > 1 else 'no_decay', p))",
    "optax.multi_transform({'a': optax.sgd(0.1), 'b': optax.chain(optax.clip(0.01), optax.sgd(1.0))}, {'w': 'a', 'b': 'a', 'emb': 'b'})",
    "optax.masked(optax.adamw(1e-2, weight_decay=0.5), {'w': True, 'b': False, 'emb': {'table': True}})",
    "optax.masked(optax.add_decayed_weights(0.1), lambda p: jax.tree.map(lambda a: a.ndim == 2, p))",
    "optax.chain(optax.masked(optax.add_decayed_weights(0.1), lambda p: jax.tree.map(lambda a: a.ndim == 2, p)), optax.sgd(0.1))",
    "optax.adamw(1e-2, weight_decay=0.1, mask=lambda p: jax.tree.map(lambda a: a.ndim > 1, p))",
    "optax.inject_hyperparams(optax.adam)(learning_rate=optax.linear_schedule(1e-2, 1e-3, 2), b1=0.8)",
    "optax.inject_hyperparams(optax.sgd)(learning_rate=0.1, momentum=0.9)",
    "optax.inject_hyperparams(optax.adamw, static_args=('weight_decay',))(learning_rate=0.01, weight_decay=0.1)",
    "optax.inject_hyperparams(optax.clip_by_global_norm)(max_norm=0.1)",
    "optax.inject_hyperparams(optax.rmsprop, hyperparam_dtype=jnp.float16)(learning_rate=0.01, decay=0.8)",
    "optax.MultiSteps(optax.adam(1e-2), every_k_schedule=2)",
    "optax.MultiSteps(optax.sgd(0.1, momentum=0.5), every_k_schedule=3, use_grad_mean=False)",
    "optax.MultiSteps(optax.sgd(0.1), every_k_schedule=lambda step: jnp.where(step < 1, 1, 2))",
    "optax.apply_if_finite(optax.adam(1e-2), max_consecutive_errors=2)",
    "optax.chain(optax.apply_if_finite(optax.sgd(0.1), 3), optax.clip(1.0))",
    "optax.lookahead(optax.sgd(0.1), sync_period=2, slow_step_size=0.5)",
    # schedules inside multi_transform, masked and chains
    "optax.multi_transform({'a': optax.inject_hyperparams(optax.adam)(learning_rate=optax.warmup_cosine_decay_schedule(0.0, 1e-2, 1, 4)), 'b': optax.sgd(optax.exponential_decay(0.1, 1, 0.5))}, {'w': 'a', 'b': 'b', 'emb': {'table': 'b'}})",
    "optax.masked(optax.chain(optax.scale_by_adam(), optax.scale_by_schedule(optax.piecewise_constant_schedule(-1e-2, {1: 0.5, 2: 0.1}))), {'w': True, 'b': True, 'emb': {'table': False}})",
    "optax.chain(optax.clip_by_global_norm(0.5), optax.masked(optax.add_decayed_weights(1e-2), lambda p: jax.tree.map(lambda a: a.ndim > 1, p)), optax.scale_by_adam(), optax.scale_by_learning_rate(optax.cosine_decay_schedule(1e-2, 3)))",
    "optax.MultiSteps(optax.multi_transform({'a': optax.adam(1e-2), 'z': optax.set_to_zero()}, {'w': 'a', 'b': 'a', 'emb': 'z'}), every_k_schedule=2)",
    "optax.chain(optax.multi_transform({'a': optax.scale_by_adam(), 'b': optax.identity()}, lambda p: jax.tree.map(lambda a: 'a' if a.ndim > 1 else 'b', p)), optax.scale_by_schedule(optax.linear_schedule(-0.1, -0.01, 2)))",
    "optax.adamw(optax.warmup_exponential_decay_schedule(0.0, 1e-2, 1, 2, 0.5), weight_decay=0.1, mask={'w': True, 'b': False, 'emb': {'table': True}})",
    "optax.chain(optax.inject_hyperparams(optax.scale_by_adam)(b1=0.8), optax.inject_hyperparams(optax.scale)(step_size=-1e-2))",
    "optax.masked(optax.inject_hyperparams(optax.sgd)(learning_rate=optax.linear_schedule(0.2, 0.0, 3), momentum=0.9), lambda p: {'w': True, 'b': False, 'emb': {'table': True}})",
]


def _optimizers() -> list[str]:
    c = []
    for tx in _TXS:
        if "lookahead" in tx:
            continue
        c.append(f"p, st = u_train({tx})\nout = p")
        c.append(f"p, st = u_train({tx})\nout = u_leaves(st)")
    c += [
        # lookahead keeps fast and slow params
        "tx = optax.lookahead(optax.sgd(0.1), sync_period=2, slow_step_size=0.5)\np = optax.LookaheadParams.init_synced(UP)\nst = tx.init(p)\nfor i in range(3):\n    g = jax.grad(u_loss)(p.fast)\n    up, st = tx.update(jax.tree.map(lambda a: a, optax.LookaheadParams(g, g)), st, p)\n    p = optax.apply_updates(p, up)\nout = p.fast, p.slow",
        # a jitted step of schedules inside multi_transform and masked, and the hyperparameters read back
        "tx = optax.multi_transform({'a': optax.inject_hyperparams(optax.adamw)(learning_rate=optax.linear_schedule(1e-2, 0.0, 4), weight_decay=0.1), 'b': optax.sgd(optax.piecewise_constant_schedule(0.1, {2: 0.1}), momentum=0.9)}, {'w': 'a', 'b': 'b', 'emb': {'table': 'b'}})\n"
        "step = jax.jit(lambda p, s: (lambda u: (optax.apply_updates(p, u[0]), u[1]))(tx.update(jax.grad(u_loss)(p), s, p)))\n"
        "p, st = UP, tx.init(UP)\nlrs = []\nfor i in range(4):\n    p, st = step(p, st)\n    lrs.append(float(st.inner_states['a'].inner_state.hyperparams['learning_rate']))\nout = p, lrs",
        "tx = optax.masked(optax.inject_hyperparams(optax.sgd)(learning_rate=optax.cosine_decay_schedule(0.1, 3)), {'w': True, 'b': False, 'emb': {'table': True}})\n"
        "st = tx.init(UP)\nfor i in range(2):\n    up, st = jax.jit(tx.update)(U_ONES, st, UP)\nout = up, optax.tree_utils.tree_get(st, 'learning_rate'), optax.tree_utils.tree_get(st, 'count')",
        "tx = optax.chain(optax.clip_by_global_norm(1.0), optax.inject_hyperparams(optax.adam)(learning_rate=optax.warmup_cosine_decay_schedule(0.0, 0.1, 2, 6)))\n"
        "st = tx.init(UP)\nlrs = []\nfor i in range(4):\n    up, st = jax.jit(tx.update)(U_ONES, st, UP)\n    lrs.append(optax.tree_utils.tree_get(st, 'learning_rate'))\nout = lrs, up",
        "tx = optax.multi_transform({'a': optax.sgd(0.1), 'b': optax.set_to_zero()}, {'w': 'a', 'b': 'b', 'emb': {'table': 'b'}})\nout = jax.tree.map(lambda a: (a.shape, a.dtype), tx.init(UP))",
        "tx = optax.multi_transform({'a': optax.adam(0.1), 'b': optax.set_to_zero()}, {'w': 'a', 'b': 'b', 'emb': {'table': 'b'}})\nout = optax.tree_utils.tree_get(tx.init(UP), 'count')",
        # inject_hyperparams: reading and changing the hyperparameters between steps
        "tx = optax.inject_hyperparams(optax.sgd)(learning_rate=0.1)\nst = tx.init(UP)\nout = st.hyperparams, type(st).__name__",
        "tx = optax.inject_hyperparams(optax.sgd)(learning_rate=0.1)\nst = tx.init(UP)\nst.hyperparams['learning_rate'] = jnp.array(0.5)\nup, st = tx.update(U_ONES, st, UP)\nout = up, st.hyperparams",
        "tx = optax.inject_hyperparams(optax.adam)(learning_rate=optax.linear_schedule(1.0, 0.0, 4))\nst = tx.init(UP)\nlrs = []\nfor i in range(5):\n    _, st = tx.update(U_ONES, st, UP)\n    lrs.append(float(st.hyperparams['learning_rate']))\nout = lrs, st.count if hasattr(st, 'count') else None",
        "tx = optax.inject_hyperparams(optax.adam)(learning_rate=0.1)\nst = tx.init(UP)\nout = optax.tree_utils.tree_get(st, 'learning_rate')",
        "tx = optax.inject_hyperparams(optax.adam)(learning_rate=0.1)\nst = tx.init(UP)\nst = optax.tree_utils.tree_set(st, learning_rate=jnp.array(0.01))\nout = st.hyperparams['learning_rate']",
        "tx = optax.inject_hyperparams(optax.sgd)(learning_rate=0.1)\nst = tx.init(UP)\nst.hyperparams['learning_rate'] = 0.3\nout = jax.jit(tx.update)(U_ONES, st, UP)[0]",
        "optax.inject_hyperparams(optax.sgd)(lr=0.1)",
        "optax.inject_hyperparams(optax.sgd)(0.1).init(UP).hyperparams",
        # MultiSteps: the accumulated gradient and the steps
        "tx = optax.MultiSteps(optax.sgd(1.0), every_k_schedule=3)\nst = tx.init(UP)\nhist = []\nfor i in range(4):\n    up, st = tx.update(jax.tree.map(lambda a: a * (i + 1), U_ONES), st, UP)\n    hist.append((u_leaves(up)[0], int(st.mini_step), int(st.gradient_step), bool(tx.has_updated(st))))\nout = hist",
        "tx = optax.MultiSteps(optax.adam(0.1), every_k_schedule=2)\nst = tx.init(UP)\nout = type(st).__name__, st._fields, u_leaves(st.acc_grads)",
        "tx = optax.MultiSteps(optax.sgd(1.0), every_k_schedule=2)\nst = tx.init(UP)\nup, st = jax.jit(tx.update)(U_ONES, st, UP)\nup2, st = jax.jit(tx.update)(U_ONES, st, UP)\nout = up, up2, st.gradient_step",
        "tx = optax.MultiSteps(optax.sgd(1.0), every_k_schedule=2)\nst = tx.init(UP)\nup, st = tx.update(U_NAN, st, UP)\nout = up, st.skip_state, st.mini_step",
        "tx = optax.MultiSteps(optax.sgd(1.0), every_k_schedule=2, should_skip_update_fn=optax.skip_not_finite)\nst = tx.init(UP)\nup, st = tx.update(U_NAN, st, UP)\nout = up, st.skip_state, st.mini_step",
        "tx = optax.MultiSteps(optax.sgd(1.0), every_k_schedule=2, should_skip_update_fn=functools.partial(optax.skip_large_updates, max_squared_norm=1.0))\nst = tx.init(UP)\nup, st = tx.update(jax.tree.map(lambda a: a * 10, U_ONES), st, UP)\nout = up, st.skip_state, st.mini_step",
        "optax.MultiSteps(optax.sgd(1.0), 2).gradient_transformation().init(UP)",
        # apply_if_finite: counts of non-finite steps
        "tx = optax.apply_if_finite(optax.sgd(1.0), max_consecutive_errors=2)\nst = tx.init(UP)\nhist = []\nfor g in [U_ONES, U_NAN, U_NAN, U_NAN, U_ONES]:\n    up, st = tx.update(g, st, UP)\n    hist.append((u_leaves(up)[1], int(st.notfinite_count), bool(st.last_finite), int(st.total_notfinite)))\nout = hist",
        "tx = optax.apply_if_finite(optax.adam(0.1), max_consecutive_errors=1)\nst = tx.init(UP)\nup, st = tx.update(jax.tree.map(lambda a: a.at[..., 0].set(jnp.inf), U_ONES), st, UP)\nout = up, st",
        "tx = optax.apply_if_finite(optax.sgd(1.0), 0)\nst = tx.init(UP)\nup, st = tx.update(U_NAN, st, UP)\nout = up, st.notfinite_count",
        "tx = optax.apply_if_finite(optax.sgd(1.0), 2)\nout = type(tx.init(UP)).__name__, tx.init(UP)._fields",
        # masked states and multi_transform states
        "tx = optax.masked(optax.adam(0.1), {'w': True, 'b': False, 'emb': {'table': False}})\nst = tx.init(UP)\nout = type(st).__name__, u_leaves(st)",
        "tx = optax.masked(optax.sgd(0.1), {'w': True, 'b': False, 'emb': {'table': False}})\nup, _ = tx.update(U_ONES, tx.init(UP), UP)\nout = up",
        "tx = optax.masked(optax.sgd(0.1), {'w': True, 'b': False})\nout = tx.init(UP)",
        "tx = optax.multi_transform({'a': optax.adam(0.1), 'b': optax.sgd(0.1)}, {'w': 'a', 'b': 'b', 'emb': {'table': 'b'}})\nst = tx.init(UP)\nout = type(st).__name__, sorted(st.inner_states), u_shapes(st.inner_states['a'])",
        "tx = optax.multi_transform({'a': optax.sgd(0.1)}, {'w': 'a', 'b': 'c', 'emb': {'table': 'a'}})\nout = tx.init(UP)",
        "tx = optax.multi_transform({'a': optax.sgd(0.1), 'b': optax.sgd(0.2)}, {'w': 'a', 'b': 'b', 'emb': {'table': 'a'}})\nup, st = jax.jit(tx.update)(U_ONES, tx.init(UP), UP)\nout = up",
        "tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(0.1))\nst = tx.init(UP)\nout = type(st).__name__, len(st), type(st[0]).__name__, type(st[1][0]).__name__",
        "tx = optax.named_chain(('clip', optax.clip(0.5)), ('opt', optax.sgd(0.1)))\np, st = u_train(tx)\nout = p, sorted(st)",
        "optax.global_norm(jax.grad(u_loss)(UP))",
        "optax.clip_by_global_norm(0.1).update(jax.grad(u_loss)(UP), optax.EmptyState())[0]",
        "optax.tree_utils.tree_l2_norm(UP)",
        "optax.tree_utils.tree_zeros_like(UP)",
        "optax.tree_utils.tree_get(optax.adam(0.1).init(UP), 'count')",
        "optax.tree_utils.tree_get_all_with_path(optax.chain(optax.adam(0.1), optax.add_decayed_weights(0.1)).init(UP), 'count')",
        "optax.tree_utils.tree_map_params(optax.adam(0.1), lambda p: p * 0 + 1, optax.adam(0.1).init(UP))",
    ]
    return c


# ----------------------------------------------------------------------------------------------
# Flax: layer stacks under lifted transforms, stateful layers, metadata

_STACKS = [
    "fnn.scan(UBlock, variable_axes={'params': 0}, split_rngs={'params': True}, length=3)",
    "fnn.scan(UBlock, variable_axes={'params': 0}, split_rngs={'params': False}, length=2)",
    "fnn.scan(fnn.remat(UBlock), variable_axes={'params': 0}, split_rngs={'params': True}, length=3)",
    "fnn.scan(fnn.remat(UBlock, prevent_cse=False), variable_axes={'params': 0}, split_rngs={'params': True}, length=2, unroll=2)",
    "fnn.scan(UNormBlock, variable_axes={'params': 0, 'batch_stats': 0}, split_rngs={'params': True}, length=2)",
    "fnn.scan(UDropBlock, variable_axes={'params': 0}, split_rngs={'params': True, 'dropout': True}, length=2)",
    "fnn.scan(UDropBlock, variable_axes={'params': 0}, split_rngs={'params': True, 'dropout': False}, length=2)",
    "fnn.scan(UBlock, variable_axes={'params': 0}, split_rngs={'params': True}, length=3, reverse=True)",
]


def _stacks() -> list[str]:
    c = []
    for stack in _STACKS:
        mk = f"S = {stack}\nv = S().init({{'params': K0, 'dropout': K1}}, UX, None)\n"
        c.append(mk + "out = u_shapes(v)")
        c.append(mk + "out = v")
        rng = "rngs={'dropout': K1}, " if "Drop" in stack else ""
        mut = "mutable=['batch_stats'], " if "Norm" in stack else ""
        c.append(mk + f"out = S().apply(v, UX, None, {rng}{mut})")
    c += [
        # a scanned stack inside a model, trained for a step
        """
class Tower(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        x = fnn.Dense(3, name='inp')(x)
        x, _ = fnn.scan(UBlock, variable_axes={'params': 0}, split_rngs={'params': True}, length=2, name='layers')()(x, None)
        return fnn.Dense(1, name='out')(x)
v = Tower().init(K0, UX)
g = jax.grad(lambda p: jnp.mean((Tower().apply({'params': p}, UX) - UY) ** 2))(v['params'])
out = u_shapes(g), g['layers']
""",
        # nn.vmap: an ensemble of MLPs
        """
E = fnn.vmap(UMlp, variable_axes={'params': 0}, split_rngs={'params': True}, in_axes=None, out_axes=0, axis_size=3)
v = E().init(K0, UX)
out = u_shapes(v), E().apply(v, UX)
""",
        """
E = fnn.vmap(UMlp, variable_axes={'params': 0}, split_rngs={'params': True}, in_axes=0, out_axes=1)
v = E(hidden=2).init(K0, jnp.stack([UX, -UX]))
out = E(hidden=2).apply(v, jnp.stack([UX, -UX]))
""",
        """
E = fnn.vmap(UMlp, variable_axes={'params': None}, split_rngs={'params': False}, in_axes=0)
v = E().init(K0, jnp.stack([UX, UX * 2]))
out = u_shapes(v), E().apply(v, jnp.stack([UX, UX * 2]))
""",
        # BatchNorm under vmap with an axis name: statistics across the mapped axis
        """
B = fnn.vmap(fnn.BatchNorm, variable_axes={'params': None, 'batch_stats': None}, split_rngs={'params': False}, in_axes=0, axis_name='batch')
m = B(use_running_average=False, axis_name='batch', momentum=0.5)
v = m.init(K0, UX)
out = m.apply(v, UX, mutable=['batch_stats'])
""",
        # nn.remat with static arguments
        """
class R(fnn.Module):
    @fnn.compact
    def __call__(self, x, train: bool):
        x = fnn.Dense(3)(x)
        return fnn.Dropout(0.5, deterministic=not train)(x)
RR = fnn.remat(R, static_argnums=(2,))
v = RR().init(K0, UX, False)
out = RR().apply(v, UX, False), RR().apply(v, UX, True, rngs={'dropout': K1})
""",
        """
RR = fnn.remat(UMlp, policy=jax.checkpoint_policies.nothing_saveable)
v = RR().init(K0, UX)
out = jax.grad(lambda p: RR().apply(p, UX).sum())(v)
""",
        "out = u_shapes(fnn.checkpoint(UMlp)().init(K0, UX))",
    ]
    return c


def _stateful() -> list[str]:
    c = []
    init = "v = UNet().init({'params': K0, 'dropout': K1}, UX)\n"
    c += [
        init + "out = u_shapes(v)",
        init + "out = v['batch_stats']",
        init + "out = UNet().apply(v, UX, train=False)",
        init
        + "out = UNet().apply(v, UX, train=True, rngs={'dropout': K1}, mutable=['batch_stats'])",
        init
        + "y, upd = UNet().apply(v, UX, rngs={'dropout': random.key(7)}, mutable=['batch_stats'])\nout = upd['batch_stats']['bn']['mean']",
        init + "out = UNet().apply(v, UX, train=True, rngs={'dropout': K1})",
        init + "out = UNet().apply(v, UX, train=True, mutable=['batch_stats'])",
        init + "out = UNet().apply(v, UX, train=False, mutable=True)",
        init + "out = UNet().apply(v, UX, train=False, mutable=['intermediates'])",
        "out = UNet().init(K0, UX)",
        "out = UNet().init({'params': K0}, UX, train=False)",
        "out = u_shapes(UNet().init({'params': K0}, UX, train=False))",
        "out = jax.tree.map(lambda a: a.dtype, UNet().init({'params': K0, 'dropout': K1}, UX.astype(jnp.bfloat16)))",
        # a train step with TrainState, batch stats and dropout
        """
class TS(flax.training.train_state.TrainState):
    batch_stats: dict = None
v = UNet().init({'params': K0, 'dropout': K1}, UX)
s = TS.create(apply_fn=UNet().apply, params=v['params'], tx=optax.adam(1e-2), batch_stats=v['batch_stats'])
@jax.jit
def step(s, key):
    def loss(p):
        y, upd = s.apply_fn({'params': p, 'batch_stats': s.batch_stats}, UX, rngs={'dropout': key}, mutable=['batch_stats'])
        return jnp.mean((y - UY) ** 2), upd
    (l, upd), g = jax.value_and_grad(loss, has_aux=True)(s.params)
    return s.apply_gradients(grads=g, batch_stats=upd['batch_stats']), l
losses = []
for i in range(3):
    s, l = step(s, random.fold_in(K1, i))
    losses.append(float(l))
out = losses, s.batch_stats, int(s.step)
""",
        # Dropout details
        "out = fnn.Dropout(0.5).apply({}, UX, deterministic=False, rngs={'dropout': K1})",
        "out = fnn.Dropout(0.5, broadcast_dims=(0,)).apply({}, UX, deterministic=False, rngs={'dropout': K1})",
        "out = fnn.Dropout(0.0).apply({}, UX, deterministic=False)",
        "out = fnn.Dropout(1.0).apply({}, UX, deterministic=False, rngs={'dropout': K1})",
        "out = fnn.Dropout(0.5).apply({}, UX, deterministic=False)",
        "out = fnn.Dropout(0.5).apply({}, UX)",
        "out = fnn.Dropout(0.5, rng_collection='noise').apply({}, UX, deterministic=False, rngs={'noise': K1})",
        "out = fnn.Dropout(0.25).apply({}, UX, deterministic=False, rngs={'dropout': K1}, rng=random.key(3))",
        "out = fnn.Dropout(0.5, deterministic=True).apply({}, UX, deterministic=False, rngs={'dropout': K1})",
        "out = jax.jit(lambda k: fnn.Dropout(0.3).apply({}, UX, deterministic=False, rngs={'dropout': k}))(K1)",
        # BatchNorm details
        "out = fnn.BatchNorm(use_running_average=False).init(K0, UX)",
        "m = fnn.BatchNorm(use_running_average=False, momentum=0.0)\nv = m.init(K0, UX)\nout = m.apply(v, UX, mutable=['batch_stats'])[1]",
        "m = fnn.BatchNorm(use_running_average=False)\nv = m.init(K0, UX)\nout = m.apply(v, UX)",
        "m = fnn.BatchNorm(use_running_average=True)\nv = m.init(K0, UX)\nout = m.apply(v, UX + 1)",
        "m = fnn.BatchNorm()\nv = m.init(K0, UX, use_running_average=True)\nout = m.apply(v, UX, use_running_average=False, mutable=['batch_stats'])",
        "m = fnn.BatchNorm(use_running_average=False, axis=0, use_bias=False, use_scale=False)\nv = m.init(K0, UX)\nout = v, m.apply(v, UX, mutable=['batch_stats'])",
        "m = fnn.BatchNorm(use_running_average=False, use_fast_variance=False, epsilon=1e-3)\nv = m.init(K0, UX * 100)\nout = m.apply(v, UX * 100, mutable=['batch_stats'])",
        "m = fnn.BatchNorm(use_running_average=False)\nv = m.init(K0, UX)\nout = m.apply(v, UX, mask=jnp.array([[True], [True], [False], [True]]), mutable=['batch_stats'])",
        "m = fnn.BatchNorm(use_running_average=False)\nv = m.init(K0, UX)\nout = jax.grad(lambda p: m.apply({'params': p, 'batch_stats': v['batch_stats']}, UX, mutable=['batch_stats'])[0].sum())(v['params'])",
    ]
    return c


def _module_api() -> list[str]:
    c = [
        # bind / unbind
        "v = UMlp().init(K0, UX)\nb = UMlp().bind(v)\nout = b(UX), b.variables == v",
        "v = UMlp().init(K0, UX)\nb = UMlp().bind(v)\nm, vs = b.unbind()\nout = type(m).__name__, m.scope is None, vs == v",
        "v = UMlp().init(K0, UX)\nb = UMlp().bind(v)\nout = jnp.tanh(b.variables['params']['body']['kernel']).sum()",
        "b = UNet().bind(UNet().init({'params': K0, 'dropout': K1}, UX), rngs={'dropout': K1}, mutable=['batch_stats'])\ny = b(UX)\nout = y, b.variables['batch_stats']",
        "class Enc(fnn.Module):\n    def setup(self):\n        self.mlp = UMlp(name='mlp')\n    def __call__(self, x):\n        return self.mlp(x)\nv = Enc().init(K0, UX)\nb = Enc().bind(v)\nout = b.mlp(UX), b.mlp.variables",
        "class Enc(fnn.Module):\n    def setup(self):\n        self.mlp = UMlp(name='mlp')\n    def __call__(self, x):\n        return self.mlp(x)\nv = Enc().init(K0, UX)\nsub, sv = Enc().bind(v).mlp.unbind()\nout = sub.apply(sv, UX)",
        "out = UMlp().bind({}).variables",
        "out = UMlp()(UX)",
        "out = UMlp().bind({'params': {}})(UX)",
        # share_scope: a wrapper whose child writes to its own scope
        """
class Inner(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(2, name='proj')(x)
class Wrapper(fnn.Module):
    def setup(self):
        self.inner = Inner()
        fnn.share_scope(self, self.inner)
    def __call__(self, x):
        return self.inner(x)
v = Wrapper().init(K0, UX)
out = u_shapes(v), Wrapper().apply(v, UX)
""",
        """
class Inner(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(2, name='proj')(x) + self.param('shift', fnn.initializers.ones_init(), (2,))
class Outer(fnn.Module):
    def setup(self):
        self.inner = Inner()
        fnn.share_scope(self, self.inner)
        self.extra = fnn.Dense(1)
    def __call__(self, x):
        return self.extra(self.inner(x))
out = u_shapes(Outer().init(K0, UX))
""",
        # sow and capture_intermediates
        "v = USow().init(K0, UX)\nout = u_shapes(v)",
        "v = USow().init(K0, UX)\nout = v['stats']",
        "v = USow().init(K0, UX)\ny, st = USow().apply({'params': v['params']}, UX, mutable=['intermediates', 'stats'])\nout = u_shapes(st), st['stats']",
        "v = USow().init(K0, UX)\ny, st = USow().apply({'params': v['params']}, UX, mutable=['intermediates'])\nout = jax.tree.map(lambda a: a.shape, st)",
        "v = USow().init(K0, UX)\nout = USow().apply({'params': v['params']}, UX, mutable=False)",
        "v = USow().init(K0, UX)\ny, st = USow().apply(v, UX, mutable=['stats'])\nout = st",
        "v = USow().init(K0, UX)\ny, st = USow().apply({'params': v['params']}, UX, capture_intermediates=True, mutable=['intermediates'])\nout = u_shapes(st)",
        "v = USow().init(K0, UX)\ny, st = USow().apply({'params': v['params']}, UX, capture_intermediates=lambda mdl, name: name == '__call__' and isinstance(mdl, fnn.Dense), mutable=['intermediates'])\nout = st",
        "v = UMlp().init(K0, UX)\ny, st = UMlp().apply(v, UX, capture_intermediates=True)\nout = st",
        "v = UMlp().init(K0, UX)\ny, st = UMlp().apply(v, UX, capture_intermediates=lambda m, n: m.name == 'head', mutable=['intermediates'])\nout = st",
        "v = UNet().init({'params': K0, 'dropout': K1}, UX)\ny, st = UNet().apply(v, UX, train=False, capture_intermediates=True, mutable=['intermediates'])\nout = u_shapes(st)",
        "out = u_shapes(UMlp().init(K0, UX, capture_intermediates=True))",
        "class S2(fnn.Module):\n    @fnn.compact\n    def __call__(self, x):\n        for i in range(3):\n            self.sow('intermediates', 'x', x * i)\n        return x\nout = S2().apply({}, jnp.ones(2), mutable=['intermediates'])[1]",
        "class S3(fnn.Module):\n    @fnn.compact\n    def __call__(self, x):\n        return self.sow('intermediates', 'x', x)\nout = S3().apply({}, jnp.ones(2), mutable=['intermediates']), S3().apply({}, jnp.ones(2))",
        "class S4(fnn.Module):\n    @fnn.compact\n    def __call__(self, x):\n        self.sow('intermediates', 'x', x, reduce_fn=lambda a, b: a + b, init_fn=lambda: jnp.zeros(2))\n        self.sow('intermediates', 'x', 2 * x, reduce_fn=lambda a, b: a + b, init_fn=lambda: jnp.zeros(2))\n        return x\nout = S4().apply({}, jnp.ones(2), mutable=['intermediates'])[1]",
        "v = UMlp().init(K0, UX)\nout = jax.tree.map(lambda a: a.shape, UMlp().apply(v, UX, method=lambda m, x: m.variables, mutable=False))",
        "out = fnn.tabulate(UMlp(), K0, compute_flops=False, compute_vjp_flops=False, console_kwargs={'width': 200})(UX).count('\\n') > 5",
    ]
    return c


def _metadata() -> list[str]:
    c = [
        "v = UPart().init(K0, UX)\nout = type(v['params']['kernel']).__name__, v['params']['kernel'].names, v['params']['bias'].names",
        "v = UPart().init(K0, UX)\nout = u_spec(fnn.get_partition_spec(v))",
        "v = UPart().init(K0, UX)\nout = jax.tree.map(lambda s: tuple(s), fnn.get_partition_spec(v), is_leaf=lambda s: type(s).__name__ in ('P', 'PartitionSpec'))",
        "v = UPart().init(K0, UX)\nout = fnn.unbox(v)",
        "v = UPart().init(K0, UX)\nout = UPart().apply(v, UX)",
        "v = UPart().init(K0, UX)\nout = UPart().apply(fnn.unbox(v), UX)",
        "v = UPart().init(K0, UX)\nout = u_shapes(fnn.meta.unbox(v))",
        "v = UPart().init(K0, UX)\nout = jax.tree.leaves(v)",
        "v = UPart().init(K0, UX)\nout = v['params']['kernel'].value.shape, v['params']['kernel'].unbox().shape",
        "v = UPart().init(K0, UX)\nout = jax.tree.map(lambda a: a * 2, v)['params']['bias']",
        "v = UPart().init(K0, UX)\ng = jax.grad(lambda p: UPart().apply({'params': p}, UX).sum())(v['params'])\nout = type(g['kernel']).__name__, fnn.unbox(g)",
        "v = UPart().init(K0, UX)\nout = v['params']['kernel'].replace_boxed(jnp.zeros((3, 3))).names",
        "out = fnn.Partitioned(jnp.ones((2, 3)), names=('a', 'b')).get_partition_spec()",
        "out = fnn.Partitioned(jnp.ones((2, 3)), names=('a', None), mesh=None)",
        "out = jax.tree.leaves(fnn.Partitioned(jnp.ones(2), names=('a',)))",
        "out = repr(fnn.Partitioned(jnp.ones((2, 3)), names=('a',)).get_partition_spec())",
        "p, st = u_train(optax.adam(0.1), params=fnn.unbox(UPart().init(K0, UX)['params']), grads=[jax.tree.map(jnp.ones_like, fnn.unbox(UPart().init(K0, UX)['params']))] * 2)\nout = p",
        "tx = optax.adam(0.1)\nv = UPart().init(K0, UX)['params']\nst = tx.init(v)\nout = jax.tree.map(lambda a: type(a).__name__, st[0].mu, is_leaf=lambda a: type(a).__name__ == 'Partitioned')",
        "v = ULogical().init(K0, UX)\nout = type(v['params']['kernel']).__name__, v['params']['kernel'].names",
        "v = ULogical().init(K0, UX)\nout = u_spec(fnn.get_partition_spec(v))",
        "v = ULogical().init(K0, UX)\nwith fnn.logical_axis_rules([('embed', 'data'), ('hidden', 'model')]):\n    out = u_spec(fnn.get_partition_spec(v))",
        "out = repr(fnn.logical_to_mesh_axes(('embed', 'hidden', None), [('embed', 'data'), ('hidden', 'model')]))",
        "out = repr(fnn.logical_to_mesh_axes(('embed', 'hidden'), [('embed', 'data'), ('hidden', 'data')]))",
        "out = repr(fnn.logical_to_mesh_axes(('batch', 'unknown'), [('batch', 'data')]))",
        "with fnn.logical_axis_rules([('embed', 'data')]):\n    out = repr(fnn.logical_to_mesh_axes(('embed', 'mlp')))",
        "v = ULogical().init(K0, UX)\nout = u_spec(fnn.logical_to_mesh(fnn.get_partition_spec(v), [('embed', 'data'), ('hidden', None)]))",
        "out = fnn.with_partitioning(fnn.initializers.ones_init(), ('a', 'b'))(K0, (2, 2))",
        "out = fnn.with_partitioning(fnn.initializers.ones_init(), ('a',))(K0, (2, 2)).value",
        "S = fnn.scan(UBlock, variable_axes={'params': 0}, split_rngs={'params': True}, length=2, metadata_params={fnn.PARTITION_NAME: 'layers'})\nclass PB(fnn.Module):\n    @fnn.compact\n    def __call__(self, x, _):\n        k = self.param('k', fnn.with_partitioning(fnn.initializers.ones_init(), ('embed', 'mlp')), (3, 3))\n        return x @ k, None\nSS = fnn.scan(PB, variable_axes={'params': 0}, split_rngs={'params': True}, length=2, metadata_params={fnn.PARTITION_NAME: 'layers'})\nv = SS().init(K0, UX, None)\nout = v['params']['k'].names, v['params']['k'].value.shape",
        "class PB(fnn.Module):\n    @fnn.compact\n    def __call__(self, x):\n        k = self.param('k', fnn.with_partitioning(fnn.initializers.ones_init(), ('embed', 'mlp')), (3, 3))\n        return x @ k\nVV = fnn.vmap(PB, variable_axes={'params': 1}, split_rngs={'params': True}, in_axes=None, axis_size=2, metadata_params={fnn.PARTITION_NAME: 'ens'})\nv = VV().init(K0, UX)\nout = v['params']['k'].names, v['params']['k'].value.shape",
    ]
    return c


# ----------------------------------------------------------------------------------------------
# serialization and traverse_util

_TREES = [
    "UP",
    "{'a': jnp.arange(3, dtype=jnp.int32), 'b': [jnp.float32(1.5), jnp.ones((2, 2), jnp.bfloat16)], 'c': (jnp.array(True), 3, 'tag')}",
    "{'x': np.arange(4.0), 'y': {'z': None, 'w': []}}",
    "flax.core.frozen_dict.freeze({'a': {'b': jnp.ones(2)}})",
    "optax.adam(0.1).init(UP)",
    "optax.chain(optax.clip(1.0), optax.inject_hyperparams(optax.sgd)(learning_rate=0.1, momentum=0.9)).init(UP)",
    "{'c': jnp.array([1 + 2j, 3 - 1j], jnp.complex64), 'h': jnp.array([1.5, -2.0], jnp.float16), 'u': jnp.array([7], jnp.uint8)}",
]


def _serialization() -> list[str]:
    c = []
    for t in _TREES:
        c += [
            f"out = SER.to_state_dict({t})",
            f"t = {t}\nout = SER.from_bytes(t, SER.to_bytes(t))",
            f"t = {t}\nout = SER.from_state_dict(t, SER.to_state_dict(t))",
            f"t = {t}\nout = SER.msgpack_restore(SER.msgpack_serialize(SER.to_state_dict(t)))",
        ]
    c += [
        "out = SER.from_bytes(UP, SER.to_bytes(jax.tree.map(lambda a: a + 1, UP)))",
        "out = SER.from_state_dict(UP, {'w': np.zeros((3, 2)), 'b': np.zeros(2), 'emb': {'table': np.ones((3, 2))}})",
        "out = SER.from_state_dict(UP, {'w': np.zeros((3, 2)), 'b': np.zeros(2)})",
        "out = SER.from_state_dict(UP, {'w': np.zeros((3, 2)), 'b': np.zeros(2), 'emb': {'table': np.ones((3, 2))}, 'extra': 1})",
        "out = SER.from_state_dict([1, 2], {'0': 5, '1': 6})",
        "out = SER.from_state_dict((jnp.ones(2), jnp.zeros(1)), {'0': np.arange(2.0), '1': np.ones(1)})",
        "out = SER.to_state_dict([jnp.ones(1), (2, 3)])",
        "out = SER.to_state_dict(Pt(jnp.ones(2), 3))",
        "out = SER.from_state_dict(Pt(0, 0), {'x': 5, 'y': 6})",
        "out = SER.msgpack_restore(SER.msgpack_serialize({'a': np.arange(3), 'b': 1.5, 'c': 'str', 'd': [1, 2], 'e': None}))",
        "out = SER.msgpack_restore(SER.msgpack_serialize({'big': np.zeros(2 ** 12, np.float32)}))['big'].shape",
        "out = SER.msgpack_serialize([1, 2])",
        "out = len(SER.to_bytes({'a': jnp.zeros(3)}))",
        "out = SER.to_bytes({'a': jnp.arange(3, dtype=jnp.int32)})",
        "out = SER.from_bytes({'a': jnp.zeros(3)}, b'not msgpack')",
        "out = SER.from_bytes({'a': jnp.zeros(3)}, SER.to_bytes({'a': jnp.ones(2)}))",
        "out = SER.from_bytes({'a': jnp.zeros(3)}, SER.to_bytes({'b': jnp.ones(3)}))",
        "s = flax.training.train_state.TrainState.create(apply_fn=None, params=UP, tx=optax.adamw(1e-2))\np, st = u_train(optax.adamw(1e-2))\nt = s.replace(params=p, opt_state=st, step=3)\nr = SER.from_bytes(s, SER.to_bytes(t))\nout = r.step, r.params, r.opt_state",
        "s = flax.training.train_state.TrainState.create(apply_fn=None, params=UP, tx=optax.multi_transform({'a': optax.adam(0.1), 'b': optax.sgd(0.1)}, {'w': 'a', 'b': 'b', 'emb': {'table': 'b'}}))\nout = jax.tree.map(lambda a: np.asarray(a).shape, SER.to_state_dict(s)['opt_state'])",
        "s = flax.training.train_state.TrainState.create(apply_fn=None, params=UP, tx=optax.MultiSteps(optax.adam(0.1), 2))\nout = sorted(SER.to_state_dict(s)['opt_state'])",
        "v = UNet().init({'params': K0, 'dropout': K1}, UX)\nout = SER.from_bytes(v, SER.to_bytes(v))['batch_stats']",
        "v = UPart().init(K0, UX)\nout = SER.to_state_dict(v)",
        "v = UPart().init(K0, UX)\nout = SER.from_state_dict(v, SER.to_state_dict(fnn.unbox(v)))",
        "out = SER.to_state_dict(fnn.Partitioned(jnp.ones(2), names=('a',)))",
    ]
    return c


_NESTED = "{'enc': {'layer_0': {'kernel': 1, 'bias': 2}, 'layer_1': {'kernel': 3}}, 'head': {'w': 4}, 'step': 5}"


def _traverse() -> list[str]:
    return [
        f"TU.flatten_dict({_NESTED})",
        f"TU.flatten_dict({_NESTED}, sep='/')",
        f"TU.flatten_dict({_NESTED}, keep_empty_nodes=True)",
        "TU.flatten_dict({'a': {}, 'b': {'c': {}}}, keep_empty_nodes=True)",
        "TU.flatten_dict({'a': {}, 'b': 1})",
        f"TU.unflatten_dict(TU.flatten_dict({_NESTED}))",
        f"TU.unflatten_dict(TU.flatten_dict({_NESTED}, sep='.'), sep='.')",
        "TU.unflatten_dict({('a', 'b'): 1, ('a', 'c'): 2, ('d',): 3})",
        "TU.unflatten_dict({('a',): 1, ('a', 'b'): 2})",
        "TU.unflatten_dict({'a/b': 1, 'c': 2}, sep='/')",
        "TU.flatten_dict(flax.core.frozen_dict.freeze({'a': {'b': 1}}))",
        "TU.flatten_dict(UP)",
        "TU.flatten_dict({'a': [1, 2], 'b': (3,)})",
        "TU.flatten_dict({1: {2: 'x'}})",
        "TU.flatten_dict({1: {2: 'x'}}, sep='/')",
        f"TU.path_aware_map(lambda path, x: ('/'.join(path), x * 10), {_NESTED})",
        "TU.path_aware_map(lambda path, x: x * 0 if path[-1] == 'b' else x, UP)",
        "TU.path_aware_map(lambda path, x: 'decay' if 'kernel' in path else 'none', UMlp().init(K0, UX)['params'])",
        "optax.multi_transform({'decay': optax.adamw(0.1, weight_decay=0.5), 'none': optax.sgd(0.1)}, lambda p: TU.path_aware_map(lambda path, x: 'decay' if path[-1] == 'kernel' else 'none', p)).init(UMlp().init(K0, UX)['params'])[0]['decay'][0].mu",
        "p = UMlp().init(K0, UX)['params']\nflat = TU.flatten_dict(p, sep='.')\nout = sorted(flat), TU.unflatten_dict(flat, sep='.') == p",
        "p = UMlp().init(K0, UX)['params']\nmask = TU.path_aware_map(lambda path, x: path[0] == 'body', p)\nout = u_train(optax.masked(optax.sgd(1.0), mask), steps=1, params=p, grads=[jax.tree.map(jnp.ones_like, p)])[0]",
        "TU.flatten_dict({})",
        "TU.unflatten_dict({})",
        "TU.flatten_dict({'a': {'b': None}})",
        "TU.flatten_dict({'a': {'b': {}}})",
        "TU.flatten_dict(3)",
        "TU.unflatten_dict({'a': 1})",
        "TU.empty_node",
        "TU.flatten_dict({'a': TU.empty_node})",
        "TU.unflatten_dict({('a',): TU.empty_node, ('b', 'c'): 1})",
    ]


def cases() -> list[str]:
    return (
        _schedules()
        + _optimizers()
        + _stacks()
        + _stateful()
        + _module_api()
        + _metadata()
        + _serialization()
        + _traverse()
    )
