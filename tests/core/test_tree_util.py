"""Pytree tests. Expected leaves, reprs, paths and error messages were recorded from JAX 0.10."""

import collections
import dataclasses
import operator

import numpy as np
import pytest

import core.numpy as jnp
import core.tree as jtree
from core import tree_util as tu
from core.flatten_util import (
    UnravelDtypeError,
    UnravelInputError,
    UnravelSizeError,
    ravel_pytree,
)

Point = collections.namedtuple("Point", ["x", "y"])


class Foo:
    """A custom node registered without keys."""

    def __init__(self, a, b):
        self.a, self.b = a, b

    def __eq__(self, other):
        return isinstance(other, Foo) and (self.a, self.b) == (other.a, other.b)


tu.register_pytree_node(Foo, lambda f: ((f.a, f.b), "aux"), lambda aux, ch: Foo(*ch))


@tu.register_pytree_node_class
class Box:
    """A custom node registered through its own methods; aux data is a list (unhashable)."""

    def __init__(self, items, tag):
        self.items, self.tag = items, tag

    def tree_flatten(self):
        return self.items, [self.tag]

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(list(children), aux[0])


@tu.register_pytree_with_keys_class
class Pair:
    """A custom node with key paths."""

    def __init__(self, left, right):
        self.left, self.right = left, right

    def tree_flatten_with_keys(self):
        return [(tu.GetAttrKey("left"), self.left), (tu.GetAttrKey("right"), self.right)], None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


@dataclasses.dataclass
class DC:
    x: int
    y: int
    s: str = dataclasses.field(default="hi", metadata={"static": True})


tu.register_dataclass(DC)


@dataclasses.dataclass
class DCExplicit:
    x: int
    y: int = 3
    s: str = "q"


tu.register_dataclass(DCExplicit, ["x"], ["s"], drop_fields=["y"])


@tu.register_static
class Static:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return isinstance(other, Static) and other.v == self.v

    def __hash__(self):
        return hash(self.v)

    def __repr__(self):
        return f"Static({self.v})"


# (name, tree, leaves, str(treedef), num_leaves, num_nodes, keystr of each path), from JAX.
FLATTEN_CASES = [
    ("leaf", 1, [1], "PyTreeDef(*)", 1, 1, [""]),
    ("none", None, [], "PyTreeDef(None)", 0, 1, []),
    ("empty_tuple", (), [], "PyTreeDef(())", 0, 1, []),
    ("empty_list", [], [], "PyTreeDef([])", 0, 1, []),
    ("empty_dict", {}, [], "PyTreeDef({})", 0, 1, []),
    ("tuple", (1, 2), [1, 2], "PyTreeDef((*, *))", 2, 3, ["[0]", "[1]"]),
    ("one_tuple", (1,), [1], "PyTreeDef((*,))", 1, 2, ["[0]"]),
    ("list_nested", [1, (2, 3)], [1, 2, 3], "PyTreeDef([*, (*, *)])", 3, 5,
     ["[0]", "[1][0]", "[1][1]"]),
    ("dict_sorted", {"b": 1, "a": (2, None)}, [2, 1], "PyTreeDef({'a': (*, None), 'b': *})", 2, 5,
     ["['a'][0]", "['b']"]),
    ("dict_int_keys", {3: "x", 1: ("y",)}, ["y", "x"], "PyTreeDef({1: (*,), 3: *})", 2, 4,
     ["[1][0]", "[3]"]),
    ("nested_dict",
     {"params": {"Dense_0": {"kernel": 1, "bias": 2}, "Dense_1": {"kernel": 3, "bias": 4}}},
     [2, 1, 4, 3],
     "PyTreeDef({'params': {'Dense_0': {'bias': *, 'kernel': *}, "
     "'Dense_1': {'bias': *, 'kernel': *}}})",
     4, 8,
     ["['params']['Dense_0']['bias']", "['params']['Dense_0']['kernel']",
      "['params']['Dense_1']['bias']", "['params']['Dense_1']['kernel']"]),
    ("namedtuple", Point(1, (2, 3)), [1, 2, 3],
     "PyTreeDef(CustomNode(namedtuple[Point], [*, (*, *)]))", 3, 5, [".x", ".y[0]", ".y[1]"]),
    ("ordered_dict", collections.OrderedDict([("b", 1), ("a", 2)]), [1, 2],
     "PyTreeDef(CustomNode(OrderedDict[('b', 'a')], [*, *]))", 2, 3, ["['b']", "['a']"]),
    ("defaultdict", collections.defaultdict(list, {"b": 1, "a": 2}), [2, 1],
     "PyTreeDef(CustomNode(defaultdict[(<class 'list'>, ('a', 'b'))], [*, *]))", 2, 3,
     ["['a']", "['b']"]),
    ("none_in_list", [None, 1, [None]], [1], "PyTreeDef([None, *, [None]])", 1, 5, ["[1]"]),
    ("deep", [[[[1]]], ((2,),), {"k": [3, {"j": 4}]}], [1, 2, 3, 4],
     "PyTreeDef([[[[*]]], ((*,),), {'k': [*, {'j': *}]}])", 4, 13,
     ["[0][0][0][0]", "[1][0][0]", "[2]['k'][0]", "[2]['k'][1]['j']"]),
    ("custom", Foo(1, [2, 3]), [1, 2, 3], "PyTreeDef(CustomNode(Foo[aux], [*, [*, *]]))", 3, 5,
     ["[<flat index 0>]", "[<flat index 1>][0]", "[<flat index 1>][1]"]),
    ("custom_keys", Pair(1, (2,)), [1, 2], "PyTreeDef(CustomNode(Pair[None], [*, (*,)]))", 2, 4,
     [".left", ".right[0]"]),
    ("dataclass", DC(1, 2), [1, 2], "PyTreeDef(CustomNode(DC[('hi',)], [*, *]))", 2, 3,
     [".x", ".y"]),
    ("dataclass_explicit", DCExplicit(1, 2, "s"), [1],
     "PyTreeDef(CustomNode(DCExplicit[('s',)], [*]))", 1, 2, [".x"]),
    ("static", [Static(1), 2], [2], "PyTreeDef([CustomNode(Static[Static(1)], []), *])", 1, 3,
     ["[1]"]),
    ("partial", tu.Partial(max, 1, k=2), [1, 2],
     "PyTreeDef(CustomNode(Partial[<built-in function max>], [(*,), {'k': *}]))", 2, 5,
     ["[<flat index 0>][0]", "[<flat index 1>]['k']"]),
    ("array_leaf", {"w": np.zeros(3)}, None, "PyTreeDef({'w': *})", 1, 2, ["['w']"]),
]  # fmt: skip


