"""conv_general_dilated (a table of layouts, strides, paddings, dilations and groups, with both
gradients) and pooling (reduce_window sum/max/min and the selections behind max-pool gradients)
under `jit` (numba) against the numpy backend."""

import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
from core import lax
from tests.core.jit.backends import compare

rng = np.random.RandomState(0)


def _rand(*shape):
    return rng.standard_normal(shape).astype(np.float32)


# (lhs shape, rhs shape, kwargs of lax.conv_general_dilated)
CONVS = {
    "nhwc_same": (
        (2, 6, 5, 3),
        (3, 3, 3, 4),
        dict(window_strides=(1, 1), padding="SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
    ),
    "nchw_strided_atrous": (
        (2, 3, 9, 8),
        (4, 3, 2, 3),
        dict(
            window_strides=(2, 3),
            padding=((1, 2), (0, 1)),
            rhs_dilation=(2, 1),
            dimension_numbers=("NCHW", "OIHW", "NCHW"),
        ),
    ),
    "nwc_lhs_dilated_negative_pad": (
        (2, 7, 2),
        (3, 2, 4),
        dict(
            window_strides=(1,),
            padding=((2, -1),),
            lhs_dilation=(2,),
            dimension_numbers=("NWC", "WIO", "NWC"),
        ),
    ),
    "feature_groups": (
        (2, 5, 5, 4),
        (2, 2, 2, 6),
        dict(
            window_strides=(1, 2),
            padding="VALID",
            feature_group_count=2,
            dimension_numbers=("NHWC", "HWIO", "NHWC"),
        ),
    ),
    "depthwise_mixed_layouts": (
        (3, 3, 6, 5),
        (3, 3, 1, 6),
        dict(
            window_strides=(1, 1),
            padding="SAME",
            feature_group_count=3,
            dimension_numbers=("NCHW", "HWIO", "NHWC"),
        ),
    ),
    "batch_groups": (
        (4, 5, 5, 2),
        (2, 2, 2, 6),
        dict(
            window_strides=(1, 1),
            padding="VALID",
            batch_group_count=2,
            dimension_numbers=("NHWC", "HWIO", "NHWC"),
        ),
    ),
    "one_input_channel": (
        (3, 8, 7, 1),
        (3, 3, 1, 5),
        dict(window_strides=(1, 1), padding="SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
    ),
    "more_inputs_than_outputs_strided": (
        (2, 6, 9, 8),
        (2, 6, 3, 3),
        dict(
            window_strides=(2, 1),
            padding=((1, 0), (2, 1)),
            rhs_dilation=(1, 2),
            dimension_numbers=("NCHW", "OIHW", "NCHW"),
        ),
    ),
    "ndhwc_3d": (
        (1, 4, 5, 4, 2),
        (2, 3, 2, 2, 3),
        dict(
            window_strides=(1, 2, 1), padding="SAME", dimension_numbers=("NDHWC", "DHWIO", "NDHWC")
        ),
    ),
}


@pytest.mark.parametrize("name", list(CONVS))
def test_conv_and_its_gradients(name):
    xs, ws, kw = CONVS[name]
    x, w = _rand(*xs), _rand(*ws)
    ct = _rand(*lax.conv_general_dilated(x, w, **kw).shape)

    def f(x, w):
        out = lax.conv_general_dilated(x, w, **kw)
        grads = core.grad(
            lambda a, b: jnp.sum(lax.conv_general_dilated(a, b, **kw) * ct), argnums=(0, 1)
        )(x, w)
        return out, grads

    compare(f, x, w, rtol=1e-4, atol=1e-4)


def test_conv_transpose_and_integer_conv():
    x, w = _rand(2, 5, 5, 3), _rand(3, 3, 3, 2)
    xi, wi = (x * 4).astype(np.int32), (w * 4).astype(np.int32)

    def f(x, w, xi, wi):
        dn = ("NHWC", "HWIO", "NHWC")
        return (
            lax.conv_transpose(x, w, (2, 2), "SAME", dimension_numbers=dn),
            lax.conv_general_dilated(xi, wi, (1, 1), "SAME", dimension_numbers=dn),
        )

    compare(f, x, w, xi, wi)


def test_big_batch_is_chunked():
    """More patches than one buffer holds: the chunk loop and its last partial chunk."""
    x, w = _rand(70, 16, 16, 8), _rand(3, 3, 8, 4)
    dn = ("NHWC", "HWIO", "NHWC")

    def f(x, w):
        return core.grad(
            lambda a, b: jnp.sum(
                lax.conv_general_dilated(a, b, (1, 1), "SAME", dimension_numbers=dn) ** 2
            ),
            argnums=(0, 1),
        )(x, w)

    compare(f, x, w, rtol=1e-4, atol=1e-3)


def test_output_side_chunks():
    """More input than output features: products of the input rows summed at the output
    positions, over several chunks of the batch and a partial last one."""
    x, w = _rand(40, 12, 12, 8), _rand(3, 3, 8, 2)
    dn = ("NHWC", "HWIO", "NHWC")

    def f(x, w):
        return lax.conv_general_dilated(
            x, w, (1, 1), ((1, 1), (0, 2)), rhs_dilation=(2, 1), dimension_numbers=dn
        )

    compare(f, x, w, rtol=1e-4, atol=1e-4)


def pools(x):
    """nn pooling layers, lax.reduce_window with padding/dilations, and their gradients."""

    def loss(x):
        a = nn.avg_pool(x, (2, 2), (2, 2))
        b = nn.max_pool(x, (3, 3), (2, 1), padding="SAME")
        c = nn.pooling.min_pool(x, (2, 2), padding=((1, 0), (0, 1)))
        d = lax.reduce_window(
            x[0, :, :, 0],
            0.0,
            lax.add,
            (2, 3),
            (1, 2),
            ((1, 1), (0, 2)),
            base_dilation=(2, 1),
            window_dilation=(1, 2),
        )
        e = lax.reduce_window(x[:, 0, 0, :], -jnp.inf, lax.max, (2, 2), (1, 1), "VALID")
        return jnp.sum(a**2) + jnp.sum(jnp.sin(b)) + jnp.sum(c**3) + jnp.sum(d**2) + jnp.sum(e)

    return loss(x), core.grad(loss)(x)


def test_pooling_and_gradients():
    compare(pools, _rand(2, 7, 6, 3).astype(np.float64))


def test_select_and_gather_under_jvp():
    x, t = _rand(2, 6, 6, 2), _rand(2, 6, 6, 2)

    def f(x, t):
        return core.jvp(lambda v: nn.max_pool(v, (2, 2), (2, 2)), (x,), (t,))

    compare(f, x, t)
