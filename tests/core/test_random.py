"""core.random against Random123's known answers and values recorded from JAX 0.10.2
(`jax.random`, default partitionable threefry; recorded with the reference venv, never imported).

Values that only go through integer ops and IEEE-exact float ops are compared bit for bit;
normal and truncated_normal too (erf and erf_inv are XLA's kernels); values behind other
transcendental functions (log1p, ...) or an FMA that XLA contracts are compared to a few
float32 ulps.
"""

import json
import pathlib

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax, random
from core.errors import PRNGKeyError, RandomArgumentError, ShapeError, TypePromotionError
from core.prims.random_bits import bitcast_convert_type, threefry2x32
from tests.core import rbg_cases

U32 = np.uint32
K0 = random.key(0)


def _np(x):
    """A value as numpy: keys by their uint32 data."""
    return np.asarray(random.key_data(x) if isinstance(x, random.PRNGKeyArray) else x)


# ---------------------------------------------------------------------------------------------
# The hash


@pytest.mark.parametrize(
    "key, count, expected",
    [
        ((0x00000000, 0x00000000), (0x00000000, 0x00000000), (0x6B200159, 0x99BA4EFE)),
        ((0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF), (0x1CB996FC, 0xBB002BE7)),
        ((0x13198A2E, 0x03707344), (0x243F6A88, 0x85A308D3), (0xC4923A9C, 0x483DF7A0)),
    ],
    ids=["zeros", "ones", "pi"],
)
def test_threefry2x32_random123_known_answers(key, count, expected):
    args = [core.numpy.asarray(np.array([v], U32)) for v in (*key, *count)]
    y0, y1 = threefry2x32(*args)
    assert (int(_np(y0)[0]), int(_np(y1)[0])) == expected
    assert y0.dtype == U32 and y1.dtype == U32


def test_threefry2x32_rejects_mixed_shapes_and_dtypes():
    a = jnp.zeros((2,), jnp.uint32)
    with pytest.raises(ShapeError, match=r"\(2,\), \(2,\), \(3,\)"):
        threefry2x32(a, a, jnp.zeros((3,), jnp.uint32), a)
    with pytest.raises(TypeError, match="uint32"):
        threefry2x32(a, a, jnp.zeros((2,), jnp.int32), a)


def test_bitcast_convert_type_roundtrip():
    x = jnp.asarray(np.array([1.0, -2.5, np.inf], np.float32))
    bits = bitcast_convert_type(x, jnp.uint32)
    np.testing.assert_array_equal(_np(bits), np.array([1.0, -2.5, np.inf], np.float32).view(U32))
    np.testing.assert_array_equal(_np(bitcast_convert_type(bits, jnp.float32)), _np(x))
    # Narrower dtypes add a last axis (as jax.lax.bitcast_convert_type does).
    np.testing.assert_array_equal(
        _np(bitcast_convert_type(x, jnp.uint8)), _np(x).view(np.uint8).reshape(3, 4)
    )


@pytest.mark.parametrize("jit", [False, True])
def test_bitcast_convert_type_result_is_never_weak(jit):
    # JAX 0.10.2 (its lax_test): a weakly typed operand bitcast to its own dtype is not weak
    f = lambda x: lax.bitcast_convert_type(x, jnp.float32)  # noqa: E731
    out = (core.jit(f) if jit else f)(1.0)
    assert (out.dtype, out.weak_type) == (jnp.float32, False)


# ---------------------------------------------------------------------------------------------
# Keys


@pytest.mark.parametrize(
    "seed, expected",
    [
        (0, [0, 0]),
        (42, [0, 42]),
        (-1, [0, 4294967295]),
        (2**32 + 5, [0, 5]),
        (-(2**40), [0, 0]),
        (2**31, [0, 2147483648]),
        (2**63 - 1, [0, 4294967295]),
    ],
)
def test_key_from_int_seed_without_x64(seed, expected):
    k = random.key(seed)
    assert k.dtype == random.key_dtype() and k.shape == ()
    assert _np(k).tolist() == expected
    raw = random.PRNGKey(seed)
    assert raw.dtype == U32 and raw.shape == (2,) and _np(raw).tolist() == expected


@pytest.mark.parametrize("seed, expected", [(2**32 + 5, [1, 5]), (-1, [4294967295, 4294967295])])
def test_key_from_int_seed_with_x64(seed, expected):
    with core.enable_x64():
        assert _np(random.key(seed)).tolist() == expected


@pytest.mark.parametrize("seed", [1.5, True, np.zeros(2, np.int32)])
def test_key_rejects_bad_seeds(seed):
    with pytest.raises(PRNGKeyError):
        random.key(seed)


def test_key_seed_out_of_int64_range():
    with pytest.raises(OverflowError):
        random.key(2**64)


SPLIT_4 = [
    [1797259609, 2579123966],
    [928981903, 3453687069],
    [4146024105, 2718843009],
    [2467461003, 3840466878],
]