def _same(a, b):
    """Structural equality that also compares numpy leaves."""
    la, ta = tu.tree_flatten(a)
    lb, tb = tu.tree_flatten(b)
    return ta == tb and all(np.array_equal(x, y) for x, y in zip(la, lb))


@pytest.mark.parametrize(
    "name,tree,leaves,rep,num_leaves,num_nodes,paths",
    FLATTEN_CASES,
    ids=[c[0] for c in FLATTEN_CASES],
)
def test_flatten_matches_jax(name, tree, leaves, rep, num_leaves, num_nodes, paths):
    got_leaves, treedef = tu.tree_flatten(tree)
    if leaves is not None:
        assert got_leaves == leaves
    assert repr(treedef) == rep == str(treedef)
    assert treedef.num_leaves == num_leaves == len(got_leaves)
    assert treedef.num_nodes == num_nodes
    path_leaves, treedef2 = tu.tree_flatten_with_path(tree)
    assert [tu.keystr(p) for p, _ in path_leaves] == paths
    assert treedef2 == treedef
    rebuilt = tu.tree_unflatten(treedef, got_leaves)
    assert type(rebuilt) is type(tree)
    assert tu.tree_structure(rebuilt) == treedef
    assert _same(rebuilt, tree)


def test_unflatten_rebuilds_values():
    od = tu.tree_unflatten(tu.tree_structure(collections.OrderedDict(b=1, a=2)), [8, 9])
    assert od == collections.OrderedDict([("b", 8), ("a", 9)]) and list(od) == ["b", "a"]
    dd = tu.tree_unflatten(tu.tree_structure(collections.defaultdict(int, b=1, a=2)), [8, 9])
    assert type(dd) is collections.defaultdict and dd.default_factory is int
    assert dd == {"a": 8, "b": 9}
    d = tu.tree_unflatten(tu.tree_structure({"b": 1, "a": 2}), [8, 9])
    assert d == {"a": 8, "b": 9} and list(d) == ["a", "b"]
    assert tu.tree_unflatten(tu.tree_structure(Point(1, 2)), [5, 6]) == Point(5, 6)
    assert tu.tree_unflatten(tu.tree_structure(DCExplicit(1, 2, "s")), [7]) == DCExplicit(7, 3, "s")
    assert tu.tree_unflatten(tu.tree_structure([Static(1), 2]), [9]) == [Static(1), 9]
    assert tu.tree_structure([1]).unflatten(iter([5])) == [5]


@pytest.mark.parametrize(
    "n,msg",
    [(1, "Too few leaves for PyTreeDef; expected 2, got 1"),
     (3, "Too many leaves for PyTreeDef; expected 2")],
)  # fmt: skip
def test_unflatten_wrong_leaf_count(n, msg):
    with pytest.raises(ValueError, match=msg):
        tu.tree_unflatten(tu.tree_structure((1, {"a": 2})), list(range(n)))


def test_unsortable_dict_keys():
    with pytest.raises(ValueError, match="Comparator raised exception while sorting") as e:
        tu.tree_flatten({1: 1, "a": 2})
    # JAX's text on the first line, the fix after it
    assert str(e.value).splitlines()[0] == (
        "Comparator raised exception while sorting pytree dictionary keys."
    )
    assert isinstance(e.value, tu.PyTreeKeySortError)
    assert isinstance(e.value.__cause__, TypeError)


def test_subclasses_and_plain_objects_are_leaves():
    class MyDict(dict):
        pass

    class MyTuple(tuple):
        pass

    for x in [MyDict(a=1), MyTuple((1, 2)), "str", b"b", 1.5, np.float32(1), object()]:
        leaves, treedef = tu.tree_flatten(x)
        assert leaves == [x] or leaves[0] is x
        assert str(treedef) == "PyTreeDef(*)"


@pytest.mark.parametrize(
    "tree,is_leaf,leaves,rep",
    [([None, 1], lambda x: x is None, [None, 1], "PyTreeDef([*, *])"),
     ((1, (2, 3)), lambda x: isinstance(x, tuple) and len(x) == 2, [(1, (2, 3))], "PyTreeDef(*)"),
     ([1, [2, [3]]], lambda x: isinstance(x, list) and len(x) == 1, [1, 2, [3]],
      "PyTreeDef([*, [*, *]])"),
     ({"a": {"b": 1}, "c": 2}, lambda x: isinstance(x, dict) and "b" in x, [{"b": 1}, 2],
      "PyTreeDef({'a': *, 'c': *})")],
)  # fmt: skip
def test_is_leaf(tree, is_leaf, leaves, rep):
    got, treedef = tu.tree_flatten(tree, is_leaf=is_leaf)
    assert got == leaves and str(treedef) == rep
    assert tu.tree_leaves(tree, is_leaf) == leaves
    assert tu.tree_structure(tree, is_leaf) == treedef


def test_tree_leaves_walk():
    """`tree_leaves` walks the nodes without building the structure: JAX's leaves and order
    over every kind of node, and the same list as `tree_flatten`'s."""
    tree = {
        "b": [1, (2, None)],
        "a": Point({"z": 3}, collections.OrderedDict([("q", 4), ("p", 5)])),
        "c": collections.defaultdict(int, {"y": 6, "x": [7]}),
        "d": ((), [], {}, None),
        "e": {"only": 8},
        "f": (Foo(9, [10]), Box([11], "t"), Pair(12, 13)),
    }
    assert tu.tree_leaves(tree) == [3, 4, 5, 1, 2, 7, 6, 8, 9, 10, 11, 12, 13]
    assert tu.tree_leaves(tree) == tu.tree_flatten(tree)[0]
    assert tu.tree_leaves(None) == [] and tu.tree_leaves(5) == [5]


