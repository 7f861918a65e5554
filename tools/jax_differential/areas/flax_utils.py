"""flax.serialization, flax.traverse_util, flax.core's FrozenDict helpers, flax.struct and
flax.training's TrainState, as programs use them to save, inspect and edit their state.
"""

# ruff: noqa: E501

PRELUDE = """
import sys, types
sys.modules.setdefault('cases', types.ModuleType('cases'))  # dataclasses look their module up
@flax.struct.dataclass
class Box:
    w: jax.Array
    b: jax.Array
    name: str = flax.struct.field(pytree_node=False, default='box')
class Node(flax.struct.PyTreeNode):
    value: jax.Array
    meta: int = flax.struct.field(pytree_node=False, default=3)
NESTED = {'enc': {'dense': {'kernel': jnp.ones((2, 3)), 'bias': jnp.zeros(3)}, 'ln': {'scale': jnp.ones(3)}}, 'head': {'kernel': jnp.arange(6.0).reshape(3, 2)}}
IMG = jnp.cos(jnp.arange(2 * 5 * 6 * 3) * 0.37).reshape(2, 5, 6, 3)
"""


def cases() -> list[str]:
    ser, tu, fd = "flax.serialization", "flax.traverse_util", "flax.core.frozen_dict"
    c = [
        # serialization: state dicts
        f"{ser}.to_state_dict({{'a': 1, 'b': [1, 2], 'c': (3.0, None)}})",
        f"{ser}.to_state_dict((jnp.ones(2), 2))",
        f"{ser}.to_state_dict([])",
        f"{ser}.to_state_dict(Pt(1.0, jnp.arange(2)))",
        f"{ser}.to_state_dict(Box(jnp.ones(2), jnp.zeros(1)))",
        f"{ser}.to_state_dict(Node(jnp.ones(2)))",
        f"{ser}.to_state_dict(flax.core.freeze({{'a': {{'b': 1}}}}))",
        f"{ser}.to_state_dict(optax.adam(1e-3).init({{'w': jnp.ones(2)}}))",
        f"{ser}.to_state_dict(optax.chain(optax.clip_by_global_norm(1.0), optax.sgd(0.1, momentum=0.9)).init({{'w': jnp.ones(2)}}))",
        f"{ser}.from_state_dict({{'a': 0, 'b': [0, 0]}}, {{'a': 5, 'b': {{'0': 6, '1': 7}}}})",
        f"{ser}.from_state_dict(Box(jnp.ones(2), jnp.zeros(1)), {{'w': jnp.arange(2.0), 'b': jnp.ones(1)}})",
        f"{ser}.from_state_dict(Pt(0, 0), {{'x': 3, 'y': 4}})",
        f"{ser}.from_state_dict((0, 0), {{'0': 3, '1': 4}})",
        f"{ser}.from_state_dict({{'a': 0}}, {{'a': 1, 'b': 2}})",
        f"{ser}.from_state_dict({{'a': 0, 'b': 1}}, {{'a': 1}})",
        f"{ser}.from_state_dict([0, 0], {{'0': 1}})",
        f"{ser}.from_state_dict(Box(jnp.ones(2), jnp.zeros(1)), {{'w': jnp.ones(2)}})",
        f"{ser}.from_state_dict(Pt(0, 0), {{'x': 3}})",
        f"{ser}.from_state_dict(optax.adam(1e-3).init({{'w': jnp.ones(2)}}), {ser}.to_state_dict(optax.adam(1e-3).init({{'w': jnp.full(2, 3.0)}})))",
        # serialization: bytes
        f"{ser}.msgpack_serialize({{'a': np.arange(3, dtype=np.int32), 'b': 1.5, 'c': 'x'}})",
        f"{ser}.msgpack_serialize({{'a': np.ones((2, 2), np.float32)}})",
        f"{ser}.msgpack_serialize({{'z': np.complex64(1 + 2j)}})",
        f"{ser}.msgpack_serialize({{'z': np.zeros(2, np.complex64)}})",
        f"{ser}.msgpack_serialize({{'t': (1, 2), 'l': [3], 'n': None}})",
        f"{ser}.msgpack_restore({ser}.msgpack_serialize({{'a': np.arange(3), 'b': {{'c': np.float16(2)}}}}))",
        f"{ser}.msgpack_restore({ser}.msgpack_serialize({{'a': np.zeros((2, 0), np.float32)}}))",
        f"{ser}.msgpack_restore({ser}.msgpack_serialize({{'z': np.array([1 + 1j], np.complex128)}}))",
        f"{ser}.to_bytes({{'w': jnp.arange(3.0)}})",
        f"{ser}.to_bytes({{'w': jnp.arange(3, dtype=jnp.bfloat16)}})",
        f"{ser}.to_bytes({{'b': jnp.array([True, False])}})",
        f"{ser}.to_bytes(jnp.float32(2.5))",
        f"{ser}.to_bytes({{'k': jnp.int8(3), 'u': jnp.uint16(7)}})",
        f"{ser}.to_bytes(Box(jnp.ones(2), jnp.zeros(1)))",
        f"{ser}.to_bytes(optax.adam(1e-3).init({{'w': jnp.ones(2)}}))",
        f"{ser}.from_bytes({{'w': jnp.zeros(3)}}, {ser}.to_bytes({{'w': jnp.arange(3.0)}}))",
        f"{ser}.from_bytes({{'w': jnp.zeros(3), 's': 0}}, {ser}.to_bytes({{'w': jnp.arange(3.0), 's': 4}}))",
        f"{ser}.from_bytes(Box(jnp.zeros(2), jnp.zeros(1)), {ser}.to_bytes(Box(jnp.ones(2), jnp.full(1, 2.0))))",
        f"{ser}.from_bytes({{'w': jnp.zeros(3)}}, {ser}.to_bytes({{'v': jnp.arange(3.0)}}))",
        f"{ser}.from_bytes({{'w': jnp.zeros(3)}}, b'not msgpack')",
        f"type({ser}.from_bytes({{'w': jnp.zeros(3)}}, {ser}.to_bytes({{'w': jnp.arange(3.0)}}))['w']).__name__",
        f"{ser}.from_bytes({{'w': jnp.zeros(3)}}, {ser}.to_bytes({{'w': jnp.arange(4.0)}}))",
        f"{ser}.from_bytes({{'w': jnp.zeros(3, jnp.int32)}}, {ser}.to_bytes({{'w': jnp.arange(3.0)}}))['w'].dtype",
        # traverse_util
        f"{tu}.flatten_dict(NESTED)",
        f"{tu}.flatten_dict(NESTED, sep='/')",
        f"{tu}.flatten_dict({{'a': {{}}, 'b': {{'c': 1}}}})",
        f"{tu}.flatten_dict({{'a': {{}}, 'b': {{'c': 1}}}}, keep_empty_nodes=True)",
        f"{tu}.flatten_dict(NESTED, is_leaf=lambda path, x: path == ('enc',))",
        f"{tu}.flatten_dict(flax.core.freeze(NESTED), sep='.')",
        f"{tu}.flatten_dict({{}})",
        f"{tu}.flatten_dict({{'a': 1}}, sep='/')",
        f"{tu}.unflatten_dict({tu}.flatten_dict(NESTED))",
        f"{tu}.unflatten_dict({{'a/b': 1, 'a/c': 2, 'd': 3}}, sep='/')",
        f"{tu}.unflatten_dict({{('a', 'b'): 1, ('a', 'c'): 2}})",
        f"{tu}.unflatten_dict({{('a',): 1, ('a', 'b'): 2}})",
        f"{tu}.unflatten_dict({tu}.flatten_dict({{'a': {{}}, 'b': 1}}, keep_empty_nodes=True))",
        f"{tu}.path_aware_map(lambda path, x: x * 0 if 'bias' in path else x, NESTED)",
        f"{tu}.path_aware_map(lambda path, x: '/'.join(path), NESTED)",
        f"{tu}.path_aware_map(lambda path, x: 'frozen' if path[0] == 'enc' else 'trainable', NESTED)",
        f"type({tu}.path_aware_map(lambda p, x: x, flax.core.freeze(NESTED))).__name__",
        f"repr({tu}.empty_node)",
        # FrozenDict and flax.core helpers
        "flax.core.freeze({'a': {'b': 1}})",
        "repr(flax.core.freeze({'a': {'b': 1}, 'c': jnp.ones(2)}))",
        "str(flax.core.freeze({'a': 1}))",
        "flax.core.unfreeze(flax.core.freeze({'a': {'b': 1}}))",
        "type(flax.core.unfreeze(flax.core.freeze({'a': {'b': 1}}))['a']).__name__",
        "flax.core.unfreeze({'a': {'b': 1}})",
        "flax.core.freeze({'a': 1}) == flax.core.freeze({'a': 1})",
        "flax.core.freeze({'a': 1}) == {'a': 1}",
        "hash(flax.core.freeze({'a': 1})) == hash(flax.core.freeze({'a': 1}))",
        "hash(flax.core.freeze({'a': [1]}))",
        "flax.core.freeze({'a': 1})['b']",
        "out = flax.core.freeze({'a': 1}); out['a'] = 2",
        "flax.core.freeze({'a': 1, 'b': 2}).copy({'c': 3})",
        "flax.core.freeze({'a': 1, 'b': 2}).pop('a')",
        "flax.core.freeze({'a': 1, 'b': 2}).pop('z')",
        "list(flax.core.freeze({'b': 1, 'a': 2}).keys())",
        "flax.core.freeze({'b': 1, 'a': 2}).items()",
        "len(flax.core.freeze({'a': 1, 'b': {'c': 2}}))",
        "flax.core.pop({'a': 1, 'b': 2}, 'a')",
        "flax.core.pop(flax.core.freeze({'a': 1, 'b': 2}), 'b')",
        "type(flax.core.pop({'a': 1, 'b': 2}, 'a')[0]).__name__",
        "flax.core.copy({'a': 1}, {'b': 2})",
        "flax.core.copy(flax.core.freeze({'a': 1}), {'b': 2})",
        "flax.core.copy({'a': 1})",
        f"{fd}.pretty_repr({{'a': {{'b': 1, 'c': jnp.ones(2)}}, 'd': 'x'}})",
        f"{fd}.pretty_repr(flax.core.freeze({{'a': {{}}, 'b': 2}}))",
        f"{fd}.pretty_repr({{}})",
        f"{fd}.pretty_repr(flax.core.freeze({{'a': {{'b': {{'c': 1}}}}}}), num_spaces=2)",
        "flax.core.freeze({'a': 1}).pretty_repr()",
        "jax.tree.leaves(flax.core.freeze({'b': 1, 'a': {'c': 2, 'd': 3}}))",
        "jax.tree_util.tree_flatten_with_path(flax.core.freeze({'b': 1, 'a': 2}))[0]",
        "jax.tree.map(lambda x: x + 1, flax.core.freeze({'a': 1, 'b': {'c': 2}}))",
        "type(jax.tree.map(lambda x: x, flax.core.freeze({'a': 1}))).__name__",
        "jax.tree.structure(flax.core.freeze({'a': 1}))",
        "flax.core.freeze({'a': 1}) | {'b': 2}",
        "dict(flax.core.freeze({'a': 1, 'b': {'c': 2}}))",
        "flax.core.frozen_dict.FrozenDict(a=1, b=2)",
        "flax.core.frozen_dict.FrozenDict({'a': 1}, b=2)",
        "jax.jit(lambda d: d['a'] * 2)(flax.core.freeze({'a': jnp.ones(2)}))",
        # flax.struct
        "Box(jnp.ones(2), jnp.zeros(1))",
        "jax.tree.leaves(Box(jnp.ones(2), jnp.zeros(1), name='n'))",
        "jax.tree.structure(Box(jnp.ones(2), jnp.zeros(1)))",
        "Box(jnp.ones(2), jnp.zeros(1)).replace(b=jnp.ones(1))",
        "Box(jnp.ones(2), jnp.zeros(1)).replace(name='other').name",
        "out = Box(jnp.ones(2), jnp.zeros(1)); out.w = 3",
        "Box(jnp.ones(2))",
        "jax.tree.map(lambda x: x * 2, Box(jnp.ones(2), jnp.ones(1), name='k'))",
        "jax.jit(lambda b: b.w.sum() + b.b.sum())(Box(jnp.ones(2), jnp.ones(1)))",
        "jax.grad(lambda b: (b.w ** 2).sum())(Box(jnp.arange(2.0), jnp.ones(1)))",
        "jax.vmap(lambda b: b.w * b.b)(Box(jnp.ones((3, 2)), jnp.arange(3.0).reshape(3, 1)))",
        "jax.tree_util.tree_flatten_with_path(Box(jnp.ones(2), jnp.zeros(1)))[0]",
        "Node(jnp.ones(2))",
        "Node(jnp.ones(2)).replace(meta=5).meta",
        "jax.tree.leaves(Node(jnp.ones(2), meta=7))",
        "jax.tree.structure(Node(jnp.ones(2), meta=7)) == jax.tree.structure(Node(jnp.zeros(2), meta=7))",
        "jax.tree.structure(Node(jnp.ones(2), meta=7)) == jax.tree.structure(Node(jnp.ones(2), meta=8))",
        "out = Node(jnp.ones(2)); out.value = 1",
        "dataclasses.fields(Box)[2].metadata['pytree_node']",
        "dataclasses.is_dataclass(Node)",
        # TrainState
        "s = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)}, tx=optax.sgd(0.1)); out = (s.step, s.params, s.opt_state)",
        "s = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)}, tx=optax.adamw(0.1)); out = s.apply_gradients(grads={'w': jnp.full(2, 0.5)})",
        "s = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)}, tx=optax.adam(0.1)); s = s.apply_gradients(grads={'w': jnp.ones(2)}); out = (s.step, type(s.step).__name__)",
        "s = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)}, tx=optax.sgd(0.1)); out = jax.tree.leaves(s)",
        "s = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)}, tx=optax.sgd(0.1)); out = s.replace(step=5).step",
        "s = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)}, tx=optax.sgd(0.1, momentum=0.9)); out = jax.jit(lambda s, g: s.apply_gradients(grads=g))(s, {'w': jnp.ones(2)})",
        "s = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)}, tx=optax.sgd(0.1)); out = s.apply_gradients(grads={'v': jnp.ones(2)})",
        "s = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)}, tx=optax.sgd(0.1)); out = flax.serialization.to_state_dict(s)",
        "s = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)}, tx=optax.adam(0.1)); t = s.apply_gradients(grads={'w': jnp.ones(2)}); out = flax.serialization.from_bytes(s, flax.serialization.to_bytes(t))",
        "s = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)}, tx=optax.sgd(0.1), extra=1)",
        "class S(flax.training.train_state.TrainState):\n    batch_stats: dict = None\ns = S.create(apply_fn=None, params={'w': jnp.ones(2)}, tx=optax.sgd(0.1), batch_stats={'m': jnp.zeros(2)})\nout = (s.batch_stats, jax.tree.leaves(s))",
        # common_utils and early stopping
        "flax.training.common_utils.onehot(jnp.array([0, 2, 1]), 3)",
        "flax.training.common_utils.onehot(jnp.array([[0, 3]]), 4, on_value=2.0, off_value=-1.0)",
        "flax.training.common_utils.onehot(jnp.array([0, 5]), 3)",
        "flax.training.common_utils.stack_forest([{'a': jnp.ones(2)}, {'a': jnp.zeros(2)}])",
        "flax.training.common_utils.stack_forest([{'a': 1.0}, {'a': 2.0}])",
        "es = flax.training.early_stopping.EarlyStopping(min_delta=0.1, patience=1)\nfor v in [1.0, 0.95, 0.97, 0.5]:\n    es = es.update(v)\nout = (es.should_stop, es.best_metric, es.patience_count)",
        "es = flax.training.early_stopping.EarlyStopping(patience=0)\nes = es.update(1.0)\nes = es.update(1.0)\nout = (es.should_stop, es.has_improved)",
    ]
    return c
