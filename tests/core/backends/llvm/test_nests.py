"""Lean nests at run time: compiled once, cached on disk (atomic, verified; a damaged entry is
compiled again; concurrent writers leave one whole entry), called through their slots."""

import ctypes
import os
import subprocess
import sys
import uuid
from pathlib import Path

import numpy as np
import pytest

from core.backends.llvm import nests
from core.backends.numba.library import entry

# One nest: o1[i] = a0[i] * 2 + s (float32), its arrays noalias.
SPEC = (
    (
        "for i0 in range(n_0):\n    rt.st(o1, i0, rt.ld(a0, i0) * c_f4_40000000 + s)",
        (
            ("o1", "a", "float32", True),
            ("a0", "a", "float32", False),
            ("n_0", "s", "int64", False),
            ("s", "s", "float32", False),
        ),
        True,
        (),
    ),
)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBAX_CACHE_DIR", str(tmp_path))
    return tmp_path


def _run_nest(key: str) -> np.ndarray:
    """Calls nest 0 of `key` (loaded) through its slot, as a kernel would."""
    address = int(entry.register_slot(nests.slot_symbol(key, 0))[0])
    fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_float)
    a = np.arange(7, dtype=np.float32)
    out = np.zeros(7, np.float32)
    fn(address)(out.ctypes.data, a.ctypes.data, 7, 0.5)
    return out


def _key() -> str:
    return uuid.uuid4().hex


def test_compiled_once_then_from_disk(cache):
    key = _key()
    before = nests.stats()
    nests.load(key, SPEC)
    nests.load(key, SPEC)
    assert nests.stats()["compiled"] == before["compiled"] + 1
    np.testing.assert_array_equal(_run_nest(key), np.arange(7, dtype=np.float32) * 2 + 0.5)
    assert (cache / f"numbax_jit_{key}.lean").exists()
    assert _child(cache, key) == "loaded"


def test_damaged_entry_is_compiled_again(cache):
    key = _key()
    path = cache / f"numbax_jit_{key}.lean"
    path.write_bytes(b"numbax-cache-1\n" + b"\0" * 40)  # a bad digest
    before = nests.stats()["compiled"]
    nests.load(key, SPEC)
    assert nests.stats()["compiled"] == before + 1
    np.testing.assert_array_equal(_run_nest(key), np.arange(7, dtype=np.float32) * 2 + 0.5)
    assert _child(cache, key) == "loaded"  # rewritten whole


def test_concurrent_writers(cache):
    key = _key()
    procs = [_spawn(cache, key) for _ in range(3)]
    outs = [p.communicate(timeout=300)[0].strip().splitlines()[-1] for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert set(outs) <= {"compiled", "loaded"}
    assert _child(cache, key) == "loaded"
    assert [f for f in os.listdir(cache) if f.endswith(".tmp")] == []


_CHILD = """
import sys
from core.backends.llvm import nests
from tests.core.backends.llvm.test_nests import SPEC, _run_nest
nests.load(sys.argv[1], SPEC)
assert list(_run_nest(sys.argv[1])) == [i * 2 + 0.5 for i in range(7)]
print("compiled" if nests.stats()["compiled"] else "loaded")
"""


def _spawn(cache, key: str) -> subprocess.Popen:
    env = dict(os.environ, NUMBAX_CACHE_DIR=str(cache))
    return subprocess.Popen(
        [sys.executable, "-c", _CHILD, key],
        env=env,
        cwd=Path(__file__).parents[4],
        stdout=subprocess.PIPE,
        text=True,
    )


def _child(cache, key: str) -> str:
    proc = _spawn(cache, key)
    out = proc.communicate(timeout=300)[0]
    assert proc.returncode == 0
    return out.strip().splitlines()[-1]
