"""`core.sharding`'s meshes (`core/mesh.py`) and `NamedSharding` (`core/named_sharding.py`):
the current mesh, `device_put`/`x.sharding` and `lax.with_sharding_constraint`, against JAX
0.10.2's results (recorded; the multi-device layouts with
`--xla_force_host_platform_device_count=4`). The test session has 8 CPU devices
(`tests/conftest.py`)."""

import functools

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.errors import (
    AutoAxisShardingError,
    DuplicateSpecError,
    IndivisibleError,
    MeshAxisNotFoundError,
    MeshShapeError,
    NamedShardingArgumentError,
    NoMeshError,
    ShardingShapeError,
)
from core.experimental import mesh_utils
from core.sharding import (
    AxisType,
    Mesh,
    NamedSharding,
    PartitionSpec,
    SingleDeviceSharding,
    get_abstract_mesh,
    get_mesh,
    set_mesh,
    use_mesh,
)

P = PartitionSpec


# (mesh shape, axis names, spec, global shape) -> (shard shape, {device id: [(start, stop)]},
# fully replicated), printed by JAX with 4 CPU devices.
MULTI_DEVICE = [
    (((2, 2), ("x", "y"), (("x", "y"), None), (8, 3)),
     ((2, 3), {0: [(0, 2), (None, None)], 1: [(2, 4), (None, None)],
               2: [(4, 6), (None, None)], 3: [(6, 8), (None, None)]}, False)),
    (((2, 2), ("x", "y"), ("y",), (4,)),
     ((2,), {0: [(0, 2)], 1: [(2, 4)], 2: [(0, 2)], 3: [(2, 4)]}, False)),
    (((4,), ("d",), (None, "d"), (3, 8)),
     ((3, 2), {0: [(None, None), (0, 2)], 1: [(None, None), (2, 4)],
               2: [(None, None), (4, 6)], 3: [(None, None), (6, 8)]}, False)),
    (((2, 2), ("x", "y"), ("y", "x"), (2, 6)),
     ((1, 3), {0: [(0, 1), (0, 3)], 1: [(1, 2), (0, 3)], 2: [(0, 1), (3, 6)],
               3: [(1, 2), (3, 6)]}, False)),
    (((1, 4), ("a", "b"), ("a",), (5, 2)),
     ((5, 2), {i: [(None, None), (None, None)] for i in range(4)}, True)),
]  # fmt: skip


@pytest.fixture
def mesh():
    return Mesh(mesh_utils.create_device_mesh((1,), core.devices()[:1]), ("data",))


def test_mesh_attributes_match_jax(mesh):
    assert repr(mesh) == "Mesh(axis_sizes=(1,), axis_names=('data',), axis_types=(Auto,))"
    assert str(mesh) == "Mesh('data': 1, axis_types=(Auto,))"  # JAX's str, what print shows
    assert list(mesh.shape.items()) == [("data", 1)]
    assert (mesh.axis_names, mesh.size, mesh.axis_sizes, mesh.empty) == (("data",), 1, (1,), False)
    assert mesh.shape_tuple == (("data", 1),)
    one = core.devices()[:1]
    assert mesh.device_ids.tolist() == [0] and mesh.devices.tolist() == one
    assert mesh == Mesh(one, "data") and hash(mesh) == hash(Mesh(one, "data"))
    made = core.make_mesh((2, 4), ("x", "y"))
    assert made.axis_types == (AxisType.Explicit,) * 2
    assert made.device_ids.tolist() == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert repr(mesh.abstract_mesh).startswith("AbstractMesh('data': 1, axis_types=(Auto,)")


@pytest.mark.parametrize("index", range(len(MULTI_DEVICE)))
def test_sharding_arithmetic_on_four_devices_matches_jax(index):
    (shape, names, spec, global_shape), (shard, indices, replicated) = MULTI_DEVICE[index]
    devices = core.devices()[:4]
    sharding = NamedSharding(Mesh(mesh_utils.create_device_mesh(shape, devices), names), P(*spec))
    assert sharding.shard_shape(global_shape) == shard
    got = {
        d.id: [(s.start, s.stop) for s in idx]
        for d, idx in sharding.devices_indices_map(global_shape).items()
    }
    assert got == indices
    assert sharding.is_fully_replicated == replicated
    assert sharding.num_devices == 4


