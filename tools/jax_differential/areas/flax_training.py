"""flax.training (`flax_training`): TrainState with optax transforms and nested params,
common_utils, EarlyStopping, DynamicScale with finite and non-finite gradients, legacy
(msgpack, Orbax-free) checkpoints in temporary directories with their keep/step/prefix/overwrite
rules and errors, flax.struct dataclasses and flax.jax_utils.

Both sides write checkpoints without Orbax (`flax_use_orbax_checkpointing` off); cases compare
file names, and paths relative to a fresh working directory (`rel`). Device counts differ between the sides, so the
`jax_utils` and `shard` cases compare what does not depend on them.

Left knowingly (8 of 191): the module-qualified function names of `replace`'s "got multiple
values" (as in `optax_train`); numbax's checkpoints refuse what Flax writes or restores
silently: a float or negative `step`, `keep=0` (CheckpointArgumentError), and a target tree
whose keys or shapes differ from the stored one (CheckpointMismatchError lists the missing,
extra and changed leaves, where Flax restores a subset of keys or the stored shapes).
"""

# ruff: noqa: E501

PRELUDE = """
import importlib, os, tempfile
flax.config.update('flax_use_orbax_checkpointing', False)
CKPT = importlib.import_module(flax.__name__ + '.training.checkpoints')
JU = importlib.import_module(flax.__name__ + '.jax_utils')
TS = flax.training.train_state.TrainState
CU = flax.training.common_utils
ES = flax.training.early_stopping.EarlyStopping
DS = flax.training.dynamic_scale.DynamicScale
PARAMS = {'enc': {'kernel': jnp.arange(6.0).reshape(2, 3), 'bias': jnp.zeros(3)}, 'out': [jnp.ones(2), jnp.float32(0.5)]}
GRADS = jax.tree.map(lambda p: jnp.full_like(p, 0.25), PARAMS)
def files(d):
    return sorted(f for f in os.listdir(d) if not f.startswith('.'))
def rel():
    # a fresh working directory and the relative checkpoint directory 'c' in it, so that
    # paths in messages are the same on both sides
    os.chdir(tempfile.mkdtemp())
    return 'c'
@flax.struct.dataclass
class Cfg:
    lr: jax.Array
    depth: int = flax.struct.field(pytree_node=False, default=2)
    tags: tuple = flax.struct.field(pytree_node=False, default=('a',))
class Acc(flax.struct.PyTreeNode):
    total: jax.Array
    count: int = 0
    name: str = flax.struct.field(pytree_node=False, default='acc')
    def add(self, v):
        return self.replace(total=self.total + v, count=self.count + 1)
"""


