"""jax.scipy as programs use it beyond `scipy_more`'s direct calls (`scipy_usage`, session
36): optimize.minimize (BFGS and the experimental L-BFGS) on the usual test functions with
args, options and tol, under jit and vmap, and its errors; linalg's less-used functions
(solve_sylvester, expm_frechet, funm, sqrtm, schur, hessenberg, polar, toeplitz, block_diag,
lu_factor/lu_solve, eigh_tridiagonal) over float16/complex/int inputs, batches, jit, vmap and
grad; signal's convolutions and spectral estimates under jit, vmap and grad; trapezoid,
RegularGridInterpolator, map_coordinates, vq, dct and Rotation/Slerp under transformations;
sparse.linalg's solvers over batches and pytrees (371 calls; 17 differed at first, 8 after
session 36's fixes. Left: two float32 minimizations of Rosenbrock's function whose iterates
drift apart by rounding until JAX's line search fails (in float64 both agree to 1e-10, failures
included); expm(diag(50, -50)), where numbax is the nearer to e^50; schur's eigenvalue order
(LAPACK's, not numbax's QR iteration's); JAX quirks: convolve/correlate of lists (an
AttributeError), csd's unformatted message, dct(n=0)'s message from JAX's internal slice).
"""

# ruff: noqa: E501

PRELUDE = """
import importlib
importlib.import_module(jsp.__name__ + '.optimize')  # JAX's jax.scipy.optimize needs an import
def su_rosen(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)
def su_quad(x, a, b):
    return jnp.sum(a * (x - b) ** 2)
def su_res(r):
    # an OptimizeResults as plain data a comparison can tolerate (the counters exactly)
    return (r.x, r.fun, r.success, r.status, r.nit)
SU_A = jnp.array([[4.0, 1.0, 2.0], [1.0, 5.0, 0.5], [2.0, 0.5, 6.0]])
SU_N = jnp.array([[1.0, 2.0, 0.5], [-1.0, 0.3, 2.0], [0.7, -0.4, 1.5]])
SU_SIG = jnp.sin(jnp.arange(48.0) * 0.45) + (jnp.arange(48.0) % 4) * 0.25
"""


def _optimize() -> list[str]:
    mz = "jsp.optimize.minimize"
    lb = "'l-bfgs-experimental-do-not-rely-on-this'"
    c = []
    for m in ("'BFGS'", lb):
        c += [
            f"su_res({mz}(su_rosen, jnp.array([-1.2, 1.0]), method={m}))",
            f"su_res({mz}(su_rosen, jnp.zeros(4), method={m}))",
            f"su_res({mz}(su_quad, jnp.zeros(3), args=(jnp.array([1.0, 2.0, 3.0]), jnp.array([0.5, -1.0, 2.0])), method={m}))",
            f"su_res({mz}(lambda x: jnp.sum(x ** 2), jnp.array([1.0, -2.0]), method={m}, tol=1e-3))",
            f"su_res({mz}(lambda x: jnp.sum(x ** 2), jnp.array([1.0, -2.0]), method={m}, options={{'maxiter': 1}}))",
            f"su_res({mz}(lambda x: jnp.sum((x - 3.0) ** 4), jnp.array([0.0]), method={m}))",
            f"su_res({mz}(lambda x: jnp.sum(x ** 2), jnp.zeros(2), method={m}))",
            f"su_res(jax.jit(lambda x0: {mz}(su_rosen, x0, method={m}))(jnp.array([0.5, 0.5])))",
            f"jax.vmap(lambda b: {mz}(lambda x: jnp.sum((x - b) ** 2), jnp.zeros(2), method={m}).x)(jnp.array([[1.0, 2.0], [-1.0, 0.5]]))",
            f"{mz}(su_rosen, jnp.array([-1.2, 1.0]), method={m}).x.dtype",
            f"{mz}(su_rosen, jnp.array([-1.2, 1.0], jnp.float16), method={m}).x.dtype",
            f"su_res({mz}(lambda x: jnp.sum(jnp.cosh(x)), jnp.array([2.0, -1.0, 0.5]), method={m}))",
        ]
    c += [
        f"type({mz}(su_rosen, jnp.array([-1.2, 1.0]), method='BFGS')).__name__",
        f"{mz}(su_rosen, jnp.array([-1.2, 1.0]), method='BFGS').jac",
        f"{mz}(su_rosen, jnp.array([-1.2, 1.0]), method='BFGS').hess_inv",
        f"({mz}(su_rosen, jnp.array([-1.2, 1.0]), method='BFGS').nfev, {mz}(su_rosen, jnp.array([-1.2, 1.0]), method='BFGS').njev)",
        f"{mz}(lambda x: jnp.sum(x ** 2), jnp.array([1.0, -2.0]), method='BFGS', options={{'gtol': 1e-2}}).nit",
        f"{mz}(lambda x: jnp.sum(x ** 2), jnp.array([1.0, -2.0]), method='BFGS', options={{'line_search_maxiter': 2}}).nit",
        f"{mz}(su_rosen, jnp.array([-1.2, 1.0]), method='Nelder-Mead')",
        f"{mz}(su_rosen, jnp.array([-1.2, 1.0]))",
        f"{mz}(su_rosen, jnp.array([[-1.2, 1.0]]), method='BFGS')",
        f"{mz}(su_rosen, jnp.array([-1.2, 1.0]), method='BFGS', options={{'bogus': 1}})",
        f"{mz}(lambda x: x ** 2, jnp.array([1.0, 2.0]), method='BFGS')",
        f"su_res({mz}(lambda x: jnp.sum(x ** 2), jnp.array([1, 2]), method='BFGS'))",
        f"{mz}(su_rosen, jnp.array([-1.2, 1.0]), method='bfgs').x",
    ]
    return c