def test_device_put_records_the_sharding(mesh):
    s = NamedSharding(mesh, P("data"))
    assert (s.spec, s.mesh, s.is_fully_replicated, s.memory_kind) == (
        P("data"),
        mesh,
        True,
        "device",
    )
    assert s.device_set == {core.devices()[0]} and s.shard_shape((4, 3)) == (4, 3)
    x = core.device_put(jnp.arange(6.0).reshape(3, 2), s)
    assert x.sharding == s and x.is_fully_replicated
    np.testing.assert_array_equal(x, np.arange(6.0).reshape(3, 2))
    (shard,) = x.addressable_shards
    assert shard.device == core.devices()[0] and shard.index == (slice(None), slice(None))
    np.testing.assert_array_equal(shard.data, x)
    plain = jnp.ones(3)
    assert plain.sharding == SingleDeviceSharding(core.devices()[0])
    assert plain.sharding.shard_shape((3,)) == (3,)
    assert plain.sharding.devices_indices_map((3,)) == {core.devices()[0]: (slice(None),)}
    assert core.device_put(plain, core.devices()[0]).sharding == plain.sharding
    assert (x + 1).sharding == s  # operations follow the sharding, as in JAX


def test_device_put_on_four_devices_splits_like_jax():
    mesh = core.make_mesh((2, 2), ("x", "y"), devices=core.devices()[:4])
    x = core.device_put(jnp.arange(24.0).reshape(8, 3), NamedSharding(mesh, P("x")))
    assert not x.is_fully_replicated and len(x.addressable_shards) == 4
    for shard in x.addressable_shards:
        np.testing.assert_array_equal(shard.data, np.arange(24.0).reshape(8, 3)[shard.index])
        assert shard.data.shape == (4, 3)
    assert [s.device.id for s in x.addressable_shards] == [0, 1, 2, 3]
    assert x.addressable_shards[2].index == (slice(4, 8), slice(None))
    np.testing.assert_array_equal(x * 2, np.arange(24.0).reshape(8, 3) * 2)
    with pytest.raises(ShardingShapeError, match="does not evenly divide the dimension size 3"):
        core.device_put(jnp.ones((3, 2)), NamedSharding(mesh, P("x")))


def test_device_put_with_a_tree_of_shardings(mesh):
    tree = {"a": jnp.ones(2), "b": (jnp.ones(3), jnp.ones((1, 2)))}
    shardings = {"a": NamedSharding(mesh, P("data")), "b": NamedSharding(mesh, P())}
    out = core.device_put(tree, shardings)
    assert out["a"].sharding.spec == P("data")
    assert out["b"][1].sharding.spec == P()


def test_current_mesh_and_bare_partition_specs(mesh):
    assert get_mesh().empty and get_abstract_mesh().empty
    with pytest.raises(NoMeshError, match="set_mesh"):
        core.device_put(jnp.ones(2), P("data"))
    with pytest.raises(ValueError):  # JAX's class
        core.device_put(jnp.ones(2), P("data"))
    with set_mesh(mesh):
        assert get_mesh() is mesh
        assert core.device_put(jnp.ones(2), P("data")).sharding == NamedSharding(mesh, P("data"))
    assert get_mesh().empty
    with use_mesh(mesh):
        assert get_abstract_mesh() == mesh.abstract_mesh
    with mesh:
        assert get_mesh() is mesh
    assert get_mesh().empty


def test_with_sharding_constraint_under_transformations(mesh):
    s = NamedSharding(mesh, P("data"))

    def f(a):
        return lax.with_sharding_constraint(a * 2, s)

    x = jnp.arange(4.0)
    np.testing.assert_array_equal(f(x), 2 * np.arange(4.0))
    assert f(x).sharding == s
    np.testing.assert_array_equal(core.jit(f)(x), 2 * np.arange(4.0))
    np.testing.assert_array_equal(core.grad(lambda a: f(a).sum())(x), [2.0] * 4)
    np.testing.assert_array_equal(core.vmap(f)(jnp.ones((3, 4))), np.full((3, 4), 2.0))
    with set_mesh(mesh):
        np.testing.assert_array_equal(
            core.jit(lambda a: lax.with_sharding_constraint(a, P("data")))(x), x
        )
    with pytest.raises(ShardingShapeError, match="rank at least 2"):
        core.jit(lambda a: lax.with_sharding_constraint(a, NamedSharding(mesh, P(None, "data"))))(x)


