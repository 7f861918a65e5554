"""Loops with large bodies run from Python (`core/jit/host_loops.py`): every loop form gives the
results the interpreter gives, and its body compiles as a program of kernels of its own (the
compile log names them), not inline in one kernel."""

import logging

import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
from core.config import config
from core.jit import host_loops, program

lax = core.lax
RNG = np.random.default_rng(0)
W = (RNG.standard_normal((6, 6)) * 0.4).astype(np.float32)
B = RNG.standard_normal(6).astype(np.float32)
X = RNG.standard_normal((3, 6)).astype(np.float32)
XS = RNG.standard_normal((5, 3, 6)).astype(np.float32)


def _layer(x, w=W, b=B):
    return jnp.tanh(x @ w + b) * 0.5 + x


def _fori_mlp(x):
    return lax.fori_loop(0, 4, lambda i, h: _layer(h) * (1.0 + 0.1 * i), x)


def _scan_pytree(x, xs):
    def step(carry, x_t):
        h = _layer(carry["h"] + x_t)
        return {"h": h, "n": carry["n"] + 1}, (h.sum(), {"row": h[0]})

    return lax.scan(step, {"h": x, "n": jnp.int32(0)}, xs)


def _scan_reverse(x, xs):
    return lax.scan(lambda c, x_t: (_layer(c) - x_t, c), x, xs, reverse=True)


def _scan_empty(x, xs):
    return lax.scan(lambda c, x_t: (_layer(c + x_t), c.sum()), x, xs[:0])


def _scan_pass_through(x, xs):
    # the carry's second part never changes, each x is also a y
    return lax.scan(lambda c, x_t: ((_layer(c[0] + x_t), c[1]), x_t), (x, x * 2), xs)


def _nested(x, xs):
    def outer(c, x_t):
        inner = lax.fori_loop(0, 3, lambda i, h: _layer(h + x_t), c)
        return inner, inner.mean()

    return lax.scan(outer, x, xs)


def _scan_grad(x, xs):
    def loss(w):
        h, _ = lax.scan(lambda c, x_t: (_layer(c + x_t, w), None), x, xs)
        return jnp.sum(h * h)

    return core.grad(loss)(W)


def _scan_vmap(x, xs):
    one = lambda x0, xs0: lax.scan(lambda c, x_t: (_layer(c + x_t), c[0]), x0, xs0)  # noqa: E731
    return core.vmap(one, in_axes=(0, 1))(x, xs)


def _while_data(x):
    # runs until the norm passes a bound: the step count depends on the data
    def body(c):
        i, h = c
        return i + 1, _layer(h) * 1.5

    return lax.while_loop(lambda c: (jnp.sum(c[1] * c[1]) < 1e4) & (c[0] < 50), body, (0, x))


def _fori_traced(x, n):
    return lax.fori_loop(0, n, lambda i, h: _layer(h), x)


CASES = [
    ("fori_loop", _fori_mlp, (X,), "scan"),
    ("scan of pytrees", _scan_pytree, (X, XS), "scan"),
    ("reverse scan", _scan_reverse, (X, XS), "scan"),
    ("scan of no steps", _scan_empty, (X, XS), "scan"),
    ("passed-through carry and ys", _scan_pass_through, (X, XS), "scan"),
    ("scan around a fori_loop", _nested, (X, XS), "scan"),
    ("grad of a scan", _scan_grad, (X, XS), "scan"),
    ("vmap of a scan", _scan_vmap, (X, XS), "scan"),
    ("data-dependent while_loop", _while_data, (X,), "while"),
    ("fori_loop of traced bounds", _fori_traced, (X, np.int32(3)), "while"),
]


@pytest.mark.parametrize(("name", "f", "args", "kind"), CASES, ids=[c[0] for c in CASES])
def test_host_loops_give_the_interpreters_results(name, f, args, kind, monkeypatch, caplog):
    monkeypatch.setattr(host_loops, "MIN_EQNS", 1)  # every loop runs from Python
    monkeypatch.setattr(host_loops, "MIN_WORK", 0)
    want = f(*args)  # eager: the loops interpreted step by step
    with config.override("log_compiles", True), caplog.at_level(logging.WARNING, "core.jit"):
        got = core.jit(f)(*args)
    flat_want, tree_want = core.tree_util.tree_flatten(want)
    flat_got, tree_got = core.tree_util.tree_flatten(got)
    assert tree_got == tree_want
    for g, w in zip(flat_got, flat_want):
        assert np.shape(g) == np.shape(w) and np.asarray(g).dtype == np.asarray(w).dtype
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=2e-5, atol=2e-5)
    # the body compiled as a program of its own, its kernels logged under its name
    assert f"({kind} body)" in caplog.text


@pytest.mark.parametrize("by", ["equations", "lines", "work"])
def test_a_small_scan_stays_one_kernel_and_a_large_one_runs_from_python(by, monkeypatch):
    # the loops here compute 18 elements an equation: a large body of so little work stays
    # inline, where a step costs no kernel calls
    monkeypatch.setattr(host_loops, "MIN_WORK", 10**6 if by == "work" else 0)
    if by == "lines":  # a body of few equations may still be a long kernel (a backward pass)
        monkeypatch.setattr(host_loops, "MIN_EQNS", 10**6)

    def deep(x, xs):
        def step(c, x_t):
            for _ in range(40):
                c = _layer(c + x_t)
            return c, c.sum()

        return lax.scan(step, x, xs)

    def shallow(x, xs):
        return lax.scan(lambda c, x_t: (_layer(c + x_t), c.sum()), x, xs)

    def loops(f):
        kernels = program.split(core.make_jaxpr(f)(X, XS).jaxpr).kernels
        return [host_loops.loop_of(k) is not None for k in kernels if host_loops.size(k.eqns) > 3]

    assert loops(shallow) == [False]
    assert loops(deep) == [by != "work"]


def test_an_lstms_scans_stay_inline():
    # the cell's scans, forward and backward (a few dozen equations, 141 and 178 lines once
    # scan_motion moved the products out), run their steps compiled, chunked by rows
    class Model(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.Dense(4)(nn.RNN(nn.LSTMCell(32))(x)[:, -1])

    model, x = Model(), np.ones((8, 12, 16), np.float32)
    params = model.init(core.random.key(0), x)
    loss = lambda p: jnp.sum(model.apply(p, x) ** 2)  # noqa: E731
    jaxpr = core.make_jaxpr(core.value_and_grad(loss))(params).jaxpr
    kernels = program.split(jaxpr).kernels
    scans = [k for k in kernels if any(e.prim.name == "scan" for e in k.eqns)]
    assert len(scans) == 2
    assert not any(host_loops.loop_of(k) for k in scans)
