"""What a second thread can add next to one busy process, on a synthetic step (no numbax
kernels): `jobs` parallel loops of `pieces` pieces of `piece_us` microseconds of arithmetic
each, with `serial_us` of the caller's own work before each loop, run by the caller alone or by
the caller and one worker that take pieces from a shared counter (numbax's pool's way,
`core/backends/llvm/pool.py`), idle and next to a busy process (a Python loop, as
`models_step.py --busy` starts it).

Ways the caller ends a loop (`--modes`):

- `one`: the caller runs every piece (one thread);
- `wait`: the caller takes every piece nobody started and then waits for the worker's piece in
  flight (the pool's protocol);
- `backup`: ... and then runs a piece the worker has held for longer than `--late` times a
  piece's time itself, claiming it by compare-and-swap (the worker's copy, if it finishes
  later, is thrown away; a real kernel's worker would compute into memory of its own and copy
  it out after winning the claim, modelled by `--commit` of a piece's time spent after it:
  the caller waits for that part).

The worker spins `--spin-us` for the next loop and then sleeps on a futex (`--spin-us -1`:
spins through the whole run). Per-thread run and run-queue wait times per step come from
`/proc/self/task/*/schedstat`.

Usage: `python bench/second_thread.py [--rounds 3] [--seconds 1] [--modes one,wait,backup]
[--jobs 40] [--pieces 8] [--piece-us 60] [--serial-us 100] [--spin-us 50]`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time

import numba
import numpy as np
from numba import types
from numba.extending import intrinsic

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench._common import print_json, thread_schedstat  # noqa: E402
from core.backends.llvm import pool  # noqa: E402
from core.backends.llvm.pool import CPU, CPUS  # noqa: E402
from core.backends.numba.library.exchange import (  # noqa: E402
    _FUTEX_WAIT_PRIVATE,
    _FUTEX_WAKE_PRIVATE,
    _add_flag,
    _flag,
    _futex,
    _now,
    _pause,
)

_jit = numba.njit(nogil=True, cache=True)


# The pool's atomic words and CPU placement (`core/backends/llvm/pool.py`) as numba intrinsics
@intrinsic
def _load(typingctx, base, word):
    return types.int64(types.int64, types.int64), lambda _, b, sig, args: pool.load(b, *args)


@intrinsic
def _store(typingctx, base, word, value):
    def codegen(context, b, sig, args):
        pool.store(b, *args)
        return context.get_dummy_value()

    return types.none(types.int64, types.int64, types.int64), codegen


@intrinsic
def _swap(typingctx, base, word, expected, value):
    return types.boolean(*[types.int64] * 4), lambda _, b, sig, args: pool.swap(b, *args)


@intrinsic
def _getcpu(typingctx):
    return types.int64(), lambda _, b, sig, args: pool.getcpu(b)


@intrinsic
def _keep_off(typingctx, state, away):
    def codegen(context, b, sig, args):
        fn = b.module.globals.get("numbax_pool.keep_off") or pool.keep_off(b.module)
        return b.call(fn, args)

    return types.int64(types.int64, types.int64), codegen


# state words
EPOCH, NEXT, COUNT, STOP, SLEEPERS, SPIN, WORK, COMMIT, TAKEN, STOLEN = range(10)
# a piece's status: job << 3 | one of these
FREE, WORKER, CALLER, COMMITTING, DONE = range(5)


@_jit
def _work(n):
    x = 1.0
    for _ in range(n):
        x = x * 1.0000001 + 1e-9
    return x


@_jit
def _calibrate():
    t0 = _now()
    _work(10_000_000)
    return 10_000_000 / ((_now() - t0) / 1000.0)  # iterations per microsecond


@_jit
def _serve(state, status, started):
    """The worker: takes pieces of every loop; spins SPIN ns for the next one, then sleeps."""
    seen = _flag(state, EPOCH)
    sink = 0.0
    away = -1
    while _load(state, STOP) == 0:
        if _flag(state, EPOCH) == seen:
            spin = _load(state, SPIN)
            end = _now() + spin
            while _flag(state, EPOCH) == seen and (spin < 0 or _now() < end):
                if _load(state, STOP):
                    return sink
                for _ in range(64):
                    _pause()
            if _flag(state, EPOCH) == seen:
                _add_flag(state, SLEEPERS, 1)
                if _flag(state, EPOCH) == seen and _load(state, STOP) == 0:
                    _futex(state, EPOCH, _FUTEX_WAIT_PRIVATE, seen, 100_000_000)
                _add_flag(state, SLEEPERS, -1)
            continue
        seen = _flag(state, EPOCH)
        job = seen
        if _load(state, CPUS) != 0:
            away = _keep_off(state, away)
        count, work, commit = _load(state, COUNT), _load(state, WORK), _load(state, COMMIT)
        while True:
            k = _add_flag(state, NEXT, 1)
            if k >= count or _flag(state, EPOCH) != job:
                break
            if not _swap(status.ctypes.data, k, job << 3 | FREE, job << 3 | WORKER):
                continue
            started[k] = _now()
            sink += _work(work)
            if _swap(status.ctypes.data, k, job << 3 | WORKER, job << 3 | COMMITTING):
                sink += _work(commit)  # the copy out of the worker's own memory
                _store(status.ctypes.data, k, job << 3 | DONE)
                _add_flag(state, TAKEN, 1)
    return sink


@_jit
def _step(state, status, started, mode, jobs, pieces, work, serial, late_ns):
    """One step: `jobs` loops, each after `serial` iterations of the caller's own work."""
    sink = 0.0
    for _ in range(jobs):
        sink += _work(serial)
        if mode == 0:
            for _k in range(pieces):
                sink += _work(work)
            continue
        job = (_flag(state, EPOCH) + 1) & 0xFFFFFFF
        for k in range(pieces):
            _store(status.ctypes.data, k, job << 3 | FREE)
        _store(state, COUNT, pieces)
        _store(state, WORK, work)
        _store(state, CPU, _getcpu())
        _flag(state, NEXT)
        _store(state, NEXT, 0)
        _add_flag(state, EPOCH, 1)
        if _flag(state, SLEEPERS) > 0:
            _futex(state, EPOCH, _FUTEX_WAKE_PRIVATE, 1, 0)
        while True:
            k = _add_flag(state, NEXT, 1)
            if k >= pieces:
                break
            if _swap(status.ctypes.data, k, job << 3 | FREE, job << 3 | CALLER):
                sink += _work(work)
                _store(status.ctypes.data, k, job << 3 | DONE)
        for k in range(pieces):  # the worker's pieces in flight
            while True:
                s = _load(status.ctypes.data, k)
                if s == (job << 3 | DONE):
                    break
                if s == (job << 3 | FREE) and _swap(status.ctypes.data, k, s, job << 3 | CALLER):
                    sink += _work(work)  # (an index a late worker's fetch-add consumed)
                    _store(status.ctypes.data, k, job << 3 | DONE)
                    break
                if (
                    mode == 2
                    and s == (job << 3 | WORKER)
                    and _now() - started[k] > late_ns
                    and _swap(status.ctypes.data, k, s, job << 3 | CALLER)
                ):
                    sink += _work(work)
                    _add_flag(state, STOLEN, 1)
                    _store(status.ctypes.data, k, job << 3 | DONE)
                    break
                _pause()
    return sink


