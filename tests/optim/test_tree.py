"""`optim.tree`: leafwise arithmetic, norms, dtypes, moments and state queries."""

from __future__ import annotations

import collections

import numpy as np
import pytest

import core.numpy as jnp
import optim
from core import random, tree_util
from optim import tree
from optim.errors import TreeDtypeError, TreeKeyError

X = {"a": np.array([1.0, -2.0]), "b": np.array([[3.0], [0.5]])}
Y = {"a": np.array([0.5, 4.0]), "b": np.array([[-1.0], [2.0]])}


def _j(t):
    return {k: jnp.asarray(v.astype(np.float32)) for k, v in t.items()}


def _n(t):
    return {k: np.asarray(v) for k, v in t.items()}


@pytest.mark.parametrize(
    "fn, expected",
    [
        (lambda x, y: tree.add(x, y), {k: X[k] + Y[k] for k in X}),
        (lambda x, y: tree.add(x, y, y), {k: X[k] + 2 * Y[k] for k in X}),
        (lambda x, y: tree.sub(x, y), {k: X[k] - Y[k] for k in X}),
        (lambda x, y: tree.mul(x, y), {k: X[k] * Y[k] for k in X}),
        (lambda x, y: tree.div(x, y), {k: X[k] / Y[k] for k in X}),
        (lambda x, y: tree.scale(3.0, x), {k: 3 * X[k] for k in X}),
        (lambda x, y: tree.add_scale(x, 0.5, y), {k: X[k] + 0.5 * Y[k] for k in X}),
        (lambda x, y: tree.clip(x, -1.0, 1.0), {k: np.clip(X[k], -1, 1) for k in X}),
        (lambda x, y: tree.where(False, x, y), Y),
        (lambda x, y: tree.zeros_like(x), {k: np.zeros_like(X[k]) for k in X}),
        (lambda x, y: tree.ones_like(x), {k: np.ones_like(X[k]) for k in X}),
        (lambda x, y: tree.full_like(x, 7.0), {k: np.full_like(X[k], 7.0) for k in X}),
        (
            lambda x, y: tree.update_moment(x, y, 0.9, 2),
            {k: 0.1 * X[k] ** 2 + 0.9 * Y[k] for k in X},
        ),
        (
            lambda x, y: tree.update_infinity_moment(x, y, 0.9, 0.1),
            {k: np.maximum(np.abs(X[k]) + 0.1, 0.9 * Y[k]) for k in X},
        ),
        (lambda x, y: tree.bias_correction(x, 0.9, 2), {k: X[k] / (1 - 0.81) for k in X}),
        # an integer decay (scale_by_adam(b1=0)): Optax's integer power, 0 ** 2 == 0
        (lambda x, y: tree.bias_correction(x, 0, jnp.int32(2)), X),
        (lambda x, y: tree.bias_correction(x, 2, 3), {k: X[k] / (1 - 8) for k in X}),
    ],
)
def test_leafwise(fn, expected):
    out = _n(fn(_j(X), _j(Y)))
    for k in expected:
        np.testing.assert_allclose(out[k], expected[k], rtol=1e-6, atol=1e-6)


def test_reductions():
    x = _j(X)
    flat = np.concatenate([v.ravel() for v in X.values()])
    np.testing.assert_allclose(float(tree.sum(x)), flat.sum(), rtol=1e-6)
    np.testing.assert_allclose(float(tree.vdot(x, _j(Y))), sum((X[k] * Y[k]).sum() for k in X))
    np.testing.assert_allclose(float(tree.norm(x)), np.linalg.norm(flat), rtol=1e-6)
    np.testing.assert_allclose(float(tree.norm(x, squared=True)), (flat**2).sum(), rtol=1e-6)
    np.testing.assert_allclose(float(tree.norm(x, ord=1)), np.abs(flat).sum(), rtol=1e-6)
    np.testing.assert_allclose(float(tree.norm(x, ord="inf")), 3.0)
    assert float(tree.max(x)) == 3.0 and float(tree.min(x)) == -2.0
    assert tree.size(x) == 4
    assert bool(tree.allclose(x, x)) and not bool(tree.allclose(x, _j(Y)))