def test_split_documented_values():
    assert _np(random.split(K0)).tolist() == SPLIT_4[:2]
    assert _np(random.split(K0, 4)).tolist() == SPLIT_4
    assert _np(random.split(random.key(42))).tolist() == [
        [1832780943, 270669613],
        [64467757, 2916123636],
    ]


def test_split_with_shape():
    keys = random.split(K0, (2, 3))
    assert keys.shape == (2, 3) and random.key_data(keys).shape == (2, 3, 2)
    assert random.split(random.PRNGKey(0), (2, 3)).shape == (2, 3, 2)
    expected = SPLIT_4 + [[2285895361, 433833334], [1524306142, 1887795613]]
    assert _np(keys).reshape(6, 2).tolist() == expected


def test_split_equals_fold_in():
    keys = random.split(random.key(7), 5)
    for i in range(5):
        np.testing.assert_array_equal(_np(keys[i]), _np(random.fold_in(random.key(7), i)))


@pytest.mark.parametrize(
    "key, data, expected",
    [
        (0, 7, [2716826189, 292468403]),
        (42, 2**32 - 3, [3870250634, 4275682102]),
        (42, np.array(-1, np.int32), [2398536845, 3890976714]),  # int32 data wraps to uint32
    ],
)
def test_fold_in(key, data, expected):
    assert _np(random.fold_in(random.key(key), data)).tolist() == expected


def test_fold_in_rejects_negative_python_int_and_arrays():
    with pytest.raises(OverflowError):
        random.fold_in(K0, -1)
    with pytest.raises(PRNGKeyError, match="scalar"):
        random.fold_in(K0, np.arange(2))


def test_key_data_and_wrap_key_data_are_identities():
    keys = random.split(K0, 3)
    np.testing.assert_array_equal(_np(random.key_data(keys)), _np(keys))
    np.testing.assert_array_equal(_np(random.wrap_key_data(_np(keys))), _np(keys))
    with pytest.raises(PRNGKeyError, match="uint32"):
        random.key_data(np.zeros((3,), np.uint32))


@pytest.mark.parametrize("bad", [np.zeros(2, np.int32), np.zeros((3,), np.uint32)])
def test_functions_reject_non_keys(bad):
    with pytest.raises(PRNGKeyError, match="PRNG key"):
        random.uniform(bad)


def test_batched_key_needs_vmap():
    with pytest.raises(PRNGKeyError, match="vmap"):
        random.normal(random.split(K0, 2), (3,))


# ---------------------------------------------------------------------------------------------
# Samplers, bit-exact


@pytest.mark.parametrize(
    "shape, dtype, expected",
    [
        ((4,), jnp.uint32, [4070199207, 4202968722, 1427181096, 2012915765]),
        ((5,), jnp.uint8, [167, 146, 40, 53, 183]),
        ((2, 3), jnp.uint16, [[20391, 13970, 3624], [43061, 15287, 26947]]),
    ],
)
def test_bits(shape, dtype, expected):
    out = random.bits(K0, shape, dtype)
    assert out.dtype == dtype and out.shape == shape
    assert _np(out).tolist() == expected


def test_bits_rejects_signed_dtypes():
    with pytest.raises(RandomArgumentError, match="unsigned"):
        random.bits(K0, (2,), jnp.int32)


def test_uniform_documented_values():
    out = random.uniform(K0, (3,))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(_np(out), np.array([0.947667, 0.9785799, 0.33229148], np.float32))
    second = _np(random.uniform(random.split(K0)[1]))
    assert second == np.float32(0.0072938204) and abs(second - 0.00729382) < 1e-9
    np.testing.assert_array_equal(
        _np(random.uniform(random.key(42), (2,))), np.array([0.48870957, 0.6797972], np.float32)
    )


def test_uniform_bounds_and_dtype_errors():
    out = _np(random.uniform(random.key(1), (2, 2), minval=-2.0, maxval=3.0))
    # XLA contracts `u * span + min` into an FMA; the last ulp may differ.
    np.testing.assert_allclose(out, [[0.19316244, 0.6687646], [0.2295916, 0.19198167]], rtol=1e-6)
    with pytest.raises(RandomArgumentError, match="float"):
        random.uniform(K0, (2,), jnp.int32)
    with pytest.raises(ShapeError, match="broadcast"):
        random.uniform(K0, (2,), minval=jnp.zeros(3))


@pytest.mark.parametrize(
    "seed, shape, expected",
    [
        (0, (5,), [1.6226422, 2.0252647, -0.43359444, -0.07861735, 0.1760909]),
        (7, (2, 3), [[0.45123515, 1.9534509, -0.51623946], [-0.1409403, 0.6154967, 0.3343165]]),
    ],
)
def test_normal(seed, shape, expected):
    out = random.normal(random.key(seed), shape)
    assert out.dtype == np.float32 and out.shape == shape
    np.testing.assert_array_equal(_np(out), np.array(expected, np.float32))


