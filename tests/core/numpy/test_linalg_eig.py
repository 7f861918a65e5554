"""jnp.linalg.eig/eigvals, lax eig with left eigenvectors, and jnp.roots/poly built on them:
values recorded from JAX 0.10.2, derivatives, vmap, and both jit back ends."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.prims.eig import EigenvectorDerivativeError, eig

A = np.array([[1.0, 2.0], [-3.0, 0.5]], np.float32)
# JAX 0.10.2: jax.lax.linalg.eig(A) -> [w, vl, vr]
W = [0.75 + 2.4366984j, 0.75 - 2.4366984j]
VL = [[0.7745967, 0.7745967], [0.06454972 + 0.6291529j, 0.06454972 - 0.6291529j]]
VR = [[-0.06454971 - 0.6291529j, -0.06454971 + 0.6291529j], [0.7745967, 0.7745967]]


@pytest.mark.parametrize("backend", [None, "python", "numba"])
def test_eig_values_match_jax(backend):
    f = eig if backend is None else core.jit(eig, backend=backend)
    w, vl, vr = f(jnp.asarray(A))
    assert w.dtype == vl.dtype == vr.dtype == np.complex64
    np.testing.assert_allclose(w, W, rtol=1e-6)
    np.testing.assert_allclose(vl, VL, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(vr, VR, rtol=1e-5, atol=1e-6)


def test_eig_defining_relations_batched_and_vmapped():
    a = np.random.default_rng(0).standard_normal((3, 4, 4)).astype(np.float32)
    w, vl, vr = eig(jnp.asarray(a))
    w, vl, vr = map(np.asarray, (w, vl, vr))
    np.testing.assert_allclose(a @ vr, vr * w[:, None, :], atol=1e-4)
    np.testing.assert_allclose(
        np.conj(np.swapaxes(vl, -1, -2)) @ a,
        np.conj(np.swapaxes(vl, -1, -2)) * w[:, :, None],
        atol=1e-4,
    )
    np.testing.assert_allclose(np.linalg.norm(vl, axis=-2), 1, rtol=1e-5)
    np.testing.assert_allclose(core.vmap(jnp.linalg.eigvals)(jnp.asarray(a)), w, rtol=1e-5)


def test_jnp_eig_and_eigvals():
    res = jnp.linalg.eig(jnp.asarray(A))
    assert type(res).__name__ == "EigResult"
    np.testing.assert_allclose(res.eigenvalues, W, rtol=1e-6)
    np.testing.assert_allclose(res.eigenvectors, VR, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(jnp.linalg.eigvals(A), W, rtol=1e-6)
    w = jnp.linalg.eigvals(jnp.eye(2, dtype=jnp.int32))
    assert w.dtype == np.complex64 and w.tolist() == [1, 1]
    assert jnp.linalg.eig(jnp.zeros((3, 0, 0))).eigenvectors.shape == (3, 0, 0)


def test_eigenvalue_derivatives_match_jax():
    a = jnp.asarray(A)
    g = core.grad(lambda a: jnp.linalg.eigvals(a).real.sum())(a)
    np.testing.assert_allclose(g, np.eye(2), atol=1e-6)
    # JAX 0.10.2: jax.jacfwd(lambda a: jnp.linalg.eigvals(a).imag)(A)
    want = [[[-0.05129891, 0.615587], [-0.41039133, 0.05129891]],
            [[0.05129891, -0.615587], [0.41039133, -0.05129891]]]  # fmt: skip
    np.testing.assert_allclose(
        core.jacfwd(lambda a: jnp.linalg.eigvals(a).imag)(a), want, rtol=1e-5
    )
    np.testing.assert_allclose(
        core.jit(core.jacrev(lambda a: jnp.linalg.eigvals(a).imag))(a), want, rtol=1e-5
    )
    with pytest.raises(EigenvectorDerivativeError, match="eigvals"):
        core.grad(lambda a: jnp.abs(jnp.linalg.eig(a).eigenvectors).sum())(a)


@pytest.mark.parametrize(
    "p, strip, want",
    [
        ([0.0, 1.0, 2.0], True, [-2]),
        ([0.0, 1.0, 2.0], False, [-2, complex(np.nan, np.nan)]),
        ([0.0, 1.0, -3.0, 2.0], False, [1, 2, complex(np.nan, np.nan)]),
        ([0.0, 0.0], True, []),
        ([0.0, 0.0], False, [complex(np.nan, np.nan)]),
        ([3.0], True, []),
    ],
)
def test_roots_match_jax(p, strip, want):
    got = jnp.roots(jnp.asarray(p, jnp.float32), strip_zeros=strip)
    assert got.dtype == np.complex64
    np.testing.assert_allclose(np.sort_complex(np.asarray(got)), np.sort_complex(want), rtol=1e-5)


def test_roots_and_poly_under_jit_and_grad():
    p = jnp.array([1.0, -3.0, 2.0])
    r = core.jit(lambda p: jnp.roots(p, strip_zeros=False))(p)
    np.testing.assert_allclose(np.sort_complex(np.asarray(r)), [1, 2], rtol=1e-5)
    # JAX 0.10.2: jax.grad(lambda p: jnp.roots(p, strip_zeros=False).real.sum())(p)
    g = core.grad(lambda p: jnp.roots(p, strip_zeros=False).real.sum())(p)
    np.testing.assert_allclose(g, [-3.0, -1.0, 0.0], atol=1e-6)
    m = jnp.array([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(core.jit(jnp.poly)(m), [1, -5, -2], rtol=1e-5, atol=1e-5)
    with pytest.raises(core.errors.ConcretizationTypeError, match="strip_zeros=False"):
        core.jit(jnp.roots)(p)


_A3 = np.array([[2.0, 1.0, 0.3], [0.5, -1.0, 0.2], [0.1, 0.4, 0.5]])
_T3 = np.array([[0.3, -0.2, 0.1], [0.05, 0.4, -0.3], [0.2, 0.1, -0.1]])


@pytest.mark.parametrize("a", [_A3, _A3 + 1j * _T3], ids=["real", "complex"])
def test_eigenvector_derivatives_with_enable_eigvec_derivs(a):
    # JAX's rule: a v = w v differentiated, with LAPACK's normalization kept (unit columns,
    # the largest component real); the left eigenvectors are those of a^H (conjugated w)
    def f(m):
        return eig(m, enable_eigvec_derivs=True)

    with core.enable_x64():
        (w, vl, vr), (dw, dvl, dvr) = core.jvp(f, (a,), (_T3.astype(a.dtype),))
        w, vl, vr, dw, dvl, dvr = map(np.asarray, (w, vl, vr, dw, dvl, dvr))
    da = _T3.astype(complex)
    # the derivative of a v = v diag(w)
    np.testing.assert_allclose(da @ vr + a @ dvr, dvr * w + vr * dw, atol=1e-10)
    np.testing.assert_allclose(
        da.conj().T @ vl + a.conj().T @ dvl, dvl * w.conj() + vl * dw.conj(), atol=1e-10
    )
    for v, dv in ((vr, dvr), (vl, dvl)):
        np.testing.assert_allclose(np.real(np.sum(v.conj() * dv, axis=0)), 0, atol=1e-12)
        k = np.abs(v).argmax(axis=0)
        np.testing.assert_allclose(np.imag(dv[k, range(3)]), 0, atol=1e-12)
    # JAX 0.10.2's gradient of sum |vr| (its columns' signs do not matter)
    want = [[-0.191, 0.1451, 0.1687], [0.0702, 0.2079, 0.7496], [0.4226, 0.4386, -0.0169]]
    if np.isrealobj(a):
        got = core.grad(
            lambda m: jnp.abs(
                eig(m, compute_left_eigenvectors=False, enable_eigvec_derivs=True)[1]
            ).sum()
        )(a.astype(np.float32))
        np.testing.assert_allclose(got, want, atol=2e-4)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_eig_of_a_non_finite_matrix_is_nan(bad):
    # JAX 0.10.2: eig(stack([[[1, nan], [0, 1]], eye(2)])) -> eigenvalues [[nan+nanj] * 2,
    # [1, 1]], eigenvectors [all nan+nanj, eye(2)]; eigvals of [[1, inf], [0, 1]] -> nan+nanj
    a = np.stack([np.array([[1.0, bad], [0.0, 1.0]], np.float32), np.eye(2, dtype=np.float32)])
    w, v = jnp.linalg.eig(a)
    assert w.dtype == np.complex64 and v.dtype == np.complex64
    assert np.isnan(np.asarray(w[0])).all() and np.isnan(np.asarray(v[0])).all()
    np.testing.assert_allclose(w[1], [1.0, 1.0])
    np.testing.assert_allclose(v[1], np.eye(2))
    assert np.isnan(np.asarray(jnp.linalg.eigvals(a[0]))).all()


@pytest.mark.parametrize("f", [jnp.linalg.eig, jnp.linalg.eigvals])
def test_eig_of_a_non_square_matrix_names_its_last_two_axes(f):
    # JAX 0.10.2: ValueError "The input to eig must be a square matrix. Got shape (2, 3)."
    first = r"^The input to eig must be a square matrix\. Got shape \(2, 3\)\."
    with pytest.raises(ValueError, match=first):
        f(jnp.ones((4, 2, 3)))
