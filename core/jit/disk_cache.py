"""Compiles generated source text with numba, caching machine code on disk across processes.

numba can only cache functions that live in a real file, so the text is written to
`<cache dir>/numbax_jit_<sha256>.py`, where the hash covers the text, the numba and Python
versions and the sources of this package (the source is the cache key, as in tinygrad). The
module is then executed from the text in memory (never imported from disk, so a damaged or
planted file or `.pyc` is never run) and registered in `sys.modules` (numba imports the module
by name when it loads cached code); a file whose content differs from the text is rewritten.
The entry function is compiled with a `numba_cache.VerifiedCache`, so a second process loads
verified machine code instead of compiling. All files are written atomically into private
directories (`cache_files`); if the directory cannot be used, a `JitCacheWarning` is issued
and the source is compiled in memory.

Compiles hold a lock file shared by the processes using the directory (numba's index is read,
extended and rewritten); a process that waits longer than `config.compile_lock_timeout` warns,
naming the holder's pid, and compiles without it (the verified index stays consistent).
The disk cache is kept under `config.compilation_cache_max_size` bytes by deleting the least
recently used programs; `clear()` deletes it. Dispatchers are released with their last user
(`compile_source` keeps weak references), and their modules leave `sys.modules` with them.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sys
import threading
import time
import types
import weakref
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numba
from numba.core.caching import _CacheLocator
from numba.core.dispatcher import Dispatcher

from core.backends.llvm import parallel
from core.config import config
from core.jit import cache_files, fork_safety, host_calls, numba_cache, runtime, vecmath
from core.jit.cache_files import cache_dir

__all__ = ["cache_dir", "clear", "compile_source", "enforce_size_limit", "load_module"]

fork_safety.configure()  # before any parallel kernel starts numba's thread pool
_VERSION = "0.1.0"
_PREFIX = "numbax_jit_"
_DISPATCHERS: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
_MODULE_USERS: Counter = Counter()  # live dispatchers per generated module name
_STALE_TMP_SECONDS = 600.0
_SWEEP_EVERY = 16  # compiles that wrote to disk between two size-limit sweeps


# Sources whose code kernels inline or link against: this package (vecmath, runtime, ...) and the
# back end's library functions (`core/backends/numba/library`), whose symbols kernels call.
_LINKED_SOURCES = (Path(__file__).parent, Path(__file__).parents[1] / "backends/numba/library")


def _fingerprint() -> str:
    """A hash of the sources generated code inlines or calls: a change there must not load
    machine code cached from the old version."""
    h = hashlib.sha256(_VERSION.encode())
    for path in sorted(p for d in _LINKED_SOURCES for p in d.glob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()


_FINGERPRINT = _fingerprint()


def fingerprint() -> str:
    """The hash of the sources generated code inlines or calls (see `_fingerprint`)."""
    return _FINGERPRINT


def module_name(source: str) -> str:
    """The content-addressed module name of `source`."""
    ident = "\0".join((source, numba.__version__, _FINGERPRINT, sys.version))
    return _PREFIX + hashlib.sha256(ident.encode()).hexdigest()[:40]


def _write_source(path: Path, source: str) -> None:
    """Makes `path` hold `source` (rewriting a damaged file with one warning); marks it used."""
    data = source.encode()
    try:
        old = cache_files.read_bytes(path)
    except FileNotFoundError:
        old = None
    except OSError:  # a symlink or an unreadable file: replaced below
        old = b""
    if old == data:
        with contextlib.suppress(OSError):  # a read-only cache is still usable
            os.utime(path)  # the size limit evicts the least recently used programs
        return
    cache_files.write_atomic(path, data)
    if old is not None:
        cache_files.warn(
            f"numbax's compile cache file {path} was damaged (its content differs from the "
            "program it is named after); it was rewritten."
        )


def load_module(source: str) -> tuple[types.ModuleType, bool]:
    """Executes `source` as a module registered in `sys.modules`, backed by a cache file.

    Args:
      source: Python source text.

    Returns:
      `(module, file_backed)`; `file_backed` is False when the cache directory was unusable (or
      the disk cache is off) and numba cannot cache the module's functions.
    """
    name = module_name(source)
    mod = sys.modules.get(name)
    if mod is not None:
        return mod, getattr(mod, "__file__", None) is not None
    path, file_backed = _source_file(source)
    mod = types.ModuleType(name)
    if file_backed:
        mod.__file__ = str(path)
    exec(compile(source, str(path) if file_backed else f"<{name}>", "exec"), mod.__dict__)
    sys.modules[name] = mod
    return mod, file_backed


def _source_file(source: str) -> tuple[Path, bool]:
    """The cache file of `source`, written if needed, and whether it is usable (see
    `load_module`)."""
    path = cache_dir() / f"{module_name(source)}.py"
    file_backed = config.compilation_cache_max_size != 0
    if file_backed:
        try:
            cache_files.secure_dir(cache_dir())
            _write_source(path, source)
        except OSError as err:  # unwritable or unsafe directory, ...
            file_backed = False
            cache_files.warn(
                f"numbax cannot use the compile cache file {path} ({err}); compiling in memory "
                "instead, so the next process compiles again. Point the NUMBAX_CACHE_DIR "
                "environment variable at a private writable directory to fix this."
            )
    return path, file_backed


def _stand_in(path: Path, source: str, entry: str) -> types.FunctionType:
    """An empty function with the file, line and name of function `entry` of `source`: what
    numba's cache locates the function's files by, without executing the module (which would
    load the library functions it calls)."""
    found = re.search(rf"^def {entry}\(", source, re.M)
    if found is None:
        raise ValueError(f"no function {entry!r} in the source")
    text = "\n" * source.count("\n", 0, found.start()) + f"def {entry}():\n    pass\n"
    namespace: dict = {}
    exec(compile(text, str(path), "exec"), namespace)
    return namespace[entry]


def compile_source(source: str, entry: str, signature: tuple, **options: Any) -> Any:
    """Compiles function `entry` of `source` for exactly one `signature` of numba types.

    Args:
      source: Python source defining `entry` (a plain function; no decorator).
      entry: the function's name.
      signature: tuple of numba argument types.
      **options: `numba.njit` options (e.g. `error_model`, `fastmath`).

    Returns:
      A numba dispatcher that accepts only `signature` (it never compiles again on a call).
      It is shared while alive; keep a reference as long as it is used.
    """
    key = (source, entry, signature, repr(sorted(options.items(), key=str)))
    disp = _DISPATCHERS.get(key)
    if disp is not None:
        return disp
    if options.get("parallel"):
        parallel.before_parfors()  # numba's parfors on numbax's pool, if it is on
    with _compile_lock(module_name(source), _shared_helpers(source)):
        mod, file_backed = load_module(source)
        fn = getattr(mod, entry)
        if file_backed:
            disp = numba_cache.cached_njit(signature, **options)(fn)
        else:
            disp = numba.njit(signature, **options)(fn)
    _DISPATCHERS[key] = disp
    _MODULE_USERS[mod.__name__] += 1
    weakref.finalize(disp, _release, mod.__name__)
    if file_backed and sum(disp.stats.cache_misses.values()):
        _after_write()
    return disp


def _release(name: str) -> None:
    """Drops generated module `name` from `sys.modules` when its last dispatcher is gone."""
    _MODULE_USERS[name] -= 1
    if _MODULE_USERS[name] <= 0:
        del _MODULE_USERS[name]
        sys.modules.pop(name, None)


# ---------------------------------------------------------------------------------------------
# The compile lock

_lock_state = threading.local()
_thread_lock = threading.RLock()
_abandoned: dict[str, int] = {}  # lock path -> holder pid this process stopped waiting for


def is_cached(source: str, entry: str) -> bool:
    """Whether the disk cache holds machine code of function `entry` of `source` (its verified
    index exists; a damaged entry is found out, and rebuilt, only when it is loaded). The
    module is not executed: a process asking about a kernel that calls library functions does
    not load them (its compile workers may be compiling them)."""
    try:
        mod = sys.modules.get(module_name(source))
        if mod is not None:
            fn, file_backed = getattr(mod, entry), getattr(mod, "__file__", None) is not None
        else:
            path, file_backed = _source_file(source)
            fn = _stand_in(path, source, entry)
        cache = numba_cache.VerifiedCache(fn)
        return file_backed and os.path.exists(cache._cache_file._index_path)
    except Exception:  # numba's internals moved: count it as not cached
        return False


_HELPER_CALL = re.compile(r"\b(rt|vm|hc)\.(\w+)\(")


def _shared_helpers(source: str) -> list[str]:
    """The cached numba functions of the runtime modules whose cache index compiling `source`
    may extend (see `_compile_lock`): those it calls and, in turn, those they call (functions
    numba inlines into their callers, `inline="always"`, compile nothing of their own)."""
    mods = {"rt": runtime, "vm": vecmath, "hc": host_calls}
    todo = [getattr(mods[m], name, None) for m, name in set(_HELPER_CALL.findall(source))]
    seen, found = set(), set()
    while todo:
        fn = todo.pop()
        if not isinstance(fn, Dispatcher) or fn in seen:
            continue
        seen.add(fn)
        py = fn.py_func
        if fn.targetoptions.get("inline", "never") != "always":
            found.add(f"{py.__module__}.{py.__qualname__}")
        todo.extend(py.__globals__.get(name) for name in py.__code__.co_names)
    return sorted(found)


@contextlib.contextmanager
def _compile_lock(module: str | None = None, helpers: list[str] = ()) -> Iterator[None]:
    """Serializes compiles between threads and between processes sharing the cache directory:
    of generated module `module` only, or of everything (None).

    A compile takes the directory's lock shared (`clear` takes it exclusively) and the lock of
    its module (one of 256 stripes, a bounded number of lock files), so processes compiling
    different kernels run in parallel (`core/jit/workers.py`). numba's cache index of a cached
    helper is read, extended and rewritten when a new signature of it compiles, so a kernel
    calling cached runtime helpers (`helpers`, `_shared_helpers`) also holds each helper's
    lock: two processes never compile signatures of one helper at once, and kernels calling
    other helpers, or none, go on in parallel. Re-entrant per thread.
    """
    with _thread_lock:
        depth = getattr(_lock_state, "depth", 0)
        _lock_state.depth = depth + 1
        try:
            if depth:
                yield
                return
            with contextlib.ExitStack() as stack:
                stack.enter_context(_file_lock(cache_dir(), ".compile.lock", module is not None))
                for helper in helpers:  # in sorted order: no two processes wait for each other
                    stack.enter_context(_file_lock(cache_dir() / "locks", f"helper-{helper}.lock"))
                if module is not None:
                    stack.enter_context(_file_lock(cache_dir() / "locks", f"{module[-2:]}.lock"))
                yield
        finally:
            _lock_state.depth = depth


def library_lock(name: str) -> contextlib.AbstractContextManager[None]:
    """The exclusive lock under which a process compiles or loads library function `name`
    (`core/backends/numba/library`): one process at a time rewrites its cache index, and
    processes compiling different library functions run in parallel (compile workers)."""
    return _file_lock(cache_dir() / "locks", f"library-{name}.lock")


@contextlib.contextmanager
def _file_lock(directory: Path, name: str, shared: bool = False) -> Iterator[None]:
    try:
        import fcntl  # noqa: PLC0415 (POSIX only)

        cache_files.secure_dir(cache_dir())
        path = cache_files.secure_dir(directory) / name
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(path, flags, 0o600)
    except (ImportError, OSError):  # no flock, or no usable directory: nothing to share
        yield
        return
    try:
        held = _acquire(fcntl, fd, path, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        try:
            yield
        finally:
            if held:
                fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _acquire(fcntl: Any, fd: int, path: Path, mode: int) -> bool:
    """Takes the lock on `fd` (`mode`: shared or exclusive) within `config.compile_lock_timeout`
    seconds (else warns, naming the holder, and returns False). The holder's pid is written into
    the lock file."""
    deadline = time.monotonic() + config.compile_lock_timeout
    pause = 0.005
    while True:
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            if time.monotonic() >= deadline or _abandoned.get(str(path)) == holder:
                break
            time.sleep(pause)
            pause = min(pause * 2, 0.25)
            continue
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return True
    if _abandoned.get(str(path)) != holder:
        _abandoned[str(path)] = holder
        cache_files.warn(
            f"numbax waited {config.compile_lock_timeout:g} s for the compile lock {path}, held "
            f"by process {holder if holder else '(unknown)'}; compiling without it. If that "
            "process is stopped or hung, end it; a longer wait is "
            "config.update('compile_lock_timeout', seconds)."
        )
    return False


def _holder(fd: int) -> int:
    """The pid recorded in the lock file (0 if unknown)."""
    try:
        return int(os.pread(fd, 32, 0).decode().strip() or 0)
    except (OSError, ValueError):
        return 0


# ---------------------------------------------------------------------------------------------
# Size limit and clearing

_writes = [0]


def _after_write() -> None:
    """Runs `enforce_size_limit` on the first write of a process, then every few writes."""
    if _writes[0] % _SWEEP_EVERY == 0:
        with contextlib.suppress(OSError):
            enforce_size_limit()
    _writes[0] += 1


def _cache_dirs() -> list[Path]:
    """The directories with numbax's files: generated sources and numba's files for them, for
    the cached runtime helpers and for the library functions."""
    root, numba_dir = cache_dir(), cache_files.numba_cache_dir()
    # numba names a source directory's cache directory after it: generated modules, and the
    # cached helpers and library functions (known here even if this process loaded none).
    sources = [root, *_LINKED_SOURCES]
    subdirs = [_CacheLocator.get_suitable_cache_subpath(str(d / "x.py")) for d in sources]
    dirs = {root, *(numba_dir / sub for sub in subdirs), *numba_cache.CACHE_PATHS}
    return [d for d in dirs if d.is_dir()]


def _files() -> list[os.DirEntry]:
    found = []
    for d in _cache_dirs():
        with os.scandir(d) as it:
            found.extend(e for e in it if e.is_file(follow_symlinks=False))
    return found


def enforce_size_limit(max_size: int | None = None) -> int:
    """Deletes the least recently used generated programs (source and machine code) until the
    disk cache holds at most `max_size` bytes; also deletes temporary files left by killed
    writers.

    Args:
      max_size: the limit in bytes; default `config.compilation_cache_max_size` (-1: none).

    Returns:
      The number of bytes deleted.
    """
    limit = config.compilation_cache_max_size if max_size is None else max_size
    now = time.time()
    groups: dict[str, list[os.DirEntry]] = {}
    total = freed = 0
    for e in _files():
        st = e.stat(follow_symlinks=False)
        if cache_files.is_temporary(e.name):
            if now - st.st_mtime > _STALE_TMP_SECONDS:
                cache_files.remove(Path(e.path))
                freed += st.st_size
            continue
        total += st.st_size
        if e.name.startswith(_PREFIX):
            groups.setdefault(e.name[: len(_PREFIX) + 40], []).append(e)
    if limit < 0 or total <= limit:
        return freed

    def last_use(entries: list[os.DirEntry]) -> float:
        return max(e.stat(follow_symlinks=False).st_mtime for e in entries)

    for name, entries in sorted(groups.items(), key=lambda kv: last_use(kv[1])):
        if total <= limit:
            break
        if name in sys.modules:  # in use by this process
            continue
        for e in entries:
            size = e.stat(follow_symlinks=False).st_size
            cache_files.remove(Path(e.path))
            total -= size
            freed += size
    return freed


def clear() -> None:
    """Deletes every file of the disk cache: generated sources and numba's index and machine
    code files of numbax functions (other files in the directories are left alone).
    Programs already loaded keep running; later processes compile again."""
    with _compile_lock():
        for e in _files():
            name = e.name
            if (
                name.startswith(_PREFIX)
                or name.endswith((".nbxi", ".nbxc", ".nbi", ".nbc"))  # .nbi/.nbc: legacy
                or (cache_files.is_temporary(name))
            ):
                cache_files.remove(Path(e.path))
