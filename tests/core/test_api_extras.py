"""The less common top-level functions: linear_transpose, custom_gradient, closure_convert,
ensure_compile_time_eval and the device/compatibility helpers."""

import numpy as np
import pytest

import core
import core.numpy as jnp

A = np.array([[1.0, 2.0, 0.5], [-1.0, 0.0, 3.0]], np.float32)


@pytest.mark.parametrize(
    "fun,primal,ct,want",
    [
        (lambda x: A @ x, np.ones(3, np.float32), np.array([1.0, 2.0], np.float32), A.T @ [1, 2]),
        (
            lambda x: 3.0 * x[::-1],
            np.ones(3, np.float32),
            np.arange(3, dtype=np.float32),
            [6.0, 3.0, 0.0],
        ),
        (
            lambda x: jnp.sin(1.0) * x.sum(),
            np.ones(2, np.float32),
            np.float32(2.0),
            [2 * np.sin(1.0)] * 2,
        ),
        (
            lambda x: jnp.cumsum(x),
            core.ShapeDtypeStruct((4,), np.float32),
            np.ones(4, np.float32),
            [4.0, 3.0, 2.0, 1.0],
        ),
    ],
)
def test_linear_transpose(fun, primal, ct, want):
    (got,) = core.linear_transpose(fun, primal)(ct)
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_linear_transpose_pytrees_and_errors():
    def f(x, y):
        return {"a": 2 * x + y[0], "b": y[1] * 3}

    t = core.linear_transpose(f, np.float32(1), (np.float32(1), np.ones(2, np.float32)))
    cx, (cy0, cy1) = t({"a": np.float32(1.0), "b": np.array([1.0, 2.0], np.float32)})
    assert float(cx) == 2.0 and float(cy0) == 1.0
    np.testing.assert_array_equal(cy1, [3.0, 6.0])
    with pytest.raises(TypeError, match="does not match"):
        t({"a": np.float32(1.0), "b": np.ones(3, np.float32)})


def test_custom_gradient():
    @core.custom_gradient
    def f(x):
        return jnp.sin(x), lambda g: g * 100.0

    assert float(f(0.5)) == pytest.approx(np.sin(0.5))
    assert float(core.grad(f)(0.5)) == 100.0
    assert float(core.jit(core.grad(f))(0.5)) == 100.0

    @core.custom_gradient
    def g(x, y):
        return x * y, lambda ct: (ct * 2.0, ct * 3.0)

    assert core.grad(lambda x, y: g(x, y), argnums=(0, 1))(1.0, 2.0) == (2.0, 3.0)


def test_closure_convert():
    w = jnp.array([2.0, 3.0])

    def f(x):
        return (w * x).sum()

    conv, consts = core.closure_convert(f, jnp.ones(2))
    assert consts == []  # concrete closed-over arrays stay inside, as in JAX
    assert float(conv(jnp.array([1.0, 1.0]))) == 5.0
    with pytest.raises(TypeError, match="same Pytree structure"):
        conv((jnp.ones(2),))

    def outer(s):  # closing over a traced value: it becomes an explicit argument
        conv, consts = core.closure_convert(lambda x: s * x * w[0], 1.0)
        assert len(consts) == 1
        return conv(2.0, *consts)

    assert float(core.grad(outer)(3.0)) == 4.0  # JAX 0.10.2 gives 4.0
    assert core.custom_derivatives.closure_convert is core.closure_convert
    assert core.custom_derivatives.custom_gradient is core.custom_gradient


def test_ensure_compile_time_eval():
    def f(x):
        with core.ensure_compile_time_eval():
            n = jnp.sum(jnp.arange(4))  # concrete: computed now, usable as a Python int
            y = x * int(n)  # traced operand: traced as usual
        return y

    np.testing.assert_array_equal(core.jit(f, backend="python")(jnp.ones(2)), [6.0, 6.0])
    jaxpr = str(core.make_jaxpr(f)(jnp.ones(2)))
    assert "iota" not in jaxpr and "reduce_sum" not in jaxpr


def test_compatibility_helpers(capsys):
    np.testing.assert_allclose(core.named_call(jnp.sin, name="s")(1.0), np.sin(1.0), rtol=1e-6)
    with core.named_scope("block"):
        pass
    with core.checking_leaks():
        pass
    with core.default_device(core.devices()[0]):
        pass
    with pytest.raises(ValueError, match="unknown device"), core.default_device("gpu:0"):
        pass
    aval = core.typeof(jnp.ones((2, 3), jnp.int32))
    assert aval.shape == (2, 3) and aval.dtype == np.int32
    assert core.local_devices() == core.devices()
    assert core.float0.itemsize == 0
    assert core.float0 == np.dtype([("float0", np.void, 0)])
    text = core.print_environment_info(return_string=True)
    assert "numpy" in text and "numba" in text
    core.print_environment_info()
    assert "numpy" in capsys.readouterr().out


def test_flatten_util_and_shape_dtype_struct_exist():
    from core.flatten_util import ravel_pytree

    flat, unravel = ravel_pytree({"a": jnp.ones(2), "b": jnp.zeros(())})
    assert flat.shape == (3,)
    assert unravel(flat)["a"].shape == (2,)
    s = core.ShapeDtypeStruct((2,), np.float32)
    assert s.shape == (2,) and s.dtype == np.float32


