"""Keep glibc from handing big arrays back to the kernel after every compiled call.

A compiled train step allocates its intermediates afresh on every call (a CNN step at batch
128: about 50 MB). glibc serves blocks above its mmap threshold with fresh `mmap`s and returns
freed heap tops above its trim threshold to the kernel, so every call pays page faults and
page zeroing for memory it had a moment ago: measured here, the CNN step took 78 ms as is and
56 ms with both thresholds raised (either alone did not help). Threads other than the main one
(the devices' worker threads, which run jitted calls and pmap's programs) allocate from their
own arenas, made of heaps of at most 64 MB that glibc unmaps as soon as one is empty, whatever
the trim threshold: a per-device ResNet-10 step, which frees more than a heap each call, paid
10,000 page faults per device and call (a sixth of its time) until the top pad was raised to
64 MB too, which keeps every heap (and 64 MB at the main heap's top). `tune()` sets the three
once per process, when the numba back end loads: blocks up to 32 MB come from the heaps and
the memory freed stays reserved for the next call (a process's resident size stays at its
peak). Other allocators (musl, macOS, Windows) are left alone, and `NUMBAX_MALLOC_TUNING=0`
turns it off.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

_M_TRIM_THRESHOLD = -1
_M_TOP_PAD = -2
_M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20
TRIM_THRESHOLD = 64 << 20
TOP_PAD = 64 << 20  # an arena's heap size (`HEAP_MAX_SIZE` on 64-bit): no heap is unmapped


def tune() -> bool:
    """Raises glibc's mmap and trim thresholds and its top pad (see the module docstring).

    Returns:
      Whether the thresholds were set (False off glibc or when disabled).
    """
    if os.environ.get("NUMBAX_MALLOC_TUNING", "1") in ("0", "false", "False"):
        return False
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (e.g. musl has no mallopt)
        return False
    settings = (
        (_M_MMAP_THRESHOLD, MMAP_THRESHOLD),
        (_M_TRIM_THRESHOLD, TRIM_THRESHOLD),
        (_M_TOP_PAD, TOP_PAD),
    )
    return all([bool(mallopt(option, value)) for option, value in settings])