def test_treedef_eq_hash():
    a = tu.tree_structure((1, {"a": 2}))
    b = tu.tree_structure((3, {"a": np.zeros(2)}))
    assert a == b and hash(a) == hash(b) and (a != b) is False
    assert a != tu.tree_structure([1, {"a": 3}])
    assert a != tu.tree_structure((1, {"b": 2}))
    assert tu.tree_structure(1) != tu.tree_structure(None)
    assert tu.tree_structure(Point(1, 2)) != tu.tree_structure((1, 2))
    assert a != 1
    assert len({a, b, tu.tree_structure([1, 2])}) == 2
    # unhashable aux data still hashes (JAX does not hash custom aux data)
    box = tu.tree_structure(Box([1, 2], "t"))
    assert hash(box) == hash(tu.tree_structure(Box([5, 6], "t")))
    assert box == tu.tree_structure(Box([5, 6], "t")) != tu.tree_structure(Box([5, 6], "u"))


def test_treedef_methods():
    treedef = tu.tree_structure([1, (1, 2)])
    assert [str(c) for c in treedef.children()] == ["PyTreeDef(*)", "PyTreeDef((*, *))"]
    assert tu.treedef_children(treedef) == treedef.children()
    assert tu.tree_structure(1).children() == []
    assert str(tu.treedef_tuple([tu.tree_structure(1), tu.tree_structure((1, 2))])) == (
        "PyTreeDef((*, (*, *)))"
    )
    assert [tu.treedef_is_leaf(tu.tree_structure(x)) for x in [1, None, (), (1,)]] == [
        True, True, True, False,
    ]  # fmt: skip
    assert tu.tree_structure(Foo(1, 2)).node_data() == (Foo, "aux")
    assert tu.tree_structure({"b": 1, "a": 2}).node_data() == (dict, ["a", "b"])
    assert tu.tree_structure((1, 2)).node_data() == (tuple, None)
    assert tu.tree_structure(None).node_data() == (type(None), None)
    assert tu.tree_structure(1).node_data() is None
    assert tu.tree_structure(Point(1, 2)).node_data() == (Point, None)
    assert tu.tree_structure((1, 2)).flatten_up_to((3, [4])) == [3, [4]]
    assert tu.tree_structure({"a": 1}).flatten_up_to({"a": (2, 3)}) == [(2, 3)]


Q = collections.namedtuple("Q", ["x", "y"])
_NONE_NOTE = (
    "\n\nIn previous releases of JAX, flatten-up-to used to consider None to be a tree-prefix "
    "of non-None values. To obtain the previous behavior, you can usually write:\n"
    "  jax.tree.map(lambda x, y: None if x is None else f(x, y), a, b, "
    "is_leaf=lambda x: x is None)"
)
_OD = collections.OrderedDict


# (prefix, full tree, message of JAX 0.10.2's treedef.flatten_up_to(full)): its C++ pytree's
# texts, not tree_map's key-path report.
@pytest.mark.parametrize(
    "prefix,full,msg",
    [([1, (2, 3)], [1, [2, 3]], "Expected tuple, got [2, 3]."),
     ([1, (2, 3)], [1, (2,)], "Tuple arity mismatch: 1 != 2; tuple: (2,)."),
     ([1, {"a": 2}], [1, {"a": 2, "b": 3}],
      "Dict key mismatch; expected keys: ['a']; present keys: ['a', 'b']."),
     ({1: 2}, {2: 2}, "Dict key mismatch; expected keys: [1]; present keys: [2]."),
     ([1, 2], (1, 2), "Expected list, got (1, 2)."),
     ([1, 2], [1], "List arity mismatch: 1 != 2; list: [1]."),
     ([1], "ab", "Expected list, got 'ab'."),
     ({"a": 1}, None, "Expected dict, got None."),
     ({"a": 1}, _OD(a=1), "Expected dict, got {full}."),
     (Point(1, 2), (1, 2), "Expected named tuple, got (1, 2)."),
     (Point(1, 2), Q(1, 2),
      f"Named tuple type mismatch: expected type: {Point!r}, tuple: Q(x=1, y=2)."),
     ((1, 2), Point(1, 2), "Expected tuple, got Point(x=1, y=2)."),
     ([None], [1], "Expected None, got 1." + _NONE_NOTE),
     (_OD(a=1, b=2), {"a": 1, "b": 2},
      "Custom node type mismatch: expected type: <class 'collections.OrderedDict'>, "
      "value: {'a': 1, 'b': 2}."),
     (_OD(a=1, b=2), _OD(b=1, a=2),
      "Mismatch custom node data: ('a', 'b') != ('b', 'a'); value: {full}."),
     (collections.defaultdict(int, a=1), collections.defaultdict(list, a=1),
      "Mismatch custom node data: (<class 'int'>, ('a',)) != (<class 'list'>, ('a',)); "
      "value: defaultdict(<class 'list'>, {'a': 1})."),
     (Foo(1, 2), 5, f"Custom node type mismatch: expected type: {Foo!r}, value: 5."),
     (Box([1], "t"), Box([1], "u"), "Mismatch custom node data: ['t'] != ['u']; value: {full}."),
     (Box([1], "t"), Box([1, 2], "t"), "Custom type arity mismatch: 2 != 1; value: {full}."),
     (DC(1, 2), DC(1, 2, "x"),
      "Mismatch custom dataclass node data: ('hi',) != ('x',); value: DC(x=1, y=2, s='x')."),
     (DC(1, 2), 3, f"Custom dataclass node type mismatch: expected type: {DC!r}, value: 3.")],
)  # fmt: skip
def test_flatten_up_to_errors_are_jaxs(prefix, full, msg):
    with pytest.raises(ValueError) as e:
        tu.tree_structure(prefix).flatten_up_to(full)
    assert str(e.value) == msg.replace("{full}", repr(full))


