"""Compiling kernels in worker processes, into the shared disk cache.

numba compiles under one process-wide lock, so threads cannot compile two kernels at once. When a
program has several kernels that no cache holds, `compile_in_parallel` lets worker processes
compile some of them while the main process compiles the others: the main process takes kernels
from the front of the list, the workers from the back. A worker compiles with
`disk_cache.compile_source`, which writes numba's cache atomically under a lock per kernel, and
the main process then loads the machine code from the cache. A worker's result is only a hint:
if it failed or wrote elsewhere, the main process compiles the kernel itself (the worker goes on
with the next item; only a dead worker stops).

Workers are fresh interpreters (`python -c _BOOT`), started when the process first compiles
something the disk cache does not hold (`program._compile_all`: its next programs likely miss
the cache too) and kept for the life of the process (each imports numba and the back end once,
0.5-0.7 s of CPU, which overlaps the process's own work: a cold process's first train step found
its worker still starting and compiled most library functions itself). A worker registers the
package `core` by its path without running its `__init__` (the public API: `core.numpy`, the
transforms, the primitives' front ends, a third of a second that a worker never uses) and
imports only the back-end modules it compiles with. They are not `multiprocessing` workers:
those re-run the user's main script in every worker unless it is guarded by
`if __name__ == "__main__"`.
Each speaks pickled `(source, in_types, cache_dir, shell)` requests (`(None, call name,
cache_dir, False)` for a library function, `core/backends/numba/library`) and `(ok, seconds)`
replies over its stdin and stdout; a thread per worker feeds it. A kernel requested with `shell`
is built as the shell the main process would make of it (`core/backends/llvm/shells.py`), or as
numba's kernel if it has none: the disk cache then holds what a later process looks for (a
worker that built numba's kernel of a shellable one left that process to compile its shell).
`config.jit_compile_workers` sets how many (default -1: the number of cores minus one, the main
process compiling too); 0 turns them off.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import gc
import os
import pickle
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from core.backends.llvm import shells, target
from core.backends.numba.library import entry
from core.jit import codegen, disk_cache, threads

# Objects left by a worker's compiles from which it collects (about two kernels' worth).
_COLLECT_AFTER = 200_000
_ROOT = str(Path(__file__).resolve().parents[2])  # the directory holding the `core` package
# A worker's program: this checkout's `core` (not one in the working directory, which `-c` puts
# first on the path) as a bare package (its submodules import on demand), then `_serve`.
_BOOT = (
    "import importlib.util, sys\n"
    f"sys.path.insert(0, {_ROOT!r})\n"
    "sys.modules['core'] = importlib.util.module_from_spec(importlib.util.find_spec('core'))\n"
    "from core.jit.workers import _serve\n"
    "_serve()\n"
)


def default_workers() -> int:
    """This process's cores (CPU mask and quota, shared with the other processes of an MPI
    job on them: `threads.process_cores`) minus one (the main process compiles too), at
    least 0."""
    return max(0, threads.process_cores() - 1)


class _Worker:
    """One worker process and the pipe protocol to it."""

    def __init__(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [_ROOT, env.get("PYTHONPATH")]))
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _BOOT],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        # A child starts with its parent thread's CPU mask: a worker started on a pmap device's
        # thread, which keeps to one CPU (the optimized twins of its first run, `program`),
        # would compile on that device's core alone.
        cpus = threads.process_cpus()
        if cpus is not None:
            with contextlib.suppress(OSError):  # it has exited already
                os.sched_setaffinity(self.proc.pid, cpus)
        self.lock = threading.Lock()  # one request at a time (programs compiled by threads)
        self.started = False

    def wait_started(self) -> None:
        """Waits until the worker has imported numba and the runtime (its first message): a
        worker that took an item while starting up could hold back a kernel this process is
        waiting for (the library function it calls)."""
        with self.lock:
            if not self.started:
                pickle.load(self.proc.stdout)
                self.started = True

    def compile(self, request: tuple) -> tuple[bool, float]:
        with self.lock:
            pickle.dump(request, self.proc.stdin)
            self.proc.stdin.flush()
            return pickle.load(self.proc.stdout)

    def close(self) -> None:
        """Ends the worker (after the item it is compiling; killed 5 s on) and closes both
        pipes (an open one is a ResourceWarning at exit)."""
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdin.close()
        self.proc.stdout.close()


_workers: list[_Worker] = []
_lock = threading.Lock()


def start(size: int) -> list[_Worker]:
    """Starts workers until `size` run (without waiting for them); returns those `size`."""
    with _lock:
        _workers[:] = [w for w in _workers if w.proc.poll() is None]
        while len(_workers) < size:
            try:
                _workers.append(_Worker())
            except OSError:  # no interpreter to start (an embedded Python): no workers
                break
        return _workers[:size]


def _forget_after_fork() -> None:
    """In a forked child: the parent's workers (and their pipes, which a thread of the parent
    may be using) are not the child's; it starts its own when it compiles."""
    global _lock
    _workers.clear()
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)


_stopping = threading.Event()  # set at exit: background compiles take no more items


@atexit.register
def shutdown() -> None:
    """Stops the workers (at exit): each ends after the item it is compiling (a cache file is
    written whole or not at all, `cache_files.write_atomic`), or is killed 5 s on; background
    compiles not started are dropped (a later process compiles what it needs)."""
    _stopping.set()
    with _lock:
        for w in _workers:
            w.close()
        _workers.clear()