def _train_state() -> list[str]:
    mk = "s = TS.create(apply_fn=lambda p, x: x * p['out'][1], params=PARAMS, tx={tx})"
    c = []
    for tx in (
        "optax.sgd(0.1)",
        "optax.sgd(0.1, momentum=0.9, nesterov=True)",
        "optax.adam(1e-2)",
        "optax.adamw(1e-2, weight_decay=0.1)",
        "optax.chain(optax.clip_by_global_norm(0.1), optax.scale(-1.0))",
        "optax.chain(optax.clip(0.1), optax.adam(0.1))",
        "optax.rmsprop(0.1)",
        "optax.adagrad(0.1)",
        "optax.lamb(0.1)",
        "optax.MultiSteps(optax.sgd(0.1), every_k_schedule=2)",
        "optax.masked(optax.sgd(0.1), {'enc': {'kernel': True, 'bias': False}, 'out': [False, True]})",
        "optax.multi_transform({'a': optax.sgd(0.1), 'b': optax.set_to_zero()}, {'enc': {'kernel': 'a', 'bias': 'b'}, 'out': ['a', 'b']})",
        "optax.inject_hyperparams(optax.sgd)(learning_rate=0.1)",
        "optax.sgd(optax.exponential_decay(0.1, 1, 0.5))",
    ):
        c += [
            f"{mk.format(tx=tx)}\nout = s.apply_gradients(grads=GRADS).apply_gradients(grads=GRADS).params",
            f"{mk.format(tx=tx)}\nout = jax.tree.map(lambda x: (x.shape, x.dtype), s.apply_gradients(grads=GRADS).opt_state)",
        ]
    t = mk.format(tx="optax.adam(0.1)")
    c += [
        f"{t}\nout = (s.step, type(s.step).__name__)",
        f"{t}\ns2 = s.apply_gradients(grads=GRADS)\nout = (s2.step, type(s2.step).__name__)",
        f"{t}\nout = s.apply_fn(s.params, 4.0)",
        f"{t}\nout = s.replace(step=7).step",
        f"{t}\nout = s.replace(params={{'w': jnp.ones(1)}}).params",
        f"{t}\nout = s.replace(foo=1)",
        f"{t}\nout = s.apply_gradients(grads=GRADS, step=10).step",
        f"{t}\nout = s.apply_gradients(grads=GRADS, params=PARAMS).params == PARAMS",
        f"{t}\nout = s.apply_gradients(GRADS)",
        f"{t}\nout = s.apply_gradients(grads={{'enc': GRADS['enc']}})",
        f"{t}\nout = len(jax.tree.leaves(s))",
        f"{t}\nout = jax.tree.structure(s) == jax.tree.structure(s.apply_gradients(grads=GRADS))",
        f"{t}\nout = sorted(f.name for f in dataclasses.fields(s))",
        f"{t}\nout = [f.metadata.get('pytree_node', True) for f in dataclasses.fields(s)]",
        f"{t}\nout = jax.jit(lambda s, g: s.apply_gradients(grads=g))(s, GRADS).params",
        f"{t}\nout = jax.jit(lambda s: s.step + 1)(s)",
        f"{t}\nout = s.step = 3",
        f"{t}\nout = flax.serialization.to_state_dict(s)['step']",
        f"{t}\nout = sorted(flax.serialization.to_state_dict(s))",
        "TS.create(apply_fn=None, params=PARAMS)",
        "TS.create(apply_fn=None, params=PARAMS, tx=None)",
        "TS(step=0, apply_fn=None, params=PARAMS, tx=optax.sgd(0.1), opt_state=())",
        "s = TS.create(apply_fn=None, params={'w': jnp.ones(2, jnp.float16)}, tx=optax.adam(0.1))\nout = s.apply_gradients(grads={'w': jnp.ones(2, jnp.float16)}).params",
        "s = TS.create(apply_fn=None, params={'w': jnp.ones(2)}, tx=optax.sgd(0.1))\nout = s.apply_gradients(grads={'w': jnp.ones(2, jnp.int32)}).params",
        "s = TS.create(apply_fn=None, params=(jnp.ones(2), jnp.zeros(1)), tx=optax.sgd(1.0))\nout = s.apply_gradients(grads=(jnp.ones(2), jnp.ones(1))).params",
        "class S2(TS):\n    ema: dict = None\n    def apply_gradients(self, *, grads, **kw):\n        new = super().apply_gradients(grads=grads, **kw)\n        return new.replace(ema=jax.tree.map(lambda e, p: 0.5 * e + 0.5 * p, self.ema, new.params))\ns = S2.create(apply_fn=None, params={'w': jnp.ones(2)}, tx=optax.sgd(1.0), ema={'w': jnp.zeros(2)})\nout = s.apply_gradients(grads={'w': jnp.ones(2)}).ema",
        "def loss(p):\n    return (p['enc']['kernel'] ** 2).sum() + p['out'][1]\ns = TS.create(apply_fn=None, params=PARAMS, tx=optax.sgd(0.1))\nfor _ in range(3):\n    s = s.apply_gradients(grads=jax.grad(loss)(s.params))\nout = (s.step, s.params)",
    ]
    return c