def test_errors_match_jaxs(mesh):
    with pytest.raises(MeshAxisNotFoundError, match="Resource axis: model"):
        NamedSharding(mesh, P("model"))
    with pytest.raises(DuplicateSpecError, match="duplicate entries"):
        NamedSharding(core.make_mesh((2, 4), ("x", "y")), P(("x", "y"), "x"))
    with pytest.raises(MeshShapeError, match="must equal the product of mesh_shape"):
        mesh_utils.create_device_mesh((2,))
    with pytest.raises(MeshShapeError, match="ndim"):
        Mesh(core.devices()[:1], ("a", "b"))
    with pytest.raises(ShardingShapeError, match="rank at least 1"):
        core.device_put(jnp.ones(()), NamedSharding(mesh, P("data")))
    four = Mesh(mesh_utils.create_device_mesh((4,), core.devices()[:4]), ("d",))
    # JAX 0.10.2: IndivisibleError "Sharding NamedSharding(...) implies that array axis 0 is
    # partitioned 4 times, but the dimension size is 6 (full shape: (6,), per-dimension tiling
    # factors: [4] should evenly divide the shape)"
    with pytest.raises(IndivisibleError, match=r"axis 0 is partitioned 4 times, but the dimensio"):
        NamedSharding(four, P("d")).shard_shape((6,))


def test_jit_in_and_out_shardings():
    mesh = core.make_mesh((4,), ("d",), devices=core.devices()[:4])
    split, whole = NamedSharding(mesh, P("d")), NamedSharding(mesh, P())
    f = core.jit(lambda x, y: (x * 2, y.sum()), in_shardings=(split, whole),
                 out_shardings=(split, whole))  # fmt: skip
    a, b = f(jnp.arange(8.0), jnp.ones(3))
    np.testing.assert_array_equal(a, np.arange(8.0) * 2)
    assert (a.sharding, b.sharding) == (split, whole) and len(a.addressable_shards) == 4
    with pytest.raises(ShardingShapeError, match="jit in_shardings"):
        f(jnp.ones(6), jnp.ones(3))
    g = core.jit(lambda x, n: x * n, static_argnums=1, in_shardings=split)
    np.testing.assert_array_equal(g(jnp.ones(4), 3), [3.0] * 4)
    np.testing.assert_array_equal(core.jit(core.grad(lambda x: f(x, x)[0].sum()))(jnp.ones(8)),
                                  [2.0] * 8)  # fmt: skip


def test_jit_outputs_follow_a_single_device_in_sharding():
    # JAX 0.10.2: SingleDeviceSharding(device=CpuDevice(id=1)), committed, one shard on 1;
    # without shardings the output is uncommitted on device 0.
    d1 = SingleDeviceSharding(core.devices()[1])
    y = core.jit(lambda x: x * 2, in_shardings=d1)(jnp.arange(8.0))
    assert y.sharding == d1 and [s.device.id for s in y.addressable_shards] == [1]
    assert y.committed
    np.testing.assert_array_equal(y, np.arange(8.0) * 2)
    z = core.jit(lambda x: x * 2)(jnp.arange(8.0))
    assert z.sharding == SingleDeviceSharding(core.devices()[0]) and not z.committed


def test_jit_refuses_committed_arguments_off_its_out_shardings():
    def f(x):
        return x * 2

    d = core.devices()
    g = core.jit(f, out_shardings=SingleDeviceSharding(d[0]))
    with pytest.raises(ValueError) as err:
        g(core.device_put(jnp.arange(8.0), d[1]))
    assert str(err.value) == (  # JAX 0.10.2's message
        "Received incompatible devices for jitted computation. Got argument x of f with shape "
        "float32[8] and with device ids [1] on platform CPU and explicit output sharding with "
        "device ids [0] on platform CPU"
    )
    np.testing.assert_array_equal(g(core.device_put(jnp.arange(8.0), d[0])), np.arange(8.0) * 2)


def test_named_sharding_of_none_raises_naming_the_replicated_spec(mesh):
    with pytest.raises(TypeError, match="PartitionSpec\\(\\) for a replicated array"):
        NamedSharding(mesh, None)


