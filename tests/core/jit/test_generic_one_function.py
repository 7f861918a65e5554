"""Shape-generic one-function programs: a program jit keeps whole (`jit_kernels="auto"` with at
most 40 kernels, or "one") reads its sizes and literals from arrays bound to it, so a second
batch size finds the function compiled, in this process or on disk, and gives the results of
the numpy back end and of the constant-size reference (`codegen.compile_jaxpr`).
"""

import sys

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.backends.llvm import shells
from core.config import config
from core.jit import codegen, disk_cache, loops, program


def _x(*shape, dtype=np.float32):
    """Distinct values of `shape` (any size, 0 included)."""
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * 0.7) * 3).astype(dtype).reshape(shape)


def _step(x, y, w, b, m):
    """A small train step: dense + softmax cross-entropy (integer labels), its gradient by
    hand, a momentum update with float hyperparameters, a scan over the batch."""
    logits = x @ w + b
    p = jnp.exp(logits - logits.max(axis=1, keepdims=True))
    p = p / p.sum(axis=1, keepdims=True)
    onehot = (y[:, None] == jnp.arange(w.shape[1])[None, :]).astype(x.dtype)
    loss = -(jnp.log(p) * onehot).sum(axis=1).mean()
    g = (p - onehot) / x.shape[0]
    m = 0.9 * m + x.T @ g
    w = w - 0.05 * m
    b = b - 0.05 * g.sum(axis=0)
    carry, rows = lax.scan(lambda c, r: (c * 0.5 + r, (c * r).sum()), jnp.zeros_like(x[0]), x)
    return w, b, m, loss, carry, rows


def _step_args(n):
    return (_x(n, 5), np.arange(n, dtype=np.int32) % 3, _x(5, 3) * 0.1, _x(3), _x(5, 3) * 0.0)


# name -> (function, args at batch n): each compiled as one function
CASES = {
    "train_step": (_step, _step_args),
    # small outputs of one shape are packed into one buffer whose shape is a size variable
    "packed_outputs": (
        lambda x: (x.sum(axis=1), x.max(axis=1), x.sum(axis=0), x.min(axis=0), x.mean()),
        lambda n: (_x(n, 4),),
    ),
    "broadcasts": (
        lambda x, row, col: (x + row, x * col, (x + row[None, :]) - col * row, x[:, :1] * x),
        lambda n: (_x(n, 4), _x(4), _x(n, 1)),
    ),
    "size_arithmetic": (
        lambda x: (
            x[: x.shape[0] // 2 + 1] * 2.0,
            x.reshape(-1)[::3],
            jnp.arange(x.shape[0] * 4, dtype=jnp.int32) // 3 % 5,
            jnp.concatenate([x, x[::-1]], axis=0)[-2:],
        ),
        lambda n: (_x(n, 4),),
    ),
}


def _run(f, args, **kw):
    return [np.asarray(a) for a in core.tree_util.tree_leaves(core.jit(f, **kw)(*args))]


def _check(got, want, exact=False):
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert (g.shape, g.dtype) == (w.shape, w.dtype)
        if exact:
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g, w, rtol=2e-6, atol=2e-6)


@pytest.fixture
def one_function():
    with config.override("jit_kernels", "one"), config.override("jit_compile_workers", 0):
        yield


def _compiled(f, args) -> str:
    """The source of the one function jit compiled for `f` on `args`."""
    jitted = core.jit(f)
    jitted(*args)
    entry, _ = jitted._entry(args, {})
    assert len(entry.exe.kernels) == 1
    return entry.exe.source


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_second_batch_size_compiles_nothing_and_matches_numpy(one_function, name):
    f, make = CASES[name]
    source = _compiled(f, make(3))
    assert "rt.ld(sz, " in source
    for n in (5, 2):
        before = program.stats()
        got = _run(f, make(n))
        after = program.stats()
        assert after["kernels"] == before["kernels"] + 1
        assert (after["compiled"], after["loaded"]) == (before["compiled"], before["loaded"])
        _check(got, _run(f, make(n), backend="python"))
        assert _compiled(f, make(n)) == source


