"""core.scipy.linalg as programs use it (session 36's `scipy_usage` differential area): the
dtypes, weak types, errors and derivative refusals JAX 0.10.2 shows (values and first lines
printed by /opt/ref/bin/python, written here as literals)."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import ShapeError
from core.scipy import linalg
from core.scipy.errors import ExpmDTypeError, SchurGradientError


@pytest.mark.parametrize("dtype", [jnp.float16, jnp.bfloat16])
def test_expm_refuses_half_precision(dtype):
    # JAX 0.10.2: TypeError "A.dtype=float16 is not supported."
    with pytest.raises(TypeError, match=rf"^A.dtype={np.dtype(dtype)} is not supported\.") as e:
        linalg.expm(jnp.eye(2, dtype=dtype))
    assert isinstance(e.value, ExpmDTypeError)


def test_expm_of_integers_is_float32():
    # JAX 0.10.2: expm(eye(2, int32)) -> float32 [[2.718282, 0], [0, 2.718282]]
    out = linalg.expm(jnp.eye(2, dtype=jnp.int32))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, [[2.718282, 0.0], [0.0, 2.718282]], rtol=1e-6)


@pytest.mark.parametrize(
    "args", [(jnp.array(2.0),), (2.0,), (2.0, 3.0), (jnp.asarray(2.0)[None],)], ids=str
)
def test_toeplitz_is_never_weakly_typed(args):
    # JAX 0.10.2: toeplitz(jnp.array(2.0)) -> Array([[2.]], dtype=float32) (not weak)
    out = linalg.toeplitz(*args)
    assert out.shape == (1, 1) and out.dtype == np.float32 and not out.weak_type
    assert float(out[0, 0]) == 2.0


def test_eigh_tridiagonal_shape_and_dtype_errors():
    # JAX 0.10.2: TypeError "add got incompatible shapes for broadcasting: (3,), (4,)."
    first = r"^add got incompatible shapes for broadcasting: \(3,\), \(4,\)\."
    with pytest.raises(TypeError, match=first) as e:
        linalg.eigh_tridiagonal(jnp.array([2.0, 3.0, 4.0]), jnp.array([1.0, 0.5, 0.2]))
    assert isinstance(e.value, ShapeError)
    # JAX 0.10.2: TypeError "... eigh_tridiagonal, got int32 and int32"
    with pytest.raises(TypeError, match="eigh_tridiagonal, got int32 and int32$"):
        linalg.eigh_tridiagonal(jnp.array([2, 3, 4]), jnp.array([1, 1]), eigvals_only=True)


@pytest.mark.parametrize(
    "f",
    [
        lambda a: linalg.sqrtm(a).real.sum(),
        lambda a: linalg.funm(a, jnp.sin).real.sum(),
        lambda a: linalg.schur(a)[0].sum(),
    ],
    ids=["sqrtm", "funm", "schur"],
)
def test_schur_based_functions_are_not_differentiable(f):
    # JAX 0.10.2: NotImplementedError "Differentiation rule for 'schur' not implemented"
    a = jnp.array([[4.0, 1.0], [1.0, 3.0]])
    with pytest.raises(NotImplementedError, match="^Differentiation rule for 'schur' not "):
        core.grad(f)(a)
    with pytest.raises(SchurGradientError):
        core.jvp(f, (a,), (jnp.eye(2),))


def test_schur_still_runs_under_jit_and_vmap():
    # JAX 0.10.2: sqrtm(9 I) = 3 I, vmapped over [I, 4 I] -> [I, 2 I] (complex64)
    np.testing.assert_allclose(core.jit(linalg.sqrtm)(jnp.eye(2) * 9), 3 * np.eye(2), atol=1e-6)
    out = core.vmap(linalg.sqrtm)(jnp.stack([jnp.eye(2), 4 * jnp.eye(2)]))
    assert out.dtype == np.complex64
    np.testing.assert_allclose(out, [np.eye(2), 2 * np.eye(2)], atol=1e-6)
