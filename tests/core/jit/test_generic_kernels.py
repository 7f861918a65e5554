"""Shape-generic kernels: a program split into kernels takes its sizes (and float literals) as
arguments, so another batch size generates the same kernel sources and compiles nothing new,
and the results are those of the numpy back end.

`CASES` covers every kind of lowering rule that runs in kernels (fused loops with broadcasts and
reductions, views, GEMMs, dynamic indexing, sorting, cumulative ops, control flow,
decompositions); convolutions and pooling (`rules/conv.py`, `rules/windows.py`, which call
library functions with their sizes) are tested in `tests/core/backends/numba/test_library.py`.
"""

import logging
import sys
import uuid

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.backends.llvm import rewrite as lean_rewrite
from core.backends.numba.generic import Params, Size
from core.config import config
from core.jit import codegen, disk_cache, loops, program
from core.prims.sum_order import ynn_sum
from tests.core.jit.backends import split_kernels


def _x(b, *shape):
    """A float32 batch of `b` rows of `shape`, distinct values."""
    n = b * int(np.prod(shape))
    return (np.sin(np.arange(n, dtype=np.float32) * 0.7) * 3).reshape(b, *shape)


def _scan(x):
    def body(c, row):
        c = c * 0.5 + row
        return c, jnp.sum(c * c)

    return lax.scan(body, jnp.zeros(x.shape[1:], x.dtype), x)


def _while(x):
    return lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 0.5 + 1.0), (0, x))[1]