def test_pjit_is_jit_with_shardings():
    from core.experimental.pjit import pjit

    mesh = core.make_mesh((2,), ("d",), devices=core.devices()[:2])
    split = NamedSharding(mesh, P("d"))
    f = pjit(lambda x: x + 1, in_shardings=split, out_shardings=split)
    y = f(jnp.zeros(4))
    np.testing.assert_array_equal(y, np.ones(4))
    assert y.sharding == split


def test_reshard_records_a_full_rank_spec_and_specs_print_as_jax(mesh):
    # JAX 0.10.2: device_put keeps the spec given, reshard's result has one entry per axis;
    # reshard takes Explicit mesh axes only (Mesh's default axes are Auto)
    x = np.ones((4, 3), np.float32)
    assert repr(core.device_put(x, NamedSharding(mesh, P("data"))).sharding.spec) == "P('data',)"
    with pytest.raises(AutoAxisShardingError) as info:
        core.sharding.reshard(x, NamedSharding(mesh, P("data")))
    assert str(info.value) == (
        "PartitionSpec passed to reshard cannot contain axis names that are of type Auto or "
        "Manual. Got PartitionSpec: P('data',) with axis name: data of type: AxisType.Auto."
    )
    explicit = Mesh(mesh.devices, ("data",), (core.sharding.AxisType.Explicit,))
    out = core.sharding.reshard(x, NamedSharding(explicit, P("data")))
    assert repr(out.sharding.spec) == "P('data', None)"
    spec = P("a", ("b", "c"), None, P.UNCONSTRAINED)
    assert repr(spec) == "P('a', ('b', 'c'), None, UNCONSTRAINED)"
    assert repr(P()) == "P()"


@pytest.mark.parametrize(
    ("shape", "ids"),
    [
        ((8,), list(range(8))),
        ((2,), [0, 1]),
        ((3,), [0, 1, 2]),
        ((1,), [0]),
        ((2, 2), [0, 1, 2, 3]),
    ],
)
def test_make_mesh_takes_the_first_devices_as_jax_does(shape, ids):
    mesh = core.make_mesh(shape, ("i", "j")[: len(shape)])
    assert mesh.devices.shape == shape and [d.id for d in mesh.devices.flat] == ids


def test_make_mesh_of_too_many_devices_raises_jaxs_error():
    with pytest.raises(MeshShapeError) as info:
        core.make_mesh((16,), ("i",))
    assert str(info.value) == "Number of devices 8 must be >= the product of mesh_shape (16,)"


# (source spec or None for an unplaced array, target spec) -> device id: its shard of
# arange(1, 33).reshape(8, 4) (flattened), JAX 0.10.2 on a (4, 2) ('X', 'Y') Explicit mesh
# (device_put to an unreduced spec; devices 0-3 shown).
UNREDUCED_SHARDS = [
    ((None, P(None, None, unreduced={"Y"})),
     {0: "all", 1: "zeros", 2: "all", 3: "zeros"}),
    ((None, P("X", None, unreduced={"Y"})),
     {0: list(range(1, 9)), 1: [0] * 8, 2: list(range(9, 17)), 3: [0] * 8}),
    ((None, P(None, "X", unreduced={"Y"})),
     {0: list(range(1, 33, 4)), 1: [0] * 8, 2: list(range(2, 33, 4)), 3: [0] * 8}),
    ((None, P(None, None, unreduced={"X", "Y"})),
     {0: "all", 1: "zeros", 2: "zeros", 3: "zeros"}),
    ((P("X", "Y"), P("X", None, unreduced={"Y"})),
     {0: [1, 2, 0, 0, 5, 6, 0, 0], 1: [0, 0, 3, 4, 0, 0, 7, 8],
      2: [9, 10, 0, 0, 13, 14, 0, 0], 3: [0, 0, 11, 12, 0, 0, 15, 16]}),
]  # fmt: skip