def test_truncated_normal_is_jax_bit_for_bit():
    """erf and erf_inv are XLA's kernels (core/jit/vecmath.py), eagerly and under jit."""
    want = np.array([1.5094677, 1.747393, -0.17467561, 0.10624172, 0.31906945], np.float32)
    sample = lambda k: random.truncated_normal(k, -1.0, 2.0, (5,))  # noqa: E731
    np.testing.assert_array_equal(_np(sample(K0)), want)
    np.testing.assert_array_equal(_np(core.jit(sample)(K0)), want)


@pytest.mark.parametrize(
    "seed, shape, lo, hi, dtype, expected",
    [
        (0, (3, 3), 0, 8, None, [[5, 0, 0], [5, 3, 3], [0, 7, 5]]),
        (3, (6,), -5, 1000, None, [580, 284, 305, 99, 296, 477]),
        (3, (6,), 0, 256, jnp.uint8, [75, 115, 157, 170, 12, 104]),
        (3, (6,), -128, 127, jnp.int8, [-23, -19, 62, 96, -7, -21]),
        (3, (3,), 5, 5, None, [5, 5, 5]),
    ],
)
def test_randint(seed, shape, lo, hi, dtype, expected):
    out = random.randint(random.key(seed), shape, lo, hi, dtype)
    assert out.dtype == (dtype or np.int32)
    assert _np(out).tolist() == expected


def test_bernoulli():
    assert _np(random.bernoulli(K0, 0.3, (8,))).tolist() == [False] * 5 + [True, False, False]
    p = jnp.array([0.1, 0.5, 0.9, 0.99])
    out = random.bernoulli(random.key(5), p)
    assert out.dtype == np.bool_ and _np(out).tolist() == [False, False, True, True]
    with pytest.raises(RandomArgumentError, match="floating"):
        random.bernoulli(K0, 1)


@pytest.mark.parametrize(
    "p, shape, mode, expected",
    [
        ([0.1, 0.9], (3, 2), "low", [[0, 0], [0, 1], [0, 1]]),
        ([0.2, 0.6, 0.9], (2, 3), "high", [[0, 0, 1], [0, 1, 1]]),
        ([[0.3], [0.8]], (2, 4), "low", [[0, 0, 0, 0], [1, 1, 1, 1]]),
    ],
    ids=["row", "row_high", "column"],
)
def test_bernoulli_broadcasts_p_to_shape(p, shape, mode, expected):
    # JAX 0.10.2: jax.random.bernoulli(jax.random.PRNGKey(0), p, shape, mode) (p of a lower
    # rank or with unit axes is broadcast to the shape; numbax raised a ShapeError)
    key = random.PRNGKey(0)
    out = random.bernoulli(key, jnp.array(p), shape, mode=mode)
    assert _np(out).astype(int).tolist() == expected
    jitted = core.jit(lambda k, p: random.bernoulli(k, p, (4, 2)))(key, jnp.array([0.5, 0.7]))
    assert _np(jitted).astype(int).tolist() == [[0, 0], [1, 1], [0, 1], [1, 1]]


def test_rademacher():
    assert _np(random.rademacher(K0, (6,))).tolist() == [-1, -1, 1, 1, -1, 1]


@pytest.mark.parametrize(
    "seed, logits, kwargs, expected",
    [
        (0, [[0.1, 0.5, 2.0], [1.0, -1.0, 0.0]], {}, [1, 0]),
        (2, [0.1, 0.5, 2.0, -1.0], {"shape": (6,)}, [1, 2, 2, 0, 2, 2]),
        (2, [[0.1, 0.5, 2.0], [1.0, -1.0, 0.0]], {"axis": 0}, [1, 0, 0]),
    ],
    ids=["rows", "shape", "axis0"],
)
def test_categorical(seed, logits, kwargs, expected):
    out = random.categorical(random.key(seed), jnp.array(logits), **kwargs)
    assert out.dtype == np.int32 and _np(out).tolist() == expected


@pytest.mark.parametrize(
    "key, x, kwargs, expected",
    [
        (K0, 10, {}, [0, 1, 8, 5, 6, 4, 3, 2, 7, 9]),
        (random.fold_in(K0, 1), 10, {}, [0, 3, 9, 5, 1, 8, 4, 6, 2, 7]),
        (
            random.key(1),
            np.arange(12).reshape(3, 4),
            {"axis": 1},
            [[3, 2, 0, 1], [7, 6, 4, 5], [11, 10, 8, 9]],
        ),
        (
            random.key(1),
            np.arange(12).reshape(3, 4),
            {"axis": 1, "independent": True},
            [[3, 2, 0, 1], [7, 6, 5, 4], [8, 10, 9, 11]],
        ),
    ],
    ids=["int", "fold_in", "axis1", "independent"],
)
def test_permutation(key, x, kwargs, expected):
    assert _np(random.permutation(key, x, **kwargs)).tolist() == expected


