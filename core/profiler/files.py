"""Writing profile files atomically: a temporary name in the same directory, then a rename."""

from __future__ import annotations

import os


def write_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Writes `data` to `path` so that `path` is either absent/old or complete, never partial.

    Args:
      path: the file to write.
      data: its contents.
    """
    path = os.fspath(path)
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
