"""Errors that teach: each misuse raises its own class (a subclass of the matching built-in)
whose message names the problem and the fix."""

import operator

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import errors, grad, lax, vmap
from core.errors import DTypeError


def _staged(f, *args):
    return core.make_jaxpr(f)(*args)


def test_bool_conversion_names_the_fixes():
    with pytest.raises(errors.TracerBoolConversionError) as e:
        _staged(lambda x: x if x > 0 else -x, 1.0)
    msg = str(e.value)
    assert "jnp.where" in msg and "lax.cond" in msg and "static_argnames" in msg
    assert isinstance(e.value, TypeError) and isinstance(e.value, errors.ConcretizationTypeError)
    # JAX's first line verbatim (the jit tutorial prints it)
    assert msg.splitlines()[0] == "Attempted boolean conversion of traced array with shape bool[]."
    with pytest.raises(errors.TracerBoolConversionError) as e:
        vmap(lambda x: x if x > 0 else -x)(jnp.ones(2))
    assert str(e.value).startswith("Attempted boolean conversion of traced array with shape")


def test_concrete_values_work_under_grad_and_jvp():
    assert grad(lambda x: x if x > 0 else -x)(-3.0) == -1.0
    assert core.jvp(lambda x: x * int(x), (2.0,), (1.0,))[1] == 2.0


@pytest.mark.parametrize(
    "fn,cls",
    [
        (lambda x: np.asarray(x), errors.TracerArrayConversionError),
        (lambda x: np.sin(x), errors.TracerArrayConversionError),
        (lambda x: list(range(x)), errors.TracerIntegerConversionError),
        (lambda x: [1, 2, 3][x], errors.TracerIntegerConversionError),
        (lambda x: float(x), errors.ConcretizationTypeError),
        (lambda x: x.item(), errors.ConcretizationTypeError),
    ],
)
def test_conversions_of_staged_values(fn, cls):
    arg = 1 if cls is errors.TracerIntegerConversionError else 1.0
    with pytest.raises(cls):
        _staged(fn, arg)
    assert issubclass(cls, TypeError)


def test_escaped_tracers():
    leaked = []

    def keep(x):
        leaked.append(x)
        return x * 2

    grad(keep)(1.0)
    core.make_jaxpr(keep)(1.0)
    vmap(keep)(jnp.ones(2))
    jvp_leak, staged_leak, vmap_leak = leaked
    with pytest.raises(errors.UnexpectedTracerError, match="jvp/grad"):
        grad(lambda y: jvp_leak * y)(1.0)
    with pytest.raises(errors.UnexpectedTracerError, match="jit/make_jaxpr"):
        _staged(lambda y: staged_leak * y, 1.0)
    with pytest.raises(errors.UnexpectedTracerError, match="vmap"):
        vmap(lambda y: vmap_leak * y)(jnp.ones(2))
    with pytest.raises(errors.UnexpectedTracerError, match="Return it from the function"):
        staged_leak + 1.0


def test_grad_output_and_input_errors():
    with pytest.raises(errors.GradTypeError, match=r"scalar-output.*shape: \(2,\)"):
        grad(lambda x: x * 2)(jnp.ones(2))
    with pytest.raises(errors.GradTypeError, match=r"reshape\(\(\)\)"):
        grad(lambda x: x * 2)(jnp.ones(1))
    with pytest.raises(errors.GradTypeError, match="allow_int"):
        grad(lambda x: x * 1.0)(1)
    with pytest.raises(errors.GradTypeError, match="real-valued outputs"):
        grad(lambda x: x.astype(jnp.int32))(1.0)
    with pytest.raises(TypeError, match="argnums=2 requires at least 3 positional"):
        grad(lambda x: x, argnums=2)(1.0)
    with pytest.raises(TypeError, match="has_aux=True requires the function to return a pair"):
        grad(lambda x: x, has_aux=True)(1.0)
    assert issubclass(errors.GradTypeError, TypeError)


