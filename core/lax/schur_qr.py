"""The Schur decomposition in numpy: what `lax.linalg.schur` and `scipy.linalg.schur` run on
the host (through `pure_callback`, `core/scipy/linalg.py`), since numpy has no LAPACK `gees`.

* Householder reduction to Hessenberg form, accumulating the transformations;
* real input: Francis's implicit double-shift QR steps on the active window (Golub and Van
  Loan, Algorithm 7.5.1), exceptional shifts every 11 steps, deflation when a subdiagonal
  entry falls below `eps (|h_ii| + |h_i+1,i+1|)`, and each converged 2x2 block brought to
  LAPACK's standard form (`dlanv2`: triangular when its eigenvalues are real, else equal
  diagonals and off-diagonals of opposite signs);
* complex input: single-shift QR steps with Wilkinson shifts, by Givens rotations.

Everything is float64/complex128; callers cast back. The form is a valid Schur form; where
the decomposition is not unique (the order of the eigenvalues, signs of the vectors) it may
differ from LAPACK's.
"""

from __future__ import annotations

import numpy as np


def _house(x: np.ndarray) -> tuple[np.ndarray, float]:
    """v (v[0] = 1) and beta with (I - beta v v^T) x = -sign(x0)|x| e1."""
    alpha = np.linalg.norm(x)
    if alpha == 0.0:
        return np.zeros_like(x), 0.0
    v = x.copy()
    v[0] += alpha * (x[0] / abs(x[0])) if x[0] != 0 else alpha
    beta = 2.0 / np.dot(np.conj(v), v).real
    return v, beta


