"""`core.experimental.shard_map` (`jax.experimental.shard_map`): the older spelling of
`core.shard_map`, with positional `mesh`, `in_specs`, `out_specs` and `check_rep`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.mesh import Mesh
from core.shard_map import shard_map as _shard_map


def shard_map(
    f: Callable,
    mesh: Mesh,
    in_specs: Any,
    out_specs: Any,
    check_rep: bool = True,
    auto: Any = frozenset(),
) -> Callable:
    """`core.shard_map(f, mesh=mesh, in_specs=in_specs, out_specs=out_specs,
    check_vma=check_rep)`; `auto` (mesh axes left to the compiler) must be empty.

    Args:
      f: the per-block function.
      mesh: the mesh.
      in_specs: the inputs' `PartitionSpec`s (a tree prefix of the argument tuple).
      out_specs: the outputs' `PartitionSpec`s (a tree prefix of the output).
      check_rep: require outputs to be the same along mesh axes their spec leaves out.
      auto: mesh axes not mapped over (only the empty set is supported).

    Returns:
      The mapped function.
    """
    axis_names = frozenset(mesh.axis_names) - frozenset(auto)
    return _shard_map(
        f,
        mesh=mesh,
        in_specs=in_specs,
        out_specs=out_specs,
        check_vma=check_rep,
        axis_names=axis_names,
    )