def test_compose():
    outer, inner = tu.tree_structure([1, (2, 3)]), tu.tree_structure({"a": 1, "b": None})
    composed = outer.compose(inner)  # reprs recorded from JAX 0.10.2
    assert str(composed) == (
        "PyTreeDef([{'a': *, 'b': None}, ({'a': *, 'b': None}, {'a': *, 'b': None})])"
    )
    d = {"a": 1, "b": None}
    assert composed.num_leaves == 3 and composed == tu.tree_structure([d, (d, d)])
    assert str(outer.compose(tu.tree_structure(None))) == "PyTreeDef([None, (None, None)])"
    assert str(tu.tree_structure(None).compose(inner)) == "PyTreeDef(None)"


# Messages recorded from JAX.
_DIFF_TYPES = (
    "pytree structure error: different types at key path\n"
    "    tree_map tree{path}\n"
    "At that key path, the prefix pytree tree_map tree has a subtree of type\n"
    "    {a}\n"
    "but at the same key path the full pytree has a subtree of different type\n"
    "    {b}."
)
MISMATCH_CASES = [
    ({"a": 1, "b": 2}, {"a": 1, "c": 2},
     "pytree structure error: different pytree metadata at key path\n"
     "    tree_map tree\n"
     "At that key path, the prefix pytree tree_map tree has a subtree of type\n"
     "    <class 'dict'>\n"
     "with metadata\n"
     "    ('a', 'b')\n"
     "but at the same key path the full pytree has a subtree of the same type but with metadata\n"
     "    ('a', 'c')\n"
     "so the diff in the metadata at these pytree nodes is\n"
     "    - ('a', 'b')\n"
     "    ?        ^\n"
     "\n"
     "    + ('a', 'c')\n"
     "    ?        ^\n"),
    ((1, 2), (1, 2, 3),
     "pytree structure error: different lengths of tuple at key path\n"
     "    tree_map tree\n"
     "At that key path, the prefix pytree tree_map tree has a subtree of type tuple of length 2, "
     "but the full pytree has a subtree of the same type but of length 3."),
    ((1, 2), [1, 2], _DIFF_TYPES.format(path="", a="<class 'tuple'>", b="<class 'list'>")),
    ((1, 2), 1, _DIFF_TYPES.format(path="", a="<class 'tuple'>", b="<class 'int'>")),
    ([1, None], [1, 2], _DIFF_TYPES.format(path="[1]", a="<class 'NoneType'>", b="<class 'int'>")),
    ({"a": 1}, {"a": 1, "b": 2},
     "pytree structure error: different numbers of pytree children at key path\n"
     "    tree_map tree\n"
     "At that key path, the prefix pytree tree_map tree has a subtree of type\n"
     "    <class 'dict'>\n"
     "with 1 child keys\n"
     "    a\n"
     "but at the same key path the full pytree has a subtree of the same type but with 2 child "
     "keys\n"
     "    a b\n"
     "so the symmetric difference on key sets is\n"
     "    b"),
    ([[1, 2], 3], [[1], 3],
     "pytree structure error: different lengths of list at key path\n"
     "    tree_map tree[0]\n"
     "At that key path, the prefix pytree tree_map tree has a subtree of type list of length 2, "
     "but the full pytree has a subtree of the same type but of length 1."),
]  # fmt: skip


@pytest.mark.parametrize("tree,other,msg", MISMATCH_CASES)
def test_tree_map_mismatch_errors(tree, other, msg):
    with pytest.raises(ValueError) as e:
        tu.tree_map(lambda a, b: (a, b), tree, other)
    assert str(e.value) == msg
    assert isinstance(e.value, tu.PyTreeStructureError)


@pytest.mark.parametrize(
    "tree,other,expected",
    [({"a": 1, "b": 2}, {"a": (1, 2), "b": [3]}, {"a": (1, (1, 2)), "b": (2, [3])}),
     ([1, (2, 3)], [1, (2, (3, 4))], [(1, 1), ((2, 2), (3, (3, 4)))]),
     ([1, None], [1, None], [(1, 1), None]),
     ([1, 2], [1, None], [(1, 1), (2, None)]),
     (Point(1, 2), Point((3,), 4), Point((1, (3,)), (2, 4))),
     (DC(1, 2), DC(3, 4), DC((1, 3), (2, 4)))],
)  # fmt: skip
def test_tree_map_prefix(tree, other, expected):
    assert tu.tree_map(lambda a, b: (a, b), tree, other) == expected


def test_tree_map():
    assert tu.tree_map(lambda x: x * 10, {"b": 1, "a": [2, 3]}) == {"a": [20, 30], "b": 10}
    assert tu.tree_map(lambda x: x, None) is None
    assert tu.tree_map(lambda x: x, [None, 1], is_leaf=lambda x: x is None) == [None, 1]
    assert tu.tree_map(lambda x, y, z: x + y + z, (1, 2), (10, 20), (100, 200)) == (111, 222)
    assert tu.tree_map(lambda x: x * 10, DC(1, 2)) == DC(10, 20)
    out = tu.tree_map(lambda x: x + 1, Foo(1, [2, 3]))
    assert out == Foo(2, [3, 4])
    assert tu.tree_map(lambda x: x * 10, tu.Partial(max, 1, 2)).args == (10, 20)


def test_tree_map_with_path():
    out = tu.tree_map_with_path(
        lambda p, x, y: (tu.keystr(p), x, y), {"a": 1, "b": [2]}, {"a": 3, "b": [4]}
    )
    assert out == {"a": ("['a']", 1, 3), "b": [("['b'][0]", 2, 4)]}
    with pytest.raises(ValueError) as e:
        tu.tree_map_with_path(lambda p, x, y: 1, {"a": 1, "b": [2]}, {"a": 3, "b": [4, 5]})
    assert str(e.value) == (
        "pytree structure error: different lengths of list at key path\n"
        "    tree_map_with_path tree['b']\n"
        "At that key path, the prefix pytree tree_map_with_path tree has a subtree of type list of "
        "length 1, but the full pytree has a subtree of the same type but of length 2."
    )
    assert jtree.map_with_path(lambda p, x: len(p), [1, (2,)]) == [1, (2,)]


