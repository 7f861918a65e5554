"""cond/switch, scan (reverse, pytree carries, under grad), fori_loop and while_loop under `jit`
(numba) against the numpy backend; loops stay loops in the generated source."""

import re

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.jit.codegen import compile_jaxpr
from tests.core.jit.backends import compare

rng = np.random.RandomState(0)
X = rng.standard_normal((5, 3)).astype(np.float32)
W = rng.standard_normal((3, 3)).astype(np.float32)


def branches(k, x):
    """cond on a traced predicate (pytree operands, scalar and array outputs), and a switch
    whose index is clamped into range."""
    s = jnp.sum(x)
    a = lax.cond(
        k > 0, lambda t: (t[0] * 2.0, t[1] + 1.0), lambda t: (t[0] - 1.0, t[1] * 3.0), (x, s)
    )
    b = lax.switch(k, [lambda v: jnp.sin(v), lambda v: v @ v.T, lambda v: -v], x[:3])
    c = lax.cond(k == 1, lambda v: v, lambda v: v + 1, k)
    return a, b, c


@pytest.mark.parametrize("k", [-3, 0, 1, 2, 7])
def test_cond_and_switch(k):
    compare(branches, np.int32(k), X)


def scans(x, w):
    """scan forward and reverse with pytree carries, scalar and array ys; lax.map."""

    def body(carry, xt):
        h, (n, acc) = carry
        h = jnp.tanh(h @ w + xt)
        return (h, (n + 1, acc + jnp.sum(h))), (h * 2.0, jnp.max(h))

    init = (jnp.zeros(3, jnp.float32), (jnp.int32(0), jnp.float32(0)))
    fwd = lax.scan(body, init, x)
    rev = lax.scan(body, init, x, reverse=True)
    swap = lax.scan(lambda c, _: ((c[1], c[0]), c[0]), (x[0], x[1]), None, length=3)
    empty = lax.scan(body, init, x[:0])
    return fwd, rev, swap, empty, lax.map(lambda r: r * r, x)


def test_scan():
    compare(scans, X, W)


def loops(x, n):
    """fori_loop with static bounds (a scan) and traced bounds (a while), while_loop."""
    a = lax.fori_loop(0, 4, lambda i, v: v * 0.5 + i, x)
    b = lax.fori_loop(0, n, lambda i, v: v + jnp.sum(v) * 0.01, x)
    c = lax.while_loop(lambda c: c[0] < 100.0, lambda c: (c[0] * 2.0 + 1.0, c[1] + 1), (1.0, 0))
    return a, b, c


def test_fori_and_while_loops():
    compare(loops, X, np.int32(6))


def rnn_loss(w, x):
    def body(h, xt):
        h = jnp.tanh(h @ w + xt)
        return h, jnp.sum(h * h)

    h, ys = lax.scan(body, jnp.ones(3, jnp.float32), x)
    return jnp.sum(ys) + jnp.sum(h)


def test_scan_under_grad():
    got = compare(core.grad(rnn_loss, argnums=(0, 1)), W, X)
    want = core.grad(rnn_loss, argnums=(0, 1))(W, X)
    for g, e in zip(got, want):
        np.testing.assert_allclose(g, np.asarray(e), rtol=1e-5, atol=1e-5)


def test_long_scan_is_one_loop():
    def f(x):
        return lax.scan(lambda c, _: (c * 0.999 + 1.0, c), x, None, length=1000)

    x = np.float32(1.0)
    jaxpr = core.make_jaxpr(f)(x)
    assert [e.prim.name for e in jaxpr.jaxpr.eqns] == ["scan"]
    source = compile_jaxpr(jaxpr).source
    assert source.count("for ") == 1 and "range(1000)" in source
    compare(f, x)


def test_scan_outputs_stored_in_place():
    """A per-step output computed by a loop of the body is stored straight into its row of ys;
    only the one that is also the new carry is copied."""

    def f(x):
        def body(h, xt):
            h2 = jnp.tanh(h * 0.5 + xt)
            return h2, (h2 * 2.0, jnp.exp(xt) + h, h2)

        return lax.scan(body, jnp.zeros(3, jnp.float32), x)

    compare(f, X)
    source = core.jit(f).lower(X).as_text()
    copies = re.findall(r"rt\.st\(ys\d+, it\d+ \* \w+ \+ k\d+", source)
    assert len(copies) == 1, source  # h2, the carry
