"""Polynomial approximation and Gaussian quadrature (ours, in the style of the numerical-analysis
notebooks ported to `jax.numpy`: Golub-Welsch rules, least-squares fits and root finding).

Gauss-Legendre nodes and weights come from the symmetric tridiagonal Jacobi matrix: its
eigenvalues by `jax.scipy.linalg.eigh_tridiagonal(eigvals_only=True)` and by `jnp.linalg.eigh`
of the dense matrix (`jnp.diag` with offsets), the weights from the eigenvectors' first
components. The rules integrate polynomials exactly up to degree 2n-1 and are compared with
`trapezoid` on a fine grid. A least-squares fit by `jnp.polyfit` (with `full=True`, and
weighted with `cov=True`) against a `jnp.vander` system solved by `lstsq`; `polyval`, `polyder`,
`polyint`, `polymul`, `polyadd`/`polysub`, `roots` and `poly` round trips; Chebyshev nodes and
interpolation through a Vandermonde `solve`, and the interpolant's error; Newton's method on the
fitted polynomial vectorised with `vmap` from several starts in a `fori_loop`; and the
gradient of a quadrature wrt the integrand's parameter under `jit`."""

import jax
import jax.numpy as jnp
from jax.scipy.linalg import eigh_tridiagonal
from jax.scipy.integrate import trapezoid


def jacobi_matrix(n):
    k = jnp.arange(1.0, n)
    beta = k / jnp.sqrt(4 * k**2 - 1)
    return jnp.zeros(n), beta


def gauss_legendre(n):
    alpha, beta = jacobi_matrix(n)
    J = jnp.diag(alpha) + jnp.diag(beta, 1) + jnp.diag(beta, -1)
    nodes, vecs = jnp.linalg.eigh(J)
    weights = 2.0 * vecs[0] ** 2
    return nodes, weights, eigh_tridiagonal(alpha, beta, eigvals_only=True)


def chebyshev_nodes(n):
    return jnp.cos((2 * jnp.arange(n) + 1) * jnp.pi / (2 * n))


def run():
    out = {}
    nodes, weights, tri_eigs = gauss_legendre(5)
    out["gauss_legendre"] = [
        nodes,
        weights,
        jnp.abs(jnp.sort(tri_eigs) - nodes).max() < 1e-5,
        weights.sum(),
    ]
    powers = jnp.arange(11)
    exact = jnp.where(powers % 2 == 0, 2.0 / (powers + 1), 0.0)
    rule = jnp.sum(weights[None, :] * nodes[None, :] ** powers[:, None], axis=1)
    out["exactness"] = [jnp.abs(rule - exact)[:10].max() < 1e-5, jnp.abs(rule - exact)[10]]

    f = lambda x, a: jnp.exp(a * x) * jnp.cos(3 * x)  # noqa: E731
    grid = jnp.linspace(-1.0, 1.0, 2001)
    out["integral"] = [jnp.sum(weights * f(nodes, 0.7)), trapezoid(f(grid, 0.7), grid)]
    quad = jax.jit(lambda a: jnp.sum(weights * f(nodes, a)))
    out["quadrature_grad"] = [jax.grad(quad)(0.7), jnp.sum(weights * nodes * f(nodes, 0.7))]

    x = jnp.linspace(0.0, 2.0, 15)
    y = 1.0 - 2.0 * x + 0.5 * x**3 + 0.01 * jnp.sin(40 * x)
    coeffs = jnp.polyfit(x, y, 3)
    full = jnp.polyfit(x, y, 3, full=True)
    V = jnp.vander(x, 4)
    by_lstsq = jnp.linalg.lstsq(V, y)[0]
    out["fit"] = [coeffs, jnp.abs(coeffs - by_lstsq).max() < 1e-3, full[1], full[2], full[3][:2]]
    w_coeffs, cov = jnp.polyfit(x, y, 2, w=1.0 + x, cov=True)
    out["weighted_fit"] = [w_coeffs, jnp.sqrt(jnp.diag(cov))]

    p = jnp.array([0.5, 0.0, -2.0, 1.0])
    out["poly_algebra"] = [jnp.polyval(p, jnp.array([0.0, 1.0, 2.0])), jnp.polyder(p), jnp.polyint(p, k=1.0),
                           jnp.polymul(p, jnp.array([1.0, -1.0])), jnp.polyadd(p, jnp.array([1.0, 1.0])),
                           jnp.polysub(jnp.array([1.0, 1.0]), p)]  # fmt: skip
    r = jnp.roots(p)
    order = jnp.lexsort((jnp.round(r.imag, 4), jnp.round(r.real, 4)))
    out["roots"] = [r.real[order], r.imag[order], jnp.abs(jnp.poly(r).real * 0.5 - p).max() < 1e-4]

    def newton(x0):
        dp = jnp.polyder(p)
        return jax.lax.fori_loop(0, 30, lambda i, x: x - jnp.polyval(p, x) / jnp.polyval(dp, x), x0)

    starts = jnp.array([-3.0, 0.2, 1.5])
    out["newton"] = jnp.sort(jax.vmap(newton)(starts))

    cheb = chebyshev_nodes(8)
    runge = lambda x: 1.0 / (1.0 + 16.0 * x**2)  # noqa: E731
    c_cheb = jnp.linalg.solve(jnp.vander(cheb, 8), runge(cheb))
    even = jnp.linspace(-1.0, 1.0, 8)
    c_even = jnp.linalg.solve(jnp.vander(even, 8), runge(even))
    test = jnp.linspace(-1.0, 1.0, 101)
    err_cheb = jnp.abs(jnp.polyval(c_cheb, test) - runge(test)).max()
    err_even = jnp.abs(jnp.polyval(c_even, test) - runge(test)).max()
    out["interpolation"] = [cheb, err_cheb, err_even, err_cheb < err_even]
    return out