@pytest.mark.parametrize(("specs", "shards"), UNREDUCED_SHARDS)
def test_device_put_unreduced_splits_the_value_into_summands_as_jax(specs, shards):
    # An unreduced array's shards along the unreduced axes sum to the value: each device keeps
    # what it held, zeros elsewhere; a piece that was replicated goes to position 0 of the axis
    source, target = specs
    mesh = core.make_mesh((4, 2), ("X", "Y"), (AxisType.Explicit,) * 2)
    x = jnp.arange(1.0, 33.0).reshape(8, 4)
    if source is not None:
        x = core.device_put(x, NamedSharding(mesh, source))
    y = core.device_put(x, NamedSharding(mesh, target))
    assert (
        y.sharding == NamedSharding(mesh, target) and y.sharding.spec.unreduced == target.unreduced
    )
    for shard in y.addressable_shards[:4]:
        want = shards[shard.device.id]
        whole = np.arange(1.0, 33.0).reshape(8, 4)[shard.index].ravel()
        want = whole if want == "all" else 0 * whole if want == "zeros" else want
        np.testing.assert_array_equal(np.asarray(shard.data).ravel(), want)
    first, second = y.addressable_shards[:2]  # devices 0 and 1: X position 0, Y positions 0, 1
    np.testing.assert_array_equal(
        np.asarray(first.data) + np.asarray(second.data),
        np.arange(1.0, 33.0).reshape(8, 4)[first.index],
    )


def test_partition_spec_reads_like_a_tuple_but_is_none_as_jaxs():
    # JAX 0.10.2: `P` is no tuple subclass; indexing, iteration and `+` as printed there
    p = P("a", ("b", "c"), None)
    assert not isinstance(p, tuple) and p != ("a", ("b", "c"), None)
    assert p[0:2] == ("a", ("b", "c")) and type(p[0:2]) is tuple and p[-1] is None
    assert list(p) == ["a", ("b", "c"), None] and len(p) == 3 and "a" in p
    assert (p.index(None), p.count(None), bool(P()), bool(p)) == (2, 1, False, True)
    assert repr(p + ("d",)) == "P('a', ('b', 'c'), None, 'd')"
    assert repr(("d",) + p) == "P('d', 'a', ('b', 'c'), None)"
    assert P("a", unreduced={"u"}) + P("b") == P("a", "b", unreduced={"u"})
    assert p.update(partitions=("x",)) == P("x")
    assert P("a", unreduced={"b"}).update(unreduced={"c"}) == P("a", unreduced={"c"})
    assert core.tree_util.tree_leaves({"s": p}) == [p]
    with pytest.raises(TypeError, match=r"cannot be of instance `tuple` when self .* unreduced"):
        P("a", unreduced={"b"}) + ("c",)
    with pytest.raises(NotImplementedError):
        p + ["d"]


def test_unreduced_specs_print_and_compare_as_jaxs():
    # JAX 0.10.2's reprs, types and errors
    assert repr(P("X", None, unreduced={"Y"})) == "P('X', None, unreduced={'Y'})"
    assert repr(P(unreduced={"Y"})) == "P(unreduced={'Y'})"
    assert repr(P("X", unreduced={"Y"})) == "P('X', unreduced={'Y'})"
    assert repr(P(("a", "b"), reduced={"c"})) == "P(('a', 'b'), reduced={'c'})"
    assert P("X", unreduced={"Y"}) != P("X") and P("X", unreduced={"Y"}) == P("X", unreduced={"Y"})
    assert P("X", unreduced={"Y"}).partitions == ("X",)
    with pytest.raises(ValueError, match="partitions cannot overlap with unreduced axes"):
        P("X", unreduced={"X"})
    with pytest.raises(TypeError, match="should of type `frozenset` or `set`"):
        P("X", unreduced=["Y"])
    mesh = core.make_mesh((4, 2), ("X", "Y"), (AxisType.Explicit,) * 2)
    y = core.device_put(jnp.ones((8, 4)), NamedSharding(mesh, P("X", None, unreduced={"Y"})))
    assert str(core.typeof(y)) == "float32[8@X,4]{U:Y}"
    assert (
        repr(y)
        == str(y)
        == f"{y}"
        == (
            "Array(shape=(8, 4), dtype=float32, sharding=NamedSharding(mesh=Mesh('X': 4, 'Y': 2, "
            "axis_types=(Explicit, Explicit)), spec=P('X', None, unreduced={'Y'}), "
            "memory_kind=device))"
        )
    )
    z = core.device_put(jnp.ones((8, 4)), NamedSharding(mesh, P(None, None, unreduced={"X", "Y"})))
    assert str(core.typeof(z)) == "float32[8,4]{U:(X,Y)}"


