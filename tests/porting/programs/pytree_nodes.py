"""Pytrees and custom pytree nodes, on containers and classes of our own.

Checks what JAX's pytree guides describe: the leaves of lists, tuples (an empty one), nested
dicts (sorted keys), `None`, strings, arrays and an unregistered object; `tree.flatten` and
`tree.unflatten` with the printed `PyTreeDef`s of the default containers and of a namedtuple;
`tree.map` over one and several trees, `tree.structure(object)`; `grad` with respect to a
dict holding a Python float; a small MLP's parameters (a list of dicts of numpy arrays)
trained by a jitted `grad` + `tree.map` step; key paths from `tree_flatten_with_path` shown by
`keystr` and as their `repr`s (sequence, dict and attribute keys); the gotchas: shapes
(tuples) being nodes, `None` as no leaf unless `is_leaf` says so, the error of mapping over a
dict with mixed key types; a list of trees transposed by `tree.map` and by `tree.transpose`.
Custom nodes: an unregistered class kept as a leaf and the error of `tree.map` adding to it,
`register_pytree_node` (`tree.map` and `grad` rebuild the class), `register_pytree_node_class`
with its flatten/unflatten shown, a `NamedTuple` whose string field is a leaf (and the error of
passing it to `jit`), `register_dataclass` with a `meta_fields` name kept static through
`jit`, a class validating its argument in `__init__` under `vmap` and `jacobian`, and the two
ways out (accepting placeholders, unflattening without `__init__`).
"""

import collections
import dataclasses
import functools
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from tests.porting import printed


def run():
    return printed.notebook(_cells)


class Opaque:
    """A class JAX does not know: a leaf."""

    def __init__(self, lo, hi):
        self.lo = lo
        self.hi = hi


class Interval(Opaque):
    def __repr__(self):
        return f"Interval({self.lo}, {self.hi})"


jax.tree_util.register_pytree_node(
    Interval, lambda iv: ((iv.lo, iv.hi), None), lambda _, kids: Interval(*kids)
)


@jax.tree_util.register_pytree_node_class
class Scaled:
    """A node whose scale is static (in the treedef) and whose values are children."""

    def __init__(self, scale, values):
        self.scale = scale
        self.values = values

    def __repr__(self):
        return f"Scaled({self.scale}, {self.values})"

    def tree_flatten(self):
        return (self.values,), self.scale

    @classmethod
    def tree_unflatten(cls, scale, children):
        return cls(scale, *children)


class Record(NamedTuple):
    label: str
    low: Any
    high: Any


@functools.partial(
    jax.tree_util.register_dataclass, data_fields=["weight", "bias"], meta_fields=["act"]
)
@dataclasses.dataclass
class Layer:
    act: str
    weight: Any
    bias: Any


def _leaves_and_maps(out, errors, mark):
    trees = [
        [3, "label", None],
        (1.5, (2, ()), [4]),
        {"z": 1, "a": {"q": (2, 3)}, "m": [4]},
        jnp.arange(3),
        [Opaque(1, 2), 7],
    ]
    for tree in trees:
        leaves = jax.tree.leaves(tree)
        print(len(leaves), ["array" if hasattr(x, "shape") else type(x).__name__ for x in leaves])

    state = {"w": jnp.ones((2, 2)), "b": jnp.zeros(2), "step": 3}
    leaves, treedef = jax.tree.flatten(state)
    print(leaves)
    print(treedef)
    print(jax.tree.unflatten(treedef, [10 * np.ones(1), 20, 30]))
    print(jax.tree.structure(object), jax.tree.structure([1, (2,), {"k": None}]))
    mark("leaves")

    ragged = [[1, 2], [3], [4, 5, 6]]
    print(jax.tree.map(lambda x: x * 10, ragged))
    print(jax.tree.map(lambda x, y, z: x + y * z, ragged, ragged, ragged))
    mark("map")

    def energy(params, xs):
        return jnp.sum((xs @ params["w"] - params["c"]) ** 2)

    grads = jax.grad(energy)(
        {"w": jnp.array([1.0, -1.0]), "c": 0.25}, jnp.array([[1.0, 2.0], [3.0, 0.5]])
    )
    printed.show(grads)
    mark("grad_dict")

    rng = np.random.RandomState(7)
    params = [
        dict(kernel=rng.normal(size=(a, b)) / np.sqrt(a), offset=np.zeros(b))
        for a, b in [(2, 6), (6, 6), (6, 1)]
    ]
    printed.show(jax.tree.map(np.shape, params))

    def predict(params, x):
        for layer in params[:-1]:
            x = jnp.tanh(x @ layer["kernel"] + layer["offset"])
        return x @ params[-1]["kernel"] + params[-1]["offset"]

    def loss(params, x, y):
        return jnp.mean((predict(params, x) - y) ** 2)

    @jax.jit
    def sgd(params, x, y):
        g = jax.grad(loss)(params, x, y)
        return jax.tree.map(lambda p, d: p - 0.05 * d, params, g)

    x = rng.uniform(-1, 1, size=(24, 2))
    y = np.sin(x[:, :1]) * x[:, 1:]
    print(loss(params, x, y))
    for _ in range(5):
        params = sgd(params, x, y)
    print(loss(params, x, y))
    out["mlp"] = params
    mark("mlp")

    tree = {"run": [0.5, Record("a", 1, 2)], "id": (7,)}
    for path, leaf in jax.tree_util.tree_flatten_with_path(tree)[0]:
        print(f"{jax.tree_util.keystr(path)} = {leaf!r} via {path!r}")
    mark("paths")

    shapes = jax.tree.map(jnp.shape, [jnp.zeros((2, 3)), jnp.zeros(4)])
    printed.show(shapes)
    printed.show(jax.tree.map(jnp.zeros, shapes))
    printed.show(jax.tree.leaves([None, 1, None]))
    printed.show(jax.tree.leaves([None, 1, None], is_leaf=lambda x: x is None))
    printed.attempt(errors, jax.tree.map, lambda x: x * 2, {"a": 1, 0: 2})
    mark("gotchas")

    steps = [{"obs": 1, "act": "l"}, {"obs": 2, "act": "r"}, {"obs": 3, "act": "l"}]
    printed.show(jax.tree.map(lambda *xs: list(xs), *steps))
    printed.show(
        jax.tree.transpose(
            jax.tree.structure([0] * len(steps)), jax.tree.structure(steps[0]), steps
        )
    )
    mark("transpose")


