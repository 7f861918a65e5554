"""Values the transformations give back as JAX 0.10.2 does: an input that comes out untouched
from `vjp`, `grad`'s aux, `jacfwd`/`jacrev`'s aux, `checkpoint` and `linear_transpose` is
given back as it was passed (a Python float stays one; `vjp` and `checkpoint` give a numpy
input back as a numpy array of its canonical dtype); `jvp` gives a tangent its primal's weak
type; `linearize`'s and `linear_transpose`'s functions are pytrees; transposing a nonlinear
function raises JAX's classes. Expected values printed by JAX 0.10.2 (a `TypedFloat` is
recorded as "float", a `TypedNdArray` as "ndarray")."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax


def _kinds(tree):
    return [type(leaf).__name__ for leaf in core.tree_util.tree_leaves(tree)]


# (call, the leaves' types as JAX 0.10.2 gave them, their values)
CASES = [
    (lambda: core.vjp(lambda x: x, 1.0)[0], ["float"], [1.0]),
    (lambda: core.vjp(lambda x: (x, x * 2), 1.0)[0], ["float", "Array"], [1.0, 2.0]),
    (lambda: core.value_and_grad(lambda x: x)(1.0), ["float", "Array"], [1.0, 1.0]),
    (
        lambda: core.grad(lambda x: (x, [x, 2.0, 3]), has_aux=True)(1.0),
        ["Array", "float", "float", "int"],
        [1.0, 1.0, 2.0, 3],
    ),
    (
        lambda: core.grad(lambda x: (x**2, lax.stop_gradient(x)), has_aux=True)(1.0),
        ["Array", "float"],
        [2.0, 1.0],
    ),
    (lambda: core.jacrev(lambda x: (x, x), has_aux=True)(1.0), ["Array", "float"], [1.0, 1.0]),
    (lambda: core.jacfwd(lambda x: (x, x), has_aux=True)(1.0), ["Array", "float"], [1.0, 1.0]),
    (
        lambda: core.hessian(lambda x: (x**3, x), has_aux=True)(2.0),
        ["Array", "float"],
        [12.0, 2.0],
    ),
    (lambda: core.linearize(lambda x: (x, x), 1.0, has_aux=True)[2], ["float"], [1.0]),
    (lambda: core.jvp(lax.stop_gradient, (2.0,), (1.0,)), ["float", "Array"], [2.0, 0.0]),
    (
        lambda: core.checkpoint(lambda x: (x, {"a": x * 2}))(1.0),
        ["float", "Array"],
        [1.0, 2.0],
    ),
    (lambda: core.remat(lambda x, y: (x, y))(1.0, 2), ["float", "int"], [1.0, 2]),
    (
        lambda: core.linear_transpose(lambda x, y: (x, 2 * y), 1.0, jnp.ones(2))(
            (1.0, jnp.arange(2.0))
        ),
        ["float", "Array"],
        [1.0, 0.0, 2.0],
    ),
    (lambda: core.linear_transpose(lambda x: x + 1.0, 1.0)(3.0), ["Array"], [3.0]),
    (lambda: core.vjp(lambda x, y: x, 1.0, 2.0)[1](1.0), ["float", "Array"], [1.0, 0.0]),
    (lambda: core.vjp(lambda x: {"a": x}, 1.0)[1]({"a": 2.0}), ["float"], [2.0]),
    (lambda: core.vjp(lambda x: (x, x * 2), 1.0)[1]((1.0, 1.0)), ["Array"], [3.0]),
    (lambda: core.linearize(lambda x: (x, x * 2), 1.0)[1](1.0), ["float", "Array"], [1.0, 2.0]),
    (lambda: core.linearize(lambda x, y: (y, x), 1.0, 2.0)[1](1.0, 3.0), ["float"] * 2, [3, 1]),
    (lambda: core.grad(lambda x: x)(1.0), ["Array"], [1.0]),
]


@pytest.mark.parametrize("call, kinds, values", CASES)
def test_inputs_come_out_as_given(call, kinds, values):
    out = call()
    assert _kinds(out) == kinds
    flat = np.concatenate([np.ravel(np.asarray(x)) for x in core.tree_util.tree_leaves(out)])
    np.testing.assert_allclose(flat, values)


@pytest.mark.parametrize(
    "call",
    [
        lambda: core.vjp(lambda x: x, np.ones(2))[0],
        lambda: core.checkpoint(lambda x: x)(np.ones(2)),
        lambda: core.vjp(lambda x: x, np.float64(2))[0],
    ],
)
def test_numpy_inputs_come_back_canonical(call):
    out = call()  # JAX 0.10.2: TypedNdArray(..., dtype=float32)
    assert isinstance(out, np.ndarray) and out.dtype == np.float32


# (primal, tangent, function) -> the tangent's weak type as JAX 0.10.2 printed it
WEAK = [
    (1.0, jnp.float32(1.0), jnp.sin, True),
    (1.0, np.float32(1.0), lambda x: x * 2, True),
    (jnp.float32(1.0), 1.0, lambda x: x * 2, False),
    (1.0, jnp.float32(1.0), lambda x: x * x, True),
    (1.0, jnp.float32(1.0), core.grad(lambda x: x**3), True),
]


@pytest.mark.parametrize("primal, tangent, fun, weak", WEAK)
def test_jvp_tangent_takes_the_primals_weak_type(primal, tangent, fun, weak):
    _, t = core.jvp(fun, (primal,), (tangent,))
    assert t.weak_type is weak


def test_linearized_function_is_a_pytree():
    # JAX 0.10.2: { lambda ; a:f32[]. let b:f32[] = stop_gradient a; c:f32[] = mul b a in (c, b) }
    staged = core.make_jaxpr(lambda x: core.linearize(lambda y: lax.stop_gradient(y) * y, x))
    text = str(staged(1.0))
    assert "stop_gradient" in text and text.rstrip().endswith("in (c, b) }")


def test_linear_transpose_function_takes_one_cotangent():
    f_t = core.linear_transpose(lambda x: x * 2, 1.0)
    with pytest.raises(TypeError, match=r"transposed_fun\(\) takes 2 positional arguments"):
        f_t(2.0, 3.0)


@pytest.mark.parametrize(
    "fun, primals, cls",
    [
        (lambda x, y: x * y, (1.0, 1.0), AssertionError),  # JAX 0.10.2: AssertionError
        (lambda x: x * x, (1.0,), AssertionError),
        (lambda x: x @ x, (jnp.ones(2),), AssertionError),
        (lambda x: x / x, (1.0,), RuntimeError),  # "nonlinear div can't be transposed"
    ],
)
def test_transposing_a_nonlinear_function_raises(fun, primals, cls):
    ct = jnp.zeros((), jnp.float32) + 1.0
    with pytest.raises(cls):
        core.linear_transpose(fun, *primals)(ct)


# (call, JAX 0.10.2's exception class, its message's first line)
AUX_ERRORS = [
    (
        lambda: core.jvp(lambda x: x, (1.0,), (1.0,), has_aux=True),
        TypeError,
        "iteration over a 0-d array",
    ),
    (
        lambda: core.jvp(lambda x: (x, x, x), (1.0,), (1.0,), has_aux=True),
        ValueError,
        "too many values to unpack (expected 2)",
    ),
    (
        lambda: core.grad(lambda x: 3.0, has_aux=True)(2.0),
        TypeError,
        "expected function with aux output to return a two-element tuple, but got type "
        "<class 'float'> with value 3.0",
    ),
    (
        lambda: core.grad(lambda x: (x, 2.0))(1.0),
        TypeError,
        "Gradient only defined for scalar-output functions. Output was "
        "(TypedFloat(1.0, dtype=float32), 2.0).",
    ),
    (
        lambda: core.grad(lambda x, y: [x, y], argnums=(0, 1))(1.0, 2.0),
        TypeError,
        "Gradient only defined for scalar-output functions. Output was "
        "[TypedFloat(1.0, dtype=float32), TypedFloat(2.0, dtype=float32)].",
    ),
]


@pytest.mark.parametrize("call, cls, first_line", AUX_ERRORS)
def test_output_errors_start_with_jaxs_line(call, cls, first_line):
    with pytest.raises(cls) as info:
        call()
    assert str(info.value).split("\n")[0] == first_line


def test_vmap_gives_back_a_mapped_numpy_input():
    # JAX 0.10.2: array([0, 1, 2]) (int64, the input itself) and its transpose for in_axes=1
    x = np.arange(3)
    assert core.vmap(lambda v: v)(x) is x
    out = core.vmap(lambda v: v, in_axes=1)(np.ones((2, 3)))
    assert isinstance(out, np.ndarray) and out.shape == (3, 2) and out.dtype == np.float64


def test_checkpoint_policy_is_checked_when_applied():
    # JAX 0.10.2: a value eagerly; TypeError "'int' object is not callable" under grad
    f = core.checkpoint(jnp.sin, policy=1)
    np.testing.assert_allclose(f(1.0), 0.84147096)
    with pytest.raises(TypeError, match="'int' object is not callable"):
        core.grad(f)(1.0)


@pytest.mark.parametrize(
    "x, staged",
    [(1, "{ lambda ; a:i32[]. let b:i32[] = stop_gradient a in (b,) }"), (True, "bool[]")],
)
def test_stop_gradient_is_staged_for_integers(x, staged):
    # JAX 0.10.2 stages stop_gradient of an int or bool as of a float
    assert staged in str(core.make_jaxpr(lax.stop_gradient)(x))


def test_known_tracers_are_concrete_for_arange_and_nonzero():
    # JAX 0.10.2: Array(0., weak) and a GradTypeError for the int output of nonzero
    assert float(core.grad(lambda x: jnp.arange(x).sum())(3.0)) == 0.0
    np.testing.assert_allclose(
        core.grad(lambda x: (jnp.nonzero(x)[0] * x[1]).sum())(jnp.arange(3.0)), [0.0, 3.0, 0.0]
    )
    with pytest.raises(TypeError, match="grad requires real-valued outputs"):
        core.grad(lambda x: jnp.nonzero(x)[0].sum())(jnp.arange(3.0))


def test_vmap_of_a_float0_gradient():
    # JAX 0.10.2: TypedNdArray of dtype float0 and shape (3,)
    out = core.vmap(core.grad(lambda x: x * 2.0, allow_int=True))(jnp.arange(3))
    assert isinstance(out, np.ndarray) and out.dtype == core.float0 and out.shape == (3,)
