"""jnp.linalg against values recorded from JAX 0.10.2 (x64 off): the result classes
(`EighResult`, `SVDResult`, `QRResult`, `SlogdetResult`), `pinv` of rank-deficient matrices,
`lstsq`, `matrix_rank`, `cond`, `tensorsolve`/`tensorinv`, and the array-API aliases."""

import numpy as np
import pytest

import core
import core.numpy as jnp

RANK1 = [[1.0, 2.0], [2.0, 4.0], [0.0, 0.0]]
TALL = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]


def test_result_classes_have_jax_field_names():
    a = jnp.array([[4.0, 1.0], [1.0, 3.0]])
    assert jnp.linalg.eigh(a)._fields == ("eigenvalues", "eigenvectors")
    assert jnp.linalg.svd(a)._fields == ("U", "S", "Vh")
    assert jnp.linalg.qr(a)._fields == ("Q", "R")
    sign, logabsdet = res = jnp.linalg.slogdet(a)
    assert res._fields == ("sign", "logabsdet")
    np.testing.assert_allclose(res.logabsdet, np.log(11.0), rtol=1e-6)
    assert type(jnp.linalg.svd(a, compute_uv=False)) is not tuple
    assert type(jnp.linalg.qr(a, mode="r")) is not tuple


def test_qr_raw_is_lapacks_householder_form():
    # JAX 0.10.2: h (transposed, (n, m)) and taus of geqrf; Q from them with ormqr
    a = jnp.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    h, taus = jnp.linalg.qr(a, mode="raw")
    want_h = [[-5.9160795, 0.43377176, 0.72295296], [-7.437358, 0.8280796, 0.8926235]]
    np.testing.assert_allclose(h, want_h, rtol=2e-6)
    np.testing.assert_allclose(taus, [1.1690309, 1.1131042], rtol=2e-6)
    q = core.lax.linalg.ormqr(h.mT, taus, jnp.eye(3))
    np.testing.assert_allclose(q, jnp.linalg.qr(a, mode="complete").Q, atol=1e-6)
    batched = core.vmap(lambda x: jnp.linalg.qr(x, mode="raw"))(jnp.stack([a, 2 * a]))
    assert [x.shape for x in batched] == [(2, 2, 3), (2, 2)]


# (args, kwargs, JAX's result)
PINV_CASES = [
    ((RANK1,), {}, [[0.04, 0.08, 0.0], [0.08, 0.16, 0.0]]),
    (([[1.0, 2.0], [3.0, 4.0]],), {}, [[-2.0, 1.0], [1.5, -0.5]]),
    (([[1.0, 0.0], [0.0, 1e-3]],), {"rtol": 1e-2}, [[1.0, 0.0], [0.0, 0.0]]),
]


@pytest.mark.parametrize("args,kwargs,want", PINV_CASES)
def test_pinv(args, kwargs, want):
    np.testing.assert_allclose(
        jnp.linalg.pinv(*map(jnp.array, args), **kwargs), want, rtol=1e-5, atol=1e-6
    )