def test_flatten_with_path_is_leaf_takes_path():
    out, treedef = tu.tree_flatten_with_path(
        ((1, 2), 3), is_leaf=lambda p, x: len(p) == 1, is_leaf_takes_path=True
    )
    assert out == [((tu.SequenceKey(0),), (1, 2)), ((tu.SequenceKey(1),), 3)]
    assert str(treedef) == "PyTreeDef((*, *))"
    assert tu.tree_leaves_with_path({"a": 1}) == [((tu.DictKey("a"),), 1)]


def test_key_entries_and_keystr():
    path = (tu.FlattenedIndexKey(3), tu.GetAttrKey("x"), tu.DictKey(1), tu.SequenceKey(0))
    assert [str(k) for k in path] == ["[<flat index 3>]", ".x", "[1]", "[0]"]
    assert [repr(k) for k in path] == [
        "FlattenedIndexKey(key=3)", "GetAttrKey(name='x')", "DictKey(key=1)", "SequenceKey(idx=0)",
    ]  # fmt: skip
    assert tu.keystr(()) == ""
    assert tu.keystr(path) == "[<flat index 3>].x[1][0]"
    assert tu.keystr(path, simple=True) == "3x10"
    assert tu.keystr(path, simple=True, separator="/") == "3/x/1/0"
    assert tu.keystr((tu.DictKey("a"), tu.SequenceKey(1)), separator=".") == "['a'].[1]"
    assert tu.SequenceKey(1) == tu.SequenceKey(1) and hash(tu.DictKey("a")) == hash(tu.DictKey("a"))
    assert tu.SequenceKey(1) != tu.FlattenedIndexKey(1)
    assert (tu.SequenceKey(1).idx, tu.DictKey(2).key, tu.GetAttrKey("a").name) == (1, 2, "a")


def test_flatten_one_level():
    assert tu.flatten_one_level({"b": 1, "a": 2}) == ((2, 1), ("a", "b"))
    assert tu.flatten_one_level_with_keys({"b": 1, "a": 2}) == (
        ((tu.DictKey("a"), 2), (tu.DictKey("b"), 1)), ("a", "b"),
    )  # fmt: skip
    with pytest.raises(ValueError, match="can't tree-flatten type: <class 'int'>"):
        tu.flatten_one_level(1)
    assert tu.is_tree_node(dict) and tu.is_tree_node(Point) and tu.is_tree_node(type(None))
    assert not tu.is_tree_node(int) and not tu.is_tree_node(np.ndarray)


@pytest.mark.parametrize(
    "tree,is_leaf,expected",
    [([1, 2], None, True), ([1, (2,)], None, False), ([None], None, False),
     ([None], lambda x: x is None, True), ([(1, 2)], lambda x: isinstance(x, tuple), True)],
)  # fmt: skip
def test_all_leaves(tree, is_leaf, expected):
    assert tu.all_leaves(tree, is_leaf) is expected


def test_reductions():
    assert tu.tree_reduce(operator.add, [1, [2, 3]]) == 6
    assert tu.tree_reduce(operator.add, [1, [2, 3]], 10) == 16
    assert tu.tree_reduce(operator.add, [], 0) == 0
    with pytest.raises(TypeError, match="reduce\\(\\) of empty"):
        tu.tree_reduce(operator.add, [])
    assert tu.tree_reduce(lambda a, b: (a, b), [None, 1], is_leaf=lambda x: x is None) == (None, 1)
    assert tu.tree_reduce_associative(operator.add, [1, (2, 3), [4, 5, 6]]) == 21
    assert tu.tree_reduce_associative(operator.add, [], identity=0) == 0
    with pytest.raises(TypeError, match="Must specify identity"):
        tu.tree_reduce_associative(operator.add, [])
    assert tu.tree_all([1, None]) is True
    assert tu.tree_all([1, None], is_leaf=lambda x: x is None) is False
    assert tu.tree_all([]) is True and tu.tree_all([1, 0]) is False


def test_transpose():
    outer, inner = tu.tree_structure([0, 0]), tu.tree_structure((0, 0))
    assert tu.tree_transpose(outer, inner, [(1, 2), (3, 4)]) == ([1, 3], [2, 4])
    assert tu.tree_transpose(outer, None, [(1, 2), (3, 4)]) == ([1, 3], [2, 4])
    with pytest.raises(TypeError) as e:
        tu.tree_transpose(outer, tu.tree_structure((0, 0, 0)), [(1, 2), (3, 4)])
    assert str(e.value) == (
        "Mismatch\nPyTreeDef([(*, *), (*, *)])\n != \nPyTreeDef([(*, *, *), (*, *, *)])"
    )


def test_broadcast():
    assert tu.tree_broadcast([1, 2], [(3, 4), {"a": 5}]) == [(1, 1), {"a": 2}]
    assert tu.tree_broadcast([1, {"a": 2}], [(3, 4), {"a": 5}]) == [(1, 1), {"a": 2}]
    with pytest.raises(ValueError) as e:
        tu.tree_broadcast([1, 2], [(3, 4)])
    assert str(e.value) == (
        "pytree structure error: different lengths of list at key path\n"
        "    broadcast_prefix prefix_tree\n"
        "At that key path, the prefix pytree broadcast_prefix prefix_tree has a subtree of type "
        "list of length 2, but the full pytree has a subtree of the same type but of length 1."
    )


def test_registration_errors():
    with pytest.raises(ValueError, match="Duplicate custom PyTreeDef type registration for"):
        tu.register_pytree_node(tuple, lambda x: (x, None), lambda a, c: c)

    @dataclasses.dataclass
    class Partly:
        x: int
        y: int
        s: str

    with pytest.raises(ValueError, match=r"Missing fields: \{'y'\}"):
        tu.register_dataclass(Partly, ["x"], ["s"])
    with pytest.raises(TypeError, match="data_fields and meta_fields are required"):
        tu.register_dataclass(Foo)
    with pytest.raises(ValueError, match="Duplicate custom dataclass PyTreeDef"):
        tu.register_dataclass(Foo, ["a"], ["b"])