def _hessenberg(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    h = a.copy()
    n = h.shape[0]
    q = np.eye(n, dtype=h.dtype)
    for k in range(n - 2):
        v, beta = _house(h[k + 1 :, k].copy())
        if beta == 0.0:
            continue
        vc = np.conj(v)
        h[k + 1 :, :] -= beta * np.outer(v, vc @ h[k + 1 :, :])
        h[:, k + 1 :] -= beta * np.outer(h[:, k + 1 :] @ v, vc)
        q[:, k + 1 :] -= beta * np.outer(q[:, k + 1 :] @ v, vc)
        h[k + 2 :, k] = 0.0
    return h, q


def _standardize(h: np.ndarray, z: np.ndarray, i: int) -> None:
    """LAPACK's dlanv2 on the 2x2 block at (i, i): upper triangular if its eigenvalues are
    real, else equal diagonals and off-diagonals of opposite signs."""
    a, b, c, d = h[i, i], h[i, i + 1], h[i + 1, i], h[i + 1, i + 1]
    eps = np.finfo(h.dtype).eps
    if c == 0.0:
        return
    if b == 0.0:  # swap the rows and columns: triangular
        _rotate(h, z, i, 0.0, 1.0)
        h[i + 1, i] = 0.0
        return
    if a - d == 0.0 and np.sign(b) != np.sign(c):
        return
    temp = a - d
    p = 0.5 * temp
    bcmax = max(abs(b), abs(c))
    bcmis = min(abs(b), abs(c)) * np.sign(b) * np.sign(c)
    scale = max(abs(p), bcmax)
    zz = p / scale * p + bcmax / scale * bcmis
    if zz >= 4.0 * eps:  # real eigenvalues: one rotation makes the block triangular
        zz = p + np.copysign(np.sqrt(scale) * np.sqrt(zz), p)
        tau = np.hypot(c, zz)
        _rotate(h, z, i, zz / tau, c / tau)
        h[i + 1, i] = 0.0
        return
    sigma = b + c
    tau = np.hypot(sigma, temp)
    cs = np.sqrt(0.5 * (1.0 + abs(sigma) / tau))
    sn = -(p / (tau * cs)) * (1.0 if sigma >= 0 else -1.0)
    _rotate(h, z, i, cs, sn)  # now equal diagonals
    b, c = h[i, i + 1], h[i + 1, i]
    mean = 0.5 * (h[i, i] + h[i + 1, i + 1])
    h[i, i] = h[i + 1, i + 1] = mean
    if c != 0.0 and b != 0.0 and np.sign(b) == np.sign(c):  # a real pair after all
        sab, sac = np.sqrt(abs(b)), np.sqrt(abs(c))
        tau = 1.0 / np.sqrt(abs(b + c))
        _rotate(h, z, i, sab * tau, sac * tau)
        h[i + 1, i] = 0.0


def _rotate(h: np.ndarray, z: np.ndarray, i: int, cs: float, sn: float) -> None:
    rot = np.array([[cs, -sn], [sn, cs]])
    h[i : i + 2, :] = rot.T @ h[i : i + 2, :]
    h[:, i : i + 2] = h[:, i : i + 2] @ rot
    z[:, i : i + 2] = z[:, i : i + 2] @ rot


def _active_start(h: np.ndarray, hi: int, eps: float, norm: float) -> int:
    """The first row of the unreduced block ending at row `hi`: the nearest negligible
    subdiagonal entry above it is set to zero (0 when there is none)."""
    l = hi
    while l > 0:
        s = abs(h[l - 1, l - 1]) + abs(h[l, l])
        if abs(h[l, l - 1]) <= eps * (s if s != 0.0 else norm):
            h[l, l - 1] = 0.0
            break
        l -= 1
    return l


def real_schur(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`(T, Z)` with `a = Z T Z^T`, `T` quasi upper triangular (standardized 2x2 blocks)."""
    n = a.shape[0]
    h, z = _hessenberg(np.array(a, dtype=np.float64))
    eps = np.finfo(np.float64).eps
    norm = max(np.abs(h).sum(), np.finfo(np.float64).tiny)
    hi, its = n - 1, 0
    while hi > 0:
        l = _active_start(h, hi, eps, norm)
        if l == hi:
            hi, its = hi - 1, 0
            continue
        if l == hi - 1:
            _standardize(h, z, hi - 1)
            hi, its = hi - 2, 0
            continue
        its += 1
        if its > 30 * n:
            raise np.linalg.LinAlgError("Schur decomposition did not converge")
        if its % 11 == 10:  # exceptional shift
            s = abs(h[hi, hi - 1]) + abs(h[hi - 1, hi - 2])
            tr, det = 1.5 * s, s * s
        else:
            tr = h[hi - 1, hi - 1] + h[hi, hi]
            det = h[hi - 1, hi - 1] * h[hi, hi] - h[hi - 1, hi] * h[hi, hi - 1]
        x = h[l, l] * h[l, l] + h[l, l + 1] * h[l + 1, l] - tr * h[l, l] + det
        y = h[l + 1, l] * (h[l, l] + h[l + 1, l + 1] - tr)
        w = h[l + 1, l] * h[l + 2, l + 1]
        for k in range(l, hi - 1):
            v, beta = _house(np.array([x, y, w]))
            if beta != 0.0:
                c0 = max(l, k - 1)
                h[k : k + 3, c0:] -= beta * np.outer(v, v @ h[k : k + 3, c0:])
                r = min(k + 4, hi + 1)
                h[:r, k : k + 3] -= beta * np.outer(h[:r, k : k + 3] @ v, v)
                z[:, k : k + 3] -= beta * np.outer(z[:, k : k + 3] @ v, v)
            x = h[k + 1, k]
            y = h[k + 2, k]
            if k < hi - 2:
                w = h[k + 3, k]
        v, beta = _house(np.array([x, y]))
        if beta != 0.0:
            h[hi - 1 : hi + 1, hi - 2 :] -= beta * np.outer(v, v @ h[hi - 1 : hi + 1, hi - 2 :])
            h[: hi + 1, hi - 1 : hi + 1] -= beta * np.outer(h[: hi + 1, hi - 1 : hi + 1] @ v, v)
            z[:, hi - 1 : hi + 1] -= beta * np.outer(z[:, hi - 1 : hi + 1] @ v, v)
        for j in range(l + 2, hi + 1):  # keep the Hessenberg form exact
            h[j, l : j - 1] = 0.0
    return np.triu(h, -1), z


def complex_schur(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`(T, Z)` with `a = Z T Z^H`, `T` upper triangular."""
    n = a.shape[0]
    h, z = _hessenberg(np.array(a, dtype=np.complex128))
    eps = np.finfo(np.float64).eps
    norm = max(np.abs(h).sum(), np.finfo(np.float64).tiny)
    hi, its = n - 1, 0
    while hi > 0:
        l = _active_start(h, hi, eps, norm)
        if l == hi:
            hi, its = hi - 1, 0
            continue
        its += 1
        if its > 30 * n:
            raise np.linalg.LinAlgError("Schur decomposition did not converge")
        a_, b_, c_, d_ = h[hi - 1, hi - 1], h[hi - 1, hi], h[hi, hi - 1], h[hi, hi]
        if its % 11 == 10:
            mu = d_ + abs(c_)
        else:
            tr, det = a_ + d_, a_ * d_ - b_ * c_
            disc = np.sqrt(tr * tr / 4 - det)
            e1, e2 = tr / 2 + disc, tr / 2 - disc
            mu = e1 if abs(e1 - d_) < abs(e2 - d_) else e2
        # QR step on the window l..hi with Givens rotations
        x, y = h[l, l] - mu, h[l + 1, l]
        for k in range(l, hi):
            r = np.hypot(abs(x), abs(y))
            if r == 0.0:
                cs, sn = 1.0, 0.0
            else:
                cs, sn = x / r, y / r
            g = np.array([[np.conj(cs), np.conj(sn)], [-sn, cs]])
            c0 = max(l, k - 1)
            h[k : k + 2, c0:] = g @ h[k : k + 2, c0:]
            r_ = min(k + 3, hi + 1)
            h[:r_, k : k + 2] = h[:r_, k : k + 2] @ np.conj(g).T
            z[:, k : k + 2] = z[:, k : k + 2] @ np.conj(g).T
            if k < hi - 1:
                x, y = h[k + 1, k], h[k + 2, k]
        for j in range(l + 2, hi + 1):
            h[j, l : j - 1] = 0.0
    return np.triu(h), z
