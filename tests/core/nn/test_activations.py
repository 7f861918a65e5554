"""core.nn activations and initializers, against values recorded from jax.nn."""

import warnings

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import nn, random

X = np.array([-2.0, -0.5, 0.0, 0.5, 3.0, 7.0], np.float32)

# Recorded from jax.nn (JAX 0.x, float32) on X.
KNOWN = {
    "gelu": [-0.04540235, -0.154286, 0.0, 0.345714, 2.9963627, 7.0],
    "standardize": [-1.1340953, -0.6237524, -0.45363814, -0.28352383, 0.56704766, 1.927962],
    "selu": [-1.5201665, -0.6917582, 0.0, 0.5253505, 3.152103, 7.354907],
    "mish": [-0.25250146, -0.22074378, 0.0, 0.37524524, 2.9865355, 6.999989],
}


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_known_values(name):
    np.testing.assert_allclose(getattr(nn, name)(X), KNOWN[name], rtol=2e-6, atol=1e-7)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


REFERENCE = {
    "relu": lambda x: np.maximum(x, 0),
    "relu6": lambda x: np.clip(x, 0, 6),
    "sigmoid": _sigmoid,
    "silu": lambda x: x * _sigmoid(x),
    "softplus": lambda x: np.log1p(np.exp(x)),
    "log_sigmoid": lambda x: np.log(_sigmoid(x)),
    "elu": lambda x: np.where(x > 0, x, np.expm1(x)),
    "celu": lambda x: np.where(x > 0, x, np.expm1(x)),
    "leaky_relu": lambda x: np.where(x >= 0, x, 0.01 * x),
    "hard_tanh": lambda x: np.clip(x, -1, 1),
    "softmax": lambda x: np.exp(x) / np.exp(x).sum(),
    "log_softmax": lambda x: x - np.log(np.exp(x).sum()),
    "logsumexp": lambda x: np.log(np.exp(x).sum()),
}


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_against_formulas(name):
    got = getattr(nn, name)(X)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, REFERENCE[name](X.astype(np.float64)), rtol=1e-5, atol=1e-6)


def test_exact_gelu_and_gradients_at_kinks():
    from scipy.special import erf

    np.testing.assert_allclose(
        nn.gelu(X, approximate=False), 0.5 * X * (1 + erf(X / np.sqrt(2))), rtol=1e-5, atol=1e-7
    )
    g = core.grad(lambda x: nn.relu(x).sum())(jnp.array([-1.0, 0.0, 1.0]))
    np.testing.assert_array_equal(g, [0.0, 0.0, 1.0])
    g = core.grad(lambda x: nn.relu6(x).sum())(jnp.array([0.0, 3.0, 6.0]))
    np.testing.assert_array_equal(g, [0.0, 1.0, 0.0])


def test_softmax_where_logsumexp_options_and_stability():
    big = jnp.array([1000.0, 1000.0])
    np.testing.assert_allclose(nn.softmax(big), [0.5, 0.5])
    np.testing.assert_allclose(nn.logsumexp(big), 1000.0 + np.log(2))
    mask = jnp.array([True, False, True])
    np.testing.assert_allclose(nn.softmax(jnp.array([1.0, 5.0, 1.0]), where=mask), [0.5, 0, 0.5])
    out, sign = nn.logsumexp(jnp.array([0.0, 0.0]), b=jnp.array([1.0, -2.0]), return_sign=True)
    np.testing.assert_allclose([out, sign], [0.0, -1.0], atol=1e-7)
    g = core.grad(lambda x: nn.logsumexp(x))(jnp.array([1.0, 2.0]))
    np.testing.assert_allclose(g, nn.softmax(jnp.array([1.0, 2.0])), rtol=1e-6)


@pytest.mark.parametrize(
    "name, expected",
    [  # recorded from jax.nn (JAX 0.10): a masked-out 10000 must not turn the gradient to NaN
        ("softmax", [-2.0790760385953335e-15, 0.0, 1.0395380192976668e-15]),
        ("log_softmax", [-2.0, 0.0, 2.0]),
    ],
)
def test_softmax_where_grad_ignores_large_masked_entries(name, expected):
    fn = getattr(nn, name)
    x = jnp.array([36.0, 10000.0, 1.5])
    mask = jnp.array([True, False, True])
    g = core.grad(lambda x: fn(x, where=mask)[0] + 2 * fn(x, where=mask)[2])(x)
    np.testing.assert_allclose(g, expected, rtol=1e-6, atol=1e-20)


