"""`core.jit.sum_order`: which float sums `jit` compiles in XLA's windows, and their loop nests
(the bits against JAX's: tests/core/prims/test_sum_order.py)."""

from __future__ import annotations

import numpy as np
import pytest

import core
from core.api import make_jaxpr
from core.jit import loops, sum_order
from core.jit.codegen import compile_jaxpr
from core.prims import elementwise as ew
from core.prims import reductions
from core.prims.sum_order import window_sum, ynn_sum

rng = np.random.default_rng(7)


# (shape, dtype, axes, the sum `jit` compiles: XLA's windows, YNNPACK's order, or any order)
REWRITES = [
    ((100,), np.float32, (0,), reductions.reduce_sum_in_order_p),
    ((63, 65), np.float32, (0, 1), reductions.reduce_sum_in_order_p),
    ((64, 64), np.float32, (1,), reductions.reduce_sum_ynn_p),  # 4096 elements: YNNPACK's
    ((64, 64), np.float64, (0,), reductions.reduce_sum_ynn_p),
    ((4096, 1), np.float32, (1,), reductions.reduce_sum_in_order_p),  # nothing reduced
    ((64, 64), np.complex64, (1,), reductions.reduce_sum_in_order_p),  # complex: XLA's loops
    ((10, 3), np.int32, (0,), reductions.reduce_sum_p),  # integers: any order, the same sum
    ((128, 255), np.float32, (0,), reductions.reduce_sum_ynn_p),  # under `_ynn_limit`
    ((128, 256), np.float32, (0,), reductions.reduce_sum_ynn_p),  # 256 per leading index
    ((32, 1024), np.float32, (0,), reductions.reduce_sum_p),  # both: threaded
    ((32, 2, 2, 256), np.float32, (0, 1, 2), reductions.reduce_sum_p),
    ((64, 1023), np.float32, (0,), reductions.reduce_sum_ynn_p),
    ((8, 2048), np.float32, (0,), reductions.reduce_sum_ynn_p),  # under `_ynn_limit`
    ((40000,), np.float32, (0,), reductions.reduce_sum_ynn_p),  # one element per index
    ((384, 640), np.float32, (1,), reductions.reduce_sum_p),  # rows: threaded by the total
    ((2, 65536), np.float64, (1,), reductions.reduce_sum_p),
]


@pytest.mark.parametrize(("shape", "dtype", "axes", "prim"), REWRITES)
def test_which_order_a_sum_compiles_in(shape, dtype, axes, prim):
    jaxpr = make_jaxpr(lambda x: reductions.reduce_sum(x, axes))(np.zeros(shape, dtype)).jaxpr
    (eqn,) = sum_order.in_xla_order(jaxpr.eqns)
    assert eqn.prim is prim


# the models' sums over the batch (bench/compile.py) that XLA hands to YNNPACK, per example:
# (shape without the batch, reduced axes); a Dense layer's bias gradient, BatchNorms', a
# convolution's, a loss over everything
PER_EXAMPLE = [
    ((256,), (0,)),
    ((2, 2, 256), (0, 1, 2)),
    ((4, 4, 128), (0, 1, 2)),
    ((14, 14, 64), (0, 1, 2)),
    ((1, 1, 512), (0, 1, 2)),
    ((1000,), (0, 1)),
]


@pytest.mark.parametrize(("example", "axes"), PER_EXAMPLE)
def test_halving_a_batch_of_64_or_more_keeps_a_sums_order(example, axes):
    """A second batch size compiles the first one's shape-generic kernels only if its sums
    have the first's loop nests (`sum_order._threaded`)."""
    prims = set()
    for batch in (32, 64, 128, 256, 512):
        x = np.zeros((batch, *example), np.float32)
        jaxpr = make_jaxpr(lambda x: reductions.reduce_sum(x, axes))(x).jaxpr
        (eqn,) = sum_order.in_xla_order(jaxpr.eqns)
        prims.add(eqn.prim)
    assert len(prims) == 1


# (shape, reduced axes): kept axes outside, inside and on both sides of the reduced ones,
# one and two passes of windows, several reduced axes
NESTS = [
    ((100,), (0,)),
    ((3, 100, 5), (1,)),
    ((2, 1100), (1,)),
    ((1100, 2), (0,)),
    ((3, 7, 40), (0, 2)),
    ((40, 50), (0, 1)),
    ((5, 33, 3, 7), (1, 3)),
]


@pytest.mark.parametrize(("shape", "axes"), NESTS)
def test_a_sum_in_windows_stays_fused_and_adds_in_xlas_order(shape, axes):
    x = (rng.standard_normal(shape) * 1e3).astype(np.float32)
    closed = make_jaxpr(lambda x: reductions.reduce_sum(ew.mul(x, x), axes))(x)
    f = compile_jaxpr(closed.jaxpr)
    assert "rt.pad" not in f.source and "vm.radd" not in f.source
    assert f.source.count("rt.ld(a0,") == 1  # the product is computed in the sum's loops
    np.testing.assert_array_equal(f(x)[0], window_sum(x * x, axes))


# (shape, reduced axes, dtype): runs of the last axes (one tile, several, tiles of whole rows,
# a partial last four), rows of kept columns (tiled too), loops around them, size-1 axes
YNN_NESTS = [
    ((5000,), (0,), np.float32),
    ((40000,), (0,), np.float64),
    ((64, 100), (1,), np.float32),
    ((4096, 10), (0, 1), np.float32),
    ((3, 9, 700), (0, 2), np.float64),
    ((300, 128), (0,), np.float64),
    ((2000, 20), (0,), np.float32),
    ((16, 16, 32), (0, 1), np.float32),
    ((64, 1, 1, 128), (0, 1, 2), np.float32),
]


@pytest.mark.parametrize(("shape", "axes", "dtype"), YNN_NESTS)
def test_a_sum_in_ynnpacks_order_stays_fused_and_adds_in_its_order(shape, axes, dtype, monkeypatch):
    monkeypatch.setattr(loops, "PARALLEL_SIZE", 1 << 62)  # one-thread loops: every size's
    x = (rng.standard_normal(shape) * np.exp2(rng.integers(-12, 12, shape))).astype(dtype)
    with core.enable_x64(True):
        closed = make_jaxpr(lambda x: reductions.reduce_sum(ew.mul(x, x), axes))(x)
    eqns = sum_order.in_xla_order(closed.jaxpr.eqns)
    assert eqns[-1].prim is reductions.reduce_sum_ynn_p
    closed.jaxpr.eqns[:] = eqns
    f = compile_jaxpr(closed.jaxpr)
    assert "vm.radd" not in f.source
    assert f.source.count("rt.ld(a0,") > 1  # the product is computed in the sum's loops
    out = f(x)[0]
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, ynn_sum(x * x, axes))
