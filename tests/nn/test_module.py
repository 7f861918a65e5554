"""Module mechanics: naming, setup/compact, init/apply/bind, collections, rngs, teaching errors.

Expected trees and values were produced by flax 0.12.8 (`flax.linen`) with the same code.
"""

import gc
from unittest import mock

import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
from core import random, tree_util
from core.array import placement
from nn import errors


def shapes(tree):
    return tree_util.tree_map(lambda x: tuple(x.shape), tree)


def zeros(key, shape, dtype=jnp.float32):
    return jnp.zeros(shape, dtype)


class CNN(nn.Module):
    """The linen MNIST example CNN."""

    @nn.compact
    def __call__(self, x):
        x = nn.Conv(features=32, kernel_size=(3, 3))(x)
        x = nn.relu(x)
        x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
        x = nn.Conv(features=64, kernel_size=(3, 3))(x)
        x = nn.relu(x)
        x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
        x = x.reshape((x.shape[0], -1))
        x = nn.Dense(features=256)(x)
        x = nn.relu(x)
        return nn.Dense(features=10)(x)


class Block(nn.Module):
    features: int

    def setup(self):
        self.dense = nn.Dense(self.features)
        self.norm = nn.LayerNorm()

    def __call__(self, x):
        return self.norm(nn.relu(self.dense(x)))


class SetupModel(nn.Module):
    def setup(self):
        self.embed = nn.Embed(10, 4)
        self.blocks = [Block(8), Block(8)]
        self.heads = {"a": nn.Dense(2), "b": nn.Dense(3)}
        self.bn = nn.BatchNorm(use_running_average=False)

    def __call__(self, tokens):
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x)
        x = self.bn(x)
        return self.heads["a"](x), self.heads["b"](x)


class TutorialMLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(8, name="Dense1")(x)
        x = nn.relu(x)
        return nn.Dense(2)(x)


def test_compact_cnn_tree_equals_flax():
    variables = core.eval_shape(CNN().init, random.key(0), jnp.ones((1, 28, 28, 1)))
    assert shapes(variables) == {
        "params": {
            "Conv_0": {"bias": (32,), "kernel": (3, 3, 1, 32)},
            "Conv_1": {"bias": (64,), "kernel": (3, 3, 32, 64)},
            "Dense_0": {"bias": (256,), "kernel": (3136, 256)},
            "Dense_1": {"bias": (10,), "kernel": (256, 10)},
        }
    }
    assert (
        sum(int(np.prod(x.shape)) for x in tree_util.tree_leaves(variables)) == 824_458
    )  # 320 + 18_496 + 803_072 + 2_570


def test_setup_model_tree_and_values_equal_flax():
    variables = SetupModel().init(random.key(0), jnp.zeros((2, 5), jnp.int32))
    assert shapes(variables) == {
        "batch_stats": {"bn": {"mean": (8,), "var": (8,)}},
        "params": {
            "blocks_0": {
                "dense": {"bias": (8,), "kernel": (4, 8)},
                "norm": {"bias": (8,), "scale": (8,)},
            },
            "blocks_1": {
                "dense": {"bias": (8,), "kernel": (8, 8)},
                "norm": {"bias": (8,), "scale": (8,)},
            },
            "bn": {"bias": (8,), "scale": (8,)},
            "embed": {"embedding": (10, 4)},
            "heads_a": {"bias": (2,), "kernel": (8, 2)},
            "heads_b": {"bias": (3,), "kernel": (8, 3)},
        },
    }
    flax_row = [-0.45499638, -0.37608489, 0.3445963, 0.54671061, 0.42812356, -0.36896032,
                -0.30360529, -0.01529208]  # fmt: skip
    got = np.asarray(variables["params"]["blocks_1"]["dense"]["kernel"][0])
    np.testing.assert_allclose(got, flax_row, rtol=1e-5, atol=1e-6)


def test_tutorial_model_ports_by_changing_imports():
    variables = TutorialMLP().init(random.key(0), jnp.ones((1, 3)))
    assert shapes(variables) == {
        "params": {
            "Dense1": {"bias": (8,), "kernel": (3, 8)},
            "Dense_0": {"bias": (2,), "kernel": (8, 2)},
        }
    }
    flax_dense1 = [0.32428607, 0.43365371, 0.11335456, -0.39532498, -0.12644166, 0.65025705,
                   0.16272104, 0.93074322]  # fmt: skip
    np.testing.assert_allclose(
        np.asarray(variables["params"]["Dense1"]["kernel"][0]), flax_dense1, rtol=1e-5, atol=1e-6
    )
    np.testing.assert_allclose(
        np.asarray(variables["params"]["Dense_0"]["kernel"][0]),
        [-0.58399928, 0.26677421],
        rtol=1e-5,
    )
    x = jnp.ones((4, 3))
    y = TutorialMLP().apply(variables, x)
    p = variables["params"]
    h = np.maximum(
        np.asarray(x) @ np.asarray(p["Dense1"]["kernel"]) + np.asarray(p["Dense1"]["bias"]), 0
    )
    np.testing.assert_allclose(np.asarray(y), h @ np.asarray(p["Dense_0"]["kernel"]), rtol=1e-5)


class CompactTwin(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3, name="dense2")(nn.Dense(4, name="dense1")(x))


class SetupTwin(nn.Module):
    def setup(self):
        self.dense1 = nn.Dense(4)
        self.dense2 = nn.Dense(3)

    def __call__(self, x):
        return self.dense2(self.dense1(x))


def test_compact_and_setup_give_the_same_tree_and_values():
    x = jnp.ones((2, 5))
    a = CompactTwin().init(random.key(3), x)
    b = SetupTwin().init(random.key(3), x)
    assert shapes(a) == shapes(b)
    for leaf_a, leaf_b in zip(tree_util.tree_leaves(a), tree_util.tree_leaves(b)):
        np.testing.assert_array_equal(np.asarray(leaf_a), np.asarray(leaf_b))


class Loop(nn.Module):
    @nn.compact
    def __call__(self, x):
        for _ in range(2):
            x = nn.Dense(3)(x)
        return x


class CallTwice(nn.Module):
    @nn.compact
    def __call__(self, x):
        shared = Loop()
        return shared(x) + shared(x)


def test_autonames_reset_per_call_so_second_call_reuses_params():
    variables = CallTwice().init(random.key(0), jnp.ones((1, 3)))
    assert shapes(variables) == {
        "params": {
            "Loop_0": {
                "Dense_0": {"bias": (3,), "kernel": (3, 3)},
                "Dense_1": {"bias": (3,), "kernel": (3, 3)},
            }
        }
    }
    y = CallTwice().apply(variables, jnp.ones((1, 3)))
    y1 = Loop().apply({"params": variables["params"]["Loop_0"]}, jnp.ones((1, 3)))
    np.testing.assert_allclose(np.asarray(y), 2 * np.asarray(y1), rtol=1e-6)


