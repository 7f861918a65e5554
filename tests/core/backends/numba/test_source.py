"""Source text helpers of the numba back end: reductions' identities and folds under jit,
against JAX 0.10.2's jitted values."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import nn

NAN = float("nan")
X = np.array(
    [[1 + 2j, complex(NAN, 0), 1 + 3j, complex(1, NAN), 2 - 5j, -3j],
     [0j, 1j, -1j, complex(-2, 9), 1 + 0j, 1 - 1j]],
    np.complex64,
)  # fmt: skip

CASES = [
    (lambda v: jnp.max(v, axis=1), [2 - 5j, 1 + 0j]),
    (lambda v: jnp.min(v, axis=1), [complex(-0.0, -3), -2 + 9j]),
    (lambda v: jnp.max(v, axis=0), [1 + 2j, 1j, 1 + 3j, complex(1, NAN), 2 - 5j, 1 - 1j]),
    (jnp.max, 2 - 5j),
    (lambda v: nn.logsumexp(v[1:]), 1.8774744272232056 - 0.3483828604221344j),
]


@pytest.mark.parametrize("k", range(len(CASES)))
def test_complex_max_min_reductions_fold_as_xla(k):
    """Complex reduce_max/min start from -inf/inf and keep the accumulator where it orders
    first (real parts, then imaginary; NaN compares false): no integer identity of complex."""
    fn, want = CASES[k]
    got = np.asarray(core.jit(fn)(X))
    np.testing.assert_allclose(got, np.array(want, np.complex64), rtol=2e-7)
