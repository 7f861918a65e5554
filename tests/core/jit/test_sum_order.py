"""`core.jit.sum_order`: which float sums `jit` compiles in XLA's windows, and their loop nests
(the bits against JAX's: tests/core/prims/test_sum_order.py)."""

from __future__ import annotations

import numpy as np
import pytest

from core.api import make_jaxpr
from core.jit import sum_order
from core.jit.codegen import compile_jaxpr
from core.prims import elementwise as ew
from core.prims import reductions
from core.prims.sum_order import window_sum

rng = np.random.default_rng(7)


# (shape, dtype, axes, whether XLA sums it with its own loops: a `reduce_sum_in_order`)
REWRITES = [
    ((100,), np.float32, (0,), True),
    ((63, 65), np.float32, (0, 1), True),
    ((64, 64), np.float32, (1,), False),  # 4096 elements: YNNPACK's
    ((64, 64), np.complex64, (1,), True),  # complex: XLA's loops at any size
    ((10, 3), np.int32, (0,), False),  # integers: any order gives the same sum
]


@pytest.mark.parametrize(("shape", "dtype", "axes", "windows"), REWRITES)
def test_which_sums_add_in_windows(shape, dtype, axes, windows):
    jaxpr = make_jaxpr(lambda x: reductions.reduce_sum(x, axes))(np.zeros(shape, dtype)).jaxpr
    (eqn,) = sum_order.in_xla_order(jaxpr.eqns)
    want = reductions.reduce_sum_in_order_p if windows else reductions.reduce_sum_p
    assert eqn.prim is want


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
