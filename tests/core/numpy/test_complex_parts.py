"""`jnp.real` / `jnp.imag` / `jnp.conjugate`: parts stay apart, and real inputs pass through.

Expected values were recorded from JAX 0.10.2 (`jax.numpy` on CPU).
"""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.trace import get_aval

inf, nan = np.inf, np.nan

# (input, real, imag, conj) recorded from jnp on complex64 arrays
_PARTS = [
    (complex(inf, nan), inf, nan, complex(inf, nan)),
    (complex(nan, 2), nan, 2.0, complex(nan, -2)),
    (complex(1, inf), 1.0, inf, complex(1, -inf)),
    (complex(-inf, -0.0), -inf, -0.0, complex(-inf, 0.0)),
    (complex(3, -4), 3.0, -4.0, complex(3, 4)),
]


def _same(got, want):
    got = np.asarray(got)
    np.testing.assert_array_equal(got, want)
    for part in (np.real, np.imag):  # the sign of zero is part of the answer (NaN's is not)
        g, w = part(got), part(np.asarray(want))
        keep = ~np.isnan(w)
        np.testing.assert_array_equal(np.signbit(g[keep]), np.signbit(w[keep]))


@pytest.mark.parametrize("z,re,im,cj", _PARTS)
def test_parts_keep_nan_and_inf_apart(z, re, im, cj):
    x = jnp.array([z], jnp.complex64)
    _same(jnp.real(x), np.array([re], np.float32))
    _same(jnp.imag(x), np.array([im], np.float32))
    for f in (jnp.conj, jnp.conjugate):
        out = f(x)
        assert get_aval(out).dtype == np.complex64
        _same(out, np.array([cj], np.complex64))


def test_parts_under_jit_keep_nan_apart():
    x = jnp.array([z for z, *_ in _PARTS], jnp.complex64)
    re, im, cj = core.jit(lambda v: (jnp.real(v), jnp.imag(v), jnp.conj(v)))(x)
    _same(re, np.array([r for _, r, _, _ in _PARTS], np.float32))
    _same(im, np.array([i for _, _, i, _ in _PARTS], np.float32))
    _same(cj, np.array([c for *_, c in _PARTS], np.complex64))


# (input, real, imag, conj, dtype of real/imag/conj, weak) as jnp returns them
_REAL_INPUTS = [
    (np.array([1.0, 2.0], np.float32), [1.0, 2.0], [0.0, 0.0], [1.0, 2.0], np.float32, False),
    (np.array([1, 2], np.int32), [1, 2], [0, 0], [1, 2], np.int32, False),
    (np.array([True]), [True], [False], [True], np.bool_, False),
    (3.0, 3.0, 0.0, 3.0, np.float32, True),
    (2, 2, 0, 2, np.int32, True),
]


@pytest.mark.parametrize("x,re,im,cj,dtype,weak", _REAL_INPUTS)
def test_real_inputs_are_lenient(x, re, im, cj, dtype, weak):
    for f, want in ((jnp.real, re), (jnp.imag, im), (jnp.conj, cj)):
        out = f(jnp.asarray(x) if isinstance(x, np.ndarray) else x)
        aval = get_aval(out)
        assert (aval.dtype, aval.weak_type) == (np.dtype(dtype), weak), f.__name__
        np.testing.assert_array_equal(np.asarray(out), want)


def test_python_complex_scalar_is_weak():
    re, im, cj = jnp.real(1 + 2j), jnp.imag(1 + 2j), jnp.conj(1 + 2j)
    assert [get_aval(v).weak_type for v in (re, im, cj)] == [True] * 3
    assert (float(re), float(im), complex(cj)) == (1.0, 2.0, 1 - 2j)
    assert get_aval(cj).dtype == np.complex64


@pytest.mark.parametrize(
    "f,x,want",
    [  # recorded with jax.grad
        (lambda z: jnp.real(z) * 2.0, 1.0, 2.0),
        (lambda z: jnp.imag(z * (1 + 2j)), 1.0, 2.0),
        (lambda z: jnp.real(jnp.conj(z) * z), 1.0 + 2j, 2 - 4j),
    ],
)
def test_grads(f, x, want):
    np.testing.assert_allclose(complex(core.grad(f)(x)), want, rtol=1e-6)