def test_permutation_large_uses_two_sort_rounds():
    out = _np(random.permutation(random.key(3), 100000))
    assert out[:10].tolist() == [
        1060,
        49928,
        46731,
        40547,
        96705,
        90588,
        62007,
        55281,
        34526,
        28064,
    ]
    assert np.array_equal(np.sort(out), np.arange(100000))


@pytest.mark.parametrize(
    "key, a, shape, kwargs, expected",
    [
        (K0, 10, (5,), {}, [9, 0, 2, 3, 1]),
        (K0, 10, (5,), {"replace": False}, [0, 1, 8, 5, 6]),
        (K0, 4, (6,), {"p": [0.1, 0.2, 0.3, 0.4]}, [0, 0, 3, 2, 2, 3]),
        (random.key(4), np.arange(12).reshape(3, 4), (2,), {"axis": 1}, [[2, 2], [6, 6], [10, 10]]),
        (K0, 5, (3,), {"replace": False, "p": [0.1, 0.2, 0.3, 0.2, 0.2]}, [1, 0, 4]),
    ],
    ids=["int", "no_replace", "p", "array_axis1", "p_no_replace"],
)
def test_choice(key, a, shape, kwargs, expected):
    if "p" in kwargs:
        kwargs = {**kwargs, "p": jnp.array(kwargs["p"])}
    assert _np(random.choice(key, a, shape, **kwargs)).tolist() == expected


def test_choice_errors():
    with pytest.raises(RandomArgumentError, match="larger sample"):
        random.choice(K0, 3, (4,), replace=False)
    with pytest.raises(ShapeError, match="p has shape"):
        random.choice(K0, 3, (2,), p=jnp.ones(4) / 4)
    assert random.choice(K0, 3, (0,)).shape == (0,)


# ---------------------------------------------------------------------------------------------
# Samplers behind transcendental functions (XLA's exp/log/erf/log1p/QR round differently by an
# ulp from numbax's kernels, which eager and jitted calls share)


@pytest.mark.parametrize(
    "fn, expected",
    [
        (lambda k: random.exponential(k, (4,)), [2.950128, 3.8434246, 0.40390354, 0.6323691]),
        (lambda k: random.gumbel(k, (4,)), [2.9233725, 3.8326178, -0.09689324, 0.27725708]),
        (lambda k: random.laplace(k, (4,)), [-2.2569816, -3.1502788, 0.40859544, 0.06471242]),
        (lambda k: random.logistic(k, (4,)), [2.8963759, 3.8217716, -0.6978392, -0.12549055]),
        (
            lambda k: random.orthogonal(k, 3),
            [
                [0.9554101, 0.29413575, 0.02599558],
                [-0.04628982, 0.23614088, -0.9706156],
                [-0.29163137, 0.9261326, 0.23922686],
            ],
        ),
        (
            lambda k: random.multivariate_normal(
                k, jnp.array([1.0, -1.0]), np.array([[2.0, 0.5], [0.5, 1.0]]), (3,)
            ),
            [[3.2947626, 1.4681523], [0.38680488, -1.2268386], [1.2490301, -1.8470488]],
        ),
    ],
    ids=["exponential", "gumbel", "laplace", "logistic", "orthogonal", "mvn"],
)
def test_continuous_samplers_match_jax_to_ulps(fn, expected):
    out = fn(K0)
    assert out.dtype == np.float32
    np.testing.assert_allclose(_np(out), np.array(expected, np.float32), rtol=2e-6, atol=1e-7)


def test_truncated_normal_stays_inside_bounds():
    out = _np(random.truncated_normal(random.key(9), 0.5, 0.6, (2000,)))
    assert out.min() > 0.5 and out.max() < 0.6


# ---------------------------------------------------------------------------------------------
# x64


def test_x64_mode():
    with core.enable_x64():
        u = random.uniform(K0, (3,))
        assert u.dtype == np.float64
        np.testing.assert_array_equal(
            _np(u), [0.41845711171638644, 0.21629545460551136, 0.9653214611189975]
        )
        np.testing.assert_allclose(
            _np(random.normal(K0, (3,))),
            [-0.2058421394796434, -0.7847657764467411, 1.8160866726679836],
            rtol=1e-14,
        )
        bits = random.bits(K0, (3,))
        assert bits.dtype == np.uint64
        assert _np(bits).tolist() == [
            7719171245655871230,
            3989946895414531357,
            17807037942121513089,
        ]
        r = random.randint(K0, (4,), 0, 100)
        assert r.dtype == np.int64 and _np(r).tolist() == [35, 11, 75, 17]
        big = random.randint(K0, (4,), -(2**40), 2**40, jnp.int64)
        assert _np(big).tolist() == [-643884527857, 205787154559, 30857237199, 999804089301]
        np.testing.assert_array_equal(
            _np(random.uniform(K0, (3,), jnp.float32)),
            np.array([0.947667, 0.9785799, 0.33229148], np.float32),
        )