def test_jvp_and_vjp_argument_errors():
    with pytest.raises(TypeError, match="tuples or lists"):
        core.jvp(jnp.sin, 1.0, 1.0)
    with pytest.raises(ValueError, match="tangent of shape"):
        core.jvp(jnp.sin, (jnp.ones(2),), (jnp.ones(3),))
    with pytest.raises(TypeError, match="dtypes must be equal"):
        core.jvp(jnp.sin, (jnp.ones(2),), (jnp.ones(2, jnp.int32),))
    _, f_vjp = core.vjp(jnp.sin, jnp.ones(2))
    with pytest.raises(
        ValueError, match="unexpected JAX type .e.g. shape.dtype. for argument to VJP function"
    ):
        f_vjp(jnp.ones(3))
    with pytest.raises(ValueError, match="Tree structure of cotangent"):  # ValueError in JAX
        f_vjp((jnp.ones(2),))


_W1 = "TypedFloat(1.0, dtype=float32)"  # JAX 0.10.2 shows a Python float input so
_OUT_DT = "grad requires real-valued outputs (output dtype that is a sub-dtype of np.floating), "
# (call, JAX 0.10.2's exception class, its message's first line), from jax/_src/api.py's
# check_callable, _check_scalar, _check_output_dtype_revderiv, _check_input_dtype_jacfwd and
# dispatch.check_arg; numbax's fix follows on later lines.
TRANSFORM_ERRORS = [
    (lambda: grad(1.0), TypeError, "Expected a callable value, got 1.0"),
    (lambda: vmap(2), TypeError, "Expected a callable value, got 2"),
    (lambda: core.jacfwd(None), TypeError, "Expected a callable value, got None"),
    (lambda: core.jvp(1, (1.0,), (1.0,)), TypeError, "Expected a callable value, got 1"),
    (
        lambda: core.jvp(lambda x, y: x * y, (np.float32(2),), [np.float32(2)]),
        TypeError,
        "primal and tangent arguments to jax.jvp must have the same tree structure; primals "
        "have tree structure PyTreeDef((*,)) whereas tangents have tree structure "
        "PyTreeDef([*]).",
    ),
    *[
        (
            lambda x=x, f=f: core.jit(f)(x),
            TypeError,
            "Only integer scalar arrays can be converted to a scalar index.",
        )
        for x in (jnp.arange(3), jnp.float32(0), jnp.zeros(0, "int32"))
        for f in (operator.index, hex)
    ],
    *[
        (
            lambda x=x: grad(lambda x: x)(x),
            TypeError,
            f"Argument '{x}' of type <class 'numpy.ndarray'> is not a valid JAX type.",
        )
        for x in (np.array([1, 2], dtype=object), np.array(["a"]))
    ],
    (
        lambda: core.jit(bool)(jnp.zeros(0, "int32")),
        ValueError,
        "The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an "
        "array is not empty.",
    ),
    (
        lambda: vmap(lambda x: x, out_axes=None, axis_name="foo")(jnp.ones(2)),
        ValueError,
        "vmap has mapped output (axis_name=foo) but out_axes is None",
    ),
    (
        lambda: core.jit(staticmethod(abs)),
        TypeError,
        f"staticmethod arguments are not supported, got {staticmethod(abs)}",
    ),
    (
        lambda: grad(lambda x: (x, x))(1.0),
        TypeError,
        f"Gradient only defined for scalar-output functions. Output was ({_W1}, {_W1}).",
    ),
    (
        lambda: grad(lambda x: None)(1.0),
        TypeError,
        "Gradient only defined for scalar-output functions. Output was None.",
    ),
    (
        lambda: grad(lambda x: (x * 1j).sum())(jnp.ones(2)),
        TypeError,
        _OUT_DT + "but got complex64. For holomorphic differentiation, pass holomorphic=True. "
        "For differentiation of non-holomorphic functions involving complex outputs, use "
        "jax.vjp directly.",
    ),
    (
        lambda: grad(lambda x: (x * 2).astype(jnp.int32))(1.0),
        TypeError,
        _OUT_DT + "but got int32. For differentiation of functions with integer outputs, use "
        "jax.vjp directly.",
    ),
    (
        lambda: core.jacfwd(jnp.sin)(1),
        TypeError,
        "jacfwd requires real-valued inputs (input dtype that is a sub-dtype of np.floating), "
        "but got int32. For holomorphic differentiation, pass holomorphic=True. For "
        "differentiation of non-holomorphic functions involving complex inputs or integer "
        "inputs, use jax.jvp directly.",
    ),
    (
        lambda: grad(jnp.sin)("a"),
        TypeError,
        "Argument 'a' of type <class 'str'> is not a valid JAX type.",
    ),
    (
        lambda: core.jacfwd(lambda x: x, argnums=2)(1.0),
        ValueError,
        "Positional argument indices, e.g. for `static_argnums`, must have value greater than "
        "or equal to -len(args) and less than len(args), but got value 2 for len(args) == 1.",
    ),
    (
        lambda: grad(lambda x, y: x * y, argnums=-3)(2.0, 3.0),
        ValueError,
        "Positional argument indices, e.g. for `static_argnums`, must have value greater than "
        "or equal to -len(args) and less than len(args), but got value -3 for len(args) == 2.",
    ),
    (
        lambda: core.jvp(jnp.sin, 1.0, 1.0),
        TypeError,
        "primal and tangent arguments to jax.jvp must be tuples or lists; found float and float.",
    ),
    (
        lambda: core.jvp(jnp.sin, (1.0,), (1.0, 2.0)),
        TypeError,
        "primal and tangent arguments to jax.jvp must have the same tree structure; primals have "
        "tree structure PyTreeDef((*,)) whereas tangents have tree structure PyTreeDef((*, *)).",
    ),
    (
        lambda: core.jvp(jnp.sin, (jnp.float32(1.0),), (jnp.float16(1.0),)),
        TypeError,
        "primal and tangent arguments to jax.jvp do not match; dtypes must be equal, or in case "
        "of int/bool primal dtype the tangent dtype must be float0.Got primal dtype float32 and "
        "so expected tangent dtype float32, but got tangent dtype float16 instead.",
    ),
    (
        lambda: core.jvp(jnp.sin, (jnp.ones(3),), (jnp.ones(2),)),
        ValueError,
        "jvp called with different primal and tangent shapes;Got primal shape (3,) and tangent "
        "shape as (2,)",
    ),
    (
        lambda: core.vjp(jnp.sin, jnp.arange(3.0))[1](jnp.ones(2)),
        ValueError,
        "unexpected JAX type (e.g. shape/dtype) for argument to VJP function: got float32[2], "
        "but expected float32[3] because the corresponding output of the differentiated "
        "function had JAX type float32[3]",
    ),
    (
        lambda: core.vjp(jnp.sin, jnp.arange(3.0))[1](jnp.ones(3), jnp.ones(3)),
        TypeError,
        "The function returned by `jax.vjp` applied to sin was called with 2 arguments,",
    ),
    (
        lambda: core.vjp(lambda x: (x, x * 2), 1.0)[1](1.0),
        ValueError,
        "unexpected tree structure.",
    ),
    (
        lambda: core.linearize(jnp.sin, jnp.arange(2.0))[1](jnp.ones(3)),
        ValueError,
        "linearized function called on tangent values inconsistent with the original primal "
        "values:",
    ),
    (
        lambda: vmap(lambda x, y: x + y)(jnp.ones(3), jnp.ones(4)),
        ValueError,
        "vmap got inconsistent sizes for array axes to be mapped:",
    ),
    (
        lambda: vmap(lambda x: x, axis_size=4)(jnp.ones(3)),
        ValueError,
        "vmap got inconsistent sizes for array axes to be mapped:",
    ),
    (
        lambda: vmap(lambda x: x, in_axes=None)(jnp.ones(3)),
        ValueError,
        "vmap must have at least one non-None value in in_axes or axis_size must be specified",
    ),
    (
        lambda: vmap(lambda x: x, out_axes=None)(jnp.ones(3)),
        ValueError,
        "at vmap out_axes, got axis spec None but output was batched on axis 0",
    ),
    (
        lambda: vmap(lambda x: x, out_axes=2)(jnp.ones((3, 4))),
        ValueError,
        "axis 2 is out of bounds for array of dimension 2",
    ),
    (
        lambda: vmap(lambda x: x, in_axes=2)(jnp.ones((3, 4))),
        ValueError,
        "vmap was requested to map its argument along axis 2, which implies that its rank "
        "should be at least 3, but is only 2 (its shape is (3, 4))",
    ),
    (
        lambda: vmap(lambda x: x, in_axes="a")(jnp.ones(3)),
        TypeError,
        "vmap in_axes must be an int, None, or a tuple of entries corresponding to the "
        "positional arguments passed to the function, but got a.",
    ),
    (
        lambda: vmap(lambda x: x, out_axes=(0, 1))(jnp.ones(3)),
        ValueError,
        "vmap out_axes specification must be a tree prefix of the corresponding value;",
    ),
    # JAX 0.10.2's first lines (session 38's survey)
    (
        lambda: core.vjp(jnp.sin, jnp.ones((2, 3)))[1](jnp.ones(3)),
        ValueError,
        "unexpected JAX type (e.g. shape/dtype) for argument to VJP function: got float32[3], "
        "but expected float32[2,3] because the corresponding output of the differentiated "
        "function had JAX type float32[2,3]",
    ),
    (
        lambda: core.grad(lambda v: v * 2)(jnp.ones((2, 3))),
        TypeError,
        "Gradient only defined for scalar-output functions. Output had shape: (2, 3).",
    ),
    (
        lambda: core.tree.unflatten(core.tree.structure([1, 2]), [1]),
        ValueError,
        "Too few leaves for PyTreeDef; expected 2, got 1",
    ),
    (lambda: len(jnp.float32(1)), TypeError, "len() of unsized object"),
    (lambda: len(core.random.key(0)), TypeError, "len() of unsized object"),
]