def test_dtypes_and_casts():
    mixed = {"a": jnp.zeros(1, jnp.float16), "b": jnp.zeros(1, jnp.float32)}
    assert tree.dtype(mixed, "highest") == jnp.float32
    assert tree.dtype(mixed, "lowest") == jnp.float16
    assert tree.dtype(mixed, "promote") == jnp.float32
    assert tree.dtype({"a": jnp.zeros(1)}) == jnp.float32
    with pytest.raises(TreeDtypeError):
        tree.dtype(mixed)
    assert tree.cast(mixed, jnp.float16)["b"].dtype == jnp.float16
    assert tree.cast(mixed, None) is mixed
    assert tree.cast_like(mixed, {"a": jnp.zeros(1), "b": jnp.zeros(1)})["a"].dtype == jnp.float32


def _adam_state():
    tx = optim.inject_hyperparams(optim.adam)(learning_rate=0.1)
    return tx, tx.init({"w": jnp.zeros(2)})


def test_get_and_set_find_fields_by_name():
    tx, state = _adam_state()
    np.testing.assert_allclose(float(tree.get(state, "learning_rate")), 0.1, rtol=1e-6)
    adam_state = tree.get(state, "ScaleByAdamState")
    assert isinstance(adam_state, optim.ScaleByAdamState)
    assert tree.get(state, "missing", default="none") == "none"
    with pytest.raises(TreeKeyError):
        tree.get(state, "count")  # the outer count and Adam's count
    paths = [p for p, _ in tree.get_all_with_path(state, "count")]
    assert [str(p[-1]) for p in paths] == [
        "InjectStatefulHyperparamsState.count",
        "ScaleByAdamState.count",
    ]
    new = tree.set(state, learning_rate=jnp.asarray(0.5))
    np.testing.assert_allclose(float(new.hyperparams["learning_rate"]), 0.5)
    assert isinstance(new, optim.InjectStatefulHyperparamsState)
    with pytest.raises(TreeKeyError):
        tree.set(state, nothing_called_like_this=1)


_Adam = collections.namedtuple("ScaleByAdamState", ["count", "mu", "nu"])

# (tree, key, Optax 0.2.8's paths in order): the matches in the outermost nodes holding the key,
# in leaf order (dict keys sorted), before those found below them
GET_ALL_CASES = [
    (
        {"hparams": {"learning_rate": 1.0}, "learning_rate": 2.0},
        "learning_rate",
        ["['learning_rate']", "['hparams']['learning_rate']"],
    ),
    (
        {"z": {"count": 1}, "a": [_Adam(2, 0.0, 0.0), {"count": 3}], "count": 4},
        "count",
        ["['count']", "['z']['count']", "['a'][0]ScaleByAdamState.count", "['a'][1]['count']"],
    ),
    (
        {"b": {"count": 1}, "a": {"c": {"count": 2}}},
        "count",
        ["['a']['c']['count']", "['b']['count']"],
    ),
]


@pytest.mark.parametrize(("state", "key", "want"), GET_ALL_CASES)
def test_get_all_with_path_in_optaxs_order(state, key, want):
    found = tree.get_all_with_path(state, key)
    assert [tree_util.keystr(p) for p, _ in found] == want


# (tree, filtering, key=value, Optax 0.2.8's result): `set` rebuilds the first nodes holding the
# key on each branch, and below them only the children that hold the key themselves
SET_CASES = [
    ({"x": [1, {"x": 2}]}, lambda p, v: isinstance(v, int), 5, {"x": [1, {"x": 2}]}),
    ({"x": 1, "y": {"z": {"x": 2}}}, None, 5, {"x": 5, "y": {"z": {"x": 2}}}),
    ([{"y": {"x": 2}}, {"x": 3}], None, 5, [{"y": {"x": 5}}, {"x": 5}]),
    ({"x": 1, "y": {"x": 2}}, None, 5, {"x": 5, "y": {"x": 5}}),
    ({"a": ({"x": 1},), "x": 0}, None, 7, {"a": ({"x": 1},), "x": 7}),
]


@pytest.mark.parametrize(("tree_in", "filtering", "value", "want"), SET_CASES)
def test_set_replaces_what_optax_replaces(tree_in, filtering, value, want):
    assert tree.set(tree_in, filtering, x=value) == want


def test_map_params_touches_only_params_shaped_parts():
    tx = optim.adam(0.1)
    params = {"w": jnp.ones(2)}
    state = tx.init(params)
    mapped = tree.map_params(tx, lambda p: p + 1.0, state)
    np.testing.assert_allclose(np.asarray(mapped[0].mu["w"]), [1.0, 1.0])
    assert int(mapped[0].count) == 0


