"""pmax and pmin with NaNs (core/prims/collectives/primitives.py): over a `shard_map`'s devices,
as over a `pmap`'s, XLA's CPU all-reduce skips NaNs (a NaN on every device gives -inf / inf);
under `vmap` the reduction propagates them. Expected values printed by JAX 0.10.2 (8 host
devices)."""

import numpy as np
import pytest

import core
from core import lax
from core.sharding import Mesh
from core.sharding import PartitionSpec as P

A = np.array([1, np.nan, 3, 0, -1, 2, 5, 4], np.float32)
B = np.array([1, np.nan, np.nan, np.nan, 3, 0, -1, 2], np.float32)
ONE_REAL = np.array([np.nan, 1, np.nan, np.nan, np.nan, np.nan, np.nan, np.nan], np.float32)


def _sm(body, x, out_spec, mesh_devices=4, jit=False):
    mesh = Mesh(core.devices()[:mesh_devices], ("i",))
    fn = core.shard_map(body, mesh=mesh, in_specs=P("i"), out_specs=out_spec)
    return np.asarray((core.jit(fn) if jit else fn)(x))


CASES = [  # (body, input, out_specs, jit, JAX 0.10.2's result)
    (lambda x: lax.pmax(x, "i"), A, P(), False, [5.0, 4.0]),
    (lambda x: lax.pmax(x, "i"), B, P(), False, [3.0, 2.0]),
    (lambda x: lax.pmin(x, "i"), B, P(), True, [-1.0, 0.0]),
    (lambda x: lax.pmin(x, "i"), np.full(8, np.nan, np.float32), P(), False, [np.inf, np.inf]),
    (lambda x: lax.pmax(x, "i"), ONE_REAL, P("i"), False, [-np.inf, 1.0] * 4),
    (lambda x: lax.pmax(x, "i"), np.arange(8), P(), False, [6, 7]),
]  # fmt: skip


@pytest.mark.parametrize(("body", "x", "spec", "jit", "expected"), CASES)
def test_shard_map_extrema_skip_nans(body, x, spec, jit, expected):
    np.testing.assert_array_equal(_sm(body, x, spec, jit=jit), expected)


def test_shard_map_pmax_over_eight_devices_skips_the_nan():
    out = _sm(lambda x: lax.pmax(x, "i"), A, P(), mesh_devices=8)
    np.testing.assert_array_equal(out, [5.0])  # JAX 0.10.2


def test_vmap_pmax_propagates_nans():
    out = core.vmap(lambda x: lax.pmax(x, "i"), axis_name="i")(A)
    assert np.isnan(np.asarray(out)).all()  # JAX 0.10.2: [nan ... nan]


def test_pmap_pmax_skips_nans():
    out = core.pmap(lambda x: lax.pmax(x, "i"), axis_name="i")(A)
    np.testing.assert_array_equal(np.asarray(out), [5.0] * 8)  # JAX 0.10.2