# name -> (function of the args, args at batch b)
CASES = {
    "bias_tanh": (lambda x, b: jnp.tanh(x + b) * 0.25, lambda n: (_x(n, 4), _x(1, 4)[0])),
    "reductions": (
        lambda x: (x.sum(axis=1), jnp.max(x, axis=0), jnp.min(x, axis=(0, 2))),
        lambda n: (_x(n, 4, 3),),
    ),
    "mean": (lambda x: (x.mean(), x.mean(axis=0), jnp.var(x, axis=1)), lambda n: (_x(n, 5),)),
    "argmax": (lambda x: (jnp.argmax(x, axis=1), jnp.argmin(x, axis=0)), lambda n: (_x(n, 4),)),
    "dot": (lambda x, w: jnp.tanh(x @ w), lambda n: (_x(n, 4), _x(4, 3))),
    "dot_transposed": (lambda x, y: x.T @ y, lambda n: (_x(n, 4), _x(n, 3))),
    "batched_dot": (
        lambda x, y: jnp.einsum("bij,bjk->bik", x, y),
        lambda n: (_x(n, 2, 3), _x(n, 3, 2)),
    ),
    "int_dot": (
        lambda x, w: x @ w,
        lambda n: (_x(n, 3).astype(np.int32), _x(3, 2).astype(np.int32)),
    ),
    "views": (
        lambda x: (x[1:, ::2] * 2.0, jnp.flip(x, 0) + x, x.T * 3.0, x.reshape(-1, 2) + 1.0),
        lambda n: (_x(n, 4),),
    ),
    "pad_concat": (
        lambda x: (jnp.pad(x, ((1, 2), (0, 1))), jnp.concatenate([x, x * 2.0], axis=0)),
        lambda n: (_x(n, 4),),
    ),
    "gather_scatter": (
        lambda x, i, y: (
            x[i],
            x[jnp.arange(x.shape[0]), y],
            x.at[i].add(1.5),
            jnp.take(x, i, axis=0, mode="fill", fill_value=0),
        ),
        lambda n: (
            _x(n, 4),
            (np.arange(n, dtype=np.int32) * 3) % n,
            np.arange(n, dtype=np.int32) % 4,
        ),
    ),
    "dynamic_slices": (
        lambda x, i: (
            lax.dynamic_slice(x, (i, 0), (2, 4)),
            lax.dynamic_slice(x, (0, i), (x.shape[0], 2)),
            lax.dynamic_update_slice(x, x[:2] * 2.0, (i, 0)),
        ),
        lambda n: (_x(n, 4), np.int32(1)),
    ),
    "sorting": (
        lambda x: (jnp.sort(x, axis=0), lax.top_k(x, 2), jnp.cumsum(x, axis=0)),
        lambda n: (_x(n, 4),),
    ),
    "control_flow": (
        lambda x: (
            _scan(x),
            lax.fori_loop(0, 3, lambda i, c: c * 0.5 + x[0], x[1]),
            _while(x),
            lax.cond(x.sum() > 0, lambda v: v * 2.0, lambda v: v - 1.0, x),
        ),
        lambda n: (_x(n, 3),),
    ),
    "iota_select": (
        lambda x: jnp.where(x > 0, x, 0.0) * jnp.arange(x.shape[0], dtype=x.dtype)[:, None],
        lambda n: (_x(n, 4),),
    ),
    "inverse": (
        lambda x: jnp.linalg.inv(x + 4.0 * jnp.eye(2, dtype=x.dtype)),
        lambda n: (_x(n, 2, 2),),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_rule_kind_takes_its_sizes_as_arguments(name):
    f, make = CASES[name]
    three, five = split_kernels(f, make(3)), split_kernels(f, make(5))
    assert three == five
    assert any("rt.ld(sz, " in source for source, _ in three)


def test_sizes_equal_by_chance_stay_separate_arguments():
    """A batch equal to a width (4 rows of 4) gives the kernels of any other batch size."""
    f = lambda x, w: jnp.tanh(x @ w + x.sum(axis=0)) * 0.5  # noqa: E731
    w = _x(4, 4)
    assert split_kernels(f, (_x(4, 4), w)) == split_kernels(f, (_x(6, 4), w))


def test_float_literals_are_arguments_but_zero_and_one_stay_constants():
    f = lambda x: jnp.maximum(x * 0.125 + 1.0, 0.0) / 3.0  # noqa: E731
    ((source, _),) = [k for k in split_kernels(f, (_x(3, 4),)) if "rt.ld(lit, " in k[0]]
    assert "rt.ld(lit, 0)" in source and "rt.ld(lit, 1)" in source
    assert "rt.ld(lit, 2)" not in source  # 1.0 and 0.0 are constants of the source
    assert "np.float32(1.0)" in source and "np.float32(0.125)" not in source


def test_integer_divisors_and_shift_amounts_stay_constants():
    f = lambda x: (x // 7, x << 3, x + 9)  # noqa: E731
    sources = [k[0] for k in split_kernels(f, (np.arange(6, dtype=np.int32).reshape(3, 2),))]
    text = "".join(sources)
    assert "np.int32(7)" in text and "np.int32(3)" in text
    assert "np.int32(9)" not in text and "m_0 = np.int32(rt.ld(sz, " in text


def test_size_arithmetic_writes_expressions_and_keeps_values():
    a, b = Size(6, "n_0"), Size(4, "n_1")
    assert (a * b, a + 2, 3 * a - b, a // 2, a % b) == (24, 8, 14, 3, 2)
    assert str(a * b) == "(n_0 * n_1)" and f"{2 + a}" == "(2 + n_0)"
    assert str(3 * a - b) == "((3 * n_0) - n_1)"
    assert a * 1 is a and 0 + a is a and a * 0 == 0 and type(a * 0) is int
    assert str(-a) == "(0 - n_0)" and int(-a) == -6


def test_one_function_mode_keeps_sizes_as_constants():
    params = Params(generic=False)
    assert params.size(32) == 32 and type(params.size(32)) is int
    assert params.constant(0.5, np.float32) is None
    generic = Params(generic=True)
    assert str(generic.size(32)) == "n_0" and generic.size(1) == 1 and generic.size(0) == 0
    assert generic.constant(0.5, np.float32) == "l_0" and generic.constant(1.0, np.float32) is None
    assert generic.constant(3, np.int32) == "m_0" and generic.constant(True, np.bool_) is None
    assert (
        generic.constant(np.inf, np.float32) is None
        and generic.constant(2**64 - 1, np.uint64) is None
    )


def _all_cases(*args):
    outs, k = [], 0
    for name in sorted(CASES):
        f, make = CASES[name]
        n = len(make(3))
        outs.append(f(*args[k : k + n]))
        k += n
    return outs


def _all_args(n):
    return [a for name in sorted(CASES) for a in CASES[name][1](n)]


def test_a_second_batch_size_compiles_no_kernel_and_matches_numpy(caplog):
    with config.override("jit_kernels", "many"), config.override("jit_compile_workers", 0):
        for n in (3, 5):
            args = _all_args(n)
            caplog.clear()
            before = program.stats()
            with (
                config.override("log_compiles", True),
                caplog.at_level(logging.WARNING, "core.jit"),
            ):
                got = core.tree_util.tree_leaves(core.jit(_all_cases)(*args))
            after = program.stats()
            want = core.tree_util.tree_leaves(core.jit(_all_cases, backend="python")(*args))
            for g, w in zip(got, want, strict=True):
                assert np.asarray(g).dtype == np.asarray(w).dtype
                np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=2e-5, atol=2e-5)
    # batch 5: every kernel was in memory (log_compiles lists each distinct one; a shell's
    # status reads "memory (shell)")
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("kernel ")]
    assert len(lines) > 20 and all(m.split("): ")[1].startswith("memory") for m in lines)
    assert after["kernels"] > before["kernels"]
    assert (after["compiled"], after["loaded"]) == (before["compiled"], before["loaded"])


def test_a_kernel_threaded_at_one_size_serves_the_size_below_the_threshold(monkeypatch):
    """Loops run threaded from `PARALLEL_SIZE` elements on; the serial kernel of a smaller batch
    is the threaded one's twin, and the twin this process holds serves it."""
    # the elementwise loop touches 3 arrays: threaded from 2 * 24 // 3 = 16 elements on
    monkeypatch.setattr(loops, "PARALLEL_SIZE", 24)
    f = core.jit(lambda x, w: jnp.tanh(x @ w) * 2.0 + x.sum(axis=0))
    w = _x(6, 6)
    with config.override("jit_kernels", "many"), config.override("jit_compile_workers", 0):
        big = f(_x(3, 6), w)  # 18 elements: threaded
        kernels = next(iter(f._cache().values())).exe.kernels
        assert any(codegen.threaded(k.source) for k in kernels)
        before = program.stats()
        small = f(_x(2, 6), w)  # 12 elements: serial, the same kernel otherwise
        after = program.stats()
    assert (after["compiled"], after["loaded"]) == (before["compiled"], before["loaded"])
    for got, x in ((big, _x(3, 6)), (small, _x(2, 6))):
        want = np.tanh(x @ w) * 2.0 + x.sum(axis=0)
        np.testing.assert_allclose(np.asarray(got), want, rtol=2e-5, atol=2e-5)


def test_a_bias_gradient_at_half_the_batch_compiles_no_kernel():
    """A Dense layer's bias gradient of 128 x 256 elements (32768; 16384 at half the batch)
    adds in YNNPACK's order at both batch sizes (`core.jit.sum_order._threaded`: 256 elements
    per example), so half the batch runs the first one's kernel (it was threaded at 128 and
    compiled anew at 64: the CNN's second batch)."""
    f = core.jit(lambda x, g: jnp.sum(jnp.where(x > 0, g, 0.0), axis=0))
    with config.override("jit_kernels", "many"), config.override("jit_compile_workers", 0):
        full = f(_x(128, 256), _x(128, 256) * 3.0)
        before = program.stats()
        half = f(_x(64, 256), _x(64, 256) * 3.0)
        after = program.stats()
    for made in ("compiled", "loaded", "shells"):
        assert after[made] == before[made]
    for got, b in ((full, 128), (half, 64)):
        x = _x(b, 256)
        np.testing.assert_array_equal(np.asarray(got), ynn_sum(np.where(x > 0, x * 3.0, 0), (0,)))


def test_a_cold_compile_does_not_rewrite_the_serial_forms_of_threaded_kernels(monkeypatch):
    """A threaded kernel's serial form that no process rewrote was never compiled: looking it
    up (`program._held`) does not rewrite it (a tenth of a second of the LSTM's cold first
    call); the smaller batch that needs it finds the threaded twin all the same."""
    monkeypatch.setattr(loops, "PARALLEL_SIZE", 24)
    k = 3 + uuid.uuid4().int % 1000003  # an exponent no earlier run raised to: new kernels
    rewritten = []
    real = lean_rewrite._rewrite
    monkeypatch.setattr(lean_rewrite, "_rewrite", lambda s, t: rewritten.append(s) or real(s, t))
    f = core.jit(
        lambda x, w: jnp.tanh(x @ w) * 2.0 + lax.integer_pow(jnp.tanh(x), k) - x.sum(axis=0)
    )
    w = _x(6, 6)
    with config.override("jit_kernels", "many"), config.override("jit_compile_workers", 0):
        big = f(_x(3, 6), w)  # 18 elements: threaded
        threaded = [s for s in rewritten if "prange(" in s]
        assert threaded
        assert not {s.replace("prange(", "range(") for s in threaded} & set(rewritten)
        before = program.stats()
        small = f(_x(2, 6), w)  # 12 elements: the serial form
        after = program.stats()
    assert (after["compiled"], after["loaded"]) == (before["compiled"], before["loaded"])
    for got, x in ((big, _x(3, 6)), (small, _x(2, 6))):
        want = np.tanh(x @ w) * 2.0 + np.tanh(x) ** k - x.sum(axis=0)
        np.testing.assert_allclose(np.asarray(got), want, rtol=2e-5, atol=2e-5)


def test_kernels_give_the_one_function_results():
    def f(x, w, b):
        h = jnp.tanh(x @ w + b)
        return (h * 0.3).mean(), jnp.flip(h, 0)[1:] / 3.0, jnp.sort(h, axis=0)

    args = (_x(5, 4), _x(4, 3), _x(1, 3)[0])
    with config.override("jit_kernels", "one"):
        want = core.jit(f)(*args)
    with config.override("jit_kernels", "many"), config.override("jit_compile_workers", 0):
        got = core.jit(f)(*args)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-6, atol=1e-7)


def test_a_new_process_finds_the_threaded_twin_on_disk(monkeypatch):
    """The note a threaded kernel leaves in the disk cache lets a process that needs the serial
    form (a smaller batch) load the threaded one instead of compiling. numba's kernels (lean
    loops and shells off: a kernel with lean threaded nests is a shell, and a new process
    compiles the shell of its serial form, ~0.05 s)."""
    monkeypatch.setattr(loops, "PARALLEL_SIZE", 16)
    k = 3 + uuid.uuid4().int % 1000003  # an exponent no earlier run raised to: new kernels

    def f(x, w):
        t = jnp.tanh(x @ w)
        return t * 3.0 + lax.integer_pow(t * 0.5, k) - x.sum(axis=0)

    w = _x(6, 6)
    with (
        config.override("jit_kernels", "many"),
        config.override("jit_compile_workers", 0),
        config.override("jit_lean_loops", False),
        config.override("jit_lean_shells", False),
    ):
        core.jit(f)(_x(3, 6), w)
        threaded = [k for k in program._compiled if "prange(" in k[0]]
        assert threaded
        for key in threaded:  # a new process holds nothing in memory
            del program._compiled[key]
            program._twins.pop(program._twin_key(key), None)
            for held in [d for d in disk_cache._DISPATCHERS if d[0] == key[0]]:
                del disk_cache._DISPATCHERS[held]
            sys.modules.pop(disk_cache.module_name(key[0]), None)
        before = program.stats()
        got = core.jit(f)(_x(2, 6), w)
        after = program.stats()
    assert after["compiled"] == before["compiled"] and after["loaded"] > before["loaded"]
    x = _x(2, 6)
    t = np.tanh(x @ w)
    np.testing.assert_allclose(np.asarray(got), t * 3.0 + (t * 0.5) ** k - x.sum(axis=0), rtol=2e-5)