def _linalg() -> list[str]:
    L = "jsp.linalg"
    A, N = "SU_A", "SU_N"
    c = [
        # solve_sylvester: A X + X B = C
        f"{L}.solve_sylvester({A}, {N}, jnp.ones((3, 3)))",
        f"{L}.solve_sylvester({A}, jnp.array([[1.0, 0.5], [0.0, 2.0]]), jnp.arange(6.0).reshape(3, 2))",
        f"{L}.solve_sylvester(jnp.array([[1.0]]), jnp.array([[2.0]]), jnp.array([[6.0]]))",
        f"{L}.solve_sylvester({A}.astype(jnp.complex64), {N}.astype(jnp.complex64), jnp.ones((3, 3), jnp.complex64))",
        f"{L}.solve_sylvester({A}, {N}, jnp.ones((3, 2)))",
        f"{L}.solve_sylvester(jnp.eye(2), -jnp.eye(2), jnp.ones((2, 2)))",
        f"jax.jit({L}.solve_sylvester)({A}, {N}, jnp.eye(3))",
        f"{L}.solve_sylvester(jnp.eye(3, dtype=jnp.int32) * 2, jnp.eye(3, dtype=jnp.int32), jnp.ones((3, 3), jnp.int32))",
        # expm family
        f"{L}.expm({A}.astype(jnp.float16) / 8)",
        f"{L}.expm({N}.astype(jnp.complex64) * 1j)",
        f"{L}.expm(jnp.zeros((3, 3)))",
        f"{L}.expm(jnp.array([[0.0, 1.0], [0.0, 0.0]]))",
        f"{L}.expm(jnp.array([[0.0, -jnp.pi], [jnp.pi, 0.0]]))",
        f"{L}.expm(jnp.array([[50.0, 0.0], [0.0, -50.0]]))",
        f"{L}.expm(jnp.ones((2, 3)))",
        f"jax.jit({L}.expm)({N})",
        f"jax.vmap({L}.expm)(jnp.stack([{N}, {A} / 5, jnp.zeros((3, 3))]))",
        f"jax.jacfwd(lambda t: {L}.expm(t * {N}))(0.5)",
        f"jax.grad(lambda a: jnp.trace({L}.expm(a)))({A} / 4)",
        f"{L}.expm_frechet({N}, jnp.eye(3))",
        f"{L}.expm_frechet({N}, {A}, method='SPS')",
        f"{L}.expm_frechet({N}, {A}, method='blockEnlarge')",
        f"{L}.expm_frechet({N}, jnp.eye(2))",
        f"{L}.expm_frechet(jnp.ones((2, 3)), jnp.ones((2, 3)))",
        f"jax.jit(lambda a, e: {L}.expm_frechet(a, e))({N}, {A})",
        # funm / sqrtm
        f"{L}.funm({A} / 4, jnp.sin)",
        f"{L}.funm({A} / 4, lambda x: x ** 2)",
        f"{L}.funm(jnp.diag(jnp.array([1.0, 2.0, 3.0])), jnp.log)",
        f"{L}.funm(jnp.array([[1.0, 1.0], [0.0, 2.0]]), jnp.exp)",
        f"{L}.funm({A}, jnp.exp, disp=False)",
        f"{L}.sqrtm({A}.astype(jnp.complex64))",
        f"{L}.sqrtm(jnp.zeros((2, 2)))",
        f"{L}.sqrtm(jnp.eye(3) * 4)",
        f"{L}.sqrtm({A}, blocksize=2)",
        f"{L}.sqrtm(jnp.ones((2, 3)))",
        f"jax.jit({L}.sqrtm)({A})",
        # schur / rsf2csf / hessenberg
        f"(lambda t, z: (jnp.abs(jnp.diagonal(t)), jnp.abs(jnp.linalg.det(z))))(*{L}.schur({A}))",
        f"(lambda t, z: jnp.allclose(z @ t @ z.conj().T, {N}, atol=1e-5))(*{L}.schur({N}, output='complex'))",
        f"(lambda t, z: (t.dtype, z.dtype))(*{L}.schur({N}.astype(jnp.complex64)))",
        f"(lambda t, z: (t.dtype, z.dtype))(*{L}.rsf2csf(*{L}.schur({N})))",
        f"(lambda t, z: jnp.allclose(z @ t @ z.conj().T, {N}, atol=1e-5))(*{L}.rsf2csf(*{L}.schur({N})))",
        f"(lambda t, z: jnp.abs(jnp.tril(t, -1)).max())(*{L}.rsf2csf(*{L}.schur({N})))",
        f"{L}.rsf2csf(jnp.eye(3), jnp.eye(2))",
        f"(lambda t, z: t.shape)(*{L}.schur(jnp.stack([{A}, {N}])))",
        f"jnp.abs({L}.hessenberg(jnp.arange(16.0).reshape(4, 4) % 5))",
        f"(lambda h, q: jnp.allclose(q @ h @ q.T, jnp.arange(16.0).reshape(4, 4) % 5, atol=1e-4))(*{L}.hessenberg(jnp.arange(16.0).reshape(4, 4) % 5, calc_q=True))",
        f"{L}.hessenberg({A}.astype(jnp.complex64)).dtype",
        f"{L}.hessenberg(jnp.ones((2, 3)))",
        f"{L}.hessenberg(jnp.array([[2.0]]))",
        # polar
        f"(lambda u, p: (u @ p, u.T @ u))(*{L}.polar({A}))",
        f"(lambda u, p: (p @ u))(*{L}.polar({N}, side='left'))",
        f"(lambda u, p: (u.shape, p.shape))(*{L}.polar(jnp.arange(6.0).reshape(3, 2) + 1))",
        f"(lambda u, p: (u.shape, p.shape))(*{L}.polar(jnp.arange(6.0).reshape(2, 3) + 1))",
        f"(lambda u, p: (u.dtype, p.dtype))(*{L}.polar({N}.astype(jnp.complex64)))",
        f"{L}.polar({N}, method='qdwh')[1]",
        f"{L}.polar({N}, method='bogus')",
        f"jax.jit(lambda a: {L}.polar(a)[0])({N})",
        # toeplitz / block_diag
        f"{L}.toeplitz(jnp.array([1.0, 2.0, 3.0]), jnp.array([1.0, 5.0]))",
        f"{L}.toeplitz(jnp.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), jnp.array([[0.0, 7.0], [0.0, 8.0]]))",
        f"{L}.toeplitz(jnp.array(2.0))",
        f"{L}.toeplitz(jnp.array([1, 2], jnp.int8), jnp.array([1.5, 2.5]))",
        f"{L}.toeplitz(jnp.array([1.0, 2.0]), jnp.array([1.0, 2.0 + 1j]))",
        f"jax.jit({L}.toeplitz)(jnp.arange(4.0))",
        f"jax.vmap({L}.toeplitz)(jnp.arange(6.0).reshape(2, 3))",
        f"jax.grad(lambda c: {L}.toeplitz(c).sum())(jnp.arange(3.0))",
        f"{L}.block_diag(jnp.ones((1, 2), jnp.int8), jnp.ones((2, 1), jnp.float16))",
        f"{L}.block_diag(jnp.ones((0, 2)), jnp.ones((2, 0)))",
        f"{L}.block_diag(jnp.array([[1.0, 2.0]]), jnp.array([[1j]]))",
        f"{L}.block_diag(1, 2.5)",
        f"jax.jit({L}.block_diag)(jnp.eye(2), jnp.ones((1, 1)))",
        f"jax.grad(lambda a, b: ({L}.block_diag(a, b) ** 2).sum(), argnums=(0, 1))(jnp.ones((2, 2)), jnp.arange(3.0).reshape(1, 3))",
        # lu_factor / lu_solve
        f"{L}.lu_factor({N}.astype(jnp.complex64))",
        f"{L}.lu_solve({L}.lu_factor({N}), jnp.eye(3), trans=2)",
        f"{L}.lu_solve({L}.lu_factor({N}.astype(jnp.complex64) * (1 + 1j)), jnp.ones(3, jnp.complex64), trans=2)",
        f"{L}.lu_solve({L}.lu_factor({N}), jnp.arange(6.0).reshape(3, 2))",
        f"{L}.lu_factor(jnp.array([[0.0, 1.0], [1.0, 0.0]]))",
        f"{L}.lu_factor(jnp.zeros((2, 2)))",
        f"{L}.lu_factor(jnp.array([[1.0, 2.0], [2.0, 4.0]]))",
        f"jax.jit(lambda a, b: {L}.lu_solve({L}.lu_factor(a), b))({N}, jnp.ones(3))",
        f"jax.vmap(lambda a: {L}.lu_factor(a)[1])(jnp.stack([{N}, {N}.T]))",
        f"jax.grad(lambda a: {L}.lu_solve({L}.lu_factor(a), jnp.ones(3)).sum())({N})",
        f"jax.grad(lambda b: {L}.lu_solve({L}.lu_factor({N}), b, trans=1).sum())(jnp.array([1.0, 2.0, 3.0]))",
        f"{L}.lu_factor({N}, overwrite_a=True, check_finite=False)[1]",
        f"{L}.lu_factor({N}.astype(jnp.float16))",
        # eigh_tridiagonal
        f"{L}.eigh_tridiagonal(jnp.array([1.0, 2.0, 3.0, 4.0]), jnp.array([0.5, 0.5, 0.5]), eigvals_only=True)",
        f"{L}.eigh_tridiagonal(jnp.array([2.0, 3.0, 4.0]), jnp.array([1.0, 0.5]), eigvals_only=True, select='a')",
        f"{L}.eigh_tridiagonal(jnp.array([2.0, 3.0, 4.0]), jnp.array([1.0, 0.5]), eigvals_only=True, select='v', select_range=(0.0, 3.5))",
        f"{L}.eigh_tridiagonal(jnp.array([2.0, 3.0, 4.0]), jnp.array([1.0, 0.5]), eigvals_only=True, select='bogus')",
        f"{L}.eigh_tridiagonal(jnp.array([2.0, 3.0, 4.0]), jnp.array([1.0, 0.5, 0.2]), eigvals_only=True)",
        f"{L}.eigh_tridiagonal(jnp.array([5.0]), jnp.zeros(0), eigvals_only=True)",
        f"{L}.eigh_tridiagonal(jnp.array([2.0, 3.0]), jnp.array([1.0 + 1j]), eigvals_only=True)",
        f"{L}.eigh_tridiagonal(jnp.array([2, 3, 4]), jnp.array([1, 1]), eigvals_only=True)",
        f"{L}.eigh_tridiagonal(jnp.array([2.0 + 1j, 3.0, 1.0]), jnp.array([1.0 + 1j, 0.5j]), eigvals_only=True)",
        f"(lambda w, v: (w, jnp.abs(v[0])))(*{L}.eigh_tridiagonal(jnp.array([2.0, 3.0], jnp.complex64), jnp.array([1.0 + 1j])))",
        f"{L}.eigh_tridiagonal(jnp.array([2.0 + 1j]), jnp.zeros(0, jnp.complex64), eigvals_only=True)",
        f"{L}.eigh_tridiagonal(jnp.array([2.0, 3.0, 4.0]), jnp.array([1.0, 0.5]), eigvals_only=True, tol=1e-3)",
        f"jax.jit(lambda d, e: {L}.eigh_tridiagonal(d, e, eigvals_only=True))(jnp.array([2.0, 3.0, 4.0]), jnp.array([1.0, 0.5]))",
        f"{L}.eigh_tridiagonal(jnp.array([1.0, 2.0, 3.0, 4.0, 5.0]), jnp.array([1.0, -1.0, 0.5, 2.0]), eigvals_only=True, tol=0.01, select='i', select_range=(1, 3))",
        f"{L}.eigh_tridiagonal(jnp.array([2.0, 3.0], jnp.complex64), jnp.array([1.0 + 1j]), eigvals_only=True, tol=0.05)",
        f"jax.jit(lambda d: {L}.eigh_tridiagonal(d, jnp.array([1.0, 0.5]), eigvals_only=True, tol=1e-1))(jnp.array([2.0, 3.0, 4.0]))",
        f"{L}.eigh_tridiagonal(jnp.ones(3), jnp.zeros(2), eigvals_only=True, tol=0.01)",
        # jit/vmap/grad of the plain factorizations as programs use them
        f"jax.jit(lambda a: {L}.cho_solve({L}.cho_factor(a), jnp.ones(3)))({A})",
        f"jax.vmap(lambda a: {L}.det(a))(jnp.stack([{A}, {N}]))",
        f"jax.grad(lambda a: jnp.linalg.slogdet(a)[1])({A})",
        f"jax.grad(lambda a: {L}.eigh(a, eigvals_only=True).sum())({A})",
        f"jax.grad(lambda a: {L}.svd(a, compute_uv=False).sum())({N})",
        f"jax.grad(lambda a: {L}.inv(a).sum())({N})",
        f"jax.grad(lambda a: {L}.sqrtm(a).real.sum())({A})",
    ]
    return c


