"""Axis metadata boxes and logical axis rules (nn.meta) against Flax's known answers.

Known answers come from flax 0.12 / jax 0.10 (``flax.linen`` with the same model and key).
"""

import doctest

import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
from core import random, tree_util
from core.sharding import PartitionSpec as P
from nn import errors, meta


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        ki = nn.linear.default_kernel_init
        h = nn.Dense(
            3,
            kernel_init=nn.with_partitioning(ki, ("data", "model")),
            bias_init=nn.with_partitioning(nn.initializers.zeros_init(), ("model",)),
        )(x)
        return nn.Dense(2, kernel_init=nn.with_logical_partitioning(ki, ("embed", "mlp")))(h)


X = jnp.arange(8.0).reshape(2, 4) / 10
FLAX_KERNEL_0 = [
    [-0.8258997797966003, 0.3772757351398468, -0.6888750791549683],
    [-0.42601150274276733, 0.4596952497959137, 0.641810953617096],
    [0.5220274329185486, -0.02324812300503254, 0.2113979458808899],
    [0.38867634534835815, -0.9097142815589905, 0.4271412491798401],
]
FLAX_Y = [[0.06336543709039688, 0.2637333869934082], [0.14703333377838135, 0.37648534774780273]]
FLAX_GRAD_KERNEL_1 = [
    [0.22033150494098663] * 2,
    [-0.5015853643417358] * 2,
    [0.7057961225509644] * 2,
]


@pytest.fixture(scope="module")
def variables():
    return MLP().init(random.key(0), X)


def test_init_returns_boxed_params_like_flax(variables):
    p = variables["params"]
    assert type(p["Dense_0"]["kernel"]) is nn.Partitioned
    assert type(p["Dense_1"]["kernel"]) is nn.LogicallyPartitioned
    assert p["Dense_0"]["kernel"].names == ("data", "model")
    assert p["Dense_0"]["bias"].names == ("model",)
    assert p["Dense_0"]["kernel"].mesh is None and p["Dense_1"]["kernel"].rules is None
    assert not meta.is_axis_metadata(p["Dense_1"]["bias"])
    shapes = tree_util.tree_map(jnp.shape, nn.unbox(variables))["params"]
    assert shapes == {
        "Dense_0": {"bias": (3,), "kernel": (4, 3)},
        "Dense_1": {"bias": (2,), "kernel": (3, 2)},
    }
    np.testing.assert_allclose(np.asarray(p["Dense_0"]["kernel"].value), FLAX_KERNEL_0, rtol=1e-5)


def test_boxes_are_pytree_nodes_with_metadata_as_aux(variables):
    # Flax: PyTreeDef(... CustomNode(Partitioned[(('model',), None)], [*]) ...), 4 leaves.
    leaves = tree_util.tree_leaves(variables)
    assert len(leaves) == 4 and leaves[0].shape == (3,)
    treedef = tree_util.tree_structure(variables)
    assert "Partitioned[(('model',), None)]" in repr(treedef)
    assert "LogicallyPartitioned[(('embed', 'mlp'), None, None)]" in repr(treedef)
    doubled = tree_util.tree_map(lambda v: v * 2, variables)
    assert doubled["params"]["Dense_0"]["kernel"].names == ("data", "model")
    np.testing.assert_allclose(
        np.asarray(doubled["params"]["Dense_0"]["kernel"].value),
        2 * np.asarray(FLAX_KERNEL_0),
        rtol=1e-5,
    )


def test_get_partition_spec_like_flax(variables):
    assert nn.get_partition_spec(variables) == {
        "params": {
            "Dense_0": {"bias": P("model"), "kernel": P("data", "model")},
            "Dense_1": {"bias": P(), "kernel": P("embed", "mlp")},
        }
    }
    assert nn.get_partition_spec({"a": 1.0, "b": None}) == {"a": None, "b": None}