def _utils() -> list[str]:
    c = [
        "CU.onehot(jnp.array([0, 2, 1]), 3)",
        "CU.onehot(jnp.array([0, 2, 1]), 3, on_value=5, off_value=-1)",
        "CU.onehot(jnp.array([[1], [0]]), 2)",
        "CU.onehot(jnp.array([-1, 3]), 3)",
        "CU.onehot(jnp.array([1.0, 0.0]), 2)",
        "CU.onehot(jnp.int32(1), 3)",
        "CU.onehot(jnp.array([0, 1], jnp.uint8), 2, on_value=jnp.float16(1))",
        "CU.onehot([0, 1], 2)",
        "jax.grad(lambda v: (CU.onehot(jnp.array([0, 1]), 2, on_value=v) * 3.0).sum())(1.0)",
        "x = jnp.arange(8).reshape(4, 2)\ny = CU.shard(x)\nout = (y.shape[0] == jax.local_device_count(), y.reshape(x.shape))",
        "x = {'a': jnp.arange(8.0), 'b': [jnp.ones((4, 1))]}\ny = CU.shard(x)\nout = jax.tree.map(lambda a, b: a.reshape(b.shape), y, x)",
        "x = np.arange(4)\nout = type(CU.shard(x)).__name__",
        "CU.stack_forest([{'a': jnp.ones(2)}, {'a': jnp.zeros(2)}])",
        "CU.stack_forest([(1.0, {'b': 2}), (3.0, {'b': 4})])",
        "isinstance(CU.stack_forest([{'a': jnp.ones(2)}])['a'], jax.Array)",
        "CU.stack_forest([])",
        "CU.stack_forest([{'a': 1}, {'b': 2}])",
        "n = jax.local_device_count()\nrep = jax.pmap(lambda x: x)\nm = [{'loss': rep(jnp.full((n,), 1.5)), 'acc': rep(jnp.full((n,), 2))}, {'loss': rep(jnp.full((n,), 0.5)), 'acc': rep(jnp.full((n,), 3))}]\nout = CU.get_metrics(m)",
        "n = jax.local_device_count()\nm = [{'loss': jax.pmap(lambda x: x)(jnp.full((n,), 1.5))}]\nout = isinstance(CU.get_metrics(m)['loss'], jax.Array)",
        "n = jax.local_device_count()\nout = CU.get_metrics([{'x': {'y': jax.pmap(lambda x: x)(jnp.arange(n * 2.0).reshape(n, 2) * 0 + 7)}}])",
        # EarlyStopping
        "ES()",
        "ES(min_delta=0.1, patience=2)",
        "es = ES(min_delta=0.1, patience=2)\nout = dataclasses.asdict(es)",
        "es = ES(patience=1)\nhist = []\nfor v in [3.0, 2.0, 2.5, 2.5, 1.0]:\n    es = es.update(v)\n    hist.append((es.should_stop, es.has_improved, es.patience_count, es.best_metric))\nout = hist",
        "es = ES(min_delta=0.5, patience=0)\nhist = []\nfor v in [1.0, 0.7, 0.4, 0.39]:\n    es = es.update(v)\n    hist.append((es.should_stop, es.has_improved, es.patience_count))\nout = hist",
        "es = ES(min_delta=-1.0, patience=1)\nfor v in [1.0, 1.5, 1.9]:\n    es = es.update(v)\nout = (es.best_metric, es.has_improved, es.should_stop)",
        "es = ES(patience=0)\nes = es.update(1.0).update(2.0)\nout = (es.should_stop, es.update(0.0).should_stop, es.update(0.0).best_metric)",
        "es = ES(patience=1).update(jnp.float32(2.0)).update(jnp.float32(1.0))\nout = (es.best_metric, es.has_improved)",
        "es = ES(patience=1).update(float('nan')).update(1.0)\nout = (es.best_metric, es.has_improved, es.patience_count)",
        "es = ES(patience=1).update(1.0).update(float('nan')).update(float('nan'))\nout = (es.best_metric, es.should_stop)",
        "es = ES(patience=2).update(1.0).update(2.0)\nout = (es.reset().best_metric, es.reset().patience_count, es.reset().patience) if hasattr(es, 'reset') else 'no reset'",
        "jax.tree.leaves(ES(min_delta=0.1, patience=2).update(1.0))",
        "out = ES(); out.patience = 3",
        "ES(patience=1).replace(patience=4).patience",
        # DynamicScale
        "DS()",
        "ds = DS()\nout = (ds.growth_factor, ds.backoff_factor, ds.growth_interval, ds.fin_steps, ds.scale, ds.minimum_scale)",
        "ds = DS(scale=8.0)\nf = ds.value_and_grad(lambda p: (p['w'] ** 2).sum())\nds2, fin, val, g = f({'w': jnp.arange(3.0)})\nout = (ds2.scale, ds2.fin_steps, fin, val, g)",
        "ds = DS(scale=8.0, growth_interval=2)\nf = lambda d: d.value_and_grad(lambda p: (p * 3.0).sum())(jnp.ones(2))\nd = ds\nhist = []\nfor _ in range(3):\n    d, fin, v, g = f(d)\n    hist.append((d.scale, d.fin_steps, fin))\nout = hist",
        "ds = DS(scale=8.0)\nds2, fin, val, g = ds.value_and_grad(lambda p: jnp.log(p).sum())(jnp.array([0.0, 1.0]))\nout = (ds2.scale, ds2.fin_steps, fin, val, g)",
        "ds = DS(scale=1.0, minimum_scale=0.75)\nds2, fin, val, g = ds.value_and_grad(lambda p: jnp.sqrt(p).sum())(jnp.array([0.0]))\nout = (ds2.scale, fin)",
        "ds = DS(scale=2.0)\nds2, fin, (val, aux), g = ds.value_and_grad(lambda p: ((p ** 2).sum(), {'n': p.sum()}), has_aux=True)(jnp.arange(2.0))\nout = (ds2.scale, fin, val, aux, g)",
        "ds = DS(scale=4.0)\nds2, fin, val, g = ds.value_and_grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(jnp.ones(2), jnp.arange(2.0))\nout = (fin, val, g)",
        "ds = DS(scale=4.0)\nds2, fin, val, g = jax.jit(lambda d, p: d.value_and_grad(lambda q: (q ** 3).sum())(p))(ds, jnp.arange(3.0))\nout = (ds2.scale, fin, val, g)",
        "ds = DS(scale=jnp.float16(4.0))\nds2, fin, val, g = ds.value_and_grad(lambda p: (p.astype(jnp.float16) * 1000).sum())(jnp.ones(2))\nout = (ds2.scale, fin, val, g)",
        "jax.tree.leaves(DS())",
        "ds = DS()\nout = ds.value_and_grad(lambda p: p.sum(), axis_name='i')",
    ]
    return c