@dataclasses.dataclass
class _XY:
    x: int
    y: float


DATACLASS_ERRORS = [  # (fields, JAX 0.10.2's class and message)
    (
        dict(data_fields=["x"]),
        TypeError,
        "register_dataclass: data_fields and meta_fields must both be specified when either "
        "is specified. Got data_fields=['x'] meta_fields=None.",
    ),
    (
        dict(data_fields=["x"], meta_fields=["y", "z"]),
        ValueError,
        "data_fields and meta_fields must include all dataclass fields with ``init=True`` and "
        "only them. Unexpected fields: {'z'}.",
    ),
    (
        dict(data_fields=["x", "y"], meta_fields=["x"]),
        ValueError,
        "data_fields and meta_fields must not overlap. Overlapping fields: {'x'}.",
    ),
]


@pytest.mark.parametrize("kwargs, err, msg", DATACLASS_ERRORS)
def test_register_dataclass_field_errors_are_jaxs(kwargs, err, msg):
    with pytest.raises(err) as info:
        tu.register_dataclass(_XY, **kwargs)
    assert str(info.value) == msg


def test_registration_clears_leaf_cache():
    class Late:
        def __init__(self, v):
            self.v = v

    assert tu.tree_leaves(Late(1))[0].v == 1  # a leaf, cached as such
    tu.register_pytree_node(Late, lambda x: ((x.v,), None), lambda _, c: Late(*c))
    assert tu.tree_leaves(Late(5)) == [5]


def test_custom_keys_registration():
    class KV:
        def __init__(self, d):
            self.d = d

    tu.register_pytree_with_keys(
        KV,
        lambda x: ([(tu.DictKey(k), v) for k, v in sorted(x.d.items())], tuple(sorted(x.d))),
        lambda keys, c: KV(dict(zip(keys, c))),
    )
    paths = tu.tree_leaves_with_path(KV({"b": 1, "a": 2}))
    assert [(tu.keystr(p), v) for p, v in paths] == [("['a']", 2), ("['b']", 1)]
    assert tu.tree_map(lambda x: -x, KV({"b": 1, "a": 2})).d == {"a": -2, "b": -1}


def test_partial():
    p = tu.Partial(max, 1)
    assert repr(p) == "Partial(<built-in function max>, 1)" and p(5) == 5
    nested = tu.Partial(tu.Partial(max, 1), 2)
    leaves, treedef = tu.tree_flatten(nested)
    assert leaves == [2]
    assert str(treedef) == (
        "PyTreeDef(CustomNode(Partial[_HashableCallableShim(Partial(<built-in function max>, 1))],"
        " [(*,), {}]))"
    )
    assert nested(0) == 2 and nested(7) == 7
    assert tu.tree_unflatten(treedef, [9])(3) == 9
    assert tu.tree_structure(tu.Partial(max, 1)) == tu.tree_structure(tu.Partial(max, 2))
    assert tu.tree_structure(tu.Partial(max, 1)) != tu.tree_structure(tu.Partial(min, 1))


def test_tree_namespace():
    tree = {"b": 1, "a": [2, 3]}
    leaves, treedef = jtree.flatten(tree)
    assert leaves == jtree.leaves(tree) == [2, 3, 1]
    assert jtree.structure(tree) == treedef and jtree.unflatten(treedef, leaves) == tree
    assert jtree.map(lambda x: x + 1, tree) == {"a": [3, 4], "b": 2}
    assert jtree.reduce(operator.add, tree) == 6 and jtree.all(tree)
    assert jtree.reduce_associative(operator.mul, tree) == 6
    assert jtree.broadcast(0, tree) == {"a": [0, 0], "b": 0}
    assert jtree.transpose(jtree.structure([0, 0]), None, [(1, 2), (3, 4)]) == ([1, 3], [2, 4])
    assert [tu.keystr(p) for p, _ in jtree.leaves_with_path(tree)] == [
        "['a'][0]",
        "['a'][1]",
        "['b']",
    ]
    assert jtree.flatten_with_path(tree)[1] == treedef


@pytest.mark.parametrize(
    "tree,flat,flat_dtype,leaf_dtypes",
    [({"a": np.zeros(2), "b": 1}, [0, 0, 1], np.float32, [np.float32, np.int32]),
     ([1.0, 2], [1, 2], np.float32, [np.float32, np.int32]),
     ([np.int32(1), np.float16(2)], [1, 2], np.float16, [np.int32, np.float16]),
     ([], [], np.float32, []),
     ((np.ones((2, 3), np.float32), None, [np.arange(3)]), [1] * 6 + [0, 1, 2], np.float32,
      [np.float32, np.int32]),
     ([True, np.int8(3)], [1, 3], np.int8, [np.bool_, np.int8]),
     ([np.ones(2, np.int8), np.ones(1, np.uint8)], [1, 1, 1], np.int16, [np.int8, np.uint8])],
)  # fmt: skip
def test_ravel_pytree(tree, flat, flat_dtype, leaf_dtypes):
    got, unravel = ravel_pytree(tree)
    assert got.dtype == flat_dtype and got.shape == (len(flat),)
    np.testing.assert_array_equal(got, flat)
    back = unravel(got)
    assert tu.tree_structure(back) == tu.tree_structure(tree)
    back_leaves = tu.tree_leaves(back)
    assert [x.dtype for x in back_leaves] == [np.dtype(d) for d in leaf_dtypes]
    assert [x.shape for x in back_leaves] == [np.shape(x) for x in tu.tree_leaves(tree)]