def test_pinv_gradient():
    # JAX 0.10.2: jax.grad(lambda a: jnp.linalg.pinv(a).sum())(jnp.array([[1., 2.], [3., 4.]]))
    g = core.grad(lambda a: jnp.linalg.pinv(a).sum())(jnp.array([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_allclose(g, [[-0.5, 0.5], [0.5, -0.5]], rtol=1e-4)


# (a, b, JAX's (x, resid, rank, s))
LSTSQ_CASES = [
    (RANK1, [1.0, 2.0, 3.0], ([0.2, 0.4], [9.0], 1, [5.0, 0.0])),
    (TALL, [1.0, 2.0, 3.0], ([1.0, 2.0], [0.0], 2, [3**0.5, 1.0])),
    (TALL, np.ones((3, 2)), ([[2 / 3] * 2, [2 / 3] * 2], [1 / 3, 1 / 3], 2, [3**0.5, 1.0])),
]


@pytest.mark.parametrize("a,b,want", LSTSQ_CASES)
def test_lstsq(a, b, want):
    x, resid, rank, s = jnp.linalg.lstsq(jnp.array(a), jnp.array(b))
    for got, exp in zip((x, resid, s), (want[0], want[1], want[3])):
        np.testing.assert_allclose(got, exp, rtol=1e-5, atol=1e-5)
        assert got.dtype == jnp.float32
    assert rank.dtype == jnp.int32 and int(rank) == want[2]


def test_lstsq_errors():
    with pytest.raises(ValueError, match="Leading dimensions"):
        jnp.linalg.lstsq(jnp.ones((3, 2)), jnp.ones(2))


RANK_CASES = [
    (RANK1, {}, 1),
    ([[1.0, 2.0], [3.0, 4.0]], {}, 2),
    ([[1.0, 0.0], [0.0, 1e-3]], {"rtol": 1e-2}, 1),
    ([[1.0, 0.0], [0.0, 1e-3]], {"tol": 1e-4}, 2),
    ([0.0, 0.0], {}, 0),
    ([[[1.0, 0.0], [0.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]]], {}, [1, 2]),
]


@pytest.mark.parametrize("m,kwargs,want", RANK_CASES)
def test_matrix_rank(m, kwargs, want):
    got = jnp.linalg.matrix_rank(jnp.array(m), **kwargs)
    assert got.dtype == jnp.int32
    np.testing.assert_array_equal(got, want)


COND_CASES = [
    ([[1.0, 0.0], [0.0, 2.0]], None, 2.0),
    ([[1.0, 2.0], [3.0, 4.0]], None, 14.933034),
    ([[1.0, 2.0], [3.0, 4.0]], "fro", 15.0),
    ([[1.0, 2.0], [3.0, 4.0]], 1, 21.0),
    ([[1.0, 2.0], [3.0, 4.0]], -2, 0.0669656),
    ([[1.0, 2.0], [0.0, 0.0]], 1, np.inf),
]


@pytest.mark.parametrize("m,p,want", COND_CASES)
def test_cond(m, p, want):
    np.testing.assert_allclose(jnp.linalg.cond(jnp.array(m), p), want, rtol=1e-5)


def test_tensor_solve_and_inverse():
    a = jnp.array(np.arange(16.0).reshape(2, 2, 4) + 4 * np.eye(4).reshape(2, 2, 4))
    b = jnp.array([[1.0, 2.0], [3.0, 4.0]])
    x = jnp.linalg.tensorsolve(a, b)
    assert x.shape == (4,)
    np.testing.assert_allclose(jnp.tensordot(a, x, axes=1), b, rtol=1e-5, atol=1e-5)
    ainv = jnp.linalg.tensorinv(a.reshape(4, 2, 2), ind=1)
    assert ainv.shape == (2, 2, 4)
    np.testing.assert_allclose(
        ainv, np.linalg.tensorinv(np.asarray(a).reshape(4, 2, 2), ind=1), rtol=1e-4, atol=1e-5
    )


def test_array_api_aliases():
    np.testing.assert_allclose(
        jnp.linalg.cross(jnp.array([1.0, 0, 0]), jnp.array([0.0, 1, 0])), [0, 0, 1]
    )
    np.testing.assert_allclose(jnp.linalg.tensordot(jnp.ones((2, 3)), jnp.ones(3), axes=1), [3, 3])


def test_singular_inverse_is_jaxs_not_an_error():
    # JAX's LU inverse never raises: a zero pivot gives NaN and inf (JAX 0.10.2's values)
    a = jnp.array([[[1.0, 2.0], [0.0, 0.0]], [[2.0, 0.0], [0.0, 4.0]]])
    got = np.asarray(jnp.linalg.inv(a))
    np.testing.assert_array_equal(got[0], [[np.nan, -np.inf], [np.nan, np.inf]])
    np.testing.assert_allclose(got[1], [[0.5, 0.0], [0.0, 0.25]])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", ["qr", "svd", "cholesky", "eigh", "inv", "slogdet", "eig"])
def test_16_bit_floats_raise_jaxs_not_implemented_error(name, dtype):
    # JAX 0.10.2 on the CPU: NotImplementedError (..., 'Unsupported dtype float16.'); an
    # orthogonal initializer with param_dtype=float16 fails the same way in Flax
    with pytest.raises(NotImplementedError, match=f"Unsupported dtype {dtype}") as info:
        getattr(jnp.linalg, name)(jnp.eye(4, dtype=dtype) + 0.5)
    assert isinstance(info.value, core.errors.LinalgDtypeError)
    with pytest.raises(NotImplementedError, match=f"Unsupported dtype {dtype}"):
        core.nn.initializers.orthogonal()(core.random.key(0), (4, 4), dtype)


_C22 = jnp.array([[1 + 1j, 2], [3, 4j]])


# JAX 0.10.2's answers (differential run, tools/jax_differential): singular values and
# log|det| of complex matrices are real.
@pytest.mark.parametrize(
    "run, dtype, want",
    [(lambda: jnp.linalg.svd(_C22)[1], "float32", [5.1620493, 2.0864446]),
     (lambda: jnp.linalg.svd(_C22, compute_uv=False), "float32", [5.1620493, 2.0864446]),
     (lambda: jnp.linalg.svdvals(_C22), "float32", [5.1620493, 2.0864446]),
     (lambda: jnp.linalg.cond(_C22), "float32", 2.4740891),
     (lambda: jnp.linalg.slogdet(_C22).logabsdet, "float32", 2.376795),
     (lambda: jnp.linalg.slogdet(_C22).sign, "complex64", -0.9284767 + 0.37139067j)],
)  # fmt: skip
def test_complex_matrices_give_real_singular_values(run, dtype, want):
    got = run()
    assert got.dtype == dtype
    np.testing.assert_allclose(got, want, rtol=1e-5)


# The array API functions' argument checks, with JAX 0.10.2's first lines (differential run).
@pytest.mark.parametrize(
    "run, first",
    [
        (
            lambda: jnp.linalg.cross(jnp.arange(2.0), jnp.ones(2)),
            "Both input arrays must be (arrays of) 3-dimensional vectors, but they have "
            "x1.shape[axis]=2 and x2.shape[axis]=2",
        ),
        (
            lambda: jnp.linalg.outer(jnp.ones((2, 2)), jnp.ones(2)),
            "Input arrays must be one-dimensional, but they are x1.ndim=2 x2.ndim=1",
        ),
        (
            lambda: jnp.linalg.eigh(jnp.eye(2), UPLO="X"),
            "UPLO must be one of None, 'L', or 'U', got X",
        ),
    ],
)
def test_array_api_argument_errors_as_jax(run, first):
    with pytest.raises(ValueError) as info:
        run()
    assert str(info.value).split("\n")[0] == first


# jnp.linalg.matrix_power checks its arguments as JAX 0.10.2 does (TypeErrors; a float exponent
# was Python's '&' error) and multiplies in JAX's order, (a @ a) @ a for n = 3.
@pytest.mark.parametrize(
    "a, n, first",
    [
        (np.eye(3, dtype=np.float32), 1.5, "exponent must be an integer, got 1.5"),
        (np.ones((3, 4), np.float32), 2, "Last 2 dimensions of the array must be square"),
        (
            np.ones(3, np.float32),
            2,
            "1-dimensional array given. Array must be at least two-dimensional",
        ),
    ],
)
def test_matrix_power_errors_as_jax(a, n, first):
    with pytest.raises(TypeError) as info:
        jnp.linalg.matrix_power(a, n)
    assert str(info.value).split("\n")[0] == first


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 6, -2])
def test_matrix_power_order_of_products(n):
    a = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], np.float32)
    want = np.linalg.matrix_power(a.astype(np.float64), n)
    np.testing.assert_allclose(np.asarray(jnp.linalg.matrix_power(a, n)), want, rtol=2e-6)
    if n == 3:  # JAX's association, bit for bit
        aa = np.asarray(jnp.matmul(a, a))
        np.testing.assert_array_equal(
            np.asarray(jnp.linalg.matrix_power(a, 3)), np.asarray(jnp.matmul(aa, a))
        )


