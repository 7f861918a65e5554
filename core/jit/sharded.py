"""`jit(f, in_shardings=..., out_shardings=...)`: the arguments and results placed by shardings.

numbax computes a jitted function on one thread, so shardings do not split the program; as in
JAX they are checked against the arrays (unknown mesh axes, rank, sizes not divisible) and the
results carry `out_shardings` (`y.sharding`). The wrapper costs one placement per call and is
only used when shardings are given; plain `jit` keeps its fast path.
"""

from __future__ import annotations

from typing import Any

from core.jit.api import Jitted
from core.named_sharding import place


class ShardedJitted(Jitted):
    """A `Jitted` whose dynamic positional arguments are placed by `in_shardings` (one
    sharding, or a tree prefix of them) and whose outputs are placed by `out_shardings`."""

    def __init__(self, *args: Any, in_shardings: Any, out_shardings: Any) -> None:
        super().__init__(*args)
        self._in_shardings = in_shardings
        self._out_shardings = out_shardings

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._in_shardings is not None:
            dynamic = [i for i in range(len(args)) if i not in self._static_argnums]
            placed = place(tuple(args[i] for i in dynamic), self._in_shardings, "jit in_shardings")
            args = list(args)
            for i, value in zip(dynamic, placed):
                args[i] = value
        out = super().__call__(*args, **kwargs)
        if self._out_shardings is None:
            return out
        return place(out, self._out_shardings, "jit out_shardings")
