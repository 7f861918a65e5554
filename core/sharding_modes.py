"""Switching mesh axes between `Auto` and `Explicit` sharding for a function
(`jax.sharding.auto_axes`, `jax.sharding.explicit_axes`).

Over `Explicit` axes the sharding is part of an array's type (`core/sharding_types.py`) and
operations whose operands' shardings disagree raise (`core/sharding_propagation.py`); over
`Auto` axes the compiler decides. `auto_axes(f)` runs `f` with some axes of the current mesh
`Auto` (ops without an explicit sharding rule, or shardings the types forbid, work there) and
reshards its result by the `out_sharding` the caller gives; `explicit_axes(f)` runs `f` with
some axes `Explicit`, its arguments resharded by `in_sharding` first. Inside, the current
abstract mesh (`use_abstract_mesh`, `core/mesh.py`) has the new axis types; concrete
arguments are moved (without copying) onto the same devices' mesh with those types, so their
types follow them as JAX's `reshard` into the new mesh does, while their concrete sharding
(`x.sharding`) keeps every axis; what `auto_axes`' function traces under `jit` is exempt from
the Explicit checks of the axes it made `Auto` (`core/sharding_exemptions.py`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from core import tree_util
from core.array import Array
from core.errors import NoMeshError
from core.mesh import AbstractMesh, AxisType, Mesh, get_abstract_mesh, get_mesh, use_abstract_mesh
from core.named_sharding import NamedSharding, reshard
from core.sharding_base import placed
from core.sharding_exemptions import unchecked

Axes = str | tuple[str, ...] | None


def _typed_like(tree: Any, mesh: AbstractMesh) -> Any:
    """The concrete arrays of `tree` placed over the mesh of the current devices with `mesh`'s
    axis types (their specs unchanged); other leaves as they are."""
    devices = get_mesh()
    typed = Mesh(devices.devices, devices.axis_names, mesh.axis_types)

    def leaf(x: Any) -> Any:
        sharding = getattr(x, "_sharding", None) if isinstance(x, Array) else None
        if not isinstance(sharding, NamedSharding) or not sharding.followed:
            return x
        if sharding.mesh.shape_tuple != typed.shape_tuple or sharding.mesh == typed:
            return x
        return placed(x, NamedSharding(typed, sharding.spec))

    return tree_util.tree_map(leaf, tree)


def _switched(axes: Axes, axis_type: AxisType) -> tuple[AbstractMesh, AbstractMesh]:
    """The current abstract mesh and that mesh with `axes` (all when None) of `axis_type`."""
    current = get_abstract_mesh()
    names = current.axis_names if axes is None else (axes,) if isinstance(axes, str) else axes
    return current, current.update_axis_types({n: axis_type for n in names})


def _sharding_kwarg(kwargs: dict, name: str, given: Any) -> Any:
    """The sharding given to the decorator, else popped from the call's keyword arguments."""
    if given is not None:
        return given
    if name not in kwargs:
        raise TypeError(f"Missing required keyword argument: '{name}'")
    return kwargs.pop(name)


def auto_axes(
    f: Callable | None = None, /, *, axes: Axes = None, out_sharding: Any = None
) -> Callable:
    """`f` run with mesh axes `axes` of the current mesh `Auto` (`jax.sharding.auto_axes`).

    Args:
      f: the function (omitted: returns a decorator).
      axes: the mesh axis names to make `Auto` (a name, a tuple, or None for all).
      out_sharding: how `f`'s result is resharded when it returns (a `PartitionSpec` over the
        current mesh, or a tree of them); None: the caller passes `out_sharding=` to each call.

    Returns:
      The wrapped function.
    """
    if f is None:
        return functools.partial(auto_axes, axes=axes, out_sharding=out_sharding)

    @functools.wraps(f)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        out = _sharding_kwarg(kwargs, "out_sharding", out_sharding)
        if get_mesh().empty:
            return f(*args, **kwargs)
        current, new = _switched(axes, AxisType.Auto)
        if current.axis_types == new.axis_types:
            return f(*args, **kwargs)
        made_auto = [n for n, t in zip(new.axis_names, new.axis_types) if t is AxisType.Auto]
        with use_abstract_mesh(new), unchecked(made_auto):
            result = f(*_typed_like(args, new), **kwargs)
        return reshard(result, out)

    return wrapped


def explicit_axes(
    f: Callable | None = None, /, *, axes: Axes = None, in_sharding: Any = None
) -> Callable:
    """`f` run with mesh axes `axes` of the current mesh `Explicit`, its arguments resharded by
    `in_sharding` first (`jax.sharding.explicit_axes`).

    Args:
      f: the function (omitted: returns a decorator).
      axes: the mesh axis names to make `Explicit` (a name, a tuple, or None for all).
      in_sharding: how the arguments are resharded (a `PartitionSpec` over the current mesh, or
        a tree of them); None: the caller passes `in_sharding=` to each call.

    Returns:
      The wrapped function.

    Raises:
      NoMeshError: no mesh is set.
    """
    if f is None:
        return functools.partial(explicit_axes, axes=axes, in_sharding=in_sharding)

    @functools.wraps(f)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        spec = _sharding_kwarg(kwargs, "in_sharding", in_sharding)
        if get_mesh().empty:
            raise NoMeshError("explicit_axes")
        current, new = _switched(axes, AxisType.Explicit)
        with use_abstract_mesh(new):
            result = f(*_typed_like(reshard(args, spec), new), **kwargs)
        return _typed_like(result, current)

    return wrapped
