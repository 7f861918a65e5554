"""Worker processes compile kernels into the shared disk cache while this process compiles others;
a program whose kernels they built gives the same results."""

import json
import os
import subprocess
import sys
import threading
import time
import uuid

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.backends.llvm import shells
from core.config import config
from core.jit import api, codegen, disk_cache, program, workers


def _kernel(c: float):
    jaxpr = core.make_jaxpr(lambda x: jnp.sin(x) * c + 1.0)(np.ones(5, np.float32)).jaxpr
    return codegen.generate(jaxpr), jaxpr


def test_workers_compile_from_the_back_while_this_process_takes_the_front(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBAX_CACHE_DIR", str(tmp_path))
    base = uuid.uuid4().int % 100003
    kernels = [_kernel(base + k + 0.25) for k in range(3)]
    sources = [src for src, _ in kernels]
    here = []

    def compile_here(src):
        here.append(src)
        deadline = time.monotonic() + 300
        while not disk_cache.is_cached(sources[-1], "kernel") and time.monotonic() < deadline:
            time.sleep(0.2)  # wait until a worker has compiled the last kernel

    def request(src):
        return (src, codegen.in_types(kernels[sources.index(src)][1]), str(tmp_path), False)

    done = workers.compile_in_parallel(sources, request, compile_here, 1)
    assert sources[-1] in done and sources[0] in here
    assert set(done) | set(here) == set(sources) and not set(done) & set(here)
    src, jaxpr = kernels[-1]
    disp = codegen.compile_source(src, codegen.in_types(jaxpr))  # loaded from what the worker wrote
    assert sum(disp.stats.cache_hits.values()) == 1
    x = np.linspace(0, 1, 5, dtype=np.float32)
    np.testing.assert_allclose(disp(x)[0], np.sin(x) * np.float32(base + 2.25) + 1, rtol=1e-6)


def test_a_program_compiled_with_workers_matches_numpy(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBAX_CACHE_DIR", str(tmp_path))
    c = float(uuid.uuid4().int % 100003) + 0.75

    def f(x, w):
        h = jnp.tanh(x @ w) * c
        return jnp.sum(jnp.exp(-h * h)), jnp.maximum(h, 0.0).T

    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    w = np.linspace(0.5, -0.5, 8, dtype=np.float32).reshape(4, 2)
    with config.override("jit_kernels", "many"), config.override("jit_compile_workers", 1):
        got = core.jit(f)(x, w)
    want = core.jit(f, backend="python")(x, w)
    for g, e in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), np.asarray(e), rtol=1e-5, atol=1e-6)
    assert program.stats()["kernels"] > 0