def test_one_hot():
    out = nn.one_hot(jnp.array([0, 2, 5]), 3)
    np.testing.assert_array_equal(out, [[1, 0, 0], [0, 0, 1], [0, 0, 0]])
    assert out.dtype == np.float32
    assert nn.one_hot(jnp.array([[1, 0]]), 3, axis=0, dtype=jnp.int32).shape == (3, 1, 2)


@pytest.mark.parametrize(
    "x, warns",
    [  # JAX 0.10's DeprecationWarning for a non-integer index array
        (jnp.array([1.0]), "got dtype=float32"),
        (jnp.array([1.0], jnp.float16), "got dtype=float16"),
        (jnp.array([1], jnp.uint8), None),
        (jnp.array([1]), None),
    ],
)
def test_one_hot_warns_for_non_integer_input(x, warns):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        np.testing.assert_array_equal(nn.one_hot(x, 3), [[0.0, 1.0, 0.0]])
    msgs = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
    if warns is None:
        assert msgs == []
    else:
        assert msgs == [f"jax.nn.one_hot input should be integer-typed; {warns}"]


def test_one_hot_traced_num_classes_names_the_argument():
    # JAX: ConcretizationTypeError, "The error arose in jax.nn.one_hot argument `num_classes`."
    with pytest.raises(core.errors.ConcretizationTypeError, match="argument `num_classes`"):
        core.jit(nn.one_hot)(3, 5)
    np.testing.assert_array_equal(nn.one_hot(jnp.array([1]), jnp.array(3)), [[0.0, 1.0, 0.0]])


K = random.key(0)

# Recorded from jax.nn.initializers with jax.random.key(0), shape (3, 2).
INIT_KNOWN = {
    "lecun_normal": [[0.955632, 1.1254908], [-0.27086318, -0.04924887], [0.11026898, -0.5990025]],
    "glorot_uniform": [[0.9807893, 1.048516], [-0.36743096, -0.06864396], [0.1531185, -0.7328462]],
    "he_normal": [[1.3514677, 1.5916845], [-0.38305843, -0.06964843], [0.1559439, -0.84711754]],
    "orthogonal": [[0.96083665, 0.18604839], [-0.25675002, 0.3188112], [0.10427104, -0.92937905]],
}


@pytest.mark.parametrize("name", sorted(INIT_KNOWN))
def test_initializers_match_jax(name):
    out = getattr(nn.initializers, name)()(random.key(0), (3, 2))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, INIT_KNOWN[name], rtol=1e-5, atol=1e-6)


def test_simple_initializers():
    k = random.key(0)
    np.testing.assert_allclose(
        nn.initializers.normal()(k, (2,)), [0.01622642, 0.02025265], rtol=1e-5
    )
    assert float(nn.initializers.zeros(k, (2, 2)).sum()) == 0.0
    np.testing.assert_array_equal(nn.initializers.constant(3.0)(k, (2,)), [3.0, 3.0])
    q = nn.initializers.orthogonal()(k, (4, 4))
    np.testing.assert_allclose(np.asarray(q) @ np.asarray(q).T, np.eye(4), atol=1e-5)
    w = nn.initializers.delta_orthogonal()(k, (3, 2, 2))
    assert float(jnp.abs(w[0]).sum()) == 0.0 and float(jnp.abs(w[1]).sum()) > 0
    assert nn.initializers.uniform()(k, (5,), jnp.float16).dtype == np.float16


# Complex variance scaling, recorded from jax.nn.initializers (key(0), shape (2, 3), complex64):
# "uniform" draws on a disk, "truncated_normal" truncates the modulus (numbax raised).
COMPLEX_INIT = {
    "uniform": [[0.91681308 + 0.04204554j, 0.42338425 + 0.05589619j, -0.41560096 - 0.23335367j],
                [-0.22455369 + 0.26514387j, 0.07384084 + 0.43169549j, 0.62201011 + 0.57889414j]],
    "truncated_normal": [[0.98146796 + 0.04501065j, 0.32668498 + 0.04312972j,
                          -0.32495642 - 0.18245812j],
                         [-0.17029411 + 0.2010764j, 0.05713225 + 0.33401206j,
                          0.60321593 + 0.56140268j]],
}  # fmt: skip


