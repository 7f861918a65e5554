"""numba's on-disk cache, verified: nothing is unpickled or loaded as machine code unchecked.

numba stores a function's cache as an index (signature -> data file) and one data file per
signature holding pickled machine code; it trusts both, so one damaged file raises a raw
UnpicklingError in every later process and a flipped bit in machine code crashes it.
`VerifiedCache` keeps numba's driver logic but replaces the file layer (`_VerifiedFile`):
every file carries the SHA-256 of its payload (`cache_files.write_verified`), the index also
records each data file's digest (so an index never pairs a signature with another entry's
code), writes are exclusive and atomic, and the directory must be private
(`cache_files.secure_dir`). A file that fails any check, or an entry numba cannot rebuild, is
deleted and reported with one `JitCacheWarning`; the function is then compiled and the entry
rewritten. Files are named `.nbxi`/`.nbxc`, so numba's own unverified files are never read.

Use `cached_njit(...)` instead of `numba.njit(..., cache=True)` for functions numbax caches.
"""

from __future__ import annotations

import inspect
import itertools
import os
import pickle
import sys
from pathlib import Path
from typing import Any

import numba
from numba.core.caching import (
    CompileResultCacheImpl,
    FunctionCache,
    IndexDataCacheFile,
    UserProvidedCacheLocator,
)

from core.backends.llvm import target
from core.jit import cache_files
from core.jit.errors import CacheIntegrityError

# Directories that hold numbax's numba cache files (for `disk_cache.clear`/size limits).
CACHE_PATHS: set[Path] = set()


class _Locator(UserProvidedCacheLocator):
    """Puts the files under `cache_files.numba_cache_dir()`, whatever numba's locator list."""

    def __init__(self, py_func: Any, py_file: str):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        root = cache_files.numba_cache_dir()
        self._cache_path = str(root / self.get_suitable_cache_subpath(py_file))

    def ensure_cache_path(self) -> None:
        cache_files.secure_dir(cache_files.numba_cache_dir())
        cache_files.secure_dir(Path(self._cache_path))

    def get_source_stamp(self) -> Any:
        """The file's stamp and those of the scalar functions' modules (and the IR of rsqrt's
        estimate), which numba links into
        (or inlines in) a function of another file: numba's own stamp is the file's alone, so
        `runtime.erf_inv_f64` kept a changed `vecmath.log_f32` from its disk cache."""
        own = super().get_source_stamp()
        return (own, *(_stamp(p) for p in _SHARED_SOURCES if p != Path(self._py_file)))


# The modules of cached scalar functions that cached functions of other files call.
_SHARED_SOURCES = tuple(
    Path(__file__).parent / name
    for name in (
        "vecmath.py",
        "vecmath_ops.py",
        "vecmath_f64.py",
        "vecmath_trig.py",
        "runtime.py",
        "rsqrt_estimate.py",
    )
)


def _stamp(path: Path) -> tuple[float, int]:
    st = path.stat()
    return st.st_mtime, st.st_size


class _Impl(CompileResultCacheImpl):
    def __init__(self, py_func: Any):  # no locator search: always `_Locator`
        self._lineno = py_func.__code__.co_firstlineno
        path = inspect.getfile(py_func)
        self._locator = _Locator(py_func, path)
        fullname = f"{Path(path).stem}.{py_func.__qualname__}"
        self._filename_base = self.get_filename_base(fullname, getattr(sys, "abiflags", ""))


