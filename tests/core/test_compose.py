"""Transformations composed in every order agree with each other and with closed forms.

The stress test of Autodidax / JAX's core_test, the perturbation-confusion test, per-example
gradients, the examples people try first, and custom rules / checkpoint under composition.
"""

import functools

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import grad, hessian, jacfwd, jacrev, jvp, vjp, vmap

# ---------------------------------------------------------------------------------------------
# The stress test


def fun_with_call_closure(x):
    def foo(y, z):
        return (x * x) * jnp.sin(y) * z

    return foo(x, jnp.cos(x)) + x


def fun_with_nested_calls(x):
    def f(y):
        y2 = jnp.sin(y) + 1.0 + (2.0 * x)

        def g(z):
            return y2 * z * x + (x * y)

        return g(x)

    return f(x)


def fun_with_two_calls(x):
    return jnp.sin(x) * jnp.exp(x) + jnp.sum(jnp.tanh(x))


def simple_fun(x, y):
    return jnp.sin(x * y)


def fun_call_jitlike(x):
    return jnp.sum(jnp.logaddexp(x, 2.0 * x) / (1.0 + x * x))


FUNS = [
    fun_with_call_closure,
    fun_with_nested_calls,
    fun_with_two_calls,
    fun_call_jitlike,
    lambda x: simple_fun(x, 1.3),
    lambda x: jnp.sum(jnp.tanh(jnp.outer(x, x)) ** 2),
]


def _fd_grad(f, x, eps=1e-6):
    x = np.asarray(x, np.float64)
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        out[i] = (np.sum(np.asarray(f(x + e))) - np.sum(np.asarray(f(x - e)))) / (2 * eps)
    return out


@pytest.mark.parametrize("f", FUNS, ids=range(len(FUNS)))
def test_stress_scalar_derivatives_agree(f):
    with core.enable_x64():
        x = np.array([0.7, -1.3, 2.1])
        ones = np.ones(3)
        scalar = lambda v: jnp.sum(f(v))
        y = scalar(x)
        y_jvp, t = jvp(scalar, (x,), (ones,))
        g = grad(scalar)(x)
        np.testing.assert_allclose(y_jvp, y)
        np.testing.assert_allclose(t, np.sum(g), rtol=1e-10)
        np.testing.assert_allclose(g, _fd_grad(scalar, x), rtol=1e-6, atol=1e-7)
        out, pullback = vjp(scalar, x)
        np.testing.assert_allclose(pullback(1.0)[0], g, rtol=1e-12)
        lin_out, f_lin = core.linearize(scalar, x)
        np.testing.assert_allclose(f_lin(ones), t, rtol=1e-12)
        # per-row gradients through vmap
        xs = np.stack([x, 0.5 * x])
        np.testing.assert_allclose(vmap(grad(scalar))(xs), [g, grad(scalar)(xs[1])], rtol=1e-12)
        # Hessians, seven ways
        h = hessian(scalar)(x)
        fd_h = np.stack([_fd_grad(lambda v, i=i: grad(scalar)(v)[i], x) for i in range(3)])
        np.testing.assert_allclose(h, fd_h, rtol=1e-5, atol=1e-6)
        for variant in (
            jacfwd(jacrev(scalar)),
            jacrev(jacfwd(scalar)),
            jacfwd(jacfwd(scalar)),
            jacrev(jacrev(scalar)),
            jacfwd(grad(scalar)),
            jacrev(grad(scalar)),
            lambda v: vmap(lambda e: jvp(grad(scalar), (v,), (e,))[1])(np.eye(3)),
        ):
            np.testing.assert_allclose(variant(x), h, rtol=1e-10, atol=1e-12)
        # grad(grad) on one coordinate
        gg = grad(grad(lambda b: scalar(np.array([1.0, 0, 0]) * b + x)))(0.0)
        np.testing.assert_allclose(gg, h[0, 0], rtol=1e-10)


def test_closed_form_hessian():
    # f(x, y) = x^2 y + sin(x) y^3
    f = lambda v: v[0] ** 2 * v[1] + jnp.sin(v[0]) * v[1] ** 3
    x, y = 0.4, -1.1
    h = np.array(
        [
            [2 * y - np.sin(x) * y**3, 2 * x + 3 * np.cos(x) * y**2],
            [2 * x + 3 * np.cos(x) * y**2, 6 * np.sin(x) * y],
        ]
    )
    v = jnp.array([x, y])
    for hf in (hessian(f), jacfwd(jacrev(f)), jacrev(jacfwd(f)), jacrev(jacrev(f))):
        np.testing.assert_allclose(hf(v), h, rtol=1e-5)


