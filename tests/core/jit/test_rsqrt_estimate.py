"""`core.jit.rsqrt_estimate` follows the CPU numba compiles for, not only the host: with
`NUMBA_CPU_NAME=generic` (no AVX) the AVX estimate is not emitted (LLVM aborted the process:
"Do not know how to split the result of this operator") and 1 / sqrt(x) is computed instead,
and the lean nests' cache keys differ between targets, so code cached for one CPU never loads
for another."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]

CHILD = textwrap.dedent(
    """
    import importlib
    import numpy as np
    import core
    from core import lax
    estimate = importlib.import_module("core.jit.rsqrt_estimate")
    nests = importlib.import_module("core.backends.llvm.nests")
    x = np.linspace(0.5, 40.0, 37, dtype=np.float32)
    y = np.asarray(core.jit(lambda v: lax.rsqrt(v) * 2.0)(x))
    print(estimate.target_cpu()[0], estimate.RSQRT_STEPS, nests.VERSION)
    print(" ".join(repr(float(v)) for v in y))
    """
)


def _run(tmp_path: Path, **env: str) -> tuple[list[str], np.ndarray]:
    child_env = dict(
        os.environ,
        NUMBAX_CACHE_DIR=str(tmp_path / "src"),
        NUMBA_CACHE_DIR=str(tmp_path / "numba"),
        PYTHONPATH=str(ROOT),
        **env,
    )
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        env=child_env,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    head, values = done.stdout.strip().splitlines()[-2:]
    return head.split(), np.array([float(v) for v in values.split()], np.float32)


def test_a_generic_target_compiles_rsqrt_and_keys_its_cache_apart(tmp_path):
    x = np.linspace(0.5, 40.0, 37, dtype=np.float32)
    want = 2.0 / np.sqrt(x.astype(np.float64))
    (name, steps, generic_key), generic = _run(tmp_path, NUMBA_CPU_NAME="generic")
    assert (name, steps) == ("generic", "0")
    np.testing.assert_allclose(generic, want, rtol=2e-7)
    (host_name, _, host_key), host = _run(tmp_path)  # the same cache directory
    assert host_name != "generic" and host_key != generic_key
    np.testing.assert_allclose(host, want, rtol=1e-6)
