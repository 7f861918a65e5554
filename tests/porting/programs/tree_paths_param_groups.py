"""Key paths as training code uses them to group parameters (our own program): weight-decay
masks, per-layer learning rates and frozen blocks chosen by path, with `jax.tree_util`'s path
API and Flax's `traverse_util`.

- `tree_flatten_with_path`/`tree_leaves_with_path`/`tree.map_with_path`/`tree_map_with_path`
  over a Flax `FrozenDict` of parameters, a list, a namedtuple, a `flax.struct` dataclass and
  `None` leaves; `keystr` (default, `simple=True`, `separator=`), the key classes' reprs and
  attributes (`DictKey.key`, `SequenceKey.idx`, `GetAttrKey.name`);
- `register_pytree_with_keys` (a class naming its children) and `register_dataclass`
  (data and meta fields), their paths;
- `traverse_util.flatten_dict` (`sep=`, `keep_empty_nodes=`), `unflatten_dict`,
  and `path_aware_map`;
- `optax.multi_transform` with labels from a path function, `optax.masked` with a mask
  callable over paths, `optax.add_decayed_weights(mask=...)`, and three training steps of an
  MLP under them (the frozen layer stays, the others move by their rates);
- `tree_util.tree_reduce` with an initializer, `tree_all`, `tree.structure` equality and
  `num_leaves`/`num_nodes`, `Partial` as a pytree (its leaves and paths).
"""

import collections
import dataclasses
import functools

import flax
import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax import struct, traverse_util
from jax import tree_util as tu

Pair = collections.namedtuple("Pair", ["first", "second"])


@struct.dataclass
class Stats:
    count: jax.Array
    values: list
    name: str = struct.field(pytree_node=False, default="stats")


class Labeled:
    def __init__(self, weight, bias):
        self.weight, self.bias = weight, bias


tu.register_pytree_with_keys(
    Labeled,
    lambda x: (((tu.GetAttrKey("weight"), x.weight), (tu.GetAttrKey("bias"), x.bias)), None),
    lambda _, children: Labeled(*children),
)


@functools.partial(jax.tree_util.register_dataclass, data_fields=["x", "y"], meta_fields=["tag"])
@dataclasses.dataclass
class Point:
    x: jax.Array
    y: jax.Array
    tag: str


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(6, name="embed")(x))
        x = nn.relu(nn.Dense(6, name="hidden")(x))
        x = nn.LayerNorm(name="norm")(x)
        return nn.Dense(2, name="head")(x)


def paths(out):
    tree = {
        "frozen": flax.core.freeze({"a": jnp.ones(2), "b": {"c": 3.0}}),
        "list": [jnp.zeros(1), None, (4, 5)],
        "pair": Pair(jnp.arange(2), 7),
        "stats": Stats(count=jnp.array(1), values=[1.0, 2.0]),
        "labeled": Labeled(jnp.ones(3), 0.5),
        "point": Point(jnp.array(1.0), jnp.array(2.0), "p"),
    }
    flat, treedef = tu.tree_flatten_with_path(tree)
    out["keystr"] = [tu.keystr(p) for p, _ in flat]
    out["keystr_simple"] = [tu.keystr(p, simple=True, separator="/") for p, _ in flat]
    out["key_reprs"] = [repr(k) for k in flat[0][0]] + [repr(k) for k in flat[-1][0]]
    out["num_leaves"] = [treedef.num_leaves, treedef.num_nodes]
    keys = [p[-1] for p, _ in flat]
    out["key_fields"] = [
        getattr(k, "key", None) if isinstance(k, tu.DictKey)
        else getattr(k, "idx", None) if isinstance(k, tu.SequenceKey)
        else getattr(k, "name", None)
        for k in keys
    ]  # fmt: skip
    depth = jax.tree.map_with_path(lambda p, x: len(p), tree)
    out["depths"] = jax.tree.leaves(depth)
    out["leaves_with_path_is_leaf"] = [
        tu.keystr(p) for p, _ in tu.tree_leaves_with_path(tree, is_leaf=lambda x: x is None)
    ]
    out["structure_equal"] = [
        jax.tree.structure(tree) == treedef,
        jax.tree.structure({"a": 1, "b": 2}) == jax.tree.structure({"b": 0, "a": 0}),
        jax.tree.structure([1, 2]) == jax.tree.structure((1, 2)),
    ]
    out["reduce"] = tu.tree_reduce(lambda a, b: a + jnp.sum(b), tree["frozen"], 10.0)
    out["all"] = [tu.tree_all([True, jnp.array(True)]), tu.tree_all({"a": True, "b": False})]
    part = tu.Partial(lambda a, b, c: a * b + c, jnp.array(2.0), c=jnp.array(1.0))
    out["partial_leaves"] = [tu.keystr(p) for p, _ in tu.tree_flatten_with_path(part)[0]]
    out["partial_call"] = jax.jit(lambda f, x: f(x))(part, jnp.array(3.0))


