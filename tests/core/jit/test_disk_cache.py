"""The compile cache: machine code reused across processes; bad cache directories degrade."""

import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest

from core.api import make_jaxpr
from core.jit import disk_cache
from core.jit.codegen import compile_jaxpr, generate
from core.jit.errors import JitCacheWarning
from core.prims import elementwise as ew

ROOT = Path(__file__).resolve().parents[3]
CHILD = textwrap.dedent(
    """
    import warnings
    import numpy as np
    from core.api import make_jaxpr
    from core.prims import elementwise as ew
    from core.jit.codegen import compile_jaxpr

    x = np.arange(6, dtype=np.float32)
    closed = make_jaxpr(lambda a: ew.tanh(ew.mul(a, a)))(x)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        f = compile_jaxpr(closed.jaxpr)
    assert np.allclose(f(x)[0], np.tanh(x * x), rtol=1e-6)
    stats = f.kernel.stats
    print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()),
          sum(issubclass(w.category, Warning) and "cache" in str(w.message) for w in caught))
    """
)


def _child(tmp_path: Path) -> tuple[int, int, int]:
    env = dict(
        os.environ,
        NUMBAX_CACHE_DIR=str(tmp_path / "src"),
        NUMBA_CACHE_DIR=str(tmp_path / "numba"),
        PYTHONPATH=str(ROOT),
    )
    out = subprocess.run(
        [sys.executable, "-c", CHILD],
        env=env,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    hits, misses, warned = map(int, out.stdout.split())
    return hits, misses, warned


def test_second_process_loads_machine_code(tmp_path):
    assert _child(tmp_path) == (0, 1, 0)
    assert _child(tmp_path) == (1, 0, 0)
    assert len(list((tmp_path / "src").glob("numbax_jit_*.py"))) == 1


def test_corrupt_numba_cache_warns_once_and_is_rebuilt(tmp_path):
    _child(tmp_path)
    corrupted = [p for p in (tmp_path / "numba").rglob("*numbax_jit*") if p.is_file()]
    assert corrupted
    for p in corrupted:
        p.write_bytes(b"garbage")
    assert _child(tmp_path) == (0, 1, 1)
    assert _child(tmp_path) == (1, 0, 0)


def _unique_jaxpr(tag: float):
    x = np.arange(4, dtype=np.float32)
    return make_jaxpr(lambda a: ew.add(a, ew.full_like(a, tag)))(x).jaxpr, x


def test_unwritable_cache_dir_warns_and_compiles_in_memory(tmp_path, monkeypatch):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("NUMBAX_CACHE_DIR", str(blocker / "cache"))
    jaxpr, x = _unique_jaxpr(0.123)
    with pytest.warns(JitCacheWarning, match="NUMBAX_CACHE_DIR"):
        f = compile_jaxpr(jaxpr)
    np.testing.assert_allclose(f(x)[0], x + np.float32(0.123))


def test_corrupt_source_file_is_rewritten(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBAX_CACHE_DIR", str(tmp_path))
    jaxpr, x = _unique_jaxpr(0.456)
    path = tmp_path / f"{disk_cache.module_name(generate(jaxpr))}.py"
    path.write_text("def kernel(:\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error", JitCacheWarning)
        f = compile_jaxpr(jaxpr)
    np.testing.assert_allclose(f(x)[0], x + np.float32(0.456))
    assert path.read_text() == generate(jaxpr)


def test_default_cache_dir_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("NUMBAX_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert disk_cache.cache_dir() == tmp_path / "numbax"
