"""Whole serial kernels as LLVM shells (core/backends/llvm/shells.py) against numba's: the same
results, bit for bit, over a table of kernels and real train steps; the disk cache's
guarantees; kernels a shell cannot lower stay numba's; the GIL is released while one runs."""

import builtins
import threading
import time
import types
import weakref

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.backends.llvm import nests, shells, translate
from core.config import config
from core.jit import cache_files, program

RNG = np.random.default_rng(0)
F32 = RNG.standard_normal((6, 37)).astype(np.float32)
G32 = RNG.standard_normal((37, 5)).astype(np.float32)
F64 = RNG.standard_normal((5, 9))
I32 = RNG.integers(-1000, 1000, (4, 33)).astype(np.int32)
IDX = np.array([0, 5, 2, 40, 5, 1], np.int32)  # 40: out of F32's rows (filled with NaN)

CASES = {
    "elementwise": (lambda x: jnp.tanh(x) * 2.0 - x, (F32,)),
    "reductions": (lambda x: (jnp.sum(x, axis=1), jnp.max(x, axis=0), jnp.mean(x)), (F32,)),
    "matmul": (lambda x, w: jnp.maximum(x @ w + 1.0, 0.0), (F32, G32)),
    "matmul_transposed": (lambda x, w: (x @ w).T @ x, (F32, G32)),
    "reshape": (lambda x: jnp.reshape(x * 3.0, (37, 6)).sum(axis=0), (F32,)),
    "float64": (lambda x: jnp.exp(x) / jnp.sum(jnp.exp(x)), (F64,)),
    "ints": (lambda a: (a * 3 // 7, a % 5, a > 0), (I32,)),
    "gather": (lambda t, i: jnp.take(t, i, axis=0) * 2.0, (F32, IDX)),  # `off += `, `continue`
    "scatter_add": (core.grad(lambda t, i: jnp.sum(jnp.take(t, i, axis=0) ** 2)), (F32, IDX)),
    "softmax_grad": (
        core.grad(lambda x, w: jnp.sum(core.nn.log_softmax(x @ w) ** 2), argnums=(0, 1)),
        (F32, G32),
    ),
}


def _run(f, args, shelled: bool, monkeypatch):
    """`f` jitted afresh as many kernels, with shells on or off, compiled anew in this process:
    its output leaves and its kernels' `KernelInfo`s."""
    monkeypatch.setattr(program, "_compiled", weakref.WeakValueDictionary())
    with (
        config.override("jit_lean_shells", shelled),
        config.override("jit_kernels", "many"),
        config.override("jit_compile_workers", 0),
    ):
        jitted = core.jit(lambda *a: f(*a))
        out = [np.asarray(x) for x in core.tree_util.tree_leaves(jitted(*args))]
        infos = jitted.lower(*args).compile()._traced._entry.exe.kernels
    return out, infos


@pytest.mark.parametrize("name", sorted(CASES))
def test_shell_equals_numba(name, monkeypatch):
    f, args = CASES[name]
    want, plain = _run(f, args, False, monkeypatch)
    got, infos = _run(f, args, True, monkeypatch)
    assert not any(isinstance(i.dispatcher, types.BuiltinFunctionType) for i in plain)
    assert any(isinstance(i.dispatcher, types.BuiltinFunctionType) for i in infos)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert (g.shape, g.dtype) == (w.shape, w.dtype)
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("model", ["mlp", "cnn", "transformer"])
def test_train_step_equals_numba(model, monkeypatch):
    """A real train step's loss, gradients and updated parameters, shells against numba."""
    from bench import compile as bc  # noqa: PLC0415

    build, _ = bc.BUILDERS[model]
    make = build(bc.framework("numbax"))
    outs = []
    for shelled in (False, True):
        step, state, args = make(4)
        monkeypatch.setattr(program, "_compiled", weakref.WeakValueDictionary())
        with (
            config.override("jit_lean_shells", shelled),
            config.override("jit_compile_workers", 0),
        ):
            outs.append([np.asarray(x) for x in core.tree_util.tree_leaves(step(*state, *args))])
    assert len(outs[0]) == len(outs[1]) > 2
    for g, w in zip(outs[1], outs[0]):
        np.testing.assert_array_equal(g, w)


SOURCE = """
import numpy as np
from core.jit import runtime as rt
from core.backends.llvm import nests as ln
_ln0, = ln.load('k', {spec!r})

c_f4_0 = np.float32(0.0)

def kernel(sz, a0):
    n_0 = rt.ld(sz, 0)
    o1 = rt.empty((n_0,), np.float32)
    _ln0((o1, a0, n_0))
    p2 = rt.full((n_0, 2), c_f4_0, np.float32)
    v3 = rt.reshape(p2, (n_0 * 2,))
    return (o1, v3, )
"""
NEST = "for i in range(n_0):\n    rt.st(o1, i, rt.ld(a0, i) * 2.0 + {k})"
PARAMS = (("o1", "a", "float32", True), ("a0", "a", "float32", False), ("n_0", "s", "int64", False))
TYPES = (("<i8", 1), ("<f4", 1))


def _source(k: int) -> str:
    return SOURCE.format(spec=((NEST.format(k=k), PARAMS, True, ()),))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setattr(cache_files, "cache_dir", lambda: tmp_path)
    monkeypatch.setattr(shells, "_LOADED", {})
    return tmp_path


def _check(fn, k: int) -> None:
    x = RNG.standard_normal(7).astype(np.float32)
    out, zeros = fn(np.array([7], np.int64), x)
    np.testing.assert_array_equal(out, np.float32(x * 2.0 + k))
    assert zeros.shape == (14,) and not zeros.any() and zeros.flags.writeable


def test_compiled_once_then_from_disk(cache, monkeypatch):
    before = shells.stats()
    _check(shells.entry(_source(1), TYPES), 1)
    assert shells.stats()["compiled"] == before["compiled"] + 1
    monkeypatch.setattr(shells, "_LOADED", {})  # a new process: the disk cache has it
    _check(shells.entry(_source(1), TYPES), 1)
    assert shells.stats()["loaded"] == before["loaded"] + 1
    assert shells.stats()["compiled"] == before["compiled"] + 1


def test_damaged_entry_is_compiled_again(cache, monkeypatch):
    shells.entry(_source(2), TYPES)
    (path,) = cache.glob("*.shell")
    path.write_bytes(path.read_bytes()[:-20] + b"x" * 20)
    monkeypatch.setattr(shells, "_LOADED", {})
    before = shells.stats()["compiled"]
    _check(shells.entry(_source(2), TYPES), 2)
    assert shells.stats()["compiled"] == before + 1


class _Interrupt(Exception):
    """What a signal handler raised while LLVM compiled (Ctrl-C's KeyboardInterrupt, a test
    harness's SIGALRM timeout)."""


def test_interrupt_while_compiling_is_raised(cache, monkeypatch):
    """A signal arriving while LLVM compiles a shell runs its handler inside the JIT engine's
    callback handing numba the object code; what the handler raised was dropped there, and
    caching the shell failed with numba's "no compiled object yet" (Optax's muon_test stopped
    by its harness's timeout). It is raised from the compile, and the next call compiles the
    shell again and caches it."""
    engine = nests._codegen()._engine._ee
    notify = engine._object_cache_notify

    def interrupted(module, buf):
        if not module.name.startswith("numbax_shell_"):
            return notify(module, buf)
        monkeypatch.setattr(engine, "_object_cache_notify", notify)  # once
        raise _Interrupt

    monkeypatch.setattr(engine, "_object_cache_notify", interrupted)
    with pytest.raises(_Interrupt):
        shells.entry(_source(4), TYPES)
    _check(shells.entry(_source(4), TYPES), 4)
    assert len(list(cache.glob("*.shell"))) == 1


def test_concurrent_writers(cache):
    """Two processes writing one entry at once leave one whole file, which a third reads."""
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    code = (
        "import sys; from pathlib import Path; from core.jit import cache_files as c; "
        "c.cache_dir = lambda: Path(sys.argv[1]); "
        "from core.backends.llvm import shells; "
        f"import numpy as np; f = shells.entry({_source(3)!r}, {TYPES!r}); "
        "print(f(np.array([2]), np.ones(2, np.float32))[0])"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", code, str(cache)], stdout=subprocess.PIPE)
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=300)[0].decode() for p in procs]
    assert all(p.returncode == 0 for p in procs) and all("5." in o for o in outs)
    (path,) = cache.glob("*.shell")
    cache_files.read_verified(path)  # whole and verified


def test_unsupported_kernel_stays_numba(cache, monkeypatch):
    """A kernel with a loop nest the rewrite did not lower (a shell never runs one itself), or
    a statement the translator does not know, has no shell, and says why (in the disk cache
    too, for later processes)."""
    looped = _source(4).replace(
        "    _ln0((o1, a0, n_0))\n", "    for i in range(n_0):\n        rt.st(o1, i, 1.0)\n"
    )
    subscript = _source(4).replace("    _ln0((o1, a0, n_0))\n", "    o1[0] = 1.0\n")
    reasons = {looped: "a loop nest left to numba", subscript: "statement o1[0] = 1.0"}
    for source, reason in reasons.items():
        assert shells.entry(source, TYPES) is None
        assert reason in shells.why_not(source, TYPES)
    assert len(list(cache.glob("*.shell"))) == 2
    monkeypatch.setattr(shells, "_REASONS", {})  # a new process: the disk cache says why
    assert reasons[looped] in shells.why_not(looped, TYPES)
    assert shells.why_not(_source(4), TYPES) is None  # not tried
    with pytest.raises(translate.Unsupported):
        shells.Shell(looped, TYPES, "numbax_shell_test").build()


def test_returned_input_is_a_copy(cache):
    """A kernel returning its input (or a carry, which may view one) returns a copy of it: the
    caller's array is neither aliased nor kept alive by a view without an owner."""
    fn = shells.entry(_source(6).replace("return (o1, v3, )", "return (a0, o1, )"), TYPES)
    x = RNG.standard_normal(7).astype(np.float32)
    same, out = fn(np.array([7], np.int64), x)
    assert same is not x and not np.shares_memory(same, x)
    np.testing.assert_array_equal(same, x)
    np.testing.assert_array_equal(out, np.float32(x * 2.0 + 6))


def test_wrong_arguments_raise_type_error(cache):
    fn = shells.entry(_source(5), TYPES)
    sizes = np.array([4], np.int64)
    for args in [
        (sizes,),
        (sizes, np.ones(4, np.float64)),
        (sizes, np.ones((2, 2), np.float32)),
        (sizes, np.ones(8, np.float32)[::2]),
        (sizes, np.ones(4, ">f4")),
        (sizes, [1.0, 2.0]),
    ]:
        with pytest.raises(TypeError):
            fn(*args)


def test_gil_released(cache):
    """Two threads run a shell at once: the GIL is released around the work (a kernel that
    held it would serialize them and another Python thread could not run meanwhile)."""
    spec = (
        (
            "for j in range(n_0):\n    for i in range(n_0):\n"
            "        rt.st(o1, i, rt.ld(o1, i) * 0.5 + rt.ld(a0, i))",
            PARAMS,
            True,
            (),
        ),
    )
    fn = shells.entry(SOURCE.format(spec=spec), TYPES)
    n = 20000
    args = (np.array([n], np.int64), np.ones(n, np.float32))
    start = time.perf_counter()
    fn(*args)
    alone = time.perf_counter() - start
    ticks = []
    worker = threading.Thread(target=fn, args=args)
    worker.start()
    while worker.is_alive():  # this thread runs Python while the other is in the kernel
        ticks.append(time.perf_counter())
    worker.join()
    assert alone > 0.01 and len(ticks) > 100
    assert builtins.isinstance(fn, types.BuiltinFunctionType)


def test_keys_differ_by_types():
    assert nests.key_of(("shell", "s", TYPES)) != nests.key_of(("shell", "s", TYPES[:1]))


def test_empty_arrays(cache):
    """Sizes of zero allocate (numba's allocator gives an empty array, not a MemoryError)."""
    out, zeros = shells.entry(_source(6), TYPES)(np.array([0], np.int64), np.ones(0, np.float32))
    assert out.shape == (0,) and zeros.shape == (0,)


# Step loops (`rewrite._State`, `Shell._serial`/`_threaded`): scans as shells, threaded over
# chunks of rows (`core/backends/numba/scan_rows.py`) or whole, against numba's kernels.
T, B, H, D = 5, 16, 8, 4
SW = (RNG.standard_normal((H, 4 * H)) * 0.4).astype(np.float32)
SU = (RNG.standard_normal((D, 4 * H)) * 0.4).astype(np.float32)
SB = (RNG.standard_normal((4 * H,)) * 0.1).astype(np.float32)
SX = RNG.standard_normal((T, B, D)).astype(np.float32)


def _lstm_loss(w, u, b, x):
    def body(carry, xt):
        c, h = carry
        z = h @ w + xt @ u + b
        i, f, g, o = (z[:, k * H : (k + 1) * H] for k in range(4))
        c = core.nn.sigmoid(f) * c + core.nn.sigmoid(i) * jnp.tanh(g)
        h = core.nn.sigmoid(o) * jnp.tanh(c)
        return (c, h), h

    zeros = jnp.zeros((x.shape[1], H), jnp.float32)
    _, hs = core.lax.scan(body, (zeros, zeros), x)
    return jnp.sum(hs**2) + jnp.sum(hs[-1])


def _swap_loss(w, u, b, x):
    """Carries that trade places every step, a ys that is a carry, a reverse loop."""

    def body(carry, xt):
        p, q = carry
        return (q, jnp.tanh(p @ w[:, :H] + xt @ u[:, :H] + b[:H])), p

    h = jnp.ones((x.shape[1], H), jnp.float32)
    (p, q), ps = core.lax.scan(body, (h, 0.5 * h), x, reverse=True)
    return jnp.sum(ps * ps) + jnp.sum(p * q)


STEP_CASES = {
    "lstm_grad": core.grad(_lstm_loss, argnums=(0, 1, 2, 3)),
    "swap_grad": core.grad(_swap_loss, argnums=(0, 1, 2, 3)),
    "swap": _swap_loss,
}


def _step_run(f, shelled: bool, threads: int, monkeypatch):
    import numba  # noqa: PLC0415

    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        out, infos = _run(f, (SW, SU, SB, SX), shelled, monkeypatch)
    finally:
        numba.set_num_threads(before)
    return out, infos


@pytest.mark.parametrize("chunked", [True, False])
@pytest.mark.parametrize("name", sorted(STEP_CASES))
def test_step_loops_equal_numba(name, chunked, monkeypatch):
    """Scans as shells give numba's bits, on two threads and on one (which runs the chunks as
    one: the kernel's second sizes): threaded over chunks of rows, or whole (whose kernels
    return their carries, which stays numba's: a carry may be a view of an input)."""
    import numba  # noqa: PLC0415

    from core.backends.numba import scan_rows  # noqa: PLC0415

    monkeypatch.setattr(scan_rows, "MIN_WORK", 0 if chunked else 1 << 40)
    f = STEP_CASES[name]
    threads = (2, 1) if numba.config.NUMBA_NUM_THREADS >= 2 else (1,)
    for n in threads:
        want, _ = _step_run(f, False, n, monkeypatch)
        got, infos = _step_run(f, True, n, monkeypatch)
        threaded = [i for i in infos if "in threaded_range(n" in i.source]
        assert all(i.shell for i in threaded) and bool(threaded) == chunked
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)


def test_step_loops_release_what_they_allocate(monkeypatch):
    """Every array a step loop allocates (each iteration's, the carries' last ones) is
    released: numba's allocator counts as many frees as allocations once the outputs go."""
    from numba.core.runtime import _nrt_python as nrt  # noqa: PLC0415

    from core.backends.numba import scan_rows  # noqa: PLC0415

    monkeypatch.setattr(scan_rows, "MIN_WORK", 0)
    f = core.jit(STEP_CASES["lstm_grad"])
    with config.override("jit_compile_workers", 0):
        f(SW, SU, SB, SX)  # compiled
    enabled = nrt.memsys_stats_enabled()
    nrt.memsys_enable_stats()
    try:
        before = nrt.memsys_get_stats_mi_alloc(), nrt.memsys_get_stats_mi_free()
        for _ in range(3):
            out = f(SW, SU, SB, SX)
        del out
        made = nrt.memsys_get_stats_mi_alloc() - before[0]
        freed = nrt.memsys_get_stats_mi_free() - before[1]
    finally:
        if not enabled:
            nrt.memsys_disable_stats()
    assert made > 3 * 2 * T  # arrays of every iteration of the chunks' loops
    assert made == freed