def _cofactors(a: np.ndarray) -> np.ndarray:
    """The cofactor matrix (the gradient of det), from the minors' determinants in float64."""
    n = a.shape[-1]
    if n == 1:
        return np.ones_like(a)
    cof = np.empty(a.shape)
    for i in range(n):
        for j in range(n):
            minor = np.delete(np.delete(a, i, -2), j, -1)
            cof[..., i, j] = (-1) ** (i + j) * np.linalg.det(minor)
    return cof


_SINGULAR_3 = [[1, 2, 3, 4], [2, 4, 6, 8], [0, 1, 0, 1], [1, 0, 2, 5]]  # rank 3
_PERM_5 = np.eye(5)[[1, 3, 0, 4, 2]] * [1, 2, 3, 1, 1]


# jnp.linalg.det beyond 3x3 is JAX's custom_jvp: its jvp is the cofactor solve, so gradients
# are the cofactor matrix also at singular matrices (rank n - 1: finite and nonzero; lower
# rank: zero), where d/dA of sign * exp(log|det|) would be NaN. JAX 0.10.2 gives the same.
@pytest.mark.parametrize(
    "a",
    [
        np.arange(16).reshape(4, 4) ** 1.5 / 10 + np.eye(4),
        _SINGULAR_3,
        [[1, 2, 3, 4], [2, 4, 6, 8], [3, 6, 9, 12], [1, 0, 2, 5]],  # rank 2
        np.zeros((4, 4)),
        [[0.0]],
        [[3.0]],
        _PERM_5,
        [np.eye(4) * 2, _SINGULAR_3],  # a batch
    ],
    ids=["full", "rank3", "rank2", "zeros", "zero1x1", "one1x1", "permutation", "batch"],
)
def test_det_gradient_is_the_cofactor_matrix(a):
    a = np.asarray(a, np.float32)
    np.testing.assert_allclose(jnp.linalg.det(a), np.linalg.det(a.astype(np.float64)), atol=1e-4)
    got = core.grad(lambda m: jnp.linalg.det(m).sum())(a)
    np.testing.assert_allclose(got, _cofactors(a.astype(np.float64)), rtol=1e-5, atol=1e-4)
    tangent = np.linspace(-1, 1, a.size, dtype=np.float32).reshape(a.shape)
    _, dt = core.jvp(jnp.linalg.det, (a,), (tangent,))
    want = np.sum(_cofactors(a.astype(np.float64)) * tangent, axis=(-2, -1))
    np.testing.assert_allclose(dt, want, rtol=1e-5, atol=1e-4)


