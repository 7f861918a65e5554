"""Arrays whose values are still being computed: the futures of asynchronous dispatch.

A jitted call dispatched asynchronously (`core/jit/dispatch.py`) returns at once, with
`PendingArray`s: `Array`s that know their abstract value (shape, dtype, weak type) but not yet
their numpy value, and hold the `Task` of the call computing it. Reading the value in any way
(`np.asarray`, printing, `float()`, indexing, eager operations, pickling, ...) goes through the
`_value` slot, which a pending array leaves unset: Python then calls `__getattr__`, which waits
for the task. When the kernel finishes, the device's worker sets every output's `_value` and
turns it into a plain `Array` (`__class__` assignment: the layout is the same), so reads of a
finished array cost nothing extra, and a ready array never pays for this machinery.

An exception of the kernel (a host callback's, a signal's) is kept by the task and raised at
every read of its outputs, as a `JitExecutionError` that names the jitted function, is also an
instance of the original exception's class, and chains the original (`__cause__`). Exceptions
that are not `Exception`s (`KeyboardInterrupt`, `SystemExit`) are raised as they are.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from core import tree_util
from core.array import Array
from core.array_base import ArrayBase
from core.jit.errors import JitExecutionError

_WRAPPERS: dict[type, type] = {}


def _wrapper_class(kind: type) -> type:
    """A subclass of `JitExecutionError` and `kind`, made once per exception class."""
    cls = _WRAPPERS.get(kind)
    if cls is None:
        try:
            cls = type(kind.__name__, (JitExecutionError, kind), {"__module__": kind.__module__})
        except TypeError:  # a class that cannot be subclassed, or whose layout conflicts
            cls = JitExecutionError
        _WRAPPERS[kind] = cls
    return cls


def execution_error(err: BaseException, name: str) -> BaseException:
    """The exception to raise where the outputs of the jitted function `name` are read, for
    the exception `err` its kernel raised (see the module docstring)."""
    if isinstance(err, JitExecutionError) or not isinstance(err, Exception):
        return err  # an input's error passed on as it is; KeyboardInterrupt, SystemExit
    cls = _wrapper_class(type(err))
    try:
        wrapped = Exception.__new__(cls)
    except TypeError:  # a class whose layout is another base's (OSError's, TimeoutError's)
        wrapped = type(err).__new__(cls)
    Exception.__init__(
        wrapped,
        f"the jitted function {name!r}, dispatched asynchronously, raised "
        f"{type(err).__name__}: {err}",
    )
    wrapped.__dict__.update(getattr(err, "__dict__", {}))  # attributes a custom __str__ reads
    wrapped.__cause__ = err
    return wrapped


_THEN_LOCK = threading.Lock()  # `Task.then` against `Task.finish`


class Task:
    """One asynchronously dispatched call: done or not, and the error it raised.

    Completion is a lock held from creation until the worker releases it (cheaper to make
    than an `Event`); a waiter takes and releases it, so any number of threads may wait.
    """

    __slots__ = ("_running", "error", "name", "worker", "_then")

    def __init__(self, name: str, worker: Any):
        self._running = threading.Lock()
        self._running.acquire()
        self.error: BaseException | None = None
        self.name = name
        self.worker = worker  # the device worker running it (calls on its outputs chain there)
        self._then: list | None = None

    def finish(self, err: BaseException | None = None) -> None:
        """Marks the task done (called by the worker), failed with `err` if given, and runs
        what `then` asked for."""
        try:
            if err is not None:
                self.error = execution_error(err, self.name)
        except Exception:  # an exception class that cannot be wrapped: raised as it is
            self.error = err
        finally:
            self._running.release()
            with _THEN_LOCK:
                after, self._then = self._then, None
            for fn in after or ():
                fn()

    def then(self, fn: Callable[[], Any]) -> None:
        """Runs `fn()` once the task is done: now if it is, else on the thread that ends it."""
        with _THEN_LOCK:
            if not self.done():
                self._then = [*(self._then or ()), fn]
                return
        fn()

    def done(self) -> bool:
        return not self._running.locked()

    def wait(self) -> None:
        """Blocks until the task is done (a signal handler's exception, such as Ctrl-C's
        KeyboardInterrupt, interrupts the wait)."""
        if self._running.locked():
            self._running.acquire()
            self._running.release()

    def raise_error(self) -> None:
        """Raises the error the task failed with (call when it is done), if any."""
        if self.error is not None:
            raise self.error.with_traceback(None) from self.error.__cause__


_VALUE = Array._value  # the slot's descriptor: reads the slot without calling __getattr__


class UnreadArray(Array):
    """An `Array` whose `_value` slot is set on its first read, by `__getattr__` (a subclass's):
    what does not need the value comes from the abstract value (`ArrayBase`), without reading
    it. `PendingArray` waits for a device; pmap's `StackedArray` stacks its devices' results."""

    __slots__ = ()

    shape = ArrayBase.shape
    dtype = ArrayBase.dtype
    ndim = ArrayBase.ndim
    size = ArrayBase.size

    @property
    def nbytes(self) -> int:
        return self._aval.size * self._aval.dtype.itemsize

    @property
    def itemsize(self) -> int:
        return self._aval.dtype.itemsize


class PendingArray(UnreadArray):
    """An `Array` whose value a device is still computing (see the module docstring)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        # Called only for attributes not set: `_value` before the kernel finished (or when it
        # failed), `_sharding` of an uncommitted array.
        if name != "_value":
            raise AttributeError(f"'Array' object has no attribute {name!r}")
        task = self._pending
        task.wait()
        try:
            return _VALUE.__get__(self, Array)
        except AttributeError:
            task.raise_error()  # else a finished task set every output: never reached
            raise RuntimeError("an asynchronous task finished without its value") from None

    def block_until_ready(self) -> Array:
        """Waits until the value is computed and returns self (raises the call's error)."""
        self._value  # noqa: B018 - the read waits (and raises the error of a failed call)
        return self

    def is_ready(self) -> bool:
        return self._pending.done()


def block_until_ready(x: Any) -> Any:
    """Waits until every array leaf of `x` is computed (`jax.block_until_ready`).

    Args:
      x: a pytree; leaves with a `block_until_ready` method are waited for.

    Returns:
      `x`, unchanged. An array whose jitted call raised raises that error here.
    """
    for leaf in tree_util.tree_leaves(x):
        if type(leaf) is Array:  # computed (a pending one's class is another until filled)
            continue
        wait = getattr(leaf, "block_until_ready", None)
        if wait is not None:
            wait()
    return x
