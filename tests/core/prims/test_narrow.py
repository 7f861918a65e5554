"""The compiler's narrow-float primitives (core/prims/narrow.py) batch: the compiler's scan
motion vectorizes a widened bfloat16 scan body over its iterations (a gradient through a
bfloat16 layer stack under `jit` crashed on the missing rules)."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.prims.narrow import round_bfloat16_p, round_float16_p, rounded_reduce_p


@pytest.mark.parametrize(
    "prim, dtype", [(round_bfloat16_p, jnp.bfloat16), (round_float16_p, jnp.float16)]
)
def test_roundings_batch_elementwise(prim, dtype):
    x = np.linspace(-3.0, 3.0, 24, dtype=np.float32).reshape(2, 3, 4) / 7
    out = core.vmap(prim.bind, in_axes=1)(x)
    np.testing.assert_array_equal(out, np.moveaxis(x, 1, 0).astype(dtype).astype(np.float32))


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_rounded_reduce_batches_over_any_axis(axis):
    x = (np.arange(60, dtype=np.float32).reshape(3, 4, 5) * 0.173).astype(jnp.bfloat16)
    x = x.astype(np.float32)
    out = core.vmap(
        lambda a: rounded_reduce_p.bind(a, dtype=np.dtype(jnp.bfloat16), op="add"), in_axes=axis
    )(x)
    each = [rounded_reduce_p.impl(np.take(x, i, axis), dtype=np.dtype(jnp.bfloat16), op="add")
            for i in range(x.shape[axis])]  # fmt: skip
    np.testing.assert_array_equal(out, np.stack(each))


def test_gradient_of_a_bfloat16_layer_scan_under_jit():
    ws = (np.arange(48, dtype=np.float32).reshape(3, 4, 4) % 7 - 3) * 0.2
    x = np.array([[0.5, -1.0, 0.25, 2.0], [1.5, 0.75, -0.5, -2.0]], np.float32)

    def loss(ws, x):
        def body(h, w):
            return jnp.tanh(h @ w.astype(jnp.bfloat16)), None

        h, _ = lax.scan(body, x.astype(jnp.bfloat16), ws)
        return jnp.sum(h.astype(jnp.float32) ** 2)

    g = core.jit(core.grad(loss))(ws, x)
    assert g.dtype == jnp.float32 and g.shape == (3, 4, 4)
    # printed by JAX 0.10.2
    np.testing.assert_array_equal(
        g[0, 0], [-0.02099609375, 0.0205078125, 0.040771484375, 0.33203125]
    )
    assert float(g.sum()) == -0.832275390625
