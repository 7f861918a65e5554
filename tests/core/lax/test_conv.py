"""conv_general_dilated / conv_transpose: values against a direct numpy loop and recorded JAX
values, gradients (orders 1 and 2), vmap against a loop, jit against eager."""

import numpy as np
import pytest

import core
from core import lax
from core.jit.errors import LoweringError
from core.test_util import check_grads

_rng = np.random.RandomState(0)


@pytest.fixture(autouse=True)
def x64():
    with core.enable_x64():
        yield


def reference_conv(x, w, strides, padding, lhs_dil, rhs_dil, groups):
    """Direct definition on NCHW / OIHW (2 spatial dims), one output tap at a time."""
    n, c, h, wd = x.shape
    xd = np.zeros((n, c, (h - 1) * lhs_dil[0] + 1, (wd - 1) * lhs_dil[1] + 1))
    xd[:, :, :: lhs_dil[0], :: lhs_dil[1]] = x
    (p0, p1), (q0, q1) = padding
    xp = np.pad(xd, ((0, 0), (0, 0), (max(p0, 0), max(p1, 0)), (max(q0, 0), max(q1, 0))))
    xp = xp[:, :, -min(p0, 0) : xp.shape[2] + min(p1, 0), -min(q0, 0) : xp.shape[3] + min(q1, 0)]
    o, i, kh, kw = w.shape
    eh, ew = (kh - 1) * rhs_dil[0] + 1, (kw - 1) * rhs_dil[1] + 1
    oh = (xp.shape[2] - eh) // strides[0] + 1
    ow = (xp.shape[3] - ew) // strides[1] + 1
    out = np.zeros((n, o, oh, ow))
    og = o // groups
    for f in range(o):
        g = f // og
        for a in range(oh):
            for b in range(ow):
                for u in range(kh):
                    for v in range(kw):
                        tap = xp[
                            :,
                            g * i : (g + 1) * i,
                            a * strides[0] + u * rhs_dil[0],
                            b * strides[1] + v * rhs_dil[1],
                        ]
                        out[:, f, a, b] += tap @ w[f, :, u, v]
    return out


# x shape (NCHW), w shape (OIHW), strides, padding, lhs_dilation, rhs_dilation, groups
CONFIGS = [
    ((2, 3, 6, 5), (4, 3, 3, 3), (1, 1), "VALID", (1, 1), (1, 1), 1),
    ((2, 3, 6, 5), (4, 3, 3, 2), (2, 1), "SAME", (1, 1), (1, 1), 1),
    ((1, 2, 7, 7), (3, 2, 3, 3), (2, 2), ((1, 2), (0, 1)), (1, 1), (1, 1), 1),
    ((1, 2, 7, 6), (3, 2, 2, 3), (1, 1), ((2, -1), (1, 1)), (1, 1), (2, 1), 1),
    ((2, 4, 5, 5), (6, 2, 3, 3), (1, 2), ((1, 1), (2, 0)), (1, 1), (1, 2), 2),
    ((1, 4, 4, 5), (4, 1, 2, 2), (1, 1), "SAME", (1, 1), (1, 1), 4),
    ((1, 2, 4, 3), (3, 2, 3, 3), (1, 1), ((2, 2), (1, 2)), (2, 3), (1, 1), 1),
]


def _pads(cfg):
    xs, ws, strides, padding, ld, rd, g = cfg
    if isinstance(padding, str):
        eff = [(k - 1) * d + 1 for k, d in zip(ws[2:], rd)]
        return lax.padtype_to_pads(xs[2:], eff, strides, padding)
    return padding