# ---------------------------------------------------------------------------------------------
# Transformations and statistics


def test_vmap_over_split_keys_matches_a_loop():
    keys = random.split(K0, 4)
    out = core.vmap(lambda k: random.normal(k, (3,)))(keys)
    expected = np.stack([_np(random.normal(keys[i], (3,))) for i in range(4)])
    np.testing.assert_array_equal(_np(out), expected)
    perms = core.vmap(lambda k: random.permutation(k, 6))(keys)
    np.testing.assert_array_equal(_np(perms[2]), _np(random.permutation(keys[2], 6)))


def test_vmap_over_seeds_and_fold_in_data():
    seeds = jnp.arange(3)
    np.testing.assert_array_equal(_np(core.vmap(random.key)(seeds)), [[0, 0], [0, 1], [0, 2]])
    folded = core.vmap(lambda d: random.fold_in(K0, d))(jnp.arange(4, dtype=jnp.uint32))
    np.testing.assert_array_equal(_np(folded), SPLIT_4)


def test_make_jaxpr_stages_key_primitives():
    # a typed key is a `key<fry>[]` argument (JAX's); raw data is wrapped first
    text = str(core.make_jaxpr(lambda k: random.uniform(k, (2,)))(K0))
    assert "random_wrap" not in text and "random_bits[bit_width=32 shape=(2,)]" in text
    assert "{ lambda ; q:key<fry>[]. let" in text
    raw = str(core.make_jaxpr(lambda k: random.uniform(k, (2,)))(random.key_data(K0)))
    assert "random_wrap[impl=fry]" in raw


def test_grad_through_sampler_parameters_and_permutation():
    g = core.grad(lambda m: random.uniform(K0, (3,), minval=m, maxval=5.0).sum())(1.0)
    u = _np(random.uniform(K0, (3,)))
    np.testing.assert_allclose(float(g), float(np.sum(1.0 - u)), rtol=1e-6)
    x = jnp.array([1.0, 2.0, 3.0, 4.0])
    w = jnp.arange(4.0)
    g = core.grad(lambda x: (random.permutation(K0, x) * w).sum())(x)
    perm = _np(random.permutation(K0, 4))
    expected = np.zeros(4, np.float32)
    expected[perm] = np.arange(4.0)
    np.testing.assert_array_equal(_np(g), expected)


@pytest.mark.parametrize(
    "fn, mean, var",
    [
        (lambda k: random.uniform(k, (20000,)), 0.5, 1 / 12),
        (lambda k: random.normal(k, (20000,)), 0.0, 1.0),
        (lambda k: random.exponential(k, (20000,)), 1.0, 1.0),
        (lambda k: random.randint(k, (20000,), 0, 10).astype(jnp.float32), 4.5, 8.25),
    ],
    ids=["uniform", "normal", "exponential", "randint"],
)
def test_moments(fn, mean, var):
    x = _np(fn(random.key(123))).astype(np.float64)
    assert abs(x.mean() - mean) < 4 * np.sqrt(var / x.size)
    assert abs(x.var() - var) < 0.05 * var


def test_split_keys_differ():
    keys = _np(random.split(K0, 1000))
    assert len({tuple(k) for k in keys}) == 1000


def test_jit_python_backend_matches_eager():
    def f(k):
        return random.normal(k, (5,)), random.permutation(k, 10), random.randint(k, (3,), 0, 8)

    with core.config.override("jit_backend", "python"):
        staged = core.jit(f)(K0)
    for got, want in zip(staged, f(K0)):
        np.testing.assert_array_equal(_np(got), _np(want))


# JAX 0.10.2's bits: XLA's CPU back end computes `floats * (maxval - minval) + minval` with one
# rounding (an FMA), which the sampler reproduces exactly, eagerly and under jit.
UNIFORM_AFFINE_BITS = [
    ((-3.7, 2.2), [1049486348, 1073952544, 3220497533, 3213513361, 1058847529, 1018704282]),
    ((2.5, 1000.0), [1143519718, 1148431243, 1134054161, 1138666656, 1144447949, 1142814348]),
    ((-1e10, 3.0), [3477225967, 3446805119, 3486500049, 3483743897, 3475007347, 3478911917]),
]


@pytest.mark.parametrize("bounds, bits", UNIFORM_AFFINE_BITS)
@pytest.mark.parametrize("jitted", [False, True])
def test_uniform_with_bounds_is_bit_exact_with_jax(bounds, bits, jitted):
    def draw(key):
        return random.uniform(key, (8,), minval=bounds[0], maxval=bounds[1])

    got = (core.jit(draw) if jitted else draw)(random.PRNGKey(7))
    np.testing.assert_array_equal(np.asarray(got).view(np.uint32)[:6], bits)


