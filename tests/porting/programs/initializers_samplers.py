"""Weight initialisers and random samplers as model code draws them: Flax's initialisers on
dense, convolution and stacked kernels, and `jax.random`'s less common distributions.

- `nn.initializers.variance_scaling` in its three modes and three distributions with
  `in_axis`/`out_axis`/`batch_axis`, `glorot_uniform`, `kaiming_normal`, `lecun_uniform`,
  `orthogonal(scale=, column_axis=)`, `delta_orthogonal`, `truncated_normal(lower=, upper=)`,
  `constant`, `normal`/`uniform` with `dtype=`; a layer's `kernel_init` of each, and the
  errors of a too-small kernel for `delta_orthogonal` and of an unknown mode;
- `random.orthogonal`, `loggamma`, `generalized_normal`, `wald`, `triangular`, `multinomial`,
  `maxwell`, `double_sided_maxwell`, `weibull_min`, `pareto`, `geometric`, `chisquare`, `f`,
  `cauchy`, `lognormal`, `rademacher`, `permutation(independent=True)`, `clone`, and
  `key_impl`.
"""

import flax.linen as nn
import jax
import jax.numpy as jnp
from jax import random

from tests.porting import printed

init = nn.initializers


def stats(x):
    return [x.shape, str(x.dtype), x.ravel()[:6], jnp.mean(x), jnp.std(x)]


def initialisers(out):
    key = random.key(0)
    shapes = {"dense": (16, 8), "conv": (3, 3, 4, 8), "stacked": (5, 16, 8)}
    results = {}
    for mode in ("fan_in", "fan_out", "fan_avg"):
        for dist in ("truncated_normal", "normal", "uniform"):
            f = init.variance_scaling(2.0, mode, dist)
            results[f"{mode}_{dist}"] = stats(f(key, shapes["conv"]))
    out["variance_scaling"] = results
    vs_axes = init.variance_scaling(
        1.0, "fan_in", "normal", in_axis=-2, out_axis=-1, batch_axis=(0,)
    )
    out["batch_axis"] = stats(vs_axes(key, shapes["stacked"]))
    out["in_out_axes"] = stats(
        init.variance_scaling(1.0, "fan_out", "uniform", in_axis=0, out_axis=1)(key, (8, 16))
    )
    out["glorot_uniform"] = stats(init.glorot_uniform()(key, shapes["dense"]))
    out["kaiming_normal"] = stats(init.kaiming_normal()(key, shapes["conv"]))
    out["lecun_uniform"] = stats(init.lecun_uniform()(key, shapes["dense"], jnp.bfloat16))
    orth = init.orthogonal(scale=2.0)(key, (6, 4))
    out["orthogonal"] = [orth, orth.T @ orth]
    out["orthogonal_column_axis"] = stats(init.orthogonal(column_axis=0)(key, (3, 5)))
    out["orthogonal_conv"] = stats(init.orthogonal()(key, (3, 3, 4, 8)))
    delta = init.delta_orthogonal()(key, (3, 3, 4, 4))
    out["delta_orthogonal"] = [delta[1, 1], jnp.abs(delta).sum() - jnp.abs(delta[1, 1]).sum()]
    out["truncated_bounds"] = stats(init.truncated_normal(0.5, lower=-1.0, upper=0.5)(key, (200,)))
    out["constant"] = init.constant(0.25, jnp.float16)(key, (2, 2))
    out["normal_uniform"] = [
        stats(init.normal(0.1)(key, (50,))),
        stats(init.uniform(0.3)(key, (50,), jnp.float16)),
    ]
    dense = nn.Dense(3, kernel_init=init.orthogonal(), bias_init=init.constant(0.1))
    out["dense_params"] = dense.init(key, jnp.ones((1, 5)))["params"]
    conv = nn.Conv(4, (3, 3), kernel_init=init.delta_orthogonal(), use_bias=False)
    out["conv_identityish"] = conv.apply(
        conv.init(key, jnp.ones((1, 5, 5, 4))), jnp.eye(5)[None, :, :, None] * jnp.ones(4)
    )
    out["errors"] = printed.first_lines(
        {
            "delta_small": lambda: init.delta_orthogonal()(key, (3, 3, 4, 2)),
            "delta_rank": lambda: init.delta_orthogonal()(key, (4, 4)),
            "mode": lambda: init.variance_scaling(1.0, "fan_sum", "normal")(key, (2, 2)),
            "distribution": lambda: init.variance_scaling(1.0, "fan_in", "cauchy")(key, (2, 2)),
            "orthogonal_rank": lambda: init.orthogonal()(key, (4,)),
        },
        ValueError,
    )


def samplers(out):
    k = random.split(random.key(1), 20)
    r = {}
    r["orthogonal"] = random.orthogonal(k[0], 3)
    r["orthogonal_batch"] = random.orthogonal(k[0], 2, (2,))
    r["loggamma"] = random.loggamma(k[1], jnp.array([0.5, 2.0, 5.0]))
    r["generalized_normal"] = random.generalized_normal(k[2], 1.5, (4,))
    r["wald"] = random.wald(k[3], jnp.array([0.5, 1.0, 2.0]))
    r["triangular"] = random.triangular(k[4], 0.0, 0.3, 1.0, (4,))
    r["multinomial"] = random.multinomial(k[5], 10, jnp.array([0.2, 0.5, 0.3]), shape=(2, 3))
    r["maxwell"] = random.maxwell(k[6], (3,))
    r["double_sided_maxwell"] = random.double_sided_maxwell(k[7], 1.0, 2.0, (3,))
    r["weibull_min"] = random.weibull_min(k[8], 2.0, 1.5, (3,))
    r["pareto"] = random.pareto(k[9], jnp.array([1.0, 3.0]))
    r["geometric"] = random.geometric(k[10], jnp.array([0.1, 0.5, 0.9]))
    r["chisquare"] = random.chisquare(k[11], jnp.array([1.0, 4.0]))
    r["f"] = random.f(k[12], 3.0, 5.0, (3,))
    r["cauchy"] = random.cauchy(k[13], (3,))
    r["lognormal"] = random.lognormal(k[14], 0.5, (3,))
    r["rademacher"] = random.rademacher(k[15], (6,))
    r["permutation_independent"] = random.permutation(
        k[16], jnp.arange(12).reshape(3, 4), axis=1, independent=True
    )
    c = random.clone(k[17])
    r["clone_same"] = bool(jnp.all(random.key_data(c) == random.key_data(k[17])))
    r["key_impl"] = str(random.key_impl(k[17]))
    r["dtypes"] = [
        str(random.geometric(k[10], 0.5).dtype),
        str(random.multinomial(k[5], 4, jnp.array([0.5, 0.5])).dtype),
    ]
    out["samplers"] = r
    grad = jax.grad(lambda a: random.loggamma(k[1], a).sum())(jnp.array([0.5, 2.0, 5.0]))
    out["loggamma_grad"] = grad


def run():
    out = {}
    initialisers(out)
    samplers(out)
    return out
