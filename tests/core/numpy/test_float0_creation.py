"""jnp's and lax's creation functions with the tangent dtype `float0`: numpy arrays of that
dtype (it has no values), as JAX's, so `jnp.zeros(shape, float0)` is a tangent for an integer
primal in `jvp` and a cotangent for an integer output in `vjp`."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax

F0 = core.dtypes.float0

# JAX 0.10.2 printed TypedNdArray(..., dtype=void) of these shapes, dtype [('float0', 'V')]
CASES = [
    ("zeros", lambda: jnp.zeros(3, F0), (3,)),
    ("ones", lambda: jnp.ones(3, F0), (3,)),
    ("empty", lambda: jnp.empty((2,), F0), (2,)),
    ("full", lambda: jnp.full(3, 0, F0), (3,)),
    ("scalar", lambda: jnp.zeros((), F0), ()),
    ("zeros_like", lambda: jnp.zeros_like(jnp.arange(3), dtype=F0), (3,)),
    ("ones_like", lambda: jnp.ones_like(jnp.arange(3), dtype=F0), (3,)),
    ("full_like", lambda: jnp.full_like(jnp.arange(2), 0, dtype=F0), (2,)),
    ("lax.full", lambda: lax.full((2,), 0, F0), (2,)),
    ("array", lambda: jnp.array(np.zeros((), F0)), ()),
    ("asarray", lambda: jnp.asarray(np.zeros((2,), F0)), (2,)),
    ("zeros_like_float0", lambda: jnp.zeros_like(np.zeros((2,), F0)), (2,)),
]


@pytest.mark.parametrize("make, shape", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_float0_arrays_are_numpy(make, shape):
    out = make()
    assert type(out) is np.ndarray
    assert out.dtype == F0 and out.shape == shape


def test_jvp_takes_a_jnp_float0_tangent():
    # JAX 0.10.2: ((Array([0, 2, 4], int32), Array([0., 1.5, 3.], float32, weak_type=True)),
    #              (float0[3], Array([0., 0., 0.], float32, weak_type=True)))
    (p_int, p_f), (t_int, t_f) = core.jvp(
        lambda x: (x * 2, x * 1.5), (jnp.arange(3),), (jnp.zeros(3, F0),)
    )
    np.testing.assert_array_equal(p_int, [0, 2, 4])
    assert p_int.dtype == np.int32
    np.testing.assert_array_equal(p_f, [0.0, 1.5, 3.0])
    assert t_int.dtype == F0 and t_int.shape == (3,)
    np.testing.assert_array_equal(t_f, [0.0, 0.0, 0.0])
    assert t_f.dtype == np.float32 and t_f.weak_type


def test_vjp_takes_a_jnp_float0_cotangent():
    # JAX 0.10.2: (float0[3],)
    (ct,) = core.vjp(lambda x: x * 2, jnp.arange(3))[1](jnp.zeros(3, F0))
    assert ct.dtype == F0 and ct.shape == (3,)


JIT_FLOAT0 = {  # case: (run, the float0 output's shape), JAX 0.10.2 returning numpy's float0
    "grad_allow_int": (
        lambda: core.jit(core.grad(lambda x, y: x * y, argnums=(0, 1), allow_int=True))(2.0, 1)[1],
        (),
    ),
    "vjp_of_int": (lambda: core.jit(lambda x: core.vjp(lambda x: x * 2, x)[1](1))(1)[0], ()),
    "returned": (lambda: core.jit(lambda x: (x, jnp.zeros((2,), F0)))(1)[1], (2,)),
}


@pytest.mark.parametrize("case", JIT_FLOAT0)
def test_jit_returns_float0_outputs(case):
    run, shape = JIT_FLOAT0[case]
    for _ in range(2):  # traced, then from the cache
        out = run()
        assert type(out) is np.ndarray and out.dtype == F0 and out.shape == shape