def test_det_gradient_under_jit_and_vmap_at_a_singular_matrix():
    a = np.asarray([np.eye(4) * 2, _SINGULAR_3], np.float32)
    got = core.jit(core.vmap(core.grad(jnp.linalg.det)))(a)
    np.testing.assert_allclose(got, _cofactors(a.astype(np.float64)), rtol=1e-5, atol=1e-4)


def test_det_second_derivative():
    a = np.arange(16).reshape(4, 4) ** 1.5 / 10 + np.eye(4)
    with core.enable_x64():
        core.test_util.check_grads(jnp.linalg.det, (jnp.asarray(a),), order=2, modes=["rev"])


@pytest.mark.parametrize("shape", [(3,), (2, 3), (4, 5)])
def test_det_shape_error_is_jaxs(shape):
    with pytest.raises(ValueError) as info:
        jnp.linalg.det(np.ones(shape, np.float32))
    assert str(info.value) == f"Argument to _det() must have shape [..., n, n], got {shape}"


# A Hermitian decomposition of fewer than two axes fails in the conjugate transpose, with
# JAX 0.10.2's TypeError and first line.
@pytest.mark.parametrize(
    "run, first",
    [
        (
            lambda: jnp.linalg.eigh(jnp.array([1.0, 2.0])),
            "transpose permutation isn't a permutation of operand dimensions, got permutation "
            "(0, -1) for operand shape (2,).",
        ),
        (
            lambda: jnp.linalg.eigvalsh(jnp.array(3.0)),
            "transpose permutation isn't a permutation of operand dimensions, got permutation "
            "(-1, -2) for operand shape ().",
        ),
    ],
)
def test_hermitian_part_of_a_vector_is_jaxs_type_error(run, first):
    with pytest.raises(TypeError) as info:
        run()
    assert str(info.value).split("\n")[0] == first


# JAX 0.10.2 takes a one-array list as the list of that array's rows: [[1, 2], [3, 4]] gives
# [1, 2] @ [3, 4] = 11; a one-row array is still too few arrays.
def test_multi_dot_of_one_array_multiplies_its_rows():
    assert float(jnp.linalg.multi_dot([jnp.array([[1.0, 2.0], [3.0, 4.0]])])) == 11.0
    with pytest.raises(ValueError, match=r"multi_dot requires at least two arrays; got len"):
        jnp.linalg.multi_dot([jnp.ones((1, 2))])