@_jit
def _stop(state):
    _store(state, STOP, 1)
    _add_flag(state, EPOCH, 1)
    _futex(state, EPOCH, _FUTEX_WAKE_PRIVATE, 1, 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--modes", default="one,wait,backup")
    parser.add_argument("--jobs", type=int, default=40)
    parser.add_argument("--pieces", type=int, default=8)
    parser.add_argument("--piece-us", type=float, default=60.0)
    parser.add_argument("--serial-us", type=float, default=100.0)
    parser.add_argument("--spin-us", type=float, default=50.0)
    parser.add_argument("--pin", action="store_true", help="caller on core 0, worker on 1")
    parser.add_argument("--keep-off", action="store_true", help="worker off the caller's CPU")
    parser.add_argument("--pin-caller", action="store_true", help="caller on core 0 only")
    parser.add_argument("--late", type=float, default=1.5, help="in pieces' times")
    parser.add_argument("--commit", type=float, default=0.05, help="in pieces' times")
    args = parser.parse_args()
    rate = _calibrate()
    rate = statistics.median(_calibrate() for _ in range(5))
    work, serial = int(args.piece_us * rate), int(args.serial_us * rate)
    state = np.zeros(18, np.int64)
    state[SPIN] = -1 if args.spin_us < 0 else int(args.spin_us * 1000)
    state[COMMIT] = int(args.commit * work)
    status = np.zeros(max(args.pieces, 1), np.int64)
    started = np.zeros(max(args.pieces, 1), np.int64)
    worker = threading.Thread(target=_serve, args=(state.ctypes.data, status, started))
    worker.start()
    cpus = sorted(os.sched_getaffinity(0))
    if args.keep_off:
        state[CPUS] = sum(1 << c for c in cpus)
    if args.pin_caller:
        os.sched_setaffinity(threading.get_native_id(), {cpus[0]})
    if args.pin:
        os.sched_setaffinity(threading.get_native_id(), {cpus[0]})
        os.sched_setaffinity(worker.native_id, {cpus[1]})
    modes = {"one": 0, "wait": 1, "backup": 2}
    late = int(args.late * args.piece_us * 1000)
    res: dict = {}
    try:
        for r in range(args.rounds):
            for phase in ("idle", "busy"):
                hog = None
                if phase == "busy":
                    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
                    os.sched_setaffinity(hog.pid, cpus)  # not the caller's pinned mask
                    time.sleep(0.3)
                for name in args.modes.split(","):
                    m = modes[name]
                    _step(state.ctypes.data, status, started, m, 2, args.pieces, work, serial, late)
                    s0, t0, c0 = thread_schedstat(), time.perf_counter(), time.process_time()
                    taken0, stolen0 = int(state[TAKEN]), int(state[STOLEN])
                    steps = 0
                    while time.perf_counter() - t0 < args.seconds:
                        _step(
                            state.ctypes.data,
                            status,
                            started,
                            m,
                            args.jobs,
                            args.pieces,
                            work,
                            serial,
                            late,
                        )
                        steps += 1
                    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
                    s1 = thread_schedstat()
                    main_id = threading.get_native_id()
                    wid = worker.native_id
                    row = {
                        "wall": wall / steps * 1e3,
                        "cpu": cpu / steps * 1e3,
                        "main_run": (s1[main_id][0] - s0[main_id][0]) / steps / 1e6,
                        "main_wait": (s1[main_id][1] - s0[main_id][1]) / steps / 1e6,
                        "worker_run": (s1[wid][0] - s0[wid][0]) / steps / 1e6,
                        "worker_wait": (s1[wid][1] - s0[wid][1]) / steps / 1e6,
                        "taken": (int(state[TAKEN]) - taken0) / steps,
                        "stolen": (int(state[STOLEN]) - stolen0) / steps,
                    }
                    res.setdefault((name, phase), []).append(row)
                if hog is not None:
                    hog.kill()
                    hog.wait()
            print(f"round {r + 1}/{args.rounds}", file=sys.stderr, flush=True)
    finally:
        _stop(state.ctypes.data)
        worker.join()
    one = args.jobs * (args.serial_us + args.pieces * args.piece_us) / 1e3
    print(f"one-thread work per step {one:.2f} ms; medians per step (ms), pieces per step")
    print("mode    phase  wall   CPU    main run/wait  worker run/wait  taken stolen")
    for (name, phase), rows in res.items():
        med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
        print(
            f"{name:7} {phase:5} {med['wall']:6.2f} {med['cpu']:6.2f} "
            f"{med['main_run']:6.2f}/{med['main_wait']:6.2f} "
            f"{med['worker_run']:6.2f}/{med['worker_wait']:6.2f}  "
            f"{med['taken']:5.1f} {med['stolen']:5.1f}"
        )

    print_json(
        "second_thread",
        {"args": vars(args), "samples": {f"{m} {p}": rows for (m, p), rows in res.items()}},
    )


if __name__ == "__main__":
    main()