def test_unravel_errors_and_dtype_polymorphism():
    _, unravel = ravel_pytree([np.ones(2, np.int32), np.ones(1, np.float32)])
    with pytest.raises(UnravelDtypeError, match="given array of dtype int32, but expected"):
        unravel(np.ones(3, np.int32))
    _, unravel = ravel_pytree([np.ones(2, np.float32), np.ones(1, np.float32)])
    assert [x.dtype for x in unravel(np.ones(3, np.int32))] == [np.int32, np.int32]
    with pytest.raises(UnravelSizeError, match="Sum of sizes 3 must be equal to dimension 0"):
        unravel(np.ones(4, np.float32))


@pytest.mark.parametrize("case", FLATTEN_CASES, ids=[c[0] for c in FLATTEN_CASES])
def test_builder_source_builds_what_unflatten_builds(case):
    tree = case[1]
    leaves, treedef = tu.tree_flatten(tree)
    namespace = {"leaves": leaves}
    exprs = [f"leaves[{i}]" for i in range(len(leaves))]
    built = eval(treedef.builder_source(exprs, namespace), namespace)
    assert type(built) is type(tree)
    assert tu.tree_structure(built) == treedef
    assert _same(built, tree)


def test_dict_key_order_memo_keeps_equal_keys_of_other_types_apart():
    for d in ({1: "a", 2: "b"}, {True: "a", 2: "b"}, {1.0: "a", 2: "b"}, {"x": 1, "y": 2}):
        for _ in range(2):  # the second flatten may hit the memo
            leaves, treedef = tu.tree_flatten(d)
            assert [type(k) for k in treedef.node_data()[1]] == [type(k) for k in sorted(d)]
            assert tu.tree_unflatten(treedef, leaves) == d


@pytest.mark.parametrize("case", FLATTEN_CASES, ids=[c[0] for c in FLATTEN_CASES])
def test_guard_source_accepts_the_structure_and_picks_the_leaves(case):
    tree = case[1]
    leaves, treedef = tu.tree_flatten(tree)
    namespace: dict = {}
    lines: list = []
    exprs = tu.guard_source(treedef, "x", namespace, lines)
    unguarded = {"ordered_dict", "defaultdict", "custom", "custom_keys", "static", "partial"}
    assert (exprs is None) == (case[0] in unguarded)  # nodes with their own flatten functions
    if exprs is None:
        return
    body = "".join(f"    {line}\n" for line in lines)
    exec(f"def guard(x):\n{body}    return [{', '.join(exprs)}]\n", namespace)
    got = namespace["guard"](tree)
    assert len(got) == len(leaves) and all(a is b for a, b in zip(got, leaves))
    if treedef.num_nodes > 1:  # a leaf root has nothing to check (the caller checks leaves)
        other = [tree, 0] if not isinstance(tree, list) else (*tree, 0)
        assert namespace["guard"](other) is None


def test_register_dataclass_names_non_identifier_fields():
    class Node:
        pass

    with pytest.raises(ValueError, match=r"field names must be identifiers, got \['a-b'\]"):
        tu.register_dataclass(Node, ["a-b"], [])


def test_ravel_pytree_is_traceable():
    # JAX: grad through unravel gives [2., 2., 2.] (the numpy version silently gave zeros).
    import core
    import core.numpy as jnp

    flat, unravel = ravel_pytree({"a": jnp.ones(2), "b": 2.0})
    assert isinstance(flat, core.Array)

    def loss(v):
        t = unravel(v)
        return jnp.sum(t["a"] * t["b"])

    np.testing.assert_allclose(core.grad(loss)(flat), [2.0, 2.0, 2.0])
    np.testing.assert_allclose(core.jit(lambda v: unravel(v)["a"] * 3)(flat), [3.0, 3.0])
    np.testing.assert_allclose(
        core.grad(lambda t: jnp.sum(ravel_pytree(t)[0] ** 2))((jnp.ones(2), 3.0))[1], 6.0
    )


def test_tree_static_field():
    @tu.register_dataclass
    @dataclasses.dataclass
    class Op:
        x: object
        op: str = jtree.static(default="add")

    leaves, treedef = jtree.flatten(Op(1.0))
    assert leaves == [1.0]
    assert jtree.unflatten(treedef, [2.0]) == Op(2.0, "add")
    assert dataclasses.fields(Op)[1].metadata["static"] is True
    # JAX 0.10.2: the given metadata is merged over {"static": True}
    assert jtree.static(metadata={"static": False}).metadata == {"static": False}
    assert jtree.static(metadata={"k": 1}).metadata == {"static": True, "k": 1}


def test_default_registry_is_jaxs_registry_interface():
    reg = tu.default_registry
    tree = {"a": 1, "b": (2, 3)}
    assert reg.flatten(tree) == tu.tree_flatten(tree)
    assert reg.flatten([1, None])[0] == [1]
    assert reg.flatten_one_level(tree) == ((1, (2, 3)), ("a", "b"))
    assert reg.flatten_one_level(1) is None
    assert reg.is_node(dict) and not reg.is_node(int)
    leaves, _ = reg.flatten_with_path(tree)
    assert leaves[2] == ((tu.DictKey("b"), tu.SequenceKey(1)), 3)
    keyed, aux = reg.flatten_one_level_with_keys(tree)
    assert keyed[0] == (tu.DictKey("a"), 1) and aux == ("a", "b")

    class Pair:
        def __init__(self, x, y):
            self.x, self.y = x, y

    reg.register_node(Pair, lambda p: ((p.x, p.y), None), lambda _, c: Pair(*c))
    assert tu.tree_leaves(Pair(1, 2)) == [1, 2]


# jax.tree_util.flatten_one_level's children (JAX 0.10.2): a tuple for tuples, dicts and None,
# a list for lists, namedtuples, OrderedDicts and defaultdicts
@pytest.mark.parametrize(
    ("tree", "want"),
    [
        ([None, []], [None, []]),
        ((1, (2, 3)), (1, (2, 3))),
        ({"b": [1, 2], "a": 3}, (3, [1, 2])),
        (None, ()),
        (collections.namedtuple("NT", "x y")(1, 2), [1, 2]),
        (collections.OrderedDict(b=1, a=2), [1, 2]),
    ],
)
def test_flatten_one_level_children_types_as_jax(tree, want):
    children = tu.flatten_one_level(tree)[0]
    assert type(children) is type(want) and children == want