# JAX 0.10.2: the max, min and 1-norms of an integer or boolean vector keep its dtype (a
# boolean's 1-norm counts in int32); the 2-norm is float32
INT_NORMS = [
    (np.inf, "int32", [5, 2]),
    (-np.inf, "int32", [1, 0]),
    (1, "int32", [9, 3]),
    (2, "float32", [5.91608, 2.236068]),
]


@pytest.mark.parametrize("ord, dtype, want", INT_NORMS)
def test_vector_norm_of_integers_keeps_jaxs_dtype(ord, dtype, want):
    x = jnp.array([[1, -5, 3], [2, 0, -1]], dtype=jnp.int32)
    got = jnp.linalg.vector_norm(x, ord=ord, axis=1)
    assert got.dtype == dtype and not got.weak_type
    np.testing.assert_allclose(got, want, rtol=1e-6)
    b = jnp.array([True, False, True])
    assert repr(jnp.linalg.vector_norm(b, ord=np.inf)) == "Array(True, dtype=bool)"
    assert repr(jnp.linalg.vector_norm(b, ord=1)) == "Array(2, dtype=int32)"


@pytest.mark.parametrize(
    "call, first",
    [
        (
            lambda: jnp.linalg.vector_norm(jnp.ones(3), ord="fro"),
            "Invalid order 'fro' for vector norm.",
        ),
        (
            lambda: jnp.linalg.vector_norm(jnp.ones(3), ord="inf"),
            "Invalid order 'inf' for vector norm.Use 'jax.numpy.inf' instead.",
        ),
        (lambda: jnp.linalg.norm(jnp.ones((2, 2)), ord=0), "Invalid order '0' for matrix norm."),
    ],
)
def test_norm_order_errors_are_jaxs(call, first):
    with pytest.raises(ValueError) as e:  # JAX 0.10.2's messages
        call()
    assert str(e.value) == first


# JAX 0.10.2 printed: vector_norm of [1, 0, 2] by ord, without and with x64 (an integer's
# 2-norm sums its squares in integers, then the root; its 0-norm needs finfo(x.dtype))
VECTOR_NORM_OF_INTS = [
    ("bool", 2, False, "float32", 1.4142135),
    ("int8", None, False, "float32", 2.236068),
    ("int8", 2, True, "float64", 2.23606797749979),
    ("uint8", None, True, "float64", 2.23606797749979),
    ("int32", 2, True, "float64", 2.23606797749979),
    ("float16", 0, True, "float16", 2.0),
    ("complex64", 0, False, "float32", 2.0),
]


@pytest.mark.parametrize("dtype, order, x64, want_dtype, want", VECTOR_NORM_OF_INTS)
def test_vector_norm_of_integers_as_jax(dtype, order, x64, want_dtype, want):
    with core.enable_x64(x64):
        got = jnp.linalg.vector_norm(jnp.array([1, 0, 2], dtype), ord=order)
    assert got.dtype == want_dtype
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


@pytest.mark.parametrize(
    "dtype, x64, first_line",  # JAX 0.10.2 printed (np.finfo's message)
    [
        ("bool", False, "data type <class 'numpy.bool'> not inexact"),
        ("int8", False, "data type <class 'numpy.int8'> not inexact"),
        ("int64", True, "data type <class 'numpy.int64'> not inexact"),
    ],
)
def test_vector_norm_order_0_of_integers_raises(dtype, x64, first_line):
    with core.enable_x64(x64), pytest.raises(ValueError) as e:
        jnp.linalg.vector_norm(jnp.array([1, 0, 2], dtype), ord=0)
    assert str(e.value).splitlines()[0] == first_line


@pytest.mark.parametrize("n", [jnp.int32(2), jnp.array(2)], ids=["int32", "array"])
def test_matrix_power_exponent_array_is_an_unhashable_static_argument(n):
    # JAX 0.10.2: ValueError "Non-hashable static arguments are not supported. An error
    # occurred while trying to hash an object of type <class 'jaxlib._jax.ArrayImpl'>, 2. ..."
    with pytest.raises(ValueError, match="^Non-hashable static arguments are not supported"):
        jnp.linalg.matrix_power(np.eye(2, dtype=np.float32), n)
    np.testing.assert_array_equal(jnp.linalg.matrix_power(np.eye(2), np.int32(2)), np.eye(2))


