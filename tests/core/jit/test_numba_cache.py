"""numba's verified cache: damaged or planted index and machine code files are never used.

Each test compiles a real shared helper (`rt.idiv`) into a private NUMBA cache directory, then
builds fresh dispatchers, which read the cache from disk as a new process would.
"""

import pickle
import warnings

import numba
import pytest

from core.jit import cache_files, numba_cache
from core.jit import runtime as rt
from core.jit.errors import JitCacheWarning

SIG = (numba.int64, numba.int64)


@pytest.fixture
def cache_root(tmp_path, monkeypatch):
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "numba"))
    return tmp_path / "numba"


def _fresh(salt=""):
    """A new dispatcher of `rt.idiv` compiled for SIG: (hits, misses, warnings, value)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        disp = numba_cache.cached_njit(SIG, salt=salt)(rt.idiv.py_func)
    stats = disp.stats
    warned = [str(w.message) for w in caught if issubclass(w.category, JitCacheWarning)]
    return sum(stats.cache_hits.values()), sum(stats.cache_misses.values()), warned, disp(-7, 2)


def _files(root, suffix):
    return sorted(p for p in root.rglob(f"*{suffix}") if p.is_file())


def test_machine_code_is_reused_and_files_are_private(cache_root):
    assert _fresh() == (0, 1, [], -3)
    assert _fresh() == (1, 0, [], -3)
    (index,) = _files(cache_root, ".nbxi")
    (data,) = _files(cache_root, ".nbxc")
    assert index.parent.stat().st_mode & 0o777 == 0o700
    assert data.stat().st_mode & 0o777 == 0o600


def test_a_salt_keys_the_entries_besides_the_source(cache_root):
    # A library function's machine code calls symbols named after the library's sources: the
    # same source under another salt (those sources changed) must compile, not load.
    assert _fresh("a") == (0, 1, [], -3)
    assert _fresh("a") == (1, 0, [], -3)
    assert _fresh("b") == (0, 1, [], -3)
    assert _fresh("a") == (1, 0, [], -3)  # both entries stay


@pytest.mark.parametrize("what", ["index", "data"])
def test_damaged_file_warns_once_compiles_and_repairs(cache_root, what):
    _fresh()
    (path,) = _files(cache_root, ".nbxi" if what == "index" else ".nbxc")
    path.write_bytes(b"garbage")
    hits, misses, warned, value = _fresh()
    assert (hits, misses, value) == (0, 1, -3)
    assert len(warned) == 1 and "deleted" in warned[0] and "not a numbax cache file" in warned[0]
    assert _fresh() == (1, 0, [], -3)


def test_flipped_bit_in_cached_machine_code_is_caught(cache_root):
    _fresh()
    (data,) = _files(cache_root, ".nbxc")
    raw = bytearray(data.read_bytes())
    elf = raw.find(b"\x7fELF")
    assert elf > 0  # the object code numba would load and run
    raw[elf + 0x140] ^= 0x10
    data.write_bytes(bytes(raw))
    hits, misses, warned, value = _fresh()
    assert (hits, misses, value) == (0, 1, -3)
    assert len(warned) == 1 and "content hash does not match" in warned[0]
    assert _fresh() == (1, 0, [], -3)


class _Plant:
    """Unpickling this runs code: a planted cache file must never be unpickled."""

    def __reduce__(self):
        return (exec, ("import pathlib; pathlib.Path(MARKER).write_text('ran')",))


def test_planted_pickles_are_never_unpickled(cache_root, tmp_path):
    _fresh()
    payload = pickle.dumps(_Plant()).replace(b"MARKER", repr(str(tmp_path / "ran")).encode())
    (index,) = _files(cache_root, ".nbxi")
    (data,) = _files(cache_root, ".nbxc")
    numba_style = index.with_name(index.name.replace(".nbxi", ".nbi"))
    numba_style.write_bytes(payload)  # numba's own index name: not ours, never read
    data.write_bytes(cache_files.MAGIC + cache_files.digest(payload) + payload)  # not recorded
    hits, misses, warned, value = _fresh()
    assert (hits, misses, value) == (0, 1, -3) and len(warned) == 1
    index.write_bytes(payload)  # our index name, but no verified header
    hits, misses, warned, value = _fresh()
    assert (hits, misses, value) == (0, 1, -3)
    assert len(warned) == 1 and "not a numbax cache file" in warned[0]
    assert not (tmp_path / "ran").exists()


def test_entry_numba_cannot_rebuild_is_dropped(cache_root):
    _fresh()
    disp = numba_cache.cached_njit(SIG)(rt.idiv.py_func)
    cache = disp._cache
    key = cache._index_key(disp.signatures[0], disp.targetctx.codegen())
    cache._cache_file.save(key, ("not", "a", "compile result"))  # verified, but wrong
    hits, misses, warned, value = _fresh()
    assert (hits, misses, value) == (0, 1, -3)
    assert len(warned) == 1 and "numba could not load it" in warned[0]
    assert _fresh() == (1, 0, [], -3)


def test_unsafe_directory_is_refused_with_one_warning(cache_root):
    _fresh()
    (index,) = _files(cache_root, ".nbxi")
    index.parent.chmod(0o777)
    hits, misses, warned, value = _fresh()
    assert (hits, misses, value) == (0, 1, -3)
    assert len(warned) == 1 and "refuses" in warned[0] and "chmod 700" in warned[0]


def test_function_without_a_source_file_compiles_uncached_with_a_warning(cache_root):
    namespace: dict = {}
    exec(compile("def double(x):\n    return 2 * x\n", "<generated>", "exec"), namespace)
    with pytest.warns(JitCacheWarning, match="cannot cache double on disk"):
        disp = numba_cache.cached_njit(numba.int64(numba.int64))(namespace["double"])
    assert disp(21) == 42
    assert not cache_root.exists()


def test_warning_points_at_the_callers_line(cache_root):
    _fresh()
    (data,) = _files(cache_root, ".nbxc")
    data.write_bytes(b"garbage")
    with pytest.warns(JitCacheWarning) as caught:
        numba_cache.cached_njit(SIG)(rt.idiv.py_func)
    assert caught[0].filename == __file__


def test_a_changed_vecmath_invalidates_the_functions_that_call_it(cache_root, monkeypatch):
    """numba stamps a cache with its own file only; a function of runtime.py that links a
    vecmath kernel must not keep the kernel's old code once vecmath.py changes."""
    assert _fresh()[1] == 1  # compiled and cached
    assert _fresh()[0] == 1  # read back
    real = numba_cache._stamp

    def changed(path):
        mtime, size = real(path)
        return (mtime + 1, size) if path.name == "vecmath.py" else (mtime, size)

    monkeypatch.setattr(numba_cache, "_stamp", changed)
    assert _fresh()[1] == 1  # vecmath.py changed: compiled again


class _Interrupt(Exception):
    """What a signal handler raised while LLVM compiled (Ctrl-C's KeyboardInterrupt, a test
    harness's SIGALRM timeout)."""


def test_interrupt_while_compiling_is_raised(cache_root, monkeypatch):
    """A signal handler's exception raised inside the JIT engine's object code callback (where
    a signal arriving during LLVM's compile runs its handler) was dropped, and numba's caching
    of the function failed with "no compiled object yet": it is raised, and the next compile
    caches the function."""
    engine = numba.core.registry.cpu_target.target_context.codegen()._engine._ee
    notify = engine._object_cache_notify

    def interrupted(module, buf):
        if "idiv" not in module.name:
            return notify(module, buf)
        monkeypatch.setattr(engine, "_object_cache_notify", notify)  # once
        raise _Interrupt

    monkeypatch.setattr(engine, "_object_cache_notify", interrupted)
    with pytest.raises(_Interrupt):
        _fresh()
    assert _fresh() == (0, 1, [], -3)
    assert _fresh() == (1, 0, [], -3)
