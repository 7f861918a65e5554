"""Jitted bfloat16 and float16 programs, written once for JAX and numbax: each case is a function
of a namespace `m` (`m.jnp`, `m.lax`, `m.nn` (jax.nn / core.nn), `m.random`, `m.linen` (Flax's
linen / numbax's nn), `m.optax` (Optax / optim), `m.narrow`: the 16-bit float dtype) returning
the program, plus its inputs' specs. `record_narrow.py` runs them on JAX 0.10.2 (the reference
venv) and stores the outputs' bits in `jax_bfloat16.npz` and `jax_float16.npz`;
`test_narrow_jit.py` runs them under numbax's `jit` on the numba back end. Neither side imports
the other's library here.

The third field of a case is its tolerance: 0, bit for bit; an int, that many ulps of the
16-bit dtype (products and convolutions accumulate in float32 in YNNPACK's or Eigen's order,
then round; their float32 outputs are compared to 1e-6); a float, a relative and absolute
tolerance for the partial cases (`core/jit/narrow.py`: XLA adds those in 16 bits in orders of
its own). `FLOAT16_ONLY` cases are recorded for float16 alone; `FLOAT16_FALLS_BACK` names the
cases whose float16 primitives are not checked against XLA (numbax runs them with numpy).

Inputs hold no float32 subnormal numbers where they meet arithmetic: XLA's CPU code flushes
them to zero (FTZ/DAZ), numbax's compiled code does not.
"""

import ml_dtypes
import numpy as np

BF = ml_dtypes.bfloat16
F16 = np.dtype(np.float16)

_SPECIAL = {
    np.dtype(BF): [0.0, -0.0, np.inf, -np.inf, np.nan, 3.0e38, -3.0e38, 1.00390625, 1.01171875],
    F16: [0.0, -0.0, np.inf, -np.inf, np.nan, 65504.0, -65504.0, 1.0009765625, 6.0e-8],
}
# float32 inputs' bit patterns: ties and overflows of the dtype's rounding
_TIES = {
    np.dtype(BF): [0x3F808000, 0x3F818000, 0x7F7FFFFF, 0x7F800001, 0xFFC00001, 0x477FF000],
    F16: [
        0x3F801000,
        0x3F803000,
        0x477FF000,
        0x477FEFFF,
        0x7F800001,
        0xFFC00001,
        0x33000000,
        0x33C00000,
        0x387FE000,
        0x387FF000,
        0xB3400000,
    ],
}


