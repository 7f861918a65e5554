"""core.test_util's tolerances as JAX 0.10.2's public_test_util: check_close scales atol and rtol
by the number of elements and takes the looser of the two leaves' canonical dtypes, so
check_grads accepts the float32 finite differences JAX accepts."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.test_util import check_close, check_grads


def test_check_close_scales_the_tolerance_by_size():
    # (JAX's answers, with its float32 gradient tolerances 2e-3)
    tol = {np.float32: 2e-3, np.float64: 1e-5}
    want = np.ones(10, np.float32)
    check_close(want + 0.03, want, atol=tol, rtol=tol)  # 2e-3 * 10 each
    with pytest.raises(AssertionError):
        check_close(want[:1] + 0.03, want[:1], atol=tol, rtol=tol)
    # float64 leaves take float32's tolerance without x64
    check_close(np.float64(1.0) + 3e-3, np.float32(1.0), atol=tol, rtol=tol)


def test_check_grads_of_ldexp_as_jax():
    # JAX's testGradLdexp case: float32 central differences off by 0.027 pass there
    x = (np.random.RandomState(3).randn(10) * 3).astype(np.float32)
    check_grads(lambda v: jnp.ldexp(v, 4), (x,), 1)
    assert core.test_util.EPS == 1e-4
