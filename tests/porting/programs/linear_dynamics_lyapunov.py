"""A continuous-time linear system analysed with matrix functions: stability by eigenvalues,
exact discretisation by the matrix exponential, Lyapunov equations three ways and a
continuous-time LQR cost (ours, in the style of the control-theory notebooks written with
`jax.scipy.linalg`).

A damped two-mass spring system dx/dt = A x + B u. Its eigenvalues come from
`jnp.linalg.eig` (sorted with `jnp.lexsort` on real and imaginary parts, as the order is
LAPACK's), the Schur form from `jax.scipy.linalg.schur` (checked by reconstruction) and the
Hessenberg form likewise. Zero-order-hold discretisation uses `expm` of an augmented block
matrix (`jnp.block`) and Van Loan's method gives the discrete process noise; `funm` with
`jnp.exp` agrees with `expm`. The controllability matrix uses `jnp.linalg.matrix_power` and
`matrix_rank`. The Lyapunov equation A X + X A^T + Q = 0 is solved by `jnp.kron` vectorisation,
by `jax.scipy.linalg.solve_sylvester` and, in discrete time, by a doubling iteration in
`fori_loop`. Also `sqrtm` of the Gramian, the `polar` decomposition, `expm_frechet` against
`jax.jvp` of `expm`, the gradient of the integrated quadratic cost wrt the damping, and
`jnp.linalg.multi_dot`."""

import jax
import jax.numpy as jnp
from jax.scipy.linalg import (
    expm,
    expm_frechet,
    funm,
    hessenberg,
    polar,
    schur,
    solve_sylvester,
    sqrtm,
)


def system(damping=0.3, k=2.0):
    A = jnp.array([[0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0],
                   [-2 * k, k, -damping, 0.0], [k, -k, 0.0, -damping]])  # fmt: skip
    B = jnp.array([[0.0], [0.0], [1.0], [0.0]])
    return A, B


def sorted_eigenvalues(A):
    w = jnp.linalg.eig(A)[0]
    order = jnp.lexsort((jnp.round(w.imag, 4), jnp.round(w.real, 4)))
    return w[order]


def zoh(A, B, dt):
    n, m = B.shape
    block = jnp.block([[A, B], [jnp.zeros((m, n)), jnp.zeros((m, m))]])
    E = expm(block * dt)
    return E[:n, :n], E[:n, n:]


def van_loan(A, Q, dt):
    n = A.shape[0]
    M = jnp.block([[-A, Q], [jnp.zeros((n, n)), A.T]]) * dt
    E = expm(M)
    Ad = E[n:, n:].T
    return Ad, Ad @ E[:n, n:]


def lyapunov_kron(A, Q):
    n = A.shape[0]
    K = jnp.kron(jnp.eye(n), A) + jnp.kron(A, jnp.eye(n))
    return jnp.linalg.solve(K, -Q.reshape(-1, order="F")).reshape(n, n, order="F")


def discrete_lyapunov_doubling(Ad, Qd, iters=12):
    def body(_, state):
        X, M = state
        return X + M @ X @ M.T, M @ M

    return jax.lax.fori_loop(0, iters, body, (Qd, Ad))[0]


def quadratic_cost(damping, x0, horizon=4.0, steps=40):
    A, _ = system(damping)
    Ad = expm(A * horizon / steps)

    def step(x, _):
        x = Ad @ x
        return x, x @ x

    _, costs = jax.lax.scan(step, x0, None, length=steps)
    return costs.sum() * horizon / steps


def run():
    out = {}
    A, B = system()
    w = sorted_eigenvalues(A)
    out["eigenvalues"] = [w.real, w.imag, str(w.dtype), bool(jnp.all(w.real < 0))]
    T, Z = schur(A)
    out["schur"] = [jnp.abs(Z @ T @ Z.T - A).max() < 1e-5, jnp.abs(jnp.tril(T, -2)).max() == 0,
                    jnp.abs(Z.T @ Z - jnp.eye(4)).max() < 1e-5]  # fmt: skip
    H, Qh = hessenberg(A, calc_q=True)
    out["hessenberg"] = [
        jnp.abs(Qh @ H @ Qh.T - A).max() < 1e-5,
        jnp.abs(jnp.tril(H, -2)).max() < 1e-6,
    ]

    dt = 0.1
    Ad, Bd = zoh(A, B, dt)
    out["zoh"] = [Ad, Bd[:, 0], jnp.abs(funm(A * dt, jnp.exp).real - Ad).max() < 1e-4]
    Q = jnp.diag(jnp.array([0.0, 0.0, 0.1, 0.1]))
    Ad2, Qd = van_loan(A, Q, dt)
    out["van_loan"] = [jnp.abs(Ad2 - Ad).max() < 1e-5, Qd]

    ctrb = jnp.concatenate([jnp.linalg.matrix_power(A, i) @ B for i in range(4)], axis=1)
    out["controllability"] = [ctrb, jnp.linalg.matrix_rank(ctrb), jnp.linalg.matrix_power(A, 0)[0]]

    Qc = jnp.eye(4)
    X1 = lyapunov_kron(A, Qc)
    X2 = solve_sylvester(A, A.T, -Qc)
    out["lyapunov"] = [
        X1,
        jnp.abs(X1 - X2).max() < 1e-3,
        jnp.abs(A @ X1 + X1 @ A.T + Qc).max() < 1e-4,
    ]
    Xd = discrete_lyapunov_doubling(Ad, Qd)
    out["discrete_lyapunov"] = [jnp.diag(Xd), jnp.abs(Ad @ Xd @ Ad.T + Qd - Xd).max() < 1e-5]

    gram = X1
    root = sqrtm(gram)
    out["sqrtm"] = [
        root.real.dtype.name,
        jnp.abs(root @ root - gram).max() < 1e-3,
        jnp.diag(root.real),
    ]
    U, P = polar(A + 3 * jnp.eye(4))
    out["polar"] = [P, jnp.abs(U @ U.T - jnp.eye(4)).max() < 1e-5]

    E = jnp.triu(jnp.ones((4, 4))) * 0.01
    expA, frechet = expm_frechet(A * dt, E)
    by_jvp = jax.jvp(expm, (A * dt,), (E,))[1]
    out["frechet"] = [
        frechet[0],
        jnp.abs(frechet - by_jvp).max() < 1e-5,
        jnp.abs(expA - Ad).max() < 1e-5,
    ]

    x0 = jnp.array([1.0, -0.5, 0.0, 0.0])
    cost, dcost = jax.value_and_grad(quadratic_cost)(0.3, x0)
    out["cost"] = [cost, dcost]
    out["multi_dot"] = jnp.linalg.multi_dot([B.T, Ad, Ad, B])
    return out