# Optax 0.2.8's deprecated tree_utils names still work there, with a DeprecationWarning
# (values: optax.tree_utils.<name>(X) / (X, 2.0[, Y]) in Optax 0.2.8).
_DEPRECATED = [
    ("tree_l2_norm", (X,), np.sqrt(1 + 4 + 9 + 0.25)),
    ("tree_l1_norm", (X,), 6.5),
    ("tree_linf_norm", (X,), 3.0),
    ("tree_scalar_mul", (2.0, X), {k: 2 * v for k, v in X.items()}),
    ("tree_add_scalar_mul", (X, 2.0, Y), {k: X[k] + 2 * Y[k] for k in X}),
]


@pytest.mark.parametrize("name,args,want", _DEPRECATED)
def test_deprecated_names(name, args, want):
    with pytest.warns(DeprecationWarning, match=name):
        fn = getattr(optim.tree_utils, name)
    got = fn(*[_j(a) if isinstance(a, dict) else a for a in args])
    if isinstance(want, dict):
        for k in want:
            np.testing.assert_allclose(got[k], want[k], rtol=1e-6)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-6)
    with pytest.raises(AttributeError):
        _ = optim.tree.tree_no_such_name


def test_unwrap_random_key_data():
    t = {"k": random.key(0), "nested": [random.key(3)], "x": jnp.ones(2)}
    out = tree.tree_unwrap_random_key_data(t)
    assert tree.unwrap_random_key_data is tree.tree_unwrap_random_key_data
    np.testing.assert_array_equal(out["k"], [0, 0])  # JAX 0.10.2's key_data(key(0))
    np.testing.assert_array_equal(out["nested"][0], random.key_data(random.key(3)))
    assert out["k"].dtype == np.uint32 and out["x"] is t["x"]
    assert optim.schedules.Schedule is optim.Schedule
    assert optim.schedules.StatefulSchedule is optim.StatefulSchedule


def test_tree_vdot_of_python_scalars_is_weakly_typed():
    """Optax 0.2.8: `Array(13., dtype=float32, weak_type=True)`."""
    out = tree.vdot({"a": 2.0, "b": 3}, {"a": 0.5, "b": 4})
    assert repr(out) == "Array(13., dtype=float32, weak_type=True)"


def test_get_set_dtype_and_norm_errors_start_with_optaxs():
    # Optax 0.2.8's first lines (its KeyErrors show the message quoted)
    state = optim.chain(optim.sgd(0.1, momentum=0.9), optim.trace(0.5)).init({"a": jnp.zeros(2)})
    with pytest.raises(TreeKeyError) as info:
        tree.get(state, "trace")
    assert str(info.value).split("\n")[0] == repr(
        "Found multiple values for 'trace' in ((TraceState(trace={'a': Array([0., 0.], "
        "dtype=float32)}), EmptyState()), TraceState(trace={'a': Array([0., 0.], "
        "dtype=float32)}))."
    )
    one = optim.trace(0.5).init({"a": jnp.zeros(2)})
    text = "TraceState(trace={'a': Array([0., 0.], dtype=float32)})"
    with pytest.raises(TreeKeyError) as info:
        tree.set(one, nope=1)
    assert str(info.value).split("\n")[0] == repr(f"Found no values matching 'nope' in {text}")
    with pytest.raises(TreeKeyError) as info:
        tree.set(one, lambda path, value: False, trace=1)
    assert str(info.value).split("\n")[0] == repr(
        f"Found no values matching 'trace' given the filtering operation in {text}"
    )
    with pytest.raises(TreeDtypeError) as info:
        tree.dtype({"a": jnp.ones(2, jnp.float16), "b": [jnp.ones(2)]})
    assert str(info.value).split("\n")[0] == (
        "Expected dtype=dtype('float16') for (DictKey(key='b'), SequenceKey(idx=0)) "
        "but got float32."
    )
    with pytest.raises(TreeDtypeError) as info:
        tree.dtype({"a": jnp.ones(2)}, "max")
    assert str(info.value).split("\n")[0] == (
        "Invalid value for mixed_dtype_handler='max', possible values are: None, "
        '"promote", "highest", "lowest".'
    )
    with pytest.raises(ValueError) as info:
        tree.norm({"a": jnp.ones(2)}, ord=3)
    assert str(info.value).split("\n")[0] == "Unsupported ord: 3"
