"""core.experimental.multihost_utils' host-local <-> global conversions in one process, against
what JAX 0.10.2 does with eight CPU devices and one process (recorded with /opt/ref/bin/python):
shapes, dtypes, shardings and errors. The collective functions are tested over MPI in
tests/core/test_distributed.py."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import DuplicateSpecError, MeshAxisNotFoundError, ShardingShapeError
from core.experimental import multihost_utils as mu
from core.sharding import Mesh, NamedSharding
from core.sharding import PartitionSpec as P


def _mesh1():
    return Mesh(np.array(core.devices()), ("x",))


def _mesh2():
    return Mesh(np.array(core.devices()).reshape(4, 2), ("x", "y"))


X = np.arange(16.0, dtype=np.float32).reshape(8, 2)

# (input, mesh, pspecs) -> each output leaf's (shape, dtype, sharding's mesh and spec), as JAX
TO_GLOBAL = [
    (X, _mesh1, P("x"), [((8, 2), "float32", "Mesh('x': 8, axis_types=(Auto,)), spec=P('x',)")]),
    (X, _mesh1, P(), [((8, 2), "float32", "Mesh('x': 8, axis_types=(Auto,)), spec=P()")]),
    (X, _mesh2, P("x", "y"),
     [((8, 2), "float32", "Mesh('x': 4, 'y': 2, axis_types=(Auto, Auto)), spec=P('x', 'y')")]),
    (X, _mesh2, P(("x", "y")),
     [((8, 2), "float32", "Mesh('x': 4, 'y': 2, axis_types=(Auto, Auto)), spec=P(('x', 'y'),)")]),
    ({"a": X, "b": X[:, 0]}, _mesh1, P("x"),
     [((8, 2), "float32", "Mesh('x': 8, axis_types=(Auto,)), spec=P('x',)"),
      ((8,), "float32", "Mesh('x': 8, axis_types=(Auto,)), spec=P('x',)")]),
    ({"a": X, "b": X[:, 0]}, _mesh1, {"a": P("x"), "b": P()},
     [((8, 2), "float32", "Mesh('x': 8, axis_types=(Auto,)), spec=P('x',)"),
      ((8,), "float32", "Mesh('x': 8, axis_types=(Auto,)), spec=P()")]),
    ([jnp.asarray(X)], _mesh1, P("x"),
     [((8, 2), "float32", "Mesh('x': 8, axis_types=(Auto,)), spec=P('x',)")]),
    (np.arange(8), _mesh1, P("x"),
     [((8,), "int32", "Mesh('x': 8, axis_types=(Auto,)), spec=P('x',)")]),
    (np.arange(8.0), _mesh1, P("x"),
     [((8,), "float32", "Mesh('x': 8, axis_types=(Auto,)), spec=P('x',)")]),
    (np.arange(8.0), _mesh1, P("x", None),
     [((8,), "float32", "Mesh('x': 8, axis_types=(Auto,)), spec=P('x', None)")]),
]  # fmt: skip


@pytest.mark.parametrize("inputs, mesh, pspecs, want", TO_GLOBAL)
def test_host_local_to_global_places_as_jax(inputs, mesh, pspecs, want):
    out = mu.host_local_array_to_global_array(inputs, mesh(), pspecs)
    leaves = core.tree_util.tree_leaves(out)
    got = [(x.shape, str(x.dtype), repr(x.sharding)) for x in leaves]
    assert got == [(s, d, f"NamedSharding(mesh={m}, memory_kind=device)") for s, d, m in want]
    for x, leaf in zip(leaves, core.tree_util.tree_leaves(inputs)):
        np.testing.assert_array_equal(np.asarray(x), np.asarray(leaf))


# (input, mesh, pspecs) -> JAX's error: its class here and its message's start
TO_GLOBAL_ERRORS = [
    (X, _mesh1, P(None, "x"), ShardingShapeError,
     "Sharding NamedSharding(mesh=Mesh('x': 8, axis_types=(Auto,)), spec=P(None, 'x'), "
     "memory_kind=device) implies that array axis 1 is partitioned 8 times, but the dimension "
     "size is 2 (full shape: (8, 2), per-dimension tiling factors: [1, 8] should evenly divide "
     "the shape)"),
    (np.arange(6.0), _mesh1, P("x"), ShardingShapeError,
     "Sharding NamedSharding(mesh=Mesh('x': 8, axis_types=(Auto,)), spec=P('x',), "
     "memory_kind=device) implies that array axis 0 is partitioned 8 times, but the dimension "
     "size is 6"),
    (X, _mesh1, P("z"), MeshAxisNotFoundError,
     "Resource axis: z of P('z',) is not found in mesh: ('x',)."),
    (X, _mesh2, P("x", "x"), DuplicateSpecError,
     "A single NamedSharding spec specification can map every mesh axis to at most one "
     "positional dimension, but P('x', 'x') has duplicate entries for `x`"),
    (X, _mesh1, None, mu.PspecsNoneError,
     "`None` is not a valid input to the pspecs argument. Please use "
     "jax.sharding.PartitionSpec() if you wanted to replicate your input."),
    (X, _mesh1, "x", mu.NotAPartitionSpecError, "'str' object has no attribute 'partitions'"),
    (X, lambda: core.devices(), P("x"), mu.NotAMeshError,
     "'list' object has no attribute 'local_mesh'"),
    ({"a": X}, _mesh1, {"b": P("x")}, mu.PspecsTreeError,
     "input pspecs specification must be a tree prefix of the positional arguments tuple"),
]  # fmt: skip


@pytest.mark.parametrize("inputs, mesh, pspecs, error, message", TO_GLOBAL_ERRORS)
def test_host_local_to_global_errors_as_jax(inputs, mesh, pspecs, error, message):
    with pytest.raises(error) as info:
        mu.host_local_array_to_global_array(inputs, mesh(), pspecs)
    assert str(info.value).startswith(message)


def test_host_local_to_global_errors_are_jaxs_builtin_classes():
    assert issubclass(mu.PspecsNoneError, ValueError)
    assert issubclass(mu.PspecsTreeError, ValueError)
    assert issubclass(mu.NotAMeshError, AttributeError)
    assert issubclass(mu.NotAPartitionSpecError, AttributeError)


def test_an_array_is_already_host_local_with_one_process():
    # JAX returns a fully addressable array as it is, whatever the mesh and spec say
    g = mu.host_local_array_to_global_array(X, _mesh1(), P("x"))
    a = jnp.arange(6.0)
    for x, mesh, spec in [(g, _mesh1(), P("x")), (g, _mesh2(), P("x")), (g, _mesh1(), P("z")),
                          (a, _mesh1(), P("x"))]:  # fmt: skip
        assert mu.global_array_to_host_local_array(x, mesh, spec) is x


def test_global_to_host_local_places_numpy_values():
    out = mu.global_array_to_host_local_array({"w": X}, _mesh1(), P("x"))["w"]
    assert out.sharding == NamedSharding(_mesh1(), P("x"))
    np.testing.assert_array_equal(np.asarray(out), X)


@pytest.mark.parametrize(
    "pspecs, error", [(None, mu.PspecsNoneError), ({"b": P()}, mu.PspecsTreeError)]
)
def test_global_to_host_local_errors_as_jax(pspecs, error):
    with pytest.raises(error):
        mu.global_array_to_host_local_array({"a": jnp.ones(8)}, _mesh1(), pspecs)


@pytest.mark.parametrize(
    "convert", [mu.host_local_array_to_global_array, mu.global_array_to_host_local_array]
)
def test_under_jit_the_value_goes_through(convert):
    out = core.jit(lambda a: convert(a, _mesh1(), P("x")) * 2)(X)
    np.testing.assert_array_equal(np.asarray(out), X * 2)