@pytest.mark.parametrize("distribution", sorted(COMPLEX_INIT))
def test_complex_variance_scaling_matches_jax(distribution):
    init = nn.initializers.variance_scaling(1.0, "fan_in", distribution)
    out = init(random.key(0), (2, 3), jnp.complex64)
    assert out.dtype == np.complex64
    np.testing.assert_allclose(out, COMPLEX_INIT[distribution], rtol=1e-6, atol=1e-7)


# JAX 0.10.2's behaviour: `mode` and `distribution` are checked when the initializer is called,
# an integer dtype fails in the uniform draws of the complex path, a float size is a TypeError,
# and a shape with a zero size gives zeros from orthogonal.
@pytest.mark.parametrize(
    "run, error, first",
    [(lambda: nn.initializers.variance_scaling(1.0, "fan_x", "normal")(K, (2, 3)), ValueError,
      "invalid mode for variance scaling initializer: fan_x"),
     (lambda: nn.initializers.variance_scaling(1.0, "fan_in", "bad")(K, (2, 3)), ValueError,
      "invalid distribution for variance scaling initializer: bad"),
     (lambda: nn.initializers.glorot_normal()(K, (3, 4), jnp.int32), ValueError,
      "dtype argument to `uniform` must be a float dtype, got int32"),
     (lambda: nn.initializers.zeros(K, (2.0, 3)), TypeError,
      "Shapes must be 1D sequences of concrete values of integer type, got (2.0, 3).")],
)  # fmt: skip
def test_initializer_errors_as_jax(run, error, first):
    with pytest.raises(error) as info:
        run()
    assert str(info.value).split("\n")[0] == first


def test_initializer_checks_are_lazy_and_empty_orthogonal_is_zeros():
    assert callable(nn.initializers.variance_scaling(1.0, "fan_x", "bad"))
    out = nn.initializers.orthogonal(column_axis=0)(K, (0, 3))
    assert out.shape == (0, 3) and out.dtype == np.float32


# The jax.nn additions: identity, tanh, sparse_plus, sparse_sigmoid, log1mexp, logmeanexp.
EXTRA_REFERENCE = {
    "identity": lambda x: x,
    "tanh": np.tanh,
    "sparse_plus": lambda x: np.where(x <= -1, 0.0, np.where(x >= 1, x, (x + 1) ** 2 / 4)),
    "sparse_sigmoid": lambda x: np.clip((x + 1) / 2, 0, 1),
}


@pytest.mark.parametrize("name", sorted(EXTRA_REFERENCE))
def test_new_activations_against_formulas(name):
    x = np.array([-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0], np.float32)
    got = getattr(nn, name)(x)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, EXTRA_REFERENCE[name](x.astype(np.float64)), rtol=1e-6)


def test_sparse_sigmoid_is_derivative_of_sparse_plus():
    x = jnp.array([-2.0, -0.5, 0.0, 0.5, 3.0])
    np.testing.assert_allclose(core.vmap(core.grad(nn.sparse_plus))(x), nn.sparse_sigmoid(x))


def test_log1mexp_values_and_gradient():
    x = np.array([0.01, 0.5, 0.7, 3.0, 30.0], np.float32)
    # Recorded from jax.nn.log1mexp and its gradient (JAX 0.10.2).
    want = [-4.6101661e00, -9.3275213e-01, -6.8634099e-01, -5.1069178e-02, -9.3576229e-14]
    np.testing.assert_allclose(nn.log1mexp(x), want, rtol=1e-6)
    grad = [9.9500839e01, 1.5414940e00, 9.8643386e-01, 5.2395698e-02, 9.3576236e-14]
    np.testing.assert_allclose(core.grad(lambda x: nn.log1mexp(x).sum())(x), grad, rtol=1e-5)


