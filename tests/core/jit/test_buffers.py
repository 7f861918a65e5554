"""Buffer reuse (core/jit/buffers.py): a fused loop writes into the array of an input that dies
there, and never into one that is still read, aliased, returned or not the kernel's own."""

import numpy as np

import core
import core.numpy as jnp
from core import lax
from core.api import make_jaxpr
from core.jit.codegen import compile_jaxpr
from tests.core.jit.backends import compare

rng = np.random.default_rng(0)
X = rng.standard_normal((4, 6)).astype(np.float32)
W = rng.standard_normal((6, 6)).astype(np.float32)
B = rng.standard_normal(6).astype(np.float32)
# outputs above `packing.PACK_MAX` elements come back as arrays of their own, not packed rows
XL = rng.standard_normal((40, 32)).astype(np.float32)
WL = rng.standard_normal((32, 32)).astype(np.float32)


def source(f, *args) -> str:
    return compile_jaxpr(make_jaxpr(f)(*args).jaxpr).source


def test_loop_after_a_dot_writes_into_the_dot_result():
    f = lambda x, w, b: jnp.maximum(x @ w + b, 0.0)
    src = source(f, X, W, B)
    assert src.count("rt.empty") == 1  # the dot's result only
    (dot,) = [line.split()[0] for line in src.splitlines() if "rt.empty" in line]
    assert f"rt.st({dot}, " in src
    compare(f, X, W, B)


def test_chain_of_layers_reuses_each_dead_intermediate():
    def f(x, w, b):
        for _ in range(3):
            x = jnp.tanh(x @ w + b)
        return x

    assert source(f, X, W, B).count("rt.empty") == 3  # one per dot, none per loop
    compare(f, X, W, B)


def test_no_reuse_when_the_loop_also_reads_the_array_transposed():
    f = lambda x, w: (lambda d: d + d.T)(x.T @ x @ w)
    xs = rng.standard_normal((6, 6)).astype(np.float32)
    compare(f, xs, W)


def test_no_reuse_of_an_array_read_again_later():
    def f(x, w):
        d = x @ w
        return jnp.exp(d) @ w.T + jnp.sin(d)

    compare(f, X, W)


def test_no_reuse_of_an_array_a_live_reshape_views():
    def f(x, w):
        d = x @ w  # (4, 6)
        r = d.reshape(3, 8)
        e = jnp.exp(d)
        return e, r * 2.0

    compare(f, X, W)


def test_no_reuse_of_outputs_or_arguments():
    def f(x, w):
        d = x @ w
        return d, jnp.maximum(d, 0.0), jnp.exp(x)

    x = XL.copy()
    compare(f, x, WL)
    np.testing.assert_array_equal(x, XL)
    d, r, _ = core.jit(f)(x, WL)
    np.testing.assert_allclose(np.asarray(d), XL @ WL, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(r), np.maximum(XL @ WL, 0), rtol=1e-5)


def test_no_reuse_of_an_array_a_kernel_may_have_returned():
    # cond's results are new names bound to whichever branch's arrays: the branch that passes
    # `d` through makes `out` the same array as `d`, which must survive the loop after.
    def f(p, x, w):
        d = x @ w
        out = lax.cond(p, lambda d: d, lambda d: d * 2.0, d)
        return out, jnp.exp(d)

    assert "for i0" in source(f, True, XL, WL)
    for p in (True, False):
        compare(f, p, XL, WL)


def test_loops_inside_scan_reuse_their_own_arrays_only():
    def f(x, w):
        h = x @ w  # read by every iteration: never overwritten

        def body(c, _):
            c = jnp.tanh(c @ w + h)
            return c, c.sum()

        return lax.scan(body, x, None, length=3)

    src = source(f, X, W)
    assert "for it" in src
    compare(f, X, W)
