"""``core.sharding``: the names of JAX's sharding API that make sense on one CPU device.

numbax runs on a single device, so there is nothing to shard; ``PartitionSpec`` exists so
that code which annotates arrays with mesh axes (Flax's ``nn.with_partitioning``,
``nn.get_partition_spec``, logical axis rules) runs unchanged and returns the same specs
as JAX. Meshes and ``NamedSharding`` are not provided.
"""

from __future__ import annotations

from typing import Any

__all__ = ["PartitionSpec"]


class _Unconstrained:
    def __repr__(self) -> str:
        return "UNCONSTRAINED"


class PartitionSpec(tuple):
    """How each axis of an array maps to mesh axes (``jax.sharding.PartitionSpec``).

    One entry per array axis: ``None`` (replicated), a mesh axis name, or a tuple of names.
    A tuple subclass that pytree utilities treat as a leaf, as in JAX.

    Example::

        >>> PartitionSpec("data", None)
        PartitionSpec('data', None)
    """

    UNCONSTRAINED = _Unconstrained()

    def __new__(cls, *partitions: Any) -> PartitionSpec:
        return super().__new__(cls, partitions)

    def __repr__(self) -> str:
        return f"PartitionSpec({', '.join(map(repr, self))})"

    def __reduce__(self) -> tuple:
        return (PartitionSpec, tuple(self))