@pytest.mark.parametrize(
    "axis,where,keepdims",
    [(None, None, False), (1, None, False), (0, None, True), (1, "mask", False)],
)
def test_logmeanexp(axis, where, keepdims):
    x = np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 5.0]], np.float32)
    mask = np.array([[True, False, True], [True, True, True]])
    w = mask if where == "mask" else np.ones_like(mask)
    want = np.log(np.sum(np.exp(x) * w, axis=axis, keepdims=keepdims)) - np.log(
        np.sum(w, axis=axis, keepdims=keepdims)
    )
    got = nn.logmeanexp(x, axis=axis, where=mask if where else None, keepdims=keepdims)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    if where == "mask":  # recorded from jax.nn.logmeanexp
        np.testing.assert_allclose(got, [2.433781, 3.910562], rtol=1e-6)


def test_log1mexp_gradient_at_zero_and_jit():
    assert np.isinf(core.grad(nn.log1mexp)(0.0))
    x = np.array([0.5, 3.0], np.float32)
    np.testing.assert_allclose(core.jit(nn.log1mexp)(x), np.log(-np.expm1(-x)), rtol=1e-6)


def test_tanh_gelu_derivatives_are_the_formulas():
    """The tanh gelu's custom_jvp rule: first and second derivatives against the closed forms in
    float64, under grad, jit(grad) and vmap."""
    x = np.linspace(-5, 5, 41).astype(np.float32)
    x64 = x.astype(np.float64)
    c, k = np.sqrt(2 / np.pi), 0.044715
    th = np.tanh(c * (x64 + k * x64**3))
    du = c * (1 + 3 * k * x64**2)
    slope = 0.5 * (1 + th) + 0.5 * x64 * (1 - th**2) * du
    curvature = (1 - th**2) * du + x64 * (1 - th**2) * (-th * du**2 + 3 * c * k * x64)
    grad = core.grad(lambda v: nn.gelu(v).sum())
    # tanh is XLA's (eager and jitted: its input clamped to +-7.9988, so tanh saturates early
    # and 1 + tanh is off by up to 2.1e-6 at x <= -4.25; JAX's grad gives 0 at -5 too)
    np.testing.assert_allclose(grad(x), slope, rtol=1e-5, atol=3e-6)
    np.testing.assert_allclose(core.jit(grad)(x), slope, rtol=1e-5, atol=3e-6)
    np.testing.assert_allclose(core.vmap(core.grad(nn.gelu))(x), slope, rtol=1e-5, atol=3e-6)
    second = core.grad(lambda v: grad(v).sum())(x)
    np.testing.assert_allclose(second, curvature, rtol=1e-4, atol=2e-5)  # XLA's tanh, as above


# (activation, input, JAX 0.10.2's value, dtype, weak type). Activations that JAX does not
# promote compute integers in their own dtype (wrapping) until a float operation promotes.
_NAN, _INF = float("nan"), float("inf")
INTEGER_AND_COMPLEX_INPUTS = [
    (nn.log_sigmoid, np.array([-128, 127, 100], np.int8), [-0.0, -0.0, -0.0], "float32", False),
    (
        nn.soft_sign,
        np.array([-128, 127, 0], np.int8),
        [1.007874, -0.9921875, 0.0],
        "float32",
        False,
    ),
    (nn.squareplus, np.array([255, 128, 0], np.uint8), [128.61803, 65.0, 1.0], "float32", False),
    (nn.softmax, np.array([0, 1, 2], np.uint8), [_NAN, _NAN, 0.0], "float32", False),
    (
        nn.log_softmax,
        np.array([-128, 127, 0], np.int8),
        [-0.31326163, -1.3132616, -128.31326],
        "float32",
        False,
    ),
    (
        nn.standardize,
        np.array([-128, 127, 0, 1], np.int8),
        [-181.01752, 179.60332, 0.0, 1.4141994],
        "float32",
        False,
    ),
    (nn.log1mexp, np.array([1, 0, 3], np.uint8), [_NAN, -_INF, _NAN], "float32", False),
    (nn.log1mexp, np.array([0.5, 2.0], np.float16), [-0.9331, -0.1455], "float16", False),
    (nn.log1mexp, 2.0, -0.14541346, "float32", True),
    (nn.relu, np.array([True, False]), [1, 0], "int32", True),
    (
        nn.relu,
        np.array([complex(_NAN, 0), -1j, 1j], np.complex64),
        [0j, 0j, 1j],
        "complex64",
        False,
    ),
    (
        nn.relu6,
        np.array([complex(_NAN, 0), 7 + 0j], np.complex64),
        [0j, 6 + 0j],
        "complex64",
        False,
    ),
    (nn.relu6, np.array([-1, 3, 9], np.int32), [0.0, 3.0, 6.0], "float32", True),
    (nn.hard_tanh, np.array([True, False]), [1, 0], "int32", True),
]


