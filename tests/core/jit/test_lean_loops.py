"""Jitted loops of small bodies (scans with carries and ys, `fori_loop`, `while_loop`, under
`grad` and `vmap`, with LAPACK and random bits in their steps) compile through the lean back
end: every kernel of the program is a shell (`core/backends/llvm/shells.py`), with numba's
bits; what the shell translator does not lower stays numba's kernel, and says why."""

import functools
import logging
import weakref

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax, random
from core.config import config
from core.jit import program

RNG = np.random.default_rng(3)
XS = RNG.standard_normal((9, 3)).astype(np.float32)
W = RNG.standard_normal((3, 3)).astype(np.float32) * 0.5
SPD = (W @ W.T + 2 * np.eye(3)).astype(np.float32)
V = RNG.standard_normal(3).astype(np.float32)


def _rnn(w, xs):
    def step(h, x):
        h = jnp.tanh(h @ w + x)
        return h, jnp.sum(h * h)

    h, ys = lax.scan(step, jnp.zeros(3), xs)
    return jnp.sum(h) + jnp.mean(ys)


def _kalman(q, ys):
    f = jnp.array([[1.0, 0.5], [0.0, 1.0]])

    def step(carry, y):
        m, p, ll = carry
        m, p = f @ m, f @ p @ f.T + q * jnp.eye(2)
        s = p[0, 0] + 0.5
        ll = ll - 0.5 * (y - m[0]) ** 2 / s - 0.5 * jnp.log(s)
        k = p[:, 0] / s
        return (m + k * (y - m[0]), p - jnp.outer(k, p[0]), ll), m

    (_, _, ll), ms = lax.scan(step, (jnp.zeros(2), jnp.eye(2), 0.0), ys)
    return ll + 0.1 * jnp.sum(ms)


def _solves(a, xs):
    def step(c, x):
        c = jnp.linalg.solve(a + jnp.diag(x * x), c + x)
        l = jnp.linalg.cholesky(a + jnp.outer(x, x))
        return c, jnp.linalg.inv(l)[0]

    c, ys = lax.scan(step, jnp.ones(3), xs)
    return jnp.sum(c) + jnp.sum(ys)


def _decompositions(a, xs):
    def step(c, x):
        w, v = jnp.linalg.eigh(a + jnp.diag(x), UPLO="U")
        q, r = jnp.linalg.qr(a[:, :2] * c[0] + v[:, :2])
        u, s, vh = jnp.linalg.svd(r + x[:2, None])
        return c + w * s[0] + jnp.linalg.svd(q, compute_uv=False)[1], u @ vh + v[0, 0]

    c, ys = lax.scan(step, jnp.ones(3), xs)
    return c, ys


def _leapfrog(w, v):
    def body(_, wp):
        w, p = wp
        p = p - 0.1 * core.grad(lambda w: jnp.sum(jnp.cosh(w)))(w)
        return w + 0.1 * p, p

    return lax.fori_loop(0, 5, body, (w, v))


def _newton(x0):
    def cond(c):
        x, k = c
        return (jnp.abs(x * x - 2.0) > 1e-6) & (k < 20)

    return lax.while_loop(
        cond, lambda c: (c[0] - (c[0] ** 2 - 2.0) / (2 * c[0]), c[1] + 1), (x0, 0)
    )


def _shrink(w, v):
    def cond(c):
        x, k = c
        return (jnp.max(jnp.abs(x)) > 0.01) & (k < 50)

    return lax.while_loop(cond, lambda c: (jnp.tanh(c[0] @ w) * 0.8, c[1] + 1), (v, 0))


def _langevin(key, x):
    def body(t, x):
        z = random.normal(random.fold_in(key, t), x.shape)
        return x - 0.01 * x + 0.1 * z

    return lax.fori_loop(0, 4, body, x)


