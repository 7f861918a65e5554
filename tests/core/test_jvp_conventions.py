"""Derivatives at ties and boundaries follow JAX's conventions (known answers from JAX 0.10.2).

Each case is a function of float32 arrays; `WANT[id]` holds what JAX gives for the gradient of
`sum(f(*args))` with respect to every argument and for the forward tangent `jvp(f, args, ones)`,
recorded from `jax.grad` / `jax.jvp` in a reference interpreter (not computed here). The table
covers max/min and their ties (JAX splits 1/2-1/2, reductions split evenly among tied maxima),
abs/sign at 0, where/select, clip versus lax.clamp at the bounds, sort/argsort/top_k ties, the
cumulative max/min/prod, relu-family kinks, sqrt/pow/log at 0, logaddexp (1/2 each at x == y),
hypot/norm at 0, quantile tie rules, out-of-bounds gathers and repeated scatter indices.
"""

import numpy as np
import pytest

import core
import core.numpy as jnp
import core.ops as ops
import core.scipy as jsp
import core.scipy.special  # noqa: F401  (jsp.special)
from core import lax, nn

INF, NAN = float("inf"), float("nan")
A = [-1.0, 0.0, 1.0, 2.0, 2.0, 3.0]
B = [-1.0, 1.0, 1.0, 0.0, 3.0, 3.0]
Z = [-2.0, -0.0, 0.0, 1.0]
T = [[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]]

