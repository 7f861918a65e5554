"""Device meshes (`jax.sharding.Mesh`) and the current-mesh context (`jax.set_mesh`).

A `Mesh` is an n-d numpy array of devices (`core.devices()`, `core/devices.py`) with one name
per axis; `core.sharding` re-exports everything here. The current mesh
is per thread; `set_mesh` sets it (and restores the previous one when used as a context
manager), `use_mesh` is the context-manager-only spelling, `get_mesh`/`get_abstract_mesh` read
it. `use_abstract_mesh` gives the current mesh's axes other types inside a block (`auto_axes`,
`explicit_axes`: `core/sharding_modes.py`), as JAX's abstract mesh context does.
"""

from __future__ import annotations

import collections
import contextlib
import enum
import threading
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from core.array import placement
from core.devices import devices as all_devices
from core.errors import MeshShapeError


class AxisType(enum.Enum):
    """How a mesh axis is partitioned (`jax.sharding.AxisType`): array types mention only the
    `Explicit` axes (`core/sharding_types.py`), and only their shardings must agree."""

    Auto = enum.auto()
    Explicit = enum.auto()
    Manual = enum.auto()

    def __repr__(self) -> str:
        return self.name


def _axis_types(names: tuple, types: Any, name: str) -> tuple:
    """JAX's axis types of a mesh: one per axis (default `Auto`), a single `AxisType` taken as
    one, checked.

    Raises:
      TypeError: an axis type that is not an `AxisType`.
      ValueError: as many axis types as axis names, not.
    """
    types = (AxisType.Auto,) * len(names) if types is None else types
    types = tuple(types) if isinstance(types, (tuple, list)) else (types,)
    if not all(isinstance(t, AxisType) for t in types):
        raise TypeError(
            f"axis_types passed to {name} must be of type `jax.sharding.AxisType`. Got {types} "
            f"of type {tuple(type(t) for t in types)}"
        )
    if len(types) != len(names):
        raise ValueError(
            "Number of axis names should match the number of axis_types. Got "
            f"axis_names={names} and axis_types={types}\nGive one AxisType per mesh axis."
        )
    return types


class AbstractMesh:
    """A mesh's shape, axis names and types without devices (`jax.sharding.AbstractMesh`)."""

    def __init__(
        self,
        axis_sizes: Sequence[int],
        axis_names: str | Sequence[str],
        axis_types: AxisType | Sequence[AxisType] | None = None,
    ) -> None:
        self.axis_sizes = tuple(int(s) for s in axis_sizes)
        self.axis_names = (axis_names,) if isinstance(axis_names, str) else tuple(axis_names)
        self.axis_types = _axis_types(self.axis_names, axis_types, type(self).__name__)

    @property
    def shape(self) -> collections.OrderedDict:
        return collections.OrderedDict(zip(self.axis_names, self.axis_sizes))

    @property
    def shape_tuple(self) -> tuple:
        return tuple(zip(self.axis_names, self.axis_sizes))

    @property
    def size(self) -> int:
        """The number of devices (0 for the empty mesh, as JAX's)."""
        return int(np.prod(self.axis_sizes)) if self.axis_names else 0

    @property
    def empty(self) -> bool:
        return not self.axis_names

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AbstractMesh) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple:
        return (self.axis_sizes, self.axis_names, self.axis_types)

    def __repr__(self) -> str:
        if self.empty:
            return "AbstractMesh((), axis_types=())"
        axes = ", ".join(f"{n!r}: {s}" for n, s in zip(self.axis_names, self.axis_sizes))
        return (
            f"AbstractMesh({axes}, axis_types={self.axis_types!r}, device_kind=cpu, "
            "num_cores=None, platform=cpu)"
        )

    def update_axis_types(self, types: dict[str, AxisType]) -> AbstractMesh:
        """This mesh with the axes named in `types` of those types (JAX's
        `AbstractMesh.update_axis_types`).

        Args:
          types: mesh axis name -> its new `AxisType`.

        Returns:
          The `AbstractMesh`.
        """
        return AbstractMesh(
            self.axis_sizes,
            self.axis_names,
            [types.get(n, t) for n, t in zip(self.axis_names, self.axis_types)],
        )

    @property
    def explicit_axes(self) -> tuple[str, ...]:
        """The names of the `Explicit` axes, the ones array types mention."""
        return self._axes_of(AxisType.Explicit)

    @property
    def auto_axes(self) -> tuple[str, ...]:
        """The names of the `Auto` axes."""
        return self._axes_of(AxisType.Auto)

    @property
    def manual_axes(self) -> tuple[str, ...]:
        """The names of the `Manual` axes."""
        return self._axes_of(AxisType.Manual)

    def _axes_of(self, kind: AxisType) -> tuple[str, ...]:
        return tuple(n for n, t in zip(self.axis_names, self.axis_types) if t is kind)


