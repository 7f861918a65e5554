"""The compile cache: machine code reused across processes; bad cache directories degrade."""

import gc
import os
import subprocess
import sys
import textwrap
import warnings
import weakref
from pathlib import Path

import numpy as np
import pytest

from core.api import make_jaxpr
from core.config import config
from core.jit import clear_cache, disk_cache, numba_cache
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


def _start_child(tmp_path: Path) -> subprocess.Popen:
    env = dict(
        os.environ,
        NUMBAX_CACHE_DIR=str(tmp_path / "src"),
        NUMBA_CACHE_DIR=str(tmp_path / "numba"),
        PYTHONPATH=str(ROOT),
    )
    return subprocess.Popen(
        [sys.executable, "-c", CHILD],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


def _result(child: subprocess.Popen) -> tuple[int, int, int]:
    """The child's (cache hits, misses, cache warnings) of the kernel it compiled."""
    out, err = child.communicate(timeout=300)
    assert child.returncode == 0, err
    hits, misses, warned = map(int, out.split())
    return hits, misses, warned


def _child(tmp_path: Path) -> tuple[int, int, int]:
    return _result(_start_child(tmp_path))


def test_second_process_loads_machine_code(tmp_path):
    assert _child(tmp_path) == (0, 1, 0)
    assert _child(tmp_path) == (1, 0, 0)
    assert len(list((tmp_path / "src").glob("numbax_jit_*.py"))) == 1


def test_concurrent_processes_compile_once_and_share_the_cache(tmp_path):
    children = [_start_child(tmp_path) for _ in range(2)]
    assert sorted(_result(c) for c in children) == [(0, 1, 0), (1, 0, 0)]  # the lock
    assert _child(tmp_path) == (1, 0, 0)


def test_flipped_bit_in_cached_machine_code_warns_once_and_is_rebuilt(tmp_path):
    _child(tmp_path)
    (data,) = [p for p in (tmp_path / "numba").rglob("numbax_jit*.nbxc")]
    raw = bytearray(data.read_bytes())
    raw[raw.find(b"\x7fELF") + 0x180] ^= 0x04  # inside the object code numba would run
    data.write_bytes(bytes(raw))
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


def test_damaged_or_planted_source_file_is_never_run_and_is_rewritten(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBAX_CACHE_DIR", str(tmp_path))
    jaxpr, x = _unique_jaxpr(0.456)
    path = tmp_path / f"{disk_cache.module_name(generate(jaxpr))}.py"
    marker = tmp_path / "ran"
    path.write_text(f"open({str(marker)!r}, 'w').close()\ndef kernel(:\n")
    (tmp_path / "__pycache__").mkdir()  # a planted bytecode file next to it
    (tmp_path / "__pycache__" / f"{path.stem}.cpython-311.pyc").write_bytes(b"planted")
    with pytest.warns(JitCacheWarning, match="damaged") as caught:
        f = compile_jaxpr(jaxpr)
    assert len(caught) == 1
    np.testing.assert_allclose(f(x)[0], x + np.float32(0.456))
    assert path.read_text() == generate(jaxpr)
    assert not marker.exists()


def test_unsafe_cache_dir_is_refused_with_a_message(tmp_path, monkeypatch):
    d = tmp_path / "shared"
    d.mkdir()
    d.chmod(0o777)
    monkeypatch.setenv("NUMBAX_CACHE_DIR", str(d))
    jaxpr, x = _unique_jaxpr(0.789)
    with pytest.warns(JitCacheWarning, match="refuses .*others can write it.*chmod 700"):
        f = compile_jaxpr(jaxpr)
    np.testing.assert_allclose(f(x)[0], x + np.float32(0.789))
    assert list(d.iterdir()) == []


def test_new_cache_dir_is_private(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBAX_CACHE_DIR", str(tmp_path / "new" / "cache"))
    jaxpr, x = _unique_jaxpr(0.25)
    compile_jaxpr(jaxpr)
    for d in (tmp_path / "new", tmp_path / "new" / "cache"):
        assert d.stat().st_mode & 0o777 == 0o700
    (src,) = (tmp_path / "new" / "cache").glob("numbax_jit_*.py")
    assert src.stat().st_mode & 0o777 == 0o600


def test_default_cache_dir_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("NUMBAX_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert disk_cache.cache_dir() == tmp_path / "numbax"


HOLDER = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
os.pwrite(fd, f"{os.getpid()}\\n".encode(), 0)
print("locked", flush=True)
time.sleep(120)
"""


def test_compile_lock_times_out_naming_the_holder(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBAX_CACHE_DIR", str(tmp_path))
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(tmp_path / ".compile.lock")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        short_wait = config.override("compile_lock_timeout", 0.3)
        with warnings.catch_warnings(record=True) as w, short_wait:
            warnings.simplefilter("always")
            f = compile_jaxpr(_unique_jaxpr(0.5)[0])
            g = compile_jaxpr(_unique_jaxpr(0.75)[0])  # the same holder: no second wait
    finally:
        holder.kill()
        holder.wait()
    messages = [str(x.message) for x in w if issubclass(x.category, JitCacheWarning)]
    assert len(messages) == 1
    assert f"held by process {holder.pid}" in messages[0] and "compile_lock_timeout" in messages[0]
    x = np.arange(4, dtype=np.float32)
    np.testing.assert_allclose(f(x)[0], x + np.float32(0.5))
    np.testing.assert_allclose(g(x)[0], x + np.float32(0.75))


def test_a_kernel_calling_a_cached_helper_holds_that_helpers_lock_only(tmp_path, monkeypatch):
    """Compiling a kernel that calls a cached helper (`vm.exp_f32`) may extend the helper's
    cache index, so it waits for another process holding that helper's lock; kernels calling
    no helper compile meanwhile (the directory's lock is shared)."""
    monkeypatch.setenv("NUMBAX_CACHE_DIR", str(tmp_path))
    (tmp_path / "locks").mkdir(mode=0o700)
    lock = tmp_path / "locks" / "helper-core.jit.vecmath.exp_f32.lock"
    x = np.linspace(-1, 1, 4, dtype=np.float32)
    exp_jaxpr = make_jaxpr(lambda a: ew.exp(ew.add(a, ew.full_like(a, 0.125))))(x).jaxpr
    assert disk_cache._shared_helpers(generate(exp_jaxpr)) == ["core.jit.vecmath.exp_f32"]
    assert disk_cache._shared_helpers("y = vm.logistic_f32(x)\n") == [
        "core.jit.vecmath.exp_f32",  # logistic_f32 calls it
        "core.jit.vecmath.logistic_f32",
    ]
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(lock)], stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline().strip() == b"locked"
        with warnings.catch_warnings(record=True) as w, config.override("compile_lock_timeout", 5):
            warnings.simplefilter("always")
            plain = compile_jaxpr(_unique_jaxpr(0.625)[0])
            assert not w  # no wait for the helper's lock
        short_wait = config.override("compile_lock_timeout", 0.3)
        with warnings.catch_warnings(record=True) as w, short_wait:
            warnings.simplefilter("always")
            with_exp = compile_jaxpr(exp_jaxpr)
    finally:
        holder.kill()
        holder.wait()
    messages = [str(m.message) for m in w if issubclass(m.category, JitCacheWarning)]
    assert len(messages) == 1 and f"held by process {holder.pid}" in messages[0]
    np.testing.assert_allclose(plain(x)[0], x + np.float32(0.625))
    np.testing.assert_allclose(with_exp(x)[0], np.exp(x + np.float32(0.125)), rtol=1e-6)


def _group_files(name: str) -> list[Path]:
    return [p for d in disk_cache._cache_dirs() for p in d.glob(f"{name}*")]


def test_size_limit_evicts_least_recently_used_programs(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBAX_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(numba_cache, "CACHE_PATHS", set())  # only this test's files count
    names = []
    for k, tag in enumerate((1.5, 2.5, 3.5)):
        f = compile_jaxpr(_unique_jaxpr(tag)[0])
        names.append(disk_cache.module_name(f.source))
        del f
        gc.collect()  # released: its module leaves sys.modules
        assert names[-1] not in sys.modules
        for p in _group_files(names[-1]):
            os.utime(p, (1000.0 + k, 1000.0 + k))
    stale = tmp_path / f".{names[0]}.py.0123456789abcdef.tmp"  # left by a killed writer
    stale.write_bytes(b"x" * 100)
    os.utime(stale, (1000.0, 1000.0))
    fresh = tmp_path / ".other.py.fedcba9876543210.tmp"  # a write under way
    fresh.write_bytes(b"x")
    assert disk_cache.enforce_size_limit(-1) == 100  # no limit: only the stale temporary
    assert not stale.exists() and fresh.exists()
    total = sum(e.stat().st_size for e in disk_cache._files() if e.name != fresh.name)
    oldest = sum(p.stat().st_size for p in _group_files(names[0]))
    with config.override("compilation_cache_max_size", total - 1):
        assert disk_cache.enforce_size_limit() == oldest
    assert _group_files(names[0]) == []
    assert all(_group_files(n) for n in names[1:])


def test_clear_deletes_the_disk_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBAX_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(numba_cache, "CACHE_PATHS", set())  # keep the shared helpers' cache
    jaxpr, x = _unique_jaxpr(4.5)
    f = compile_jaxpr(jaxpr)
    name = disk_cache.module_name(f.source)
    assert len(_group_files(name)) == 3  # source, index, machine code
    legacy = tmp_path / "__pycache__" / f"{name}.kernel-10.py311.nbi"  # an older numbax's
    legacy.parent.mkdir()
    legacy.write_bytes(b"old")
    clear_cache()
    assert _group_files(name) == []
    np.testing.assert_allclose(f(x)[0], x + np.float32(4.5))  # loaded code keeps running


def test_released_programs_leave_no_module_or_dispatcher(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBAX_CACHE_DIR", str(tmp_path))
    f = compile_jaxpr(_unique_jaxpr(5.5)[0])
    name = disk_cache.module_name(f.source)
    assert name in sys.modules and len(disk_cache._DISPATCHERS)
    ref = weakref.ref(f.kernel)
    del f
    gc.collect()
    assert ref() is None and name not in sys.modules
