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


@pytest.mark.parametrize("shape", [(0, 0), (3, 0, 0), (0, 2, 2)])
def test_expm_of_empty_matrices(shape):
    # JAX 0.10.2: float32 arrays of the same shape (numbax's norm raised on the (..., 0, 0) case)
    out = linalg.expm(jnp.zeros(shape, jnp.int32))
    assert out.shape == shape and out.dtype == np.float32 and not out.weak_type


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


def test_eigh_tridiagonal_of_a_hermitian_pair():
    # JAX 0.10.2: complex d (its real part read) and e: eigenvalues [1, 4] for d = [2 + 1j, 3],
    # e = [1 + 1j] (float32), [0.6850935, 1.2598608, 4.055046] for d = [2, 3, 1],
    # e = [1 + 1j, 0.5j]; a single complex entry gives its real part
    w = linalg.eigh_tridiagonal(jnp.array([2 + 1j, 3.0]), jnp.array([1 + 1j]), eigvals_only=True)
    assert w.dtype == np.float32
    np.testing.assert_allclose(w, [1.0, 4.0], rtol=1e-6)
    d, e = jnp.array([2.0, 3.0, 1.0], jnp.complex64), jnp.array([1.0 + 1j, 0.5j])
    w, v = linalg.eigh_tridiagonal(d, e)
    np.testing.assert_allclose(w, [0.6850935, 1.2598608, 4.055046], rtol=1e-5)
    t = np.diag(np.real(d)) + np.diag(e, 1) + np.diag(np.conj(e), -1)
    np.testing.assert_allclose(t @ v, v * w, atol=1e-5)  # eigenvectors up to a phase
    one = linalg.eigh_tridiagonal(jnp.array([2.0], jnp.complex64), jnp.zeros(0, jnp.complex64))
    np.testing.assert_allclose(one[0], [2.0])


D3, E2 = jnp.array([2.0, 3.0, 4.0]), jnp.array([1.0, 0.5])


# JAX 0.10.2's eigenvalues for a tolerance: bisection stops once every interval is narrower
@pytest.mark.parametrize(
    "args, kw, want",
    [
        ((D3, E2), dict(tol=1e-3), [1.3550389, 3.3528457, 4.291934]),
        ((D3, E2), dict(tol=1e-1), [1.3554661, 3.3789077, 4.3085966]),
        ((D3, E2), dict(tol=1e-9), [1.3550274, 3.3528597, 4.2921124]),
        (
            (jnp.array([1.0, 2.0, 3.0, 4.0, 5.0]), jnp.array([1.0, -1.0, 0.5, 2.0])),
            dict(tol=0.01, select="i", select_range=(1, 3)),
            [1.8901327, 2.471189, 3.783692],
        ),
        ((jnp.ones(3), jnp.zeros(2)), dict(tol=0.01), [1.0, 1.0, 1.0]),
        (
            (jnp.array([2.0, 3.0], jnp.complex64), jnp.array([1.0 + 1j])),
            dict(tol=0.05),
            [0.9895642, 4.010436],
        ),
    ],
)
def test_eigh_tridiagonal_tolerance(args, kw, want):
    w = linalg.eigh_tridiagonal(*args, eigvals_only=True, **kw)
    assert w.dtype == np.float32
    np.testing.assert_allclose(w, want, rtol=2e-7, atol=1e-7)


def test_eigh_tridiagonal_tolerance_with_vectors_and_jit():
    # JAX 0.10.2: tol=1e-2 -> eigenvalues [1.3520482, 3.354982, 4.291507], eagerly and in jit
    want = [1.3520482, 3.354982, 4.291507]
    np.testing.assert_allclose(linalg.eigh_tridiagonal(D3, E2, tol=1e-2)[0], want, rtol=2e-7)
    f = core.jit(lambda d: linalg.eigh_tridiagonal(d, E2, eigvals_only=True, tol=1e-2))
    np.testing.assert_allclose(f(D3), want, rtol=2e-7)


def test_eigh_tridiagonal_select_v_is_not_implemented_in_jaxs_words():
    with pytest.raises(NotImplementedError) as info:  # JAX 0.10.2's message
        linalg.eigh_tridiagonal(
            jnp.array([1.0, 2.0]),
            jnp.array([0.5]),
            eigvals_only=True,
            select="v",
            select_range=(0.0, 2.5),
        )
    assert str(info.value) == "eigh_tridiagonal(..., select='v') is not implemented"


@pytest.mark.parametrize("output, dtype", [("real", np.float32), ("complex", np.complex64)])
def test_schur_of_an_empty_matrix(output, dtype):
    t, z = linalg.schur(jnp.zeros((0, 0)), output=output)  # JAX 0.10.2: two empty matrices
    assert t.shape == z.shape == (0, 0) and t.dtype == z.dtype == dtype