@pytest.mark.parametrize("cfg", CONFIGS, ids=str)
def test_values_match_direct_loop(cfg):
    xs, ws, strides, padding, ld, rd, g = cfg
    x, w = _rng.standard_normal(xs), _rng.standard_normal(ws)
    got = lax.conv_general_dilated(x, w, strides, padding, ld, rd, feature_group_count=g)
    want = reference_conv(x, w, strides, _pads(cfg), ld, rd, g)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    # The same convolution in NHWC / HWIO layout.
    nhwc = lax.conv_general_dilated(
        x.transpose(0, 2, 3, 1),
        w.transpose(2, 3, 1, 0),
        strides,
        padding,
        ld,
        rd,
        ("NHWC", "HWIO", "NHWC"),
        feature_group_count=g,
    )
    np.testing.assert_allclose(np.asarray(nhwc).transpose(0, 3, 1, 2), want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("cfg", CONFIGS, ids=str)
def test_grads(cfg):
    xs, ws, strides, padding, ld, rd, g = cfg
    x, w = _rng.standard_normal(xs), _rng.standard_normal(ws)

    def f(x, w):
        return lax.conv_general_dilated(x, w, strides, padding, ld, rd, feature_group_count=g)

    check_grads(f, (x, w), order=2)


def test_batch_group_count_grads():
    x, w = _rng.standard_normal((4, 2, 5, 5)), _rng.standard_normal((6, 2, 2, 2))
    f = lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "VALID", batch_group_count=2)  # noqa
    assert f(x, w).shape == (2, 6, 4, 4)
    check_grads(f, (x, w), order=2)


