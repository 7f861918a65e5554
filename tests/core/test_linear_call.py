"""`core.linear_call` (`jax.linear_call`): JAX 0.10.2's docstring examples and values for its
jvp, grad, jit and transposes, and its errors."""

from functools import partial

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import linear_call


def _f(r, x):
    return x / r


def _t(r, ct):
    return ct / r


def div_add(x, denom):
    return x + linear_call(_f, _t, denom, x)


def transpose(f, x_example):
    def transposed(y):
        (x,) = core.linear_transpose(f, x_example)(y)
        return x

    return transposed


def custom_id(x):
    return linear_call(lambda _, x: x, lambda _, t: 7.0, (), x)


def test_jaxs_docstring_examples():
    assert float(div_add(9.0, 3.0)) == 12.0
    assert float(transpose(partial(div_add, denom=3.0), 1.0)(18.0)) == 24.0  # custom
    assert float(transpose(lambda x: x + x / 3.0, 1.0)(18.0)) == 24.0  # reference
    assert float(custom_id(1.0)) == 1.0
    t1 = transpose(custom_id, 1.0)
    assert float(t1(1.0)) == 7.0
    assert float(transpose(t1, 1.0)(1.0)) == 1.0
    assert float(transpose(transpose(t1, 1.0), 1.0)(1.0)) == 7.0


def _g(x, r):
    fun = lambda r, x: (x * r, x.sum())
    fun_t = lambda r, c: c[0] * r * 2 + c[1]  # a deliberately different transpose
    return jnp.sum(linear_call(fun, fun_t, r, x)[0] ** 2)


def test_grad_jit_and_jvp_match_jax():
    x, r = jnp.arange(3.0), jnp.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(core.grad(_g)(x, r), [0.0, 16.0, 72.0])  # JAX 0.10.2
    np.testing.assert_allclose(core.jit(core.grad(_g))(x, r), [0.0, 16.0, 72.0])
    assert float(core.jit(_g)(x, r)) == 40.0
    out, dot = core.jvp(lambda x: linear_call(_f, _t, 2.0, x), (x,), (jnp.ones(3),))
    np.testing.assert_allclose(out, [0.0, 0.5, 1.0])
    np.testing.assert_allclose(dot, [0.5, 0.5, 0.5])
    assert "linear_call" in str(core.make_jaxpr(lambda x: div_add(x, 3.0))(1.0))


def test_errors_match_jax():
    with pytest.raises(
        NotImplementedError, match="Batching rule for 'linear_call' not implemented"
    ):
        core.vmap(lambda x: div_add(x, 3.0))(jnp.arange(3.0))
    with pytest.raises(TypeError, match="transpose output pytree structure must match"):
        transpose(lambda x: linear_call(_f, lambda r, c: (c, c), 3.0, x), 1.0)(1.0)
    with pytest.raises(TypeError, match="residual arguments cannot be differentiated"):
        core.grad(lambda r: div_add(2.0, r))(3.0)  # JAX: a bare AssertionError