def inputs(spec, dtype=BF):
    """The input arrays of `spec`: (kind, shape, seed), of the 16-bit `dtype` unless kind says
    otherwise."""
    kind, shape, seed = spec
    dtype = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    if kind == "bf16":
        x = rng.standard_normal(shape).astype(np.float32) * 2
        flat = x.reshape(-1)
        k = min(len(_SPECIAL[dtype]), flat.size // 8)
        flat[:k] = _SPECIAL[dtype][:k]
        return x.astype(dtype)
    if kind == "bf16_plain":
        return (rng.standard_normal(shape).astype(np.float32)).astype(dtype)
    if kind == "small":
        return (rng.standard_normal(shape).astype(np.float32) * 0.01).astype(dtype)
    if kind == "grid":  # every 7th 16-bit number, NaNs and infinities among them
        return np.arange(0, 2**16, 7, dtype=np.uint16).view(dtype)
    if kind == "near_one":  # products of many stay in range
        x = rng.uniform(0.9, 1.1, shape).astype(np.float32)
        x[rng.random(shape) < 0.1] *= -1
        return x.astype(dtype)
    if kind == "unit":
        return rng.uniform(-1.2, 1.2, shape).astype(np.float32).astype(dtype)
    if kind == "pos":
        return (rng.uniform(0.05, 4.0, shape).astype(np.float32)).astype(dtype)
    if kind in ("f32", "f32_subnormal"):
        x = rng.standard_normal(shape).astype(np.float32) * 3
        flat = x.reshape(-1)
        ties = list(_TIES[dtype])
        if kind == "f32_subnormal":  # converted without arithmetic: XLA keeps them
            ties += [0x00018000, 0x00008000, 0x80000001, 0x007FFFFF]
        flat[: len(ties)] = np.array(ties, np.uint32).view(np.float32)
        return x
    if kind == "i32":
        return rng.integers(-(2**30), 2**30, shape).astype(np.int32)
    if kind == "i32_small":
        return rng.integers(-70000, 70000, shape).astype(np.int32)
    if kind == "idx":
        return rng.integers(0, shape[1], shape[0]).astype(np.int32)
    if kind == "labels":
        return rng.integers(0, 10, shape).astype(np.int32)
    raise ValueError(kind)


def _reduce_sum(m, axes):
    return lambda x: m.lax.reduce_sum_p.bind(x, axes=axes, out_sharding=None)


def _conv(m):
    return lambda x, k: m.lax.conv_general_dilated(
        x, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
    )


def _pool(m, op, init):
    return lambda x: m.lax.reduce_window(x, init, op, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


def _window(m, window, strides, padding):
    return lambda x: m.lax.reduce_window(
        x, 0.0, m.lax.add, (1, *window, 1), (1, *strides, 1), padding
    )


B, P, F, I = "bf16", "pos", "f32", "i32"

# name -> (program of m, input specs, ulps allowed)
CASES = {
    "affine_chain": (lambda m: lambda x: (x * 3 + 1) / 7, [(B, (256,), 1)], 0),
    "exp_tanh_chain": (lambda m: lambda x: m.jnp.tanh(m.jnp.exp(x) * x), [(B, (256,), 2)], 0),
    "exp": (lambda m: m.jnp.exp, [(B, (256,), 3)], 0),
    "log": (lambda m: m.jnp.log, [(P, (256,), 4)], 0),
    "tanh": (lambda m: m.jnp.tanh, [(B, (256,), 5)], 0),
    "logistic": (lambda m: m.nn.sigmoid, [(B, (256,), 6)], 0),
    "exp2": (lambda m: m.jnp.exp2, [(B, (256,), 7)], 0),
    "expm1_log1p": (lambda m: lambda x: m.jnp.log1p(m.jnp.expm1(x)), [(P, (256,), 8)], 0),
    "sqrt_rsqrt": (lambda m: lambda x: m.jnp.sqrt(x) + m.lax.rsqrt(x), [(P, (256,), 9)], 0),
    "sin_cos": (lambda m: lambda x: m.jnp.sin(x) * m.jnp.cos(x), [(B, (256,), 10)], 0),
    "erf": (lambda m: m.lax.erf, [(B, (256,), 11)], 0),
    "inverse_trig": (
        lambda m: lambda y: (m.lax.asin(y), m.lax.acos(y), m.lax.atanh(y), m.lax.erf_inv(y)),
        [("unit", (256,), 59)],
        0,
    ),
    "hyperbolic": (
        lambda m: lambda x: (m.lax.asinh(x), m.lax.acosh(m.jnp.abs(x) + 1), m.lax.sinh(x)),
        [(B, (256,), 60)],
        0,
    ),
    "integer_pow": (lambda m: lambda x: (x**3, x**-2, x * x), [(B, (256,), 12)], 0),
    "pow": (lambda m: lambda x, y: x**y, [(P, (256,), 13), (B, (256,), 14)], 0),
    "div_rem": (lambda m: lambda x, y: (x / y, x % y), [(B, (256,), 15), (P, (256,), 16)], 0),
    "gelu_relu": (lambda m: lambda x: (m.nn.gelu(x), m.nn.relu(x)), [(B, (256,), 17)], 0),
    "where_leaky": (lambda m: lambda x: m.jnp.where(x > 0, x, x * 0.01), [(B, (256,), 18)], 0),
    "softmax": (lambda m: lambda x: m.nn.softmax(x, axis=-1), [(B, (8, 16), 19)], 0),
    "log_softmax": (lambda m: lambda x: m.nn.log_softmax(x), [("bf16_plain", (8, 16), 20)], 0),
    "jnp_sum_mean_var": (
        lambda m: lambda x: (m.jnp.sum(x), m.jnp.mean(x, axis=0), m.jnp.var(x, axis=1)),
        [("bf16_plain", (40, 12), 21)],
        0,
    ),
    "reduce_sum_rows_8": (lambda m: _reduce_sum(m, (0,)), [("bf16_plain", (8, 5), 22)], 0),
    "reduce_sum_rows_64": (lambda m: _reduce_sum(m, (0,)), [("bf16_plain", (64, 5), 23)], 0),
    "reduce_sum_rows_100": (lambda m: _reduce_sum(m, (0,)), [("bf16_plain", (100, 7), 24)], 0),
    "reduce_sum_rows_1000": (lambda m: _reduce_sum(m, (0,)), [("bf16_plain", (1000, 3), 25)], 0),
    "reduce_sum_nhw": (
        lambda m: _reduce_sum(m, (0, 1, 2)),
        [("bf16_plain", (4, 6, 6, 3), 26)],
        0,
    ),
    "reduce_sum_two_axes_windows": (
        lambda m: _reduce_sum(m, (0, 1)),
        [("bf16_plain", (40, 40, 3), 49)],
        0,
    ),
    "reduce_sum_minor_100": (lambda m: _reduce_sum(m, (1,)), [("bf16_plain", (6, 100), 50)], 0),
    "reduce_sum_split_axes": (
        lambda m: _reduce_sum(m, (0, 2)),
        [("bf16_plain", (5, 40, 33), 51)],
        0,
    ),
    # XLA's scans: one reduce-window up to 16 elements, blocks of 16 beyond (recursively)
    "cumulative": (
        lambda m: (
            lambda x, y, p: (
                m.jnp.cumsum(x, axis=0),
                m.lax.cumsum(y, axis=1, reverse=True),
                m.lax.cumsum(x[:9], axis=0),
                m.lax.cumprod(p, axis=0),
                m.lax.cumprod(p[:12], axis=0, reverse=True),
            )
        ),
        [("bf16_plain", (40, 5), 52), ("bf16_plain", (3, 300), 81), ("near_one", (40, 3), 82)],
        0,
    ),
    "reduce_prod": (
        lambda m: (
            lambda p, q: (
                m.lax.reduce_prod(p, axes=(0,)),
                m.lax.reduce_prod(q, axes=(1,)),
                m.lax.reduce_prod(p[:8], axes=(0,)),
            )
        ),
        [("near_one", (100, 7), 83), ("near_one", (6, 40), 84)],
        0,
    ),
    # XLA's CHLO expansions (asin, acos, asinh, acosh, atanh) on every 7th 16-bit number
    # (all 65536 checked by hand on 2026-12-04), and their gradients
    "chlo_grid": (
        lambda m: (
            lambda x: tuple(
                f(x)
                for f in (m.jnp.arcsin, m.jnp.arccos, m.jnp.arcsinh, m.jnp.arccosh, m.jnp.arctanh)
            )
        ),
        [("grid", (), 0)],
        0,
    ),
    "chlo_grads": (
        lambda m: (
            lambda y, x: tuple(
                m.value_and_grad(lambda v, f=f: f(v).astype(m.jnp.float32).sum())(v)[1]
                for f, v in (
                    (m.jnp.arcsin, y),
                    (m.jnp.arccos, y),
                    (m.jnp.arctanh, y),
                    (m.jnp.arcsinh, x),
                    (m.jnp.arccosh, m.jnp.abs(x) + 1),
                )
            )
        ),
        [("unit", (64,), 85), (B, (64,), 86)],
        0,
    ),
    # XLA's algebraic simplifier folds constant chains, `(A * C1) * C2` into `A * (C1 * C2)`,
    # in float16 and float32 (not in bfloat16, widened to float32 first)
    "constant_chains": (
        lambda m: (
            lambda x, f: (
                (x * m.jnp.asarray(0.7978, x.dtype)) * m.jnp.asarray(0.0447, x.dtype),
                (x + m.jnp.asarray(0.3, x.dtype)) + m.jnp.asarray(1.7, x.dtype),
                3 * (2 * (x * m.jnp.asarray(0.1, x.dtype))),
                (f * 0.7978) * 0.0447,
                (f + 0.3) + 1.7,
            )
        ),
        [("bf16_plain", (256,), 87), ("f32", (256,), 88)],
        0,
    ),
    "avg_pool": (
        lambda m: lambda x: _pool(m, m.lax.add, 0.0)(x) / 4,
        [("bf16_plain", (2, 8, 8, 3), 53)],
        0,
    ),
    "avg_pool_3x3_same_grad": (  # the gradient: reduce_window_sum of a padded cotangent
        lambda m: (
            lambda x: m.value_and_grad(
                lambda x: (
                    m.lax.reduce_window(
                        x, 0.0, m.lax.add, (1, 3, 3, 1), (1, 2, 2, 1), "SAME"
                    ).astype(m.jnp.float32)
                    ** 2
                ).sum()
            )(x)[1]
        ),
        [("bf16_plain", (2, 7, 7, 3), 61)],
        0,
    ),
    # XLA's float16 window orders (`core/jit/narrow.py`'s `_window_order`): padded 2x2 and
    # 3x2 windows by columns, unpadded 4x4 and 2x3 ones by rows in vector lanes, 2x4 by rows;
    # bfloat16 adds all in row-major order
    "window_orders": (
        lambda m: (
            lambda x: tuple(
                _window(m, w, s, pad)(x)
                for w, s, pad in (
                    ((2, 2), (1, 1), "SAME"),
                    ((4, 4), (1, 1), "VALID"),
                    ((2, 3), (2, 2), "VALID"),
                    ((3, 2), (1, 1), "SAME"),
                    ((2, 4), (1, 1), "VALID"),
                )
            )
        ),
        [("bf16_plain", (2, 7, 7, 3), 89)],
        0,
    ),
    "window_orders_grad": (  # the padded cotangents of 2x2 (by columns) and 4x4 windows
        lambda m: (
            lambda x: tuple(
                m.value_and_grad(
                    lambda v, w=w: (
                        _window(m, w, (1, 1), "VALID")(v).astype(m.jnp.float32) ** 2
                    ).sum()
                )(x)[1]
                for w in ((2, 2), (4, 4))
            )
        ),
        [("bf16_plain", (2, 6, 6, 3), 90)],
        0,
    ),
    "reduce_max_min": (
        lambda m: lambda x: (m.jnp.max(x, axis=0), m.jnp.min(x), m.jnp.argmax(x, axis=1)),
        [(B, (16, 8), 27)],
        0,
    ),
    "dot": (lambda m: lambda a, b: a @ b, [(B, (16, 32), 28), (B, (32, 8), 29)], 1),
    "dot_f32_out": (
        lambda m: (
            lambda a, b: m.lax.dot_general(
                a, b, (((1,), (0,)), ((), ())), preferred_element_type=m.jnp.float32
            )
        ),
        [("bf16_plain", (16, 32), 30), ("bf16_plain", (32, 8), 31)],
        1,
    ),
    "einsum_batched": (
        lambda m: lambda a, b: m.jnp.einsum("bij,bjk->bik", a, b),
        [("bf16_plain", (3, 8, 16), 32), ("bf16_plain", (3, 16, 4), 33)],
        1,
    ),
    "conv": (
        lambda m: _conv(m),
        [("bf16_plain", (2, 8, 8, 3), 34), ("bf16_plain", (3, 3, 3, 4), 35)],
        1,
    ),
    "max_pool": (lambda m: _pool(m, m.lax.max, -np.inf), [(B, (2, 8, 8, 3), 36)], 0),
    "convert_from_f32": (
        lambda m: lambda x: x.astype(m.narrow),
        [("f32_subnormal", (64,), 37)],
        0,
    ),
    "convert_to_f32_i32": (
        lambda m: lambda x: (x.astype(m.jnp.float32) * 3, x.astype(m.jnp.int32)),
        [(B, (64,), 38)],
        0,
    ),
    "convert_from_i32": (lambda m: lambda x: x.astype(m.narrow), [(I, (64,), 39)], 0),
    "f32_ops_then_cast": (
        lambda m: lambda x, y: (x * y.astype(m.jnp.float32)).astype(m.narrow) + y,
        [(F, (64,), 40), (B, (64,), 41)],
        0,
    ),
    # XLA converts a bfloat16 result of a computation to float32 without rounding it (its
    # excess precision); a result that only moved (reshape, neg, max, select) is rounded
    "excess_precision": (
        lambda m: (
            lambda x, y: (
                (x * 3).astype(m.jnp.float32),
                (x * 3 + 1).astype(m.jnp.float32),
                m.jnp.exp(x).astype(m.jnp.float32),
                m.jnp.exp(x).reshape(4, 16).T.astype(m.jnp.float32),
                (-m.jnp.exp(x)).astype(m.jnp.float32),
                m.jnp.maximum(m.jnp.exp(x), 1).astype(m.jnp.float32),
                m.nn.sigmoid(x).astype(m.jnp.float32),
                (x**3).astype(m.jnp.float32),
                (x**2).astype(m.jnp.float32),
                m.jnp.exp(x),
            )
        ),
        [("bf16_plain", (64,), 54), ("bf16_plain", (4, 4), 55)],
        0,
    ),
    "excess_precision_dot": (
        lambda m: lambda a, b: ((a @ b).astype(m.jnp.float32), (a @ b + 1).astype(m.jnp.float32)),
        [("bf16_plain", (8, 32), 56), ("bf16_plain", (32, 4), 57)],
        1,
    ),
    "overflow_nan": (
        lambda m: lambda x: (x * x, x - x, x / (x - x), -x),
        [(B, (64,), 42)],
        0,
    ),
    "bitcast": (
        lambda m: (
            lambda x: (
                m.lax.bitcast_convert_type(x, m.jnp.uint16) >> 1,
                m.lax.bitcast_convert_type(
                    m.lax.bitcast_convert_type(x, m.jnp.int16) + 1, m.narrow
                ),
            )
        ),
        [(B, (64,), 43)],
        0,
    ),
    "gather_scatter": (
        lambda m: lambda x, i: (x[i], x.at[i].set(x[i] * 2), x.at[i].add(1.5)),
        [(B, (32,), 44), ("idx", (12, 32), 45)],
        0,
    ),
    "iota_arange": (
        lambda m: lambda x: m.jnp.arange(300, dtype=m.narrow) + x[0],
        [(B, (4,), 46)],
        0,
    ),
    "random_normal": (
        lambda m: lambda x: m.random.normal(m.random.PRNGKey(3), (64,), m.narrow) + x,
        [(B, (64,), 47)],
        0,
    ),
    "scan_carry": (
        lambda m: lambda x: m.lax.scan(lambda c, y: (c * 0.9 + y, c * y), x[0], x)[1],
        [("bf16_plain", (12, 5), 48)],
        0,
    ),
}

# float16's own: XLA divides by a float16 constant as a product with its float16 reciprocal,
# expands expm1 in float16 steps and rounds results converted to float32
FLOAT16_ONLY = {
    "div_constant": (
        lambda m: (
            lambda x: (x / 7, x / m.jnp.full_like(x, 3), 7 / x, x / m.jnp.asarray(0.1, m.narrow))
        ),
        [(B, (256,), 70)],
        0,
    ),
    "expm1": (
        lambda m: lambda x, y: (m.jnp.expm1(x), m.jnp.expm1(y), m.jnp.log1p(y)),
        [(B, (256,), 71), ("small", (256,), 72)],
        0,
    ),
    "mixed_promotion": (
        lambda m: lambda x, y, i: (x + y, x * 2.5, x + i[0], x * y.astype(m.narrow)),
        [(B, (64,), 73), (F, (64,), 74), ("i32_small", (4,), 75)],
        0,
    ),
    "convert_bfloat16_int": (
        lambda m: (
            lambda x, i: (
                x.astype(m.jnp.bfloat16),
                (x.astype(m.jnp.bfloat16) * 3).astype(m.narrow),
                i.astype(m.narrow),
                x.astype(m.jnp.int8),
            )
        ),
        [(B, (64,), 76), ("i32_small", (64,), 77)],
        0,
    ),
    "compare_select_argmax": (
        lambda m: (
            lambda x, y: (
                x > y,
                m.jnp.where(x > y, x, y * 2),
                m.jnp.argmax(x.reshape(8, 8), axis=1),
                m.jnp.cumsum(x * 0),
            )
        ),
        [(B, (64,), 78), ("bf16_plain", (64,), 79)],
        0,
    ),
    "lgamma": (lambda m: m.lax.lgamma, [(P, (16,), 91)], 0),
    "layernorm": (
        lambda m: (
            lambda x: m.linen.LayerNorm(dtype=m.narrow).apply(
                {"params": {"scale": m.jnp.ones(16), "bias": m.jnp.zeros(16)}}, x
            )
        ),
        [("bf16_plain", (8, 16), 80)],
        0,
    ),
}


# ---------------------------------------------------------------------------------------------
# Flax train steps in mixed precision (16-bit compute, float32 or 16-bit parameters)


def dense_model(m, param_dtype):
    class MLP(m.linen.Module):
        @m.linen.compact
        def __call__(self, x):
            bf = m.narrow
            x = m.linen.Dense(32, dtype=bf, param_dtype=param_dtype)(x)
            x = m.nn.relu(x)
            return m.linen.Dense(10, dtype=bf, param_dtype=param_dtype)(x)

    return MLP()


def conv_model(m):
    class CNN(m.linen.Module):
        @m.linen.compact
        def __call__(self, x):
            bf = m.narrow
            x = m.linen.Conv(4, (3, 3), dtype=bf)(x)
            x = m.nn.relu(x)
            x = x.reshape((x.shape[0], -1))
            return m.linen.Dense(10, dtype=bf)(x)

    return CNN()


def layernorm_model(m):
    class Block(m.linen.Module):
        @m.linen.compact
        def __call__(self, x):
            x = m.linen.Dense(32, dtype=m.narrow)(x)
            x = m.nn.gelu(m.linen.LayerNorm(dtype=m.narrow)(x))
            return m.linen.Dense(10, dtype=m.narrow)(x)

    return Block()


def loss_fn(m, model):
    def loss(params, x, labels):
        logits = model.apply({"params": params}, x).astype(m.jnp.float32)
        logp = m.nn.log_softmax(logits)
        return -m.jnp.mean(m.jnp.take_along_axis(logp, labels[:, None], axis=1))

    return loss


TRAIN = {
    # name -> (model of m, input specs)
    "dense_f32_params": (lambda m: dense_model(m, m.jnp.float32), [("bf16_plain", (8, 16), 60)]),
    "dense_bf16_params": (
        lambda m: dense_model(m, m.narrow),
        [("bf16_plain", (8, 16), 61)],
    ),
    "conv_f32_params": (conv_model, [("bf16_plain", (4, 6, 6, 3), 62)]),
}
# float16's own: Dense, LayerNorm (statistics in float32), gelu
FLOAT16_TRAIN = {"layernorm_f32_params": (layernorm_model, [("bf16_plain", (8, 16), 65)])}
# partial: the loss, the forward pass and all gradients but one are JAX's bits; the first
# Dense's bias gradient (a float16 sum over the batch of the LayerNorm's input gradient, whose
# float32 part XLA's simplifier rewrites in ways not all reproduced) differs in some elements
# by float16 roundings, compared to these (relative, absolute) tolerances
PARTIAL_TRAIN = {"layernorm_f32_params": {"Dense_0/bias": (2**-8, 2**-13)}}
LABELS = ("labels", (8,), 63)
CONV_LABELS = ("labels", (4,), 64)


def labels_of(name):
    return inputs(CONV_LABELS if name.startswith("conv") else LABELS)


def train_step(m, model):
    """`(params, opt_state, x, labels) -> (loss, grads, new params)`: Adam, as Optax's."""
    loss = loss_fn(m, model)
    opt = m.optax.adam(1e-2)

    def step(params, opt_state, x, labels):
        value, grads = m.value_and_grad(loss)(params, x, labels)
        updates, opt_state = opt.update(grads, opt_state, params)
        return value, grads, m.optax.apply_updates(params, updates)

    return opt, step


def programs(dtype):
    """The cases of the 16-bit `dtype`: name -> (program of m, input specs, tolerance)."""
    if np.dtype(dtype) != F16:
        return CASES
    table = {**CASES, **FLOAT16_ONLY}
    for name, tol in FLOAT16_TOLERANCE.items():
        table[name] = (*table[name][:2], tol)
    return table


def train_steps(dtype):
    """The Flax train steps of the 16-bit `dtype`: name -> (model of m, input specs)."""
    return {**TRAIN, **FLOAT16_TRAIN} if np.dtype(dtype) == F16 else TRAIN


def answers_file(dtype) -> str:
    return f"jax_{np.dtype(dtype).name}.npz"


# float16 programs whose primitives are not checked against XLA: numbax runs them with numpy
# (`core/jit/narrow.py`, `FLOAT16.checked`)
FLOAT16_FALLS_BACK = frozenset({"lgamma"})
# float16 cases compared otherwise than their table says (none)
FLOAT16_TOLERANCE: dict = {}
