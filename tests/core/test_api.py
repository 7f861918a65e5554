"""The options and edge cases of the transformation API, checked against JAX 0.10.2.

Every expected value and error class below was recorded by running the same call in JAX
(differential campaign): argnums forms, holomorphic and allow_int, float0 tangents and
cotangents of integer values, vjp cotangent checks, Jacobian options, vmap axes
specifications, make_jaxpr/eval_shape arguments, custom rules called outside transformations
and the checkpoint policy names.
"""

import collections

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax

X = jnp.array([1.0, 2.0])
Y = jnp.array([3.0, 4.0])
I2 = jnp.array([1, 2])


def f2(x, y):
    return jnp.sum(x * y**2)


def _is_float0(x, shape):
    return isinstance(x, np.ndarray) and x.dtype == core.float0 and x.shape == shape


# ---------------------------------------------------------------------------------------------
# grad / value_and_grad


@pytest.mark.parametrize(
    "argnums,expected",
    [
        (1, [6.0, 16.0]),
        (-1, [6.0, 16.0]),
        ((0, 1), ([9.0, 16.0], [6.0, 16.0])),
        ([0, 1], ([9.0, 16.0], [6.0, 16.0])),
        ((-2, -1), ([9.0, 16.0], [6.0, 16.0])),
    ],
)
def test_grad_argnums(argnums, expected):
    g = core.grad(f2, argnums)(X, Y)
    if isinstance(expected, tuple):
        assert isinstance(g, tuple) and len(g) == len(expected)
        for a, b in zip(g, expected):
            np.testing.assert_allclose(a, b)
    else:
        np.testing.assert_allclose(g, expected)


@pytest.mark.parametrize(
    "make,error",
    [
        (lambda: core.grad(f2, ())(X, Y), ValueError),
        (lambda: core.grad(f2, 2)(X, Y), TypeError),
        (lambda: core.grad(f2, 1.0)(X, Y), TypeError),
        (lambda: core.grad(jnp.sum, reduce_axes=("i",))(X), NotImplementedError),
        (lambda: core.vjp(jnp.sum, X, reduce_axes=("i",)), NotImplementedError),
        (lambda: core.grad(lambda z: z**2, holomorphic=True)(1.0), TypeError),
        (lambda: core.grad(lambda x: jnp.sum(x * 1j))(X), TypeError),
        (lambda: core.grad(lambda x: x * 2)(X), TypeError),
        (lambda: core.grad(lambda x: jnp.sum(x * 1.0))(I2), TypeError),
    ],
    ids=[
        "empty-argnums",
        "argnum-oob",
        "float-argnum",
        "grad-reduce-axes",
        "vjp-reduce-axes",
        "holomorphic-real-input",
        "complex-output",
        "non-scalar",
        "int-input",
    ],
)
def test_grad_errors(make, error):
    with pytest.raises(error):
        make()


def test_grad_holomorphic():
    g = core.grad(lambda z: z**2, holomorphic=True)(jnp.array(1.0 + 2.0j))
    assert g.dtype == jnp.complex64
    np.testing.assert_allclose(g, 2.0 + 4.0j)
    g = core.grad(jnp.sin, holomorphic=True)(jnp.array(1 + 1j, jnp.complex64))
    np.testing.assert_allclose(g, 0.8337299 - 0.9888977j, rtol=1e-6)


@pytest.mark.parametrize(
    "x,shape",
    [(I2, (2,)), (jnp.array([True]), (1,)), (3, ())],
    ids=["int-array", "bool-array", "python-int"],
)
def test_grad_allow_int_gives_float0(x, shape):
    gx, gy = core.grad(lambda a, b: jnp.sum(b * 2.0), argnums=(0, 1), allow_int=True)(x, Y)
    assert _is_float0(gx, shape)
    np.testing.assert_allclose(gy, [2.0, 2.0])


# ---------------------------------------------------------------------------------------------
# jvp / linearize / vjp with integer values


def test_jvp_float0_tangents():
    p, t = core.jvp(lambda a: a * 2, (I2,), (np.zeros(2, core.float0),))
    np.testing.assert_array_equal(p, [2, 4])
    assert _is_float0(t, (2,))
    (p1, p2), (t1, t2) = core.jvp(lambda a: (a * 2, I2), (X,), (Y,))
    np.testing.assert_allclose(t1, [6.0, 8.0])
    assert _is_float0(t2, (2,))


