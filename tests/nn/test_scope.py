"""Design tests on the raw Scope API (the functional core under nn.Module), filters, rngs."""

import hashlib

import numpy as np
import pytest

import core.numpy as jnp
from core import random
from nn import errors
from nn import scope as scope_lib
from nn.scope import (
    DenyList,
    Scope,
    fold_in_static,
    in_filter,
    intersect_filters,
    is_filter_empty,
    subtract_filters,
    union_filters,
)


def dense(scope: Scope, x, features: int):
    kernel = scope.param("kernel", lambda k, s: random.normal(k, s), (x.shape[-1], features))
    bias = scope.param("bias", lambda k, s: jnp.zeros(s), (features,))
    return x @ kernel + bias


def mlp(scope: Scope, x):
    x = dense(scope.push("hidden"), x, 4)
    return dense(scope.push("out"), jnp.maximum(x, 0.0), 2)


def tied_autoencoder(scope: Scope, x):
    encoder = scope.param("encoder", lambda k, s: random.normal(k, s), (x.shape[-1], 2))
    return (x @ encoder) @ encoder.T


def residual_block(scope: Scope, x):
    return x + dense(scope.push("inner"), x, x.shape[-1])


def test_dense_net_init_and_apply():
    x = jnp.ones((3, 5))
    y, variables = scope_lib.init(mlp)(random.key(0), x)
    shapes = {n: {k: tuple(v.shape) for k, v in p.items()} for n, p in variables["params"].items()}
    assert shapes == {
        "hidden": {"kernel": (5, 4), "bias": (4,)},
        "out": {"kernel": (4, 2), "bias": (2,)},
    }
    y2 = scope_lib.apply(mlp)(variables, x)
    np.testing.assert_allclose(np.asarray(y2), np.asarray(y), rtol=1e-6)
    p = variables["params"]
    h = np.maximum(np.ones((3, 5)) @ np.asarray(p["hidden"]["kernel"]), 0)
    np.testing.assert_allclose(np.asarray(y), h @ np.asarray(p["out"]["kernel"]), rtol=1e-5)


def test_tied_autoencoder_and_residual_block():
    x = jnp.ones((2, 3))
    y, v = scope_lib.init(tied_autoencoder)(random.key(1), x)
    enc = np.asarray(v["params"]["encoder"])
    np.testing.assert_allclose(np.asarray(y), np.ones((2, 3)) @ enc @ enc.T, rtol=1e-5)
    y, v = scope_lib.init(residual_block)(random.key(2), x)
    assert set(v["params"]) == {"inner"}
    kernel = np.asarray(v["params"]["inner"]["kernel"])
    np.testing.assert_allclose(np.asarray(y), 1 + np.ones((2, 3)) @ kernel, rtol=1e-5)


