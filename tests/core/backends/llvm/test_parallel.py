"""Threaded loop nests without numba's parfors (core/backends/llvm/parallel.py): kernels with
`prange` loops as lean nests and shells against numba's threaded kernels, bit for bit over a
table of kernels, on one and two threads, on numbax's pool and on numba's oneTBB layer (numba's
threaded kernels on both too); every iteration runs once whatever the chunk size; a threaded
nest the translator does not lower keeps the whole kernel numba's."""

import weakref

import numba
import numpy as np
import pytest

import core
import core.numpy as jnp
from core.backends.llvm import pool, shells
from core.backends.llvm.rewrite import rewrite
from core.config import config
from core.jit import cache_files, program

RNG = np.random.default_rng(0)
# large enough for threaded loops (`core.jit.loops.PARALLEL_SIZE`)
X = RNG.standard_normal((384, 640)).astype(np.float32)
W = RNG.standard_normal((640,)).astype(np.float32)
X64 = RNG.standard_normal((256, 512))
I32 = RNG.integers(-1000, 1000, (300, 700)).astype(np.int32)
# sums over the leading axis stay threaded from 1024 elements per index (`core.jit.sum_order`)
XC = RNG.standard_normal((96, 2560)).astype(np.float32)
WC = RNG.standard_normal((2560,)).astype(np.float32)

CASES = {
    "elementwise": (lambda x, w: jnp.tanh(x) * w + 1.0, (X, W)),
    "row_sum": (lambda x, w: jnp.sum(x * w, axis=1), (X, W)),
    "col_sum_chunked": (lambda x, w: jnp.sum(x * 2.0, axis=0) + w, (XC, WC)),
    "full_sum": (lambda x, w: jnp.sum(x) * 2.0 + w, (XC, WC)),
    "softmax": (lambda x, w: core.nn.softmax(x + w, axis=-1), (X, W)),
    "two_outputs": (lambda x, w: (x * 0.9 + w * 0.1, jnp.sqrt(x * x + 1e-8) / (w + 2.0)), (X, W)),
    "float64": (lambda x: jnp.exp(x) / jnp.sum(jnp.exp(x), axis=0), (X64,)),
    "ints": (lambda a: (a * 3 // 7, a % 5, jnp.max(a, axis=1)), (I32,)),
}
# Float sums over a loop: lean nests fold them in the lanes of `translate.LANES`, numba's
# kernels in the order LLVM's vectorizer picks (within float32 rounding of each other).
REASSOCIATED = {"row_sum", "full_sum", "softmax"}


def _run(f, args, lean: bool, threads: int):
    """`f` jitted afresh as many kernels, lean nests on or off, on `threads` threads: its
    output leaves and the source of its kernels."""
    program._compiled = weakref.WeakValueDictionary()
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        with (
            config.override("jit_lean_loops", lean),
            config.override("jit_kernels", "many"),
            config.override("jit_compile_workers", 0),
            config.override("jit_progress", False),
        ):
            jitted = core.jit(lambda *a: f(*a))
            out = [np.asarray(x) for x in core.tree_util.tree_leaves(jitted(*args))]
            source = jitted.lower(*args).compile().as_text()
    finally:
        numba.set_num_threads(before)
    return out, source


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs two threads")
@pytest.mark.parametrize("name", sorted(CASES))
def test_threaded_nests_equal_numba(name, monkeypatch):
    monkeypatch.setattr(program, "_compiled", weakref.WeakValueDictionary())
    f, args = CASES[name]
    want, plain = _run(f, args, False, 2)
    assert "prange(" in plain  # numba's threaded kernels
    with pool.using(True):  # numba's parfors on numbax's pool (`parallel.route_parfors`)
        got, _ = _run(f, args, False, 2)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    first = None
    for threads in (2, 1):
        for on in (True, False):  # numbax's pool, numba's oneTBB layer
            with pool.using(on):
                got, source = _run(f, args, True, threads)
            assert "prange(" not in source and "threaded_range(" in source
            assert len(got) == len(want)
            first = got if first is None else first
            for g, w, g0 in zip(got, want, first):
                assert (g.shape, g.dtype) == (w.shape, w.dtype)
                np.testing.assert_array_equal(g, g0)  # whatever the threads and the pool
                if name in REASSOCIATED:
                    np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-5)
                else:
                    np.testing.assert_array_equal(g, w)


KERNEL = """
import numpy as np
from numba import prange
from core.jit import runtime as rt

def kernel(sz, a0):
    n_0 = rt.ld(sz, 0)
    c_1 = rt.ld(sz, 1)
    o1 = rt.full((n_0,), 0, np.int64)
    dyn2 = rt.dynamic(c_1)
    for i0 in prange(n_0):
        rt.st(o1, i0, rt.ld(o1, i0) + rt.ld(a0, i0))
    rt.dynamic(dyn2)
    return (o1, )
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setattr(cache_files, "cache_dir", lambda: tmp_path)
    monkeypatch.setattr(shells, "_LOADED", weakref.WeakValueDictionary())
    return tmp_path


@pytest.mark.parametrize("n", [0, 1, 7, 1000, 100_003])
@pytest.mark.parametrize("chunk", [0, 1, 3, 4096])
def test_every_iteration_runs_once(cache, n, chunk):
    """The pieces of numba's scheduler cover the loop once, whatever its size and chunk size
    (0: one piece per thread)."""
    types = (("<i8", 1), ("<i8", 1))
    lean = rewrite(KERNEL, types)
    assert "_ln0(" in lean and "prange(" not in lean.split("def kernel")[1]
    fn = shells.entry(lean, types)
    assert fn is not None
    a = np.arange(n, dtype=np.int64) + 1
    (out,) = fn(np.array([n, chunk], np.int64), a)
    np.testing.assert_array_equal(out, a)


def test_threaded_nests_built_from_their_spec(cache, monkeypatch):
    """A process that did not rewrite the kernel (a compile worker, a process whose disk
    cache lost the nests) builds its threaded nests from their spec (`threaded_range`): the
    shell, and numba's kernel of the same lean source (a compile worker given the transformer's
    Adam update stopped taking kernels when it failed)."""
    from core.backends.llvm import nests  # noqa: PLC0415
    from core.jit import codegen  # noqa: PLC0415

    types = (("<i8", 1), ("<i8", 1))
    lean = rewrite(KERNEL, types)
    monkeypatch.setattr(nests, "_MODULES", {})
    monkeypatch.setattr(nests, "_LOADED", {})
    a = np.arange(1000, dtype=np.int64)
    sizes = np.array([1000, 7], np.int64)
    (out,) = shells.entry(lean, types)(sizes, a)
    np.testing.assert_array_equal(out, a)
    (out,) = codegen.compile_source(lean, types)(sizes, a)
    np.testing.assert_array_equal(out, a)


def test_unlowered_threaded_nest_keeps_the_kernel():
    """A kernel with a threaded nest the translator does not lower (a host call) keeps every
    loop numba's: its source is unchanged, serial nests too."""
    source = (
        "def kernel(sz, a0):\n"
        "    n_0 = rt.ld(sz, 0)\n"
        "    o1 = rt.empty((n_0,), np.float32)\n"
        "    for i0 in range(n_0):\n"
        "        rt.st(o1, i0, rt.ld(a0, i0))\n"
        "    for i0 in prange(n_0):\n"
        "        rt.st(o1, i0, hc.call(a0, i0))\n"
        "    return (o1, )\n"
    )
    assert rewrite(source, (("<i8", 1), ("<f4", 1))) == source
