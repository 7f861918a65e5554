"""Numerical gradient checks (`check_grads`: orders 1 and 2, forward and reverse, float64).

Two tables: every primitive (`prim_cases.py`, collectives inside a named vmap) and the
differentiable functions of `core.numpy`.
"""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.test_util import check_grads, check_jvp, check_vjp, num_float_bits
from tests.core.prim_cases import CASES, NAMED_CASES

_rng = np.random.RandomState(1)


@pytest.fixture(autouse=True)
def x64():
    with core.enable_x64():
        yield


@pytest.mark.parametrize("case", [c for c in CASES + NAMED_CASES if c.grad], ids=repr)
def test_primitive_grads(case):
    check_grads(case.fn, case.args, case.order, eps=case.eps, atol=case.tol, rtol=case.tol)


def R(*s):
    return _rng.standard_normal(s)


def P(*s):
    return _rng.uniform(0.5, 1.5, s)


def U(*s):
    return _rng.uniform(-0.8, 0.8, s)


def D(*s):
    return _rng.permutation(int(np.prod(s))).reshape(s) * 0.5 + _rng.uniform(0, 0.1, s)


_UNARY_R = [
    "negative",
    "positive",
    "exp",
    "exp2",
    "expm1",
    "tanh",
    "sin",
    "cos",
    "arctan",
    "sinh",
    "cosh",
    "arcsinh",
    "square",
    "cbrt",
    "deg2rad",
    "rad2deg",
    "sinc",
]
_UNARY_P = ["log", "log1p", "log2", "log10", "sqrt", "reciprocal"]
_UNARY_U = ["tan", "arcsin", "arccos", "arctanh"]
_BINARY_R = ["add", "subtract", "multiply", "arctan2", "logaddexp", "logaddexp2", "hypot"]