CASES = [
    ("logaddexp", lambda x, y: jnp.logaddexp(x, y), [A, B]),
    ("logaddexp2", lambda x, y: jnp.logaddexp2(x, y), [A, B]),
    (
        "logaddexp_inf",
        lambda x, y: jnp.logaddexp(x, y),
        [[-np.inf, np.inf, -np.inf, 0.0], [-np.inf, np.inf, 1.0, -np.inf]],
    ),
    ("softplus", lambda x: nn.softplus(x), [Z]),
    ("log_sigmoid", lambda x: nn.log_sigmoid(x), [Z]),
    ("maximum", lambda x, y: jnp.maximum(x, y), [A, B]),
    ("minimum", lambda x, y: jnp.minimum(x, y), [A, B]),
    ("lax_max", lambda x, y: lax.max(x, y), [A, B]),
    ("lax_min", lambda x, y: lax.min(x, y), [A, B]),
    ("maximum_self", lambda x: jnp.maximum(x, x), [Z]),
    ("fmax", lambda x, y: jnp.fmax(x, y), [A, B]),
    ("fmin", lambda x, y: jnp.fmin(x, y), [A, B]),
    ("abs", lambda x: jnp.abs(x), [Z]),
    ("fabs", lambda x: jnp.fabs(x), [Z]),
    ("sign", lambda x: jnp.sign(x) * x, [Z]),
    ("copysign", lambda x, y: jnp.copysign(x, y), [[0.0, -0.0, 1.0, 0.0], [1.0, 1.0, -0.0, -1.0]]),
    ("where", lambda x, y: jnp.where(x > y, x, y), [A, B]),
    ("where_ge", lambda x, y: jnp.where(x >= y, x, y), [A, B]),
    ("lax_select", lambda x, y: lax.select(x < y, x, y), [A, B]),
    ("clip", lambda x: jnp.clip(x, -1.0, 2.0), [A]),
    (
        "clip_arr",
        lambda x, lo, hi: jnp.clip(x, lo, hi),
        [A, [-1.0, 0.0, 0.0, 0.0, 2.0, 3.0], [0.0, 0.0, 1.0, 2.0, 2.0, 3.0]],
    ),
    ("lax_clamp", lambda x: lax.clamp(-1.0, x, 2.0), [A]),
    (
        "lax_clamp_arr",
        lambda lo, x, hi: lax.clamp(lo, x, hi),
        [[-1.0, 0.0, 0.0, 0.0, 2.0, 3.0], A, [0.0, 0.0, 1.0, 2.0, 2.0, 3.0]],
    ),
    ("sort", lambda x: jnp.sort(x) * jnp.arange(1.0, 7.0), [[2.0, 1.0, 2.0, 0.0, 1.0, 2.0]]),
    ("sort_2d", lambda x: jnp.sort(x, axis=0) * jnp.array([[1.0], [2.0]]), [T]),
    (
        "lax_sort_multi",
        lambda x, y: lax.sort((x, y), num_keys=1)[1] * jnp.arange(1.0, 7.0),
        [[2.0, 1.0, 2.0, 0.0, 1.0, 2.0], A],
    ),
    (
        "argsort_take",
        lambda x: x[jnp.argsort(x)] * jnp.arange(1.0, 7.0),
        [[2.0, 1.0, 2.0, 0.0, 1.0, 2.0]],
    ),
    ("max", lambda x: jnp.max(x), [T]),
    ("max_axis1", lambda x: jnp.max(x, axis=1), [T]),
    ("min_axis0", lambda x: jnp.min(x, axis=0), [T]),
    ("amax_keep", lambda x: jnp.amax(x, axis=1, keepdims=True) * x, [T]),
    ("lax_reduce_max", lambda x: lax.reduce_max(x, (0, 1)), [T]),
    ("nanmax", lambda x: jnp.nanmax(x, axis=1), [T]),
    ("ptp", lambda x: jnp.ptp(x, axis=1), [T]),
    (
        "max_where",
        lambda x: jnp.max(x, axis=1, where=jnp.array([True, True, False]), initial=0.0),
        [T],
    ),
    ("max_initial_tie", lambda x: jnp.max(x, axis=1, initial=3.0), [T]),
    (
        "argmax_take",
        lambda x: jnp.take_along_axis(x, jnp.argmax(x, axis=1, keepdims=True), axis=1),
        [T],
    ),
    (
        "argmin_take",
        lambda x: jnp.take_along_axis(x, jnp.argmin(x, axis=1, keepdims=True), axis=1),
        [T],
    ),
    ("top_k", lambda x: lax.top_k(x, 2)[0] * jnp.array([1.0, 2.0]), [T]),
    ("cummax", lambda x: lax.cummax(x, axis=1) * jnp.arange(1.0, 4.0), [T]),
    ("cummin", lambda x: lax.cummin(x, axis=1) * jnp.arange(1.0, 4.0), [T]),
    ("cummax_rev", lambda x: lax.cummax(x, axis=1, reverse=True) * jnp.arange(1.0, 4.0), [T]),
    ("cumprod_zero", lambda x: jnp.cumprod(x), [[2.0, 0.0, 3.0, 0.0, 4.0]]),
    ("prod_zero", lambda x: jnp.prod(x), [[2.0, 0.0, 3.0]]),
    ("prod_two_zeros", lambda x: jnp.prod(x), [[2.0, 0.0, 0.0]]),
    ("relu", lambda x: nn.relu(x), [Z]),
    ("relu6", lambda x: nn.relu6(x), [[-1.0, 0.0, 3.0, 6.0, 7.0]]),
    ("hard_tanh", lambda x: nn.hard_tanh(x), [[-2.0, -1.0, 0.0, 1.0, 2.0]]),
    ("hard_sigmoid", lambda x: nn.hard_sigmoid(x), [[-4.0, -3.0, 0.0, 3.0, 4.0]]),
    ("hard_silu", lambda x: nn.hard_silu(x), [[-4.0, -3.0, 0.0, 3.0, 4.0]]),
    ("leaky_relu", lambda x: nn.leaky_relu(x), [Z]),
    ("elu", lambda x: nn.elu(x), [Z]),
    ("celu", lambda x: nn.celu(x), [Z]),
    ("selu", lambda x: nn.selu(x), [Z]),
    ("sparse_plus", lambda x: nn.sparse_plus(x), [[-2.0, -1.0, 0.0, 1.0, 2.0]]),
    ("sparse_sigmoid", lambda x: nn.sparse_sigmoid(x), [[-2.0, -1.0, 0.0, 1.0, 2.0]]),
    ("sqrt0", lambda x: jnp.sqrt(x), [[0.0, 1.0]]),
    ("rsqrt0", lambda x: lax.rsqrt(x), [[0.0, 1.0]]),
    ("cbrt0", lambda x: jnp.cbrt(x), [[0.0, 1.0]]),
    ("log0", lambda x: jnp.log(x), [[0.0, 1.0]]),
    (
        "pow_x",
        lambda x: jnp.power(x, jnp.array([0.0, 0.5, 1.0, 2.0, 0.0, -1.0])),
        [[0.0, 0.0, 0.0, 0.0, 2.0, 0.0]],
    ),
    (
        "pow_y",
        lambda y: jnp.power(jnp.array([0.0, 0.0, 0.0, 0.0, 2.0, -1.0]), y),
        [[0.0, 0.5, 1.0, 2.0, 0.0, 2.0]],
    ),
    ("pow_both", lambda x, y: x**y, [[0.0, 0.0, 0.0, 1.0], [0.0, 1.0, 2.0, 0.0]]),
    ("integer_pow", lambda x: x**2 + x**3 + lax.integer_pow(x, 0) + x**1, [Z]),
    ("integer_pow_neg", lambda x: x**-2, [[0.0, 1.0]]),
    ("float_power", lambda x: jnp.float_power(x, 2.0), [Z]),
    ("square", lambda x: jnp.square(x), [Z]),
    ("reciprocal", lambda x: jnp.reciprocal(x), [[0.0, 2.0]]),
    ("div0", lambda x, y: x / y, [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]),
    ("hypot0", lambda x, y: jnp.hypot(x, y), [[0.0, 3.0, 0.0], [0.0, 4.0, 1.0]]),
    ("arctan2_0", lambda x, y: jnp.arctan2(x, y), [[0.0, 1.0, 0.0], [0.0, 0.0, -1.0]]),
    ("norm0", lambda x: jnp.linalg.norm(x), [[0.0, 0.0]]),
    ("norm_inf", lambda x: jnp.linalg.norm(x, ord=jnp.inf), [[-2.0, 2.0, 1.0]]),
    ("norm_1", lambda x: jnp.linalg.norm(x, ord=1), [[-2.0, 0.0, 1.0]]),
    ("arcsin1", lambda x: jnp.arcsin(x), [[1.0, -1.0, 0.0]]),
    ("arccos1", lambda x: jnp.arccos(x), [[1.0, -1.0, 0.0]]),
    ("arctanh1", lambda x: jnp.arctanh(x), [[1.0, -1.0, 0.0]]),
    ("arccosh1", lambda x: jnp.arccosh(x), [[1.0, 2.0]]),
    ("log1p_m1", lambda x: jnp.log1p(x), [[-1.0, 0.0]]),
    ("xlogy0", lambda x, y: jsp.special.xlogy(x, y), [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]),
    ("xlog1py0", lambda x, y: jsp.special.xlog1py(x, y), [[0.0, 0.0, 1.0], [-1.0, 1.0, -1.0]]),
    ("entr0", lambda x: jsp.special.entr(x), [[0.0, 1.0]]),
    ("sinc0", lambda x: jnp.sinc(x), [[0.0, 0.5]]),
    (
        "round_floor_ceil",
        lambda x: jnp.round(x) + jnp.floor(x) + jnp.ceil(x) + jnp.trunc(x),
        [[0.5, 1.5, -0.5, 2.0]],
    ),
    ("mod", lambda x, y: jnp.mod(x, y), [[3.0, -3.0, 4.0, 0.0], [2.0, 2.0, 2.0, 1.0]]),
    ("fmod", lambda x, y: jnp.fmod(x, y), [[3.0, -3.0, 4.0, 0.0], [2.0, 2.0, 2.0, 1.0]]),
    ("lax_rem", lambda x, y: lax.rem(x, y), [[3.0, -3.0, 4.0, 0.0], [2.0, 2.0, 2.0, 1.0]]),
    ("heaviside", lambda x, y: jnp.heaviside(x, y), [Z, [0.5, 0.5, 0.5, 0.5]]),
    ("logsumexp_tie", lambda x: nn.logsumexp(x, axis=1), [T]),
    ("logsumexp_neginf", lambda x: nn.logsumexp(x), [[-np.inf, -np.inf]]),
    (
        "jsp_logsumexp_b",
        lambda x: jsp.special.logsumexp(x, b=jnp.array([1.0, 0.0, 2.0])),
        [[1.0, 1.0, 0.0]],
    ),
    ("softmax_neginf", lambda x: nn.softmax(x) * jnp.arange(1.0, 4.0), [[0.0, -np.inf, 0.0]]),
    ("median_tie", lambda x: jnp.median(x), [[1.0, 2.0, 2.0, 3.0]]),
    ("median_odd", lambda x: jnp.median(x), [[2.0, 2.0, 2.0]]),
    ("quantile", lambda x: jnp.quantile(x, 0.5), [[1.0, 2.0, 2.0, 3.0, 2.0]]),
    (
        "percentile_nearest",
        lambda x: jnp.percentile(x, 50.0, method="nearest"),
        [[1.0, 2.0, 2.0, 3.0]],
    ),
    (
        "max_pool_tie",
        lambda x: (
            lax.reduce_window(x, -jnp.inf, lax.max, (1, 2), (1, 1), "VALID")
            * jnp.array([[1.0, 2.0]])
        ),
        [T],
    ),
    (
        "min_pool_tie",
        lambda x: (
            lax.reduce_window(x, jnp.inf, lax.min, (2, 1), (1, 1), "VALID")
            * jnp.array([[1.0, 2.0, 3.0]])
        ),
        [T],
    ),
    ("nan_to_num", lambda x: jnp.nan_to_num(x), [[np.nan, np.inf, -np.inf, 1.0]]),
    ("where_nan", lambda x: jnp.where(x > 0, jnp.sqrt(x), 0.0), [[0.0, -1.0, 4.0]]),
    ("maximum_int_y", lambda x: jnp.maximum(x, 1), [[0.0, 1.0, 2.0]]),
    ("max_pair_stack", lambda x, y: jnp.max(jnp.stack([x, y]), axis=0), [A, B]),
    ("abs_complex", lambda x, y: jnp.abs(lax.complex(x, y)), [[0.0, 3.0, 0.0], [0.0, 4.0, -1.0]]),
    ("angle", lambda x, y: jnp.angle(lax.complex(x, y)), [[1.0, 3.0, 0.0], [0.0, 4.0, -1.0]]),
    (
        "sign_complex",
        lambda x, y: jnp.real(jnp.sign(lax.complex(x, y))),
        [[1.0, 3.0, 0.0], [0.0, 4.0, -1.0]],
    ),
    ("dynamic_slice_clamp", lambda x: lax.dynamic_slice(x, (5,), (2,)), [[1.0, 2.0, 3.0, 4.0]]),
    ("index_clamp", lambda x: x[jnp.array([0, 5, -7])], [[1.0, 2.0, 3.0, 4.0]]),
    ("scatter_dup", lambda x: jnp.zeros(3).at[jnp.array([0, 0, 2])].set(x), [[1.0, 2.0, 3.0]]),
    (
        "scatter_max",
        lambda x, y: x.at[jnp.array([0, 0, 1])].max(y),
        [[1.0, 2.0, 3.0], [1.0, 0.0, 2.0]],
    ),
    (
        "scatter_min",
        lambda x, y: x.at[jnp.array([0, 1, 1])].min(y),
        [[1.0, 2.0, 3.0], [1.0, 2.0, 2.0]],
    ),
    (
        "segment_max",
        lambda x: ops.segment_max(x, jnp.array([0, 0, 1, 1]), 2),
        [[1.0, 1.0, 2.0, 3.0]],
    ),
    ("gelu0", lambda x: nn.gelu(x) + nn.gelu(x, approximate=False), [Z]),
    ("mish_silu", lambda x: nn.mish(x) + nn.silu(x), [Z]),
    ("squareplus", lambda x: nn.squareplus(x), [Z]),
    ("log1mexp", lambda x: nn.log1mexp(x), [[0.0, 1.0]]),
    ("l2_norm_std", lambda x: jnp.std(x), [[1.0, 1.0, 1.0]]),
    ("var_const", lambda x: jnp.var(x), [[1.0, 1.0, 1.0]]),
    ("standardize_const", lambda x: nn.standardize(x), [[1.0, 1.0, 1.0]]),
    ("expm1_log1p", lambda x: jnp.expm1(x) + jnp.log1p(x), [Z]),
    ("erf_inv", lambda x: lax.erf_inv(x), [[-1.0, 0.0, 1.0]]),
    ("lgamma0", lambda x: lax.lgamma(x), [[0.0, 1.0, -1.0]]),
    ("digamma0", lambda x: lax.digamma(x), [[0.0, 1.0]]),
    ("sort_flat", lambda x: jnp.sum(jnp.sort(x, axis=None)), [T]),
    (
        "unique_vals",
        lambda x: jnp.sum(jnp.unique(x, size=3, fill_value=0.0) * jnp.array([1.0, 2.0, 3.0])),
        [[2.0, 1.0, 2.0, 3.0]],
    ),
    (
        "searchsorted_interp",
        lambda x: jnp.interp(x, jnp.array([0.0, 1.0, 2.0]), jnp.array([0.0, 1.0, 4.0])),
        [[0.0, 1.0, 2.0, 3.0]],
    ),
    (
        "interp_fp",
        lambda fp: jnp.interp(jnp.array([0.0, 1.0, 1.5, 2.0]), jnp.array([0.0, 1.0, 2.0]), fp),
        [[0.0, 1.0, 4.0]],
    ),
]

