"""Principal component analysis three ways and a randomized SVD with power iterations (ours,
in the style of the PCA and sketching notebooks written with `jnp.linalg`, after Halko,
Martinsson and Tropp's randomized range finder).

Data are a rank-3 signal in 12 dimensions plus noise. PCA by `jnp.linalg.svd(full_matrices=
False)` of the centred data, by `eigh` of the covariance (`jnp.cov`, eigenvalues reversed)
and by a randomized SVD: a Gaussian sketch, `jnp.linalg.qr` range finding with power
iterations in a `fori_loop`, then the SVD of the small projected matrix. Singular vectors are
made sign-deterministic (the largest-magnitude entry of each component positive, via
`jnp.take_along_axis`), as scikit-learn's `svd_flip` does, so the three agree. Also the
explained variance ratio, whitening, reconstruction error against the Eckart-Young bound,
`jnp.linalg.norm`'s `"fro"`/`"nuc"`/`2` orders, `matrix_rank`, `pinv` against `lstsq`,
`svdvals`, subspace angles, and the gradient of the top singular value (u v^T) by `grad`
through `svd`, batched by `vmap`."""

import jax
import jax.numpy as jnp


def data(key, n=40, d=12, rank=3):
    k1, k2, k3 = jax.random.split(key, 3)
    scores = jax.random.normal(k1, (n, rank)) * jnp.array([5.0, 3.0, 1.5])
    basis = jnp.linalg.qr(jax.random.normal(k2, (d, rank)))[0]
    return scores @ basis.T + 0.1 * jax.random.normal(k3, (n, d)) + jnp.linspace(-1.0, 1.0, d)


def flip_signs(components):
    pivot = jnp.argmax(jnp.abs(components), axis=1)
    signs = jnp.sign(jnp.take_along_axis(components, pivot[:, None], axis=1))
    return components * signs


def pca_svd(x, k):
    xc = x - x.mean(axis=0)
    _, s, vt = jnp.linalg.svd(xc, full_matrices=False)
    return flip_signs(vt[:k]), s**2 / (x.shape[0] - 1)


def pca_eigh(x, k):
    cov = jnp.cov(x, rowvar=False)
    w, v = jnp.linalg.eigh(cov)
    return flip_signs(v[:, ::-1][:, :k].T), w[::-1]


def randomized_svd(key, a, k, oversample=4, power=2):
    omega = jax.random.normal(key, (a.shape[1], k + oversample))
    q = jnp.linalg.qr(a @ omega)[0]

    def body(_, q):
        z = jnp.linalg.qr(a.T @ q)[0]
        return jnp.linalg.qr(a @ z)[0]

    q = jax.lax.fori_loop(0, power, body, q)
    u_small, s, vt = jnp.linalg.svd(q.T @ a, full_matrices=False)
    return (q @ u_small)[:, :k], s[:k], vt[:k]


def top_singular_value(m):
    return jnp.linalg.svd(m, compute_uv=False)[0]


def run():
    out = {}
    x = data(jax.random.PRNGKey(0))
    xc = x - x.mean(axis=0)
    comp_svd, var_svd = pca_svd(x, 3)
    comp_eigh, var_eigh = pca_eigh(x, 3)
    u, s, vt = randomized_svd(jax.random.PRNGKey(1), xc, 3)
    comp_rand = flip_signs(vt)
    out["components"] = [
        comp_svd,
        jnp.abs(comp_svd - comp_eigh).max() < 1e-3,
        jnp.abs(comp_svd - comp_rand).max() < 1e-3,
    ]
    out["variances"] = [var_svd[:4], jnp.abs(var_svd[:3] - var_eigh[:3]).max() < 1e-3, (s**2 / 39)]
    ratio = var_svd / var_svd.sum()
    out["explained"] = [
        ratio[:3],
        jnp.cumsum(ratio)[2],
        jnp.searchsorted(jnp.cumsum(ratio), 0.99) + 1,
    ]

    scores = xc @ comp_svd.T
    white = scores / jnp.sqrt(var_svd[:3])
    out["whitened_cov"] = jnp.cov(white, rowvar=False)
    recon = scores @ comp_svd
    sv = jnp.linalg.svd(xc, compute_uv=False)
    out["reconstruction"] = [
        jnp.linalg.norm(xc - recon, "fro"),
        jnp.sqrt(jnp.sum(sv[3:] ** 2)),
        jnp.linalg.norm(xc - recon, 2),
        sv[3],
    ]
    out["norms"] = [jnp.linalg.norm(xc, "fro"), jnp.linalg.norm(xc, "nuc"), jnp.linalg.norm(xc, 2), jnp.linalg.norm(xc, -2),
                    jnp.linalg.norm(xc, 1), jnp.linalg.norm(xc, jnp.inf)]  # fmt: skip
    out["rank"] = [
        jnp.linalg.matrix_rank(xc),
        jnp.linalg.matrix_rank(recon),
        jnp.linalg.matrix_rank(recon, rtol=1e-3),
    ]

    y = jnp.sin(jnp.arange(40.0))
    by_pinv = jnp.linalg.pinv(xc) @ y
    by_lstsq, residuals, rank, svals = jnp.linalg.lstsq(xc, y)
    out["least_squares"] = [
        by_pinv,
        jnp.abs(by_pinv - by_lstsq).max() < 1e-4,
        residuals,
        rank,
        svals[:3],
    ]
    out["svdvals"] = (
        jnp.abs(jnp.linalg.svdvals(xc) - sv).max() < 1e-3
        if hasattr(jnp.linalg, "svdvals")
        else True
    )

    q1 = jnp.linalg.qr(comp_svd.T)[0]
    q2 = jnp.linalg.qr(comp_rand.T)[0]
    cosines = jnp.linalg.svd(q1.T @ q2, compute_uv=False)
    out["subspace_cosines"] = jnp.clip(cosines, 0.0, 1.0)

    g = jax.grad(top_singular_value)(xc)
    uu, ss, vv = jnp.linalg.svd(xc, full_matrices=False)
    out["sv_grad"] = [jnp.abs(g - jnp.outer(uu[:, 0], vv[0])).max() < 1e-4, jnp.sum(g * xc)]
    batch = jnp.stack([xc[:12], xc[12:24], xc[24:36]])
    out["batched_sv"] = [
        jax.vmap(top_singular_value)(batch),
        jax.vmap(jax.grad(top_singular_value))(batch).shape,
    ]
    return out
