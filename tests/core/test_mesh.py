"""The current mesh and abstract mesh (`core/mesh.py`): `AbstractMesh`'s repr as JAX 0.10.2
prints it, `update_axis_types`, and `use_abstract_mesh` blocks."""

import pytest

import core
from core.errors import MeshShapeError
from core.sharding import AxisType, get_abstract_mesh, use_abstract_mesh

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
