"""jax.tree_util (`tree_util`): flatten/unflatten with and without paths, keystr, tree_map
and its relatives over dicts, lists, tuples, namedtuples, None and registered nodes and
dataclasses, and their errors.
"""

# ruff: noqa: E501


def cases() -> list[str]:
    t = "{'b': [1, (2.0, None)], 'a': jnp.ones(2), 'c': {'d': Pt(3, 4), 'e': ()}}"
    c = [
        f"jtu.tree_flatten({t})",
        f"jtu.tree_flatten_with_path({t})",
        f"[jtu.keystr(p) for p, _ in jtu.tree_flatten_with_path({t})[0]]",
        f"[jtu.keystr(p, simple=True, separator='/') for p, _ in jtu.tree_leaves_with_path({t})]",
        f"[jtu.keystr(p, simple=True) for p, _ in jtu.tree_leaves_with_path({t})]",
        "jtu.keystr(())",
        "jtu.keystr((), simple=True, separator='/')",
        "[(str(k), repr(k), type(k).__name__) for p, _ in "
        "jtu.tree_leaves_with_path({'a': [Pt(1, 2)]}) for k in p]",
        f"jtu.tree_map_with_path(lambda p, x: jtu.keystr(p), {t})",
        "jtu.tree_map_with_path(lambda p, x, y: len(p), {'a': 1, 'b': [2]}, {'a': 3, 'b': [4]})",
        "jtu.tree_map_with_path(lambda p, x: p, [1, (2,)], is_leaf=lambda x: isinstance(x, tuple))",
        f"repr(jtu.tree_structure({t}))",
        f"str(jtu.tree_structure({t}))",
        "repr(jtu.tree_structure(None))",
        "repr(jtu.tree_structure(1))",
        "repr(jtu.tree_structure((None,)))",
        "repr(jtu.tree_structure(collections.OrderedDict([('b', 1), ('a', 2)])))",
        "repr(jtu.tree_structure(collections.defaultdict(list, {'b': 1, 'a': 2})))",
        "repr(jtu.tree_structure(Pt(1, [2])))",
        "repr(jtu.tree_structure({1: 'x', 0: 'y'}))",
        "repr(jtu.tree_structure(jtu.Partial(jnp.add, 1.0)))",
        f"jtu.tree_structure({t}).num_leaves",
        f"jtu.tree_structure({t}).num_nodes",
        f"[repr(d) for d in jtu.tree_structure({t}).children()]",
        f"jtu.tree_structure({t}).unflatten(list(range(6)))",
        f"jtu.tree_structure({t}).unflatten(list(range(5)))",
        f"jtu.tree_structure({t}).unflatten(list(range(7)))",
        f"jtu.tree_structure({t}).flatten_up_to({t})",
        "jtu.tree_structure([1, (2, 3)]).flatten_up_to([[5], (6, [7])])",
        "jtu.tree_structure([1, (2, 3)]).flatten_up_to([1, [2, 3]])",
        "jtu.tree_structure([1, (2, 3)]).flatten_up_to([1, (2,)])",
        "jtu.tree_structure([1, {'a': 2}]).flatten_up_to([1, {'b': 2}])",
        "jtu.tree_structure([1, 2]).flatten_up_to((1, 2))",
        "jtu.tree_structure([1, 2]).flatten_up_to([1, 2, 3])",
        "jtu.tree_structure([1, 2]) == jtu.tree_structure([3, 4])",
        "jtu.tree_structure([1, 2]) == jtu.tree_structure((3, 4))",
        "jtu.tree_structure({'a': 1}).node_data()",
        "jtu.tree_structure([1, 2]).node_data()",
        "jtu.tree_structure((1, 2)).node_data()",
        "jtu.tree_structure(None).node_data()",
        "jtu.tree_structure(1).node_data()",
        "repr(jtu.tree_structure([1, 2]).compose(jtu.tree_structure((1, 2))))",
        "repr(jtu.treedef_tuple([jtu.tree_structure(1), jtu.tree_structure([1, 2])]))",
        "[repr(x) for x in jtu.treedef_children(jtu.tree_structure({'a': 1, 'b': [2, 3]}))]",
        "jtu.treedef_is_leaf(jtu.tree_structure(1))",
        "jtu.treedef_is_leaf(jtu.tree_structure(None))",
        "jtu.treedef_is_strict_leaf(jtu.tree_structure(None))",
        "jtu.all_leaves([1, 2.0, jnp.ones(2)])",
        "jtu.all_leaves([1, [2]])",
        "jtu.all_leaves([None])",
        "jtu.tree_leaves([None, 1, (), [None, 2]])",
        "jtu.tree_leaves([None, 1], is_leaf=lambda x: x is None)",
        "jtu.tree_leaves({'a': (1, 2), 'b': 3}, is_leaf=lambda x: isinstance(x, tuple))",
        "jtu.tree_map(lambda a, b: a + b, {'a': 1, 'b': 2}, {'a': 10, 'b': 20})",
        "jtu.tree_map(lambda a, b: a, {'a': 1}, {'b': 1})",
        "jtu.tree_map(lambda a, b: a, {'a': 1}, {'a': 1, 'b': 2})",
        "jtu.tree_map(lambda a, b: a, (1, 2), [1, 2])",
        "jtu.tree_map(lambda a, b: a, (1, 2), (1, 2, 3))",
        "jtu.tree_map(lambda a, b: a, [1, 2], [1])",
        "jtu.tree_map(lambda a, b: a, [1, None], [1, 2])",
        "jtu.tree_map(lambda a, b: a, [1, 2], [1, None])",
        "jtu.tree_map(lambda a, b: (a, b), [1, 2], [[3], (4, 5)])",
        "jtu.tree_map(lambda a, b: a, Pt(1, 2), (1, 2))",
        "jtu.tree_map(lambda a, b: a, {'a': 1}, 5)",
        "jtu.tree_map(lambda a: a, 1, 2)",
        "jtu.tree_map(lambda a, b: a, collections.OrderedDict(a=1, b=2), {'a': 1, 'b': 2})",
        "jtu.tree_map(lambda a, b: a, {'a': 1, 'b': 2}, collections.OrderedDict(b=1, a=2))",
        "jtu.tree_map(lambda x: x, {'a': 1, 2: 3})",
        "jtu.tree_leaves({'a': 1, 2: 3})",
        "jtu.tree_map(lambda x: x * 2, [1, None, (2,)])",
        "jtu.tree_map(lambda x: x, [], is_leaf=lambda x: True)",
        "jtu.tree_transpose(jtu.tree_structure([0, 0]), jtu.tree_structure((0, 0, 0)), "
        "[(1, 2, 3), (4, 5, 6)])",
        "jtu.tree_transpose(jtu.tree_structure([0, 0]), jtu.tree_structure((0, 0)), "
        "[(1, 2, 3), (4, 5, 6)])",
        "jtu.tree_transpose(jtu.tree_structure([0, 0]), None, [(1, 2), (3, 4)])",
        "jtu.tree_reduce(lambda a, b: a + b, [1, 2, 3])",
        "jtu.tree_reduce(lambda a, b: a + b, [], 7)",
        "jtu.tree_reduce(lambda a, b: a + b, [])",
        "jtu.tree_reduce(lambda a, b: a + b, [[1], 2], is_leaf=lambda x: isinstance(x, list) and len(x) == 1)",
        "jtu.tree_all([True, 1, [0]])",
        "jtu.tree_all([])",
        "jtu.tree_all([True, [jnp.array(True)]])",
        "jtu.tree_unflatten(jtu.tree_structure([1, (2, 3)]), 'abc')",
        "jtu.tree_unflatten(jtu.tree_structure([1, (2, 3)]), 'ab')",
        "jtu.build_tree(jtu.tree_structure([1, (2, 3)]), [7, (8, 9)])",
        "jtu.Partial(jnp.add, 1.0)(2.0)",
        "jtu.tree_leaves(jtu.Partial(jnp.add, 1.0, y=2))",
        "jtu.tree_flatten_with_path(jtu.Partial(jnp.add, 1.0))[0]",
        "jax.tree.map(lambda x: x + 1, {'a': 1, 'b': (2, 3)})",
        "jax.tree.leaves({'b': 1, 'a': [2, None]})",
        "jax.tree.leaves([None, 1], is_leaf=lambda x: x is None)",
        "repr(jax.tree.structure({'b': 1, 'a': [2, None]}))",
        "jax.tree.flatten_with_path({'b': 1, 'a': [2]})",
        "jax.tree.leaves_with_path(Pt(1, [2]))",
        "jax.tree.map_with_path(lambda p, x: len(p), {'a': [1, 2]})",
        "jax.tree.reduce(jnp.maximum, [1, 5, 3])",
        "jax.tree.reduce_associative(lambda a, b: a + b, [1, 2, 3, 4])",
        "jax.tree.reduce_associative(lambda a, b: a + b, [])",
        "jax.tree.reduce_associative(lambda a, b: a + b, [], identity=0)",
        "jax.tree.all([1, 2])",
        "jax.tree.transpose(jax.tree.structure([0, 0]), jax.tree.structure((0, 0)), [(1, 2), (3, 4)])",
        "jax.tree.broadcast([1, 2], [[3, 4], (5,)])",
        "jax.tree.broadcast(1, {'a': 2, 'b': [3]})",
        "jax.tree.broadcast([1, 2], [3])",
        "jax.tree.flatten({'b': 1, 'a': 2})",
        "jax.tree.unflatten(jax.tree.structure((1, 2)), [5, 6])",
        "jax.tree.map(lambda x: x, {'a': 1}, {'a': 2, 'b': 3})",
        "jax.tree.map(lambda x, y: x + y, (1, 2), (3,))",
        "jtu.tree_map(lambda x, y: x + y, {'a': 1, 'b': 2}, {'a': 1, 'c': 2})",
        "jtu.tree_map(lambda x, y: x + y, collections.OrderedDict(a=1, b=2), "
        "collections.OrderedDict(b=1, a=2))",
        "jtu.tree_map(lambda x, y: x + y, collections.defaultdict(int, a=1), {'a': 2})",
        "jtu.tree_flatten_with_path(collections.OrderedDict([('b', 1), ('a', 2)]))",
        "jtu.tree_flatten_with_path(collections.defaultdict(int, b=1, a=2))",
        "[repr(k) for p, _ in jtu.tree_flatten_with_path(jtu.Partial(jnp.add, 1.0))[0] for k in p]",
        "jtu.tree_flatten_with_path([1, None, [2]])[1] == jtu.tree_structure([1, None, [2]])",
        "repr(jtu.tree_flatten_with_path([1, None, [2]])[1])",
        "jtu.SequenceKey(2), jtu.DictKey('a'), jtu.GetAttrKey('x'), jtu.FlattenedIndexKey(3)",
        "[str(k) for k in (jtu.SequenceKey(2), jtu.DictKey('a'), jtu.GetAttrKey('x'), "
        "jtu.FlattenedIndexKey(3), jtu.DictKey(1))]",
        "jtu.SequenceKey(2) == jtu.SequenceKey(2), jtu.SequenceKey(2) == jtu.FlattenedIndexKey(2)",
        "hash(jtu.DictKey('a')) == hash(jtu.DictKey('a'))",
        "jtu.SequenceKey(2).idx, jtu.DictKey('a').key, jtu.GetAttrKey('x').name, "
        "jtu.FlattenedIndexKey(3).key",
        "jtu.keystr((jtu.SequenceKey(0), jtu.DictKey('a'), jtu.GetAttrKey('x'), "
        "jtu.FlattenedIndexKey(3)))",
        "jtu.keystr((jtu.SequenceKey(0), jtu.DictKey('a'), jtu.GetAttrKey('x'), "
        "jtu.FlattenedIndexKey(3)), simple=True, separator='.')",
        "jtu.keystr((jtu.DictKey(1), jtu.DictKey((1, 2)), jtu.DictKey(None)))",
        "jtu.tree_flatten([1, 2], is_leaf=lambda x: isinstance(x, list))",
        "jtu.tree_flatten_with_path([1, 2], is_leaf=lambda x: isinstance(x, list))",
        "jtu.tree_flatten_with_path([1, [2]], is_leaf=lambda p, x: len(p) == 1, is_leaf_takes_path=True)",
        "jtu.tree_map_with_path(lambda p, x: jtu.keystr(p), [1, [2]], "
        "is_leaf=lambda p, x: len(p) == 1, is_leaf_takes_path=True)",
        "jtu.tree_map(lambda x: x, [1, [2]], is_leaf=lambda p, x: True, is_leaf_takes_path=True)",
    ]
    c += [
        """
@functools.partial(jtu.register_dataclass, data_fields=['x'], meta_fields=['n'])
@dataclasses.dataclass
class DC:
    x: object
    n: int
v = DC(jnp.ones(2), 3)
out = (jtu.tree_leaves(v), repr(jtu.tree_structure(v)).replace(' at 0x', '@'),
       [jtu.keystr(p) for p, _ in jtu.tree_leaves_with_path(v)], jtu.tree_map(lambda a: a * 2, v).x,
       jtu.tree_map(lambda a: a * 2, v).n)
""",
        """
@jtu.register_dataclass
@dataclasses.dataclass
class DC2:
    x: object
    y: object
    n: int = dataclasses.field(metadata=dict(static=True), default=4)
v = DC2(1, [2, 3])
out = (jtu.tree_flatten_with_path(v)[0], jtu.tree_map(lambda a: a + 1, v).n,
       jtu.tree_structure(v).num_leaves, jtu.tree_structure(v) == jtu.tree_structure(DC2(5, [6, 7], 4)),
       jtu.tree_structure(v) == jtu.tree_structure(DC2(5, [6, 7], 5)))
""",
        """
@functools.partial(jtu.register_dataclass, data_fields=['x'], meta_fields=[])
@dataclasses.dataclass
class DC3:
    x: object
    y: int
out = 1
""",
        """
@functools.partial(jtu.register_dataclass, data_fields=['x', 'z'], meta_fields=['y'])
@dataclasses.dataclass
class DC4:
    x: object
    y: int
out = 1
""",
        """
class NotDC:
    pass
jtu.register_dataclass(NotDC)
out = 1
""",
        """
class NotDC2:
    def __init__(self, x):
        self.x = x
jtu.register_dataclass(NotDC2, data_fields=['x'], meta_fields=[])
out = jtu.tree_flatten_with_path(NotDC2(5))[0], jtu.tree_map(lambda a: a + 1, NotDC2(5)).x
""",
        """
@functools.partial(jtu.register_dataclass, data_fields=['x'], meta_fields=['n'], drop_fields=['d'])
@dataclasses.dataclass
class DC5:
    x: object
    n: int
    d: int = 0
out = jtu.tree_leaves(DC5(1, 2, 3)), jtu.tree_map(lambda a: a, DC5(1, 2, 3)).d
""",
        """
class Box:
    def __init__(self, a, b):
        self.a, self.b = a, b
jtu.register_pytree_with_keys(
    Box,
    lambda x: (((jtu.GetAttrKey('a'), x.a), (jtu.GetAttrKey('b'), x.b)), None),
    lambda aux, ch: Box(*ch))
v = Box(1, [2, 3])
out = (jtu.tree_flatten_with_path(v)[0], [jtu.keystr(p) for p, _ in jtu.tree_leaves_with_path(v)],
       jtu.tree_leaves(v), jtu.tree_map(lambda x: x * 10, v).b)
""",
        """
class Box2:
    def __init__(self, a, b):
        self.a, self.b = a, b
jtu.register_pytree_with_keys(
    Box2,
    lambda x: (((jtu.DictKey('a'), x.a), (jtu.DictKey('b'), x.b)), 'aux'),
    lambda aux, ch: Box2(*ch),
    flatten_func=lambda x: ((x.b, x.a), 'aux'))
v = Box2(1, 2)
out = jtu.tree_flatten_with_path(v)[0], jtu.tree_leaves(v), jtu.tree_structure(v).node_data()[1]
""",
        """
class Box3:
    def __init__(self, a, b):
        self.a, self.b = a, b
jtu.register_pytree_node(Box3, lambda x: ((x.a, x.b), None), lambda aux, ch: Box3(*ch))
v = Box3(1, [2])
out = jtu.tree_flatten_with_path(v)[0], [jtu.keystr(p) for p, _ in jtu.tree_leaves_with_path(v)]
""",
        """
class Box4:
    def __init__(self, a):
        self.a = a
jtu.register_pytree_node(Box4, lambda x: ((x.a,), None), lambda aux, ch: Box4(*ch))
jtu.register_pytree_node(Box4, lambda x: ((x.a,), None), lambda aux, ch: Box4(*ch))
out = 1
""",
        """
@jtu.register_pytree_node_class
class Box5:
    def __init__(self, a, n):
        self.a, self.n = a, n
    def tree_flatten(self):
        return (self.a,), self.n
    @classmethod
    def tree_unflatten(cls, aux, ch):
        return cls(ch[0], aux)
v = Box5(jnp.ones(2), 'meta')
out = jtu.tree_flatten_with_path(v)[0], jtu.tree_structure(v).node_data()[1], jtu.tree_map(lambda x: x + 1, v).n
""",
        """
@jtu.register_pytree_with_keys_class
class Box6:
    def __init__(self, a, b):
        self.a, self.b = a, b
    def tree_flatten_with_keys(self):
        return ((jtu.GetAttrKey('a'), self.a), (jtu.GetAttrKey('b'), self.b)), None
    @classmethod
    def tree_unflatten(cls, aux, ch):
        return cls(*ch)
v = Box6(1, 2)
out = jtu.tree_flatten_with_path(v)[0], jtu.tree_flatten(v)[0]
""",
        """
class Box7:
    def __init__(self, a):
        self.a = a
jtu.register_static(Box7)
out = jtu.tree_leaves([Box7(1), 2]), jtu.tree_structure([Box7(1)]) == jtu.tree_structure([Box7(2)])
""",
    ]
    return c