WANT = {
    "logaddexp": (
        [
            [0.5, 0.26894140243530273, 0.5, 0.8807970285415649, 0.26894140243530273, 0.5],
            [0.5, 0.7310585379600525, 0.5, 0.11920291185379028, 0.7310585379600525, 0.5],
        ],
        [1.0, 0.9999999403953552, 1.0, 0.9999999403953552, 0.9999999403953552, 1.0],
    ),
    "logaddexp2": (
        [
            [0.5, 0.3333333134651184, 0.5, 0.8000000715255737, 0.3333333730697632, 0.5],
            [0.5, 0.6666666865348816, 0.5, 0.20000001788139343, 0.6666667461395264, 0.5],
        ],
        [1.0, 1.0, 1.0, 1.0000001192092896, 1.0000001192092896, 1.0],
    ),
    "logaddexp_inf": ([[NAN, 1.0, 0.0, 1.0], [NAN, 1.0, 1.0, 0.0]], [NAN, 2.0, 1.0, 1.0]),
    "softplus": (
        [[0.11920291185379028, 0.5, 0.5, 0.7310585379600525]],
        [0.11920291185379028, 0.5, 0.5, 0.7310585379600525],
    ),
    "log_sigmoid": (
        [[0.8807970285415649, 0.5, 0.5, 0.26894140243530273]],
        [0.8807970285415649, 0.5, 0.5, 0.26894140243530273],
    ),
    "maximum": (
        [[0.5, 0.0, 0.5, 1.0, 0.0, 0.5], [0.5, 1.0, 0.5, 0.0, 1.0, 0.5]],
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
    ),
    "minimum": (
        [[0.5, 1.0, 0.5, 0.0, 1.0, 0.5], [0.5, 0.0, 0.5, 1.0, 0.0, 0.5]],
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
    ),
    "lax_max": (
        [[0.5, 0.0, 0.5, 1.0, 0.0, 0.5], [0.5, 1.0, 0.5, 0.0, 1.0, 0.5]],
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
    ),
    "lax_min": (
        [[0.5, 1.0, 0.5, 0.0, 1.0, 0.5], [0.5, 0.0, 0.5, 1.0, 0.0, 0.5]],
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
    ),
    "maximum_self": ([[1.0, 1.0, 1.0, 1.0]], [1.0, 1.0, 1.0, 1.0]),
    "fmax": (
        [[0.0, 0.0, 0.0, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0, 1.0, 1.0]],
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
    ),
    "fmin": (
        [[0.0, 1.0, 0.0, 0.0, 1.0, 0.0], [1.0, 0.0, 1.0, 1.0, 0.0, 1.0]],
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
    ),
    "abs": ([[-1.0, 1.0, 1.0, 1.0]], [-1.0, 1.0, 1.0, 1.0]),
    "fabs": ([[-1.0, 1.0, 1.0, 1.0]], [-1.0, 1.0, 1.0, 1.0]),
    "sign": ([[-1.0, -0.0, 0.0, 1.0]], [-1.0, -0.0, 0.0, 1.0]),
    "copysign": ([[1.0, 1.0, -1.0, -1.0], [0.0, 0.0, 0.0, 0.0]], [1.0, 1.0, -1.0, -1.0]),
    "where": (
        [[0.0, 0.0, 0.0, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0, 1.0, 1.0]],
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
    ),
    "where_ge": (
        [[1.0, 0.0, 1.0, 1.0, 0.0, 1.0], [0.0, 1.0, 0.0, 0.0, 1.0, 0.0]],
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
    ),
    "lax_select": (
        [[0.0, 1.0, 0.0, 0.0, 1.0, 0.0], [1.0, 0.0, 1.0, 1.0, 0.0, 1.0]],
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
    ),
    "clip": ([[0.5, 1.0, 1.0, 0.5, 0.5, 0.0]], [0.5, 1.0, 1.0, 0.5, 0.5, 0.0]),
    "clip_arr": (
        [
            [0.5, 0.25, 0.5, 0.5, 0.25, 0.25],
            [0.5, 0.25, 0.0, 0.0, 0.25, 0.25],
            [0.0, 0.5, 0.5, 0.5, 0.5, 0.5],
        ],
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
    ),
    "lax_clamp": ([[0.0, 1.0, 1.0, 0.0, 0.0, 0.0]], [0.0, 1.0, 1.0, 0.0, 0.0, 0.0]),
    "lax_clamp_arr": (
        [
            [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        ],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    ),
    "sort": ([[4.0, 2.0, 5.0, 1.0, 3.0, 6.0]], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
    "sort_2d": ([[[1.0, 2.0, 2.0], [2.0, 1.0, 1.0]]], [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]),
    "lax_sort_multi": (
        [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [4.0, 2.0, 5.0, 1.0, 3.0, 6.0]],
        [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    ),
    "argsort_take": ([[4.0, 2.0, 5.0, 1.0, 3.0, 6.0]], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
    "max": ([[[0.0, 0.5, 0.5], [0.0, 0.0, 0.0]]], 1.0),
    "max_axis1": (
        [[[0.0, 0.5, 0.5], [0.3333333432674408, 0.3333333432674408, 0.3333333432674408]]],
        [1.0, 1.0],
    ),
    "min_axis0": ([[[1.0, 0.0, 0.0], [0.0, 1.0, 1.0]]], [1.0, 1.0, 1.0]),
    "amax_keep": ([[[3.0, 6.5, 6.5], [4.0, 4.0, 4.0]]], [[4.0, 6.0, 6.0], [4.0, 4.0, 4.0]]),
    "lax_reduce_max": ([[[0.0, 0.5, 0.5], [0.0, 0.0, 0.0]]], 1.0),
    "nanmax": (
        [[[0.0, 0.5, 0.5], [0.3333333432674408, 0.3333333432674408, 0.3333333432674408]]],
        [1.0, 1.0],
    ),
    "ptp": ([[[-1.0, 0.5, 0.5], [0.0, 0.0, 0.0]]], [0.0, 0.0]),
    "max_where": ([[[0.0, 1.0, 0.0], [0.5, 0.5, 0.0]]], [1.0, 1.0]),
    "max_initial_tie": ([[[0.0, 0.25, 0.25], [0.0, 0.0, 0.0]]], [0.5, 0.0]),
    "argmax_take": ([[[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]], [[1.0], [1.0]]),
    "argmin_take": ([[[1.0, 0.0, 0.0], [1.0, 0.0, 0.0]]], [[1.0], [1.0]]),
    "top_k": ([[[0.0, 1.0, 2.0], [1.0, 2.0, 0.0]]], [[1.0, 2.0], [1.0, 2.0]]),
    "cummax": ([[[1.0, 3.5, 1.5], [2.75, 1.75, 1.5]]], [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]),
    "cummin": ([[[6.0, 0.0, 0.0], [2.75, 1.75, 1.5]]], [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]),
    "cummax_rev": ([[[0.0, 1.5, 4.5], [0.5, 1.25, 4.25]]], [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]),
    "cumprod_zero": ([[1.0, 8.0, 0.0, 0.0, 0.0]], [1.0, 2.0, 6.0, 0.0, 0.0]),
    "prod_zero": ([[0.0, 6.0, 0.0]], 6.0),
    "prod_two_zeros": ([[0.0, 0.0, 0.0]], 0.0),
    "relu": ([[0.0, 0.0, 0.0, 1.0]], [0.0, 0.0, 0.0, 1.0]),
    "relu6": ([[0.0, 0.0, 1.0, 0.0, 0.0]], [0.0, 0.0, 1.0, 0.0, 0.0]),
    "hard_tanh": ([[0.0, 1.0, 1.0, 1.0, 0.0]], [0.0, 1.0, 1.0, 1.0, 0.0]),
    "hard_sigmoid": (
        [[0.0, 0.0, 0.1666666716337204, 0.0, 0.0]],
        [0.0, 0.0, 0.1666666716337204, 0.0, 0.0],
    ),
    "hard_silu": ([[0.0, 0.0, 0.5, 1.0, 1.0]], [0.0, 0.0, 0.5, 1.0, 1.0]),
    "leaky_relu": ([[0.009999999776482582, 1.0, 1.0, 1.0]], [0.009999999776482582, 1.0, 1.0, 1.0]),
    "elu": ([[0.1353352665901184, 1.0, 1.0, 1.0]], [0.1353352665901184, 1.0, 1.0, 1.0]),
    "celu": ([[0.1353352665901184, 1.0, 1.0, 1.0]], [0.1353352665901184, 1.0, 1.0, 1.0]),
    "selu": (
        [[0.23793284595012665, 1.7580993175506592, 1.7580993175506592, 1.0507010221481323]],
        [0.23793284595012665, 1.7580993175506592, 1.7580993175506592, 1.0507010221481323],
    ),
    "sparse_plus": ([[0.0, 0.0, 0.5, 1.0, 1.0]], [0.0, 0.0, 0.5, 1.0, 1.0]),
    "sparse_sigmoid": ([[0.0, 0.25, 0.5, 0.25, 0.0]], [0.0, 0.25, 0.5, 0.25, 0.0]),
    "sqrt0": ([[INF, 0.5]], [INF, 0.5]),
    "rsqrt0": ([[-INF, -0.5]], [-INF, -0.5]),
    "cbrt0": ([[INF, 0.3333333432674408]], [INF, 0.3333333432674408]),
    "log0": ([[INF, 1.0]], [INF, 1.0]),
    "pow_x": ([[NAN, INF, 1.0, 0.0, 0.0, -INF]], [NAN, INF, 1.0, 0.0, 0.0, -INF]),
    "pow_y": (
        [[0.0, 0.0, 0.0, 0.0, 0.6931471824645996, NAN]],
        [0.0, 0.0, 0.0, 0.0, 0.6931471824645996, NAN],
    ),
    "pow_both": ([[NAN, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]], [NAN, 1.0, 0.0, 0.0]),
    "integer_pow": ([[9.0, 1.0, 1.0, 6.0]], [9.0, 1.0, 1.0, 6.0]),
    "integer_pow_neg": ([[-INF, -2.0]], [-INF, -2.0]),
    "float_power": ([[-4.0, -0.0, 0.0, 2.0]], [-4.0, -0.0, 0.0, 2.0]),
    "square": ([[-4.0, -0.0, 0.0, 2.0]], [-4.0, -0.0, 0.0, 2.0]),
    "reciprocal": ([[-INF, -0.25]], [-INF, -0.25]),
    "div0": ([[INF, INF, 1.0], [NAN, -INF, -0.0]], [NAN, NAN, 1.0]),
    "hypot0": (
        [[0.5, 0.6000000238418579, 0.0], [0.5, 0.7999999523162842, 1.0]],
        [1.0, 1.399999976158142, 1.0],
    ),
    "arctan2_0": ([[NAN, 0.0, -1.0], [NAN, -1.0, -0.0]], [NAN, -1.0, -1.0]),
    "norm0": ([[NAN, NAN]], NAN),
    "norm_inf": ([[-0.5, 0.5, 0.0]], 0.0),
    "norm_1": ([[-1.0, 1.0, 1.0]], 1.0),
    "arcsin1": ([[INF, INF, 1.0]], [INF, INF, 1.0]),
    "arccos1": ([[-INF, -INF, -1.0]], [-INF, -INF, -1.0]),
    "arctanh1": ([[INF, INF, 1.0]], [INF, INF, 1.0]),
    "arccosh1": ([[INF, 0.5773502588272095]], [INF, 0.5773502588272095]),
    "log1p_m1": ([[INF, 1.0]], [INF, 1.0]),
    "xlogy0": ([[-INF, 0.0, -INF], [NAN, 0.0, INF]], [NAN, 0.0, NAN]),
    "xlog1py0": (
        [[-INF, 0.6931471824645996, -INF], [NAN, 0.0, INF]],
        [NAN, 0.6931471824645996, NAN],
    ),
    "entr0": ([[INF, -1.0]], [INF, -1.0]),
    "sinc0": ([[0.0, -1.2732396125793457]], [0.0, -1.2732396125793457]),
    "round_floor_ceil": ([[0.0, 0.0, 0.0, 0.0]], [0.0, 0.0, 0.0, 0.0]),
    "mod": ([[1.0, 1.0, 1.0, 1.0], [-1.0, 2.0, -2.0, 0.0]], [0.0, 3.0, -1.0, 1.0]),
    "fmod": ([[1.0, 1.0, 1.0, 1.0], [-1.0, 1.0, -2.0, -0.0]], [0.0, 2.0, -1.0, 1.0]),
    "lax_rem": ([[1.0, 1.0, 1.0, 1.0], [-1.0, 1.0, -2.0, -0.0]], [0.0, 2.0, -1.0, 1.0]),
    "heaviside": ([[0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 1.0, 0.0]], [0.0, 1.0, 1.0, 0.0]),
    "logsumexp_tie": (
        [
            [
                [0.06337893754243851, 0.46831050515174866, 0.46831050515174866],
                [0.3333333432674408, 0.3333333432674408, 0.3333333432674408],
            ]
        ],
        [1.0, 1.0],
    ),
    "logsumexp_neginf": ([[NAN, NAN]], NAN),
    "jsp_logsumexp_b": ([[0.5761168599128723, 0.0, 0.4238831102848053]], 1.0),
    "softmax_neginf": ([[-0.5, 0.0, 0.5]], [0.0, 0.0, 0.0]),
    "median_tie": ([[0.0, 0.5, 0.5, 0.0]], 1.0),
    "median_odd": ([[0.0, 1.0, 0.0]], 1.0),
    "quantile": ([[0.0, 0.0, 1.0, 0.0, 0.0]], 1.0),
    "percentile_nearest": ([[0.0, 1.0, 0.0, 0.0]], 1.0),
    "max_pool_tie": ([[[0.0, 3.0, 0.0], [1.0, 2.0, 0.0]]], [[1.0, 2.0], [1.0, 2.0]]),
    "min_pool_tie": ([[[1.0, 0.0, 0.0], [0.0, 2.0, 3.0]]], [[1.0, 2.0, 3.0]]),
    "nan_to_num": ([[0.0, 0.0, 0.0, 1.0]], [0.0, 0.0, 0.0, 1.0]),
    "where_nan": ([[NAN, NAN, 0.25]], [0.0, 0.0, 0.25]),
    "maximum_int_y": ([[0.0, 0.5, 1.0]], [0.0, 0.5, 1.0]),
    "max_pair_stack": (
        [[0.5, 0.0, 0.5, 1.0, 0.0, 0.5], [0.5, 1.0, 0.5, 0.0, 1.0, 0.5]],
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
    ),
    "abs_complex": (
        [[0.0, 0.6000000238418579, 0.0], [-0.0, 0.800000011920929, -1.0]],
        [0.0, 1.4000000953674316, -1.0],
    ),
    "angle": (
        [[0.0, -0.1599999964237213, 1.0], [1.0, 0.11999999731779099, -0.0]],
        [1.0, -0.03999999910593033, 1.0],
    ),
    "sign_complex": ([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [0.0, 0.0, 0.0]),
    "dynamic_slice_clamp": ([[0.0, 0.0, 1.0, 1.0]], [1.0, 1.0]),
    "index_clamp": ([[1.0, 0.0, 0.0, 0.0]], [1.0, 1.0, 1.0]),
    "scatter_dup": ([[0.0, 1.0, 1.0]], [1.0, 0.0, 1.0]),
    "scatter_max": ([[0.5, 0.5, 1.0], [0.5, 0.0, 0.5]], [1.0, 1.0, 1.0]),
    "scatter_min": (
        [[0.5, 0.3333333730697632, 1.0], [0.5, 0.3333333432674408, 0.3333333432674408]],
        [1.0, 1.0, 1.0],
    ),
    "segment_max": ([[0.5, 0.5, 0.0, 1.0]], [1.0, 1.0]),
    "gelu0": (
        [[-0.17133116722106934, 1.0, 1.0, 2.1662795543670654]],
        [-0.17133113741874695, 1.0, 1.0, 2.1662795543670654],
    ),
    "mish_silu": (
        [[-0.1991393268108368, 1.100000023841858, 1.100000023841858, 1.9767067432403564]],
        [-0.1991393268108368, 1.100000023841858, 1.100000023841858, 1.9767067432403564],
    ),
    "squareplus": (
        [[0.1464466154575348, 0.5, 0.5, 0.7236068248748779]],
        [0.1464466154575348, 0.5, 0.5, 0.7236068248748779],
    ),
    "log1mexp": ([[INF, 0.5819767117500305]], [INF, 0.5819767117500305]),
    "l2_norm_std": ([[NAN, NAN, NAN]], NAN),
    "var_const": ([[0.0, 0.0, 0.0]], 0.0),
    "standardize_const": ([[0.0, 0.0, 0.0]], [0.0, 0.0, 0.0]),
    "expm1_log1p": (
        [[-0.8646647334098816, 2.0, 2.0, 3.2182817459106445]],
        [-0.8646647334098816, 2.0, 2.0, 3.2182817459106445],
    ),
    "erf_inv": ([[INF, 0.8862269520759583, INF]], [INF, 0.8862269520759583, INF]),
    "lgamma0": ([[NAN, -0.5772153735160828, NAN]], [NAN, -0.5772153735160828, NAN]),
    "digamma0": ([[INF, 1.644934058189392]], [INF, 1.644934058189392]),
    "sort_flat": ([[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]], 6.0),
    "unique_vals": ([[2.0, 1.0, 0.0, 3.0]], 6.0),
    "searchsorted_interp": ([[1.0, 3.0, 3.0, 0.0]], [1.0, 3.0, 3.0, 0.0]),
    "interp_fp": ([[1.0, 1.5, 1.5]], [1.0, 1.0, 1.0, 1.0]),
}


def _grads_and_tangent(fn, args):
    args = [jnp.asarray(np.asarray(a, np.float32)) for a in args]
    grads = core.grad(lambda *a: jnp.sum(fn(*a)), argnums=tuple(range(len(args))))(*args)
    _, tangent = core.jvp(fn, tuple(args), tuple(jnp.ones_like(a) for a in args))
    return grads, tangent


def _check(got, want):
    np.testing.assert_allclose(np.asarray(got, np.float64), want, rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("name, fn, args", CASES, ids=[c[0] for c in CASES])
def test_derivative_matches_jax(name, fn, args):
    grads, tangent = _grads_and_tangent(fn, args)
    want_grads, want_tangent = WANT[name]
    assert len(grads) == len(want_grads)
    for got, want in zip(grads, want_grads):
        _check(got, want)
    _check(tangent, want_tangent)


JITTED = ["logaddexp", "lax_clamp", "cummax", "cumprod_zero", "scatter_dup", "index_clamp"]


@pytest.mark.parametrize("name", JITTED)
def test_jitted_gradient_matches_jax(name):
    fn, args = next((c[1], c[2]) for c in CASES if c[0] == name)
    args = [np.asarray(a, np.float32) for a in args]
    loss = core.jit(core.grad(lambda *a: jnp.sum(fn(*a)), argnums=tuple(range(len(args)))))
    for got, want in zip(loss(*args), WANT[name][0]):
        _check(got, want)


def test_every_case_has_a_known_answer():
    assert sorted(c[0] for c in CASES) == sorted(WANT)


def test_scatter_multiply_gradient_is_exact_at_zero_updates():
    # Unique indices: JAX 0.10.2's answer (unique_indices=True). Repeated indices (JAX refuses
    # them): d/du_j = x * the product of the other updates to the same element, no division.
    x = jnp.array([1.0, 2.0, 3.0])

    def unique(x, y):
        return (x.at[jnp.array([0, 2])].multiply(y) * jnp.array([1.0, 2.0, 3.0])).sum()

    gx, gy = core.grad(unique, argnums=(0, 1))(x, jnp.array([0.0, 4.0]))
    np.testing.assert_array_equal(gx, [0.0, 2.0, 12.0])
    np.testing.assert_array_equal(gy, [1.0, 9.0])

    def repeated(x, y):
        return x.at[jnp.array([0, 0, 1])].multiply(y).sum()

    for y, want_x, want_y in [
        ([0.0, 2.0, 0.0], [0.0, 0.0, 1.0], [2.0, 0.0, 2.0]),
        ([3.0, 2.0, 5.0], [6.0, 5.0, 1.0], [2.0, 3.0, 2.0]),
        ([0.0, 0.0, 4.0], [0.0, 4.0, 1.0], [0.0, 0.0, 2.0]),
    ]:
        gx, gy = core.jit(core.grad(repeated, argnums=(0, 1)))(x, jnp.array(y))
        np.testing.assert_array_equal(gx, want_x)
        np.testing.assert_array_equal(gy, want_y)