def _checkpoints() -> list[str]:
    d = "d = rel()\n"
    t = "{'w': jnp.arange(3.0), 'n': {'b': jnp.ones((2, 2), jnp.int32)}, 's': 3}"
    z = "{'w': jnp.zeros(3), 'n': {'b': jnp.zeros((2, 2), jnp.int32)}, 's': 0}"
    c = [
        f"{d}p = CKPT.save_checkpoint(d, {t}, 3)\nout = (os.path.basename(p), files(d))",
        f"{d}CKPT.save_checkpoint(d, {t}, 3)\nout = CKPT.restore_checkpoint(d, {z})",
        f"{d}CKPT.save_checkpoint(d, {t}, 3)\nout = CKPT.restore_checkpoint(d, None)",
        f"{d}CKPT.save_checkpoint(d, {t}, 3)\nr = CKPT.restore_checkpoint(d, None)\nout = jax.tree.map(lambda x: type(x).__name__, r)",
        f"{d}CKPT.save_checkpoint(d, {t}, 3)\nr = CKPT.restore_checkpoint(d, {z})\nout = jax.tree.map(lambda x: type(x).__name__, r)",
        f"{d}for s in range(1, 5):\n    CKPT.save_checkpoint(d, {t}, s, keep=2)\nout = files(d)",
        f"{d}for s in range(1, 5):\n    CKPT.save_checkpoint(d, {t}, s)\nout = files(d)",
        f"{d}for s in (1, 2, 10, 11):\n    CKPT.save_checkpoint(d, {t}, s, keep=3)\nout = files(d)",
        f"{d}for s in range(1, 8):\n    CKPT.save_checkpoint(d, {t}, s, keep=1, keep_every_n_steps=3)\nout = files(d)",
        f"{d}CKPT.save_checkpoint(d, {t}, 2)\nCKPT.save_checkpoint(d, {t}, 1)",
        f"{d}CKPT.save_checkpoint(d, {t}, 2)\nCKPT.save_checkpoint(d, {t}, 2)",
        f"{d}CKPT.save_checkpoint(d, {t}, 2)\nCKPT.save_checkpoint(d, {{'w': jnp.ones(3)}}, 2, overwrite=True)\nout = (files(d), CKPT.restore_checkpoint(d, None))",
        f"{d}CKPT.save_checkpoint(d, {t}, 5, keep=3)\nCKPT.save_checkpoint(d, {t}, 3, keep=3, overwrite=True)\nout = files(d)",
        f"{d}CKPT.save_checkpoint(d, {t}, 1, keep=3)\nCKPT.save_checkpoint(d, {t}, 5, keep=3)\nCKPT.save_checkpoint(d, {t}, 3, keep=3, overwrite=True)\nout = files(d)",
        f"{d}CKPT.save_checkpoint(d, {t}, 1, prefix='ckpt_')\nCKPT.save_checkpoint(d, {t}, 2, prefix='other_')\nout = (files(d), os.path.basename(CKPT.latest_checkpoint(d, prefix='ckpt_')))",
        f"{d}CKPT.save_checkpoint(d, {t}, 1, prefix='ckpt_')\nout = CKPT.restore_checkpoint(d, {z}, prefix='ckpt_')['w']",
        f"{d}CKPT.save_checkpoint(d, {t}, 1, prefix='ckpt_')\nout = CKPT.restore_checkpoint(d, {z})['w']",
        f"{d}CKPT.save_checkpoint(d, {t}, 1, keep=5)\nCKPT.save_checkpoint(d, {{'w': jnp.ones(3)}}, 2, keep=5)\nout = (CKPT.restore_checkpoint(d, None, step=1)['w'], CKPT.restore_checkpoint(d, None)['w'])",
        f"{d}CKPT.save_checkpoint(d, {t}, 1)\nout = CKPT.restore_checkpoint(d, None, step=7)",
        f"{d}out = CKPT.restore_checkpoint(d, {z})",
        f"{d}out = CKPT.restore_checkpoint(os.path.join(d, 'missing'), {z})",
        f"{d}out = CKPT.latest_checkpoint(d)",
        f"{d}for s in (3, 10, 2):\n    CKPT.save_checkpoint(d, {t}, s, keep=5, overwrite=True)\nout = (os.path.basename(CKPT.latest_checkpoint(d)), CKPT.available_steps(d))",
        f"{d}p = CKPT.save_checkpoint(d, {t}, 4)\nout = CKPT.restore_checkpoint(p, {z})['n']",
        f"{d}p = CKPT.save_checkpoint(d, {t}, 1.5)\nout = (os.path.basename(p), CKPT.restore_checkpoint(d, None)['w'])",
        f"{d}p = CKPT.save_checkpoint(d, {t}, -1)\nout = os.path.basename(p)",
        f"{d}CKPT.save_checkpoint(d, {t}, 1)\nout = CKPT.restore_checkpoint(d, {{'w': jnp.zeros(3)}})",
        f"{d}CKPT.save_checkpoint(d, {t}, 1)\nout = CKPT.restore_checkpoint(d, {{'w': jnp.zeros(3), 'n': {{'b': 0}}, 's': 0, 'extra': 1}})",
        f"{d}CKPT.save_checkpoint(d, {t}, 1)\nout = CKPT.restore_checkpoint(d, {{'w': jnp.zeros(5), 'n': {{'b': 0}}, 's': 0}})",
        f"{d}CKPT.save_checkpoint(d, (jnp.ones(2), [1, 2.5]), 1)\nout = CKPT.restore_checkpoint(d, (jnp.zeros(2), [0, 0.0]))",
        f"{d}CKPT.save_checkpoint(d, (jnp.ones(2), [1, 2.5]), 1)\nout = CKPT.restore_checkpoint(d, None)",
        f"{d}CKPT.save_checkpoint(d, {{'k': jnp.arange(3, dtype=jnp.bfloat16), 'h': jnp.ones(2, jnp.float16), 'b': jnp.array([True])}}, 1)\nout = CKPT.restore_checkpoint(d, None)",
        f"{d}CKPT.save_checkpoint(d, {{'e': {{}}, 'n': None, 'x': jnp.ones(1)}}, 1)\nout = CKPT.restore_checkpoint(d, None)",
        f"{d}CKPT.save_checkpoint(d, Cfg(lr=jnp.float32(0.1)), 1)\nout = CKPT.restore_checkpoint(d, Cfg(lr=jnp.float32(0.0), depth=5))",
        f"{d}s = TS.create(apply_fn=None, params=PARAMS, tx=optax.adam(0.1)).apply_gradients(grads=GRADS)\nCKPT.save_checkpoint(d, s, int(s.step))\nr = CKPT.restore_checkpoint(d, TS.create(apply_fn=None, params=jax.tree.map(jnp.zeros_like, PARAMS), tx=optax.adam(0.1)))\nout = (r.step, r.params, r.opt_state)",
        f"{d}s = TS.create(apply_fn=None, params=PARAMS, tx=optax.adam(0.1))\nCKPT.save_checkpoint(d, s, 0)\nout = sorted(CKPT.restore_checkpoint(d, None))",
        f"{d}s = TS.create(apply_fn=None, params=PARAMS, tx=optax.adam(0.1))\nCKPT.save_checkpoint(d, s, 0)\nout = CKPT.restore_checkpoint(d, None)['opt_state']",
        f"{d}s = TS.create(apply_fn=None, params=PARAMS, tx=optax.sgd(0.1, momentum=0.9))\nCKPT.save_checkpoint(d, s, 0)\nout = CKPT.restore_checkpoint(d, None)['opt_state']",
        f"{d}CKPT.save_checkpoint(d, {t}, 1)\nout = CKPT.latest_checkpoint(d, prefix='nope_')",
        f"{d}CKPT.save_checkpoint(d, {t}, 1, keep=0)\nout = files(d)",
        f"{d}CKPT.save_checkpoint(os.path.join(d, 'a', 'b'), {t}, 1)\nout = files(os.path.join(d, 'a', 'b'))",
        f"{d}CKPT.save_checkpoint(d, {t}, 1)\nCKPT.save_checkpoint(d, {t}, 2, prefix='ckpt_')\nout = files(d)",
    ]
    return c