class Mesh(AbstractMesh):
    """Devices laid out in an n-d array with named axes (`jax.sharding.Mesh`).

    Args:
      devices: an n-d array (or nested sequence) of devices, e.g. from
        `core.experimental.mesh_utils.create_device_mesh`.
      axis_names: one name per axis of `devices` (a single string for a 1-d mesh).
      axis_types: one `AxisType` per axis (default: all `AxisType.Auto`).

    Example::

        >>> devices = core.experimental.mesh_utils.create_device_mesh((2, 1), core.devices()[:2])
        >>> Mesh(devices, ("data", "model")).shape
        OrderedDict([('data', 2), ('model', 1)])
    """

    def __init__(
        self,
        devices: Any,
        axis_names: str | Sequence[str],
        axis_types: Sequence[AxisType] | None = None,
    ) -> None:
        if isinstance(axis_names, str):
            axis_names = (axis_names,)
        if any(n is None for n in axis_names):
            raise ValueError(  # JAX's words, then the fix
                f"Mesh axis names cannot be None. Got: {tuple(axis_names)}\nName every axis."
            )
        arr = np.empty(np.shape(devices), dtype=object)
        arr[...] = devices if isinstance(devices, np.ndarray) else _nested_list(devices)
        if arr.ndim != len(axis_names):
            raise MeshShapeError(
                "Mesh requires the ndim of its first argument (`devices`) to equal the length "
                f"of its second argument (`axis_names`), but got devices.ndim == {arr.ndim} "
                f"and len(axis_names) == {len(axis_names)}."
            )
        if len(set(axis_names)) != len(axis_names):
            raise MeshShapeError(f"Mesh axis names must be distinct, got {tuple(axis_names)}.")
        super().__init__(arr.shape, axis_names, axis_types)
        self.devices = arr

    @property
    def device_ids(self) -> np.ndarray:
        """The ids of the devices, laid out like `devices`."""
        return np.vectorize(lambda d: d.id, otypes=[int])(self.devices)

    @property
    def local_devices(self) -> list:
        return list(self.devices.flat)

    @property
    def local_mesh(self) -> Mesh:
        return self

    @property
    def is_multi_process(self) -> bool:
        return False

    @property
    def abstract_mesh(self) -> AbstractMesh:
        return AbstractMesh(self.axis_sizes, self.axis_names, self.axis_types)

    @property
    def are_all_axes_auto(self) -> bool:
        return all(t is AxisType.Auto for t in self.axis_types)

    @property
    def are_all_axes_explicit(self) -> bool:
        return all(t is AxisType.Explicit for t in self.axis_types)

    def _key(self) -> tuple:
        # Computed once: computations on sharded arrays compare and hash their meshes.
        try:
            return self._cached_key
        except AttributeError:
            self._cached_key = (tuple(d.id for d in self.devices.flat), *super()._key())
            return self._cached_key

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Mesh) and self._key() == other._key())

    def __hash__(self) -> int:
        return hash(self._key())

    def __enter__(self) -> Mesh:
        _context.stack.append(_context.mesh)
        _context.mesh = self
        return self

    def __exit__(self, *exc: Any) -> None:
        _context.mesh = _context.stack.pop()

    def __repr__(self) -> str:
        if self.empty:
            return "Mesh()"
        return (
            f"Mesh(axis_sizes={self.axis_sizes}, axis_names={self.axis_names}, "
            f"axis_types={self.axis_types!r})"
        )

    def __str__(self) -> str:  # JAX's: `Mesh('a': 2, 'b': 4, axis_types=(Auto, Auto))`
        if self.empty:
            return "Mesh()"
        axes = ", ".join(f"{n!r}: {s}" for n, s in zip(self.axis_names, self.axis_sizes))
        return f"Mesh({axes}, axis_types={self.axis_types!r})"


def _nested_list(devices: Any) -> Any:
    if isinstance(devices, (list, tuple)):
        return [_nested_list(d) for d in devices]
    return devices


def create_device_mesh(
    mesh_shape: Sequence[int],
    devices: Sequence[Any] | None = None,
    *,
    contiguous_submeshes: bool = False,
    allow_split_physical_axes: bool = False,
) -> np.ndarray:
    """The devices laid out in an array of shape `mesh_shape`, for `Mesh(...)`.

    CPU devices have no physical topology, so they are laid out in order (as JAX does for CPU).

    Args:
      mesh_shape: the mesh's shape; its product must be the number of devices.
      devices: the devices (default: `core.devices()`).
      contiguous_submeshes: accepted for compatibility (no topology on the CPU).
      allow_split_physical_axes: accepted for compatibility.

    Returns:
      An object array of devices of shape `mesh_shape`.
    """
    if devices is None:
        devices = all_devices()
    mesh_shape = tuple(int(d) for d in mesh_shape)
    if int(np.prod(mesh_shape)) != len(devices):
        raise MeshShapeError(
            f"Number of devices {len(devices)} must equal the product of mesh_shape {mesh_shape}."
        )
    arr = np.empty(len(devices), dtype=object)
    arr[:] = list(devices)
    return arr.reshape(mesh_shape)


