"""`core.lax`'s `*_p` names are jax.lax's: every name exists, with JAX's primitive name, and
`bind` with JAX's operands and parameters gives JAX's values (tests/core/lax_primitive_answers.py,
recorded from jax 0.10.2)."""

import warnings

import numpy as np
import pytest

import core
from core import lax
from core.extend.core import primitives as extend_primitives
from core.primitive import JaxParamError, Primitive
from tests.core.lax_primitive_answers import COMPOSED_BINDS, JAX_NAMES, PRIMITIVE_BINDS


def _params(name: str, params: dict) -> dict:
    # JAX's objects among the recorded parameters, as numbax's.
    params = dict(params)
    if name == "conv_general_dilated":
        params["dimension_numbers"] = lax.ConvDimensionNumbers(*params["dimension_numbers"])
    if name == "round":
        params["rounding_method"] = lax.RoundingMethod[params["rounding_method"]]
    if name == "fft":
        params["fft_type"] = lax.FftType[params["fft_type"]]
    if name.startswith("scatter_"):
        params["dimension_numbers"] = lax.ScatterDimensionNumbers((1,), (0,), (0,))
        params["mode"] = lax.GatherScatterMode.FILL_OR_DROP
    return params


def _check(out, expected):
    if isinstance(expected, list):
        assert len(out) == len(expected)
        for o, e in zip(out, expected):
            _check(o, e)
        return
    out = np.asarray(out)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    if expected.dtype.kind in "fc":
        np.testing.assert_allclose(out, expected, rtol=2e-6, atol=2e-6)
    else:
        np.testing.assert_array_equal(out, expected)


def test_every_jax_lax_primitive_name_with_jax_name():
    names = {a: getattr(lax, a).name for a in JAX_NAMES if hasattr(lax, a)}
    assert names == JAX_NAMES


@pytest.mark.parametrize("case", PRIMITIVE_BINDS, ids=[c[0] for c in PRIMITIVE_BINDS])
def test_bind_with_jax_params(case):
    name, args, params, expected = case
    prim = getattr(lax, name + "_p")
    assert isinstance(prim, Primitive)
    _check(prim.bind(*args, **_params(name, params)), expected)


@pytest.mark.parametrize(
    "case", COMPOSED_BINDS, ids=[f"{c[0]}-{i}" for i, c in enumerate(COMPOSED_BINDS)]
)
def test_composed_bind(case):
    name, args, params, expected = case
    params = _params(name, params)
    prim = getattr(lax, name + "_p")
    if name == "reduce":  # JAX's params: the computation and its jaxpr on scalars
        params["computation"] = lambda a, b: (a[0] + b[0], a[1] * b[1])
        scalars = (np.float32(0), np.int32(0)) * 2
        params["jaxpr"] = core.make_jaxpr(lambda a0, a1, b0, b1: (a0 + b0, a1 * b1))(*scalars)
    if name == "reduce_window":
        params["jaxpr"] = core.make_jaxpr(lax.mul)(np.float32(0), np.float32(0))
    if name == "ppermute":
        out = core.vmap(lambda v: prim.bind(v, **params), axis_name="i")(args[0])
    else:
        out = prim.bind(*args, **params)
    _check(out, expected)


# JAX's primitives numbax computes from others: numbax primitives (JAX's objects for code that
# binds them, matches equations or registers rules), one object under both namespaces
OWN = [
    "igamma",
    "igammac",
    "igamma_grad_a",
    "regularized_incomplete_beta",
    "zeta",
    "bessel_i0e",
    "bessel_i1e",
    "cumlogsumexp",
    "nextafter",
    "clz",
    "conj",
    "reduce_precision",
    "eq_to",
    "le_to",
    "lt_to",
    "reduce_xor",
    "reduce",
    "reduce_window",
    "approx_top_k",
    "scatter_add",
    "scatter_mul",
    "scatter_min",
    "scatter_max",
]


@pytest.mark.parametrize("name", OWN)
def test_composed_jax_primitives_are_primitives(name):
    prim = getattr(lax, name + "_p")
    assert isinstance(prim, Primitive)
    assert getattr(extend_primitives, name + "_p") is prim
    assert prim.composition is not None or name.startswith("scatter")