class _VerifiedFile(IndexDataCacheFile):
    """numba's index + data files with content hashes (see the module docstring)."""

    def __init__(self, cache_path: str, filename_base: str, source_stamp: Any):
        super().__init__(cache_path, filename_base, source_stamp)
        self._index_name = f"{filename_base}.nbxi"
        self._index_path = os.path.join(cache_path, self._index_name)
        self._data_name_pattern = f"{filename_base}.{{number:d}}.nbxc"
        self.damaged: list[str] = []

    def _discard(self, path: str, err: Exception) -> None:
        self.damaged.append(str(err) if isinstance(err, CacheIntegrityError) else f"{path}: {err}")
        cache_files.remove(Path(path))

    def _load_index(self) -> dict:
        try:
            version, stamp, overloads = pickle.loads(
                cache_files.read_verified(Path(self._index_path))
            )
        except FileNotFoundError:
            return {}
        except Exception as err:  # damaged, or a pickle from an incompatible version
            self._discard(self._index_path, err)
            return {}
        return overloads if (version, stamp) == (self._version, self._source_stamp) else {}

    def _save_index(self, overloads: dict) -> None:
        payload = self._dump((self._version, self._source_stamp, overloads))
        cache_files.write_verified(Path(self._index_path), payload)

    def save(self, key: Any, data: Any) -> None:
        payload = self._dump(data)
        overloads = self._load_index()
        name = overloads.get(key, (None, None))[0]
        if name is None:
            used = {n for n, _ in overloads.values()}
            name = next(n for n in map(self._data_name, itertools.count(1)) if n not in used)
        digest = cache_files.write_verified(Path(self._data_path(name)), payload)
        overloads[key] = (name, digest)
        self._save_index(overloads)

    def load(self, key: Any) -> Any:
        entry = self._load_index().get(key)
        if entry is None:
            return None
        path = self._data_path(entry[0])
        try:
            return pickle.loads(cache_files.read_verified(Path(path), entry[1]))
        except FileNotFoundError:
            return None
        except Exception as err:
            self._discard(path, err)
            return None

    def drop(self, key: Any) -> None:
        """Forgets `key`'s entry (numba could not rebuild it)."""
        overloads = self._load_index()
        entry = overloads.pop(key, None)
        if entry is not None:
            cache_files.remove(Path(self._data_path(entry[0])))
            self._save_index(overloads)


class VerifiedCache(FunctionCache):
    """A numba function cache whose files are verified before use (see the module docstring)."""

    _impl_class = _Impl

    def __init__(self, py_func: Any, salt: str = ""):
        super().__init__(py_func)
        self._salt = salt
        stamp = self._impl.locator.get_source_stamp()
        self._cache_file = _VerifiedFile(self._cache_path, self._impl.filename_base, stamp)
        self._usable: bool | None = None
        CACHE_PATHS.add(Path(self._cache_path))

    def _index_key(self, sig: Any, codegen: Any) -> Any:
        # numba keys an entry by the signature, the target and the function's own bytecode;
        # the salt adds what its machine code also depends on (the symbols it calls).
        key = super()._index_key(sig, codegen)
        return (key, self._salt) if self._salt else key

    def _check_dir(self) -> bool:
        if self._usable is None:
            try:
                self._impl.locator.ensure_cache_path()
                self._usable = True
            except OSError as err:
                self._usable = False
                self._warn(f"cannot use its directory ({err}); it is compiled in memory")
        return self._usable

    def _warn(self, what: str) -> None:
        cache_files.warn(f"numbax's compile cache for {self._py_func.__qualname__}: {what}.")

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        if not self._check_dir():
            return None
        try:
            result = super().load_overload(sig, target_context)
        except Exception as err:  # verified bytes that numba still cannot rebuild
            reason = f"numba could not load it ({type(err).__name__}: {err})"
            self._cache_file.damaged.append(reason)
            self._cache_file.drop(self._index_key(sig, target_context.codegen()))
            result = None
        if self._cache_file.damaged:
            damaged, self._cache_file.damaged = self._cache_file.damaged, []
            self._warn(
                f"a cached entry was unusable and was deleted ({'; '.join(damaged)}); it is "
                "compiled again and the entry rewritten"
            )
        return result

    def save_overload(self, sig: Any, data: Any) -> None:
        if not self._check_dir():
            return
        try:
            super().save_overload(sig, data)
        except OSError as err:  # disk full, read-only file system, ...
            self._warn(f"the compiled code could not be saved ({err})")


def cached_njit(*signatures: Any, salt: str = "", **options: Any) -> Any:
    """`numba.njit(*signatures, cache=True, **options)` with a `VerifiedCache`.

    Args:
      *signatures: numba signatures to compile now (then no others are compiled); none for
        lazy compilation per call signature.
      salt: part of every entry's key besides numba's (the function's source file, bytecode
        and signature): a hash of the other sources its machine code depends on, such as the
        external symbols it calls, so that a change there compiles it again.
      **options: other `numba.njit` options (`cache` is implied).

    Returns:
      A decorator returning the numba dispatcher.
    """
    options.pop("cache", None)

    def wrap(fn: Any) -> Any:
        disp = numba.njit(**options)(fn)
        try:
            disp._cache = VerifiedCache(fn, salt)
        except OSError as err:  # no source file to key the cache on: compile in memory
            cache_files.warn(
                f"numbax cannot cache {fn.__qualname__} on disk ({err}); it is compiled in "
                "every process."
            )
        if signatures:
            for sig in signatures:
                with target.callbacks_raise():  # an interrupt while it compiles is raised
                    disp.compile(sig)
            disp.disable_compile()
        return disp

    return wrap