@pytest.mark.parametrize(
    "primal,tangent,error",
    [
        (I2, jnp.ones(2), TypeError),
        (I2, I2, TypeError),
        (X, jnp.ones(2, jnp.float16), TypeError),
        (X, jnp.ones(3), ValueError),
    ],
    ids=["int-primal-float-tangent", "int-primal-int-tangent", "dtype", "shape"],
)
def test_jvp_tangent_checks(primal, tangent, error):
    with pytest.raises(error):
        core.jvp(lambda a: a, (primal,), (tangent,))


def test_linearize_float0():
    out, f_jvp = core.linearize(lambda a, k: (a * 2, k * 3), 1.0, 2)
    t_a, t_k = f_jvp(1.0, np.zeros((), core.float0))
    np.testing.assert_allclose(t_a, 2.0)
    assert _is_float0(t_k, ())
    with pytest.raises(ValueError):
        f_jvp(1.0, 1)


def test_vjp_integer_inputs_get_float0():
    out, f = core.vjp(lambda a, b: a * b, I2, Y)
    ca, cb = f(jnp.ones(2))
    assert _is_float0(ca, (2,))
    np.testing.assert_allclose(cb, [1.0, 2.0])
    out, f = core.vjp(lambda a: a * 2, I2)  # integer output: any-dtype cotangent of its shape
    (ca,) = f(jnp.ones(2, jnp.int32))
    assert _is_float0(ca, (2,))


@pytest.mark.parametrize(
    "fn,ct",
    [
        (lambda a: (a, a), jnp.ones(2)),
        (lambda a: a, jnp.ones(3)),
        (lambda a: a, jnp.ones(2, jnp.float16)),
    ],
    ids=["structure", "shape", "dtype"],
)
def test_vjp_cotangent_checks_raise_value_error(fn, ct):
    _, f = core.vjp(fn, X)
    with pytest.raises(ValueError):
        f(ct)


def test_vjp_of_a_string_is_jaxs_invalid_input_exception():
    # JAX 0.10.2: jax._src.dtypes.InvalidInputException (a TypeError), "Argument 'a' of type
    # <class 'str'> is not a valid JAX type."
    with pytest.raises(core.errors.InvalidInputException) as info:
        core.vjp(jnp.sin, "a")
    assert isinstance(info.value, TypeError)
    assert str(info.value) == "Argument 'a' of type <class 'str'> is not a valid JAX type."


# ---------------------------------------------------------------------------------------------
# Jacobians


@pytest.mark.parametrize("jac", [core.jacfwd, core.jacrev])
def test_jacobian_kwargs_pass_through(jac):
    j = jac(lambda a, s=1.0: a * s)(X, s=2.0)
    np.testing.assert_allclose(j, [[2.0, 0.0], [0.0, 2.0]])


@pytest.mark.parametrize(
    "make",
    [
        lambda: core.jacfwd(lambda a: a * 2.0)(I2),
        lambda: core.jacrev(lambda a: a * 2.0)(I2),
        lambda: core.jacrev(lambda a: (a * 2).astype(jnp.int32))(X),
        lambda: core.jacfwd(lambda z: z**2)(jnp.array([1 + 1j], jnp.complex64)),
        lambda: core.jacfwd(jnp.real, holomorphic=True)(jnp.array([1 + 1j], jnp.complex64)),
    ],
    ids=["jacfwd-int-in", "jacrev-int-in", "jacrev-int-out", "jacfwd-complex-in", "holo-real-out"],
)
def test_jacobian_dtype_errors(make):
    with pytest.raises(TypeError):
        make()


def test_jacobian_dtype_cases():
    ja, jb = core.jacrev(lambda a, b: a * b, argnums=(0, 1), allow_int=True)(
        jnp.arange(2), jnp.ones(2)
    )
    assert ja.dtype == jnp.int32
    np.testing.assert_array_equal(ja, [[0, 0], [0, 0]])
    np.testing.assert_allclose(jb, [[0.0, 0.0], [0.0, 1.0]])
    j = core.jacfwd(lambda a: (a * 2).astype(jnp.int32))(X)  # int outputs: int zeros
    assert j.dtype == jnp.int32 and not np.any(np.asarray(j))
    z = jnp.array([1 + 1j], jnp.complex64)
    for jac in (core.jacfwd, core.jacrev):
        np.testing.assert_allclose(jac(lambda z: z**2, holomorphic=True)(z), [[2 + 2j]])
    np.testing.assert_allclose(core.jacrev(lambda z: jnp.real(z**2))(z), [[2 + 2j]])
    h = core.hessian(lambda z: z**3, holomorphic=True)(jnp.array(1 + 1j, jnp.complex64))
    np.testing.assert_allclose(h, 6 + 6j)


