"""`nn.partitioning`, `nn.spmd`, `nn.get_sharding` and mesh-aware unboxing, against Flax 0.12.8
(the expected trees and specs were printed by Flax for the same model and rules)."""

import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
from core.errors import ShardingShapeError
from core.sharding import Mesh, NamedSharding, PartitionSpec
from nn import partitioning as nnp

P = PartitionSpec
RULES = [("batch", "data"), ("embed", None), ("mlp", "data")]


class Model(nn.Module):
    @nn.compact
    def __call__(self, x):
        w = nnp.param_with_axes("w", nn.initializers.ones, (x.shape[-1], 4), axes=("embed", "mlp"))
        c = nnp.variable_with_axes("cache", "c", jnp.zeros, (2,), axes=("batch",))
        c.value = c.value + 1
        return nn.Dense(3, name="d")(x @ w)


@pytest.fixture
def mesh():
    return Mesh(core.devices()[:1], ("data",))


def test_axes_collections_match_flax(mesh):
    v = Model().init(core.random.PRNGKey(0), jnp.ones((2, 5)))
    shapes = core.tree_util.tree_map(jnp.shape, {k: v[k] for k in ("params", "cache")})
    assert shapes == {
        "cache": {"c": (2,)},
        "params": {"d": {"bias": (3,), "kernel": (4, 3)}, "w": (5, 4)},
    }
    assert v["params_axes"] == {"w_axes": nnp.AxisMetadata(names=("embed", "mlp"))}
    assert v["cache_axes"] == {"c_axes": nnp.AxisMetadata(names=("batch",))}
    specs = nnp.get_axis_names(v["params_axes"])
    assert isinstance(specs, nn.FrozenDict) and dict(specs) == {"w": P("embed", "mlp")}
    assert dict(nnp.get_axis_names(v["cache_axes"])) == {"c": P("batch")}
    shardings = nn.logical_to_mesh_sharding(specs, mesh, RULES)
    assert shardings["w"] == NamedSharding(mesh, P(None, "data"))
    with nn.logical_axis_rules(RULES), core.set_mesh(mesh):
        out, state = Model().apply(v, jnp.ones((2, 5)), mutable=["cache"])
        jitted, _ = core.jit(lambda v, x: Model().apply(v, x, mutable=["cache"]))(
            v, jnp.ones((2, 5))
        )
    np.testing.assert_array_equal(state["cache"]["c"], [2.0, 2.0])
    np.testing.assert_allclose(jitted, out, rtol=1e-6)


def test_logical_constraint_applies_the_mapped_sharding(mesh):
    x = jnp.ones((4, 3))
    with nn.logical_axis_rules(RULES):
        assert nn.with_logical_constraint(x, ("batch", "embed")) is x  # no mesh: no constraint
        with core.set_mesh(mesh):
            y = nn.with_logical_constraint(x, ("batch", "embed"))
            y2 = nn.with_logical_constraint(x, ("mlp", "batch"))
            assert nn.spmd.with_logical_constraint is nn.with_logical_constraint
    assert y.sharding == NamedSharding(mesh, P("data", None))  # Flax's result
    assert y2.sharding == NamedSharding(mesh, P(None, "data"))
    np.testing.assert_array_equal(y, x)
    bad = Mesh(core.devices()[:1], ("other",))
    with pytest.raises(ValueError, match="Resource axis: data"):
        nn.with_logical_constraint(x, ("batch", None), rules=RULES, mesh=bad)


def test_get_sharding_and_unbox_under_a_mesh(mesh):
    p = nn.Partitioned(jnp.ones((2, 3)), (None, "data"))
    shardings = nn.get_sharding({"w": p, "b": jnp.ones(3), "n": 3}, mesh)
    assert shardings == {
        "w": NamedSharding(mesh, P(None, "data")),
        "b": NamedSharding(mesh, P()),
        "n": None,
    }
    assert p.unbox() is p.value
    with core.set_mesh(mesh):
        assert p.unbox().sharding == NamedSharding(mesh, P(None, "data"))
    with pytest.raises(ShardingShapeError):
        nn.Partitioned(jnp.ones(2), (None, "data"), mesh=mesh).unbox()


def test_partitioned_params_train_under_a_mesh(mesh):
    init = nn.with_partitioning(nn.initializers.lecun_normal(), (None, "data"))
    model = nn.Dense(4, kernel_init=init)
    x = jnp.linspace(-1, 1, 6).reshape(2, 3)
    variables = model.init(core.random.PRNGKey(0), x)
    specs = nn.get_partition_spec(variables)
    with core.set_mesh(mesh):
        placed = core.device_put(variables, nn.get_sharding(variables, mesh))
        grads = core.jit(core.grad(lambda v: model.apply(v, x).sum()))(placed)
    assert nn.get_partition_spec(grads) == specs
    np.testing.assert_allclose(nn.unbox(grads)["params"]["bias"], [2.0] * 4)


def test_partitioning_aliases_are_flaxs():
    assert nnp.with_sharding_constraint is nn.with_logical_constraint
    assert nnp.axis_rules is nn.logical_axis_rules
    assert nnp.get_axis_rules is nn.get_logical_axis_rules
    assert nnp.set_axis_rules is nn.set_logical_axis_rules
    with pytest.raises(nn.errors.AxesOutsideModuleError, match="module=self"):
        nnp.param_with_axes("w", nn.initializers.ones, (2,), axes=("a",))


def test_param_with_axes_of_a_pytree_parameter_keeps_its_names_tree():
    """A pytree parameter's axes are a pytree of names (Flax 0.12.8's partitioning_test)."""
    axes = {"a": ("foo", "bar"), "b": (("foo", "bar"), ("bar", "foo"))}

    def init_fn(key, shape, dtype):
        return {"a": jnp.zeros(shape, dtype), "b": (jnp.zeros(shape, dtype),) * 2}

    class Tree(nn.Module):
        @nn.compact
        def __call__(self, x):
            return x + nnp.param_with_axes("foo", init_fn, (2, 2), x.dtype, axes=axes)["a"]

    with nnp.axis_rules((("foo", "model"), ("bar", "data"))):
        v = Tree().init(core.random.key(0), jnp.ones((2, 2)))
    assert v["params_axes"]["foo_axes"] == nnp.AxisMetadata(names=axes)
    names = nnp.get_axis_names(v["params_axes"])["foo"]
    assert names["a"] == PartitionSpec("foo", "bar")
    assert names["b"] == (PartitionSpec("foo", "bar"), PartitionSpec("bar", "foo"))
