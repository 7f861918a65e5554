"""Flax's type aliases (``flax.typing``): the names Flax code annotates with.

They are annotations only (nothing checks them at run time), spelled over numbax's types: an
``Array`` is a `core.Array` (or anything array-like), a ``PRNGKey`` a key array from
`core.random`. `In`/`Out` mark an axis as an input's or an output's (``nn.vmap``'s
``in_axes``), and ``MISSING`` is the sentinel for an argument not given.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

import core
from core import lax
from nn.frozen_dict import FrozenDict

Array = core.Array | Any
PRNGKey = core.Array
RNGSequences = dict[str, PRNGKey]
Dtype = str | type | Any
Shape = Sequence[int]


class Key(Hashable, Protocol):
    """A pytree path key: hashable and ordered."""

    def __lt__(self, value: Key, /) -> bool: ...


def is_key_like(x: Any) -> bool:
    """Whether `x` can be a path key (hashable, with `__lt__`)."""
    return hasattr(x, "__hash__") and hasattr(x, "__lt__")


Path = str
PathParts = tuple[Key, ...]
Leaf = Any

PrecisionLike = None | str | lax.Precision | tuple[str, str] | tuple[lax.Precision, lax.Precision]
DotGeneralT = Callable[..., Array]
ConvGeneralDilatedT = Callable[..., Array]
EinsumT = Callable[..., Array]
PaddingLike = str | int | Sequence[int | tuple[int, int]]
LaxPadding = str | Sequence[tuple[int, int]]
Initializer = Callable[..., Any]

Collection = Mapping[str, Any]
MutableCollection = dict[str, Any]
VariableDict = Mapping[str, Collection]
FrozenVariableDict = FrozenDict
MutableVariableDict = dict[str, MutableCollection]
PRNGFoldable = int | str

T = TypeVar("T")


@dataclasses.dataclass(frozen=True)
class In(Generic[T]):
    """An axis of the inputs (``nn.vmap(..., in_axes=In(0))``)."""

    axis: T


@dataclasses.dataclass(frozen=True)
class Out(Generic[T]):
    """An axis of the outputs."""

    axis: T


Axis = int | None
InOutAxis = Axis | In[Axis] | Out[Axis]
ScanAxis = int
InOutScanAxis = ScanAxis | In[ScanAxis] | Out[ScanAxis]
Axes = int | Sequence[int]

LogicalNames = tuple[str | None, ...]
AxisName = str | tuple[str, ...] | None
LogicalRules = Sequence[tuple[str, AxisName]]
ArrayPytree = Any
LogicalPartitionSpec = Any
LogicalPartitionSpecPytree = Any
PartitionSpecPytree = Any
Sharding = tuple[AxisName, ...]


class Missing:
    """The type of `MISSING`, the value of an argument that was not given."""


MISSING = Missing()