def _struct_and_jax_utils() -> list[str]:
    c = [
        "Cfg(lr=jnp.float32(0.1))",
        "jax.tree.leaves(Cfg(lr=jnp.float32(0.1), depth=3, tags=('x', 'y')))",
        "jax.tree.structure(Cfg(lr=jnp.float32(0.1))) == jax.tree.structure(Cfg(lr=jnp.float32(0.2)))",
        "jax.tree.structure(Cfg(lr=jnp.float32(0.1))) == jax.tree.structure(Cfg(lr=jnp.float32(0.1), depth=3))",
        "Cfg(lr=jnp.float32(0.1)).replace(depth=4)",
        "Cfg(lr=jnp.float32(0.1)).replace(nope=4)",
        "Cfg(jnp.float32(0.1), 3, ('z',))",
        "Cfg()",
        "jax.jit(lambda c: c.lr * c.depth)(Cfg(lr=jnp.float32(0.5), depth=4))",
        "jax.grad(lambda c: c.lr ** 2)(Cfg(lr=jnp.float32(3.0)))",
        "jax.vmap(lambda c: c.lr * 2)(Cfg(lr=jnp.arange(3.0)))",
        "hash(Cfg(lr=1.0)) == hash(Cfg(lr=1.0))",
        "Cfg(lr=1.0) == Cfg(lr=1.0)",
        "flax.serialization.to_state_dict(Cfg(lr=jnp.float32(0.1), depth=7))",
        "flax.serialization.from_state_dict(Cfg(lr=jnp.float32(0.1), depth=7), {'lr': jnp.float32(0.9)})",
        "jax.tree_util.tree_flatten_with_path(Cfg(lr=jnp.float32(0.1)))[0]",
        "Acc(jnp.float32(0)).add(2.0).add(3.0)",
        "jax.tree.leaves(Acc(jnp.float32(1), count=4))",
        "out = Acc(jnp.float32(0)); out.total = 1",
        "out = Acc(jnp.float32(0)); del out.total",
        "Acc(jnp.float32(0), 2, 'n').replace(name='m')",
        "jax.jit(lambda a: a.add(1.0))(Acc(jnp.float32(0)))",
        "dataclasses.is_dataclass(Acc(jnp.float32(0)))",
        "[f.name for f in dataclasses.fields(Acc)]",
        "[f.metadata.get('pytree_node', True) for f in dataclasses.fields(Acc)]",
        "class K(flax.struct.PyTreeNode):\n    a: int\n    b: int = flax.struct.field(pytree_node=False, default=1)\nout = (K(1), jax.tree.leaves(K(a=jnp.ones(1), b=5)))",
        "class K(flax.struct.PyTreeNode):\n    a: int\nout = K(1, 2)",
        "class K(flax.struct.PyTreeNode, kw_only=True):\n    a: int = 0\n    b: int\nout = K(b=2)",
        "@flax.struct.dataclass\nclass P:\n    x: float\n    y: float = 0.0\nout = (P(1.0), P(1.0).replace(y=2.0), jax.tree.map(lambda v: v * 2, P(1.0, 3.0)))",
        "@flax.struct.dataclass(frozen=False)\nclass P:\n    x: float\nout = P(1.0)",
        "flax.struct.field(pytree_node=False).metadata",
        "flax.struct.field(default=3).metadata",
        # jax_utils
        "r = JU.replicate({'a': jnp.arange(3.0), 'b': 2})\nout = jax.tree.map(lambda x: (x.shape[0] == jax.local_device_count(), x.shape[1:], x.dtype), r)",
        "JU.unreplicate(JU.replicate({'a': jnp.arange(3.0), 'b': (jnp.int8(2),)}))",
        "isinstance(JU.unreplicate(JU.replicate(jnp.ones(2))), jax.Array)",
        "JU.unreplicate({'a': jnp.arange(6).reshape(3, 2)})",
        "JU.unreplicate(jnp.float32(1))",
        "s = TS.create(apply_fn=None, params={'w': jnp.ones(2)}, tx=optax.sgd(0.1))\nout = JU.unreplicate(JU.replicate(s)).params",
        "JU.pad_shard_unpad(lambda x: x * 2)(jnp.arange(5.0))",
        "JU.pad_shard_unpad(lambda x: x.sum(axis=-1, keepdims=True))(jnp.arange(10.0).reshape(5, 2))",
        "JU.pad_shard_unpad(lambda p, x: x * p, static_argnums=(0,))(3.0, jnp.arange(3.0))",
        "JU.pad_shard_unpad(lambda x: {'y': x + 1})({'a': jnp.arange(3)} and jnp.arange(3))",
        "JU.pad_shard_unpad(lambda x: x * 2, min_device_batch=4)(jnp.arange(3.0))",
        "JU.pmean({'a': 1.0}, 'i')",
        "jax.pmap(lambda x: JU.pmean(x, 'd'), axis_name='d')(jnp.ones((1, 2)))",
        "JU.scan_in_dim(lambda c, x: (c + x, c * x), 0.0, jnp.arange(6.0).reshape(2, 3), axis=(1,))",
        "JU.scan_in_dim(lambda c, x: (c + x, c), jnp.zeros(2), jnp.arange(6.0).reshape(3, 2), axis=(0,), keepdims=True)",
        "JU.partial_eval_by_shape(lambda x: x.sum(0), [((3, 2), jnp.float32)])",
    ]
    return c


def cases() -> list[str]:
    return _train_state() + _utils() + _checkpoints() + _struct_and_jax_utils()
