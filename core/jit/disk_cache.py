"""Compiles generated source text with numba, caching machine code on disk across processes.

numba can only cache functions that live in a real file of an importable module, so the text is
written to `<cache dir>/numbax_jit_<sha256>.py`, where the hash covers the text, the numba and
Python versions and the sources of this package (the source is the cache key, as in tinygrad).
The file is written atomically (temporary file + `os.replace`), imported with importlib and
registered in `sys.modules` (numba re-imports the module when it loads cached code), and its
entry function is compiled with `njit(signature, cache=True)`. A second process then loads the
machine code from numba's cache instead of compiling. If the directory cannot be used, a
`JitCacheWarning` is issued and the source is compiled in memory; corrupt numba cache files are
reported the same way and rebuilt.

The directory is `$NUMBAX_CACHE_DIR`, else `$XDG_CACHE_HOME/numbax`, else `~/.cache/numbax`.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import sys
import types
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numba

from core.jit.errors import JitCacheWarning

_VERSION = "0.1.0"
_DISPATCHERS: dict[tuple, Any] = {}


def _fingerprint() -> str:
    """A hash of this package's sources: kernels inline vecmath/runtime code, so a change there
    must not load machine code cached from the old version."""
    h = hashlib.sha256(_VERSION.encode())
    for path in sorted(Path(__file__).parent.glob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()


_FINGERPRINT = _fingerprint()


def cache_dir() -> Path:
    """The directory that holds generated sources (and, by default, numba's cache files)."""
    env = os.environ.get("NUMBAX_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "numbax"


def module_name(source: str) -> str:
    """The content-addressed module name of `source`."""
    ident = "\0".join((source, numba.__version__, _FINGERPRINT, sys.version))
    return "numbax_jit_" + hashlib.sha256(ident.encode()).hexdigest()[:40]


def _write_source(path: Path, source: str) -> None:
    try:
        if path.read_text() == source:
            return
    except (OSError, UnicodeDecodeError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp")
    try:
        tmp.write_text(source)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def load_module(source: str) -> tuple[types.ModuleType, bool]:
    """Imports `source` as a module registered in `sys.modules`.

    Args:
      source: Python source text.

    Returns:
      `(module, file_backed)`; `file_backed` is False when the cache directory was unusable and
      the module was executed in memory (numba cannot cache its functions then).
    """
    name = module_name(source)
    mod = sys.modules.get(name)
    if mod is not None:
        return mod, getattr(mod, "__file__", None) is not None
    path = cache_dir() / f"{name}.py"
    try:
        _write_source(path, source)
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        return mod, True
    except Exception as err:  # unwritable directory, corrupt bytecode, ...
        sys.modules.pop(name, None)
        warnings.warn(
            f"numbax cannot use the compile cache file {path} ({type(err).__name__}: {err}); "
            "compiling in memory instead, so the next process compiles again. Point the "
            "NUMBAX_CACHE_DIR environment variable at a writable directory to fix this.",
            JitCacheWarning,
            stacklevel=3,
        )
    mod = types.ModuleType(name)
    exec(compile(source, f"<{name}>", "exec"), mod.__dict__)
    sys.modules[name] = mod
    return mod, False


def compile_source(source: str, entry: str, signature: tuple, **options: Any) -> Any:
    """Compiles function `entry` of `source` for exactly one `signature` of numba types.

    Args:
      source: Python source defining `entry` (a plain function; no decorator).
      entry: the function's name.
      signature: tuple of numba argument types.
      **options: `numba.njit` options (e.g. `error_model`, `fastmath`).

    Returns:
      A numba dispatcher that accepts only `signature` (it never compiles again on a call).
    """
    key = (source, entry, signature, repr(sorted(options.items(), key=str)))
    disp = _DISPATCHERS.get(key)
    if disp is not None:
        return disp
    with _compile_lock():
        disp = _compile(source, entry, signature, options)
    disp.disable_compile()
    _DISPATCHERS[key] = disp
    return disp


@contextlib.contextmanager
def _compile_lock() -> Iterator[None]:
    """Serializes compiles between processes that share the cache directory.

    numba's cache index is read, extended and rewritten without a lock, so two processes that
    compile different signatures of one cached helper (`rt.contiguous` for two layouts, as
    parallel test workers do) can both number their entry 1 and leave an index pointing at the
    other's machine code.
    """
    try:
        import fcntl

        path = cache_dir() / ".compile.lock"
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a")  # noqa: SIM115 (held for the duration of the block)
    except (ImportError, OSError):
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _compile(source: str, entry: str, signature: tuple, options: dict) -> Any:
    mod, file_backed = load_module(source)
    fn = getattr(mod, entry)
    disp = problem = None
    if file_backed:
        try:
            disp = numba.njit(signature, cache=True, **options)(fn)
        except Exception as err:  # a corrupt numba cache file? (a real error recurs below)
            problem = err
            try:
                numba.njit(cache=True, **options)(fn)._cache.flush()  # empty the index
                disp = numba.njit(signature, cache=True, **options)(fn)
            except Exception:
                disp = None
    what = "was rebuilt"
    if disp is None:
        disp = numba.njit(signature, **options)(fn)
        what = "is not used"
    if problem is not None:
        warnings.warn(
            f"numba's cache for {getattr(mod, '__file__', entry)} was unusable "
            f"({type(problem).__name__}: {problem}) and {what}.",
            JitCacheWarning,
            stacklevel=4,
        )
    return disp
