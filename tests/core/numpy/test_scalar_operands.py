"""Eager binary operations of an Array and a Python scalar (`core/numpy/_util.py`'s
`_filled_scalar`): the same dtype, weak type and values as the general path, which runs
under transformations, and JAX's inf (no numpy warning) for a float beyond the dtype."""

import warnings

import ml_dtypes
import numpy as np
import pytest

import core
import core.numpy as jnp

DTYPES = [np.float32, np.float16, ml_dtypes.bfloat16, np.complex64, np.int8, np.uint8, np.int32]
SCALARS = [2, -1, 300, 2.5, 1e300, 2**40, float("nan")]
OPS = {
    "x * s": lambda x, s: x * s,
    "s * x": lambda x, s: s * x,
    "x - s": lambda x, s: x - s,
    "s / x": lambda x, s: s / x,
    "x < s": lambda x, s: x < s,
    "jnp.maximum(x, s)": lambda x, s: jnp.maximum(x, s),
}


@pytest.mark.filterwarnings("ignore:overflow encountered in cast")  # 1e300, as JAX warns
@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_eager_scalar_operands_as_under_a_transformation(op, dtype):
    x = jnp.asarray(np.array([1, 3, 0], dtype))
    for s in SCALARS:
        try:
            eager = OPS[op](x, s)
        except Exception as e:  # e.g. JAX's OverflowError for an int beyond int32
            eager = type(e)
        try:
            # under vmap the scalar meets a tracer: the general path
            traced = core.vmap(lambda v, s=s: OPS[op](v, s))(x[None])[0]
        except Exception as e:
            traced = type(e)
        if isinstance(eager, type) or isinstance(traced, type):
            assert eager == traced, (op, s)
            continue
        assert (eager.dtype, eager.aval.weak_type) == (traced.dtype, traced.aval.weak_type), s
        wide = lambda a: np.asarray(a).astype(np.complex128)  # bfloat16's nan compares too
        np.testing.assert_array_equal(wide(eager), wide(traced), err_msg=str(s))


def test_narrowing_to_inf_warns_as_jax():
    """A Python float beyond float32 warns (JAX's numpy conversion does); a float16 result of
    float32 values beyond its range is inf without a warning (XLA converts it)."""
    with pytest.warns(RuntimeWarning, match="overflow"):
        jnp.ones(2, np.float32) * 1e300
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        assert np.isinf(np.asarray(jnp.ones(2, np.float16) * 1e5)).all()
        assert np.isinf(np.asarray(jnp.asarray([1e6], np.float32).astype(np.float16))).all()