# JAX 0.10.2's ValueErrors (first lines) for tensors that cannot be inverted or solved
@pytest.mark.parametrize(
    "run, first",
    [
        (
            lambda: jnp.linalg.tensorinv(jnp.ones((2, 3)), ind=1),
            "tensorinv is only possible when the product of the first `ind` dimensions equals "
            "that of the remaining dimensions. got arr.shape=(2, 3) with ind=1.",
        ),
        (
            lambda: jnp.linalg.tensorsolve(jnp.eye(6).reshape(6, 2, 3), jnp.arange(6.0), axes=(0,)),
            "After moving axes to end, leading shape of a must match shape of b. got "
            "a.shape=(2, 3, 6), b.shape=(6,)",
        ),
        (
            lambda: jnp.linalg.tensorsolve(jnp.ones((2, 3, 6)), jnp.ones((3, 2))),
            "After moving axes to end, leading shape of a must match shape of b. got "
            "a.shape=(2, 3, 6), b.shape=(3, 2)",
        ),
        (
            lambda: jnp.linalg.tensorsolve(jnp.ones((2, 3)), jnp.ones(2)),
            "Input arrays must have prod(a.shape[:b.ndim]) == prod(a.shape[b.ndim:]); got "
            "a.shape=(2, 3), b.ndim=1.",
        ),
    ],
)
def test_tensorinv_tensorsolve_errors_as_jax(run, first):
    with pytest.raises(ValueError) as info:
        run()
    assert str(info.value).split("\n")[0] == first


def test_tensorsolve_moves_axes_to_the_end():
    # JAX 0.10.2: tensorsolve(eye(6).reshape(2, 3, 6) * 2, arange(6).reshape(2, 3))
    # -> [0, 0.5, 1, 1.5, 2, 2.5]
    out = jnp.linalg.tensorsolve(jnp.eye(6).reshape(2, 3, 6) * 2.0, jnp.arange(6.0).reshape(2, 3))
    np.testing.assert_allclose(out, [0.0, 0.5, 1.0, 1.5, 2.0, 2.5])


@pytest.mark.parametrize(
    "shape, message",
    [  # JAX 0.10.2's messages
        ((3,), "jnp.linalg.cond: input array must be at least 2D; got arr.shape=(3,)"),
        ((2, 0), "jnp.linalg.cond: input array must not be empty; got arr.shape=(2, 0)"),
    ],
)
def test_cond_errors_are_jaxs(shape, message):
    with pytest.raises(ValueError) as info:
        jnp.linalg.cond(jnp.zeros(shape))
    assert str(info.value) == message


def test_spectral_norm_of_an_empty_matrix_is_zero():
    out = jnp.linalg.norm(jnp.zeros((0, 3)), 2)  # JAX 0.10.2: 0.0, float32
    assert out.shape == () and out.dtype == np.float32 and float(out) == 0.0


@pytest.mark.parametrize("b_shape, x_shape", [((0,), (2,)), ((0, 3), (2, 3))])
def test_lstsq_of_zero_rows(b_shape, x_shape):
    # JAX 0.10.2: zero solutions, zero residuals, rank 0 and no singular values
    x, resid, rank, s = jnp.linalg.lstsq(jnp.zeros((0, 2)), jnp.zeros(b_shape))
    assert x.shape == x_shape and not np.asarray(x).any() and not np.asarray(resid).any()
    assert int(rank) == 0 and s.shape == (0,)


_C = np.array([[1 + 1j, 2], [0, 1j], [1, 1]], np.complex64)