@pytest.mark.parametrize("fn, x, want, dtype, weak", INTEGER_AND_COMPLEX_INPUTS)
def test_integer_and_complex_inputs_as_jax(fn, x, want, dtype, weak):
    out = fn(x)
    assert (str(out.dtype), out.weak_type) == (dtype, weak)
    # XLA flushes subnormal results to zero (log_sigmoid(int8(100)) is -0.0, not -3.8e-44).
    np.testing.assert_allclose(np.asarray(out), np.asarray(want, out.dtype), rtol=1e-3, atol=1e-37)


@pytest.mark.parametrize("fn", [nn.sigmoid, nn.silu, nn.swish])
def test_logistic_activations_refuse_integers_as_jax(fn):
    with pytest.raises(TypeError):
        fn(np.array([1, 2], np.int32))


def test_relu_and_relu6_gradients_keep_the_kink_conventions():
    x = np.array([-1.0, 0.0, 3.0, 6.0, 7.0], np.float32)
    np.testing.assert_array_equal(core.grad(lambda v: nn.relu(v).sum())(x), [0, 0, 1, 1, 1])
    np.testing.assert_array_equal(core.grad(lambda v: nn.relu6(v).sum())(x), [0, 0, 1, 0, 0])


@pytest.mark.parametrize(
    "x, num_classes, kw, error, message",
    [
        # JAX 0.10.2's errors (differential run)
        ([0, 1], 3, {"axis": 2}, ValueError, "axis 2 is out of bounds for array of dimension 2"),
        ([0, 1], 3.0, {}, TypeError, "'float' object cannot be interpreted as an integer"),
        (
            [True, False],
            2,
            {},
            TypeError,
            "iota does not accept dtype bool. Accepted dtypes are subtypes of integer, "
            "floating, complexfloating.",
        ),
    ],
)
def test_one_hot_errors(x, num_classes, kw, error, message):
    with pytest.raises(error) as e, warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # booleans warn first, as in JAX
        nn.one_hot(jnp.array(x), num_classes, **kw)
    assert str(e.value).split("\n")[0] == message


def test_one_hot_of_floats_compares_in_their_dtype():
    # JAX's classes are an iota in x's dtype: 1.5 matches none, 2.0 matches class 2
    with pytest.warns(DeprecationWarning, match="should be integer-typed"):
        got = nn.one_hot(jnp.array([0.0, 1.5, 2.0]), 3, axis=-2)
    np.testing.assert_array_equal(got, [[1, 0, 0], [0, 0, 0], [0, 0, 1]])


def test_glu_of_odd_size_is_jaxs_assertion():
    with pytest.raises(AssertionError, match="^axis size must be divisible by 2"):
        nn.glu(jnp.arange(6.0).reshape(2, 3))


def test_one_hot_along_a_named_axis():
    # jax.nn.one_hot(i, 3, axis="b") under vmap(axis_name="b"): x == axis_index("b"), and
    # JAX's ValueError when num_classes is not the axis size (JAX 0.10.2)
    f = lambda n: core.vmap(lambda i: core.nn.one_hot(i, n, axis="b"), axis_name="b")  # noqa: E731
    np.testing.assert_array_equal(f(3)(np.array([2, 0, 1])), [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(f(3)(np.array([0, 1, 1])), [1.0, 1.0, 0.0])
    with pytest.raises(
        ValueError, match="Expected num_classes to match the size of axis b, but 4 != 3"
    ):
        f(4)(np.array([0, 1, 1]))
