"""core.lax compositions (scans, reductions, bits, shapes, complex parts) against numpy and
values recorded from jax.lax (JAX 0.10.2)."""

import re

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.prims.shapes import convert_element_type
from core.test_util import check_grads

X = np.array([0.5, -1.0, 2.0, 3.0, -0.25, 1.5, 0.0], np.float32)
M = np.arange(12, dtype=np.float32).reshape(3, 4) - 5
I32 = np.array([0, 1, 5, -7, 2**30, -1, 12345, -(2**31), 2**31 - 1], np.int32)
U32 = np.array([0, 1, 5, 7, 2**31, 2**32 - 1, 12345, 3, 2**16], np.uint32)


# ---------------------------------------------------------------------------------------------
# associative_scan and cumlogsumexp


@pytest.mark.parametrize("n", [1, 2, 3, 4, 7, 8, 13])
@pytest.mark.parametrize("reverse", [False, True])
def test_associative_scan_matches_cumsum(n, reverse):
    x = np.arange(1, n + 1, dtype=np.float32).reshape(n, 1) * np.array([1.0, -2.0], np.float32)
    got = lax.associative_scan(lax.add, x, reverse=reverse)
    want = np.flip(np.cumsum(np.flip(x, 0), 0), 0) if reverse else np.cumsum(x, 0)
    np.testing.assert_allclose(got, want)