def test_uniform_float64_with_bounds_is_bit_exact_with_jax():
    with core.enable_x64():
        got = random.uniform(random.PRNGKey(7), (4,), jnp.float64, minval=-3.7, maxval=2.2)
    want = [4608444466919045096, 13838282780666138328, 13835897054969947074, 13838030712352928996]
    np.testing.assert_array_equal(np.asarray(got).view(np.uint64), want)


@pytest.mark.parametrize("sample", [random.uniform, random.normal, random.exponential])
def test_float64_dtype_without_x64_warns_as_jax_does(sample):
    with pytest.warns(UserWarning, match="Explicitly requested dtype float64 is not available"):
        x = sample(random.key(0), (3,), dtype=jnp.float64)
    assert x.dtype == jnp.float32


def test_int64_randint_without_x64_warns_as_jax_does():
    with pytest.warns(UserWarning, match="Explicitly requested dtype int64 is not available"):
        x = random.randint(random.key(0), (3,), 0, 5, dtype=jnp.int64)
    assert x.dtype == jnp.int32


# ---------------------------------------------------------------------------------------------
# rbg and unsafe_rbg keys: XLA's bit generator (`lax.rng_bit_generator`), bit for bit with JAX
# (`jax_random_rbg.json`, recorded by `record_random_rbg.py` on the cases of `rbg_cases.py`)

RBG = json.loads((pathlib.Path(__file__).parent / "jax_random_rbg.json").read_text())


def _rbg_case(name, k):
    if name == "vmap_uniform":
        return core.vmap(lambda k: random.uniform(k, (2,)))(random.split(k, 3))
    if name == "jit_uniform":
        return core.jit(lambda k: random.uniform(k, (5,)))(k)
    return rbg_cases.CASES[name](random, k)


@pytest.mark.parametrize("impl", ["rbg", "unsafe_rbg"])
def test_rbg_keys_match_jax(impl):
    want = RBG[impl]
    k = random.key(42, impl=impl)
    assert str(k.dtype) == want["dtype"] and k.itemsize == 16 and k.shape == ()
    assert random.key_impl(k) == impl and random.key_dtype(impl) == k.dtype
    assert _np(k).tolist() == want["key"] == _np(random.PRNGKey(42, impl=impl)).tolist()
    for name in rbg_cases.CASES:
        got = _np(_rbg_case(name, k))
        np.testing.assert_array_equal(got, np.asarray(want[name], got.dtype), err_msg=name)


def test_rbg_key_data_round_trip_and_errors():
    data = jnp.array([1, 2, 3, 4], jnp.uint32)
    k = random.wrap_key_data(data, impl="rbg")
    assert str(k.dtype) == "key<rbg>" and _np(k).tolist() == [1, 2, 3, 4]
    assert str(random.split(k, 2)).startswith("Array((2,), dtype=key<rbg>) overlaying:")
    with pytest.raises(PRNGKeyError, match="rbg key data is a uint32 array of shape \\(4,\\)"):
        random.wrap_key_data(jnp.array([1, 2], jnp.uint32), impl="rbg")
    with pytest.raises(PRNGKeyError, match="shape \\(2,\\)\\), got u32\\[4\\]"):
        random.uniform(data, (2,))  # raw 4-word data is not a threefry key, as in JAX
    with pytest.raises(RandomArgumentError, match='unrecognized PRNG implementation "foo"'):
        random.key(0, impl="foo")
    with pytest.raises(TypeError, match="^unrecognized type <class 'object'> for specifying PRNG"):
        random.key(0, impl=object())  # JAX 0.10.2's TypeError


# Complex normal draws: the bits of JAX 0.10.2's (re + 1j im) / sqrt(2) from split(key).
@pytest.mark.parametrize(
    "dtype, shape, re_bits, im_bits",
    [("complex64", (3,), [1060486905, 3206811783, 3204935427],
      [3218936028, 3216523183, 1041552502]),
     ("complex128", (2,), [4608665822939511047, 13823173422838869058],
      [13830469559638181548, 4607239521919344611])],
)  # fmt: skip
def test_complex_normal_bits_match_jax(dtype, shape, re_bits, im_bits):
    with core.enable_x64(dtype == "complex128"):
        x = np.asarray(random.normal(random.key(0), shape, dtype=dtype))
    assert x.dtype == dtype
    bits = np.uint32 if dtype == "complex64" else np.uint64
    assert x.real.view(bits).tolist() == re_bits and x.imag.view(bits).tolist() == im_bits