@pytest.mark.parametrize("fn, cls, first_line", TRANSFORM_ERRORS)
def test_transformation_errors_start_with_jaxs_line(fn, cls, first_line):
    with pytest.raises(cls) as info:
        fn()
    assert str(info.value).split("\n")[0] == first_line


_SIZES = "vmap got inconsistent sizes for array axes to be mapped:"
# (call, JAX 0.10.2's message up to numbax's line of advice): per size, how many mapped axes have
# it and the first of them, named by the function's parameters (api._mapped_axis_size)
VMAP_SIZE_ERRORS = [
    (
        lambda: vmap(lambda x1, x2, a3: x1)(jnp.ones(2), x2=jnp.ones(2), a3=jnp.ones(1)),
        [
            "  * most axes (2 of them) had size 2, e.g. axis 0 of argument x1 of type float32[2];",
            "  * one axis had size 1: axis 0 of kwargs['a3'] of type float32[1]",
        ],
    ),
    (
        lambda: vmap(lambda a, b: a, in_axes=(0, 1))(jnp.ones((10, 4)), jnp.ones((10, 2))),
        [
            "  * one axis had size 10: axis 0 of argument a of type float32[10,4];",
            "  * one axis had size 2: axis 1 of argument b of type float32[10,2]",
        ],
    ),
    (
        lambda: vmap(lambda x, y: x, axis_size=2)(jnp.ones(8, "int32"), jnp.ones(8)),
        [
            "  * the `axis_size` argument was 2;",
            "  * most axes (2 of them) had size 8, e.g. axis 0 of argument x of type int32[8]",
        ],
    ),
    (
        lambda: vmap(lambda *a: a)(jnp.ones(3), jnp.ones(4), {"q": [jnp.ones(4)]}),
        [
            "  * most axes (2 of them) had size 4, e.g. axis 0 of args[1] of type float32[4];",
            "  * one axis had size 3: axis 0 of argument a of type float32[3]",
        ],
    ),
    (
        lambda: vmap(lambda a, b: a)(
            jnp.ones(3), {"q": [jnp.ones((2, 4)), jnp.ones((3, 4)), jnp.ones((2, 4))]}
        ),
        [
            "  * most axes (2 of them) had size 3, e.g. axis 0 of argument a of type float32[3];",
            "  * some axes (2 of them) had size 2, e.g. axis 0 of argument b['q'][0] of type "
            "float32[2,4]",
        ],
    ),
    (
        lambda: vmap(lambda x, y: x, axis_size=3)(jnp.ones(3), jnp.ones(4)),
        [
            "  * the `axis_size` argument was 3;",
            "  * one axis had size 3: axis 0 of argument x of type float32[3];",
            "  * one axis had size 4: axis 0 of argument y of type float32[4]",
        ],
    ),
]