@pytest.mark.parametrize(
    "name", ["hessenberg", "tridiagonal", "householder_product", "schur", "tridiagonal_solve", "lu"]
)
def test_linalg_primitives_are_primitives(name):
    prim = getattr(lax.linalg, name + "_p")
    assert isinstance(prim, Primitive) and getattr(extend_primitives, name + "_p") is prim


def test_fft_is_a_primitive():
    assert isinstance(lax.fft_p, Primitive) and extend_primitives.fft_p is lax.fft_p


def test_composed_primitives_under_jit_and_grad():
    x = np.array([-2.0, 0.3, 2.0], np.float32)
    f = core.jit(lambda x: lax.clamp_p.bind(np.float32(-1), x, np.float32(1)) ** 2)
    np.testing.assert_allclose(f(x), [1.0, 0.09, 1.0], rtol=1e-6)
    g = core.grad(lambda x: lax.square_p.bind(x).sum())(x)
    np.testing.assert_allclose(g, 2 * x)


def test_jax_params_refused_when_not_implemented():
    x = np.ones((2, 3), np.float32)
    with pytest.raises(NotImplementedError, match=r"^Accuracy high not supported$"):  # JAX's
        lax.exp_p.bind(x, accuracy="high")
    with pytest.raises(JaxParamError, match=r"reshape_p.bind: .*dimensions=\(1, 0\)"):
        lax.reshape_p.bind(x, new_sizes=(3, 2), dimensions=(1, 0), sharding=None)
    # numbax's own parameters still bind as before
    np.testing.assert_array_equal(lax.reshape_p.bind(x, new_sizes=(3, 2)), np.ones((3, 2)))


@pytest.mark.parametrize(
    "prim, fix",
    [
        (lax.create_token_p, "without tokens"),
        (lax.after_all_p, "without tokens"),
        (lax.select_and_scatter_p, "select_and_scatter_add_p"),
        (lax.ragged_all_to_all_p, "lax.all_to_all"),
    ],
)
def test_unsupported_primitives_name_the_fix(prim, fix):
    with pytest.raises(lax.PrimitiveNotImplementedError, match=fix):
        prim.bind()


def test_dot_general_accumulates_in_the_preferred_type():
    # jax 0.10.2: 640000 (int8 products summed in int32), eager as under jit
    a = np.full((2, 64), 100, np.int8)
    dn = (((1,), (0,)), ((), ()))
    for f in (lax.dot_general, core.jit(lax.dot_general, static_argnums=(2, 4))):
        out = f(a, a.T, dn, None, np.int32)
        assert out.dtype == np.int32
        np.testing.assert_array_equal(out, np.full((2, 2), 640000))


# JAX 0.10.2's TypeErrors for malformed dimension numbers, raised before shapes are compared
# (a Flax DenseGeneral whose batch_dims overlap its axis hits the disjointness one).
DOT_DIMENSION_ERRORS = [
    ((((0,), (0,)), ((0,), (0,))), "dot_general requires lhs batch dimensions to be disjoint "
     "from contracting dimensions, got lhs_batch (0,) and lhs_contracting (0,)."),
    ((((2,), (0,)), ((), ())), "dot_general requires lhs dimension numbers to be nonnegative "
     "and less than the number of axes of the lhs value, got lhs_batch of () and "
     "lhs_contracting of (2,) for lhs of rank 2"),
    ((((1,), (0,)), ((0,), ())), "dot_general requires equal numbers of lhs_batch and "
     "rhs_batch dimensions, got lhs_batch (0,) and rhs_batch ()."),
    ((((1, 1), (0, 1)), ((), ())), "dot_general requires lhs contracting dimensions to be "
     "distinct, got lhs_contracting (1, 1)."),
]  # fmt: skip


@pytest.mark.parametrize("dimension_numbers, message", DOT_DIMENSION_ERRORS)
def test_dot_general_checks_dimension_numbers_as_jax(dimension_numbers, message):
    with pytest.raises(TypeError) as info:
        lax.dot_general(np.ones((2, 3), np.float32), np.ones((3, 3), np.float32), dimension_numbers)
    assert str(info.value) == message


