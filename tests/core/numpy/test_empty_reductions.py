"""Reductions without an identity refuse empty operands eagerly and under jit, with JAX's
messages (known answers from JAX 0.10.2); reductions with one return it."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax

_ARG = "attempt to get {} of an empty sequence"
_NO_IDENTITY = "zero-size array to reduction operation {} which has no identity"


@pytest.mark.parametrize("shape", [(0,), (2, 0)])
@pytest.mark.parametrize(
    "fn, message",
    [
        (jnp.argmax, _ARG.format("argmax")),
        (jnp.argmin, _ARG.format("argmin")),
        (lambda x: jnp.argmax(x, axis=-1), _ARG.format("argmax")),
        (jnp.nanargmax, _ARG.format("argmax")),
        (jnp.max, _NO_IDENTITY.format("max")),
        (jnp.min, _NO_IDENTITY.format("min")),
        (jnp.ptp, _NO_IDENTITY.format("max")),
        (jnp.nanmax, _NO_IDENTITY.format("max")),
        (lambda x: jnp.max(x, axis=-1), _NO_IDENTITY.format("max")),
        (lambda x: lax.argmax(x, x.ndim - 1, jnp.int32), "require non-empty reduced dimension"),
    ],
)
@pytest.mark.parametrize("jitted", [False, True])
def test_reductions_without_identity_raise_on_empty(fn, message, shape, jitted):
    with pytest.raises(ValueError, match=message):
        (core.jit(fn) if jitted else fn)(np.zeros(shape, np.float32))


def test_reductions_with_identity_or_initial_accept_empty():
    e = np.zeros((2, 0), np.float32)
    np.testing.assert_array_equal(core.jit(lambda x: jnp.max(x, axis=-1, initial=0.0))(e), [0, 0])
    np.testing.assert_array_equal(jnp.max(e, axis=0), np.zeros((0,)))
    assert float(core.jit(jnp.sum)(e)) == 0.0 and float(jnp.prod(e)) == 1.0
    assert np.isnan(jnp.mean(e))


def test_quantiles_of_an_empty_axis_are_nan():
    # numpy's answer (JAX raises an internal gather error instead)
    e = np.zeros((0,), np.float32)
    assert np.isnan(jnp.median(e)) and np.isnan(core.jit(jnp.median)(e))
    assert np.isnan(jnp.quantile(e, 0.5, method="nearest"))
    assert np.isnan(jnp.percentile(np.zeros((2, 0), np.float32), 50.0, axis=1)).all()