class Pair(nn.Module):
    a: nn.Module
    b: nn.Module

    def __call__(self, x):
        return self.a(x) + self.b(x)


def test_field_submodules_are_adopted_and_sharing_survives():
    dense = nn.Dense(3)
    assert shapes(Pair(dense, dense).init(random.key(0), jnp.ones((1, 2)))) == {
        "params": {"a": {"bias": (3,), "kernel": (2, 3)}}
    }
    assert set(Pair(nn.Dense(3), nn.Dense(3)).init(random.key(0), jnp.ones((1, 2)))["params"]) == {
        "a",
        "b",
    }


def test_rnn_cell_built_inline_belongs_to_the_compact_parent_like_flax():
    class M(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.Sequential([nn.Dense(3), nn.relu, nn.Dense(2)])(x)

    assert set(M().init(random.key(0), jnp.ones((1, 2)))["params"]) == {"Dense_0", "Dense_1"}


def test_an_unbound_module_runs_no_setup_as_in_flax():
    # Flax's module_lifecycle note: `assert not hasattr(TopLevelAccess(), "foo")`
    model = SetupTwin()
    assert not hasattr(model, "dense1")
    with pytest.raises(errors.UnboundCallSetupAttributeError, match="only accessible from"):
        _ = model.dense2
    variables = model.init(random.key(0), jnp.ones((1, 2)))
    bound = model.bind(variables)
    assert isinstance(bound.dense1, nn.Dense) and bound.dense1.features == 4
    assert shapes(bound.dense2.variables) == {"params": {"bias": (3,), "kernel": (4, 3)}}


class SetupWithParam(nn.Module):
    def setup(self):
        self.w = self.param("w", zeros, (2,))
        self.dense = nn.Dense(2)

    def __call__(self, x):
        return self.dense(x) + self.w


def test_setup_attributes_of_a_bound_module_and_a_bound_modules_missing_attribute():
    with pytest.raises(errors.UnboundCallSetupAttributeError, match="inside 'init' or 'apply'"):
        _ = SetupWithParam().dense
    variables = SetupWithParam().init(random.key(0), jnp.ones((1, 2)))
    bound = SetupWithParam().bind(variables)
    assert bound.dense.features == 2
    np.testing.assert_array_equal(np.asarray(bound.w), [0.0, 0.0])
    with pytest.raises(AttributeError) as info:
        _ = bound.missing
    assert str(info.value) == '"SetupWithParam" object has no attribute "missing".'  # Flax's


def test_bind_unbind_clone_path_and_variables():
    variables = SetupTwin().init(random.key(0), jnp.ones((1, 5)))
    bound = SetupTwin().bind(variables)
    assert bound.dense2.path == ("dense2",)
    assert set(bound.dense1.variables["params"]) == {"kernel", "bias"}
    y = bound.dense1(jnp.ones((1, 5)))
    assert y.shape == (1, 4)
    module, unbound_vars = bound.unbind()
    assert module.scope is None and isinstance(module, SetupTwin)
    assert shapes(unbound_vars) == shapes(variables)
    wider = nn.Dense(3).clone(features=7)
    assert wider.features == 7 and wider.parent is None


class Encoder(nn.Module):
    def setup(self):
        self.enc = nn.Dense(2)
        self.dec = nn.Dense(3)

    def __call__(self, x):
        return self.decode(self.encode(x))

    def encode(self, x):
        return self.enc(x)

    def decode(self, z):
        return self.dec(z)


@pytest.mark.parametrize("method", ["encode", Encoder.encode])
def test_apply_method_by_name_or_function(method):
    x = jnp.ones((1, 3))
    variables = Encoder().init(random.key(0), x)
    z = Encoder().apply(variables, x, method=method)
    kernel = np.asarray(variables["params"]["enc"]["kernel"])
    np.testing.assert_allclose(np.asarray(z), np.ones((1, 3)) @ kernel, rtol=1e-6)


@pytest.mark.parametrize("name", ["enc", "nope"])
def test_apply_method_name_setup_defines_raises_flax_attribute_error(name):
    # Flax 0.12.8 looks the name up on the unbound module, where setup has not run:
    # AttributeError '"Encoder" object has no attribute "enc". If "enc" is defined in ...'
    variables = Encoder().init(random.key(0), jnp.ones((1, 3)))
    with pytest.raises(AttributeError) as info:
        Encoder().apply(variables, jnp.ones((1, 3)), method=name)
    assert str(info.value) == (
        f'"Encoder" object has no attribute "{name}". If "{name}" is defined in '
        "'.setup()', remember these fields are only accessible from inside 'init' or 'apply'."
    )


class _Fields(nn.Module):
    not_callable: int = 1

    def __call__(self):
        return None

    def double(self):
        return 2 * self.not_callable


@pytest.mark.parametrize(
    "method, error, first_line",
    [  # Flax 0.12.8's results and errors
        (lambda module: module.not_callable, None, 1),
        ("double", None, 2),
        (_Fields.double, None, 2),
        (lambda: True, errors.ApplyModuleInvalidMethodError, "Cannot call apply(): <function"),
        (
            "not_callable",
            TypeError,
            "'_Fields.not_callable' must be a callable, got <class 'int'>.",
        ),
    ],
)
def test_apply_method_kinds_like_flax(method, error, first_line):
    if error is None:
        assert _Fields().apply({}, method=method) == first_line
        return
    with pytest.raises(error) as info:
        _Fields().apply({}, method=method)
    assert str(info.value).splitlines()[0].startswith(first_line)


def test_init_with_method_creates_only_that_branch():
    variables = Encoder().init(random.key(0), jnp.ones((1, 3)), method="encode")
    assert set(variables["params"]) == {"enc"}


class Counter(nn.Module):
    @nn.compact
    def __call__(self, x):
        count = self.variable("counter", "count", lambda: jnp.zeros((), jnp.int32))
        if not self.is_initializing():
            count.value = count.value + 1
        self.sow("intermediates", "x2", x * 2)
        return x


@pytest.mark.parametrize(
    "mutable, collections",
    [
        (True, {"counter", "intermediates"}),
        ("counter", {"counter"}),
        (["counter"], {"counter"}),
        (["intermediates"], {"intermediates"}),
        (nn.DenyList("intermediates"), {"counter"}),
    ],
)
def test_apply_mutable_filters(mutable, collections):
    variables = Counter().init(random.key(0), jnp.ones(2))
    assert set(variables) == {"counter"}  # init skips 'intermediates' by default
    if "counter" not in collections:
        with pytest.raises(errors.ImmutableCollectionError):
            Counter().apply(variables, jnp.ones(2), mutable=mutable)
        return
    _, updates = Counter().apply(variables, jnp.ones(2), mutable=mutable)
    assert set(updates) == collections
    assert int(updates["counter"]["count"]) == 1
    if "intermediates" in collections:
        np.testing.assert_array_equal(np.asarray(updates["intermediates"]["x2"][0]), [2.0, 2.0])


class Sower(nn.Module):
    @nn.compact
    def __call__(self, x):
        stored = self.sow("intermediates", "h", x)
        self.sow("intermediates", "h", x * 2)
        return stored


def test_sow_appends_tuples_and_is_a_noop_when_immutable():
    stored, state = Sower().apply({}, jnp.ones(2), mutable=True)
    assert stored is True
    assert shapes(state) == {"intermediates": {"h": ((2,), (2,))}}
    assert Sower().apply({}, jnp.ones(2)) is False


class TwoDense(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(nn.Dense(3)(x))


def test_capture_intermediates_like_flax():
    variables = TwoDense().init(random.key(0), jnp.ones((1, 2)))
    _, state = TwoDense().apply(
        variables, jnp.ones((1, 2)), capture_intermediates=True, mutable=["intermediates"]
    )
    assert shapes(state) == {
        "intermediates": {
            "Dense_0": {"__call__": ((1, 2),)},
            "Dense_1": {"__call__": ((1, 3),)},
            "__call__": ((1, 2),),
        }
    }


class RngUser(nn.Module):
    @nn.compact
    def __call__(self):
        return self.has_rng("dropout"), self.make_rng("dropout"), self.make_rng("dropout")


def test_rngs_per_path_and_call():
    has, k1, k2 = RngUser().apply({}, rngs={"dropout": random.key(0)})
    assert has
    assert not np.array_equal(np.asarray(random.key_data(k1)), np.asarray(random.key_data(k2)))
    _, k1_again, _ = RngUser().apply({}, rngs={"dropout": random.key(0)})
    np.testing.assert_array_equal(
        np.asarray(random.key_data(k1)), np.asarray(random.key_data(k1_again))
    )
    with pytest.raises(errors.MissingRngError, match="rngs=\\{'dropout': key\\}"):
        RngUser().apply({})


class Vars(nn.Module):
    @nn.compact
    def __call__(self):
        self.put_variable("state", "v", jnp.ones(2))
        return self.get_variable("state", "v"), self.has_variable("state", "v"), self.path


def test_get_put_has_variable_and_root_path():
    (value, has, path), state = Vars().apply({}, mutable=["state"])
    np.testing.assert_array_equal(np.asarray(value), [1.0, 1.0])
    assert has and path == () and set(state) == {"state"}


# -- teaching errors ---------------------------------------------------------------------------


def test_params_without_wrapper():
    params = TutorialMLP().init(random.key(0), jnp.ones((1, 3)))["params"]
    with pytest.raises(errors.ParamsWithoutWrapperError, match=r"\{'params': params\}"):
        TutorialMLP().apply(params, jnp.ones((1, 3)))


def test_a_missing_params_collection_is_flaxs_error_alone():
    # Flax 0.12.8 raises ScopeCollectionNotFound (a FlaxError, no built-in base) for both;
    # variables of other collections are not taken for an unwrapped parameter tree
    params = TutorialMLP().init(random.key(0), jnp.ones((1, 3)))["params"]
    with pytest.raises(errors.ScopeCollectionNotFound) as info:
        TutorialMLP().apply(params, jnp.ones((1, 3)))
    assert not isinstance(info.value, ValueError)
    bn = nn.BatchNorm(use_running_average=False)
    with pytest.raises(errors.ScopeCollectionNotFound) as info:
        bn.init(random.key(0), jnp.ones((2, 3)), mutable=["batch_stats"])
    assert not isinstance(info.value, (ValueError, errors.ParamsWithoutWrapperError))
    assert str(info.value).splitlines()[0] == (
        'Tried to access "scale" from collection "params" in "/" but the collection is empty. '
        "(https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html"
        "#flax.errors.ScopeCollectionNotFound)"
    )


def test_params_wrapped_twice():
    variables = TutorialMLP().init(random.key(0), jnp.ones((1, 3)))
    with pytest.raises(errors.ParamsDoubleWrappedError):
        TutorialMLP().apply({"params": variables}, jnp.ones((1, 3)))


class BNModel(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool):
        return nn.BatchNorm(use_running_average=not train)(x)


def test_batch_stats_immutable_and_missing_errors_name_the_fix():
    variables = BNModel().init(random.key(0), jnp.ones((4, 2)), train=False)
    with pytest.raises(
        errors.ImmutableCollectionError, match=r"/BatchNorm_0.*mutable=\['batch_stats'\]"
    ):
        BNModel().apply(variables, jnp.ones((4, 2)), train=True)
    with pytest.raises(errors.CollectionNotFoundError, match="batch_stats"):
        BNModel().apply({"params": variables["params"]}, jnp.ones((4, 2)), train=False)


class Dup(nn.Module):
    @nn.compact
    def __call__(self, x):
        nn.Dense(2, name="same")(x)
        return nn.Dense(2, name="same")(x)


class ParamVsChild(nn.Module):
    @nn.compact
    def __call__(self, x):
        self.param("child", zeros, (1,))
        return nn.Dense(2, name="child")(x)


@pytest.mark.parametrize("model", [Dup(), ParamVsChild()])
def test_name_collisions(model):
    with pytest.raises(errors.NameInUseError, match="'same'|'child'"):
        model.init(random.key(0), jnp.ones((1, 2)))


def test_param_shape_mismatch_names_path_and_shapes():
    variables = TutorialMLP().init(random.key(0), jnp.ones((1, 3)))
    with pytest.raises(errors.ParamShapeError, match=r"/Dense1.*\(3, 8\).*\(5, 8\)"):
        TutorialMLP().apply(variables, jnp.ones((1, 5)))


class NotCompact(nn.Module):
    def __call__(self, x):
        return nn.Dense(2)(x)


class ParamNotCompact(nn.Module):
    def __call__(self, x):
        return x * self.param("w", zeros, (1,))


@pytest.mark.parametrize(
    "model, error, flax_class, first_line",
    [
        (NotCompact(), errors.DefinedOutsideSetupError, errors.AssignSubModuleError, None),
        # Flax 0.12.8 raises a plain ValueError with this line for a parameter.
        (
            ParamNotCompact(),
            errors.VariableOutsideSetupError,
            ValueError,
            "Parameters must be initialized in `setup()` or in a method wrapped in `@compact`",
        ),
    ],
)
def test_declaration_outside_setup_or_compact(model, error, flax_class, first_line):
    with pytest.raises(error, match="@nn.compact") as caught:
        model.init(random.key(0), jnp.ones((1, 2)))
    assert isinstance(caught.value, flax_class)
    if first_line is not None:
        assert str(caught.value).splitlines()[0] == first_line


class _SetupWrapper(nn.Module):
    def setup(self):
        self.inner = nn.Dense(3)

    def __call__(self, x):
        return self.inner(x)


def test_unbound_module_call_and_frozen_fields():
    with pytest.raises(errors.UnboundModuleError, match="model.init"):
        nn.Dense(2)(jnp.ones((1, 2)))
    # A top-level module is open until bound, as in Flax 0.12.8: a field and other attributes
    # may be set (CleanRL's `q_network.apply = jax.jit(q_network.apply)`), and init sees them.
    dense = nn.Dense(2)
    dense.features = 3
    dense.apply = core.jit(dense.apply)
    variables = dense.init(random.key(0), jnp.ones((1, 2)))
    assert variables["params"]["kernel"].shape == (2, 3)
    assert dense.apply(variables, jnp.ones((1, 2))).shape == (1, 3)
    # Bound, and its submodules bound or unbound by `unbind`, it is frozen (Flax's error).
    with pytest.raises(errors.FrozenModuleError, match="clone"):
        dense.bind(variables).features = 4
    with pytest.raises(errors.FrozenModuleError, match="clone"):
        _SetupWrapper().bind({"params": {"inner": variables["params"]}}).inner.features = 4
    inner, _ = _SetupWrapper().bind({"params": {"inner": variables["params"]}}).inner.unbind()
    inner.features = 5
    assert inner.features == 5


def test_calling_an_unbound_setup_model_is_an_attribute_error():
    # Flax's "Flax basics" guide calls an unbound setup model inside
    # `try: model(x) except AttributeError as e: print(e)`: Flax raises AttributeError there
    class ExplicitMLP(nn.Module):
        def setup(self):
            self.layers = [nn.Dense(3), nn.Dense(2)]

        def __call__(self, x):
            for layer in self.layers:
                x = layer(x)
            return x

    with pytest.raises(AttributeError) as info:
        ExplicitMLP()(jnp.ones((1, 2)))
    assert isinstance(info.value, errors.UnboundCallSetupAttributeError)
    assert str(info.value) == (  # Flax's message: an unbound module runs no setup
        '"ExplicitMLP" object has no attribute "layers". If "layers" is defined in '
        "'.setup()', remember these fields are only accessible from inside 'init' or 'apply'."
    )
    model = ExplicitMLP()
    variables = model.init(random.key(0), jnp.ones((1, 2)))  # init/apply still run setup
    assert model.apply(variables, jnp.ones((1, 2))).shape == (1, 2)


def test_setup_may_not_assign_fields():
    class Bad(nn.Module):
        features: int = 2

        def setup(self):
            self.features = 3

        def __call__(self, x):
            return x

    with pytest.raises(errors.SetupFieldAssignmentError):
        Bad().init(random.key(0), jnp.ones(1))


class CompactNested(nn.Module):
    @nn.compact
    def head(self, x):
        return nn.Dense(2)(x)

    @nn.compact
    def __call__(self, x):
        y = nn.Dense(3)(x)
        return self.head(y) + self.head(y)


class CompactSeparate(nn.Module):
    @nn.compact
    def encode(self, x):
        return nn.Dense(2, name="e")(x)

    @nn.compact
    def decode(self, x):
        return nn.Dense(4)(x)

    def __call__(self, x):
        return self.decode(self.encode(x))


class CompactReused(CompactSeparate):
    @nn.compact
    def decode(self, x):
        return nn.Dense(2)(x)

    @nn.compact
    def encode(self, x):
        return nn.Dense(2)(x)


# Flax 0.12.8 (recorded): several @compact methods share the module's auto-names; a compact
# method called from another continues its count, one called on its own restarts it (so two
# unnamed Dense of separate compact calls are one module, as two calls of __call__ are).
SEVERAL_COMPACT = [
    (CompactNested, {"Dense_0": (4, 3), "Dense_1": (3, 2), "Dense_2": (3, 2)}, -0.198953986),
    (CompactSeparate, {"Dense_0": (2, 4), "e": (4, 2)}, -3.9677493572235107),
    (CompactReused, {"Dense_0": (2, 2)}, 1.4677984714508057),
]  # fmt: skip


@pytest.mark.parametrize("cls, kernels, total", SEVERAL_COMPACT)
def test_several_compact_methods_name_submodules_as_flax(cls, kernels, total):
    x = jnp.ones((1, 4 if cls is not CompactReused else 2))
    variables = cls().init(random.key(0), x)
    assert {k: tuple(v["kernel"].shape) for k, v in variables["params"].items()} == kernels
    np.testing.assert_allclose(float(cls().apply(variables, x).sum()), total, rtol=1e-6)


class PostInit(nn.Module):
    features: int
    doubled: int = 0

    def __post_init__(self):  # no super().__post_init__() needed
        object.__setattr__(self, "doubled", 2 * self.features)

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.doubled)(x)


class PostInitWithSuper(PostInit):
    def __post_init__(self):
        super().__post_init__()


@pytest.mark.parametrize("cls", [PostInit, PostInitWithSuper])
def test_user_post_init_needs_no_super(cls):
    variables = cls(3).init(random.key(0), jnp.ones((1, 2)))
    assert shapes(variables)["params"]["Dense_0"]["kernel"] == (2, 6)


def test_merge_param():
    assert nn.merge_param("train", None, True) is True
    assert nn.merge_param("train", False, None) is False
    with pytest.raises(errors.ArgumentTwiceError):
        nn.merge_param("train", True, False)
    with pytest.raises(errors.ArgumentMissingError):
        nn.merge_param("train", None, None)


# -- transformations -----------------------------------------------------------------------------


@pytest.fixture
def mlp_and_variables():
    x = jnp.ones((4, 3))
    return TutorialMLP(), TutorialMLP().init(random.key(0), x), x


def test_apply_under_jit(mlp_and_variables):
    model, variables, x = mlp_and_variables
    got = core.jit(model.apply)(variables, x)
    np.testing.assert_allclose(np.asarray(got), np.asarray(model.apply(variables, x)), rtol=1e-6)


def test_init_under_jit(mlp_and_variables):
    model, variables, x = mlp_and_variables
    jit_init = core.jit(model.init)(random.key(0), x)
    for a, b in zip(tree_util.tree_leaves(jit_init), tree_util.tree_leaves(variables)):
        # Compiled transcendentals (erfinv in truncated_normal) may differ by an ulp or two.
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-7)