def test_jax_annotation_types_exist():
    # ported code annotates with them (Flax's linear.py: ConvGeneralDilatedDimensionNumbers)
    dn: lax.DotDimensionNumbers = (((1,), (0,)), ((), ()))
    conv: lax.ConvGeneralDilatedDimensionNumbers = ("NHWC", "HWIO", "NHWC")
    prec: lax.PrecisionLike = lax.Precision.HIGHEST
    assert dn and conv and prec


def test_float16_cumsum_stays_within_an_ulp_of_jaxs():
    # jax 0.10.2 (CPU): jnp.cumsum of 4096 float16 values in [0, 3), every 512th and the last;
    # a float16 running sum gave 5588 for the last (10% low)
    x = (np.random.RandomState(0).rand(4096) * 3).astype(np.float16)
    jax_values = [1.646, 763.0, 1522.0, 2322.0, 3090.0, 3878.0, 4648.0, 5412.0, 6124.0]
    for f in (core.numpy.cumsum, core.jit(core.numpy.cumsum)):
        out = np.asarray(f(x))
        assert out.dtype == np.float16
        got = np.append(out[::512], out[-1]).astype(np.float32)
        np.testing.assert_allclose(got, jax_values, rtol=1.5e-3)  # an ulp of float16


@pytest.mark.parametrize(
    "fn,args,want",
    [
        (lambda x, y: x / y, (1e30, 1e-10), np.inf),  # overflow
        (lambda x, y: x / y, (1.0, 0.0), np.inf),  # division by zero
        (lambda x, y: x / y, (0.0, 0.0), np.nan),  # invalid
        (lambda x, y: x * y, (1e30, 1e30), np.inf),
        (lambda x, y: x + y, (3e38, 3e38), np.inf),
        (lambda x, y: x**y, (1e30, 2.0), np.inf),
        (lambda x, y: core.numpy.exp(x) + y, (100.0, 0.0), np.inf),
        (lambda x, y: core.numpy.log(x) + y, (0.0, 0.0), -np.inf),
        (lambda x, y: core.numpy.sqrt(x) + y, (-1.0, 0.0), np.nan),
    ],
)
def test_float32_overflow_and_invalid_give_inf_and_nan_without_warnings(fn, args, want):
    """XLA returns inf/nan silently; an eager op does not warn through numpy either."""
    x, y = (core.numpy.float32(a) for a in args)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = fn(x, y)
    np.testing.assert_equal(np.asarray(got), np.float32(want))


_C = [1 + 2j, complex(np.nan, 0), 1 + 3j, complex(1, np.nan), 2 - 5j]
_D = [1 + 3j, 0j, complex(np.nan, 1), 1 + 1j, complex(2, np.nan)]


# (function, operands, JAX 0.10.2's value): complex max/min compare the real parts, then the
# imaginary parts; a NaN compares false (kept only from the second operand), and the
# reductions fold in order from -inf (max) or inf (min).
COMPLEX_EXTREMA = [
    (lax.max, (_C, _D), [1 + 3j, 0j, complex(np.nan, 1), 1 + 1j, complex(2, np.nan)]),
    (lax.min, (_C, _D), [1 + 2j, 0j, complex(np.nan, 1), 1 + 1j, complex(2, np.nan)]),
    (core.numpy.max, (_C,), 2 - 5j),
    (core.numpy.max, ([1 + 3j, complex(np.nan, 0)],), complex(np.nan, 0)),
    (core.numpy.max, ([complex(np.nan, 0), 1 + 3j],), 1 + 3j),
    (
        lambda x: core.numpy.min(x, axis=1),
        ([[1 + 2j, 1 + 1j], [complex(-np.inf, -1), 0j]],),
        [1 + 1j, complex(-np.inf, -1)],
    ),
    (lambda x: core.numpy.max(x, initial=-np.inf), (np.zeros(0),), complex(-np.inf, 0)),
    (core.numpy.ptp, ([1 + 2j, 3 - 1j, -1j],), 3 + 0j),
]


@pytest.mark.parametrize("fn, args, want", COMPLEX_EXTREMA)
def test_complex_max_min_order_as_xla(fn, args, want):
    out = fn(*[np.asarray(a, np.complex64) for a in args])
    assert out.dtype == np.complex64
    np.testing.assert_array_equal(np.asarray(out), np.asarray(want, np.complex64))