def test_grad_of_grad_closed_forms():
    x = 0.8
    np.testing.assert_allclose(grad(grad(jnp.sin))(x), -np.sin(x), rtol=1e-6)
    np.testing.assert_allclose(grad(grad(grad(jnp.exp)))(x), np.exp(x), rtol=1e-6)
    np.testing.assert_allclose(grad(grad(lambda v: v**4))(x), 12 * x**2, rtol=1e-6)
    np.testing.assert_allclose(
        grad(grad(jnp.tanh))(x), -2 * np.tanh(x) / np.cosh(x) ** 2, rtol=1e-5
    )


# ---------------------------------------------------------------------------------------------
# Perturbation confusion


def _derivative(f, x):
    return jvp(f, (x,), (1.0,))[1]


def test_perturbation_confusion():
    assert _derivative(lambda x: x * _derivative(lambda y: x, 0.0), 0.0) == 0
    assert _derivative(lambda x: x * _derivative(lambda y: x + y, 1.0), 1.0) == 1
    assert grad(lambda x: x * grad(lambda y: x * y)(0.0))(2.0) == 4.0
    # a vmap inside a grad closing over the outer variable
    out = grad(lambda x: jnp.sum(vmap(lambda y: x * y)(jnp.arange(3.0))))(2.0)
    assert out == 3.0


# ---------------------------------------------------------------------------------------------
# Per-example gradients


