"""Collectives over named axes: psum, pmean, pmax, pmin, all_gather, axis_index, ppermute,
all_to_all, psum_scatter, and shard_map's pvary and psum_invariant.

A name is bound by `vmap(f, axis_name="i")`, by `pmap`, or by `shard_map`'s mesh axes: inside,
`psum(x, "i")` sums `x` over the axis and gives every element the result. The package holds one
concept a module, bottom to top:

* `names`: an axis name's size (`axis_size`) and the trace that binds it;
* `primitives`: psum, pmax, pmin, all_gather and axis_index, the primitives with lowerings of
  their own, and their transformation rules;
* `varying`: pvary and psum_invariant, the primitives of shard_map's `check_vma` types;
* `groups`: `axis_index_groups`, and an element's own slice of a gathered axis;
* `wrappers`: the `lax` functions over the primitives (pytrees, constants, packed exchanges);
* `composed`: collectives numbax computes from the others (`_composed_collective`), and
  `permutes` (ppermute, pshuffle, pbroadcast), `alltoall` (all_to_all, pswapaxes) and
  `scatter` (psum_scatter) built on it.

This module re-exports their public names: `core.prims.collectives` is the import path the
rest of numbax uses (`core.lax` re-exports the functions).
"""

from core.prims.collectives.alltoall import all_to_all, all_to_all_p, pswapaxes
from core.prims.collectives.names import axis_size
from core.prims.collectives.permutes import pbroadcast, ppermute, ppermute_p, pshuffle
from core.prims.collectives.primitives import (
    all_gather_p,
    axis_index_p,
    pmax_p,
    pmin_p,
    psum_axes_p,
    psum_p,
)
from core.prims.collectives.scatter import psum_scatter, reduce_scatter_p
from core.prims.collectives.varying import pcast, psum_invariant_p, pvary_p
from core.prims.collectives.wrappers import (
    PACK_MAX,
    all_gather,
    axis_index,
    pmax,
    pmean,
    pmin,
    psum,
)

__all__ = [
    "PACK_MAX",
    "all_gather",
    "all_gather_p",
    "all_to_all",
    "all_to_all_p",
    "axis_index",
    "axis_index_p",
    "axis_size",
    "pbroadcast",
    "pcast",
    "pmax",
    "pmax_p",
    "pmean",
    "pmin",
    "pmin_p",
    "ppermute",
    "ppermute_p",
    "pshuffle",
    "psum",
    "psum_p",
    "psum_axes_p",
    "psum_invariant_p",
    "psum_scatter",
    "pswapaxes",
    "pvary_p",
    "reduce_scatter_p",
]
