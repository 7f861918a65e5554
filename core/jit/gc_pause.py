"""The garbage collector's full collections, paused while numba compiles.

numba creates hundreds of thousands of Python objects for every function it compiles (IR,
types, lowering state), and many of them live until the compile ends. The collector's full
collections, triggered by that growth, traverse every object of the process again and again:
five to ten of them took 1.1-1.2 s of the MNIST CNN's and the transformer's cold first calls
(CPU 10.6 -> 8.7 s for the CNN without them), and the last one fell in the user's next call (the
CNN step at a second batch size: 0.31 s instead of 0.06 s). `paused()` keeps the young
generations' collections (they free most of a compile's garbage, so memory stays as before)
but no full collection while a program compiles, and runs one as it ends if the compile left
many objects behind.

That collection looks at the compile's objects only: the objects the process had when it
started are frozen meanwhile (`gc.freeze`, the permanent generation; `gc.unfreeze` puts them
back into the oldest generation as it ends). Traversing the whole process again (numba's
registries, the user's objects) was most of it: the MNIST MLP's 0.14 s of a 1.0 s cold first
call, the transformer's 0.28 s. A process that froze objects itself (before a `fork`) keeps
them frozen: its compiles freeze nothing.

The young generation's threshold is `YOUNG_SCALE` times larger meanwhile: a compile's objects
mostly die young by reference counting, and fewer collections look at fewer of them (the
transformer's cold first call: 416 young and middle collections, 41-45 ms of its main thread,
against 22 and 18-19 ms); the full collection as it ends is due after as much allocation as
before.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

_lock = threading.Lock()
_state = {"depth": 0, "threshold": (700, 10, 10), "frozen": False}
YOUNG_SCALE = 10


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """No full collection until the outermost `paused()` of any thread ends, then one if the
    compiles made enough collections of the younger generations that one was due."""
    with _lock:
        if _state["depth"] == 0:
            _state["threshold"] = gc.get_threshold()
            young, middle, _ = _state["threshold"]
            gc.set_threshold(young * YOUNG_SCALE, middle, 1 << 30)
            _state["frozen"] = gc.get_freeze_count() == 0  # not the process's own freeze
            if _state["frozen"]:
                gc.freeze()
        _state["depth"] += 1
    try:
        yield
    finally:
        with _lock:
            _state["depth"] -= 1
            resume = _state["depth"] == 0
            frozen = resume and _state["frozen"]
            if resume:
                gc.set_threshold(*_state["threshold"])
                _state["frozen"] = False
        # The middle generation's collections since the last full one (each `YOUNG_SCALE` of
        # them at the usual threshold): as many as the oldest generation's threshold means a
        # full collection was due (compiling one kernel makes tens of them, loading one from
        # the disk cache none or one).
        due = gc.get_count()[2] * YOUNG_SCALE >= _state["threshold"][2]
        if resume and gc.isenabled() and due:
            gc.collect()
        if frozen:  # (a compile another thread starts meanwhile just freezes nothing)
            gc.unfreeze()