def compile_in_parallel(
    items: list,
    request: Callable[[object], tuple],
    compile_here: Callable[[object], None],
    size: int,
    after: Callable[[object], tuple] = lambda item: (),
) -> dict:
    """Compiles every item: `compile_here(item)` in this process from the front of `items`,
    `request(item)` sent to up to `size` workers from the back. An item is taken once the items
    `after(item)` names are done (a kernel after the library functions it calls): each side
    takes the first such item from its end, or waits for one; with nothing in progress, it
    takes the next item anyway (an item whose dependencies are not in `items`).

    Returns:
      {item: seconds} for the items a worker compiled (to be loaded from the disk cache).
    """
    todo = list(items)
    done: dict = {}
    finished: set = set()
    failed: set = set()  # items a worker gave back: this process compiles them
    cond = threading.Condition()
    running = [0]

    def take(front: bool):
        with cond:
            while todo:
                order = todo if front else [it for it in reversed(todo) if it not in failed]
                if not order:  # what is left is this process's
                    return None
                item = next((it for it in order if finished.issuperset(after(it))), None)
                if item is None and not running[0]:
                    item = order[0]
                if item is not None:
                    todo.remove(item)
                    running[0] += 1
                    return item
                cond.wait()
            return None

    def finish(item, ok: bool) -> None:
        with cond:
            running[0] -= 1
            if ok:
                finished.add(item)
            else:  # given back: this process compiles it
                failed.add(item)
                todo.append(item)
            cond.notify_all()

    def feed(worker: _Worker) -> None:
        try:
            worker.wait_started()
        except Exception:  # it died starting up
            return
        while (item := take(front=False)) is not None:
            try:
                ok, seconds = worker.compile(request(item))
            except Exception:  # a dead worker: the main process compiles what is left
                finish(item, False)
                return
            if ok:
                done[item] = seconds
            finish(item, ok)  # a failed item is given back, the worker goes on

    threads = []
    if size > 0 and len(items) > 1:
        threads = [threading.Thread(target=feed, args=(w,), daemon=True) for w in start(size)]
        for t in threads:
            t.start()
    while (item := take(front=True)) is not None:
        try:
            compile_here(item)
        finally:
            finish(item, True)
    for t in threads:
        t.join()
    with cond:  # items a worker gave back after the main loop ended
        rest = list(todo)
    for item in rest:
        compile_here(item)
    return done


def compile_in_background(
    items: list, request: Callable[[object], tuple], done: Callable[[object], None], size: int
) -> list[threading.Thread]:
    """Has up to `size` workers compile `items` (in order) while this process goes on: a
    thread per worker sends it the next item and calls `done(item)` (on that thread) when it is
    in the disk cache. An item a worker fails is dropped (it was an improvement, not needed).

    Returns:
      The threads (daemons), to join to wait for everything.
    """
    todo = collections.deque(items)
    guard = threading.Lock()

    def feed(worker: _Worker) -> None:
        try:
            worker.wait_started()
            while True:
                with guard:
                    if not todo or _stopping.is_set():
                        return
                    item = todo.popleft()
                ok, _ = worker.compile(request(item))
                if ok:
                    done(item)
        except Exception:  # a dead worker, or a failed load: the rest stays as it is
            return

    threads = [threading.Thread(target=feed, args=(w,), daemon=True) for w in start(size)]
    for t in threads:
        t.start()
    return threads


def _serve() -> None:
    """The worker's loop: compile each request into the disk cache, reply (ok, seconds)."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # anything printed must not corrupt the replies
    # No collections while compiling (`gc_pause` keeps the young ones in the main process;
    # a worker holds nothing else): after a reply, once the compiles have left
    # many objects, one collection frees their garbage and freezes the survivors (numba's
    # caches), which later collections then skip.
    gc.disable()
    pickle.dump("started", stdout)
    stdout.flush()
    while True:
        try:
            source, in_types, cache, shell, *quick = pickle.load(stdin)
        except EOFError:
            return
        os.environ["NUMBAX_CACHE_DIR"] = cache
        start = time.perf_counter()
        try:
            with target.quick_tier(bool(quick and quick[0]), shared=True):
                _compile(source, in_types, shell)
            ok = True
        except Exception:
            ok = False
        pickle.dump((ok, time.perf_counter() - start), stdout)
        stdout.flush()
        if gc.get_count()[0] > _COLLECT_AFTER:
            gc.collect()
            gc.freeze()


def _compile(source: str | None, in_types, shell: bool) -> None:
    """A worker's compile of one request (`_serve`) into the disk cache; in the quick tier
    (`target.quick_tier`, shared), its quick code under names of its own. Outside it, what the
    worker holds as quick code is compiled optimized."""
    if source is None:  # a library function, named by its call name
        if target.is_quick() or not entry.quick(in_types):
            entry.load(*entry.signature_of(in_types))
        else:
            entry.upgrade(in_types, build=True)
        return
    with entry.deferred_loading():  # the library functions it calls are items of their own
        if shell and not target.is_quick() and shells.optimized(source, in_types, build=True):
            return
        if not shell or shells.entry(source, in_types) is None:
            sig = codegen.signature(in_types)
            options = codegen.kernel_options(source)
            disk_cache.compile_source(source, "kernel", sig, **options)