def test_apply_under_grad(mlp_and_variables):
    model, variables, x = mlp_and_variables

    def loss(params):
        return jnp.sum(model.apply({"params": params}, x) ** 2)

    grads = core.grad(loss)(variables["params"])
    assert shapes(grads) == shapes(variables["params"])
    p = tree_util.tree_map(np.asarray, variables["params"])
    h = np.maximum(np.asarray(x) @ p["Dense1"]["kernel"] + p["Dense1"]["bias"], 0)
    y = h @ p["Dense_0"]["kernel"] + p["Dense_0"]["bias"]
    np.testing.assert_allclose(np.asarray(grads["Dense_0"]["bias"]), 2 * y.sum(0), rtol=1e-5)


def test_apply_under_vmap(mlp_and_variables):
    model, variables, x = mlp_and_variables
    batched = core.vmap(lambda xi: model.apply(variables, xi))(x[:, None, :])
    np.testing.assert_allclose(
        np.asarray(batched)[:, 0], np.asarray(model.apply(variables, x)), rtol=1e-6
    )


class NowrapHelper(nn.Module):
    @nn.nowrap
    def make_dense(self, features):
        return nn.Dense(features)

    @nn.compact
    def __call__(self, x):
        return self.make_dense(2)(x)


def test_nowrap_helper_builds_submodules_of_the_caller():
    variables = NowrapHelper().init(random.key(0), jnp.ones((1, 3)))
    assert shapes(variables) == {"params": {"Dense_0": {"bias": (2,), "kernel": (3, 2)}}}