def test_per_example_gradients_equal_a_loop():
    rng = np.random.RandomState(0)
    params = {"w": jnp.asarray(rng.standard_normal((3, 2))), "b": jnp.zeros(2)}
    xs, ys = jnp.asarray(rng.standard_normal((5, 3))), jnp.asarray(rng.standard_normal((5, 2)))

    def loss(p, x, y):
        pred = jnp.tanh(jnp.dot(x, p["w"]) + p["b"])
        return jnp.sum((pred - y) ** 2)

    per_ex = vmap(grad(loss), in_axes=(None, 0, 0))(params, xs, ys)
    for i in range(5):
        g = grad(loss)(params, xs[i], ys[i])
        np.testing.assert_allclose(per_ex["w"][i], g["w"], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(per_ex["b"][i], g["b"], rtol=1e-5, atol=1e-6)
    # and their mean is the gradient of the mean loss
    mean_loss = lambda p: jnp.mean(vmap(loss, in_axes=(None, 0, 0))(p, xs, ys))
    # (atol: a mean of gradients of magnitude ~0.4 is exact to ~1e-7 in float32)
    np.testing.assert_allclose(
        per_ex["w"].mean(0), grad(mean_loss)(params)["w"], rtol=1e-5, atol=1e-6
    )


# ---------------------------------------------------------------------------------------------
# The examples people try first


def test_grad_of_logistic_sum():
    g = grad(lambda x: jnp.sum(1 / (1 + jnp.exp(-x))))(jnp.arange(3.0))
    np.testing.assert_allclose(g, [0.25, 0.19661197, 0.10499357], rtol=1e-6)
    assert g.dtype == np.float32


def test_mse_argnums():
    def mse(w, b, x, y):
        return jnp.mean((x * w + b - y) ** 2)

    x, y = jnp.array([1.0, 2.0, 3.0]), jnp.array([2.0, 4.0, 7.0])
    gw, gb = grad(mse, argnums=(0, 1))(0.5, 0.1, x, y)
    r = np.array([1.0, 2, 3]) * 0.5 + 0.1 - np.array([2.0, 4, 7])
    np.testing.assert_allclose(gw, 2 * np.mean(r * [1, 2, 3]), rtol=1e-6)
    np.testing.assert_allclose(gb, 2 * np.mean(r), rtol=1e-6)
    (val, grads) = core.value_and_grad(mse, argnums=(0, 1))(0.5, 0.1, x, y)
    np.testing.assert_allclose(val, np.mean(r**2), rtol=1e-6)
    gw2 = grad(mse, argnums=-4)(0.5, 0.1, x, y)
    np.testing.assert_allclose(gw2, gw)


def test_has_aux_dict():
    def loss(p):
        pred = p["w"] * 3.0
        return jnp.sum(pred**2), {"pred": pred, "n": 3}

    g, aux = grad(loss, has_aux=True)({"w": jnp.ones(2)})
    np.testing.assert_allclose(g["w"], [18.0, 18.0])
    np.testing.assert_allclose(aux["pred"], [3.0, 3.0])
    assert aux["n"] == 3 and isinstance(aux["pred"], core.Array)
    (val, aux2), g2 = core.value_and_grad(loss, has_aux=True)({"w": jnp.ones(2)})
    np.testing.assert_allclose(val, 18.0)
    np.testing.assert_allclose(g2["w"], g["w"])
    out, f_vjp, aux3 = vjp(loss, {"w": jnp.ones(2)}, has_aux=True)
    np.testing.assert_allclose(f_vjp(1.0)[0]["w"], g["w"])
    _, t, aux4 = jvp(loss, ({"w": jnp.ones(2)},), ({"w": jnp.ones(2)},), has_aux=True)
    np.testing.assert_allclose(t, 36.0)
    assert isinstance(aux4["pred"], core.Array)


def test_python_control_flow_on_concrete_values():
    def f(x):
        if x > 0:
            return x * x
        return -x

    assert grad(f)(2.0) == 4.0 and grad(f)(-2.0) == -1.0

    def power(x, n):
        return x if n == 1 else x * power(x, n - 1)

    np.testing.assert_allclose(grad(power)(1.5, 4), 4 * 1.5**3)

    def loop(x):
        for _ in range(3):
            x = jnp.sin(x) if x < 1 else x / 2
        return x

    with core.enable_x64():
        np.testing.assert_allclose(grad(loop)(0.3), _fd_grad(loop, np.array(0.3)), rtol=1e-6)

    def while_loop(x):
        n = 0
        while x * (n + 1) < 3:
            n += 1
        return x**n

    np.testing.assert_allclose(grad(while_loop)(1.1), 2 * 1.1)


def test_jacobian_shapes_and_pytrees():
    f = lambda x: {"a": x[:2] * 2.0, "b": jnp.sum(x) * jnp.ones((2, 2))}
    x = jnp.arange(3.0)
    for jac in (jacfwd, jacrev):
        j = jac(f)(x)
        assert j["a"].shape == (2, 3) and j["b"].shape == (2, 2, 3)
        np.testing.assert_allclose(j["a"], [[2, 0, 0], [0, 2, 0]])
        np.testing.assert_allclose(j["b"], np.ones((2, 2, 3)))
        ja, jb = jac(lambda u, v: u * v, argnums=(0, 1))(x, 2.0)
        np.testing.assert_allclose(ja, 2.0 * np.eye(3))
        np.testing.assert_allclose(jb, np.arange(3.0))
    j, aux = jacfwd(lambda x: (x * x, x.sum()), has_aux=True)(x)
    np.testing.assert_allclose(j, np.diag(2 * np.arange(3.0)))
    np.testing.assert_allclose(aux, 3.0)
    j, aux = jacrev(lambda x: (x * x, x.sum()), has_aux=True)(x)
    np.testing.assert_allclose(j, np.diag(2 * np.arange(3.0)))


def test_jvp_linearize_and_zeros():
    # An output that does not depend on the input has a zero tangent/cotangent.
    y, t = jvp(lambda x: (x * 2, jnp.ones(2)), (1.0,), (1.0,))
    np.testing.assert_allclose(t[1], [0.0, 0.0])
    g = grad(lambda x, y: jnp.sum(x * 0.0) + y, argnums=(0, 1))(jnp.ones(2), 3.0)
    np.testing.assert_allclose(g[0], [0.0, 0.0])
    np.testing.assert_allclose(grad(lambda x: 3.0, allow_int=False)(1.0), 0.0)
    # Integer inputs get float0 gradients (JAX's trivial tangent dtype).
    assert grad(lambda x, n: x * n, allow_int=True, argnums=(0, 1))(2.0, 3)[1].dtype == core.float0
    # stop_gradient
    np.testing.assert_allclose(grad(lambda x: x * core.stop_gradient(x))(3.0), 3.0)
    _, t = jvp(core.stop_gradient, (jnp.ones(2),), (jnp.ones(2),))
    np.testing.assert_allclose(t, [0.0, 0.0])


# ---------------------------------------------------------------------------------------------
# Custom rules under composition


@core.custom_jvp
def softplus(x):
    return jnp.log1p(jnp.exp(x))


@softplus.defjvp
def softplus_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return softplus(x), t / (1 + jnp.exp(-x))


def _staged(f):
    """f evaluated through its jaxpr (custom_jvp_call/custom_vjp_call equations)."""

    def run(*args):
        closed = core.make_jaxpr(f)(*args)
        (out,) = core.ir.eval_jaxpr(closed.jaxpr, closed.consts, *args)
        return out

    return run


@pytest.mark.parametrize("stage", [False, True], ids=["eager", "staged"])
def test_custom_jvp_composes(stage):
    f = _staged(softplus) if stage else softplus
    x = jnp.array([-1.0, 0.5, 2.0])
    sig = 1 / (1 + np.exp(-np.asarray(x)))
    np.testing.assert_allclose(vmap(grad(f))(x), sig, rtol=1e-6)
    np.testing.assert_allclose(grad(lambda v: jnp.sum(vmap(f)(v)))(x), sig, rtol=1e-6)
    np.testing.assert_allclose(jvp(f, (x,), (jnp.ones(3),))[1], sig, rtol=1e-6)
    np.testing.assert_allclose(jacfwd(f)(x), np.diag(sig), rtol=1e-6)
    np.testing.assert_allclose(jacrev(f)(x), np.diag(sig), rtol=1e-6)
    np.testing.assert_allclose(vmap(grad(grad(f)))(x), sig * (1 - sig), rtol=1e-5)
    np.testing.assert_allclose(
        hessian(lambda v: jnp.sum(f(v)))(x), np.diag(sig * (1 - sig)), rtol=1e-5
    )


def test_custom_jvp_rule_is_used_and_nondiff_argnums():
    @functools.partial(core.custom_jvp, nondiff_argnums=(0,))
    def apply(fn, x):
        return fn(x)

    @apply.defjvp
    def apply_jvp(fn, primals, tangents):
        return apply(fn, primals[0]), 10.0 * tangents[0]

    assert grad(lambda x: apply(jnp.sin, x))(1.0) == 10.0
    np.testing.assert_allclose(vmap(grad(lambda x: apply(jnp.sin, x)))(jnp.ones(2)), [10, 10])

    @core.custom_jvp
    def f(x, y):
        return x * y

    f.defjvps(lambda t, ans, x, y: t * 100.0, None)
    g = grad(f, argnums=(0, 1))(2.0, 3.0)
    assert g == (100.0, 0.0)


@core.custom_vjp
def clip_gradient(x, lo, hi):
    return x


def _clip_fwd(x, lo, hi):
    return x, (lo, hi)


def _clip_bwd(res, g):
    lo, hi = res
    return (jnp.clip(g, lo, hi), None, None)


clip_gradient.defvjp(_clip_fwd, _clip_bwd)


@pytest.mark.parametrize("stage", [False, True], ids=["eager", "staged"])
def test_custom_vjp_composes(stage):
    f = (
        (lambda x: _staged(lambda v: clip_gradient(v, -0.5, 0.5))(x))
        if stage
        else (lambda x: clip_gradient(x, -0.5, 0.5))
    )
    x = jnp.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(grad(lambda v: jnp.sum(f(v) * v))(x), [1.5, 2.5, 3.5])
    np.testing.assert_allclose(vmap(grad(lambda v: f(v) * 3.0))(x), [0.5, 0.5, 0.5])
    np.testing.assert_allclose(grad(lambda v: jnp.sum(vmap(f)(v) * 3.0))(x), [0.5] * 3)
    np.testing.assert_allclose(jacrev(f)(x), 0.5 * np.eye(3))
    np.testing.assert_allclose(f(x), x)
    with pytest.raises(core.errors.CustomVJPForwardModeError) as e:
        jvp(f, (x,), (x,))
    # JAX's text verbatim (programs print it), the fix in a note
    assert str(e.value) == "can't apply forward-mode autodiff (jvp) to a custom_vjp function."
    assert e.value.__notes__[0].startswith("It only defines a reverse-mode rule.")


def test_custom_vjp_higher_order_and_errors():
    @core.custom_vjp
    def cube(x):
        return x**3

    cube.defvjp(lambda x: (x**3, x), lambda x, g: (3 * x**2 * g,))
    np.testing.assert_allclose(grad(grad(cube))(2.0), 12.0)
    np.testing.assert_allclose(
        jacrev(jacrev(lambda v: jnp.sum(cube(v))))(jnp.array([1.0, 2.0])), np.diag([6.0, 12.0])
    )

    @core.custom_vjp
    def bad(x, y):
        return x * y

    bad.defvjp(lambda x, y: (x * y, (x, y)), lambda r, g: (g,))
    with pytest.raises(core.errors.CustomDerivativeError, match="one cotangent \\(or None\\) per"):
        grad(bad)(1.0, 2.0)
    with pytest.raises(core.errors.CustomDerivativeError, match="No JVP defined"):
        core.custom_jvp(jnp.sin)(1.0)


def test_checkpoint_is_transparent():
    def block(x):
        return jnp.sin(jnp.cos(x)) * x

    x = jnp.array([0.3, 1.2])
    for remat in (
        core.checkpoint(block),
        core.remat(block),
        core.checkpoint(block, policy=core.checkpoint_policies.dots_saveable),
        core.checkpoint(policy=core.checkpoint_policies.nothing_saveable)(block),
    ):
        np.testing.assert_allclose(remat(x), block(x))
        np.testing.assert_allclose(
            grad(lambda v, r=remat: jnp.sum(r(v)))(x), grad(lambda v: jnp.sum(block(v)))(x)
        )
        np.testing.assert_allclose(vmap(grad(remat))(x), vmap(grad(block))(x))
    # as JAX 0.10.2, a policy that is not callable fails when it is applied (under grad)
    with pytest.raises(TypeError, match="'str' object is not callable"):
        grad(lambda v: jnp.sum(core.checkpoint(block, policy="dots")(v)))(x)
