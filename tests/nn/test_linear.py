"""Linear layers against numpy references of their formulas, Flax init values, and gradients."""

import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
from core import random, tree_util
from core.test_util import check_grads


def rand(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def shapes(tree):
    return tree_util.tree_map(lambda x: tuple(x.shape), tree)


def np_params(variables):
    return tree_util.tree_map(np.asarray, variables["params"])


# -- Dense / DenseGeneral / Einsum ------------------------------------------------------------


@pytest.mark.parametrize("in_shape, features", [((3,), 4), ((2, 3), 4), ((2, 5, 3), 1)])
@pytest.mark.parametrize("use_bias", [True, False])
def test_dense_matches_numpy(in_shape, features, use_bias):
    layer = nn.Dense(features, use_bias=use_bias, bias_init=nn.initializers.normal(1.0))
    x = rand(in_shape)
    variables = layer.init(random.key(1), x)
    p = np_params(variables)
    want = x @ p["kernel"] + (p["bias"] if use_bias else 0)
    np.testing.assert_allclose(np.asarray(layer.apply(variables, x)), want, rtol=1e-5, atol=1e-6)
    assert set(p) == ({"kernel", "bias"} if use_bias else {"kernel"})


def test_dense_init_equals_flax():
    variables = nn.Dense(4).init(random.key(0), jnp.ones((1, 3)))
    flax_kernel = [
        [0.04769871, -0.9522832, -0.98568863, 0.44283277],
        [0.70222288, 0.53018653, 0.10542504, 0.53427064],
        [0.53070861, -0.14438623, 0.70853192, 0.39995816],
    ]
    np.testing.assert_allclose(np.asarray(variables["params"]["kernel"]), flax_kernel, rtol=1e-5)
    np.testing.assert_array_equal(np.asarray(variables["params"]["bias"]), np.zeros(4))


@pytest.mark.parametrize(
    "in_shape, features, axis, batch_dims, kernel_shape",
    [
        ((2, 3), (4, 5), -1, (), (3, 4, 5)),
        ((2, 3, 4), 6, (-2, -1), (), (3, 4, 6)),
        ((2, 3, 4), (5,), (1,), (), (3, 5)),
        ((2, 3, 4), 5, -1, (0,), (2, 4, 5)),
    ],
)
def test_dense_general_matches_numpy(in_shape, features, axis, batch_dims, kernel_shape):
    layer = nn.DenseGeneral(
        features, axis=axis, batch_dims=batch_dims, bias_init=nn.initializers.ones
    )
    x = rand(in_shape)
    variables = layer.init(random.key(0), x)
    p = np_params(variables)
    assert p["kernel"].shape == kernel_shape
    axes = tuple(a % x.ndim for a in ((axis,) if isinstance(axis, int) else axis))
    if batch_dims:
        want = np.einsum("bij,bjk->bik", x, p["kernel"]) + p["bias"][:, None, :]
    else:
        want = np.tensordot(x, p["kernel"], (axes, tuple(range(len(axes))))) + p["bias"]
    np.testing.assert_allclose(np.asarray(layer.apply(variables, x)), want, rtol=1e-5, atol=1e-5)


def test_dense_general_batch_dims_in_axis_raise_flaxs_type_error():
    # Flax 0.12.8 (dot_general's check): TypeError, this message
    with pytest.raises(TypeError, match=r"^dot_general requires lhs batch dimensions to be "
                       r"disjoint from contracting dimensions, got lhs_batch \(0,\) and "
                       r"lhs_contracting \(0,\)\.$"):  # fmt: skip
        nn.DenseGeneral(3, axis=0, batch_dims=(0,)).init(random.key(0), rand((2, 4, 5)))


@pytest.mark.parametrize(
    "equation, in_shape, kernel_shape, bias_shape, spelled",
    [
        ("abc,cde->abde", (3, 4, 5), (5, 6, 7), (6, 7), None),
        ("ab,bc->ac", (2, 3), (3, 4), (4,), None),
        ("...b,bc->...c", (2, 5, 3), (3, 4), (4,), None),
        # an ellipsis in the kernel: Flax's bias keeps its axes (Flax 0.12.8's shapes)
        ("ab...,bc...->ac...", (3, 4, 6), (4, 5, 6), (5, 6), None),
        ("abd...,bc...->ac...", (3, 4, 6), (4, 5, 6), (5, 6), None),
        ("d...ab,bc...->ad...c", (8, 6, 7, 3, 4), (4, 5, 6, 7), (6, 7, 5), None),
        ("ab...d,ej...f->ad...f", (3, 4, 5, 6), (7, 4, 5, 8), (5, 8), None),
        # ellipses of different lengths summed away (numpy refuses the implicit sum)
        ("a...d,ej...f->adef", (3, 4, 5, 6), (7, 4, 5, 8), (7, 8), "aXYd,ejYf->adef"),
    ],
)
def test_einsum_matches_numpy(equation, in_shape, kernel_shape, bias_shape, spelled):
    layer = nn.Einsum(kernel_shape, equation, bias_init=nn.initializers.ones)
    x = rand(in_shape)
    variables = layer.init(random.key(0), x)
    p = np_params(variables)
    assert p["bias"].shape == bias_shape
    want = np.einsum(spelled or equation, x, p["kernel"]) + 1.0  # the bias is ones
    np.testing.assert_allclose(np.asarray(layer.apply(variables, x)), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "padding, rank, want",
    [  # Flax 0.12.8's canonicalize_padding (None: ValueError)
        ("SAME", 2, "SAME"),
        (2, 3, [(2, 2), (2, 2), (2, 2)]),
        ((2, 2), 3, None),
        ((2, 2), 1, None),
        ([1, (2, 3)], 2, [(1, 1), (2, 3)]),
        ([None, (1, 2)], 2, None),
    ],
)
def test_canonicalize_padding(padding, rank, want):
    if want is None:
        with pytest.raises(ValueError, match="^Invalid padding format"):
            nn.linear.canonicalize_padding(padding, rank)
    else:
        assert nn.linear.canonicalize_padding(padding, rank) == want


# -- Conv / ConvTranspose ----------------------------------------------------------------------


def np_conv(x, k, strides, padding, kernel_dilation, input_dilation, groups):
    """Direct N-d cross-correlation of (N, *spatial, C) with (*window, C/groups, O)."""
    n = x.ndim - 2
    if any(d > 1 for d in input_dilation):
        shape = [x.shape[0]] + [(s - 1) * d + 1 for s, d in zip(x.shape[1:-1], input_dilation)]
        xd = np.zeros(shape + [x.shape[-1]], x.dtype)
        xd[(slice(None),) + tuple(slice(None, None, d) for d in input_dilation)] = x
        x = xd
    eff = [(kk - 1) * d + 1 for kk, d in zip(k.shape[:n], kernel_dilation)]
    if padding == "VALID":
        pads = [(0, 0)] * n
    elif padding == "SAME":
        pads = []
        for size, e, s in zip(x.shape[1:-1], eff, strides):
            total = max((-(-size // s) - 1) * s + e - size, 0)
            pads.append((total // 2, total - total // 2))
    else:
        pads = padding
    x = np.pad(x, [(0, 0)] + list(pads) + [(0, 0)])
    out_sp = [(size - e) // s + 1 for size, e, s in zip(x.shape[1:-1], eff, strides)]
    cin = k.shape[-2]
    cout = k.shape[-1]
    out = np.zeros([x.shape[0]] + out_sp + [cout], np.float64)
    per_group = cout // groups
    for idx in np.ndindex(*out_sp):
        for w in np.ndindex(*k.shape[:n]):
            pos = tuple(i * s + ww * d for i, s, ww, d in zip(idx, strides, w, kernel_dilation))
            patch = x[(slice(None),) + pos]  # (N, C)
            for g in range(groups):
                o = slice(g * per_group, (g + 1) * per_group)
                out[(slice(None),) + idx + (o,)] += patch[:, g * cin : (g + 1) * cin] @ k[w][:, o]
    return out


CONV_CASES = [
    dict(in_shape=(2, 5, 5, 3), features=4, kernel_size=(3, 3)),
    dict(in_shape=(2, 6, 6, 2), features=3, kernel_size=(3, 2), strides=2, padding="VALID"),
    dict(in_shape=(1, 7, 3), features=2, kernel_size=3, kernel_dilation=2),
    dict(in_shape=(1, 4, 4, 4), features=4, kernel_size=(2, 2), feature_group_count=2),
    dict(in_shape=(1, 4, 4, 1), features=2, kernel_size=(3, 3), padding=[(1, 0), (2, 1)]),
    dict(
        in_shape=(1, 3, 3, 1),
        features=1,
        kernel_size=(2, 2),
        input_dilation=2,
        padding=[(1, 1), (0, 1)],
    ),
    dict(in_shape=(5, 5, 2), features=3, kernel_size=(3, 3)),  # unbatched
    dict(in_shape=(2, 2, 5, 5, 1), features=2, kernel_size=(3, 3)),  # two batch dims
]


@pytest.mark.parametrize(
    "case", CONV_CASES, ids=lambda c: str(c["in_shape"]) + str(c["kernel_size"])
)
def test_conv_matches_numpy(case):
    case = dict(case)
    in_shape = case.pop("in_shape")
    layer = nn.Conv(bias_init=nn.initializers.normal(1.0), **case)
    x = rand(in_shape)
    variables = layer.init(random.key(0), x)
    p = np_params(variables)
    n = len(layer.kernel_size) if isinstance(layer.kernel_size, tuple) else 1
    flat = x.reshape((-1,) + x.shape[x.ndim - n - 1 :])
    broadcast = lambda v: (v,) * n if isinstance(v, int) else tuple(v)  # noqa: E731
    want = (
        np_conv(
            flat,
            p["kernel"],
            broadcast(case.get("strides", 1)),
            layer.padding,
            broadcast(case.get("kernel_dilation", 1)),
            broadcast(case.get("input_dilation", 1)),
            case.get("feature_group_count", 1),
        )
        + p["bias"]
    )
    y = np.asarray(layer.apply(variables, x))
    np.testing.assert_allclose(y.reshape(want.shape), want, rtol=1e-4, atol=1e-4)
    assert y.shape[: x.ndim - n - 1] == x.shape[: x.ndim - n - 1]


@pytest.mark.parametrize(
    "padding, pads, mode",
    [("CIRCULAR", (1, 1), "wrap"), ("REFLECT", (1, 1), "reflect"), ("CAUSAL", (2, 0), "constant")],
)
def test_conv_circular_reflect_and_causal_padding(padding, pads, mode):
    x = rand((1, 6, 2))
    layer = nn.Conv(2, kernel_size=3, padding=padding, use_bias=False)
    variables = layer.init(random.key(0), x)
    k = np_params(variables)["kernel"]
    padded = np.pad(x, [(0, 0), pads, (0, 0)], mode=mode)
    want = np_conv(padded, k, (1,), "VALID", (1,), (1,), 1)
    np.testing.assert_allclose(np.asarray(layer.apply(variables, x)), want, rtol=1e-5, atol=1e-5)


def test_conv_init_equals_flax():
    variables = nn.Conv(2, (3, 3)).init(random.key(0), jnp.ones((1, 4, 4, 3)))
    kernel = np.asarray(variables["params"]["kernel"])
    flax_00 = [[0.01589957, -0.31742772], [-0.32856289, 0.14761093], [0.23407429, 0.17672884]]
    np.testing.assert_allclose(kernel[0, 0], flax_00, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(kernel.sum(), 1.9649794101715088, rtol=1e-5)


@pytest.mark.parametrize(
    "kwargs, out_shape, flax_sum, flax_weighted",
    [
        (dict(strides=(2, 2), padding="VALID"), (2, 6, 7, 3), 1707.94287109375, 1068.96630859375),
        (dict(strides=(2, 2), padding="SAME"), (2, 6, 6, 3), 1616.914306640625, 1023.7930297851562),
        (
            dict(strides=(1, 2), padding="SAME", transpose_kernel=True),
            (2, 3, 6, 3),
            776.2286376953125,
            595.4437255859375,
        ),
        (
            dict(strides=(2, 2), padding="CIRCULAR"),
            (2, 6, 6, 3),
            1707.9427490234375,
            1071.9764404296875,
        ),
    ],
)
def test_conv_transpose_equals_flax(kwargs, out_shape, flax_sum, flax_weighted):
    x = jnp.asarray(np.arange(36, dtype=np.float32).reshape(2, 3, 3, 2) / 10.0)
    layer = nn.ConvTranspose(3, (2, 3), **kwargs)
    kernel_shape = shapes(layer.init(random.key(0), x))["params"]["kernel"]
    kernel = np.arange(np.prod(kernel_shape), dtype=np.float32).reshape(kernel_shape) / 7.0 - 1.0
    params = {"kernel": jnp.asarray(kernel), "bias": jnp.asarray([0.5, -0.5, 0.0])}
    y = np.asarray(layer.apply({"params": params}, x))
    assert y.shape == out_shape
    np.testing.assert_allclose(y.sum(), flax_sum, rtol=1e-5)
    weights = np.arange(y.size).reshape(y.shape) / y.size
    np.testing.assert_allclose((y * weights).sum(), flax_weighted, rtol=1e-5)


def test_conv_transpose_is_the_gradient_of_conv():
    """With transpose_kernel=True, ConvTranspose(stride s) is the VJP of Conv(stride s)."""
    x = rand((1, 6, 6, 2))
    conv = nn.Conv(3, (3, 3), strides=2, padding="SAME", use_bias=False)
    k = conv.init(random.key(0), x)["params"]["kernel"]
    y, vjp = core.vjp(lambda xx: conv.apply({"params": {"kernel": k}}, xx), x)
    ct = rand(y.shape, seed=1)
    (want,) = vjp(jnp.asarray(ct))
    deconv = nn.ConvTranspose(
        2, (3, 3), strides=(2, 2), padding="SAME", use_bias=False, transpose_kernel=True
    )
    got = deconv.apply({"params": {"kernel": k}}, jnp.asarray(ct))
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-4, atol=1e-5)


# -- ConvLocal ----------------------------------------------------------------------------------


def np_conv_local(x, k, strides, pads, window):
    """Unshared convolution by loops: the patch at each output position is ordered (c, *window)."""
    n = len(window)
    x = np.pad(x, [(0, 0)] + list(pads) + [(0, 0)])
    out = np.zeros((x.shape[0],) + k.shape[:n] + (k.shape[-1],), np.float64)
    for idx in np.ndindex(*k.shape[:n]):
        starts = [i * s for i, s in zip(idx, strides)]
        patch = x[(slice(None),) + tuple(slice(a, a + w) for a, w in zip(starts, window))]
        patch = np.moveaxis(patch, -1, 1).reshape(x.shape[0], -1)  # (N, C * prod(window))
        out[(slice(None),) + idx] = patch @ k[idx]
    return out


def test_conv_local_matches_numpy():
    x = rand((2, 5, 6, 2))
    layer = nn.ConvLocal(3, (2, 3), strides=(1, 2), padding=[(1, 0), (1, 1)])
    variables = layer.init(random.key(0), x)
    p = np_params(variables)
    assert shapes(variables)["params"] == {"bias": (5, 3, 3), "kernel": (5, 3, 12, 3)}
    want = np_conv_local(x, p["kernel"], (1, 2), [(1, 0), (1, 1)], (2, 3)) + p["bias"]
    y = np.asarray(layer.apply(variables, x))
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "case",
    [c for c in CONV_CASES if "feature_group_count" not in c],
    ids=lambda c: str(c["in_shape"]) + str(c["kernel_size"]),
)
def test_conv_local_with_one_kernel_everywhere_is_conv(case):
    """A ConvLocal kernel that repeats a Conv kernel at every position gives the Conv output."""
    case = dict(case)
    x = rand(case.pop("in_shape"))
    conv = nn.Conv(**case, use_bias=False)
    local = nn.ConvLocal(**case, use_bias=False)
    k = np_params(conv.init(random.key(0), x))["kernel"]  # (*window, C, O)
    n = k.ndim - 2
    local_shape = shapes(local.init(random.key(0), x))["params"]["kernel"]
    per_position = np.moveaxis(k, -2, 0).reshape(-1, k.shape[-1])  # (C * prod(window), O)
    k_local = np.broadcast_to(per_position, local_shape)
    assert local_shape[:n] == conv.apply({"params": {"kernel": k}}, x).shape[-n - 1 : -1]
    np.testing.assert_allclose(
        np.asarray(local.apply({"params": {"kernel": k_local}}, x)),
        np.asarray(conv.apply({"params": {"kernel": k}}, x)),
        rtol=1e-5,
        atol=1e-5,
    )


# Flax 0.12 `nn.ConvLocal(**kwargs).init_with_output(jax.random.key(0), x)` with
# x = sin(arange(size)).reshape(in_shape): param shapes, output shape, sum(y), sum(y**2), y[:3].
CONV_LOCAL_FLAX = [
    (
        dict(features=4, kernel_size=(3,), padding="VALID"),
        (1, 8, 3),
        {"bias": (6, 4), "kernel": (6, 9, 4)},
        (1, 6, 4),
        (-1.2502551078796387, 1.2894654273986816),
        [0.03229887783527374, -0.34604012966156006, 0.07518035918474197],
    ),
    (
        dict(features=4, kernel_size=(3, 3), strides=2, padding="CIRCULAR"),
        (1, 8, 3),
        {"bias": (1, 4, 4), "kernel": (1, 4, 27, 4)},
        (1, 4, 4),
        (0.5262913703918457, 2.0109074115753174),
        [0.24081215262413025, -0.01908532902598381, -0.5342501401901245],
    ),
    (
        dict(features=2, kernel_size=(2, 3), strides=(1, 2), padding="SAME"),
        (2, 5, 6, 2),
        {"bias": (5, 3, 2), "kernel": (5, 3, 12, 2)},
        (2, 5, 3, 2),
        (0.19250568747520447, 1.4823970794677734),
        [-0.13547047972679138, -0.12667638063430786, 0.39216384291648865],
    ),
    (
        dict(features=3, kernel_size=(3,), padding="CAUSAL", use_bias=False),
        (2, 6, 2),
        {"kernel": (6, 6, 3)},
        (2, 6, 3),
        (-1.3263299465179443, 1.7627143859863281),
        [-0.27093905210494995, 0.06097041070461273, 0.09147869050502777],
    ),
    (
        dict(features=2, kernel_size=(2,), padding=[(1, 0)], kernel_dilation=2),
        (2, 7, 1),
        {"bias": (6, 2), "kernel": (6, 2, 2)},
        (2, 6, 2),
        (0.1937379688024521, 3.288738489151001),
        [-0.41471418738365173, 0.18631546199321747, 0.047931358218193054],
    ),
    (
        dict(features=2, kernel_size=(2, 2), padding=1, input_dilation=2),
        (1, 3, 3, 2),
        {"bias": (6, 6, 2), "kernel": (6, 6, 8, 2)},
        (1, 6, 6, 2),
        (-0.2682267725467682, 0.21078136563301086),
        [0.10697513818740845, -0.09579141438007355, 0.06320550292730331],
    ),
]


@pytest.mark.parametrize(
    "kwargs, in_shape, param_shapes, out_shape, flax_sums, flax_head",
    CONV_LOCAL_FLAX,
    ids=lambda v: str(v) if isinstance(v, tuple) and len(v) > 2 else None,
)
def test_conv_local_init_and_output_equal_flax(
    kwargs, in_shape, param_shapes, out_shape, flax_sums, flax_head
):
    x = jnp.sin(jnp.arange(int(np.prod(in_shape)), dtype=jnp.float32).reshape(in_shape))
    y, variables = nn.ConvLocal(**kwargs).init_with_output(random.key(0), x)
    assert shapes(variables["params"]) == param_shapes
    y = np.asarray(y)
    assert y.shape == out_shape
    np.testing.assert_allclose([y.sum(), (y * y).sum()], flax_sums, rtol=2e-5, atol=1e-5)
    np.testing.assert_allclose(y.ravel()[:3], flax_head, rtol=1e-5, atol=1e-6)


def test_conv_local_mask_and_errors():
    x = rand((1, 8, 3))
    mask = np.tril(np.ones((6, 9, 4), np.float32))
    layer = nn.ConvLocal(4, (3,), padding="VALID", mask=jnp.asarray(mask), use_bias=False)
    variables = layer.init(random.key(0), x)
    k = np_params(variables)["kernel"]
    want = np_conv_local(x, k * mask, (1,), [(0, 0)], (3,))
    np.testing.assert_allclose(np.asarray(layer.apply(variables, x)), want, rtol=1e-5, atol=1e-5)
    with pytest.raises(
        ValueError,
        match=r"^Mask needs to have the same shape as weights. Shapes are: \(6, 9, 4\), "
        r"\(8, 9, 4\)",
    ):
        nn.ConvLocal(4, (3,), mask=jnp.asarray(mask)).init(random.key(0), x)
    with pytest.raises(NotImplementedError, match="`feature_group_count != 1`, got `3`"):
        nn.ConvLocal(3, (3,), feature_group_count=3).init(random.key(0), x)


# -- Embed ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("idx_shape", [(4,), (2, 3), ()])
def test_embed_lookup_and_attend(idx_shape):
    layer = nn.Embed(num_embeddings=5, features=3)
    idx = np.random.default_rng(0).integers(0, 5, idx_shape).astype(np.int32)
    variables = layer.init(random.key(0), jnp.asarray(idx))
    table = np_params(variables)["embedding"]
    np.testing.assert_allclose(np.asarray(layer.apply(variables, jnp.asarray(idx))), table[idx])
    q = rand((2, 3))
    got = layer.apply(variables, jnp.asarray(q), method="attend")
    np.testing.assert_allclose(np.asarray(got), q @ table.T, rtol=1e-5, atol=1e-6)


def test_embed_init_equals_flax_and_rejects_floats():
    variables = nn.Embed(5, 3).init(random.key(0), jnp.arange(2))
    np.testing.assert_allclose(
        np.asarray(variables["params"]["embedding"][0]),
        [0.04396089, -0.93285131, -0.97328115],
        rtol=1e-5,
    )
    with pytest.raises(ValueError, match="Input type must be an integer or unsigned integer."):
        nn.Embed(5, 3).apply(variables, jnp.ones(2))


# -- gradients -----------------------------------------------------------------------------------

GRAD_CASES = [
    (nn.Dense(3), (2, 4)),
    (nn.DenseGeneral((2, 2), axis=(-2, -1)), (2, 3, 2)),
    (nn.Einsum((3, 2), "ab,bc->ac"), (2, 3)),
    (nn.Conv(2, (2, 2), strides=2), (1, 4, 4, 2)),
    (nn.ConvTranspose(2, (2, 2), strides=(2, 2)), (1, 2, 2, 2)),
    (nn.ConvLocal(2, (2, 2), strides=2), (1, 4, 4, 2)),
]


@pytest.mark.parametrize("layer, in_shape", GRAD_CASES, ids=lambda v: type(v).__name__)
def test_check_grads_through_layer(layer, in_shape):
    x = jnp.asarray(rand(in_shape))
    params = layer.init(random.key(0), x)["params"]
    check_grads(lambda p, xx: layer.apply({"params": p}, xx), (params, x), order=1, modes=["rev"])


@pytest.mark.parametrize(
    "layer, x, message",
    [
        # Flax 0.12.8's first lines (differential run)
        (
            lambda: nn.Conv(2, (3, 3), padding="CAUSAL"),
            jnp.ones((1, 4, 4, 1)),
            "Causal padding is only implemented for 1D convolutions.",
        ),
        (
            lambda: nn.Conv(2, (3,), mask=jnp.ones((3, 1, 1))),
            jnp.ones((2, 3, 4)),
            "Mask needs to have the same shape as weights. Shapes are: (3, 1, 1), (3, 4, 2)",
        ),
        (
            lambda: nn.Embed(5, 3),
            jnp.array([0.0, 4.0]),
            "Input type must be an integer or unsigned integer.",
        ),
        (lambda: nn.Sequential([]), jnp.ones((2, 3)), "Empty Sequential module None."),
    ],
)
def test_layer_argument_errors(layer, x, message):
    with pytest.raises(ValueError) as e:
        layer().init(random.key(0), x)
    assert str(e.value).split("\n")[0] == message