def test_initializers_and_activations_reexported():
    key = random.key(0)
    np.testing.assert_array_equal(np.asarray(nn.initializers.zeros_init()(key, (2,))), [0, 0])
    np.testing.assert_array_equal(np.asarray(nn.initializers.ones_init()(key, (2,))), [1, 1])
    np.testing.assert_allclose(np.asarray(nn.relu(jnp.asarray([-1.0, 2.0]))), [0.0, 2.0])
    v = nn.PReLU().init(key, jnp.ones(2))
    y = nn.PReLU().apply(v, jnp.asarray([-1.0, 2.0]))
    np.testing.assert_allclose(np.asarray(y), [-0.01, 2.0], rtol=1e-6)


# -- share_scope / compact_name_scope / intercept_methods ----------------------------------------


class DenseLoRA(nn.Module):
    """Flax's share_scope example: the wrapper's params join the wrapped Dense's scope."""

    base: nn.Dense
    rank: int

    def setup(self):
        nn.share_scope(self, self.base)

    @nn.compact
    def __call__(self, x):
        a = self.param("A", nn.initializers.normal(1.0), (x.shape[-1], self.rank))
        b = self.param("B", nn.initializers.normal(1.0), (self.rank, self.base.features))
        return self.base(x) + x @ a @ b


