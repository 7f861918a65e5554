"""Poisson and heat equations solved spectrally and by finite differences (ours, in the style
of the spectral-method notebooks written with `jnp.fft` and of the finite-difference solvers
in JAX's CFD tutorials).

A periodic Poisson problem on a 16x16 grid is solved with `rfft2`/`irfft2` (wavenumbers from
`fftfreq` and `rfftfreq`, the mean mode zeroed by `jnp.where`) against a manufactured
solution; its residual is checked with a five-point Laplacian by `jnp.roll` and by
`jax.scipy.signal.convolve2d` on a `jnp.pad(mode="wrap")` grid. The heat equation is advanced
exactly in Fourier space and by explicit Euler in a `fori_loop`; a 1-D Dirichlet problem by
Crank-Nicolson in a `lax.scan` whose implicit half is `lax.linalg.tridiagonal_solve`. A
Neumann Poisson problem is diagonalised by `jax.scipy.fft.dctn`/`idctn` (type 2,
`norm="ortho"`). Also `fftshift`, `fftn`, `jnp.nonzero(size=)`, `jnp.gradient`, `jax.scipy.integrate.trapezoid`,
and the gradient of the solution's energy wrt the source through `irfft2`."""

import jax
import jax.numpy as jnp
from jax.scipy.fft import dctn, idctn
from jax.scipy.integrate import trapezoid
from jax.scipy.signal import convolve2d

N = 16
L = 2 * jnp.pi
H = L / N


def grid():
    x = jnp.arange(N) * H
    return jnp.meshgrid(x, x, indexing="ij")


def wavenumbers():
    kx = 2 * jnp.pi * jnp.fft.fftfreq(N, d=H)
    ky = 2 * jnp.pi * jnp.fft.rfftfreq(N, d=H)
    return jnp.meshgrid(kx, ky, indexing="ij")


def poisson_spectral(f):
    kx, ky = wavenumbers()
    k2 = kx**2 + ky**2
    f_hat = jnp.fft.rfft2(f)
    u_hat = jnp.where(k2 > 0, -f_hat / jnp.where(k2 > 0, k2, 1.0), 0.0)
    return jnp.fft.irfft2(u_hat, s=(N, N))


def laplacian_roll(u):
    return (
        jnp.roll(u, 1, 0) + jnp.roll(u, -1, 0) + jnp.roll(u, 1, 1) + jnp.roll(u, -1, 1) - 4 * u
    ) / H**2


def laplacian_conv(u):
    stencil = jnp.array([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]]) / H**2
    return convolve2d(jnp.pad(u, 1, mode="wrap"), stencil, mode="valid")


def heat_exact(u0, t, nu=0.1):
    kx, ky = wavenumbers()
    return jnp.fft.irfft2(jnp.fft.rfft2(u0) * jnp.exp(-nu * (kx**2 + ky**2) * t), s=(N, N))


def heat_euler(u0, t, nu=0.1, steps=40):
    dt = t / steps
    return jax.lax.fori_loop(0, steps, lambda _, u: u + dt * nu * laplacian_roll(u), u0)


def crank_nicolson(u0, dt, steps, nu=1.0):
    n = u0.shape[0]
    h = 1.0 / (n + 1)
    r = nu * dt / (2 * h**2)
    dl = jnp.full(n, -r).at[0].set(0.0)
    du = jnp.full(n, -r).at[-1].set(0.0)
    d = jnp.full(n, 1 + 2 * r)

    def step(u, _):
        padded = jnp.pad(u, 1)
        rhs = r * padded[:-2] + (1 - 2 * r) * u + r * padded[2:]
        u = jax.lax.linalg.tridiagonal_solve(dl, d, du, rhs[:, None])[:, 0]
        return u, u.max()

    return jax.lax.scan(step, u0, None, length=steps)