# First lines of JAX 0.10.2's messages (differential run, tools/jax_differential).
@pytest.mark.parametrize(
    "run, first, cls",
    [(lambda: random.normal(random.key(1), dtype=jnp.int32),
      "dtype argument to `normal` must be a float or complex dtype, got int32", ValueError),
     (lambda: random.pareto(random.key(1), jnp.array([1.0, 2.0, 3.0]), shape=()),
      "pareto parameter shapes must be broadcast-compatible with shape argument, and the result "
      "of broadcasting the shapes must equal the shape argument, but got result (3,) for shape "
      "argument ().", ValueError),
     (lambda: random.multivariate_normal(random.key(0), jnp.zeros(2), jnp.eye(3)),
      "multivariate_normal requires cov.shape == (..., n, n) for n=2, but got cov.shape == "
      "(3, 3).", ValueError),
     (lambda: random.pareto(K0, jnp.array([1.0, 2.0]), dtype=jnp.float16),
      "In arguments to pareto, cannot safely cast argument of type float32 to float16",
      TypePromotionError),
     (lambda: random.beta(K0, 2.0, jnp.array([0.5, 1.0]), dtype=jnp.bfloat16),
      "In arguments to beta, cannot safely cast argument of type float32 to bfloat16",
      TypePromotionError),
     (lambda: random.f(random.key(1), 2.0, jnp.array([1.0, 3.0, 5.0]), shape=(2,)),
      "Incompatible shapes for broadcasting: shapes=[(2,), (), (3,)]", ValueError),
     (lambda: random.truncated_normal(K0, jnp.array([-1.0, 0.0]), 1.0, (3,)),
      "Incompatible shapes for broadcasting: shapes=[(3,), (2,), ()]", ValueError),
     (lambda: random.lognormal(K0, dtype=jnp.int32),
      "dtype argument to `lognormal` must be a float or complex dtype, got int32", ValueError),
     (lambda: random.loggamma(K0, 1.0, dtype=jnp.int32),
      "dtype argument to `gamma` must be a float dtype, got int32", ValueError),
     (lambda: random.generalized_normal(K0, 1.5, dtype=jnp.int32),
      "dtype argument to `gamma` must be a float dtype, got int32", ValueError),
     (lambda: random.poisson(K0, 3.0, dtype=jnp.float32), "Invalid integer data type 'f'.",
      ValueError),
     (lambda: random.randint(K0, (6,), 0, 10, dtype=jnp.float32),
      "randint only accepts integer dtypes, got float32", TypeError),
     (lambda: random.randint(K0, (2,), jnp.array([0, 10, 100]), 200),
      "Incompatible shapes for broadcasting: shapes=[(2,), (3,), ()]", ValueError),
     (lambda: random.randint(K0, (6,), 0, 2**32, dtype=jnp.uint32),
      "An overflow was encountered while parsing an argument to a jitted computation, whose "
      "argument path is maxval. Got <class 'int'> with value 4294967296", OverflowError),
     (lambda: random.uniform(K0, (2,), minval=jnp.ones(3)),
      "mul got incompatible shapes for broadcasting: (2,), (3,).", TypeError),
     (lambda: random.f(K0, 2.0, jnp.array([1.0, 3.0, 5.0]), shape=(2, 3)),
      "div: arrays must have the same number of dimensions, got {1, 2}", TypeError),
     (lambda: random.permutation(K0, 2.0), "x must be an integer or at least 1-dimensional",
      TypeError),
     (lambda: random.ball(K0, 2.0), "'float' object cannot be interpreted as an integer",
      TypeError),
     (lambda: random.split(K0, 3.0), "'float' object cannot be interpreted as an integer",
      TypeError),
     (lambda: random.normal(K0, (2.0,)),
      "Shapes must be 1D sequences of concrete values of integer type, got (2.0,).", TypeError),
     (lambda: random.split(random.split(K0, 2)),
      "split accepts a single key, but was given a key array of shape (2,) != (). Use jax.vmap "
      "for batching.", ValueError),
     (lambda: random.uniform(random.split(random.PRNGKey(0), 2), (2,)),
      "uniform accepts a single key, but was given a key array of shape (2, 2) != (). Use "
      "jax.vmap for batching.", ValueError),
     (lambda: random.PRNGKey(jnp.array([1, 2])),
      "PRNGKey accepts a scalar seed, but was given an array of shape (2,) != (). Use jax.vmap "
      "for batching", TypeError),
     (lambda: random.key(K0), "key accepts a scalar seed, but was given a PRNG key.", TypeError),
     (lambda: random.wrap_key_data(jnp.array([1, 2], jnp.int32)),
      "JAX encountered invalid PRNG key data: expected key_data.dtype = uint32; got dtype=int32",
      TypeError),
     (lambda: random.uniform(jnp.uint32(3)),
      "JAX encountered invalid PRNG key data: expected key_data.ndim >= 1; got ndim=0",
      TypeError),
     (lambda: random.fold_in(K0, jnp.arange(2)),
      "fold_in accepts a scalar, but was given an array ofshape (2,) != (). Use jax.vmap for "
      "batching.", TypeError)],
)  # fmt: skip
def test_sampler_errors_have_jaxs_first_lines(run, first, cls):
    with pytest.raises(cls) as info:
        run()
    assert str(info.value).split("\n")[0] == first