@pytest.mark.parametrize("fn, lines", VMAP_SIZE_ERRORS)
def test_vmap_size_errors_are_jaxs(fn, lines):
    with pytest.raises(ValueError) as info:
        fn()
    got = str(info.value).split("\n")
    assert got[: len(lines) + 1] == [_SIZES, *lines]
    assert got[len(lines) + 1].startswith("Map arguments of equal sizes")


_LEAF_CLASS = "<class 'core.tree_util.functions.PytreeLeaf'>"  # JAX's api_util.PytreeLeaf
# (call, JAX 0.10.2's message after its first line): every mismatch of a prefix, found in a
# copy of the full tree whose leaves are placeholders (api_util.flatten_axes, prefix_errors)
PREFIX_ERRORS = [
    (
        lambda: vmap(lambda x: x, in_axes=([0],))(jnp.ones(3)),
        "  Mismatch details (1 found):\n"
        "  pytree structure error: different types at key path\n"
        "    vmap in_axes[0]\n"
        "At that key path, the prefix pytree vmap in_axes has a subtree of type\n"
        "    <class 'list'>\n"
        "but at the same key path the full pytree has a subtree of different type\n"
        f"    {_LEAF_CLASS}.",
    ),
    (
        lambda: vmap(lambda x: x, in_axes=((0, 0, 0),))((jnp.ones(3), jnp.ones(3))),
        "  Mismatch details (1 found):\n"
        "  pytree structure error: different lengths of tuple at key path\n"
        "    vmap in_axes[0]\n"
        "At that key path, the prefix pytree vmap in_axes has a subtree of type tuple of length "
        "3, but the full pytree has a subtree of the same type but of length 2.",
    ),
    (
        lambda: core.device_put(
            {"a": jnp.arange(2), "b": jnp.arange(3)}, device={"a": [None, None], "b": (None,)}
        ),
        "  Mismatch details (2 found):\n"
        "  pytree structure error: different types at key path\n"
        "    device_put device['a']\n"
        "At that key path, the prefix pytree device_put device has a subtree of type\n"
        "    <class 'list'>\n"
        "but at the same key path the full pytree has a subtree of different type\n"
        f"    {_LEAF_CLASS}.\n"
        "  pytree structure error: different types at key path\n"
        "    device_put device['b']\n"
        "At that key path, the prefix pytree device_put device has a subtree of type\n"
        "    <class 'tuple'>\n"
        "but at the same key path the full pytree has a subtree of different type\n"
        f"    {_LEAF_CLASS}.",
    ),
]


