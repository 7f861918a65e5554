"""The jaxpr rewrites of `core/jit/simplify.py`, by the primitives a simplified program keeps."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.jit import simplify

X = np.ones(3, np.float32)


def _simplified(f, *args) -> list[str]:
    closed = core.make_jaxpr(f)(*args)
    eqns, _ = simplify.simplify(closed.jaxpr.eqns, closed.jaxpr.outvars)
    return [e.prim.name for e in eqns]


@pytest.mark.parametrize(
    ("f", "want"),
    [
        # XLA's algebraic simplifier: a / sqrt(b) => a * rsqrt(b), a / rsqrt(b) => a * sqrt(b)
        (lambda x, y: x / jnp.sqrt(y), ["rsqrt", "mul"]),
        (lambda x, y: x / core.lax.rsqrt(y), ["sqrt", "mul"]),
        # a root read elsewhere too stays (XLA's rule asks for one use)
        (lambda x, y: (x / jnp.sqrt(y), jnp.sqrt(y)), ["sqrt", "div"]),
        (lambda x, y: jnp.sqrt(y) / x, ["sqrt", "div"]),
    ],
)
def test_divisions_by_roots(f, want):
    assert _simplified(f, X, X) == want


def test_complex_divisions_by_roots_stay():
    z = X.astype(np.complex64)
    assert _simplified(lambda x, y: x / jnp.sqrt(y), z, z) == ["sqrt", "div"]