# JAX 0.10.2 under `with jax.legacy_prng_key("error")`: the program's raw keys raise
# ValueError ("Legacy uint32 key array passed as key to jax.random function. ..."), typed keys
# and the raw keys the samplers pass around inside do not; `clone` and `wrap_key_data` take any.
@pytest.mark.parametrize(
    "call,raises",
    [
        (lambda: random.split(random.PRNGKey(0)), True),
        (lambda: random.normal(jnp.array([0, 1], jnp.uint32)), True),
        (lambda: random.fold_in(random.PRNGKey(0), 1), True),
        (lambda: random.key_data(random.PRNGKey(0)), True),
        (lambda: random.key_impl(random.PRNGKey(0)), True),
        (lambda: core.jit(random.split)(random.PRNGKey(0)), True),
        (lambda: random.clone(random.PRNGKey(0)), False),
        (lambda: random.wrap_key_data(random.PRNGKey(0)), False),
        (lambda: random.gamma(random.key(0), 2.0), False),
        (lambda: random.beta(random.key(0), 2.0, 3.0), False),
        (lambda: random.dirichlet(random.key(0), jnp.ones(3)), False),
        (lambda: random.ball(random.key(0), 2), False),
        (lambda: core.vmap(random.normal)(random.split(random.key(0))), False),
    ],
)
def test_legacy_prng_key_error(call, raises):
    with core.legacy_prng_key("error"):
        if raises:
            with pytest.raises(ValueError, match="^Legacy uint32 key array passed as key"):
                call()
        else:
            call()


def test_legacy_prng_key_error_comes_after_the_key_data_check():
    # JAX 0.10.2: invalid key data raises its TypeError before the legacy-key ValueError
    invalid = pytest.raises(TypeError, match="^JAX encountered invalid PRNG key data")
    with core.legacy_prng_key("error"), invalid:
        random.uniform(jnp.zeros(1, jnp.float32))


def test_random_seed_offset_is_added_to_every_seed():
    # JAX 0.10.2 with jax_random_seed_offset=3: key(17) is key(20), eagerly, under jit and vmap
    with core.config.override("jax_random_seed_offset", 3):
        assert _np(random.PRNGKey(17)).tolist() == [0, 20]
        assert _np(core.jit(random.PRNGKey)(17)).tolist() == [0, 20]
        keys = core.vmap(random.key)(jnp.arange(2))
        assert _np(random.key_data(keys)).tolist() == [[0, 3], [0, 4]]
        text = str(core.make_jaxpr(random.key)(1))
    assert "b:i32[] = add a 3:i32[]" in text and "random_seed[impl=fry] b" in text
    assert _np(random.PRNGKey(17)).tolist() == [0, 17]
    with pytest.raises(ValueError, match="random_seed_offset must be an int"):
        core.config.update("jax_random_seed_offset", 1.5)


def test_legacy_prng_key_warn_and_custom_prng():
    with core.legacy_prng_key("warn"), pytest.warns(UserWarning, match="Legacy uint32 key"):
        random.normal(random.PRNGKey(0))
    # JAX 0.10.2: under enable_custom_prng, PRNGKey(3) is a typed key<fry>[] over [0 3]
    with core.enable_custom_prng(True):
        k = random.PRNGKey(3)
    assert random.key_impl(k) == "threefry2x32" and k.shape == ()
    np.testing.assert_array_equal(random.key_data(k), np.array([0, 3], np.uint32))


@pytest.mark.parametrize(
    "x, dtype, want",
    [  # JAX 0.10.2: int4 is 4 bits wide (two to a byte, the first in the low bits)
        (np.array([1, -2], np.int8), "int4", [[1, 0], [-2, -1]]),
        (np.array([1, -2], np.int8), "uint4", [[1, 0], [14, 15]]),
        (jnp.array([[1, -2], [7, -8]], "int4"), np.int8, [-31, -121]),
        (jnp.array([[1, -2], [7, -8]], "int4"), np.uint8, [225, 135]),
        (jnp.array([1, -2, 7, -8], "int4"), np.uint16, 0x87E1),
        (jnp.array([[1, -2], [7, -8]], "int4"), "uint4", [[1, 14], [7, 8]]),
        (np.float32(1.5), "uint4", [0, 0, 0, 0, 0, 12, 15, 3]),
    ],
)
def test_bitcast_convert_type_of_sub_byte_integers(x, dtype, want):
    out = lax.bitcast_convert_type(x, dtype)
    assert out.dtype == jnp.dtype(dtype)
    np.testing.assert_array_equal(np.asarray(out).astype(np.int64), want)