@pytest.mark.parametrize("in_axes", [(0, 0), (0, None), (None, 0), (2, 1)])
@pytest.mark.parametrize("groups", [1, 2])
def test_vmap_matches_loop(in_axes, groups):
    x, w = _rng.standard_normal((3, 2, 4, 6, 5)), _rng.standard_normal((3, 4, 4 // groups, 3, 2))
    x = np.moveaxis(x, 0, in_axes[0]) if in_axes[0] is not None else x[0]
    w = np.moveaxis(w, 0, in_axes[1]) if in_axes[1] is not None else w[0]

    def f(x, w):
        return lax.conv_general_dilated(
            x, w, (1, 2), "SAME", rhs_dilation=(2, 1), feature_group_count=groups
        )

    got = core.vmap(f, in_axes=in_axes)(x, w)
    for i in range(3):
        xi = x if in_axes[0] is None else np.take(x, i, in_axes[0])
        wi = w if in_axes[1] is None else np.take(w, i, in_axes[1])
        np.testing.assert_allclose(got[i], f(xi, wi), rtol=1e-10)


_X = np.sin(np.arange(50, dtype=np.float32)).reshape(1, 5, 5, 2)
_W = np.cos(np.arange(36, dtype=np.float32)).reshape(3, 3, 2, 2)
_X2 = np.sin(np.arange(100, dtype=np.float32) * 0.7).reshape(1, 4, 5, 5)
_W2 = np.cos(np.arange(32, dtype=np.float32) * 0.3).reshape(4, 2, 2, 2)


def test_matches_recorded_jax_values():
    # Recorded with jax 0.7 (`/opt/ref`): lax.conv_general_dilated(_X, _W, (2, 2), 'SAME',
    # dimension_numbers=('NHWC', 'HWIO', 'NHWC')).ravel()
    want = [
        0.350856,
        -0.621628,
        -0.126217,
        -0.147092,
        -0.819337,
        0.07694,
        0.141978,
        0.072853,
        0.149683,
        0.211062,
        -0.150047,
        -0.204188,
        -1.021934,
        -0.499524,
        -0.035161,
        0.112933,
        0.891538,
        0.904777,
    ]
    with core.enable_x64(False):
        got = lax.conv_general_dilated(
            _X, _W, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
        )
        assert got.dtype == np.float32 and got.shape == (1, 3, 3, 2)
        np.testing.assert_allclose(np.ravel(got), want, atol=2e-6)
        # lax.conv_general_dilated(_X2, _W2, (1, 2), ((1, 0), (2, 1)), (1, 1), (2, 1),
        # feature_group_count=2)[0, :, 1] and the sum of squares of the whole output
        got2 = np.asarray(
            lax.conv_general_dilated(
                _X2, _W2, (1, 2), ((1, 0), (2, 1)), (1, 1), (2, 1), feature_group_count=2
            )
        )
        np.testing.assert_allclose(
            got2[0, :, 1],
            [
                [0.0, 1.476053, 2.120444, 0.204286],
                [0.0, -0.618906, -3.758483, -1.180084],
                [0.0, -1.019656, -3.590418, -0.920807],
                [0.0, -0.642898, 1.889938, 1.055278],
            ],
            atol=2e-6,
        )
        # lax.conv_transpose(_X, _W, (2, 2), 'SAME'): shape, sum and sum of squares
        t = np.asarray(lax.conv_transpose(_X, _W, (2, 2), "SAME"))
        assert t.shape == (1, 10, 10, 2)
        np.testing.assert_allclose([t.sum(), (t**2).sum()], [-0.5633628, 251.32124], rtol=1e-5)
        # jax.grad of sum(conv(...) ** 2) w.r.t. (x, w): sum(gx), sum(gw), sum(gx ** 2)
        gx, gw = core.grad(
            lambda x, w: (
                lax.conv_general_dilated(
                    x, w, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
                )
                ** 2
            ).sum(),
            argnums=(0, 1),
        )(_X, _W)
        np.testing.assert_allclose(
            [gx.sum(), gw.sum(), (gx**2).sum()], [5.1492901, -0.3254903, 91.277596], rtol=1e-5
        )


@pytest.mark.parametrize("padding", ["SAME", "VALID", ((1, 2), (0, 1))])
@pytest.mark.parametrize("transpose_kernel", [False, True])
def test_conv_transpose_is_conv_gradient(padding, transpose_kernel):
    x = _rng.standard_normal((2, 4, 5, 3))
    w = _rng.standard_normal((3, 3, 3, 3))
    dn = ("NHWC", "HWIO", "NHWC")
    y = lax.conv_transpose(
        x, w, (2, 2), padding, dimension_numbers=dn, transpose_kernel=transpose_kernel
    )
    check_grads(
        lambda x, w: lax.conv_transpose(
            x, w, (2, 2), padding, dimension_numbers=dn, transpose_kernel=transpose_kernel
        ),
        (x, w),
        order=1,
    )
    if transpose_kernel and isinstance(padding, str):
        # conv_transpose with a flipped kernel is the vjp of the forward strided conv.
        fwd_in = np.zeros((2,) + tuple(y.shape[1:3]) + (3,))
        _, vjp = core.vjp(
            lambda a: lax.conv_general_dilated(a, w, (2, 2), padding, dimension_numbers=dn), fwd_in
        )
        np.testing.assert_allclose(vjp(x)[0], y, rtol=1e-10, atol=1e-12)


def test_conv_transpose_passes_same_lower_on():
    # JAX 0.10.2 hands 'SAME_LOWER' to conv_general_dilated (numbax split the string into
    # pairs): values recorded for an even kernel, where it differs from 'SAME'
    w = np.cos(np.arange(24, dtype=np.float32)).reshape(2, 3, 2, 2)
    t = np.asarray(lax.conv_transpose(_X, w, (1, 1), "SAME_LOWER"))
    assert t.shape == (1, 5, 5, 2)
    np.testing.assert_allclose([t.sum(), (t**2).sum()], [-0.8417681, 9.685477], rtol=1e-5)
    np.testing.assert_allclose(t[0, 0, :3, 0], [0.7855908, -0.0125038, 0.10719053], atol=1e-6)
    with pytest.raises(ValueError, match="String padding is not implemented"):
        lax.conv_transpose(_X, w, (2, 2), "SAME_LOWER")  # as JAX's: strides need pairs


@pytest.mark.parametrize("backend", ["python", "numba"])
def test_jit_matches_eager(backend):
    x, w = _rng.standard_normal((2, 3, 6, 5)), _rng.standard_normal((4, 3, 3, 2))

    def f(x, w):
        return (lax.conv_general_dilated(x, w, (2, 1), "SAME", rhs_dilation=(1, 2)) ** 2).sum()

    try:
        got = core.jit(core.value_and_grad(f, argnums=(0, 1)), backend=backend)(x, w)
    except LoweringError as e:
        pytest.skip(f"numba lowering not available yet: {e}")
    want = core.value_and_grad(f, argnums=(0, 1))(x, w)
    core.tree.map(lambda a, b: np.testing.assert_allclose(a, b, rtol=1e-10), got, want)