# JAX 0.10.2's text: a PartitionSpec under set_mesh constrains over the abstract context mesh
_ABSTRACT = (
    "AbstractMesh('x': 1, axis_types=(Auto,), device_kind=cpu, num_cores=None, platform=cpu)"
)
_SPEC_UNDER_SET_MESH = f"""{{ lambda ; a:f32[8]. let
    b:f32[8] = sharding_constraint[
      context_mesh={_ABSTRACT}
      layout=None
      sharding=NamedSharding(mesh={_ABSTRACT}, spec=P(UNCONSTRAINED,))
      unconstrained_dims=frozenset({{0}})
    ] a
  in (b,) }}"""


def test_sharding_constraint_equation_under_set_mesh():
    mesh = core.make_mesh((1,), ("x",), axis_types=(AxisType.Auto,))
    x = np.arange(8.0, dtype=np.float32)
    with core.set_mesh(mesh):
        wsc = lambda v: lax.with_sharding_constraint(v, P(P.UNCONSTRAINED))  # noqa: E731
        assert str(core.make_jaxpr(wsc)(x)) == _SPEC_UNDER_SET_MESH
        np.testing.assert_array_equal(core.jit(wsc)(x), x)


def test_sharding_constraint_derivatives_constrain_the_tangent_and_cotangent():
    mesh = core.make_mesh((1,), ("x",), axis_types=(AxisType.Auto,))
    s = NamedSharding(mesh, P("x"))
    f = lambda v: lax.with_sharding_constraint(jnp.sin(v), s) * 2  # noqa: E731
    x = np.linspace(-1, 1, 8, dtype=np.float32)
    np.testing.assert_allclose(core.grad(lambda v: f(v).sum())(x), 2 * np.cos(x), rtol=1e-6)
    np.testing.assert_allclose(core.jvp(f, (x,), (np.ones_like(x),))[1], 2 * np.cos(x), rtol=1e-6)
    text = str(core.make_jaxpr(core.grad(lambda v: f(v).sum()))(x))
    assert text.count("sharding_constraint[") == 2  # the primal's and the cotangent's, as JAX


def test_with_sharding_constraint_refuses_explicit_axes():
    # JAX 0.10.2: ValueError "The spec of NamedSharding passed to with_sharding_constraint can
    # only refer to Auto axes of the mesh. Got spec=P('i',) and mesh=AbstractMesh('i': 8,
    # axis_types=(Explicit,), device_kind=cpu, num_cores=None, platform=cpu). You probably meant
    # to use `reshard` API?", eager and under jit; P() and Auto axes constrain as before
    explicit = core.make_mesh((8,), ("i",))
    first = (
        "The spec of NamedSharding passed to with_sharding_constraint can only refer to Auto "
        "axes of the mesh. Got spec=P('i',) and mesh=AbstractMesh('i': 8, axis_types=("
        "Explicit,), device_kind=cpu, num_cores=None, platform=cpu). You probably meant to use "
        "`reshard` API?"
    )
    constrain = functools.partial(
        lax.with_sharding_constraint, shardings=NamedSharding(explicit, P("i"))
    )
    for fn in (constrain, core.jit(constrain)):
        with pytest.raises(ValueError) as info:
            fn(jnp.ones(8))
        assert str(info.value) == first
    np.testing.assert_array_equal(
        lax.with_sharding_constraint(jnp.ones(8), NamedSharding(explicit, P())), np.ones(8)
    )
    mixed = core.make_mesh((2, 4), ("i", "j"), axis_types=(AxisType.Auto, AxisType.Explicit))
    np.testing.assert_array_equal(
        lax.with_sharding_constraint(jnp.ones(8), NamedSharding(mixed, P("i"))), np.ones(8)
    )


def test_named_sharding_update_replaces_mesh_or_spec():
    mesh = core.make_mesh((2, 4), ("a", "b"))
    s = NamedSharding(mesh, P("a"))
    # JAX 0.10.2: NamedSharding(..., spec=P('b', None), memory_kind=device); no `with_spec`
    assert s.update(spec=("b", None)).spec == P("b", None)
    assert s.update(spec=P("b")) == NamedSharding(mesh, P("b"))
    assert s.update(mesh=core.make_mesh((4, 2), ("a", "b"))).mesh.shape == {"a": 4, "b": 2}
    assert not hasattr(s, "with_spec")


