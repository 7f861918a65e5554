"""`core.experimental.mesh_utils` (`jax.experimental.mesh_utils`): device arrays for meshes.

`create_device_mesh` is defined beside `Mesh` (`core/mesh.py`), whose `make_mesh` uses it.
"""

from core.mesh import create_device_mesh

__all__ = ["create_device_mesh"]
