"""The current mesh and abstract mesh (`core/mesh.py`): `AbstractMesh`'s repr as JAX 0.10.2
prints it, `update_axis_types`, `use_abstract_mesh` blocks, and axis types as JAX checks
them."""

import numpy as np
import pytest

import core
from core.errors import MeshShapeError
from core.sharding import AbstractMesh, AxisType, Mesh, get_abstract_mesh, use_abstract_mesh

Explicit, Auto = AxisType.Explicit, AxisType.Auto


def test_abstract_mesh_repr():
    mesh = core.make_mesh((2, 4), ("X", "Y"), axis_types=(Explicit, Explicit))
    assert repr(mesh.abstract_mesh) == (
        "AbstractMesh('X': 2, 'Y': 4, axis_types=(Explicit, Explicit), device_kind=cpu, "
        "num_cores=None, platform=cpu)"
    )


def test_use_abstract_mesh_changes_the_types_inside_a_block():
    mesh = core.make_mesh((2, 4), ("X", "Y"), axis_types=(Explicit, Explicit))
    with core.set_mesh(mesh):
        auto_x = get_abstract_mesh().update_axis_types({"X": Auto})
        assert auto_x.explicit_axes == ("Y",)
        with use_abstract_mesh(auto_x):
            assert get_abstract_mesh().axis_types == (Auto, Explicit)
            with core.set_mesh(mesh):  # a concrete mesh set inside is current again
                assert get_abstract_mesh().axis_types == (Explicit, Explicit)
            assert get_abstract_mesh().axis_types == (Auto, Explicit)
        assert get_abstract_mesh() == mesh.abstract_mesh


def test_use_abstract_mesh_needs_the_current_axes():
    other = core.make_mesh((4, 2), ("X", "Y"))
    with (
        core.set_mesh(core.make_mesh((2, 4), ("X", "Y"))),
        pytest.raises(MeshShapeError, match="set_mesh"),
        use_abstract_mesh(other.abstract_mesh),
    ):
        pass


def test_axis_types_a_single_name_and_the_empty_mesh_as_jax():
    # JAX 0.10.2: a single AxisType (and a single axis name) stands for a tuple of one; the
    # number of types must match the names (ValueError), each be an AxisType (TypeError); the
    # empty mesh has size 0
    one = AbstractMesh((2,), "x", axis_types=AxisType.Auto)
    assert one == AbstractMesh((2,), ("x",)) and one.axis_types == (AxisType.Auto,)
    mesh = Mesh(np.array(core.devices()[:2]), "x", axis_types=AxisType.Explicit)
    assert mesh.axis_types == (AxisType.Explicit,)
    with pytest.raises(ValueError, match="^Number of axis names should match the number of"):
        AbstractMesh((2, 1), ("x", "y"), axis_types=AxisType.Auto)
    with pytest.raises(ValueError, match="^Number of axis names should match the number of"):
        core.make_mesh((1, 1), ("data", "model"), axis_types=AxisType.Explicit)
    with pytest.raises(TypeError, match="axis_types passed to AbstractMesh must be of type"):
        AbstractMesh((2, 2), ("x", "y"), axis_types=("explicit", AxisType.Explicit))
    empty = Mesh(np.empty((), dtype=object), ())
    assert empty.size == 0 and empty.abstract_mesh.size == 0 and AbstractMesh((), ()).size == 0


def test_mesh_axes_by_type_and_the_checks_of_names_and_specs():
    # JAX 0.10.2: axes by type, None names refused, nested tuples in a P refused, no
    # subclass of P
    mesh = core.make_mesh(
        (1, 1, 1), ("x", "y", "z"), axis_types=(AxisType.Explicit, AxisType.Auto, AxisType.Manual)
    )
    assert (mesh.explicit_axes, mesh.auto_axes, mesh.manual_axes) == (("x",), ("y",), ("z",))
    with pytest.raises(ValueError, match=r"^Mesh axis names cannot be None. Got: \(None, 'x'\)"):
        Mesh(np.array(core.devices()).reshape(4, 2), (None, "x"))
    with pytest.raises(ValueError, match="^A tuple inside PartitionSpec cannot contain a nested"):
        core.P("x", "y", ("z", ("a",)))
    with pytest.raises(TypeError, match="^Subclassing `jax.P` is prohibited."):
        type("MyP", (core.P,), {})