def traversals(out, params):
    flat = traverse_util.flatten_dict(params, sep="/")
    out["flat_keys"] = sorted(flat)
    with_empty = traverse_util.flatten_dict({"a": {}, "b": {"c": 1}}, keep_empty_nodes=True)
    out["empty_nodes"] = sorted(str(k) for k in with_empty)
    out["unflatten_roundtrip"] = traverse_util.unflatten_dict(flat, sep="/") == params
    scaled = traverse_util.path_aware_map(
        lambda path, x: x * (0.0 if path[-1] == "bias" else 1.0), params
    )
    out["path_aware_bias_sum"] = sum(
        float(jnp.sum(v)) for k, v in traverse_util.flatten_dict(scaled).items() if k[-1] == "bias"
    )


def label(path, _):
    names = [k.key for k in path if isinstance(k, tu.DictKey)]
    if "embed" in names:
        return "frozen"
    if "norm" in names or names[-1] == "bias":
        return "no_decay"
    return "decay"


def grouped_training(out, params, x, y):
    labels = jax.tree.map_with_path(label, params)
    out["labels"] = [f"{tu.keystr(p)}={v}" for p, v in tu.tree_leaves_with_path(labels)]
    decay_mask = lambda p: jax.tree.map_with_path(lambda path, _: label(path, _) == "decay", p)  # noqa: E731
    tx = optax.multi_transform(
        {
            "frozen": optax.set_to_zero(),
            "no_decay": optax.adam(0.05),
            "decay": optax.chain(optax.add_decayed_weights(0.1, mask=decay_mask), optax.adam(0.02)),
        },
        labels,
    )
    model = MLP()
    state = tx.init(params)

    @jax.jit
    def step(params, state):
        loss, grads = jax.value_and_grad(
            lambda p: jnp.mean((model.apply({"params": p}, x) - y) ** 2)
        )(params)
        updates, state = tx.update(grads, state, params)
        return optax.apply_updates(params, updates), state, loss

    start = params
    losses = []
    for _ in range(3):
        params, state, loss = step(params, state)
        losses.append(loss)
    out["losses"] = jnp.stack(losses)
    moved = jax.tree.map_with_path(
        lambda p, a, b: f"{tu.keystr(p, simple=True, separator='.')}:{bool(jnp.any(a != b))}",
        params, start,
    )  # fmt: skip
    out["moved"] = jax.tree.leaves(moved)
    out["head_kernel"] = params["head"]["kernel"]

    masked = optax.masked(optax.sgd(1.0), lambda p: jax.tree.map(lambda v: v.ndim == 2, p))
    updates, _ = masked.update(jax.tree.map(jnp.ones_like, params), masked.init(params))
    out["masked_update_sums"] = [float(jnp.sum(u)) for u in jax.tree.leaves(updates)]


def run():
    out = {}
    paths(out)
    x = jax.random.normal(jax.random.key(4), (8, 3))
    y = jnp.stack([x.sum(1), x[:, 0] * x[:, 1]], axis=1)
    params = MLP().init(jax.random.key(0), x)["params"]
    traversals(out, params)
    grouped_training(out, params, x, y)
    return out