# str/repr of core.typeof(x), as JAX 0.10.2 prints jax.typeof(x)
_TYPEOF_TEXT = [
    (lambda: jnp.ones((3, 3)), "float32[3,3]", "ShapedArray(float32[3,3])"),
    (lambda: 1.0, "~float32[]", "ShapedArray(float32[], weak_type=True)"),
    (lambda: jnp.ones(2, jnp.int8), "int8[2]", "ShapedArray(int8[2])"),
    (lambda: jnp.ones((), jnp.bool_), "bool[]", "ShapedArray(bool[])"),
    (lambda: jnp.ones(2, jnp.bfloat16), "bfloat16[2]", "ShapedArray(bfloat16[2])"),
]


@pytest.mark.parametrize("make,text,rep", _TYPEOF_TEXT)
def test_typeof_prints_like_jax(make, text, rep):
    aval = core.typeof(make())
    assert (str(aval), repr(aval)) == (text, rep)
    assert aval.str_short(short_dtypes=False) == text.lstrip("~")


def test_python_scalar_args_take_float32_tolerances():
    # JAX's "Automatic differentiation" tutorial: check_grads(loss, (W, b), order=2) with a
    # float32 W and a Python float b passes in JAX (a Python scalar counts as float32, tolerance
    # 2e-3); the inner products were compared with float64's 1e-5.
    inputs = jnp.array(
        [[0.52, 1.12, 0.77], [0.88, -1.08, 0.15], [0.52, 0.06, -1.30], [0.74, -2.49, 1.39]]
    )
    targets = jnp.array([True, True, False, True])

    def loss(w, b):
        preds = 0.5 * (jnp.tanh((jnp.dot(inputs, w) + b) / 2) + 1)
        return -jnp.sum(jnp.log(preds * targets + (1 - preds) * (1 - targets)))

    core.test_util.check_grads(loss, (jnp.array([0.1, 0.4, -0.3]), 0.5), order=2)


# jax 0.10.2's answers: (dtype, weak_type, value) of each output of linear_transpose.
_LT = jnp.ones
_LT_CASES = {
    "scalar float": (lambda: core.linear_transpose(lambda x: 2.0 * x, 1.0)(3.0), [(True, 6.0)]),
    "f32 arr": (
        lambda: core.linear_transpose(lambda x: 2.0 * x, _LT(2))(_LT(2)),
        [(False, [2.0, 2.0])],
    ),
    "sds": (
        lambda: core.linear_transpose(lambda x: x.sum(), core.ShapeDtypeStruct((3,), jnp.float32))(
            1.0
        ),
        [(True, [1.0, 1.0, 1.0])],
    ),
    "sds strong ct": (
        lambda: core.linear_transpose(lambda x: x.sum(), core.ShapeDtypeStruct((3,), jnp.float32))(
            jnp.float32(1.0)
        ),
        [(False, [1.0, 1.0, 1.0])],
    ),
    "tuple": (
        lambda: core.linear_transpose(lambda x, y: x + 2 * y, 1.0, 2.0)(1.0),
        [(True, 1.0), (True, 2.0)],
    ),
    "weak primal, f32 ct": (
        lambda: core.linear_transpose(lambda x: 3 * x, 1.0)(jnp.float32(2.0)),
        [(False, 6.0)],
    ),
    "unused": (
        lambda: core.linear_transpose(lambda x, y: 2 * x, 1.0, _LT(2))(1.0),
        [(True, 2.0), (False, [0.0, 0.0])],
    ),
}


@pytest.mark.parametrize("name", sorted(_LT_CASES))
def test_linear_transpose_weak_types_match_jax(name):
    fn, want = _LT_CASES[name]
    out = fn()
    assert [(o.aval.weak_type, np.asarray(o).tolist()) for o in out] == want
    assert all(o.dtype == np.float32 for o in out)


def test_named_scope_gives_its_name_stack():
    # JAX 0.10.2: `with named_scope('a'): with named_scope('s') as n` gives a NameStack whose
    # str is 'a/s' (numbax's name stacks are those strings)
    with core.named_scope("a"), core.named_scope("s") as n:
        assert n == "a/s"
    with core.named_scope("s") as n:
        assert n == "s"


def test_named_scope_of_a_non_string_is_jaxs_type_error():
    scope = core.named_scope(3)
    with pytest.raises(TypeError, match="^named_scope name argument must be a string."):
        scope.__enter__()


@pytest.mark.parametrize(
    "call, first_line",
    [
        (lambda: core.linear_transpose(1.0, 1.0), "the first argument must be callable"),
        (lambda: core.linear_transpose(lambda x: x * 2, 1.0)(1),
         "cotangent type does not match function output, expected "
         "(ShapedArray(float32[], weak_type=True),) but got [1]"),
        (lambda: core.linear_transpose(lambda x: (x, x), 1.0)(1.0),
         "cotangent tree does not match function output, expected PyTreeDef((*, *)) but got "
         "PyTreeDef(*)"),
        (lambda: core.linear_transpose(lambda x: x.astype(jnp.int32), 1.0),
         "linear_transpose only supports [float or complex] -> [float or complex], and integer "
         "-> integer functions, but got [dtype('float32')] -> [dtype('int32')]."),
        (lambda: core.linear_transpose(lambda x: x > 0, jnp.ones(2)),
         "linear_transpose only supports [float or complex] -> [float or complex], and integer "
         "-> integer functions, but got [dtype('float32')] -> [dtype('bool')]."),
    ],
)  # fmt: skip
def test_linear_transpose_errors_are_jaxs(call, first_line):
    # JAX 0.10.2's TypeErrors and first lines
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value).splitlines()[0] == first_line
