"""Parallel kernels and blocked matrix products survive fork() (the child computes, also with
new compiles) and threads."""

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = """
import os, sys, threading
if sys.argv[1] == "no-tbb":  # a platform without a tbb wheel
    from core.jit import fork_safety as _fork_safety
    _fork_safety._load_tbb = lambda: False
import numpy as np
import core.numpy as jnp
from core.jit.api import jit
from core.jit import api, fork_safety
from core.jit import threads as threads_policy
from core.backends.llvm import pool

f = jit(lambda x: jnp.tanh(x) * 2.0 + 1.0)
x = np.linspace(-3, 3, 1 << 18).astype(np.float32)  # large enough for threaded loops
want = np.tanh(x) * 2 + 1
np.testing.assert_allclose(np.asarray(f(x)), want, rtol=1e-5, atol=1e-6)
(entry,) = api._trace_caches[f._fun].values()
# the kernel runs on numba's thread pool (a lean threaded nest, or numba's own prange)
assert "threaded_range(" in entry.exe.source or "prange(" in entry.exe.source
g = jit(lambda a, b: jnp.dot(a, b) + 1.0)  # a product large enough for blocks on the pool
a = np.random.default_rng(0).standard_normal((256, 256)).astype(np.float32)
want_g = a.astype(np.float64) @ a.T + 1
def check_g():
    np.testing.assert_allclose(np.asarray(g(a, a.T)), want_g, rtol=1e-4, atol=1e-3)
check_g()
print(fork_safety.threading_layer(), flush=True)

parents = pool.start()
pid = os.fork()
if pid == 0:  # the child: the parent's kernel, then a new shape (a new parallel kernel)
    try:
        np.testing.assert_allclose(np.asarray(f(x)), want, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(np.asarray(f(x[:200000])), want[:200000], rtol=1e-5, atol=1e-6)
        check_g()
        own = pool.start()  # the child's own pool (on, as the parent's): fresh workers
        assert own is not parents and all(t.is_alive() for t in own.threads)
        assert len(own.threads) == threads_policy.num_threads() - 1
    except BaseException as err:
        print("child failed:", err, flush=True)
        os._exit(1)
    os._exit(0)
_, status = os.waitpid(pid, 0)
print("child status", status, flush=True)

errors = []
def work():
    try:
        for _ in range(5):
            np.testing.assert_allclose(np.asarray(f(x)), want, rtol=1e-5, atol=1e-6)
            check_g()
    except BaseException as err:
        errors.append(err)
threads = [threading.Thread(target=work) for _ in range(3)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("thread errors", len(errors), flush=True)
"""


def _has_tbb() -> bool:
    try:
        importlib.metadata.distribution("tbb")
        return True
    except importlib.metadata.PackageNotFoundError:
        return False


@pytest.mark.parametrize("platform", ["tbb", "no-tbb"])
def test_fork_after_parallel_kernel_then_compute_in_child_and_threads(platform):
    if platform == "tbb" and not _has_tbb():
        pytest.skip("no tbb wheel for this platform (see README)")
    if platform == "no-tbb" and not sys.platform.startswith("linux"):
        pytest.skip("the workqueue fallback replaces GNU OpenMP, numba's default on Linux")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_THREADING_LAYER"}
    env["PYTHONPATH"] = str(ROOT)
    env["NUMBAX_JIT_THREAD_POOL"] = "1"  # lean threaded nests on numbax's pool
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, platform],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    layer, child, threads = out.stdout.split("\n")[:3]
    assert layer == ("tbb" if platform == "tbb" else "workqueue")
    assert child == "child status 0", out.stdout + out.stderr[-2000:]
    assert threads == "thread errors 0"