def test_programs_compiled_by_two_threads_share_the_workers(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBAX_CACHE_DIR", str(tmp_path))
    base = float(uuid.uuid4().int % 100003)
    x = np.linspace(-1, 1, 6, dtype=np.float32)
    results = {}

    def run(k):
        c = base + k / 4

        def f(a):
            return jnp.sum(jnp.tanh(a * c)), jnp.exp(-a) * c

        results[k] = core.jit(f)(x)

    threads = [threading.Thread(target=run, args=(k,)) for k in (1, 2)]
    with config.override("jit_kernels", "many"), config.override("jit_compile_workers", 1):
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    for k in (1, 2):
        c = np.float32(base + k / 4)
        np.testing.assert_allclose(np.asarray(results[k][0]), np.sum(np.tanh(x * c)), rtol=1e-5)
        np.testing.assert_allclose(np.asarray(results[k][1]), np.exp(-x) * c, rtol=1e-6)


class _FakeWorker:
    """A worker that "compiles" by recording the request."""

    def __init__(self, log):
        self.log = log

    def wait_started(self):
        pass

    def compile(self, request):
        time.sleep(0.05)
        self.log.append(("worker", request))
        return True, 0.05


class _FailingWorker(_FakeWorker):
    """A worker whose compile of "bad" fails (it stays alive)."""

    def compile(self, request):
        ok, seconds = super().compile(request)
        return request != "bad", seconds


def test_a_worker_goes_on_after_an_item_it_failed(monkeypatch):
    """An item a worker fails is given back to this process, which compiles it; the worker
    goes on with the next items and does not take the failed one again."""
    log = []
    monkeypatch.setattr(workers, "start", lambda size: [_FailingWorker(log)])
    here = []

    def compile_here(item):
        time.sleep(0.2)
        here.append(item)

    items = ["first", "a", "b", "c", "bad"]
    done = workers.compile_in_parallel(items, lambda item: item, compile_here, 1)
    assert [r for _, r in log].count("bad") == 1
    assert "bad" in here and "bad" not in done
    assert set(done) | set(here) == set(items) and len(done) >= 2


def test_an_item_is_taken_after_the_items_it_needs(monkeypatch):
    """Library functions before the kernels calling them: with `after`, neither side takes an
    item before the items it names are done; the worker takes the last ready item."""
    log = []
    monkeypatch.setattr(workers, "start", lambda size: [_FakeWorker(log)])
    after = {"kernel": ("lib_a", "lib_b"), "entry": ("lib_a",)}

    def compile_here(item):
        time.sleep(0.02)
        log.append(("here", item))

    done = workers.compile_in_parallel(
        ["lib_a", "entry", "lib_b", "kernel"],
        lambda item: item,
        compile_here,
        1,
        lambda item: after.get(item, ()),
    )
    order = [item for _, item in log]
    assert sorted(order) == ["entry", "kernel", "lib_a", "lib_b"]
    assert order.index("kernel") > max(order.index("lib_a"), order.index("lib_b"))
    assert order.index("entry") > order.index("lib_a")
    assert ("worker", "lib_b") in log and ("here", "lib_a") in log
    assert set(done) == {item for side, item in log if side == "worker"}


def test_threaded_kernels_run_serial_until_the_workers_built_them(tmp_path, monkeypatch):
    """A new kernel with threaded loops (numba's parallel passes: 3-5x the compile of its
    serial form) is compiled serial for the first call; a compile worker builds the threaded
    one meanwhile, which then replaces it in the program (`program.wait_threaded`). Kernels
    whose threaded loops stay numba's: lean loops off (lean threaded nests compile like serial
    ones, `core/backends/llvm/parallel.py`)."""
    monkeypatch.setenv("NUMBAX_CACHE_DIR", str(tmp_path))
    with config.override("jit_lean_loops", False):
        _threaded_kernels_run_serial_first()


def _threaded_kernels_run_serial_first():
    c = np.float32(uuid.uuid4().int % 100003 + 0.5)
    x = np.linspace(-1, 1, 1 << 18, dtype=np.float32)  # large enough for threaded loops
    f = core.jit(lambda a: jnp.tanh(a) * c / jnp.max(a))  # two kernels

    def want(a):
        return np.tanh(a) * c / np.max(a)

    with config.override("jit_kernels", "many"), config.override("jit_compile_workers", 1):
        got = np.asarray(f(x))
    (entry,) = api._trace_caches[f._fun].values()
    slots = entry.exe.kernel.__globals__
    threaded = [
        (f"k{k}", i.source) for k, i in enumerate(entry.exe.kernels) if "prange(" in i.source
    ]
    assert threaded  # kernels the program is to run threaded

    def running(slot: str) -> tuple:  # the key of the kernel (numba's or a shell) in `slot`
        (key,) = [key for key, fn in program._compiled.items() if fn is slots[slot]]
        return key

    for slot, source in threaded:  # what the first call ran: the serial form (lean nests)
        key = running(slot)
        assert key == program._serial((source, key[1])) and key[0] != source
    program.wait_threaded(300)
    for slot, source in threaded:
        assert running(slot)[0] == source
    np.testing.assert_allclose(got, want(x), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(f(x)), got, rtol=1e-6)


def test_a_forked_child_starts_its_own_workers():
    """The parent's compile workers (their pipes may be in use by its threads) are not the
    child's: a forked child that compiles starts workers of its own."""
    (parent,) = workers.start(1)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        try:
            (own,) = workers.start(1)
            ok = own is not parent and own.proc.pid != parent.proc.pid
            own.wait_started()
            os.write(write, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(write)
    _, status = os.waitpid(pid, 0)
    assert os.read(read, 1) == b"1" and status == 0
    assert workers.start(1) == [parent]


def test_a_worker_asked_for_a_shell_leaves_it_in_the_disk_cache(tmp_path, monkeypatch):
    """A serial kernel that runs as a shell (`core/backends/llvm/shells.py`) is built by a
    worker as that shell, not as numba's kernel: the disk cache then holds what a later
    process looks for (the LSTM step's warm first call compiled the shells of the 9 kernels
    workers had built as numba's, with a worker of its own: 1.8 s instead of 0.3 s)."""
    monkeypatch.setenv("NUMBAX_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(shells, "_LOADED", {})
    c = np.float32(uuid.uuid4().int % 100003 + 0.5)
    jaxpr = core.make_jaxpr(lambda x: jnp.sin(x) * c + 1.0)(np.ones(5, np.float32)).jaxpr
    src, types, extra = program._build(jaxpr, False)
    assert program._shellable((src, types))
    (worker,) = workers.start(1)
    worker.wait_started()
    ok, _ = worker.compile((src, list(types), str(tmp_path), True))
    assert ok and shells.cached(src, types) and not disk_cache.is_cached(src, "kernel")
    before = shells.stats()
    fn = shells.entry(src, types)
    assert shells.stats()["loaded"] == before["loaded"] + 1
    assert shells.stats()["compiled"] == before["compiled"]
    x = np.linspace(-1, 1, 5, dtype=np.float32)
    np.testing.assert_allclose(fn(*extra, x)[0], np.sin(x) * c + 1, rtol=1e-6)


WARM_CHILD = """
import json
import sys
import numpy as np
import pytest
import core
import core.numpy as jnp
from core.backends.llvm import nests, shells
from core.backends.numba.library import entry as library
from core.config import config
from core.jit import program, workers


def loss(a, b, big):
    h = jnp.tanh(a) * b
    s = jnp.sum(h * h, axis=1)
    return jnp.sum(jnp.exp(-s)) + jnp.max(jnp.abs(a)) + jnp.sum(jnp.tanh(big * a[0, 0]))


rng = np.random.default_rng(0)
shapes = ((6, 5), (5,), (1 << 18,))  # `big`: large enough for threaded loops
args = [rng.standard_normal(s).astype(np.float32) for s in shapes]
with config.override("jit_kernels", "many"), config.override("jit_compile_workers", 1):
    if sys.argv[1] == "cold":  # a worker up from the start takes kernels that run as shells
        workers.start(1)[0].wait_started()
    f = core.jit(core.value_and_grad(loss, argnums=(0, 1)))
    first = core.block_until_ready(f(*args))  # its run returned: the workers have the twins
    program.wait_threaded(300)  # the threaded kernels, built after the first call
    again = f(*args)
counts = {
    "workers": len(workers._workers),
    "kernels": program.stats()["compiled"],
    "shells": shells.stats()["compiled"],
    "nests": nests._stats["compiled"],
    "library": library.stats()["compiled"],
}
values = [np.asarray(v).tolist() for v in core.tree_util.tree_leaves((first, again))]
print(json.dumps({"counts": counts, "values": values}))
"""


def test_a_second_process_on_the_disk_cache_compiles_nothing(tmp_path):
    """A new process on the disk cache a first one filled (kernels and shells it and its
    worker built, the threaded kernels and the optimized twins of quick-tier code built after
    the first call) compiles nothing and starts no compile worker, and computes what the first
    process's optimized code computes (its first call may have run quick-tier code, which
    rounds otherwise: `config.jit_quick_first_call`)."""
    env = dict(os.environ, NUMBAX_CACHE_DIR=str(tmp_path), NUMBA_CACHE_DIR=str(tmp_path))

    def run(mode: str) -> dict:
        cmd = [sys.executable, "-c", WARM_CHILD, mode]
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr[-2000:]
        return json.loads(out.stdout.splitlines()[-1])

    cold, warm = run("cold"), run("warm")
    assert cold["counts"]["kernels"] + cold["counts"]["shells"] > 0
    assert warm["counts"] == {"workers": 0, "kernels": 0, "shells": 0, "nests": 0, "library": 0}
    half = len(cold["values"]) // 2  # the leaves of (first, again)
    assert warm["values"][:half] == warm["values"][half:] == cold["values"][half:]


def test_workers_start_before_a_new_whole_program_is_rewritten(tmp_path, monkeypatch):
    """A program kept whole that is new and calls library functions this process has not
    loaded starts its workers before its loop nests are rewritten (they start up meanwhile);
    once its rewrite is in the disk cache (a warm process), it starts none that way."""
    monkeypatch.setenv("NUMBAX_CACHE_DIR", str(tmp_path))
    c = float(uuid.uuid4().int % 100003) + 0.5
    events = []
    monkeypatch.setattr(workers, "start", lambda size: events.append("start") or [])
    lean = codegen.lean
    monkeypatch.setattr(codegen, "lean", lambda *a: events.append("lean") or lean(*a))
    monkeypatch.setattr(program.library, "loaded", lambda attr: False)
    x = np.ones((3, 4), np.float32)
    with config.override("jit_kernels", "one"), config.override("jit_compile_workers", 1):
        jaxpr = core.make_jaxpr(lambda x, w: jnp.tanh(x @ w) * c)(x, x.T)
        prog = program.split(jaxpr.jaxpr)
        program._build_all(prog, True)
        assert events[:2] == ["start", "lean"]
        events.clear()
        monkeypatch.setattr(program.lean_rewrite, "_rewritten", {})  # as a new process
        program._build_all(prog, True)
        assert "start" not in events


def test_a_process_that_started_workers_exits_without_resource_warnings(tmp_path):
    """At exit the workers end and both of their pipes are closed (an open pipe or a running
    child is a ResourceWarning, shown under `python -X dev`)."""
    env = dict(os.environ, NUMBAX_CACHE_DIR=str(tmp_path), NUMBAX_JIT_WORKERS="1")
    code = (
        "import core, core.numpy as jnp\n"
        "from core.jit import workers\n"
        "print(core.jit(lambda x: x * 2)(jnp.ones(3)))\n"
        "assert workers._workers, 'no worker started'\n"
    )
    cmd = [sys.executable, "-W", "always::ResourceWarning", "-c", code]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "ResourceWarning" not in out.stderr, out.stderr[-2000:]


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one CPU: nothing to keep to")
def test_a_worker_started_on_a_thread_kept_to_one_cpu_runs_on_the_process_cpus():
    """A pmap device's thread keeps to one CPU (`core.device_worker`) and may start the
    workers that build a first run's optimized twins; a child inherits its parent thread's
    mask, and the worker is given the process's CPUs back."""
    cpus = os.sched_getaffinity(0)
    start = lambda: workers._Worker()  # noqa: E731
    worker = core.devices()[1].worker.submit(start, cpu=min(cpus)).result(timeout=60)
    try:
        assert os.sched_getaffinity(worker.proc.pid) == cpus
    finally:
        worker.close()
