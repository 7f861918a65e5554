"""Normalization layers against numpy references, in training and evaluation modes."""

import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
from core import random, tree_util
from core.test_util import check_grads
from nn import errors


def rand(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def random_params(variables, seed=1):
    """The same tree with random values, so scale and bias are not the trivial 1 and 0."""
    leaves, treedef = tree_util.tree_flatten(variables["params"])
    leaves = [jnp.asarray(rand(np.shape(v), seed + i)) for i, v in enumerate(leaves)]
    return tree_util.tree_unflatten(treedef, leaves)


def np_normalize(x, red, mean, var, scale, bias, eps, feature_shape):
    mean, var = np.expand_dims(mean, red), np.expand_dims(var, red)
    y = (x - mean) / np.sqrt(var + eps)
    if scale is not None:
        y = y * scale.reshape(feature_shape)
    if bias is not None:
        y = y + bias.reshape(feature_shape)
    return y


@pytest.mark.parametrize("shape, axis", [((8, 3), -1), ((4, 3, 2), 1), ((2, 3, 3, 4), -1)])
def test_batch_norm_train_and_eval(shape, axis):
    x = rand(shape) * 3 + 1
    layer = nn.BatchNorm(axis=axis, momentum=0.9, epsilon=1e-5)
    variables = layer.init(random.key(0), x, use_running_average=False)
    feat = axis % x.ndim
    red = tuple(i for i in range(x.ndim) if i != feat)
    assert variables["batch_stats"]["mean"].shape == (shape[feat],)
    np.testing.assert_array_equal(np.asarray(variables["batch_stats"]["var"]), np.ones(shape[feat]))
    params = random_params(variables)
    fshape = [1] * x.ndim
    fshape[feat] = shape[feat]
    scale, bias = np.asarray(params["scale"]), np.asarray(params["bias"])
    train_vars = {"params": params, "batch_stats": variables["batch_stats"]}
    y, updates = layer.apply(train_vars, x, use_running_average=False, mutable=["batch_stats"])
    mean, var = x.mean(red), x.var(red)
    want = np_normalize(x, red, mean, var, scale, bias, 1e-5, fshape)
    np.testing.assert_allclose(np.asarray(y), want, rtol=1e-4, atol=1e-4)
    stats = updates["batch_stats"]
    np.testing.assert_allclose(np.asarray(stats["mean"]), 0.1 * mean, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(np.asarray(stats["var"]), 0.9 + 0.1 * var, rtol=1e-4)
    # Evaluation uses the running statistics and needs no mutable collection.
    eval_layer = nn.BatchNorm(use_running_average=True, axis=axis, epsilon=1e-5)
    y_eval = eval_layer.apply({"params": params, "batch_stats": stats}, x)
    ra_mean, ra_var = np.asarray(stats["mean"]), np.asarray(stats["var"])
    want = np_normalize(x, red, ra_mean, ra_var, scale, bias, 1e-5, fshape)
    np.testing.assert_allclose(np.asarray(y_eval), want, rtol=1e-4, atol=1e-4)


def test_batch_norm_init_does_not_update_stats_and_needs_mode():
    x = rand((4, 2)) + 5
    variables = nn.BatchNorm(use_running_average=False).init(random.key(0), x)
    np.testing.assert_array_equal(np.asarray(variables["batch_stats"]["mean"]), [0.0, 0.0])
    with pytest.raises(errors.ArgumentMissingError, match="use_running_average"):
        nn.BatchNorm().init(random.key(0), x)
    # the flag at call time instead (train mode); both set is Flax's merge_param ValueError
    y = nn.BatchNorm().apply(variables, x, use_running_average=False, mutable=["batch_stats"])[0]
    np.testing.assert_allclose(np.asarray(y).mean(0), [0.0, 0.0], atol=1e-5)
    with pytest.raises(errors.ArgumentTwiceError, match="Should be passed just once"):
        nn.BatchNorm(use_running_average=True).apply(variables, x, use_running_average=False)


@pytest.mark.parametrize(
    "shape, reduction_axes, feature_axes",
    [((2, 5), -1, -1), ((2, 3, 4), (-2, -1), -1), ((3, 4, 2), (1, 2), (1, 2))],
)
def test_layer_norm_matches_numpy(shape, reduction_axes, feature_axes):
    x = rand(shape) * 2 + 3
    layer = nn.LayerNorm(reduction_axes=reduction_axes, feature_axes=feature_axes)
    params = random_params(layer.init(random.key(0), x))
    red = tuple(a % x.ndim for a in np.atleast_1d(reduction_axes))
    feats = tuple(a % x.ndim for a in np.atleast_1d(feature_axes))
    fshape = [x.shape[i] if i in feats else 1 for i in range(x.ndim)]
    scale, bias = np.asarray(params["scale"]), np.asarray(params["bias"])
    want = np_normalize(x, red, x.mean(red), x.var(red), scale, bias, 1e-6, fshape)
    got = layer.apply({"params": params}, x)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("shape", [(2, 5), (2, 3, 4)])
def test_rms_norm_matches_numpy(shape):
    x = rand(shape)
    layer = nn.RMSNorm()
    params = random_params(layer.init(random.key(0), x))
    assert set(params) == {"scale"}
    ms = (x * x).mean(-1, keepdims=True)
    want = x / np.sqrt(ms + 1e-6) * np.asarray(params["scale"])
    np.testing.assert_allclose(np.asarray(layer.apply({"params": params}, x)), want, rtol=1e-4)


@pytest.mark.parametrize(
    "shape, kwargs, groups",
    [((2, 4, 4, 6), dict(num_groups=3), 3), ((2, 5, 8), dict(num_groups=None, group_size=2), 4)],
)
def test_group_norm_matches_numpy(shape, kwargs, groups):
    x = rand(shape) + 1
    layer = nn.GroupNorm(**kwargs)
    params = random_params(layer.init(random.key(0), x))
    g = x.reshape(x.shape[:-1] + (groups, -1))
    red = tuple(range(1, x.ndim - 1)) + (x.ndim,)
    mean = g.mean(red, keepdims=True)
    var = g.var(red, keepdims=True)
    want = ((g - mean) / np.sqrt(var + 1e-6)).reshape(x.shape)
    want = want * np.asarray(params["scale"]) + np.asarray(params["bias"])
    np.testing.assert_allclose(
        np.asarray(layer.apply({"params": params}, x)), want, rtol=1e-4, atol=1e-4
    )


def test_group_norm_rejects_bad_groups():
    with pytest.raises(ValueError, match="does not divide"):
        nn.GroupNorm(num_groups=4).init(random.key(0), jnp.ones((1, 6)))
    with pytest.raises(ValueError, match="Either `num_groups` or `group_size` should be specified"):
        nn.GroupNorm(num_groups=2, group_size=3).init(random.key(0), jnp.ones((1, 6)))


@pytest.mark.parametrize(
    "layer",
    [
        nn.LayerNorm(),
        nn.RMSNorm(),
        nn.GroupNorm(num_groups=2),
        nn.BatchNorm(use_running_average=False),
    ],
    ids=lambda m: type(m).__name__,
)
def test_check_grads_through_norms(layer):
    x = jnp.asarray(rand((4, 8)))
    variables = layer.init(random.key(0), x)
    params = random_params(variables)
    rest = {k: v for k, v in variables.items() if k != "params"}

    def f(p, xx):
        out = layer.apply({"params": p, **rest}, xx, mutable=list(rest))
        return out[0] if rest else out

    check_grads(f, (params, x), order=1, modes=["rev"])


def test_batch_norm_axis_name_averages_over_the_mapped_axis():
    x = rand((4, 2, 3)) + 2
    layer = nn.BatchNorm(use_running_average=False, axis_name="batch")
    variables = layer.init(random.key(0), x[0])

    def step(xi):
        return layer.apply(variables, xi, mutable=["batch_stats"])

    y, updates = core.vmap(step, axis_name="batch")(jnp.asarray(x))
    flat = x.reshape(8, 3)
    want = (flat - flat.mean(0)) / np.sqrt(flat.var(0) + 1e-5)
    np.testing.assert_allclose(np.asarray(y).reshape(8, 3), want, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(
        np.asarray(updates["batch_stats"]["mean"])[0], 0.01 * flat.mean(0), rtol=1e-4
    )


# Flax 0.12.8 values for the same keys and inputs.
def test_instance_norm_matches_flax():
    x = jnp.arange(24.0).reshape(2, 3, 4) / 10
    layer = nn.InstanceNorm()
    v = layer.init(random.key(0), x)
    assert tree_util.tree_map(np.shape, v) == {"params": {"bias": (4,), "scale": (4,)}}
    np.testing.assert_allclose(
        np.asarray(layer.apply(v, x)[0, :, 0]), [-1.2247392, 0.0, 1.224739], atol=1e-5
    )
    with pytest.raises(errors.InstanceNormAxesError):
        nn.InstanceNorm(feature_axes=0).init(random.key(0), x)


class WeightAndSpectral(nn.Module):
    @nn.compact
    def __call__(self, x, train=True):
        y = nn.WeightNorm(nn.Dense(3))(x)
        return y + nn.SpectralNorm(nn.Dense(3))(x, update_stats=train)


def test_weight_norm_and_spectral_norm_match_flax():
    x = jnp.arange(4.0).reshape(2, 2) / 4
    v = WeightAndSpectral().init(random.key(0), x)
    assert tree_util.tree_map(np.shape, v) == {
        "params": {
            "Dense_0": {"bias": (3,), "kernel": (2, 3)},
            "WeightNorm_0": {"Dense_0/kernel/scale": (3,)},
            "Dense_1": {"bias": (3,), "kernel": (2, 3)},
        },
        "batch_stats": {"SpectralNorm_0": {"Dense_1/kernel/u": (1, 3), "Dense_1/kernel/sigma": ()}},
    }
    stats = v["batch_stats"]["SpectralNorm_0"]
    np.testing.assert_allclose(
        np.asarray(stats["Dense_1/kernel/u"]), [[-0.5720827, 0.5148653, 0.6384631]], rtol=1e-5
    )
    # As in Flax, init stores the spectrally normalized kernel.
    np.testing.assert_allclose(
        np.asarray(v["params"]["Dense_1"]["kernel"][0]),
        [0.00240164, 0.23114757, 0.13050817],
        rtol=1e-4,
        atol=1e-6,
    )
    y, upd = WeightAndSpectral().apply(v, x, mutable=["batch_stats"])
    np.testing.assert_allclose(np.asarray(y[1]), [-1.237746, 1.3566613, 0.6786106], rtol=1e-5)
    np.testing.assert_allclose(
        np.asarray(upd["batch_stats"]["SpectralNorm_0"]["Dense_1/kernel/sigma"]),
        1.0094951,
        rtol=1e-5,
    )

    # WeightNorm alone: the kernel's columns are unit vectors times the (unit) scale.
    class Only(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.WeightNorm(nn.Dense(3, use_bias=False))(x)

    v = Only().init(random.key(1), x)
    k = np.asarray(v["params"]["Dense_0"]["kernel"])
    want = np.eye(2, dtype=np.float32) @ (k / np.linalg.norm(k, axis=0, keepdims=True))
    np.testing.assert_allclose(np.asarray(Only().apply(v, jnp.eye(2))), want, rtol=1e-5)


@pytest.mark.parametrize(
    "kw, message",
    [
        # Flax 0.12.8's messages (differential run)
        ({"num_groups": 3}, "Number of groups (3) does not divide the number of channels (4)."),
        (
            {"num_groups": None, "group_size": 3},
            "Number of channels (4) is not multiple of the group size (3).",
        ),
        (
            {"num_groups": 2, "group_size": 2},
            "Either `num_groups` or `group_size` should be specified. If `group_size` is to be "
            "specified, pass `num_groups=None` as argument to override the default `num_groups` "
            "value of 32.",
        ),
    ],
)
def test_group_norm_group_errors(kw, message):
    with pytest.raises(ValueError) as e:
        nn.GroupNorm(**kw).init(random.key(0), jnp.ones((2, 3, 4)))
    assert str(e.value) == message


@pytest.mark.parametrize(
    "module, expected",
    [
        (nn.LayerNorm(), [0.79334, 1.17418, -1.15164, -0.81587, -0.57494, -1.661]),
        (nn.GroupNorm(num_groups=2), [1.24879, 1.59255, -0.50681, -0.56694, -0.33812, -1.36962]),
        (nn.RMSNorm(), [1.23288, 1.5388, -0.32945, -0.05973, 0.13379, -0.73859]),
        (nn.InstanceNorm(), [1.59503, 1.30582, -0.28995, -0.56694, np.nan, np.nan]),
    ],
    ids=["layer", "group", "rms", "instance"],
)
def test_mask_of_lower_rank_broadcasts(module, expected):
    # Flax 0.12.8: module.apply(variables, x, mask=jnp.arange(6) < 4)[0, 0] with
    # x = jax.random.normal(PRNGKey(0), (2, 4, 6)) (Flax takes `mean(where=mask)`, which
    # broadcasts; numbax raised an AxisError)
    x = random.normal(random.PRNGKey(0), (2, 4, 6))
    mask = jnp.arange(6) < 4
    variables = module.init(random.PRNGKey(1), x, mask=mask)
    out = module.apply(variables, x, mask=mask)[0, 0]
    np.testing.assert_allclose(np.asarray(out), expected, atol=2e-5)


def test_batchnorm_mask_of_lower_rank_broadcasts():
    # Flax 0.12.8: BatchNorm(use_running_average=False) with mask=(arange(4) < 3)[:, None]
    x = random.normal(random.PRNGKey(0), (2, 4, 6))
    mask = (jnp.arange(4) < 3)[:, None]
    bn = nn.BatchNorm(use_running_average=False)
    variables = bn.init(random.PRNGKey(1), x, mask=mask)
    y, state = bn.apply(variables, x, mask=mask, mutable=["batch_stats"])
    np.testing.assert_allclose(
        np.asarray(y[0, 0]), [1.47035, 1.92868, -1.35209, -0.35117, -0.05414, -0.42877], atol=2e-5
    )
    np.testing.assert_allclose(
        np.asarray(state["batch_stats"]["mean"]),
        [0.00155, 0.00407, 0.00453, 0.00189, 0.00234, -0.00626],
        atol=2e-5,
    )