@pytest.mark.parametrize("fn, details", PREFIX_ERRORS)
def test_prefix_mismatches_are_all_detailed_as_jaxs(fn, details):
    with pytest.raises(ValueError) as info:
        fn()
    assert str(info.value).split("\n", 1)[1] == details


@pytest.mark.parametrize("in_axes", [(jnp.ones(2),), (1.5,), (True,), ({"a": np.int32(0)},)])
def test_vmap_in_axes_leaves_must_be_ints_as_in_jax(in_axes):
    with pytest.raises(TypeError) as info:
        vmap(lambda x: x, in_axes=in_axes)
    assert str(info.value).split("\n")[0] == (
        "vmap in_axes must be an int, None, or (nested) container with those types as leaves, "
        f"but got {in_axes}."
    )


@pytest.mark.parametrize(
    "transform", [core.jit, grad, vmap, core.jacrev, core.hessian, core.pmap, core.eval_shape]
)
def test_transformations_refuse_a_generator_function_with_jaxs_line(transform):
    def gen(x):
        yield x

    with pytest.raises(TypeError) as info:
        transform(gen)
    assert str(info.value).split("\n")[0] == f"Expected a function, got a generator function: {gen}"


@pytest.mark.parametrize(
    "fn",
    [
        lambda: lax.shift_right_logical(jnp.ones(3), jnp.ones(3)),
        lambda: lax.add(jnp.array([True]), jnp.array([False])),
        lambda: jnp.subtract(jnp.array([True]), jnp.array([True])),
        lambda: lax.exp(jnp.arange(3)),
    ],
)
@pytest.mark.parametrize("staged", [False, True])
def test_primitive_dtype_checks_eager_and_staged(fn, staged):
    """JAX rejects these dtypes; eager evaluation must not compute garbage with numpy."""
    run = core.jit(fn) if staged else fn
    with pytest.raises(DTypeError, match="does not accept dtype (.|\n)* the operand"):
        run()