def neumann_poisson(f):
    n = f.shape[0]
    lam = 2 * jnp.cos(jnp.pi * jnp.arange(n) / n) - 2
    denom = lam[:, None] + lam[None, :]
    f_hat = dctn(f, type=2, norm="ortho")
    u_hat = jnp.where(denom < 0, f_hat / jnp.where(denom < 0, denom, 1.0), 0.0)
    return idctn(u_hat, type=2, norm="ortho")


def neumann_laplacian(u):
    p = jnp.pad(u, 1, mode="edge")
    return p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * u


def run():
    out = {}
    X, Y = grid()
    u_true = jnp.sin(X) * jnp.cos(2 * Y) + 0.5 * jnp.cos(3 * X)
    f = -5 * jnp.sin(X) * jnp.cos(2 * Y) - 4.5 * jnp.cos(3 * X)
    u = poisson_spectral(f)
    out["poisson"] = [u[:3], jnp.abs(u - u_true).max() < 1e-4, u.dtype.name]
    fd_res = laplacian_roll(u) - f
    out["fd_residual"] = [
        jnp.abs(fd_res).max(),
        jnp.abs(laplacian_conv(u) - laplacian_roll(u)).max() < 1e-3,
    ]

    spectrum = jnp.abs(jnp.fft.fftshift(jnp.fft.fft2(u_true))) / N**2
    rows, cols = jnp.nonzero(spectrum > 0.1, size=8, fill_value=-1)
    out["spectrum"] = [rows, cols, spectrum.max(), jnp.fft.fftshift(jnp.fft.fftfreq(N))[:4]]
    out["fftn"] = jnp.abs(jnp.fft.ifftn(jnp.fft.fftn(u_true)).real - u_true).max() < 1e-5

    u0 = jnp.exp(-((X - jnp.pi) ** 2 + (Y - jnp.pi) ** 2))
    exact = heat_exact(u0, 0.5)
    euler = heat_euler(u0, 0.5)
    out["heat"] = [
        exact[8, 6:10],
        euler[8, 6:10],
        jnp.abs(exact - euler).max(),
        exact.mean(),
        u0.mean(),
    ]

    xs = jnp.linspace(0.0, 1.0, 33)[1:-1]
    u1 = jnp.sin(jnp.pi * xs) + 0.3 * jnp.sin(3 * jnp.pi * xs)
    u_cn, peaks_cn = crank_nicolson(u1, 0.01, 10)
    mode_decay = jnp.exp(-(jnp.pi**2) * 0.1) * jnp.sin(jnp.pi * xs) + 0.3 * jnp.exp(
        -9 * jnp.pi**2 * 0.1
    ) * jnp.sin(3 * jnp.pi * xs)
    out["crank_nicolson"] = [u_cn[::6], peaks_cn, jnp.abs(u_cn - mode_decay).max() < 1e-4]

    g = jnp.cos(jnp.pi * (jnp.arange(8) + 0.5) / 8)
    rhs = g[:, None] * g[None, :] + 0.1 * jnp.arange(8.0)[None, :] - 0.35
    rhs = rhs - rhs.mean()
    un = neumann_poisson(rhs)
    out["neumann"] = [
        un[0],
        jnp.abs(neumann_laplacian(un) - rhs).max() < 1e-4,
        jnp.abs(un.mean()) < 1e-5,
    ]

    x1 = jnp.linspace(0.0, jnp.pi, 21)
    out["calculus"] = [jnp.gradient(jnp.sin(x1), x1)[:5], jnp.gradient(x1**2)[-3:],
                       trapezoid(jnp.sin(x1), x1), trapezoid(u_true, dx=H, axis=0)[:4]]  # fmt: skip

    energy = lambda src: 0.5 * jnp.sum(poisson_spectral(src) ** 2) * H**2  # noqa: E731
    out["adjoint"] = [
        jax.grad(energy)(f)[:2, :4],
        jnp.vdot(jax.grad(energy)(f), f) / (2 * energy(f)),
    ]
    return out