@pytest.mark.parametrize(
    ("mesh", "spec", "jax_error"),
    [  # JAX 0.10.2's classes: AttributeError ('tuple' object has no attribute 'partitions',
        # 'list' object has no attribute 'size'), TypeError (incompatible function arguments)
        ("mesh", ("i",), AttributeError),
        ("mesh", "i", AttributeError),
        ("mesh", None, TypeError),
        ("devices", P("i"), AttributeError),
    ],
)
def test_named_sharding_rejects_what_is_no_mesh_or_spec(mesh, spec, jax_error):
    m = core.make_mesh((8,), ("i",)) if mesh == "mesh" else core.devices()
    with pytest.raises(NamedShardingArgumentError) as info:
        NamedSharding(m, spec)
    assert isinstance(info.value, jax_error)


def _jit_case(mesh, kind):
    x = np.arange(8.0).reshape(2, 4)
    ns = functools.partial(NamedSharding, mesh)
    cases = {
        "numpy": lambda: core.jit(lambda v: v * 2, in_shardings=ns(P("a")))(x),
        "numpy_full": lambda: core.jit(lambda v: v * 2, in_shardings=ns(P("a", None)))(x),
        "numpy_new_axis": lambda: core.jit(lambda v: v[None], in_shardings=ns(P("a")))(x),
        "numpy_replicated": lambda: core.jit(lambda v: v + 1, in_shardings=ns(P()))(x),
        "numpy_identity": lambda: core.jit(lambda v: v, in_shardings=ns(P("a")))(x),
        "numpy_reduce": lambda: core.jit(lambda v: v.sum(1), in_shardings=ns(P("a")))(x),
        "placed": lambda: core.jit(lambda v: v * 2, in_shardings=ns(P("a")))(
            core.device_put(x, ns(P("a")))
        ),
        "placed_no_in": lambda: core.jit(lambda v: v * 2)(core.device_put(x, ns(P("a")))),
    }
    return cases[kind]()


@pytest.mark.parametrize(
    ("kind", "spec"),
    [  # JAX 0.10.2 on a (2, 4) mesh of Explicit axes: host data placed by in_shardings gives
        # results without trailing Nones; arrays already placed carry one entry per axis
        ("numpy", "P('a',)"),
        ("numpy_full", "P('a',)"),
        ("numpy_new_axis", "P(None, 'a')"),
        ("numpy_replicated", "P()"),
        ("numpy_identity", "P('a',)"),
        ("numpy_reduce", "P('a',)"),
        ("placed", "P('a', None)"),
        ("placed_no_in", "P('a', None)"),
    ],
)
def test_jit_in_shardings_result_specs(kind, spec):
    out = _jit_case(core.make_mesh((2, 4), ("a", "b")), kind)
    assert repr(out.sharding.spec) == spec


def test_is_equivalent_to_compares_the_pieces_each_device_holds():
    # JAX 0.10.2 (8 CPU devices): a 1-device mesh's sharding is a single device's; a pmap's
    # output shardings are equivalent to each other; P('x', 'y') over (2, 1) is P('x'), not
    # P(None, 'x')
    auto = (AxisType.Auto,)
    one = NamedSharding(core.make_mesh((1,), ("x",), axis_types=auto), P("x"))
    single = SingleDeviceSharding(core.devices()[0])
    pmapped = [core.pmap(lambda x: x)(jnp.arange(8)).sharding for _ in range(2)]
    mesh2 = core.make_mesh((2, 1), ("x", "y"), axis_types=auto * 2)
    xy, x, none_x = (NamedSharding(mesh2, s) for s in (P("x", "y"), P("x"), P(None, "x")))
    assert one.is_equivalent_to(single, 2) and pmapped[0].is_equivalent_to(pmapped[1], 2)
    assert not one.is_equivalent_to(pmapped[0], 2) and not single.is_equivalent_to(pmapped[0], 2)
    assert xy.is_equivalent_to(x, 2) and not xy.is_equivalent_to(none_x, 2)
    abstract = [NamedSharding(mesh2.abstract_mesh, P("x")) for _ in range(2)]
    assert abstract[0].is_equivalent_to(abstract[1], 2)  # equal, without devices