def _signal() -> list[str]:
    G = "jsp.signal"
    x = "jnp.array([1.0, 2.0, -1.0, 0.5, 3.0, 0.0])"
    k = "jnp.array([0.5, -1.0, 2.0])"
    c = []
    for f in ("convolve", "correlate", "fftconvolve"):
        c += [
            f"jax.jit({G}.{f})({x}, {k})",
            f"jax.jit({G}.{f}, static_argnames='mode')({x}, {k}, mode='same')",
            f"jax.vmap({G}.{f}, in_axes=(0, None))(jnp.stack([{x}, {x}[::-1]]), {k})",
            f"jax.grad(lambda a: {G}.{f}(a, {k}).sum())({x})",
            f"jax.grad(lambda b: ({G}.{f}({x}, b, mode='valid') ** 2).sum())({k})",
            f"{G}.{f}({x}.astype(jnp.bfloat16), {k}.astype(jnp.bfloat16))",
            f"{G}.{f}(jnp.array([1, 2, 3], jnp.int8), jnp.array([1, 1], jnp.int8))",
            f"{G}.{f}(jnp.array([True, False, True]), jnp.array([True, True]))",
            f"{G}.{f}({x}, jnp.array([1, 2]))",
            f"{G}.{f}({x}, {k}.astype(jnp.complex64))",
            f"{G}.{f}(jnp.ones((2, 3, 4)), jnp.ones((1, 2, 2)), mode='same')",
            f"{G}.{f}(jnp.ones(3), jnp.ones(5), mode='valid')",
            f"{G}.{f}(jnp.ones(0), jnp.ones(2))",
            f"{G}.{f}([1.0, 2.0, 3.0], [1.0, 0.5])",
            f"{G}.{f}(jnp.arange(5.0), jnp.array([2.0]))",
        ]
    c += [
        f"{G}.fftconvolve(jnp.ones((3, 4)), jnp.ones((2, 2)), axes=(0,))",
        f"{G}.fftconvolve(jnp.ones((3, 4)), jnp.ones((1, 2)), axes=[1], mode='valid')",
        f"{G}.fftconvolve(jnp.ones((3, 4)), jnp.ones((2, 2)), mode='bogus')",
        f"{G}.convolve({x}, {k}, precision=lax.Precision.HIGHEST)",
        f"{G}.correlate2d(jnp.arange(12.0).reshape(3, 4), jnp.ones((2, 2)), precision='highest')",
        f"jax.jit({G}.convolve2d)(jnp.arange(12.0).reshape(3, 4), jnp.array([[1.0, -1.0]]))",
        f"jax.grad(lambda a: {G}.correlate2d(a, jnp.array([[1.0, 2.0], [0.5, 0.0]]), mode='same').sum())(jnp.arange(12.0).reshape(3, 4))",
        f"jax.vmap(lambda a: {G}.convolve2d(a, jnp.ones((2, 2))))(jnp.ones((2, 3, 3)))",
        f"{G}.convolve2d(jnp.ones((3, 3)), jnp.ones((2, 2)), mode='same', boundary='symm', fillvalue=1.0)",
        f"{G}.convolve2d(jnp.ones((3, 3)), jnp.ones((2, 2)), boundary='wrap', fillvalue=1.0)",
        # spectral estimates under jit/vmap/grad and over dtypes
        f"jax.jit(lambda s: {G}.welch(s, nperseg=16))(SU_SIG)",
        f"jax.vmap(lambda s: {G}.welch(s, nperseg=16)[1])(jnp.stack([SU_SIG, SU_SIG[::-1]]))",
        f"jax.grad(lambda s: {G}.welch(s, nperseg=16)[1].sum())(SU_SIG)",
        f"{G}.welch(SU_SIG.astype(jnp.complex64), nperseg=16)",
        f"{G}.welch(SU_SIG, nperseg=16, window='hann', noverlap=0)",
        f"{G}.welch(SU_SIG, nperseg=16, window=jnp.hanning(16))",
        f"{G}.welch(SU_SIG, nperseg=16, window=jnp.ones(8))",
        f"{G}.welch(SU_SIG, fs=100.0, nperseg=12, detrend='linear', scaling='spectrum')",
        f"{G}.welch(SU_SIG, nperseg=16, return_onesided=False)[0]",
        f"{G}.welch(SU_SIG.reshape(3, 16), nperseg=8, axis=-1)[1].shape",
        f"{G}.welch(SU_SIG, nperseg=16, detrend=lambda s: s - s.mean())",
        f"{G}.welch(jnp.zeros(0), nperseg=4)",
        f"{G}.csd(SU_SIG, SU_SIG * 2.0, nperseg=16)",
        f"{G}.csd(SU_SIG, SU_SIG.astype(jnp.complex64) * 1j, nperseg=16)",
        f"{G}.csd(SU_SIG, None, nperseg=16)",
        f"{G}.csd(SU_SIG.reshape(3, 16), SU_SIG[:16], nperseg=8)[1].shape",
        f"jax.jit(lambda a, b: {G}.csd(a, b, nperseg=16)[1])(SU_SIG, SU_SIG[::-1])",
        f"{G}.stft(SU_SIG, nperseg=16, window=jnp.hamming(16))",
        f"{G}.stft(SU_SIG.astype(jnp.complex64), nperseg=16, return_onesided=False)[2].shape",
        f"{G}.stft(SU_SIG, nperseg=16, boundary='even')",
        f"{G}.stft(SU_SIG, nperseg=16, boundary='bogus')",
        f"{G}.stft(SU_SIG, nperseg=16, return_onesided=True)[2].dtype",
        f"{G}.stft(SU_SIG.astype(jnp.float16), nperseg=16)[2].dtype",
        f"{G}.stft(SU_SIG.reshape(3, 16), nperseg=8, axis=0)[2].shape",
        f"jax.jit(lambda s: {G}.stft(s, nperseg=16)[2])(SU_SIG)",
        # |z|^2, not |z|: the gradient of |z| at bins of size 5e-4 amplifies float32 rounding
        f"jax.grad(lambda s: (jnp.abs({G}.stft(s, nperseg=16)[2]) ** 2).sum())(SU_SIG)",
        f"jax.vmap(lambda s: jnp.abs({G}.stft(s, nperseg=8)[2]))(SU_SIG.reshape(2, 24))",
        f"{G}.istft({G}.stft(SU_SIG, nperseg=16)[2], nperseg=16)[1][:48]",
        f"{G}.istft({G}.stft(SU_SIG, nperseg=16)[2], fs=2.0, nperseg=16)[0][:5]",
        f"{G}.istft({G}.stft(SU_SIG, nperseg=16)[2])[1].shape",
        f"{G}.istft(jnp.ones((9, 5)), nperseg=16, noverlap=16)",
        f"{G}.istft(jnp.ones(9), nperseg=16)",
        f"jax.jit(lambda z: {G}.istft(z, nperseg=16)[1])({G}.stft(SU_SIG, nperseg=16)[2])",
        f"{G}.detrend(SU_SIG, bp=[10, 30])",
        f"{G}.detrend(jnp.stack([SU_SIG, -SU_SIG]), axis=-1, type='constant')",
        f"jax.jit({G}.detrend)(SU_SIG)",
        f"jax.grad(lambda s: ({G}.detrend(s) ** 2).sum())(SU_SIG[:8])",
        f"{G}.detrend(SU_SIG.astype(jnp.complex64))",
    ]
    return c