CASES = {
    "scan_carry_ys": (_rnn, (W, XS)),
    "scan_grad": (core.grad(_rnn, argnums=(0, 1)), (W, XS)),
    "scan_vmap": (core.vmap(_rnn, in_axes=(None, 0)), (W, np.stack([XS, XS[::-1]]))),
    "scan_reverse": (
        lambda xs: lax.scan(lambda c, x: (c * 0.5 + x, c), 1.0, xs, reverse=True),
        (XS[:, 0],),
    ),
    "kalman_value_and_grad": (core.value_and_grad(_kalman), (np.float32(0.3), XS[:, 0])),
    "lapack_in_scan": (_solves, (SPD, XS)),
    "lapack_in_scan_grad": (core.grad(_solves), (SPD, XS)),
    "eigh_qr_svd_in_scan": (_decompositions, (SPD, XS[:4])),
    "fori_grad_in_body": (_leapfrog, (V, V[::-1].copy())),
    "fori_vmap": (core.vmap(_leapfrog), (np.stack([V, -V]), np.stack([V, V]))),
    "random_in_fori": (_langevin, (random.PRNGKey(2), XS[:2])),
    "scan_scalar_dot_and_0d_view": (
        lambda v, xs: lax.scan(lambda c, x: (c + x @ v, jnp.reshape(c, (1, 1)) @ x[None]), 0.0, xs),
        (V, XS),
    ),
    "while_scalar": (_newton, (np.float32(3.0),)),
    "while_arrays": (_shrink, (W, V)),
    "while_vmap": (core.vmap(_shrink, in_axes=(None, 0)), (W, np.stack([V, 3 * V, V / 9]))),
    "fori_traced_bounds": (
        lambda n, x: lax.fori_loop(0, n, lambda i, x: jnp.sin(x) + i, x),
        (np.int32(4), V),
    ),
}


# Float sums over a loop (`jnp.sum` in the step): a lean nest folds them in the lanes of
# `translate.LANES`, numba's kernel in the order LLVM's vectorizer picks for its reassociable
# adds (`tests/core/backends/llvm/test_rewrite.py`'s REASSOCIATED): within float32 round-off.
SUMMED = {"scan_carry_ys", "scan_grad", "kalman_value_and_grad"}


def _run(f, args, lean: bool, monkeypatch):
    """`f` jitted afresh, compiled anew in this process with the lean back end on (lean
    loops and shells) or off (numba's kernels only): its output leaves and kernels."""
    monkeypatch.setattr(program, "_compiled", weakref.WeakValueDictionary())
    with (
        config.override("jit_lean_loops", lean),
        config.override("jit_lean_shells", lean),
        config.override("jit_compile_workers", 0),
    ):
        jitted = core.jit(lambda *a: f(*a))
        out = [np.asarray(x) for x in core.tree_util.tree_leaves(jitted(*args))]
        infos = jitted.lower(*args).compile()._traced._entry.exe.kernels
    return out, infos


@pytest.mark.parametrize("name", sorted(CASES))
def test_small_loops_are_shells_with_numba_bits(name, monkeypatch):
    f, args = CASES[name]
    want, plain = _run(f, args, False, monkeypatch)
    got, infos = _run(f, args, True, monkeypatch)
    assert not any(i.shell for i in plain)
    assert infos and all(i.shell for i in infos)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert (g.shape, g.dtype) == (w.shape, w.dtype)
        if name in SUMMED:
            np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-7)
        else:
            np.testing.assert_array_equal(g, w)  # the same operations, LAPACK calls and flags


# Rows with ties, NaNs and signed zeros, 1 to 40 long (sorts by insertion and by merges).
ROWS = np.round(RNG.standard_normal((5, 40)) * 2).astype(np.float32)
ROWS[0, ::7], ROWS[1, ::5], ROWS[2, 1::3] = np.nan, -0.0, np.nan
LABELS = RNG.integers(0, 3, (5, 40)).astype(np.int32)


def _total_order(x):
    """The IEEE totalOrder keys of float32 `x` (XLA's TopK order: -nan lowest, -0.0 < 0.0)."""
    b = x.view(np.int32)
    return b ^ ((b >> 31) & np.int32(2**31 - 1))


def _scanned(body):
    """A scan over `xs`' rows whose carry (a row's length) is `body(carry, x)`."""
    return lambda xs: lax.scan(lambda c, x: (body(c, x), None), jnp.zeros(xs.shape[1]), xs)[0]


def _sorted_rows(xs):
    """numpy's stable sort of each row of `xs` after the carry's additions."""
    c = np.zeros(xs.shape[1], xs.dtype)
    for x in xs:
        c = np.sort(np.float32(0.5) * c + x, kind="stable")
    return c