JNP_CASES = [
    *[(n, getattr(jnp, n), [R(2, 3)]) for n in _UNARY_R],
    *[(n, getattr(jnp, n), [P(2, 3)]) for n in _UNARY_P],
    *[(n, getattr(jnp, n), [U(2, 3)]) for n in _UNARY_U],
    ("arccosh", jnp.arccosh, [P(3) + 1]),
    ("abs", jnp.abs, [P(3) * np.array([1, -1, 1])]),
    *[(n, getattr(jnp, n), [R(2, 3), R(3)]) for n in _BINARY_R],
    ("divide", jnp.divide, [R(2, 3), P(3)]),
    ("power", jnp.power, [P(3), R(2, 3)]),
    ("power_int", lambda x: jnp.power(x, 3), [R(3)]),
    ("float_power", jnp.float_power, [P(3), R(3)]),
    ("maximum", jnp.maximum, [D(3), D(3)]),
    ("minimum", jnp.minimum, [D(3), D(3)]),
    ("fmax", jnp.fmax, [D(3), D(3)]),
    ("remainder", jnp.remainder, [D(3) + 0.3, P(3) + 2.1]),
    ("where", lambda x, y: jnp.where(x > 0, x, y), [R(2, 3), R(3)]),
    ("clip", lambda x: jnp.clip(x, -0.5, 0.5), [D(5) - 1.2]),
    ("sum", lambda x: jnp.sum(x, axis=1), [R(2, 3)]),
    ("sum_keepdims", lambda x: jnp.sum(x, axis=(0, 2), keepdims=True), [R(2, 3, 2)]),
    ("mean", jnp.mean, [R(2, 3)]),
    ("var", lambda x: jnp.var(x, axis=0), [R(4, 3)]),
    ("std", lambda x: jnp.std(x, axis=-1, ddof=1), [R(2, 4)]),
    ("max", lambda x: jnp.max(x, axis=1), [D(2, 3)]),
    ("min", jnp.min, [D(2, 3)]),
    ("prod", lambda x: jnp.prod(x, axis=0), [R(3, 2)]),
    ("average", lambda x, w: jnp.average(x, axis=0, weights=w), [R(3, 2), P(3)]),
    ("cumsum", lambda x: jnp.cumsum(x, axis=1), [R(2, 3)]),
    ("cumprod", jnp.cumprod, [R(2, 3)]),
    ("dot", jnp.dot, [R(2, 3), R(3)]),
    ("matmul", jnp.matmul, [R(2, 2, 3), R(3, 2)]),
    ("tensordot", lambda x, y: jnp.tensordot(x, y, axes=([1], [0])), [R(2, 3), R(3, 2)]),
    ("einsum", lambda x, y: jnp.einsum("ij,jk->ik", x, y), [R(2, 3), R(3, 2)]),
    ("outer", jnp.outer, [R(2), R(3)]),
    ("inner", jnp.inner, [R(3), R(3)]),
    ("vdot", jnp.vdot, [R(3), R(3)]),
    ("trace", jnp.trace, [R(3, 3)]),
    ("kron", jnp.kron, [R(2), R(2)]),
    ("cross", jnp.cross, [R(3), R(3)]),
    ("reshape", lambda x: jnp.reshape(x, (-1,)), [R(2, 3)]),
    ("transpose", jnp.transpose, [R(2, 3)]),
    ("moveaxis", lambda x: jnp.moveaxis(x, 0, -1), [R(2, 3, 2)]),
    ("squeeze", jnp.squeeze, [R(1, 3)]),
    ("expand_dims", lambda x: jnp.expand_dims(x, 1), [R(3)]),
    ("broadcast_to", lambda x: jnp.broadcast_to(x, (2, 3)), [R(3)]),
    ("concatenate", lambda x, y: jnp.concatenate([x, y]), [R(2), R(3)]),
    ("stack", lambda x, y: jnp.stack([x, y], axis=1), [R(3), R(3)]),
    ("tile", lambda x: jnp.tile(x, 2), [R(3)]),
    ("repeat", lambda x: jnp.repeat(x, 2), [R(3)]),
    ("flip", jnp.flip, [R(2, 3)]),
    ("roll", lambda x: jnp.roll(x, 1), [R(4)]),
    ("pad", lambda x: jnp.pad(x, 1), [R(3)]),
    ("tril", jnp.tril, [R(3, 3)]),
    ("diagonal", jnp.diagonal, [R(3, 3)]),
    ("sort", jnp.sort, [D(4)]),
    ("getitem", lambda x: x[1:, ::2], [R(3, 4)]),
    ("getitem_int_array", lambda x: x[np.array([2, 0, 2])], [R(3, 2)]),
    ("take", lambda x: jnp.take(x, np.array([1, 0]), axis=1), [R(2, 3)]),
    ("at_set", lambda x, y: jnp.asarray(x).at[1].set(y), [R(3, 2), R(2)]),
    ("at_add", lambda x, y: jnp.asarray(x).at[np.array([0, 0])].add(y), [R(3), R(2)]),
    ("at_mul", lambda x: jnp.asarray(x).at[1].multiply(3.0), [R(3)]),
]


@pytest.mark.parametrize("name,fn,args", JNP_CASES, ids=[c[0] for c in JNP_CASES])
def test_numpy_grads(name, fn, args):
    check_grads(fn, args, 2, eps=1e-5)


def test_check_grads_catches_wrong_rules():
    @core.custom_jvp
    def wrong(x):
        return jnp.sin(x)

    wrong.defjvp(lambda p, t: (jnp.sin(p[0]), 2.0 * t[0]))
    x = np.array([0.3, 1.0])
    with pytest.raises(AssertionError):
        check_jvp(wrong, lambda p, t: core.jvp(wrong, p, t), (x,))
    with pytest.raises(AssertionError):
        check_vjp(wrong, lambda *a: core.vjp(wrong, *a), (x,))
    with pytest.raises(AssertionError):
        check_grads(lambda x: jnp.sin(x) * jnp.sum(core.stop_gradient(x)), (x,), 1)


