"""The live-array memory profile: `device_memory_profile`, `save_device_memory_profile`.

As in JAX, the profile is a gzipped pprof protobuf with two values per sample, `allocations`
(count) and `space` (bytes, the default), one sample per distinct allocation stack and shape,
over every live `Array` (arrays sharing one buffer, e.g. a reshape and its source, count once).
Read it with `pprof -top memory.prof` or `pprof -http=: memory.prof`.

Allocation stacks come from Python's `tracemalloc`, which records the stack where each buffer's
numpy array was created: start the program with `PYTHONTRACEMALLOC=25` (or call
`tracemalloc.start(25)` before creating the arrays). Frames inside `core` and numpy are left
out, as JAX leaves out its own. Without `tracemalloc` the arrays are still counted, under a single
frame saying how to get stacks (recording every array's stack unconditionally would slow every
operation; tracemalloc costs that only when asked for).
"""

from __future__ import annotations

import gc
import os
import tracemalloc

import numpy as np

from core.array import Array
from core.profiler.files import write_atomic
from core.profiler.pprof import Frame, ProfileBuilder
from core.source_info import _CORE_DIR

_HIDDEN = (_CORE_DIR, os.path.dirname(np.__file__) + os.sep)  # numbax's core and numpy
_NO_STACK: Frame = ("(allocation stacks not recorded: run with PYTHONTRACEMALLOC=25)", "", 0)


def _root(value: np.ndarray) -> np.ndarray:
    while isinstance(value.base, np.ndarray):
        value = value.base
    return value


def _stack(buffer: np.ndarray) -> list[Frame]:
    tb = tracemalloc.get_object_traceback(buffer) if tracemalloc.is_tracing() else None
    if tb is None:
        return [_NO_STACK]
    frames = [(f.filename, f.lineno) for f in reversed(tb)]  # leaf first
    user = [f for f in frames if not f[0].startswith(_HIDDEN)] or frames[-1:]
    return [(_function_name(fn, line), fn, line) for fn, line in user]


def _function_name(filename: str, line: int) -> str:
    """`file.py:line` (tracemalloc records no function names)."""
    return f"{os.path.basename(filename)}:{line}"


def live_buffers() -> list[tuple[np.ndarray, Array]]:
    """Every live `Array`'s underlying buffer, once per buffer, with one Array using it.

    The Array reported for a buffer is the one holding the buffer itself when it is alive (not a
    reshape or slice viewing it), whatever order the collector lists objects in.
    """
    seen: dict[int, tuple[np.ndarray, Array]] = {}
    for obj in gc.get_objects():
        if type(obj) is Array:
            value = getattr(obj, "_value", None)
            if isinstance(value, np.ndarray):
                root = _root(value)
                if value is root or id(root) not in seen:
                    seen[id(root)] = (root, obj)
    return list(seen.values())


def device_memory_profile(backend: str | None = None) -> bytes:
    """The live arrays as a gzipped pprof profile (see the module docstring).

    Args:
      backend: accepted for JAX compatibility (there is one device, the CPU).

    Returns:
      The serialized profile.
    """
    del backend
    builder = ProfileBuilder([("allocations", "count"), ("space", "bytes")], "space")
    groups: dict[tuple, list[int]] = {}
    for buffer, array in live_buffers():
        stack = tuple(_stack(buffer))
        shape = array.aval.str_short(short_dtypes=True)
        counts = groups.setdefault((stack, shape), [0, 0])
        counts[0] += 1
        counts[1] += buffer.nbytes
    for (stack, shape), values in groups.items():
        builder.add(stack, values, {"kind": "buffer", "device": "cpu:0", "shape": shape})
    return builder.build()


def save_device_memory_profile(filename: str | os.PathLike, backend: str | None = None) -> None:
    """Writes `device_memory_profile()` to `filename` (atomically).

    Args:
      filename: where to write the profile (e.g. "memory.prof").
      backend: accepted for JAX compatibility.
    """
    write_atomic(filename, device_memory_profile(backend))
