"""Loop nests (core/jit/loops.py) that run on numba's pool: reductions that keep the outer
loop dimension run it threaded, reductions over it run in chunks with partial results, and
both give numpy's values (monkeypatched `PARALLEL_SIZE`: small arrays take the large-loop
path)."""

import numpy as np
import pytest

from core.api import make_jaxpr
from core.config import config
from core.jit import codegen, loops, threads
from core.jit.codegen import compile_jaxpr, generate
from core.prims import elementwise as ew
from core.prims import reductions, shapes

rng = np.random.default_rng(0)


def _reductions(x, i):
    """Sums, extrema and a product over the outer axis, the inner one, all axes and the middle
    one kept (of a 3-d view), integer sums; one loop nest each, several per kernel."""
    y = ew.mul(x, x)
    x3 = shapes.reshape(x, (40, 3, 5))
    return (
        reductions.reduce_sum(y, (0,)),
        reductions.reduce_max(x, (0,)),
        reductions.reduce_prod(ew.add(ew.mul(x, ew.full_like(x, 1e-3)), ew.full_like(x, 1)), (0,)),
        reductions.reduce_sum(x, (0, 1)),
        reductions.reduce_min(x3, (0, 2)),
        reductions.reduce_sum(y, (1,)),
        reductions.reduce_sum(i, (0,)),
    )


def _want(x, i):
    return (
        (x * x).sum(0),
        x.max(0),
        (x * np.float32(1e-3) + 1).prod(0),
        x.sum(),
        x.reshape(40, 3, 5).min((0, 2)),
        (x * x).sum(1),
        i.sum(0, dtype=np.int32),
    )


@pytest.mark.parametrize("size", [64, 1 << 40])
def test_reductions_threaded_or_chunked_give_numpys_values(monkeypatch, size):
    monkeypatch.setattr(loops, "PARALLEL_SIZE", size)
    x = rng.standard_normal((40, 15)).astype(np.float32)
    i = rng.integers(-9, 9, (40, 15)).astype(np.int32)
    closed = make_jaxpr(_reductions)(x, i)
    f = compile_jaxpr(closed.jaxpr)
    for got, want in zip(f(x, i), _want(x, i), strict=True):
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    threaded = size == 64 and threads.num_threads() > 1
    assert codegen.threaded(f.source) == threaded
    assert "for ic in" in f.source  # the outer-axis reductions run in chunks either way


def test_one_chunk_folds_like_the_plain_loop():
    """Below `PARALLEL_SIZE` a chunked nest has one chunk: the plain loop's order of additions,
    so its float sums are those of the kernel built without threads, bit for bit. (XLA's sum
    order off: a float sum in it adds in loops of its own, `core/jit/sum_order.py`.)"""
    x = (rng.standard_normal((600, 7)) * 1e3).astype(np.float32)
    closed = make_jaxpr(lambda x: reductions.reduce_sum(x, (0,)))(x)
    with config.override("jit_xla_sum_order", False):
        chunked = compile_jaxpr(closed.jaxpr)
        assert "for ic in" in chunked.source
        assert "for ic in" not in generate(closed.jaxpr, parallel=False)
    np.testing.assert_array_equal(chunked(x)[0], _serial_sum(x))


def _serial_sum(x):
    out = np.zeros(x.shape[1], np.float32)
    for row in x:
        out += row
    return out