# Constructs whose nests the rewrite turns into the translator's (`core/backends/llvm/
# rewrite.py`: element accesses of arrays of known shape flattened, a sort's argsorts written
# out as a stable merge sort): each program's kernels are shells, with numba's bits and numpy's
# values. name -> (function, arguments, numpy's result)
CONSTRUCTS = {
    "argmax_in_scan": (
        lambda xs: lax.scan(lambda c, x: (c + jnp.argmax(x * c), None), 1, xs)[0],
        (LABELS[:, :6],),
        functools.reduce(lambda c, x: c + np.argmax(x * c), LABELS[:, :6], 1),
    ),
    "argmin_rows_nan": (lambda x: jnp.argmin(x, axis=1), (ROWS,), np.argmin(ROWS, axis=1)),
    "argmax_columns_in_fori": (
        lambda x: lax.fori_loop(0, 3, lambda i, c: c + jnp.argmax(x * i, axis=0), 0 * LABELS[0]),
        (LABELS,),
        sum(np.argmax(LABELS * i, axis=0) for i in range(3)),
    ),
    "cumsum_in_scan": (
        _scanned(lambda c, x: jnp.cumsum(c * 0.5 + x) / 40),
        (ROWS[3:],),
        np.cumsum(np.cumsum(ROWS[3], dtype=np.float32) / 40 * 0.5 + ROWS[4]) / 40,
    ),
    "cumprod_reverse_int": (
        lambda x: lax.cumprod(x + 1, axis=1, reverse=True),
        (LABELS[:, :9],),
        np.cumprod((LABELS[:, :9] + 1)[:, ::-1], axis=1)[:, ::-1],
    ),
    "sort_in_scan": (
        _scanned(lambda c, x: jnp.sort(0.5 * c + x)),
        (ROWS,),
        _sorted_rows(ROWS),
    ),
    "argsort_rows": (
        lambda x: jnp.argsort(x, axis=1, stable=True),
        (ROWS[:, :17],),
        np.argsort(ROWS[:, :17], axis=1, kind="stable"),
    ),
    "top_k_rows_nan": (
        lambda x: lax.top_k(x, 7)[1],
        (ROWS,),
        np.argsort(~_total_order(ROWS), axis=1, kind="stable")[:, :7],
    ),
    "top_k_in_scan": (
        lambda xs: lax.scan(lambda c, x: (c + lax.top_k(x + c[0], 2)[1], None), LABELS[0, :2], xs)[
            0
        ],
        (LABELS[:, :9],),
        functools.reduce(
            lambda c, x: c + np.argsort(~(x + c[0]), kind="stable")[:2],
            LABELS[:, :9],
            LABELS[0, :2],
        ),
    ),
    "two_key_sort": (
        lambda k, x: lax.sort((k, x), num_keys=2)[1],
        (LABELS, ROWS),
        np.stack([x[np.lexsort((x, k))] for k, x in zip(LABELS, ROWS)]),
    ),
}


@pytest.mark.parametrize("name", sorted(CONSTRUCTS))
def test_loop_constructs_are_shells_with_numba_bits(name, monkeypatch):
    f, args, expected = CONSTRUCTS[name]
    want, plain = _run(f, args, False, monkeypatch)
    got, infos = _run(f, args, True, monkeypatch)
    assert not any(i.shell for i in plain)
    assert infos and all(i.shell for i in infos)
    (g,), (w,) = got, want
    assert (g.shape, g.dtype) == (w.shape, w.dtype)
    np.testing.assert_array_equal(g.reshape(-1).view(np.uint8), w.reshape(-1).view(np.uint8))
    np.testing.assert_allclose(g, expected, rtol=1e-6, atol=1e-7)  # XLA's order of cumsum


def test_unsupported_loop_stays_numba_and_says_why(monkeypatch, caplog):
    """A scan whose step runs a complete QR of a tall matrix (the rule's Householder loops in
    numba's array syntax, which the lean back end does not lower) stays numba's kernel, with
    the same results, and the compile log says which construct kept it there."""

    def f(a, xs):
        step = lambda c, x: (c + jnp.linalg.qr(a[:, :2] + x[:, None], mode="complete")[0][0], None)
        return lax.scan(step, V, xs)[0]

    want, _ = _run(f, (SPD, XS), False, monkeypatch)
    with config.override("log_compiles", True), caplog.at_level(logging.WARNING):
        got, infos = _run(f, (SPD, XS), True, monkeypatch)
    np.testing.assert_array_equal(got[0], want[0])
    assert not all(i.shell for i in infos)
    logged = [r.getMessage() for r in caplog.records if "(numba: " in r.getMessage()]
    assert logged and "its first nest left to numba" in logged[0]
