"""The primitive set, one module per family; importing this package defines them all, and
gives the interpreters the few primitives they use (`core.ad_util.register_ops`)."""

from core import ad_util
from core.prims import (  # noqa: F401
    collectives,
    control_flow,
    conv,
    dynamic_slice,
    elementwise,
    fft,
    gather,
    indexing,
    linalg,
    prng,
    random_bits,
    reductions,
    rev,
    rng_bit_generator,
    shapes,
    sorting,
    windows,
)

ad_util.register_ops(
    add=elementwise.add,
    add_any=elementwise.add_any,
    full=shapes.full,
    broadcast_in_dim=shapes.broadcast_in_dim,
    transpose=shapes.transpose,
    reduce_sum=reductions.reduce_sum,
    reshape=shapes.reshape,
)