def make_mesh(
    axis_shapes: Sequence[int],
    axis_names: Sequence[str],
    axis_types: Sequence[AxisType] | None = None,
    *,
    devices: Sequence[Any] | None = None,
) -> Mesh:
    """A mesh of shape `axis_shapes` over the devices (`jax.make_mesh`).

    Args:
      axis_shapes: the size of every mesh axis; the first `prod(axis_shapes)` devices are
        used, as in JAX.
      axis_names: one name per axis.
      axis_types: one `AxisType` per axis (default: all `AxisType.Explicit`, as in JAX).
      devices: the devices to use (default: `core.devices()`).

    Returns:
      The `Mesh`.

    Raises:
      MeshShapeError: the mesh needs more devices than there are.
    """
    devices = list(all_devices() if devices is None else devices)
    size = int(np.prod([int(d) for d in axis_shapes]))
    if size > len(devices):
        error = MeshShapeError(
            f"Number of devices {len(devices)} must be >= the product of mesh_shape "
            f"{tuple(int(d) for d in axis_shapes)}"
        )
        error.add_note("Give a mesh shape of at most core.device_count() devices.")
        raise error
    if axis_types is None:
        axis_types = (AxisType.Explicit,) * len(axis_names)
    return Mesh(create_device_mesh(axis_shapes, devices[:size]), axis_names, axis_types)


class _MeshContext(threading.local):
    def __init__(self) -> None:
        self.mesh: Mesh | None = None
        self.stack: list[Mesh | None] = []
        self.abstract: AbstractMesh | None = None  # `use_abstract_mesh`'s, over `mesh`


_context = _MeshContext()
_EMPTY = Mesh(np.empty((), dtype=object), ())


def get_mesh() -> Mesh:
    """The current mesh (`jax.sharding.get_mesh`); an empty `Mesh()` when none is set."""
    return _context.mesh if _context.mesh is not None else _EMPTY


def get_abstract_mesh() -> AbstractMesh:
    """The current mesh without devices (`jax.sharding.get_abstract_mesh`): the current mesh's,
    or the one a `use_abstract_mesh` block gives its axes' types by."""
    if _context.abstract is not None:
        return _context.abstract
    return get_mesh().abstract_mesh


@contextlib.contextmanager
def use_abstract_mesh(mesh: AbstractMesh) -> Iterator[AbstractMesh]:
    """Context manager making `mesh` the current abstract mesh inside a block
    (`jax.sharding.use_abstract_mesh`): the current mesh's devices with other axis types (how
    `auto_axes` and `explicit_axes` switch axes between `Auto` and `Explicit`).

    Args:
      mesh: the abstract mesh; its axis names and sizes must be the current mesh's.

    Raises:
      MeshShapeError: its axes are not the current mesh's.
    """
    current = get_mesh()
    if current.shape_tuple != mesh.shape_tuple:
        raise MeshShapeError(
            f"use_abstract_mesh got {mesh}, whose axes are not those of the current mesh "
            f"{current}: enter the concrete mesh first with jax.set_mesh."
        )
    previous, _context.abstract = _context.abstract, mesh
    try:
        yield mesh
    finally:
        _context.abstract = previous


class set_mesh:  # noqa: N801  (JAX's name: a function-like context manager)
    """Sets the current mesh (`jax.set_mesh`); as a context manager, restores the previous one.

    Example::

        core.set_mesh(mesh)            # from now on
        with core.set_mesh(mesh):      # inside the block only
            y = core.device_put(x, core.sharding.PartitionSpec("data"))
    """

    def __init__(self, mesh: Mesh) -> None:
        if not isinstance(mesh, Mesh):
            raise TypeError(f"set_mesh expects a core.sharding.Mesh, got {type(mesh).__name__}.")
        self._previous = _context.mesh, _context.abstract
        _context.mesh, _context.abstract = mesh, None
        if not mesh.empty:  # computed results go on the mesh (`core.committed.follow`)
            placement.committed_to_device = True

    def __enter__(self) -> Mesh:
        return _context.mesh

    def __exit__(self, *exc: Any) -> None:
        _context.mesh, _context.abstract = self._previous


@contextlib.contextmanager
def use_mesh(mesh: Mesh) -> Iterator[Mesh]:
    """Context manager setting the current mesh inside a block (`jax.sharding.use_mesh`)."""
    with set_mesh(mesh):
        yield mesh