@pytest.mark.parametrize(
    "fn,x,weak",
    [
        (lambda a: core.jacfwd(lambda v: v**2)(a), 3.0, True),
        (lambda a: core.jacrev(lambda v: v**2)(a), 3.0, True),
        (lambda a: core.jacfwd(lambda v: v**2)(a), jnp.float32(3.0), False),
        (lambda a: core.hessian(lambda p: p["a"] ** 2 * p["b"])(a)["a"]["b"], None, True),
    ],
)
def test_jacobian_weak_types(fn, x, weak):
    out = fn({"a": 1.0, "b": 2.0} if x is None else x)
    assert out.weak_type == weak


# ---------------------------------------------------------------------------------------------
# vmap


A = jnp.arange(6.0).reshape(2, 3)
B = jnp.arange(3.0)


@pytest.mark.parametrize("in_axes", ["0", 0.0, {"a": 0}], ids=["str", "float", "dict"])
def test_vmap_in_axes_top_level_type_error(in_axes):
    with pytest.raises(TypeError):
        core.vmap(lambda d: d, in_axes=in_axes)({"a": A})


def test_vmap_out_axes_list_prefix():
    o0, o1 = core.vmap(lambda a: [a, a], out_axes=[0, 1])(A)
    np.testing.assert_allclose(o0, A)
    np.testing.assert_allclose(o1, A.T)


@pytest.mark.parametrize(
    "fn,out_axes,expected",
    [
        (lambda a: (a, 1.0), (0, None), 1.0),
        (lambda a: 1.0, None, 1.0),
    ],
)
def test_vmap_unbatched_python_outputs_pass_through(fn, out_axes, expected):
    out = core.vmap(fn, out_axes=out_axes)(B)
    last = out[1] if isinstance(out, tuple) else out
    assert type(last) is float and last == expected


def test_vmap_unmapped_arguments_are_passed_as_given():
    seen = []

    def f(a, n, s):
        seen.append((type(n), s))
        return a * n

    out = core.vmap(f, in_axes=(0, None, None))(B, 2, "mode")
    np.testing.assert_allclose(out, [0.0, 2.0, 4.0])
    assert seen == [(int, "mode")]
    f_jit = core.jit(lambda a, n: a * n, static_argnums=1)
    np.testing.assert_allclose(core.vmap(f_jit, in_axes=(0, None))(B, 2), [0.0, 2.0, 4.0])


# ---------------------------------------------------------------------------------------------
# make_jaxpr / eval_shape


def test_make_jaxpr_stages_kwargs_and_shape_dtype_structs():
    j = core.make_jaxpr(lambda a, b=1.0: a * b)(B, b=2.0)
    assert len(j.jaxpr.invars) == 2
    j = core.make_jaxpr(lambda a: a * 2)(core.ShapeDtypeStruct((2,), jnp.float32))
    assert [v.aval.shape for v in j.jaxpr.invars] == [(2,)]
    j, shapes = core.make_jaxpr(lambda a, n: {"o": a * n}, static_argnums=-1, return_shape=True)(
        B, 3
    )
    assert len(j.jaxpr.invars) == 1
    assert shapes == {"o": core.ShapeDtypeStruct((3,), jnp.float32)}


def test_make_jaxpr_keeps_unused_equations_as_jax():
    # JAX 0.10.2: make_jaxpr shows what the function computed, unused values as `_`
    # (advanced-autodiff.md's make_jaxpr(grad(log1pexp)) shows the primal `log`)
    j = core.make_jaxpr(lambda x: (jnp.sin(x), x * 2)[1])(1.0)
    assert str(j) == "{ lambda ; a:f32[]. let _:f32[] = sin a; b:f32[] = mul a 2.0:f32[] in (b,) }"
    j = core.make_jaxpr(core.grad(lambda x: jnp.log(1.0 + jnp.exp(x))))(100.0)
    assert [e.prim.name for e in j.jaxpr.eqns] == ["exp", "add", "log", "div", "mul"]
    assert "_:f32[] = log c" in str(j)


def test_eval_shape_kwargs_and_none():
    out = core.eval_shape(lambda a, b: (a + b, None), B, b=B)
    assert out == (core.ShapeDtypeStruct((3,), jnp.float32), None)


# ---------------------------------------------------------------------------------------------
# Custom rules and checkpoint


def test_custom_rules_called_outside_transformations_return_raw_values():
    @core.custom_vjp
    def g(x, y):
        return x * y

    g.defvjp(lambda x, y: (x * y, (x, y)), lambda r, ct: (ct * r[1], ct * r[0]))

    @core.custom_jvp
    def h(x):
        return x + 1

    h.defjvp(lambda p, t: (p[0] + 1, t[0]))
    assert type(g(2.0, 3.0)) is float and g(2.0, 3.0) == 6.0
    assert type(h(2)) is int and h(2) == 3
    np.testing.assert_allclose(core.grad(g, (0, 1))(2.0, 3.0), (3.0, 2.0))