def test_add_and_multiply_of_booleans_are_or_and_and():
    a, b = jnp.array([True, True, False]), jnp.array([True, False, False])
    np.testing.assert_array_equal(a + b, [True, True, False])
    np.testing.assert_array_equal(jnp.multiply(a, b), [True, False, False])
    assert (a + b).dtype == np.bool_


@pytest.mark.parametrize("fn", [jnp.argmax, jnp.argmin])
def test_argmax_of_complex_raises(fn):
    x = jnp.array([1 + 2j, 3 + 0j])
    with pytest.raises(DTypeError, match="complex numbers are not ordered"):
        fn(x)
    with pytest.raises(DTypeError, match="complex numbers are not ordered"):
        core.jit(fn)(x)


@pytest.mark.parametrize(
    "fn",
    [
        lambda: jnp.ones(6).reshape(4),
        lambda: jnp.concatenate([jnp.ones((2, 3)), jnp.ones((2, 4))]),
        lambda: jnp.ones(3) @ jnp.ones(4),
        lambda: jnp.ones(3) + jnp.ones(4),
    ],
)
def test_shape_errors_are_caught_as_jax_raises_them(fn):
    """JAX raises TypeError for shapes a primitive rejects and ValueError for arrays that do not
    broadcast; a ShapeError is both, so code written for JAX catches it either way."""
    with pytest.raises(errors.ShapeError) as info:
        fn()
    assert isinstance(info.value, TypeError) and isinstance(info.value, ValueError)


def test_item_assignment_is_jaxs_immutable_error():
    # JAX's message verbatim (the "thinking in JAX" tutorial prints it), on arrays and tracers
    msg = (
        "JAX arrays are immutable and do not support in-place item assignment. Instead of "
        "x[idx] = y, use x = x.at[idx].set(y) or another .at[] method: "
        "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html"
    )
    x = jnp.arange(10)
    with pytest.raises(errors.ImmutableArrayError) as e:
        x[0] = 10
    assert isinstance(e.value, TypeError) and str(e.value) == msg

    def assign(a):
        a[0] = 1.0
        return a

    with pytest.raises(TypeError) as e:
        _staged(assign, jnp.ones(2))
    assert isinstance(e.value, errors.ImmutableArrayError) and str(e.value) == msg


def test_array_conversion_under_grad_raises_as_jax():
    # JAX 0.10.2: jax.grad(lambda x: np.sum(np.asarray(x)))(jnp.ones(2)) raises
    # TracerArrayConversionError although the value is concrete (bool and int still work)
    with pytest.raises(errors.TracerArrayConversionError, match="traced array with shape float32"):
        grad(lambda x: np.sum(np.asarray(x)))(jnp.ones(2))
    assert grad(lambda x: x if x > 0 else -x)(-3.0) == -1.0


@pytest.mark.parametrize("convert", [float, complex])
@pytest.mark.parametrize("transform", ["grad", "jvp", "vjp"])
def test_float_and_complex_of_a_tracer_are_errors_even_with_a_known_value(convert, transform):
    # JAX 0.10.2: ConcretizationTypeError under grad, jvp and vjp (int and bool take the value)
    def f(x):
        return x * convert(x).real if convert is complex else x * convert(x)

    run = {
        "grad": lambda: core.grad(f)(1.0),
        "jvp": lambda: core.jvp(f, (1.0,), (1.0,)),
        "vjp": lambda: core.vjp(f, 1.0),
    }[transform]
    with pytest.raises(core.errors.ConcretizationTypeError):
        run()
    assert core.grad(lambda x: x * int(x))(2.0) == 2.0