class DenseLoRA2(nn.Module):
    """Flax's second share_scope example: a setup child moves into the parent's scope."""

    features: int
    rank: int

    def setup(self):
        self.child = nn.Dense(self.features)
        nn.share_scope(self, self.child)

    @nn.compact
    def __call__(self, x):
        a = self.param("A", nn.initializers.normal(1.0), (x.shape[-1], self.rank))
        b = self.param("B", nn.initializers.normal(1.0), (self.rank, self.features))
        return self.child(x) + x @ a @ b


class WrapsDense(nn.Module):
    @nn.compact
    def __call__(self, x):
        return DenseLoRA(nn.Dense(3), rank=2)(x)


class OwnsDense(nn.Module):
    @nn.compact
    def __call__(self, x):
        return DenseLoRA2(3, rank=2)(x)


# flax 0.12: params[scope][k].ravel()[:3] and the output, with key 0 and x = arange(4) / 4.
SHARE_SCOPE_FLAX = [
    (
        WrapsDense,
        "Dense_0",
        {
            "A": [-1.6185919046401978, 0.7009080052375793, -1.3146382570266724],
            "B": [0.24472279846668243, 1.0678043365478516, -0.060423560440540314],
            "kernel": [0.34957608580589294, -1.0975310802459717, -0.7623123526573181],
        },
        [0.750752866268158, 1.9585093259811401, -0.408348023891449],
    ),
    (
        OwnsDense,
        "DenseLoRA2_0",
        {
            "A": [0.25944727659225464, 0.03487866371870041, -0.8181166052818298],
            "B": [-0.08622105419635773, -0.8290961980819702, -0.4324270784854889],
            "kernel": [-0.15911991894245148, -1.0104008913040161, -0.017489803954958916],
        },
        [0.5143755674362183, 1.6247727870941162, 1.0548304319381714],
    ),
]


@pytest.mark.parametrize("model, scope, heads, flax_y", SHARE_SCOPE_FLAX, ids=["other", "child"])
def test_share_scope_equals_flax(model, scope, heads, flax_y):
    x = jnp.arange(4.0).reshape(1, 4) / 4
    y, variables = model().init_with_output(random.key(0), x)
    params = variables["params"]
    assert list(params) == [scope]
    assert list(params[scope]) == ["A", "B", "kernel", "bias"]
    assert shapes(params[scope]) == {"A": (4, 2), "B": (2, 3), "kernel": (4, 3), "bias": (3,)}
    for name, head in heads.items():
        np.testing.assert_allclose(np.asarray(params[scope][name]).ravel()[:3], head, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(y), [flax_y], rtol=1e-5)
    np.testing.assert_allclose(np.asarray(model().apply(variables, x)), [flax_y], rtol=1e-5)


def test_share_scope_needs_bound_modules():
    with pytest.raises(errors.UnboundModuleError, match="share its scope"):
        nn.share_scope(nn.Dense(2), nn.Dense(3))


class UpDown(nn.Module):
    @nn.compact_name_scope
    def up(self, x):
        return nn.Dense(3)(x)

    @nn.compact_name_scope
    def down(self, x):
        return nn.Dense(3)(x)

    def __call__(self, x):
        return self.up(x) + self.down(x)