@pytest.mark.parametrize(
    "tol, passes",
    [
        (None, False),
        ({np.float32: 0.1}, True),
        ({np.dtype("float32"): 0.1}, True),
        ({np.float64: 0.1}, False),
        (0.1, True),
    ],
    ids=["default", "dict-type", "dict-dtype", "dict-other-dtype", "number"],
)
@pytest.mark.parametrize("mode", ["fwd", "rev"])
def test_check_grads_takes_tolerance_dicts(tol, passes, mode):
    # A derivative 1% off: JAX's check_grads (JAX 0.10) fails it at float32's default
    # tolerance and passes it with atol=rtol=0.1 given as a number or as a dict naming float32.
    @core.custom_jvp
    def off(x):
        return jnp.sin(x)

    off.defjvp(lambda p, t: (jnp.sin(p[0]), 1.01 * jnp.cos(p[0]) * t[0]))
    x = np.array([0.3, 1.0], np.float32)
    with core.enable_x64(False):
        if passes:
            check_grads(off, (x,), 1, [mode], atol=tol, rtol=tol)
        else:
            with pytest.raises(AssertionError):
                check_grads(off, (x,), 1, [mode], atol=tol, rtol=tol)


def test_check_grads_pytrees_and_order_3():
    def f(d, y):
        return {"out": jnp.sum(d["a"] * jnp.exp(d["b"])) * y}

    check_grads(f, ({"a": R(3), "b": R(3)}, 0.7), 3, eps=1e-3, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: core.lax.slice(x, (1, 0), (1, 3)).sum(),
        lambda x: x[2:2].sum() + x[:, 3:].sum(),
        lambda x: jnp.take(x, jnp.zeros((0,), jnp.int32), axis=0).sum(),
    ],
)
def test_grads_through_empty_slices_are_zero(fn):
    x = jnp.arange(12.0).reshape(4, 3)
    for f in (core.grad(fn), core.jit(core.grad(fn))):
        g = f(x)
        assert g.shape == (4, 3) and g.dtype == x.dtype
        np.testing.assert_array_equal(g, np.zeros((4, 3)))


def test_broadcast_in_dim_with_dimensions_out_of_order():
    # `broadcast_dimensions=(2, 1)` also transposes, as in JAX (whose own transpose rule for
    # it is wrong in 0.10.2: "Expected cotangent type float32[2,3] but got float32[3,2]")
    def f(x):
        return core.lax.broadcast_in_dim(x, (4, 3, 2), (2, 1))

    x = jnp.arange(6.0).reshape(2, 3)
    want = np.broadcast_to(np.arange(6.0).reshape(2, 3).T, (4, 3, 2))
    np.testing.assert_array_equal(f(x), want)
    np.testing.assert_array_equal(core.jit(f)(x), want)
    check_grads(f, (x,), order=2)
    assert core.vmap(f, in_axes=1)(jnp.ones((2, 5, 3))).shape == (5, 4, 3, 2)


@pytest.mark.parametrize(
    "x64, dtype, bits",
    [(False, np.float64, 32), (True, np.float64, 64), (False, np.float32, 32),
     (False, np.float16, 16), (False, "bfloat16", 16)],
)  # fmt: skip
def test_num_float_bits_is_of_the_canonical_dtype(x64, dtype, bits):
    # JAX's tests pick tolerances by it: float64 counts 32 bits unless x64 is on
    with core.enable_x64(x64):
        assert num_float_bits(dtype) == bits


@pytest.mark.parametrize("value", [2.0, 3, True, 1 + 2j])
def test_stop_gradient_gives_python_scalars_back(value):
    # jax.lax.stop_gradient(2.0) is the scalar itself (no array): x**2 + stop_gradient(x**2)
    # of a Python float is a Python float.
    out = core.lax.stop_gradient(value)
    assert out == value and type(out) is type(value)
    assert core.grad(lambda x: x**2 + core.lax.stop_gradient(x**2))(3.0) == 6.0


def _sum_of_eigenvalues(x):
    val, _ = jnp.linalg.eigh(x)  # a jitted library function: the vectors' cotangent is zero
    return jnp.real(jnp.sum(val))


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_zero_cotangents_skip_a_jitted_functions_unused_outputs(dtype):
    # JAX's pjit transpose prunes symbolic zero cotangents: at a degenerate matrix, the
    # eigenvectors' derivative (1 / 0 gaps) never meets the zero cotangent (no 0 * inf NaNs).
    x = np.eye(3, dtype=dtype)
    for f in (core.grad(_sum_of_eigenvalues), core.jit(core.grad(core.jit(_sum_of_eigenvalues)))):
        np.testing.assert_array_equal(np.asarray(f(x)), np.eye(3))