@pytest.mark.parametrize("unboxed", [False, True])
def test_apply_accepts_boxed_and_unboxed_variables(variables, unboxed):
    v = nn.unbox(variables) if unboxed else variables
    np.testing.assert_allclose(np.asarray(MLP().apply(v, X)), FLAX_Y, rtol=1e-5)


@pytest.mark.parametrize("jit", [False, True])
def test_grad_of_boxed_params_is_boxed(variables, jit):
    grad_fn = core.grad(lambda p: MLP().apply({"params": p}, X).sum())
    g = (core.jit(grad_fn) if jit else grad_fn)(variables["params"])
    assert type(g["Dense_0"]["kernel"]) is nn.Partitioned
    assert g["Dense_0"]["kernel"].names == ("data", "model")
    np.testing.assert_allclose(
        np.asarray(g["Dense_1"]["kernel"].value), FLAX_GRAD_KERNEL_1, rtol=1e-5
    )


def test_param_shape_check_sees_through_boxes(variables):
    bad = tree_util.tree_map(lambda v: v, variables)
    bad["params"]["Dense_0"]["kernel"] = nn.Partitioned(jnp.ones((5, 3)), ("data", "model"))
    with pytest.raises(errors.ParamShapeError):
        MLP().apply(bad, X)


class Counter(nn.Module):
    @nn.compact
    def __call__(self, x):
        count = self.variable("stats", "count", nn.with_partitioning(jnp.zeros, ("model",)), (3,))
        raw = self.param(
            "w", nn.with_partitioning(nn.initializers.ones, (None, "model")), (2, 3), unbox=False
        )
        count.value = count.value + x
        return count.value, raw


def test_variables_unbox_on_read_and_rebox_on_write():
    v = Counter().init(random.key(0), jnp.ones(3))
    assert v["stats"]["count"].names == ("model",)
    np.testing.assert_array_equal(np.asarray(v["stats"]["count"].value), [1, 1, 1])
    (out, raw), updates = Counter().apply(v, jnp.arange(3.0), mutable=["stats"])
    # Flax: out = [1, 2, 3]; the update keeps its box; unbox=False hands back the box.
    np.testing.assert_array_equal(np.asarray(out), [1, 2, 3])
    assert type(raw) is nn.Partitioned and raw.names == (None, "model")
    count = updates["stats"]["count"]
    assert type(count) is nn.Partitioned and count.names == ("model",)
    np.testing.assert_array_equal(np.asarray(count.value), [1, 2, 3])


@pytest.mark.parametrize(
    "names, index, want",
    [
        (("a", "b"), 0, ("layers", "a", "b")),
        (("a", "b"), 1, ("a", "layers", "b")),
        (("a", "b"), 3, ("a", "b", None, "layers")),
        ((), 0, ("layers",)),
    ],
)
def test_add_and_remove_axis(names, index, want):
    params = {meta.PARTITION_NAME: "layers"}
    box = nn.Partitioned(jnp.ones(2), names)
    added = box.add_axis(index, params)
    assert added.names == want
    if index <= len(names):
        assert added.remove_axis(index, params).names == names
    tree = meta.add_axis({"w": box, "b": jnp.ones(2)}, index, params)
    assert tree["w"].names == want and not meta.is_axis_metadata(tree["b"])


def test_axis_changes_need_the_partition_name():
    box = nn.Partitioned(jnp.ones(2), ("a", "b"))
    with pytest.raises(errors.PartitioningUnspecifiedError, match="metadata_params"):
        box.add_axis(0, {})
    with pytest.raises(errors.PartitionAxisMismatchError, match="named 'a'"):
        box.remove_axis(0, {meta.PARTITION_NAME: "layers"})
    assert nn.PARTITION_NAME == "partition_name"