def _custom_nodes(out, errors, mark):
    print([f"{type(x).__name__}{vars(x)}" for x in jax.tree.leaves([Opaque(1, 2), Opaque(3, 4)])])
    printed.attempt(errors, jax.tree.map, lambda x: x + 1, [Opaque(1, 2), 5])
    mark("unregistered")

    printed.show(jax.tree.map(lambda x: 2 * x, [Interval(1, 3), Interval(-1.0, 0.5)]))
    printed.show(jax.grad(lambda iv: iv.hi**2 - 3 * iv.lo)(Interval(1.0, 2.5)))
    leaves, treedef = jax.tree.flatten(Interval(4, 5))
    print(leaves, treedef)
    mark("register")

    value = Scaled(0.5, {"u": 1.0, "v": jnp.arange(2.0)})
    flat, treedef = jax.tree.flatten(value)
    print(f"{flat=}\n{treedef=}")
    print(jax.tree.unflatten(treedef, [10.0, jnp.ones(2)]))
    printed.show(jax.jit(lambda s: jax.tree.map(lambda x: s.scale * x, s))(value))
    mark("register_class")

    records = [Record("lo", 1, 2), Record("hi", 3.0, jnp.ones(2))]
    printed.show(jax.tree.leaves(records))
    print(jax.tree.structure(records[0]))
    layer = Layer("relu", jnp.ones(2), 1)
    printed.show(jax.tree.leaves(layer))
    print(jax.tree.structure(layer))

    @jax.jit
    def spread(item):
        return item.high - item.low if isinstance(item, Record) else item.weight * item.bias

    y = spread(Layer("relu", 2, 3))
    out["dataclass_jit"] = [y, str(y.dtype), y.weak_type]
    printed.attempt(errors, spread, Record("bad", 1.0, 2.0))
    mark("records")

    class Strict:
        def __init__(self, a):
            self.a = jnp.asarray(a)

    jax.tree_util.register_pytree_node(
        Strict, lambda t: ((t.a,), None), lambda _, kids: Strict(*kids)
    )
    strict = Strict(jnp.array([1.0, 2.0, 3.0]))
    out["strict_vmap"] = jax.vmap(lambda t: t)(strict).a
    try:
        jax.jacobian(lambda t: t)(strict)
        out["strict_jacobian_raises"] = False
    except (TypeError, ValueError):
        out["strict_jacobian_raises"] = True

    class Lenient:
        def __init__(self, a):
            if not (a is None or type(a) is object or isinstance(a, Lenient)):
                a = jnp.asarray(a)
            self.a = a

    jax.tree_util.register_pytree_node(
        Lenient, lambda t: ((t.a,), None), lambda _, kids: Lenient(*kids)
    )
    out["lenient_vmap"] = jax.vmap(lambda t: Lenient(2 * t.a))(Lenient([1.0, 2.0])).a

    class Bypass:
        def __init__(self, a):
            self.a = jnp.asarray(a)

    def bypass_unflatten(_, kids):
        node = object.__new__(Bypass)
        node.a = kids[0]
        return node

    jax.tree_util.register_pytree_node(Bypass, lambda t: ((t.a,), None), bypass_unflatten)
    bypass = Bypass(jnp.array([1.0, 2.0, 3.0]))
    out["bypass_vmap"] = jax.vmap(lambda t: t)(bypass).a
    out["bypass_jacobian"] = jax.jacobian(lambda t: Bypass(jnp.sin(t.a)))(bypass).a.a
    mark("validating_init")

    Pair = collections.namedtuple("Pair", ["left", "right"])
    for value in [
        (1.0, [2.0, None]),
        {"y": 1.0, "x": (2.0,)},
        3.0,
        None,
        jnp.ones(2),
        Pair(1.0, [2.0]),
    ]:
        flat, treedef = jax.tree.flatten(value)
        print(f"{flat=} {treedef=}")
        print(jax.tree.unflatten(treedef, [2 * v for v in flat]))
    mark("containers")


def _cells(out, errors, mark):
    _leaves_and_maps(out, errors, mark)
    _custom_nodes(out, errors, mark)