def _reference_key(key, path):
    m = hashlib.sha1()
    for x in path:
        m.update(x.encode() if isinstance(x, str) else x.to_bytes((x.bit_length() + 7) // 8, "big"))
    return random.fold_in(key, np.uint32(int.from_bytes(m.digest()[:4], "big")))


@pytest.mark.parametrize(
    "path, calls, expected_suffix",
    [
        ((), 1, (1,)),
        ((), 3, (3,)),
        (("Dense_0",), 1, ("Dense_0", 1)),
        (("Encoder", "Dense_1"), 2, ("Encoder", "Dense_1", 2)),
    ],
)
def test_make_rng_folds_path_and_counter_like_flax(path, calls, expected_suffix):
    key = random.key(7)
    scope = scope_lib.bind({}, rngs={"params": key})
    for name in path:
        scope = scope.push(name)
    for _ in range(calls):
        got = scope.make_rng("params")
    want = _reference_key(key, expected_suffix)
    np.testing.assert_array_equal(
        np.asarray(random.key_data(got)), np.asarray(random.key_data(want))
    )


def test_fold_in_static_empty_path_is_identity():
    key = random.key(3)
    assert fold_in_static(key, ()) is key


def test_lazy_rng_create_extends_and_folds_like_flax():
    """Flax's `LazyRng.create(rng, *suffix)`/`as_jax_rng`: a scope's first 'params' key is the
    root key with suffix (1,) (Flax 0.12.8's raw key data)."""
    first = scope_lib.init(lambda s: s.make_rng("params"))(random.PRNGKey(0))[0]
    made = scope_lib.LazyRng.create(random.PRNGKey(0), 1).as_jax_rng()
    np.testing.assert_array_equal(first, made)
    np.testing.assert_array_equal(made, [1428664606, 3351135085])
    nested = scope_lib.LazyRng.create(scope_lib.LazyRng.create(random.PRNGKey(0), "a"), "b")
    assert nested.suffix == ("a", "b") and nested.clear_suffix().suffix == ()


def test_rng_counters_survive_rewind_and_repush():
    root = scope_lib.bind({}, rngs={"dropout": random.key(0)})
    k1 = root.push("Dropout_0").make_rng("dropout")
    k2 = root.rewound().push("Dropout_0").make_rng("dropout")
    assert not np.array_equal(np.asarray(random.key_data(k1)), np.asarray(random.key_data(k2)))


def test_make_rng_falls_back_to_params_then_raises():
    scope = scope_lib.bind({}, rngs={"params": random.key(0)})
    scope.make_rng("dropout")  # falls back to 'params' like Flax
    with pytest.raises(errors.MissingRngError, match="rngs=\\{'dropout': key\\}"):
        scope_lib.bind({}).push("Dropout_0").make_rng("dropout")


@pytest.mark.parametrize(
    "filter_like, col, expected",
    [
        (True, "params", True),
        (False, "params", False),
        ("batch_stats", "batch_stats", True),
        ("batch_stats", "params", False),
        (["batch_stats", "cache"], "cache", True),
        (["batch_stats", "cache"], "params", False),
        (DenyList("intermediates"), "params", True),
        (DenyList("intermediates"), "intermediates", False),
        (DenyList(["a", "b"]), "b", False),
    ],
)
def test_in_filter(filter_like, col, expected):
    assert in_filter(filter_like, col) is expected


@pytest.mark.parametrize(
    "a, b, members, non_members",
    [
        (False, "intermediates", ["intermediates"], ["params"]),
        (["batch_stats"], "intermediates", ["batch_stats", "intermediates"], ["params"]),
        (DenyList("intermediates"), "intermediates", ["intermediates", "params"], []),
        (DenyList(["a", "b"]), DenyList(["b", "c"]), ["a", "c", "params"], ["b"]),
        (True, "x", ["x", "y"], []),
    ],
)
def test_union_filters(a, b, members, non_members):
    union = union_filters(a, b)
    assert all(in_filter(union, c) for c in members)
    assert not any(in_filter(union, c) for c in non_members)


_FILTER_OPS = {"union": union_filters, "intersect": intersect_filters, "sub": subtract_filters}
_D = DenyList


# Flax 0.12.8's results (finite ones are sets), recorded
@pytest.mark.parametrize(
    "op, a, b, want",
    [
        ("union", ["a", "b"], ["b", "c"], {"a", "b", "c"}),
        ("union", False, False, set()),
        ("union", "a", False, {"a"}),
        ("union", _D(["a", "b"]), _D(["b", "c"]), _D({"b"})),
        ("union", _D(["a", "b"]), ["b", "c"], _D({"a"})),
        ("intersect", ["a", "b"], ["b", "c"], {"b"}),
        ("intersect", False, False, set()),
        ("intersect", True, "a", "a"),
        ("intersect", _D(["a", "b"]), _D(["b", "c"]), _D({"a", "b", "c"})),
        ("intersect", _D(["a", "b"]), ["b", "c"], {"c"}),
        ("sub", ["a", "b"], ["b", "c"], {"a"}),
        ("sub", True, False, _D(False)),
        ("sub", True, True, False),
        ("sub", True, "a", _D("a")),
        ("sub", _D(["a", "b"]), _D(["b", "c"]), {"c"}),
        ("sub", _D(["a", "b"]), ["b", "c"], _D({"a", "b", "c"})),
        ("sub", "a", _D("a"), {"a"}),
    ],
)
def test_filter_algebra_is_flaxs(op, a, b, want):
    got = _FILTER_OPS[op](a, b)
    assert type(got) is type(want) and got == want
    assert is_filter_empty(got) == (want in (False, set()))


def test_deny_lists_of_bools():
    assert in_filter(_D(False), "params") and not in_filter(_D(True), "params")
    assert is_filter_empty(_D(True)) and not is_filter_empty(_D(False))


def test_name_reservation_allows_same_name_in_other_collections():
    scope = scope_lib.bind({}, mutable=True)
    scope.variable("batch_stats", "mean", jnp.zeros, (2,))
    scope.variable("cache", "mean", jnp.zeros, (2,))
    with pytest.raises(errors.NameInUseError):
        scope.variable("batch_stats", "mean", jnp.zeros, (2,))
    scope.push("child")
    with pytest.raises(errors.NameInUseError):
        scope.push("child")


def test_immutable_and_missing_collections():
    scope = scope_lib.bind({"params": {"w": jnp.ones(2)}})
    with pytest.raises(errors.ImmutableCollectionError, match=r"mutable=\['batch_stats'\]"):
        scope.put_variable("batch_stats", "mean", jnp.zeros(2))
    with pytest.raises(errors.CollectionNotFoundError, match="batch_stats"):
        scope.variable("batch_stats", "mean")
    with pytest.raises(errors.VariableNotFoundError, match="'v'"):
        scope.param("v", lambda k, s: jnp.zeros(s), (2,))


def test_apply_returns_only_mutable_collections_and_copies_them():
    def fn(scope, x):
        var = scope.variable("counter", "n", lambda: jnp.zeros(()))
        var.value = var.value + x
        return scope.param("w", lambda k, s: jnp.zeros(s), (1,))

    variables = {"params": {"w": jnp.ones(1)}, "counter": {"n": jnp.ones(())}}
    y, updates = scope_lib.apply(fn, mutable=["counter"])(variables, 2.0)
    assert set(updates) == {"counter"}
    assert float(updates["counter"]["n"]) == 3.0
    assert float(variables["counter"]["n"]) == 1.0  # the caller's dict is untouched
    np.testing.assert_array_equal(np.asarray(y), [1.0])


@pytest.mark.parametrize(
    "variables, error",
    [
        ([1, 2], errors.InvalidVariablesError),
        ({"params": 3}, errors.InvalidVariablesError),
        ({"params": {"params": {"w": 1}}}, errors.ParamsDoubleWrappedError),
    ],
)
def test_bind_rejects_malformed_variables(variables, error):
    with pytest.raises(error):
        scope_lib.bind(variables)


@pytest.mark.parametrize("rngs", [0, "key", {"params": 0}, {1: None}, None])
def test_init_rejects_non_keys(rngs):
    with pytest.raises(errors.InvalidRngsError, match="core.random.key"):
        scope_lib.init(mlp)(rngs, jnp.ones((1, 2)))


def test_init_takes_an_empty_rngs_dict():
    # Flax 0.12.8: init({}, x) of a model without parameters works; one with parameters
    # fails at its first parameter (`None needs PRNG for "params"`)
    def stats_only(scope, x):
        scope.variable("stats", "n", lambda: jnp.zeros(()))
        return x * 2

    y, variables = scope_lib.init(stats_only)({}, jnp.ones(2))
    np.testing.assert_array_equal(y, [2.0, 2.0])
    assert list(variables) == ["stats"]
    with pytest.raises(errors.MissingRngError, match='needs PRNG for "params"'):
        scope_lib.init(mlp)({}, jnp.ones((1, 2)))


def _dense_no_bias(scope: Scope, x, features: int):
    return x @ scope.param("kernel", lambda k, s: random.normal(k, s), (x.shape[-1], features))


def test_child_binds_a_named_child_scope_reused_across_calls():
    def f(scope, x):
        first = scope.child(_dense_no_bias, prefix="dense_", features=3)
        h = first(first(x))  # the same child, the same kernel twice
        y = scope.child(_dense_no_bias, prefix="dense_")(h, 2)
        return scope.child(_dense_no_bias, name="out")(y, 1)

    y, v = scope_lib.init(f)(random.key(0), jnp.ones((1, 3)))
    assert list(v["params"]) == ["dense_0", "dense_1", "out"]
    np.testing.assert_allclose(y, [[-3.1440375]], rtol=1e-5)  # Flax 0.12.8's flax.core
    _, v = scope_lib.init(lambda s, x: s.child(_dense_no_bias)(x, 1))(random.key(0), y)
    assert list(v["params"]) == ["_dense_no_bias_0"]  # named after the function
