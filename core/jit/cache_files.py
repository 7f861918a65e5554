"""Safe file primitives of the compile cache: private directories, atomic verified writes.

Every cache file is written to a fresh temporary name opened with O_CREAT|O_EXCL|O_NOFOLLOW
(mode 0600, so a planted file or symlink is never written through) and renamed over its final
name, so readers see the old file or the whole new one. Verified files start with a magic line
and the SHA-256 of their payload, checked before anything is unpickled or executed. Directories
are created 0700, and one owned by another user or writable by group or others is refused:
whoever can write there could plant machine code that this process would run.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import secrets
import stat
import sys
import warnings
from pathlib import Path

from core.jit.errors import CacheIntegrityError, JitCacheWarning, UnsafeCacheDirError

MAGIC = b"numbax-cache-1\n"
_DIGEST = hashlib.sha256().digest_size
_TMP_SUFFIX = ".tmp"
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def cache_dir() -> Path:
    """The compile cache: `$NUMBAX_CACHE_DIR`, else `$XDG_CACHE_HOME/numbax`, else
    `~/.cache/numbax`."""
    env = os.environ.get("NUMBAX_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "numbax"


def numba_cache_dir() -> Path:
    """Where numba's index and machine code files of numbax functions go: numba's own
    `NUMBA_CACHE_DIR` if set, else `<cache_dir()>/numba`."""
    import numba  # noqa: PLC0415 (numba: on first compile)

    return Path(numba.config.CACHE_DIR) if numba.config.CACHE_DIR else cache_dir() / "numba"


def secure_dir(path: Path) -> Path:
    """Creates `path` (each missing level with mode 0700) and checks that only we can write it.

    Args:
      path: the directory.

    Returns:
      `path`.

    Raises:
      UnsafeCacheDirError: `path` is owned by another user or writable by group or others.
      OSError: `path` cannot be created (or is not a directory).
    """
    missing = []
    level = path
    while not level.exists():
        missing.append(level)
        level = level.parent
    for level in reversed(missing):
        with contextlib.suppress(FileExistsError):
            level.mkdir(mode=0o700)
    st = os.stat(path)
    if not stat.S_ISDIR(st.st_mode):
        raise NotADirectoryError(f"{path} is not a directory")
    if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
        raise UnsafeCacheDirError(path, f"it is owned by uid {st.st_uid}, not by you")
    if st.st_mode & 0o022:
        raise UnsafeCacheDirError(path, f"others can write it (mode {stat.filemode(st.st_mode)})")
    return path


def read_bytes(path: Path) -> bytes:
    """The contents of `path`, refusing to follow a symlink (OSError)."""
    fd = os.open(path, os.O_RDONLY | _O_NOFOLLOW | _O_CLOEXEC)
    with os.fdopen(fd, "rb") as f:
        return f.read()


def write_atomic(path: Path, data: bytes) -> None:
    """Writes `data` to `path` through an exclusive private temporary file and a rename."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}{_TMP_SUFFIX}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_CLOEXEC, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def is_temporary(name: str) -> bool:
    """Whether `name` is a temporary file of `write_atomic` (or of numba's own writer)."""
    return name.endswith(_TMP_SUFFIX) or ".tmp." in name


def digest(payload: bytes) -> bytes:
    """The SHA-256 of `payload` (what verified files record)."""
    return hashlib.sha256(payload).digest()


def write_verified(path: Path, payload: bytes) -> bytes:
    """Writes `payload` behind the magic line and its digest; returns the digest."""
    d = digest(payload)
    write_atomic(path, MAGIC + d + payload)
    return d


def read_verified(path: Path, expected: bytes | None = None) -> bytes:
    """The payload of a file written by `write_verified`, after checking its digest.

    Args:
      path: the file.
      expected: the digest the payload must have (as recorded elsewhere, e.g. in an index);
        by default the one stored in the file.

    Raises:
      FileNotFoundError: no such file.
      CacheIntegrityError: not a verified file, a symlink, or a payload whose hash differs.
    """
    try:
        raw = read_bytes(path)
    except FileNotFoundError:
        raise
    except OSError as err:
        raise CacheIntegrityError(path, f"unreadable ({err})") from err
    head = len(MAGIC)
    payload = raw[head + _DIGEST :]
    stored = raw[head : head + _DIGEST]
    if raw[:head] != MAGIC:
        raise CacheIntegrityError(path, "not a numbax cache file")
    if digest(payload) != stored or (expected is not None and stored != expected):
        raise CacheIntegrityError(path, "its content hash does not match the one recorded")
    return payload


def read_pickled(path: Path):
    """The object pickled in a file written by `write_verified`, or None if the file is
    missing, damaged, unreadable or does not unpickle (the caller compiles again)."""
    try:
        return pickle.loads(read_verified(path))  # noqa: S301 (verified first)
    except Exception:
        return None


def warn(message: str) -> None:
    """Issues a `JitCacheWarning` attributed to the first caller outside `core` and numba
    (usually the user's jitted call), however deep in the compiler the problem was found."""
    import numba  # noqa: PLC0415 (numba: on first compile)

    skip = (str(Path(__file__).resolve().parents[1]), str(Path(numba.__file__).parent))
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(skip):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, JitCacheWarning, stacklevel=level)


def remove(path: Path) -> None:
    """Deletes `path` if it exists."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