@pytest.mark.parametrize("name", sorted(CASES))
def test_results_equal_the_constant_size_reference(one_function, name):
    """The constant-size function (`codegen.generate`, sizes and literals in the source) gives
    the same values (to rounding: LLVM may order a reduction differently when it knows its
    trip count)."""
    f, make = CASES[name]
    args = make(4)
    jaxpr = core.make_jaxpr(f)(*args).jaxpr
    reference = codegen.compile_jaxpr(jaxpr)
    assert "rt.ld(sz, " not in reference.source
    leaves = core.tree_util.tree_leaves(args)
    _check(_run(f, args), reference(*leaves))


def test_size_one_and_empty_axes_are_structure(one_function):
    """0 and 1 stay literals of the source (a broadcast axis, a loop that never runs decide
    the code), so batches 1 and 0 get functions of their own, with the right values."""
    f = lambda x, b: (jnp.tanh(x + b) * 0.5, x.sum(axis=0), x.sum(axis=1))  # noqa: E731
    b = _x(4)
    sources = {n: _compiled(f, (_x(n, 4), b)) for n in (3, 1, 0, 6)}
    assert sources[3] == sources[6]
    assert len({sources[3], sources[1], sources[0]}) == 3
    for n in (1, 0):
        _check(_run(f, (_x(n, 4), b)), _run(f, (_x(n, 4), b), backend="python"))


def test_integer_division_by_a_size_keeps_its_divisor_constant(one_function):
    """The divisor of an integer division stays a constant (a multiplication then): an integer
    mean over the batch is one function per batch size, with the right values."""
    f = lambda i: (i.sum(axis=0) // i.shape[0], i * 3)  # noqa: E731
    i3, i5 = _x(3, 2, dtype=np.int32), _x(5, 2, dtype=np.int32)
    assert _compiled(f, (i3,)) != _compiled(f, (i5,))
    for i in (i3, i5):
        _check(_run(f, (i,)), _run(f, (i,), backend="python"), exact=True)


def test_a_new_process_loads_the_function_of_another_batch_size(one_function):
    """What the disk cache holds for batch 3 serves batch 5 in a process that holds nothing
    (this one, after dropping what it holds): numba's function, or its shell
    (`core/backends/llvm/shells.py`)."""
    f = lambda x, w: (jnp.tanh(x @ w) * 1.75).sum(axis=0) + 0.375  # noqa: E731
    w = _x(4, 3)
    source = _compiled(f, (_x(3, 4), w))
    for key in [k for k in program._compiled if k[0] == source]:
        del program._compiled[key]
    for held in [d for d in disk_cache._DISPATCHERS if d[0] == source]:
        del disk_cache._DISPATCHERS[held]
    sys.modules.pop(disk_cache.module_name(source), None)
    shells._LOADED.clear()
    # an earlier test's quick-tier shells may still be swapping in their optimized twins, which
    # loads shells too: let them finish before counting
    program.wait_optimized()
    before = program.stats(), shells.stats()
    got = _run(f, (_x(5, 4), w))
    after = program.stats(), shells.stats()
    compiled, loaded = (
        [a[k] - b[k] for a, b in zip(after, before)] for k in ("compiled", "loaded")
    )
    assert compiled == [0, 0] and sum(loaded) == 1
    _check(got, [(np.tanh(_x(5, 4) @ w) * 1.75).sum(axis=0) + 0.375])


def test_a_function_threaded_at_one_size_serves_the_smaller_serial_size(one_function, monkeypatch):
    """Loops run threaded from `PARALLEL_SIZE` elements on: the serial function of a smaller
    batch is the threaded one's twin, which serves it."""
    monkeypatch.setattr(loops, "PARALLEL_SIZE", 16)
    f = lambda x: jnp.tanh(x * 1.25) + x.sum(axis=0)  # noqa: E731
    assert codegen.threaded(_compiled(f, (_x(4, 6),)))  # 24 elements: threaded
    before = program.stats()
    got = _run(f, (_x(2, 6),))  # 12 elements: serial
    after = program.stats()
    assert (after["compiled"], after["loaded"]) == (before["compiled"], before["loaded"])
    _check(got, [np.tanh(_x(2, 6) * 1.25) + _x(2, 6).sum(axis=0)])
