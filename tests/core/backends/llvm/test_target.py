"""The translator's own numba contexts (core/backends/llvm/target.py): a process that compiles
only shells loads neither numba's array-function registry nor scipy.linalg, and numba's own
compiles in the same process still see everything."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import numpy as np
from llvmlite import binding as llvm
from numba.core import event

from core.backends.llvm import target

ROOT = Path(__file__).resolve().parents[4]


def test_shells_need_no_full_numba_registry(tmp_path):
    """Cold compiles of small programs (lean nests, shells, a product's routine) in a new
    process: neither `numba.np.arraymath` nor `scipy.linalg` is imported until a product runs;
    the results are right."""
    code = textwrap.dedent(
        """
        import sys
        import numpy as np
        import core
        import core.numpy as jnp

        x = np.arange(12, dtype=np.float32).reshape(3, 4)
        w = np.ones((4, 2), np.float32)
        one = core.jit(lambda a: a + 1)(jnp.ones(1))
        step = core.jit(lambda a, b: (jnp.tanh(a) * 2 + 1, a @ b)).lower(x, w).compile()
        print(sorted(m for m in ("numba.np.arraymath", "scipy.linalg") if m in sys.modules))
        out = step(x, w)  # its first product imports scipy's BLAS (numba's numba_xxgemm)
        assert np.array_equal(np.asarray(out[1]), x @ w), out
        assert np.allclose(np.asarray(out[0]), np.tanh(x) * 2 + 1, rtol=1e-6)
        assert float(one[0]) == 2.0
        """
    )
    env = dict(
        os.environ,
        PYTHONPATH=str(ROOT),
        NUMBAX_CACHE_DIR=str(tmp_path),
        NUMBA_CACHE_DIR=str(tmp_path),
        NUMBAX_JIT_COMPILE_WORKERS="0",
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout + out.stderr


def test_numba_compiles_after_lean_translation():
    """numba's own contexts load their whole registry when numba compiles, after the
    translator's contexts typed and lowered in this process."""
    import numba  # noqa: PLC0415

    from core.backends.llvm import translate  # noqa: PLC0415

    translate.contexts()

    @numba.njit
    def f(a):
        return np.sort(a).sum() + np.linalg.norm(a) + a.copy().max()

    a = np.array([3.0, 1.0, 2.0])
    assert f(a) == np.sort(a).sum() + np.linalg.norm(a) + a.max()


def test_numba_lock_events_reach_a_listener():
    """numba's `numba:llvm_lock` events, broadcast only while a listener is installed
    (`target._quiet_lock_events`), still reach one: a start and an end per call into LLVM, and
    numba's compile still times its lock."""
    callbacks = llvm.ffi.lib._lock._cblist
    assert all(acquire.__qualname__ != target._NUMBA_LOCK_EVENTS for acquire, _ in callbacks)
    recorder = event.RecordingListener()
    with event.install_listener("numba:llvm_lock", recorder):
        llvm.parse_assembly("")
    statuses = [e.status for _, e in recorder.buffer]
    assert statuses and statuses.count(event.EventStatus.START) * 2 == len(statuses)

    add_one = numba.njit(lambda x: x + 1)
    assert add_one(1) == 2
    assert add_one.get_metadata(add_one.signatures[0])["timers"]["llvm_lock"] > 0
