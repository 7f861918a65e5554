"""Numba lowering of `core.prims.rng_bit_generator`.

`rng_bit_generator` fills a flat array of its output dtype with the runtime's loops over the
Philox or Threefry hash (`rt.rbg_philox`, `rt.rbg_threefry`), which also return the new key.
Threefry's halved axis is chosen on the concrete shape, and its sizes are written through
`ctx.out_shape`, so a shape-generic kernel serves only shapes that halve along the same axis.
`rng_uniform` is a host call of its `impl` with a counter of its own (`RngSite`): each compiled
program continues its own stream, as an XLA executable does.
"""

from __future__ import annotations

import math

import numpy as np

from core.backends.numba.registry import Kernel, register_lowering
from core.backends.numba.source import alloc, reshape
from core.prims.options import RandomAlgorithm
from core.prims.rng_bit_generator import (
    RngSite,
    rng_bit_generator_p,
    rng_uniform_p,
    threefry_split,
)


def _rbg_lowering(ctx, eqn):
    shape = ctx.out_shape(1)
    bits = ctx.assign("b", alloc((math.prod(shape),), eqn.params["dtype"]))
    key = ctx.array(0)
    if eqn.params["algorithm"] == RandomAlgorithm.RNG_THREE_FRY:
        outer, nd, inner = threefry_split(shape, ctx.out_avals[1].shape)
        new_key = ctx.assign("k", f"rt.rbg_threefry({key}, {bits}, {outer}, {nd}, {inner})")
    else:  # RNG_DEFAULT is Philox on CPU
        new_key = ctx.assign("k", f"rt.rbg_philox({key}, {bits})")
    out = ctx.assign("b", reshape(bits, shape)) if shape else f"{bits}[0]"
    return [new_key, out]


register_lowering(rng_bit_generator_p, Kernel(_rbg_lowering))


def _rng_uniform_lowering(ctx, eqn):
    site = RngSite()
    dtype = ctx.in_avals[0].dtype

    def draw(arrays: list) -> list:
        a, b = (np.asarray(x, dtype) for x in arrays)
        return [rng_uniform_p.impl(a, b, shape=eqn.params["shape"], site=site)]

    return ctx.host_call(site, draw)


register_lowering(rng_uniform_p, Kernel(_rng_uniform_lowering))
