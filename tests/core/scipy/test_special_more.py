"""`core.scipy.special` erfcx, dawsn, spence and bernoulli against JAX 0.10.2
(`jax_special_more.json`, recorded by `record_special_more.py` with x64): values in float32 and
float64 and their derivatives (erfcx's and dawsn's custom JVPs, spence's composition)."""

import json
import math
import pathlib

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.scipy import special

A = json.loads((pathlib.Path(__file__).parent / "jax_special_more.json").read_text())
TOL = {"float32": (2e-6, 1e-7), "float64": (1e-13, 1e-15)}
# erfcx' = 2 x erfcx - 2 / sqrt(pi) cancels for large x, amplifying erfc's last-ulp differences.
GRAD_TOL = {"float32": (2e-6, 5e-6), "float64": (1e-11, 1e-15)}


def _close(got, want, dt, tol=TOL):
    rtol, atol = tol[dt]
    want = [math.nan if v is None else v for v in want]
    np.testing.assert_allclose(np.asarray(got, np.float64), want, rtol=rtol, atol=atol)


@pytest.mark.parametrize("name", ["erfcx", "dawsn", "spence"])
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_values_and_derivatives(name, dt):
    fn = getattr(special, name)
    with core.enable_x64():
        x = jnp.asarray(A["points"][name], dt)
        out = fn(x)
        assert out.dtype == x.dtype
        _close(out, A[f"{name}_{dt}"], dt)
        _close(core.vmap(core.grad(fn))(x), A[f"{name}_{dt}_grad"], dt, GRAD_TOL)


def test_bernoulli_and_errors():
    _close(special.bernoulli(12), A["bernoulli"], "float32")
    _close(special.bernoulli(2), A["bernoulli_2"], "float32")
    with pytest.raises(ValueError, match="non-negative"):
        special.bernoulli(-1)
    with pytest.raises(ValueError, match="complex-valued"):
        special.dawsn(jnp.asarray([1j]))
    with pytest.raises(TypeError, match="is not supported"):
        special.spence(jnp.asarray([1], jnp.int32))


def test_hyp2f1_of_bfloat16():
    # jax 0.10.2: [1.0234375, 1.5, 20.25] bfloat16 (numbax asked numpy's finfo before)
    x = jnp.asarray(np.array([0.5, 1.5, 3.0], jnp.bfloat16))
    out = special.hyp2f1(x, x, x + 1, x / 4)
    assert out.dtype == jnp.bfloat16
    np.testing.assert_array_equal(np.float32(out), [1.0234375, 1.5, 20.25])


def test_erfcx_of_complex_values_is_the_faddeeva_function_of_i_x():
    # JAX 0.10.2: erfcx(z) = wofz(i z); scipy's complex erfcx is the reference.
    z = np.array([1 + 1j, 2 - 0.5j, -0.3 + 2j, 4j], np.complex64)
    got = special.erfcx(z)
    assert got.dtype == np.complex64
    scipy_special = pytest.importorskip("scipy.special")
    np.testing.assert_allclose(np.asarray(got), scipy_special.erfcx(z.astype(complex)), rtol=2e-6)


@pytest.mark.parametrize(
    "fn, x",
    [
        (special.wofz, np.array([1 + 1j, -2 - 0.5j, 3.0], np.complex64)),
        (special.erfcx, np.array([[1 + 1j], [2 - 0.5j]], np.complex64)),
        (special.gamma, np.array([[-0.5 + 0j, 0.5 + 1j], [-2.5 + 1e-12j, 0j]], np.complex64)),
        (lambda a: special.multigammaln(a, 3), np.array([[2.5, 4.0], [3.0, 5.5]], np.float32)),
        (lambda z: special.bessel_jn(z, v=3), np.array([[2.5, 4.0], [3.0, 5.5]], np.float32)),
    ],
)
def test_functions_need_no_implicit_promotion(fn, x):
    # JAX's versions run under strict dtype and raising rank promotion.
    want = fn(x)
    strict = core.config.override("jax_numpy_dtype_promotion", "strict")
    with strict, core.config.override("jax_numpy_rank_promotion", "raise"):
        got = fn(x)
        _, tangent = core.jvp(fn, (x,), (np.ones_like(x),))
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    assert tangent.shape == got.shape