def test_compact_name_scope_equals_flax():
    x = jnp.ones((1, 2))
    y, variables = UpDown().init_with_output(random.key(0), x)
    dense = {"Dense_0": {"bias": (3,), "kernel": (2, 3)}}
    assert shapes(variables) == {"params": {"down": dense, "up": dense}}
    flax_up_kernel = [
        [0.7034064531326294, 1.0851820707321167, 0.5573782324790955],
        [0.7195565104484558, -0.708353579044342, -1.050566554069519],
    ]
    np.testing.assert_allclose(
        np.asarray(variables["params"]["up"]["Dense_0"]["kernel"]), flax_up_kernel, rtol=1e-5
    )
    np.testing.assert_allclose(
        np.asarray(y), [[0.6083607077598572, 0.7262318134307861, -1.2238967418670654]], rtol=1e-5
    )
    down = UpDown().apply(variables, x, method="down")
    flax_down = [[-0.8146021962165833, 0.3494033217430115, -0.7307083606719971]]
    np.testing.assert_allclose(np.asarray(down), flax_down, rtol=1e-5)


class Doubled(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(x) * 2


class SetupDense(nn.Module):
    def setup(self):
        self.d = nn.Dense(2)

    def __call__(self, x):
        return self.d(x)


def test_intercept_methods_order_context_and_results():
    log = []

    def record(next_fun, args, kwargs, context):
        log.append(("record", type(context.module).__name__, context.method_name, len(args)))
        return next_fun(*args, **kwargs)

    def scale_dense(next_fun, args, kwargs, context):
        log.append(("scale", type(context.module).__name__, context.method_name))
        out = next_fun(*args, **kwargs)
        return out * 10 if isinstance(context.module, nn.Dense) else out

    x = jnp.ones((1, 3))
    variables = Doubled().init(random.key(0), x)
    with nn.intercept_methods(record), nn.intercept_methods(scale_dense):
        y = Doubled().apply(variables, x)
    # Flax: the first interceptor registered runs outermost, for every wrapped method call.
    assert log == [
        ("record", "Doubled", "__call__", 1),
        ("scale", "Doubled", "__call__"),
        ("record", "Dense", "__call__", 1),
        ("scale", "Dense", "__call__"),
    ]
    np.testing.assert_allclose(np.asarray(y), 10 * np.asarray(Doubled().apply(variables, x)))

    log.clear()
    with nn.intercept_methods(record):
        SetupDense().init(random.key(0), x)
    assert log == [
        ("record", "SetupDense", "setup", 0),
        ("record", "SetupDense", "__call__", 1),
        ("record", "Dense", "__call__", 1),
    ]


def test_intercept_methods_orig_method_skips_the_rest():
    log = []

    def bypass(next_fun, args, kwargs, context):
        log.append("bypass")
        assert isinstance(context, nn.InterceptorContext)
        return context.orig_method(*args, **kwargs)

    def never(next_fun, args, kwargs, context):
        log.append("never")
        return next_fun(*args, **kwargs)

    x = jnp.ones((1, 3))
    variables = Doubled().init(random.key(0), x)
    with nn.intercept_methods(bypass), nn.intercept_methods(never):
        y = Doubled().apply(variables, x)
    assert log == ["bypass", "bypass"]
    np.testing.assert_allclose(np.asarray(y), np.asarray(Doubled().apply(variables, x)))


class _Perturbed(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = self.perturb("h", nn.Dense(4)(x))
        return nn.Dense(1)(h).sum()


def test_perturb_gives_intermediate_gradients():
    # values from Flax 0.12.8 / JAX 0.10.2 (Module.perturb's docstring recipe)
    x = jnp.ones((2, 3))
    model = _Perturbed()
    v = model.init(random.PRNGKey(0), x)
    assert v["perturbations"]["h"].shape == (2, 4) and not np.asarray(v["perturbations"]["h"]).any()
    g = core.grad(lambda v: model.apply(v, x))(v)["perturbations"]["h"]
    np.testing.assert_allclose(g, [[0.00166372, 0.1601259, 0.09040862, -0.42029327]] * 2, rtol=1e-5)
    np.testing.assert_allclose(model.apply({"params": v["params"]}, x), 0.3166823, rtol=1e-5)
    with pytest.raises(ValueError, match="missing perturbation variable h"):
        model.apply({"params": v["params"], "perturbations": {}}, x)


def test_lazy_init_takes_shape_dtype_structs():
    v = nn.Dense(2).lazy_init(random.PRNGKey(0), core.ShapeDtypeStruct((1, 3), jnp.float32))
    np.testing.assert_allclose(v["params"]["kernel"][0], [0.04769871, -0.9522832], rtol=1e-5)
    assert v["params"]["bias"].shape == (2,)


def test_module_repr_is_flaxs():
    class MLP(nn.Module):
        features: int = 3

        @nn.compact
        def __call__(self, x):
            return nn.Dense(self.features)(nn.Dense(4, name="h")(x))

    class Empty(nn.Module):
        def __call__(self, x):
            return x

    assert repr(Empty()) == "Empty()"
    assert repr(MLP()) == "MLP(\n    # attributes\n    features = 3\n)"
    lines = repr(nn.Dense(3)).splitlines()
    assert lines[:3] == ["Dense(", "    # attributes", "    features = 3"]
    assert "    kernel_init = init" in lines and "    bias_init = zeros" in lines
    bound = MLP().bind(MLP().init(random.key(0), jnp.ones((1, 2))))
    bound(jnp.ones((1, 2)))
    text = repr(bound)
    assert "    # children\n    Dense_0 = Dense(\n        # attributes\n" in text
    assert "    h = Dense(\n        # attributes\n        features = 4\n" in text
    assert text.endswith("        dot_general_cls = None\n    )\n)")


def test_a_module_defined_where_its_module_is_not_imported():
    # exec'd code (notebook cells, generated code) whose __name__ is in no sys.modules entry;
    # Flax 0.12.8 gives {'params': {'w': [1, 1]}} and [3, 3] for x = 2
    source = """
class Scaled(nn.Module):
    n: int = 1
    @nn.compact
    def __call__(self, x):
        return self.param('w', nn.initializers.ones, (2,)) + x
"""
    ns = {"nn": nn, "__name__": "not_a_module_in_sys_modules"}
    exec(source, ns)
    y, v = ns["Scaled"]().init_with_output(random.key(0), 2.0)
    assert np.asarray(v["params"]["w"]).tolist() == [1.0, 1.0]
    assert np.asarray(y).tolist() == [3.0, 3.0]


class TwoParamsNamedW(nn.Module):
    @nn.compact
    def __call__(self, x):
        self.param("w", nn.initializers.zeros, (2,))
        return self.param("w", nn.initializers.zeros, (2,))


class AssignsInCall(nn.Module):
    @nn.compact
    def __call__(self, x):
        self.d = None
        return x


class DenseOutsideCompact(nn.Module):
    def __call__(self, x):
        return nn.Dense(2)(x)


class PutsParam(nn.Module):
    @nn.compact
    def __call__(self, x):
        self.put_variable("params", "a", 2.0)
        return x


class DropsOut(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dropout(0.5, deterministic=False)(x)


class ParamOfShape3(nn.Module):
    @nn.compact
    def __call__(self, x):
        return self.param("w", nn.initializers.ones, (3,))


_DOCS = "https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html#flax.errors."
# (call, error class, Flax 0.12.8's first line): numbax's fix follows on the next lines
FLAX_FIRST_LINES = [
    (
        lambda: TwoParamsNamedW().init(random.key(0), 1.0),
        errors.NameInUseError,
        'Could not create param "w" in Module TwoParamsNamedW: Name in use. '
        f"({_DOCS}NameInUseError)",
    ),
    (
        lambda: AssignsInCall().apply({}, 1.0),
        errors.SetAttributeFrozenModuleError,
        "Can't set d=None for Module of type AssignsInCall: Module instance is frozen outside of "
        f"setup method. ({_DOCS}SetAttributeFrozenModuleError)",
    ),
    (
        lambda: DenseOutsideCompact().init(random.key(0), jnp.ones(3)),
        errors.AssignSubModuleError,
        "Submodule Dense must be defined in `setup()` or in a method wrapped in `@compact` "
        f"({_DOCS}AssignSubModuleError)",
    ),
    (
        lambda: PutsParam().apply({"params": {"a": 1.0}}, 0),
        errors.ModifyScopeVariableError,
        'Cannot update variable "a" in "/" because collection "params" is immutable. '
        f"({_DOCS}ModifyScopeVariableError)",
    ),
    (
        lambda: ParamOfShape3().apply({"params": {"w": jnp.ones(2)}}, 1.0),
        errors.ScopeParamShapeError,
        'For parameter "w" in "/", the given initializer is expected to generate shape (3,), '
        f"but the existing parameter it received has shape (2,). ({_DOCS}ScopeParamShapeError)",
    ),
    (
        lambda: nn.Dense(2)(jnp.ones(3)),
        errors.CallCompactUnboundModuleError,
        f"Can't call compact methods on unbound modules ({_DOCS}CallCompactUnboundModuleError)",
    ),
    (
        lambda: nn.Dense(2).unbind(),
        errors.CallUnbindOnUnboundModuleError,
        f"Can't call `unbind()` on unbound modules ({_DOCS}CallUnbindOnUnboundModuleError)",
    ),
    (lambda: nn.Dense(2).make_rng("params"), ValueError, "Can't use RNGs on unbound modules"),
    (lambda: nn.Dense(2).variables, ValueError, "Can't access variables on unbound modules"),
    (lambda: nn.Dense(2).path, ValueError, "Can't access module paths on unbound modules."),
    (
        lambda: DropsOut().apply({}, jnp.ones(3)),
        errors.InvalidRngError,
        f'Dropout_0 needs PRNG for "dropout" ({_DOCS}InvalidRngError)',
    ),
    (
        lambda: nn.Dense(2).apply({}, jnp.ones(3)),
        errors.ScopeCollectionNotFound,
        'Tried to access "kernel" from collection "params" in "/" but the collection is empty. '
        f"({_DOCS}ScopeCollectionNotFound)",
    ),
    (
        lambda: nn.Dense(2).apply({"params": {"kernel": jnp.ones((3, 2))}}, jnp.ones(3)),
        errors.ScopeParamNotFoundError,
        f'Could not find parameter named "bias" in scope "/". ({_DOCS}ScopeParamNotFoundError)',
    ),
    (
        lambda: nn.BatchNorm(use_running_average=True).apply(
            {"params": {"scale": jnp.ones(3), "bias": jnp.ones(3)}, "batch_stats": {"mean": 1}},
            jnp.ones(3),
        ),
        errors.ScopeVariableNotFoundError,
        'No Variable named "var" for collection "batch_stats" exists in "/". '
        f"({_DOCS}ScopeVariableNotFoundError)",
    ),
    (
        lambda: nn.vmap(nn.Dense, variable_axes={"params": 0}, split_rngs={"params": True})(2).init(
            random.key(0), jnp.ones((3, 4)), jnp.ones((2, 4))
        ),
        ValueError,
        "vmap got inconsistent sizes for array axes to be mapped:",
    ),
    # Flax 0.12.8's first lines of six more (they were numbax's own sentences)
    (
        lambda: nn.Dense(2).apply({"params": {"params": {}}}, jnp.ones(3)),
        errors.ApplyScopeInvalidVariablesStructureError,
        "Expect the `variables` (first argument) passed to apply() to be a dict with the "
        'structure {"params": ...}, but got a dict with an extra params layer, i.e.  '
        '{"params": {"params": ... } }. You should instead pass in your dict\'s ["params"]. '
        f"({_DOCS}ApplyScopeInvalidVariablesStructureError)",
    ),
    (
        lambda: SetsItsField().init(random.key(0), jnp.ones(3)),
        errors.SetAttributeInModuleSetupError,
        f"Module construction attributes are frozen. ({_DOCS}SetAttributeInModuleSetupError)",
    ),
    (
        lambda: type("R", (nn.Module,), {"__annotations__": {"parent": int}}),
        errors.ReservedModuleAttributeError,
        "properties `parent` and `name` are reserved: {'parent': <class 'int'>} "
        f"({_DOCS}ReservedModuleAttributeError)",
    ),
    (
        lambda: nn.Dense.apply({}, jnp.ones(3)),
        errors.InvalidInstanceModuleError,
        "Can only call init, init_with_output or apply methods on an instance of the Module "
        f"class, not the Module class itself ({_DOCS}InvalidInstanceModuleError)",
    ),
    (
        lambda: nn.Dense(2).init(random.key(0), jnp.ones(3), mutable=3.5),
        errors.InvalidFilterError,
        f'Invalid Filter: "3.5" ({_DOCS}InvalidFilterError)',
    ),
    (
        lambda: ReadsAMissingAttribute().init(random.key(0), jnp.ones(3)),
        errors.DescriptorAttributeError,
        "Trying to access a property that is accessing a non-existent attribute. "
        f"({_DOCS}DescriptorAttributeError)",
    ),
    (  # any descriptor, not only a property (Flax wraps them all)
        lambda: DescriptorReadsAMissingAttribute().init(random.key(0), jnp.ones(3)),
        errors.DescriptorAttributeError,
        "Trying to access a property that is accessing a non-existent attribute. "
        f"({_DOCS}DescriptorAttributeError)",
    ),
]


class SetsItsField(nn.Module):
    width: int = 1

    def setup(self):
        self.width = 2

    def __call__(self, x):
        return x


class ReadsAMissingAttribute(nn.Module):
    @property
    def width(self):
        return self.missing

    @nn.compact
    def __call__(self, x):
        return x * self.width


class _ReadsMissing:
    def __get__(self, obj, objtype=None):
        return obj.missing


class DescriptorReadsAMissingAttribute(nn.Module):
    width = _ReadsMissing()

    def __call__(self, x):
        return x * self.width


def test_module_without_call_raises_flaxs_attribute_error():
    class NoCall(nn.Module):
        pass

    with pytest.raises(AttributeError) as info:  # Flax 0.12.8's message
        NoCall().init(random.key(0))
    assert str(info.value) == (
        '"NoCall" object has no attribute "__call__". If "__call__" is defined in '
        "'.setup()', remember these fields are only accessible from inside 'init' or 'apply'."
    )


@pytest.mark.parametrize("call, error, first_line", FLAX_FIRST_LINES)
def test_errors_start_with_flaxs_first_line(call, error, first_line):
    with pytest.raises(error) as info:
        call()
    lines = str(info.value).split("\n")
    assert lines[0] == first_line
    assert len(lines) > 1 and lines[1]  # numbax's fix


class _Wide(nn.Module):
    @nn.compact
    def __call__(self, x):
        return x @ self.param("kernel", nn.initializers.lecun_normal(), (x.shape[-1], 3))


def test_lazy_init_runs_no_compute_on_the_input():
    """A 2**30 x 4 input would need 16 GiB: only the initializer runs (Flax 0.12.8's kernel)."""
    big = core.ShapeDtypeStruct((1 << 30, 4), jnp.float32)
    v = _Wide().lazy_init(random.key(0), big)
    np.testing.assert_allclose(v["params"]["kernel"][0], [0.0413083, -0.8247015, -0.8536315])


def test_lazy_init_refuses_a_variable_made_from_the_input():
    class Copy(nn.Module):
        @nn.compact
        def __call__(self, x):
            return x * self.param("k", lambda _: x)

    with pytest.raises(errors.LazyInitError, match="depends on a ShapeDtypeStruct"):
        Copy().lazy_init(random.key(0), core.ShapeDtypeStruct((8, 4), jnp.float32))


@pytest.mark.parametrize(
    "module, error, first_line",
    [
        (nn.Dense(3).bind({}), errors.BoundModuleHashError, "Can't call __hash__ on modules"),
        (nn.Dense([3]), errors.UnhashableModuleError, "Failed to hash Flax Module.  The module"),
    ],
)
def test_hash_refuses_bound_and_unhashable_modules(module, error, first_line):
    with pytest.raises(TypeError, match=first_line) as info:
        hash(module)
    assert type(info.value) is error
    assert hash(nn.Dense(3)) == hash(nn.Dense(3))


def test_unspecified_parent_survives_copies():
    import copy

    sentinel = nn.module._unspecified_parent
    assert copy.copy(sentinel) is sentinel and copy.deepcopy(sentinel) is sentinel
    assert copy.deepcopy(nn.Dense(3)) == nn.Dense(3)  # its dtype fields copy too


def test_apply_method_names_a_submodule_field():
    class Foo(nn.Module):
        bar: nn.Module

        @nn.compact
        def __call__(self, x):
            return self.bar(x) * 2

    foo = Foo(nn.Dense(3))
    v = foo.init(random.PRNGKey(0), jnp.ones(2))
    np.testing.assert_allclose(
        foo.apply(v, jnp.ones(2), method="bar"), [-0.84413594, -0.50020087, 0.07452309], rtol=1e-6
    )


def test_a_module_shared_in_a_dict_field_is_named_by_the_first_sorted_key():
    class A(nn.Module):
        @nn.compact
        def __call__(self, x):
            c = self.variable("counter", "i", jnp.zeros, ())
            c.value += 1
            return nn.Dense(1)(x)

    class B(nn.Module):
        A: dict

        @nn.compact
        def __call__(self, x):
            return self.A["foo"](x) + self.A["bar"](x) + self.A["baz"](x)

    a = A()
    b = B({"foo": a, "bar": a, "baz": a})
    p = b.init(random.key(0), jnp.ones((2, 2)))
    assert shapes(p["params"]) == {"A_bar": {"Dense_0": {"bias": (1,), "kernel": (2, 1)}}}
    _, counters = b.apply(p, jnp.ones((2, 2)), mutable="counter")
    assert counters == {"counter": {"A_bar": {"i": 6.0}}}


class _Sub(nn.Module):
    @nn.compact
    def __call__(self, x):
        return x + self.param("p", nn.initializers.ones, x.shape)


class _Holder(nn.Module):
    sub: nn.Module

    def __call__(self, x):
        return self.sub(x)


class _KeepingHolder(_Holder):
    preserve_adopted_names = True


@pytest.mark.parametrize(
    "flag, holder, sub, name",
    [
        (False, _Holder, _Sub(name="foo"), "sub"),
        (False, _KeepingHolder, _Sub(name="foo"), "foo"),
        (True, _Holder, _Sub(name="foo"), "foo"),
        (True, _Holder, _Sub(), "sub"),
    ],
)
def test_preserve_adopted_names(flag, holder, sub, name):
    nn.module.set_preserve_adopted_names(flag)
    try:
        params = holder(sub).init(random.key(0), jnp.zeros(1))["params"]
    finally:
        nn.module.set_preserve_adopted_names(False)
    assert list(params) == [name]


@pytest.mark.parametrize("committed", [False, True])
def test_init_and_apply_under_jit_and_vmap_leak_no_tracer(committed, monkeypatch):
    """A module's parent is held weakly (as Flax's), so the bound tree is no reference cycle
    keeping tracers alive: the leak check finds none even with the collector switched off.
    `committed`: as in a process where some array was committed to a device (CI's worker, after
    other files): nested jits' traces then keep their arguments, and a cycle held them."""
    monkeypatch.setattr(placement, "committed_to_device", committed)
    model = nn.Sequential([nn.Dense(3)])

    @core.jit
    def sample(keys, x):
        return core.vmap(lambda k: model.apply(model.init(k, x), x))(keys)

    with mock.patch.object(gc, "collect", return_value=0), core.checking_leaks():
        out = sample(random.split(random.key(23), 4), jnp.ones((2, 5)))
    assert out.shape == (4, 2, 3)