def _misc() -> list[str]:
    c = []
    tz = "jsp.integrate.trapezoid"
    c += [
        f"jax.grad(lambda y: {tz}(y, dx=0.5))(jnp.arange(4.0))",
        f"jax.grad(lambda x: {tz}(x ** 2, x=x))(jnp.array([0.0, 0.5, 2.0, 3.0]))",
        f"jax.jit({tz})(jnp.arange(5.0))",
        f"jax.vmap({tz})(jnp.arange(12.0).reshape(3, 4))",
        f"{tz}(jnp.arange(12.0).reshape(3, 4), x=jnp.array([0.0, 1.0, 3.0, 6.0]))",
        f"{tz}(jnp.arange(12.0).reshape(3, 4), x=jnp.arange(12.0).reshape(3, 4) ** 0.5)",
        f"{tz}(jnp.array([1.0 + 1j, 2.0, 3.0 - 1j]))",
        f"{tz}(jnp.array([1.0, 2.0]), dx=2)",
        f"{tz}(jnp.array([1, 2, 3], jnp.int8), dx=1)",
        f"{tz}(jnp.zeros((0,)))",
        f"{tz}(jnp.arange(6.0).reshape(2, 3), axis=2)",
        f"{tz}(jnp.array(2.0))",
        f"{tz}([1.0, 2.0, 3.0])",
        f"{tz}(jnp.arange(4.0), jnp.array([0.0, 1.0, 1.5, 4.0]))",
    ]
    RGI = "jsp.interpolate.RegularGridInterpolator"
    g1 = "(jnp.array([0.0, 1.0, 2.0, 4.0]),)"
    g2 = "(jnp.array([0.0, 1.0, 3.0]), jnp.array([0.0, 0.5, 1.0, 2.0]))"
    v2 = "(jnp.arange(12.0).reshape(3, 4) ** 1.3)"
    c += [
        f"{RGI}({g1}, jnp.array([1.0, 3.0, 2.0, 0.0]))(jnp.array([0.5, 2.5, 3.9]))",
        f"{RGI}({g1}, jnp.array([1.0, 3.0, 2.0, 0.0]))(jnp.array([[0.5], [2.5]]))",
        f"{RGI}({g2}, {v2})(jnp.array([0.5, 0.25]))",
        f"{RGI}({g2}, {v2}, fill_value=jnp.nan)(jnp.array([[5.0, 0.25]]))",
        f"{RGI}({g2}, {v2}.astype(jnp.float16))(jnp.array([[0.5, 0.25]]))",
        f"{RGI}({g2}, {v2}.astype(jnp.complex64) * 1j)(jnp.array([[0.5, 0.25]]))",
        f"{RGI}({g2}, {v2})(jnp.array([[0.5, 0.25]]), method='nearest')",
        f"{RGI}({g2}, {v2})(jnp.array([[0.5, 0.25]]), method='bogus')",
        f"{RGI}({g2}, {v2}, method='bogus')",
        f"jax.jit(lambda p: {RGI}({g2}, {v2})(p))(jnp.array([[0.5, 0.25], [1.5, 1.5]]))",
        f"jax.vmap(lambda p: {RGI}({g2}, {v2})(p))(jnp.array([[0.5, 0.25], [1.5, 1.5]]))",
        f"jax.grad(lambda p: {RGI}({g2}, {v2})(p).sum())(jnp.array([[0.5, 0.25], [1.5, 1.5]]))",
        f"jax.grad(lambda v: {RGI}({g2}, v)(jnp.array([[0.5, 0.25]])).sum())({v2})",
        f"{RGI}((jnp.array([0.0, 1.0]), jnp.array([0.0, 1.0]), jnp.array([0.0, 1.0])), jnp.arange(8.0).reshape(2, 2, 2))(jnp.array([[0.5, 0.5, 0.5], [0.0, 1.0, 0.25]]))",
        f"{RGI}((jnp.array([0.0, 1.0, 3.0]), jnp.array([0.0, 0.5, 1.0, 2.0])), jnp.arange(12).reshape(3, 4))(jnp.array([[0.5, 0.25]])).dtype",
    ]
    mc = "jsp.ndimage.map_coordinates"
    img = "(jnp.arange(20.0).reshape(4, 5) ** 1.5 % 7)"
    c += [
        f"jax.jit(lambda im, c: {mc}(im, c, order=1))({img}, [jnp.array([0.5, 2.2]), jnp.array([1.5, 3.9])])",
        f"jax.vmap(lambda im: {mc}(im, [jnp.array([0.5, 2.2]), jnp.array([1.5, 3.9])], order=1))(jnp.stack([{img}, -{img}]))",
        f"jax.grad(lambda im: {mc}(im, [jnp.array([0.5, 2.2]), jnp.array([1.5, 3.9])], order=1).sum())({img})",
        f"{mc}({img}, jnp.array([[0.5, 2.2], [1.5, 3.9]]), order=1)",
        f"{mc}({img}, (jnp.array([0.5, 2.2]), jnp.array([1.5, 3.9])), order=0, mode='nearest')",
        f"{mc}({img}.astype(jnp.complex64), [jnp.array([0.5, 2.2]), jnp.array([1.5, 3.9])], order=1)",
        f"{mc}({img}, [jnp.array([0.5]), jnp.array([1.5])], order=1, mode='mirror', cval=3.0)",
        f"{mc}({img}, [jnp.array([-0.5, 4.5]), jnp.array([-0.5, 5.5])], order=1, mode='constant', cval=9.0)",
        f"{mc}({img}, [jnp.array([1, 2]), jnp.array([0, 4])], order=1)",
        f"{mc}(jnp.arange(24.0).reshape(2, 3, 4), [jnp.array([0.5]), jnp.array([1.5]), jnp.array([2.5])], order=1)",
        f"{mc}({img}, [jnp.array([0.5]), jnp.array([1.5])], order=2)",
        f"{mc}({img}, [jnp.array([0.5]), jnp.array([1.5, 2.5])], order=1)",
        f"{mc}(jnp.array([True, False, True]), [jnp.array([0.4, 1.6])], order=0)",
    ]
    vq = "jsp.cluster.vq.vq"
    obs = "jnp.array([[1.0, 2.0], [0.5, -1.0], [3.0, 3.0], [2.0, 2.1]])"
    cb = "jnp.array([[1.0, 1.0], [3.0, 3.0], [0.0, -1.0]])"
    c += [
        f"jax.jit({vq})({obs}, {cb})",
        f"jax.vmap({vq}, in_axes=(0, None))(jnp.stack([{obs}, -{obs}]), {cb})",
        f"jax.grad(lambda o: {vq}(o, {cb})[1].sum())({obs})",
        f"{vq}({obs}.astype(jnp.float16), {cb}.astype(jnp.float16))",
        f"{vq}({obs}, {cb}[:1])",
        f"{vq}({obs}, jnp.array([[1.0, 1.0], [1.0, 1.0]]))",
        f"{vq}(jnp.array([[jnp.nan, 1.0]]), {cb})",
        f"{vq}({obs}[:0], {cb})",
    ]
    F = "jsp.fft"
    v = "jnp.array([1.0, 2.0, -1.0, 0.5, 3.0, 0.25])"
    c += [
        f"jax.jit({F}.dct)({v})",
        f"jax.jit({F}.dct, static_argnames=('type', 'norm'))({v}, type=3, norm='ortho')",
        f"jax.grad(lambda a: ({F}.dct(a, norm='ortho') ** 2).sum())({v})",
        f"jax.grad(lambda a: {F}.idct(a, type=2)[1])({v})",
        f"jax.vmap({F}.dct)(jnp.stack([{v}, -{v}]))",
        f"jax.vmap(lambda a: {F}.dctn(a, norm='ortho'))(jnp.ones((2, 3, 4)))",
        f"{F}.dct({v}.astype(jnp.bfloat16)).dtype",
        f"{F}.dct(jnp.array([1, 2, 3], jnp.int8)).dtype",
        f"{F}.dct({v}, n=3)",
        f"{F}.dct({v}, n=0)",
        f"{F}.dct({v}, axis=1)",
        f"{F}.dctn(jnp.ones((2, 3)), axes=(0, 0))",
        f"{F}.dctn(jnp.ones((2, 3, 4)), axes=(-1, 0), norm='ortho')",
        f"{F}.idctn({F}.dctn(jnp.arange(12.0).reshape(3, 4), type=1), type=1)",
        f"{F}.idct({F}.dct({v}, type=4), type=4)",
        f"{F}.dct(jnp.array(2.0))",
    ]
    Rot = "jsp.spatial.transform.Rotation"
    qs = "jnp.array([[0.1, -0.3, 0.5, 0.8], [0.0, 0.0, 0.0, 1.0], [0.6, 0.2, -0.1, -0.7]])"
    c += [
        f"{Rot}.from_quat({qs}).as_quat(canonical=True, scalar_first=True)",
        f"{Rot}.from_quat(jnp.array([1.0, 0.0, 0.0, 0.0]), scalar_first=True).as_matrix()",
        f"{Rot}.from_euler('zyx', jnp.array([90.0, 0.0, 0.0]), degrees=True).apply(jnp.array([1.0, 0.0, 0.0]))",
        f"{Rot}.from_euler('xyz', jnp.array([0.0, jnp.pi / 2, 0.0])).as_euler('xyz')",
        f"{Rot}.from_euler('zxz', jnp.array([0.3, 0.4, 0.5])).as_euler('zxz')",
        f"{Rot}.from_euler('ZXZ', jnp.array([[0.3, 0.4, 0.5], [1.0, 2.0, -1.0]])).as_euler('ZXZ', degrees=True)",
        f"{Rot}.from_rotvec(jnp.array([0.0, 0.0, 0.0])).as_quat()",
        f"{Rot}.from_rotvec(jnp.array([1e-9, 0.0, 0.0])).as_matrix()",
        f"{Rot}.from_mrp(jnp.array([0.0, 0.0, 1.0])).as_quat()",
        f"{Rot}.from_quat({qs}).as_rotvec(degrees=True)",
        f"{Rot}.from_quat({qs})[0].magnitude()",
        f"{Rot}.from_quat({qs})[jnp.array([2, 0])].as_quat()",
        f"{Rot}.from_quat({qs}).single",
        f"{Rot}.from_quat({qs}[0]).single",
        f"{Rot}.from_quat({qs}[0])[0]",
        f"len({Rot}.from_quat({qs}[0]))",
        f"{Rot}.from_quat({qs}).apply(jnp.arange(9.0).reshape(3, 3))",
        f"({Rot}.from_quat({qs}) * {Rot}.from_quat({qs}[0])).as_quat()",
        f"({Rot}.from_quat({qs}[:2]) * {Rot}.from_quat({qs}))",
        f"jax.jit(lambda q: {Rot}.from_quat(q).as_matrix())({qs})",
        f"jax.jit(lambda q: {Rot}.from_quat(q).apply(jnp.array([1.0, 2.0, 3.0])))({qs}[0])",
        f"jax.grad(lambda a: {Rot}.from_euler('xyz', a).as_quat().sum())(jnp.array([0.1, 0.2, 0.3]))",
        f"jax.vmap(lambda r: {Rot}.from_rotvec(r).as_euler('xyz'))(jnp.array([[0.1, 0.2, 0.3], [1.0, -0.5, 0.25]]))",
        f"{Rot}.from_rotvec(jnp.array([0.1, 0.2, 0.3], jnp.float16)).as_quat().dtype",
        f"{Rot}.from_matrix(jnp.eye(3, dtype=jnp.int32)).as_quat()",
        f"{Rot}.from_matrix(jnp.ones((2, 2)))",
        f"{Rot}.from_rotvec(jnp.ones(4))",
        f"{Rot}.from_mrp(jnp.ones((2, 4)))",
    ]
    Sl = "jsp.spatial.transform.Slerp"
    c += [
        f"{Sl}.init(jnp.array([0.0, 2.0]), {Rot}.from_euler('z', jnp.array([0.0, jnp.pi / 2])))(jnp.array([0.0, 1.0, 2.0])).as_euler('xyz')",
        f"{Sl}.init(jnp.array([0.0, 1.0, 3.0]), {Rot}.from_quat({qs})).times",
        f"jax.jit(lambda t: {Sl}.init(jnp.array([0.0, 1.0, 3.0]), {Rot}.from_quat({qs}))(t).as_quat())(jnp.array([0.5, 2.5]))",
        f"jax.grad(lambda t: {Sl}.init(jnp.array([0.0, 1.0, 3.0]), {Rot}.from_quat({qs}))(t).as_quat().sum())(0.5)",
        f"{Sl}.init(jnp.array([1.0, 0.0]), {Rot}.from_quat({qs}[:2]))(jnp.array([0.5])).as_quat()",
        f"{Sl}.init(jnp.array([[0.0, 1.0]]), {Rot}.from_quat({qs}[:2]))",
    ]
    S = "jsp.sparse.linalg"
    M = "SU_A"
    b = "jnp.array([1.0, -2.0, 0.5])"
    for f in ("cg", "gmres", "bicgstab"):
        c += [
            f"jax.vmap(lambda bb: {S}.{f}({M}, bb)[0])(jnp.stack([{b}, 2 * {b}]))",
            f"jax.vmap(lambda a: {S}.{f}(a, {b})[0])(jnp.stack([{M}, {M} + jnp.eye(3)]))",
            f"{S}.{f}({M}, {b}, tol=0.5, maxiter=1)[0]",
            f"{S}.{f}({M}, jnp.zeros(3))[0]",
            f"{S}.{f}({M}.astype(jnp.float16), {b}.astype(jnp.float16))[0].dtype",
            f"{S}.{f}({M}, jnp.array([1, 2, 3]))[0]",
            f"{S}.{f}(lambda v: {M} @ v, {b}, x0=jnp.ones(4))",
            f"{S}.{f}(lambda v: {{'a': v['a'] * 2.0}}, {{'a': {b}}}, x0={{'a': jnp.zeros(3)}})[0]",
            f"jax.grad(lambda a: {S}.{f}(a, {b})[0].sum())({M})",
            f"{S}.{f}({M}, {b})[1] is None",
            f"{S}.{f}({M}, {b}, M={M})[0]",
        ]
    return c


def cases() -> list[str]:
    return _optimize() + _linalg() + _signal() + _misc()
