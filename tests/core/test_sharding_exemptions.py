"""Blocks exempt from the Explicit sharding checks (`core/sharding_exemptions.py`): products
given an `out_sharding`, a gradient's transposed products (JAX gives them their primal's
sharding) and `auto_axes`, eagerly and under `jit`."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import AmbiguousContractionError
from core.sharding import AxisType, NamedSharding
from core.sharding import PartitionSpec as P
from core.sharding_exemptions import checked_axes, unchecked

AXES = frozenset({"X", "Y"})


def test_blocks_nest():
    assert checked_axes(AXES) == AXES
    with unchecked(["X"]):
        assert checked_axes(AXES) == {"Y"}
        with unchecked():
            assert checked_axes(AXES) == frozenset()
        assert checked_axes(AXES) == {"Y"}
    assert checked_axes(AXES) == AXES


def test_a_data_parallel_gradient_is_not_ambiguous():
    mesh = core.make_mesh((8,), ("batch",), axis_types=(AxisType.Explicit,))
    x = core.device_put(np.ones((16, 4), np.float32), NamedSharding(mesh, P("batch")))
    w = core.device_put(np.ones((4, 2), np.float32), NamedSharding(mesh, P()))

    def loss(w, x):
        return jnp.sum(jnp.dot(x, w) ** 2)

    with pytest.raises(AmbiguousContractionError):
        x.T @ x  # the contraction a gradient computes, written by hand
    for grad in (core.grad(loss), core.jit(core.grad(loss))):
        g = grad(w, x)
        np.testing.assert_allclose(g, np.full((4, 2), 128.0))
        assert g.sharding.spec == P(None, None)