def test_unbox_and_replace_boxed_nested():
    inner = nn.Partitioned(jnp.ones(2), ("x",))
    outer = nn.LogicallyPartitioned(inner, ("y",))
    tree = {"a": outer, "b": 3.0}
    assert nn.unbox(tree)["b"] == 3.0
    np.testing.assert_array_equal(np.asarray(nn.unbox(tree)["a"]), [1, 1])
    new = meta.replace_boxed(tree, {"a": jnp.zeros(2), "b": 4.0})
    assert new["a"].names == ("y",) and new["a"].value.names == ("x",)
    np.testing.assert_array_equal(np.asarray(new["a"].value.value), [0, 0])
    assert new["b"] == 4.0


@pytest.mark.parametrize(
    "names, rules, want",
    [
        (
            ("batch", "length", "heads", "features"),
            (("batch", "X"), ("features", "X"), ("heads", "Y"), ("batch", "Z")),
            P("X", None, "Y", None),
        ),
        (
            ("batch", None, "heads"),
            (("batch", ("X", "Y")), ("heads", "Y")),
            P(("X", "Y"), None, None),
        ),
        (("embed", "mlp"), (("embed", None), ("mlp", "model")), P(None, "model")),
        (("embed", "mlp"), (), P(None, None)),
        (None, (("a", "b"),), None),
    ],
)
def test_logical_to_mesh_axes_like_flax(names, rules, want):
    assert nn.logical_to_mesh_axes(names, rules) == want


def test_logical_to_mesh_axes_errors():
    with pytest.raises(errors.RepeatedLogicalAxisError, match=r"\('a',\) occur more than once"):
        nn.logical_to_mesh_axes(("a", "a"), ())
    with pytest.raises(errors.LogicalAxisRulesError):
        nn.logical_to_mesh_axes(("a",), {"a": "b"})


def test_logical_axis_rules_context_and_global(variables):
    rules = (("embed", "data"), ("mlp", "model"))
    assert nn.get_logical_axis_rules() == ()
    with nn.logical_axis_rules(rules):
        assert nn.get_logical_axis_rules() == rules
        with nn.logical_axis_rules((("embed", "other"),)):
            assert nn.logical_to_mesh_axes(("embed", "mlp")) == P("other", None)
        # Flax: logical names map through the rules; mesh names are not logical rules.
        assert nn.logical_to_mesh(nn.get_partition_spec(variables)) == {
            "params": {
                "Dense_0": {"bias": P(None), "kernel": P(None, None)},
                "Dense_1": {"bias": P(), "kernel": P("data", "model")},
            }
        }
    assert nn.get_logical_axis_rules() == ()
    try:
        nn.set_logical_axis_rules(rules)
        assert nn.logical_to_mesh_axes(("mlp",)) == P("model")
    finally:
        nn.set_logical_axis_rules(())


def test_with_logical_constraint_is_identity_on_one_device():
    x = jnp.ones((2, 3))
    rules = (("batch", "data"),)
    assert nn.with_logical_constraint(x, ("batch", "embed"), rules=rules) is x
    assert nn.with_logical_constraint(x, None) is x
    with pytest.raises(errors.UnmatchedLogicalAxisError, match="did not match a rule"):
        nn.with_logical_constraint(
            x, ("batch", "embed"), rules=rules, fallback=nn.RulesFallback.RAISE_ERROR
        )


def test_logically_partitioned_keeps_logical_names_and_hashable_rules():
    init = nn.with_logical_partitioning(jnp.ones, ("embed",), rules=[["embed", "data"]])
    box = init((3,))
    assert box.get_partition_spec() == P("embed")
    assert box.rules == (("embed", "data"),)
    out = core.jit(lambda b: tree_util.tree_map(lambda v: v + 1, b))(box)
    assert type(out) is nn.LogicallyPartitioned and out.rules == box.rules
    np.testing.assert_array_equal(np.asarray(out.value), [2, 2, 2])