def test_checkpoint_offload_policies():
    pol = core.checkpoint_policies
    f = core.checkpoint(
        lambda x: jnp.sin(x) @ x, policy=pol.offload_dot_with_no_batch_dims("device", "pinned_host")
    )
    np.testing.assert_allclose(core.grad(f)(B), np.cos(B) * B + np.sin(B), rtol=1e-6)
    pol.save_and_offload_only_these_names(
        names_which_can_be_saved=["a"],
        names_which_can_be_offloaded=["b"],
        offload_src="device",
        offload_dst="pinned_host",
    )
    with pytest.raises(ValueError):
        pol.save_and_offload_only_these_names(
            names_which_can_be_saved=["a"],
            names_which_can_be_offloaded=["a"],
            offload_src="device",
            offload_dst="pinned_host",
        )


def test_psum_in_nested_vmap_and_namedtuple_axes():
    out = core.vmap(core.vmap(lambda a: lax.psum(a, ("i", "j")), axis_name="j"), axis_name="i")(A)
    np.testing.assert_allclose(out, np.full((2, 3), 15.0))
    P = collections.namedtuple("P", "x y")
    out = core.vmap(lambda p: P(p.y, p.x * 2), in_axes=(P(0, None),))(P(B, 1.0))
    assert isinstance(out, P)
    np.testing.assert_allclose(out.x, [1.0, 1.0, 1.0])
    np.testing.assert_allclose(out.y, [0.0, 2.0, 4.0])


def test_vjp_function_is_a_pytree_of_residuals_that_leaves_jit():
    # As JAX's (a tree_util.Partial): `jit(lambda x: vjp(f, x))` returns it, make_jaxpr stages it.
    y, pullback = core.jit(lambda x: core.vjp(core.numpy.sin, x), backend="python")(1.0)
    np.testing.assert_allclose(pullback(1.0)[0], np.cos(1.0), rtol=1e-6)
    np.testing.assert_allclose(core.tree_util.tree_leaves(pullback), [np.cos(1.0)], rtol=1e-6)
    closed = core.make_jaxpr(lambda x: core.vjp(lambda x: core.numpy.sin(x) * x, x))(2.0)
    assert len(closed.out_avals) > 1  # the output and the residuals


def test_ad_checkpoint_module_path():
    from core.ad_checkpoint import checkpoint_name

    assert core.ad_checkpoint.checkpoint is core.checkpoint
    assert float(core.grad(lambda x: checkpoint_name(x * x, "a"))(3.0)) == 6.0


def test_eval_shape_and_make_jaxpr_of_a_non_callable():
    # JAX 0.10.2's messages
    with pytest.raises(TypeError, match="^Expected a callable value, got 1.0"):
        core.eval_shape(1.0)
    with pytest.raises(TypeError, match="^the first argument must be callable$"):
        core.make_jaxpr(1.0)


def _documented(x):
    """Does things with stuff."""
    return x


_JAC = (
    "Jacobian of _documented with respect to positional argument(s) 0. Takes the same arguments "
    "as _documented but returns the jacobian of the output with respect to the arguments at "
    "positions 0."
)


@pytest.mark.parametrize(
    "transform, doc",
    [  # JAX 0.10.2's docstrings of the transformed function (api_util.wraps)
        (
            core.vmap,
            "Vectorized version of _documented. Takes similar arguments as _documented but with "
            "additional array axes over which _documented is mapped.\n\nOriginal "
            "documentation:\n\nDoes things with stuff.",
        ),
        (
            lambda f: core.grad(f, argnums=(0,)),
            "Gradient of _documented with respect to positional argument(s) (0,). Takes the same "
            "arguments as _documented but returns the gradient, which has the same shape as the "
            "arguments at positions (0,).",
        ),
        (
            core.value_and_grad,
            "Value and gradient of _documented with respect to positional argument(s) 0. Takes "
            "the same arguments as _documented but returns a two-element tuple where the first "
            "element is the value of _documented and the second element is the gradient, which "
            "has the same shape as the arguments at positions 0.",
        ),
        (core.jacfwd, _JAC),
        (core.jacrev, _JAC),
    ],
)
def test_transformed_functions_have_jaxs_docstrings(transform, doc):
    f = transform(_documented)
    assert f.__doc__ == doc
    assert f.__name__ == "_documented" and f.__wrapped__ is _documented