_NT = collections.namedtuple("_NT", "x y")


# jax.tree_util.flatten_one_level_with_keys (JAX 0.10.2): a tuple of (key, child) pairs for
# tuples, lists, dicts and None, a list for the other nodes; a namedtuple's aux data is its
# class (as in flatten_one_level). JAX's namedtuple keys are GetAttrKey('x') for every field (a
# JAX bug); numbax names each field.
@pytest.mark.parametrize(
    ("tree", "container", "aux"),
    [
        ([1, 2], tuple, None),
        ((1, 2), tuple, None),
        ({"b": 1, "a": 2}, tuple, ("a", "b")),
        (None, tuple, None),
        (_NT(1, 2), list, _NT),
        (collections.OrderedDict(b=1, a=2), list, ("b", "a")),
        (collections.defaultdict(int, {"b": 1, "a": 2}), list, (int, ("a", "b"))),
    ],
)
def test_flatten_one_level_with_keys_containers_and_aux_as_jax(tree, container, aux):
    keyed, got_aux = tu.flatten_one_level_with_keys(tree)
    assert type(keyed) is container and got_aux == aux
    assert tu.flatten_one_level(_NT(1, 2)) == ([1, 2], _NT)


def test_is_tree_node_of_non_types():
    # JAX 0.10.2: False for any non-type object; None is nanobind's TypeError
    assert not any(tu.is_tree_node(x) for x in (1, [1], (), {}, _NT(1, 2), "a"))
    with pytest.raises(TypeError, match=r"^is_node\(\): incompatible function arguments"):
        tu.is_tree_node(None)


def test_unravel_of_a_tree_has_jaxs_type_error():
    # JAX 0.10's first line (its asarray refuses the dict)
    _, unravel = ravel_pytree({"w": jnp.ones(3)})
    with pytest.raises(UnravelInputError) as info:
        unravel({"w": jnp.ones(3)})
    assert isinstance(info.value, TypeError)
    assert str(info.value).splitlines()[0] == (
        "asarray: expected ArrayLike, got {'w': Array([1., 1., 1.], dtype=float32)} of type "
        "<class 'dict'>."
    )


@pytest.mark.parametrize(
    "flatten, message",
    [  # JAX 0.10.2's errors for a custom node's flatten function that returns something else
        (
            lambda a: "hello",
            "The to_iterable function for a custom PyTree node should return a "
            "(children, aux_data) tuple, got 'hello'",
        ),
        (
            lambda a: (2, 3, 4),
            "The to_iterable function for a custom PyTree node should return a "
            "(children, aux_data) tuple, got (2, 3, 4)",
        ),
        (
            lambda a: (7, 7),
            "The to_iterable function for a custom PyTree node should return a "
            "(children, aux_data) tuple where 'children' is iterable, got (7, 7)",
        ),
    ],
)
@pytest.mark.parametrize("is_leaf", [None, lambda x: False])
def test_bad_custom_flatten_is_jaxs_error(flatten, message, is_leaf):
    cls = type("Bad", (), {})
    tu.register_pytree_node(cls, flatten, lambda aux, children: cls())
    with pytest.raises(ValueError) as info:
        tu.tree_flatten(cls(), is_leaf=is_leaf)
    assert str(info.value) == message


class _EqualsByValue:
    """A leaf whose `==` fails on anything but its own kind (as JAX's test `FlatCache`)."""

    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return self.v == other.v

    __hash__ = None


def test_all_leaves_compares_by_identity():
    # JAX 0.10.2 compares the leaves it finds with `is`: no `==` of the user's objects
    x = _EqualsByValue(1)
    assert tu.all_leaves([x], is_leaf=lambda t: tu.all_leaves([t]))
    assert not tu.all_leaves([[x]], is_leaf=lambda t: isinstance(t, int))


WALKS = [  # (tree, JAX 0.10.2's walk with f_node=(results, data), f_leaf=10 * leaf)
    (
        {"b": 2, "a": 1, "c": {"b": 2, "a": 1}, "l": [3, (4, None)]},
        (
            (10, 20, ((10, 20), ["a", "b"]), ((30, ((40, ((), None)), None)), None)),
            ["a", "b", "c", "l"],
        ),
    ),
    (Point(1, 2), ((10, 20), Point)),
    (5, 50),
]


@pytest.mark.parametrize("tree, want", WALKS)
def test_treedef_walk_is_jaxs(tree, want):
    leaves, treedef = tu.tree_flatten(tree)
    assert treedef.walk(lambda n, d: (n, d), lambda x: 10 * x, leaves) == want
    with pytest.raises(ValueError, match="Too many leaves for PyTreeDef"):
        treedef.walk(lambda n, d: n, None, [*leaves, 0])


def test_key_hashes_and_metadata_equality_errors_are_jaxs():
    assert hash(tu.FlattenedIndexKey(1)) != hash(tu.SequenceKey(1))
    assert hash(tu.FlattenedIndexKey(1)) == hash(tu.FlattenedIndexKey(1))

    @tu.register_dataclass
    @dataclasses.dataclass
    class WithArray:
        x: object = dataclasses.field(metadata={"static": True})

    a, b = (tu.tree_structure(WithArray(jnp.arange(4))) for _ in range(2))
    with pytest.raises(ValueError) as info:
        a == b  # noqa: B015
    assert str(info.value) == (  # JAX 0.10.2's text
        "Exception raised while checking equality of metadata fields of pytree. Make sure that "
        "metadata fields are hashable and have simple equality semantics. (Note: arrays cannot "
        "be passed as metadata fields!)"
    )


def test_unravel_functions_of_equal_trees_are_equal():
    # JAX 0.10.2's HashablePartial: a static jit argument that does not recompile
    x = (jnp.array([1, 2]), jnp.array([3, 4]))
    (_, u1), (_, u2) = ravel_pytree(x), ravel_pytree(x)
    assert u1 == u2 and hash(u1) == hash(u2)
    assert u1 != ravel_pytree({"a": jnp.ones(2)})[1]