def test_partition_spec_is_a_tuple_leaf():
    spec = P("data", None, ("x", "y"))
    assert repr(spec) == "P('data', None, ('x', 'y'))"
    assert tuple(spec) == ("data", None, ("x", "y")) and len(spec) == 3
    # JAX 0.10.2: P('data', None) == ('data', None) is False; P('i', 0) is P('i', None)
    assert spec != ("data", None, ("x", "y")) and spec == P("data", None, ("x", "y"))
    assert repr(P("i", 0)) == "P('i', None)" and repr(P((), "")) == "P(None, None)"
    assert tree_util.tree_leaves({"s": spec}) == [spec]
    assert repr(P()) == "P()"
    assert core.sharding.PartitionSpec is P


def test_boxed_params_through_lifted_vmap():
    """nn.vmap stacks the boxed values and names the new axis from metadata_params."""
    dense3 = nn.vmap(
        nn.Dense,
        variable_axes={"params": 0},
        split_rngs={"params": True},
        in_axes=None,
        axis_size=2,
        metadata_params={nn.PARTITION_NAME: "layers"},
    )(3, kernel_init=nn.with_partitioning(nn.initializers.lecun_normal(), ("embed", "mlp")))
    v = dense3.init(random.key(0), jnp.ones((1, 4)))
    assert type(v["params"]["kernel"]) is nn.Partitioned
    assert v["params"]["kernel"].value.shape == (2, 4, 3)
    assert nn.get_partition_spec(v)["params"]["kernel"] == P("layers", "embed", "mlp")
    y = dense3.apply(v, jnp.ones((1, 4)))
    want = np.ones((1, 4)) @ np.asarray(v["params"]["kernel"].value)
    np.testing.assert_allclose(np.asarray(y), want, rtol=1e-5)


def test_docstring_examples():
    from core import mesh, named_sharding, sharding_base

    globs = {"core": core, "jnp": jnp, "nn": nn, "PartitionSpec": core.sharding.PartitionSpec}
    for module in (meta, sharding_base, mesh, named_sharding, nn.spmd):
        result = doctest.testmod(module, extraglobs=globs, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert result.attempted > 0 and result.failed == 0


def test_tabulate_counts_boxed_params():
    table = MLP().tabulate(random.key(0), X, console_kwargs={"force_terminal": False})
    assert "Total Parameters: 23 (92 B)" in table


class Block(nn.Module):
    @nn.compact
    def __call__(self, x):
        init = nn.with_partitioning(nn.initializers.ones, ("embed", "mlp"))
        return nn.Dense(3, kernel_init=init)(x)


def test_lifted_vmap_and_scan_name_the_new_axis_like_flax():
    """Partition specs, shapes and submodule names as flax.linen gives them."""
    vmapped = nn.vmap(
        Block,
        variable_axes={"params": 0},
        split_rngs={"params": True},
        metadata_params={nn.PARTITION_NAME: "layers"},
    )
    v = vmapped().init(random.key(0), jnp.ones((2, 4, 5)))
    assert nn.get_partition_spec(v) == {
        "params": {"Dense_0": {"bias": P(), "kernel": P("layers", "embed", "mlp")}}
    }

    class Stack(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.scan(
                lambda mdl, c, _: (Block()(c), None),
                variable_axes={"params": 1},
                split_rngs={"params": True},
                length=2,
                metadata_params={nn.PARTITION_NAME: "layers"},
            )(self, x, None)

    v = Stack().init(random.key(0), jnp.ones((4, 3)))
    assert nn.get_partition_spec(v) == {
        "params": {"Block_0": {"Dense_0": {"bias": P(), "kernel": P("embed", "layers", "mlp")}}}
    }
    shapes = tree_util.tree_map(jnp.shape, nn.unbox(v))
    assert shapes == {"params": {"Block_0": {"Dense_0": {"bias": (3, 2), "kernel": (3, 2, 3)}}}}
    with pytest.raises(errors.PartitioningUnspecifiedError, match="PARTITION_NAME"):
        nn.vmap(Block, variable_axes={"params": 0}, split_rngs={"params": True})().init(
            random.key(0), jnp.ones((2, 4, 5))
        )