# JAX 0.10.2's answers, computed under its strict dtype and raising rank promotion: its linalg
# functions cast the (real) singular values and flips themselves.
@pytest.mark.parametrize(
    "run, want",
    [
        (lambda: jnp.linalg.lstsq(_C, np.array([1, 2, 3], np.complex64))[0],
         [2.6 + 2j, 0.2 - 2.2j]),
        (lambda: jnp.linalg.pinv(_C),
         [[-0.4j, 0.4 + 0.6j, 0.6 + 0.4j], [0.2 + 0.2j, -0.6j, -0.4j]]),
        (lambda: jnp.linalg.pinv(np.ones((2, 3, 2), np.float32))[1], np.full((2, 3), 1 / 6)),
        (lambda: jnp.linalg.slogdet(np.array([[1, 2], [3, 4.0]], np.float32), method="qr"),
         (-1.0, 0.6931467)),
        (lambda: jnp.linalg.norm(np.zeros((0, 2), np.complex64), ord=np.inf), 0.0),
        (lambda: jnp.linalg.norm(np.zeros((0, 2), np.float32), ord=1), 0.0),
    ],
)  # fmt: skip
def test_linalg_under_strict_promotion_as_jax(run, want):
    strict = core.config.override("jax_numpy_dtype_promotion", "strict")
    with strict, core.config.override("jax_numpy_rank_promotion", "raise"):
        got = run()
    got = tuple(np.asarray(g) for g in got) if isinstance(got, tuple) else np.asarray(got)
    np.testing.assert_allclose(np.array(got), np.array(want), rtol=1e-5, atol=1e-6)


def test_qr_takes_numpys_old_full_mode_as_reduced():
    q, r = jnp.linalg.qr(np.ones((2, 3), np.float32), mode="full")  # JAX 0.10.2 takes it
    assert q.shape == (2, 2) and r.shape == (2, 3)


def test_complex_svd_derivatives_are_jaxs():
    # JAX 0.10.2: ds = Re diag(U^H dA V), and dU with its phase term 0.5 (dS - dS^H) / s
    a = np.array([[1 + 2j, 0.5], [1j, -1], [0.3, 2 - 1j]], np.complex64)
    t = np.array([[0.5, 1j], [1, 0.2 - 0.1j], [-1j, 0.4]], np.complex64)
    _, ds = core.jvp(lambda a: jnp.linalg.svd(a, compute_uv=False), (a,), (t,))
    assert ds.dtype == np.float32
    np.testing.assert_allclose(np.asarray(ds), [0.472722, -0.07955], rtol=1e-4, atol=1e-5)
    _, (du, _, _) = core.jvp(lambda a: jnp.linalg.svd(a, full_matrices=False), (a,), (t,))
    want = [[0.744563 - 0.381772j, -0.690561 + 0.393696j],
            [0.128741 - 0.307836j, -0.044789 - 0.426592j],
            [0.172489 + 0.883614j, 0.068184 + 0.810451j]]  # fmt: skip
    np.testing.assert_allclose(np.asarray(du), want, rtol=1e-4, atol=1e-5)
    _, tangents = core.jvp(lambda a: jnp.linalg.svd(a, full_matrices=False), (a[:0],), (t[:0],))
    assert [x.dtype for x in tangents] == [np.complex64, np.float32, np.complex64]


def test_qr_derivatives_of_complex_and_wide_matrices_are_jaxs():
    # JAX 0.10.2: Q^H (not Q^T) and the imaginary diagonal kept for complex matrices; a wide
    # matrix's R = [R1 Q^H X2] (its square block by the thin rule)
    a = np.array([[1 + 2j, 0.5], [1j, -1], [0.3, 2 - 1j]], np.complex64)
    t = np.array([[0.5, 1j], [1, 0.2 - 0.1j], [-1j, 0.4]], np.complex64)
    _, (_, dr) = core.jvp(jnp.linalg.qr, (a,), (t,))
    want = [[-0.20261, -0.883254 - 1.144598j], [0, 0.140598]]
    np.testing.assert_allclose(np.asarray(dr), want, rtol=1e-4, atol=1e-5)
    w = np.array([[1.0, 2, 0.5], [0.3, -1, 2]], np.float32)
    tw = np.array([[0.2, 1, 0], [1, 0.5, -1]], np.float32)
    _, (dq, dr) = core.jvp(jnp.linalg.qr, (w,), (tw,))
    want_q = [[0.247805, -0.826015], [-0.826015, -0.247805]]
    want_r = [[-0.478913, 0.220124, -1.24078], [0, -1.212661, -1.866443]]
    np.testing.assert_allclose(np.asarray(dq), want_q, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(np.asarray(dr), want_r, rtol=1e-4, atol=1e-5)