def test_associative_scan_axis_and_pytree():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) % 5
    got = lax.associative_scan(lax.max, x, axis=2)
    np.testing.assert_array_equal(got, np.maximum.accumulate(x, axis=2))
    # jax.lax.associative_scan on (X, -X) with (sum, max): the max part.
    pair = lax.associative_scan(lambda a, b: (a[0] + b[0], jnp.maximum(a[1], b[1])), (X, -X))
    np.testing.assert_array_equal(pair[1], [-0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    np.testing.assert_allclose(pair[0], np.cumsum(X))


def test_associative_scan_non_commutative():
    # Composition of affine maps (a, b): x -> a x + b is associative but not commutative.
    a = np.array([2.0, 0.5, -1.0, 3.0, 1.5], np.float32)
    b = np.array([1.0, -2.0, 0.5, 0.0, 4.0], np.float32)

    def compose(f, g):  # g after f
        return g[0] * f[0], g[0] * f[1] + g[1]

    got = lax.associative_scan(compose, (a, b))
    acc, want = (1.0, 0.0), []
    for ai, bi in zip(a, b):
        acc = compose(acc, (ai, bi))
        want.append(acc)
    np.testing.assert_allclose(got[0], [w[0] for w in want], rtol=1e-6)
    np.testing.assert_allclose(got[1], [w[1] for w in want], rtol=1e-6)


def test_associative_scan_grad_jit_vmap():
    x = jnp.arange(1.0, 6.0)
    g = core.grad(lambda x: (lax.associative_scan(lax.mul, x) ** 2).sum())(x)
    eps = 1e-3
    fd = [
        (
            (np.cumprod(np.asarray(x) + eps * e) ** 2).sum()
            - (np.cumprod(np.asarray(x) - eps * e) ** 2).sum()
        )
        / (2 * eps)
        for e in np.eye(5, dtype=np.float32)
    ]
    np.testing.assert_allclose(g, fd, rtol=1e-3)
    np.testing.assert_allclose(
        core.jit(lambda x: lax.associative_scan(lax.add, x))(x), np.cumsum(x)
    )
    xs = np.arange(10, dtype=np.float32).reshape(2, 5)
    np.testing.assert_allclose(
        core.vmap(lambda x: lax.associative_scan(lax.add, x))(xs), np.cumsum(xs, 1)
    )


@pytest.mark.parametrize("reverse", [False, True])
def test_cumlogsumexp(reverse):
    # Recorded from jax.lax.cumlogsumexp.
    want = {
        False: [0.5, 0.7014133, 2.2413113, 3.3840916, 3.410157, 3.548228, 3.5765975],
        True: [3.5765975, 3.5293844, 3.5185385, 3.2713175, 1.8342584, 1.7014133, 0.0],
    }[reverse]
    got = lax.cumlogsumexp(X, reverse=reverse)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-6)
    # Stable for large values and -inf.
    big = np.array([1000.0, 1000.0, -np.inf], np.float32)
    np.testing.assert_allclose(
        lax.cumlogsumexp(big), [1000.0, 1000.0 + np.log(2), 1000.0 + np.log(2)]
    )
    with core.enable_x64():
        check_grads(lambda x: lax.cumlogsumexp(x, reverse=reverse), (X.astype(np.float64),), 1)


# ---------------------------------------------------------------------------------------------
# reduce


@pytest.mark.parametrize(
    "name,fn,want",
    [
        ("add", lambda: lax.reduce(M, 0.0, lax.add, (1,)), [-14.0, 2.0, 18.0]),
        ("max", lambda: lax.reduce(M, -np.inf, lax.max, (0,)), [3.0, 4.0, 5.0, 6.0]),
        ("min_init", lambda: lax.reduce(M, -1.0, lax.min, (1,)), [-5.0, -1.0, -1.0]),
        ("add_init", lambda: lax.reduce(M, 10.0, lax.add, (0, 1)), 16.0),
        ("custom", lambda: lax.reduce(M, 1.0, lambda a, b: a * b + 0 * a, (0, 1)), 0.0),
        (
            "tuple",
            lambda: lax.reduce(
                (M, M + 1), (0.0, 0.0), lambda a, b: (a[0] + b[0], a[1] + b[1]), (0,)
            )[1],
            [0.0, 3.0, 6.0, 9.0],
        ),
        ("xor", lambda: lax.reduce_xor(np.arange(10, dtype=np.int32).reshape(2, 5), (1,)), [4, 5]),
        (
            "xor_bool",
            lambda: lax.reduce_xor(np.array([[True, True, False], [True, False, False]]), (1,)),
            [False, True],
        ),
        ("and", lambda: lax.reduce(np.array([True, False]), True, lax.bitwise_and, (0,)), False),
    ],
)
def test_reduce(name, fn, want):
    np.testing.assert_array_equal(fn(), want)


def test_reduce_generic_computation_under_jit_and_grad():
    def f(m):  # sum of squares-free "a + b" written as a two-op computation: generic path
        return lax.reduce(m, 0.0, lambda a, b: (a + b) * 1.0, (1,))

    np.testing.assert_allclose(core.jit(f)(M), M.sum(1))
    np.testing.assert_allclose(core.grad(lambda m: f(m).sum())(M), np.ones_like(M))


# ---------------------------------------------------------------------------------------------
# Bits and floats


def test_clz():
    want = [32 - int(v).bit_length() if v >= 0 else 0 for v in I32]
    np.testing.assert_array_equal(lax.clz(I32), want)
    assert lax.clz(I32).dtype == np.int32
    np.testing.assert_array_equal(lax.clz(U32), [32 - int(v).bit_length() for v in U32])
    assert lax.clz(U32).dtype == np.uint32


@pytest.mark.parametrize("values,dt", [(I32, np.int32), (U32, np.uint32)])
def test_mulhi(values, dt):
    other = np.flip(values).copy()
    prod = values.astype(object) * other.astype(object)
    want = np.array([(int(p) >> 32) for p in prod]).astype(np.int64).astype(dt)
    got = lax.mulhi(values, other)
    assert got.dtype == dt
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_nextafter(dt):
    x1 = np.array([0.5, -1.0, 2.0, 3.0, -0.25, 1.5, 0.0, 0.0, np.nan, 1.0, np.inf], dt)
    x2 = np.array([1.0, -2.0, 2.0, 3.0, 0.0, -np.inf, -1.0, 1.0, 1.0, np.nan, 0.0], dt)
    with core.enable_x64(dt == np.float64):
        got = lax.nextafter(x1, x2)
    assert got.dtype == dt
    np.testing.assert_array_equal(got, np.nextafter(x1, x2))


def test_reduce_precision():
    x = np.array([1.0001, 3.14159, 65504.0, 70000.0, 1e-6, 1e-9, np.nan, -2.5], np.float32)
    # Recorded from jax.lax.reduce_precision(x, 5, 10) (float16's format; subnormals flush).
    want = [1.0, 3.140625, 65504.0, np.inf, 0.0, 0.0, np.nan, -2.5]
    np.testing.assert_array_equal(lax.reduce_precision(x, 5, 10), want)
    y = np.array([1.0001, 3.14159, 1e38, 1e-40, -2.5], np.float32)
    # bfloat16's format, as float32 bit patterns recorded from JAX.
    bits = [1065353216, 1078525952, 2123759616, 65536, 3223322624]
    np.testing.assert_array_equal(np.asarray(lax.reduce_precision(y, 8, 7)).view(np.uint32), bits)
    normal = np.linspace(-100, 100, 41, dtype=np.float32) * 1.37
    np.testing.assert_array_equal(
        lax.reduce_precision(normal, 5, 10), normal.astype(np.float16).astype(np.float32)
    )


# ---------------------------------------------------------------------------------------------
# Shapes and indexing


def test_split():
    parts = lax.split(M, (1, 3), axis=1)
    np.testing.assert_array_equal(parts[0], M[:, :1])
    np.testing.assert_array_equal(parts[1], M[:, 1:])
    with pytest.raises(ValueError, match="Sum of sizes 3 must be equal to dimension 1"):
        lax.split(M, (1, 2), axis=1)


def test_dynamic_index_and_update_in_dim():
    np.testing.assert_array_equal(lax.dynamic_index_in_dim(M, -1, 1, keepdims=False), M[:, -1])
    np.testing.assert_array_equal(lax.dynamic_index_in_dim(M, 1, 0), M[1:2])
    upd = lax.dynamic_update_index_in_dim(M, np.ones(4, np.float32), -1, 0)
    want = M.copy()
    want[-1] = 1
    np.testing.assert_array_equal(upd, want)
    f = core.jit(lambda m, i: lax.dynamic_index_in_dim(m, i, 0, keepdims=False))
    np.testing.assert_array_equal(f(M, np.int32(-2)), M[-2])


def test_index_take():
    got = lax.index_take(M, (np.array([0, 2, -1]), np.array([1, 3, 0])), (0, 1))
    np.testing.assert_array_equal(got, [-4.0, 6.0, 3.0])
    rows = lax.index_take(M, (np.array([2, 0]),), (0,))
    np.testing.assert_array_equal(rows, M[[2, 0]])


def test_shape_helpers():
    a = np.ones((2, 3, 4), np.float32)
    b = np.arange(40, dtype=np.float32).reshape(2, 4, 5)
    np.testing.assert_allclose(lax.batch_matmul(a, b), a @ b)
    assert lax.broadcast_to_rank(X, 3).shape == (1, 1, 7)
    assert lax.broadcast_to_rank(M, 1).shape == (3, 4)
    np.testing.assert_array_equal(lax.tile(M[:2, :2], (2, 3)), np.tile(M[:2, :2], (2, 3)))
    np.testing.assert_array_equal(lax.stack([X, 2 * X], axis=1), np.stack([X, 2 * X], 1))
    e = lax.empty((2, 3), np.int32)
    assert e.shape == (2, 3) and e.dtype == np.int32
    barrier = lax.optimization_barrier((X, M))[1]  # numpy leaves become Arrays, as in JAX
    assert isinstance(barrier, core.Array)
    np.testing.assert_array_equal(barrier, M)


def test_scatter_sub():
    out = lax.scatter_sub(
        np.zeros(4, np.float32),
        np.array([[1], [3], [1]]),
        np.ones(3, np.float32),
        lax.ScatterDimensionNumbers((), (0,), (0,)),
    )
    np.testing.assert_array_equal(out, [0.0, -2.0, 0.0, -1.0])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"filter_shape": (2, 3), "window_strides": (1, 2), "padding": "SAME"},
        {
            "filter_shape": (3, 2),
            "window_strides": (2, 1),
            "padding": "VALID",
            "rhs_dilation": (1, 2),
        },
        {"filter_shape": (2, 2), "window_strides": (1, 1), "padding": ((1, 0), (0, 1))},
    ],
)
def test_conv_general_dilated_patches_matches_numpy(kwargs):
    img = np.arange(2 * 3 * 5 * 6, dtype=np.float32).reshape(2, 3, 5, 6)
    got = np.asarray(lax.conv_general_dilated_patches(img, **kwargs))
    fh, fw = kwargs["filter_shape"]
    sh, sw = kwargs["window_strides"]
    dh, dw = kwargs.get("rhs_dilation", (1, 1))
    pad = kwargs["padding"]
    if pad == "SAME":
        pads = []
        for n, f, s in ((5, fh, sh), (6, fw, sw)):
            out = -(-n // s)
            total = max((out - 1) * s + f - n, 0)
            pads.append((total // 2, total - total // 2))
    elif pad == "VALID":
        pads = [(0, 0), (0, 0)]
    else:
        pads = pad
    padded = np.pad(img, ((0, 0), (0, 0), *pads))
    oh = (padded.shape[2] - (fh - 1) * dh - 1) // sh + 1
    ow = (padded.shape[3] - (fw - 1) * dw - 1) // sw + 1
    want = np.zeros((2, 3 * fh * fw, oh, ow), np.float32)
    for i in range(oh):
        for j in range(ow):
            win = padded[
                :,
                :,
                i * sh : i * sh + (fh - 1) * dh + 1 : dh,
                j * sw : j * sw + (fw - 1) * dw + 1 : dw,
            ]
            want[:, :, i, j] = win.reshape(2, -1)
    np.testing.assert_array_equal(got, want)


def test_conv_general_dilated_patches_nhwc_known_values():
    img = np.arange(2 * 3 * 5 * 4, dtype=np.float32).reshape(2, 3, 5, 4)
    got = lax.conv_general_dilated_patches(
        img, (3, 2), (2, 1), "VALID", dimension_numbers=("NHWC", "OIHW", "NHWC")
    )
    assert got.shape == (2, 1, 4, 24)
    # First output position, recorded from jax.lax.conv_general_dilated_patches.
    np.testing.assert_array_equal(
        np.asarray(got)[0, 0, 0],
        [0, 4, 20, 24, 40, 44, 1, 5, 21, 25, 41, 45, 2, 6, 22, 26, 42, 46, 3, 7, 23, 27, 43, 47],
    )


# ---------------------------------------------------------------------------------------------
# Complex parts


def test_complex_parts():
    z = np.array([1 + 2j, -3 + 0.5j], np.complex64)
    np.testing.assert_array_equal(lax.real(z), z.real)
    np.testing.assert_array_equal(lax.imag(z), z.imag)
    np.testing.assert_array_equal(lax.conj(z), np.conj(z))
    assert lax.real(z).dtype == np.float32 and lax.conj(z).dtype == np.complex64
    c = lax.complex(np.float32([1, 2]), np.float32([3, -4]))
    assert c.dtype == np.complex64
    np.testing.assert_array_equal(c, [1 + 3j, 2 - 4j])
    # As in jax.lax: real/imag take complex operands only; conj of a real array is complex.
    for part in (lax.real, lax.imag):
        with pytest.raises(TypeError):
            part(X)
    assert lax.conj(X).dtype == np.complex64
    np.testing.assert_array_equal(lax.conj(X), X.astype(np.complex64))


def test_conj_keeps_complex128_under_jit():
    # JAX 0.10.2 (x64): conj of complex128 is complex128, so jnp.fft.ihfft (conj of an rfft)
    # of a float64 signal is complex128; numbax's conj said complex64 and the jitted kernel
    # mixed float and double (LLVM refused it)
    with core.enable_x64(True):
        z = np.array([1 + 2j, -3 + 0.5j], np.complex128)
        assert lax.conj(z).dtype == np.complex128
        got = core.jit(lambda x: jnp.fft.ihfft(x, 4, 0, "ortho"))(np.arange(4.0))
    assert got.dtype == np.complex128
    np.testing.assert_allclose(got, [3.0, -1.0 - 1.0j, -1.0], rtol=1e-15)


def test_special_functions_are_exported():
    for name in (
        "erfc",
        "igamma",
        "igammac",
        "betainc",
        "zeta",
        "polygamma",
        "bessel_i0e",
        "bessel_i1e",
        "lgamma",
        "digamma",
        "square",
        "top_k",
        "igamma_grad_a",
        "random_gamma_grad",
    ):
        assert callable(getattr(lax, name)), name


# JAX 0.10.2's `lax.ragged_dot` of these operands (rows 0-1 group 0, group 1 empty, rows 2-4
# group 2, row 5 in no group) and the gradient's first row.
_RNG = np.random.default_rng(0)
_LHS = _RNG.normal(size=(6, 3)).astype(np.float32)
_RHS = _RNG.normal(size=(3, 3, 2)).astype(np.float32)
_RAGGED = [
    [-0.3572713, 0.17567399],
    [-0.12849894, -0.49550852],
    [-1.6184044, -0.01062867],
    [1.3857044, -0.05771385],
    [2.1147842, -0.07475561],
    [0.0, 0.0],
]


def test_ragged_dot():
    sizes = jnp.asarray([2, 0, 3], jnp.int32)
    out = lax.ragged_dot(jnp.asarray(_LHS), jnp.asarray(_RHS), sizes)
    np.testing.assert_allclose(out, _RAGGED, rtol=1e-6, atol=1e-6)
    grad = core.grad(lambda x: lax.ragged_dot(x, jnp.asarray(_RHS), sizes).sum())(_LHS)
    np.testing.assert_allclose(grad[0], [1.4541439, 1.2379287, -0.3136846], rtol=1e-6)
    bf16 = lax.ragged_dot(
        jnp.asarray(_LHS, jnp.bfloat16),
        jnp.asarray(_RHS, jnp.bfloat16),
        sizes,
        preferred_element_type=jnp.float32,
    )
    assert bf16.dtype == jnp.float32
    with pytest.raises(TypeError, match="expected rhs group dimension size to be 2, got 3."):
        lax.ragged_dot(jnp.asarray(_LHS), jnp.asarray(_RHS), jnp.asarray([2, 0]))


def test_platform_dependent_and_composite():
    assert lax.platform_dependent(1, cpu=lambda x: x + 1, default=lambda x: x) == 2
    assert lax.platform_dependent(1, tpu=lambda x: x + 1, default=lambda x: x) == 1
    with pytest.raises(NotImplementedError, match="no `cpu=` or `default=`"):
        lax.platform_dependent(1, tpu=lambda x: x)
    mul = lax.composite(lambda x, *, k: x * k, name="my.mul")
    np.testing.assert_array_equal(mul(jnp.ones(2), k=3.0), [3.0, 3.0])


def test_composite_has_no_derivative_as_jax():
    # JAX 0.10.2's ValueError (its lax_test): its composite primitive has no JVP rule
    square = lax.composite(lambda x, *, k=2: x**k, name="my.square")
    assert square(3.0) == 9.0 and core.jit(square)(2.0, k=3) == 8.0
    for call in (lambda: core.grad(square)(1.0), lambda: core.jvp(square, (1.0,), (2.0,))):
        with pytest.raises(ValueError, match="JVP rule for composite not implemented"):
            call()


def test_clz_refuses_bool_and_floats_and_keeps_weak_types_as_jax():
    for x in (np.array([True]), np.float32(1.0)):
        with pytest.raises(TypeError, match="clz does not accept dtype"):
            lax.clz(x)
    out = lax.clz(3)  # JAX 0.10.2: 30, int32, weak
    assert (int(out), str(out.dtype), out.weak_type) == (30, "int32", True)
    assert int(lax.clz(np.uint8(1))) == 7


# jax.lax's errors (JAX 0.10.2): the class and the first words of the message.
@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: lax.index_in_dim(M, 3),
            IndexError,
            "index 3 is out of bounds for axis 0 with size 3",
        ),
        (
            lambda: lax.index_in_dim(M, -5, 1),
            IndexError,
            "index -5 is out of bounds for axis 1 with size 4",
        ),
        (
            lambda: lax.tile(X, (2, 2)),
            TypeError,
            "reps length must be equal to the ndim of x, got len(reps)=2 and x.ndim=1",
        ),
    ],
)
def test_index_and_tile_errors_as_jax(call, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_index_in_dim_negative_index():
    np.testing.assert_array_equal(lax.index_in_dim(M, -1, 1, keepdims=False), M[:, -1])


_X = np.arange(6.0, dtype=np.float32).reshape(2, 3)


@pytest.mark.parametrize(
    "call, cls, first_line",
    [  # JAX 0.10.2's classes and first lines (session 38's probes)
        (
            lambda: lax.add(_X, np.ones(3, np.float32)),
            TypeError,
            "add: arrays must have the same number of dimensions, got {1, 2}",
        ),
        # shapes are checked before dtypes (and the primitive's name is JAX's)
        (
            lambda: lax.add(_X, np.ones(3, np.int32)),
            TypeError,
            "add: arrays must have the same number of dimensions, got {1, 2}",
        ),
        (
            lambda: lax.bitwise_and(_X, np.ones(3, np.int32)),
            TypeError,
            "and: arrays must have the same number of dimensions, got {1, 2}",
        ),
        (
            lambda: lax.add(_X, np.ones((2, 4), np.int32)),
            TypeError,
            "add got incompatible shapes for broadcasting: (2, 3), (2, 4).",
        ),
        (
            lambda: lax.reshape(_X, (3, 2), dimensions=(0,)),
            TypeError,
            "reshape dimensions must be a permutation of operand dimensions, got dimensions (0,) "
            "for shape (2, 3).",
        ),
        (
            lambda: lax.reduce(_X, 0.0, lax.add, (2,)),
            ValueError,
            "reduction axes (2,) contains out-of-bounds indices for float32[2,3].",
        ),
        (
            lambda: lax.reduce_max(_X, (0, 0)),
            ValueError,
            "duplicate value in 'axes' of reduction: (0, 0)",
        ),
        (
            lambda: lax.iota(np.float32, -1),
            TypeError,
            "iota shape must have every element be nonnegative, got (-1,).",
        ),
        (
            lambda: lax.complex(np.arange(3), np.arange(3)),
            TypeError,
            "complex does not accept dtype int32 at position 0. Accepted dtypes at position 0 are "
            "subtypes of float32, float64.",
        ),
        (
            lambda: lax.scatter_add(
                _X,
                np.zeros((1, 1), np.int32),
                np.ones((1, 3), np.float32),
                lax.ScatterDimensionNumbers((0,), (0,), (0,)),
            ),
            TypeError,
            "Bounds of the scatter dimensions of updates must be the same as the bounds of the "
            "corresponding dimensions of scatter indices. For scatter dimension 1, updates bound "
            "is 3, indices bound is 1.",
        ),
    ],
)
def test_jaxs_first_lines(call, cls, first_line):
    with pytest.raises(cls) as info:
        call()
    assert str(info.value).splitlines()[0] == first_line


# ---------------------------------------------------------------------------------------------
# broadcast_shapes: JAX 0.10.2's results and error classes and first lines


@pytest.mark.parametrize("fn", [lax.broadcast_shapes, jnp.broadcast_shapes])
@pytest.mark.parametrize(
    "shapes, want",
    [
        (((2, 1), [1, 3], (3,)), (2, 3)),
        (((-1,),), TypeError("Only non-negative indices are allowed when broadcasting static")),
        (((2, -1), (2, 1)), TypeError("Only non-negative indices are allowed")),
        (((2.0,),), TypeError("Shapes must be 1D sequences of concrete values of integer type")),
        (((None,),), TypeError("Shapes must be 1D sequences of concrete values of integer type")),
        (((2, 3), (4, 3)), ValueError("Incompatible shapes for broadcasting: shapes=[(2, 3),")),
    ],
)
def test_broadcast_shapes_as_jax(fn, shapes, want):
    if isinstance(want, Exception):
        with pytest.raises(type(want), match=re.escape(str(want))):
            fn(*shapes)
    else:
        assert fn(*shapes) == want


# JAX 0.10.2's error classes and first lines (found by JAX's lax_test)
@pytest.mark.parametrize(
    "call, error, message",
    [
        (
            lambda: lax.squeeze(np.ones((1, 2)), (0, 0)),
            ValueError,
            "dimensions are not unique: (0, 0)",
        ),
        (
            lambda: lax.squeeze(np.ones((1, 2)), (-3,)),
            ValueError,
            "axis -3 is out of bounds for array of dimension 2",
        ),
        (
            lambda: lax.squeeze(np.ones((1, 2)), (None,)),
            TypeError,
            "'NoneType' object cannot be interpreted as an integer",
        ),
        (
            lambda: lax.split(np.arange(5), [-1, 6]),
            ValueError,
            "Sizes passed to split must be nonnegative, got [-1, 6]",
        ),
        (
            lambda: lax.split(np.arange(5), [2, 2]),
            ValueError,
            "Sum of sizes 4 must be equal to dimension 0 of the operand shape [5]",
        ),
        (
            lambda: lax.split(np.arange(5), (), axis=1),
            ValueError,
            "axis 1 is out of bounds for array of dimension 1",
        ),
        (
            lambda: lax.reshape(np.ones(4), (np.array([2, 2]),)),
            TypeError,
            "Shapes must be 1D sequences of concrete values of integer type",
        ),
        (
            lambda: lax.reshape(np.ones(4), (2.0, 2.0)),
            TypeError,
            "Shapes must be 1D sequences of concrete values of integer type",
        ),
        (
            lambda: lax.reduce({"a": np.ones(3)}, {"b": 0.0}, lambda x, y: x, [0]),
            ValueError,
            "Operands must have the same tree structure as init_values",
        ),
        (
            lambda: lax.reduce(np.ones(3), np.zeros(3), lax.add, [0]),
            ValueError,
            "reduce found non-scalar initial value: [(3,)]",
        ),
        (
            lambda: lax.reduce(np.ones((2, 3)), 0.0, lax.add, (1, 1)),
            ValueError,
            "duplicate value in 'axes' of reduction: (1, 1)",
        ),
    ],
)
def test_shape_errors_as_jax(call, error, message):
    with pytest.raises(error, match=re.escape(message)):
        call()


@pytest.mark.parametrize("x", [np.arange(3), np.float32(2.0), 2.0])
def test_squeeze_of_nothing_is_an_array(x):
    # JAX 0.10.2: an Array (numpy in, numpy out before); int64 numpy becomes int32
    out = lax.squeeze(x, ())
    assert isinstance(out, core.Array)
    assert out.dtype == (jnp.int32 if np.ndim(x) else jnp.float32)


def test_reshape_takes_concrete_array_sizes():
    out = lax.reshape(np.ones(3, np.float32), (lax.add(1, 2), 1))
    assert out.shape == (3, 1)


@pytest.mark.parametrize("shape", [(), (2,), (2, 3)])
def test_shape_as_value(shape):
    # JAX 0.10.2: an int32 array of the sizes, a constant under jit
    out = core.jit(lambda x: lax.shape_as_value(x.shape))(np.zeros(shape))
    assert out.dtype == jnp.int32 and out.shape == (len(shape),)
    np.testing.assert_array_equal(np.asarray(out), shape)


@pytest.mark.parametrize("op", [lax.add, lax.mul, lax.max, lax.min])
@pytest.mark.parametrize("arr_weak, init_weak", [(False, False), (False, True), (True, False)])
def test_reduce_is_weak_only_if_operand_and_init_are(op, arr_weak, init_weak):
    # JAX 0.10.2 (its lax_test): eagerly, an identity init (mul's 1) skipped the combine and
    # left a weak operand's weak type on the result
    arr = convert_element_type(np.arange(10), jnp.int32, arr_weak)
    init = convert_element_type(1, jnp.int32, init_weak)
    f = lambda a, i: lax.reduce(a, i, op, (0,))  # noqa: E731
    assert not f(arr, init).weak_type
    assert not core.jit(f)(arr, init).weak_type
