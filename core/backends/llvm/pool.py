"""numbax's thread pool for parallel loops: persistent workers, pieces from one atomic counter.

`parallel.emit_for` hands a loop's pieces (numba's scheduler's [first, last] iterations) to
`run(state, body, sched, count, data, threads)`, whose address the kernels read from the cell
`numbax_pool_run` and whose pool they read from the cell `numbax_pool_state` (`parallel.CELLS`,
filled in each process: cached machine code names the cells). The pool is one block
of native memory, the `state`, shared by the callers and `num_threads() - 1` worker threads
that start once per process (and afresh in a forked child, whose parent's workers do not
exist there):

    EPOCH   (int32) the number of the job posted last; workers sleep on it (futex)
    CLAIM   (int64) the job's number << 32 | the next piece nobody has taken
    BODY, SCHED, COUNT, DATA, THREADS   the job: `body(data, lo, hi)` for each of `COUNT`
            pieces of `SCHED`, on at most `THREADS` threads (worker r joins if r < THREADS)
    DONE    (int32) pieces finished by workers; the caller sleeps on it (futex) if it must
    BUSY    (int32) a caller holds the pool

A job: the caller takes the pool (BUSY 0 -> 1; if another caller holds it, or the loop runs
inside a piece, or it has one thread or one piece, the caller runs every piece itself: the
same pieces in order), writes the job, publishes CLAIM = job << 32, moves EPOCH on and wakes
the workers that sleep. Then everyone takes pieces: a compare-and-swap of CLAIM from `job <<
32 | k` to `job << 32 | k + 1` gives piece k to whoever made it. A worker whose swap fails on
another job's number has come too late and takes nothing (the job's fields it read are the
job's as long as its swaps succeed: a caller moves CLAIM to its job's number, with no piece
free, before it writes the job's fields; without that, a worker preempted between reading the
last job's number and its fields took a piece of the last job's number, whose pieces were all
taken, with the new job's count and a mix of the two jobs' bodies and data: a crash next to a
busy process).
So the caller takes whatever a worker has not started, as fast as it can: a worker that wakes
late, or has no core because another process holds it, costs nothing but the pieces it is
running; the caller waits only for those (spinning a little, then sleeping on DONE, which the
worker that finishes the job's last pieces wakes).

Between jobs a worker spins `SPIN_NS` on EPOCH (the `SPIN` word: loops of a kernel often come
tens of microseconds apart) and then sleeps on it: unlike oneTBB's workers, which spin a
millisecond in every arena numba makes (one per loop, `bench/README.md`), it is no runnable
thread between loops that come further apart. `config.jit_thread_pool` (on by default)
turns the pool on (`start`); off, the state only tells kernels to use numba's layer. The pool's
functions are compiled on numbax's lean target (`target.py`, `_jit`), so turning it on does
not load numba's whole registry (`numba.np.arraymath` and `scipy.linalg`, 0.6 s of CPU) into
a process whose kernels do not need it.

Where the workers run: the scheduler puts a woken thread on its waker's CPU when no CPU is
idle, so next to one busy process on two cores the worker woke on its caller's core and the
two took turns there while the busy process had the other core to itself (the process ran one
core's worth, `bench/README.md`, "A worker off its caller's core"). So a job carries the CPU
its caller runs on (`CPU`), and a worker that joins it keeps off that CPU (`_keep_off`: its
affinity becomes the pool's CPUs, `CPUS`, but that one, set again only when the caller's CPU
changes); the caller is not pinned. The pool also keeps a ledger (`WAITED`, `HELPED`): the
callers' time waiting for the workers' pieces and the workers' CPU time in pieces, whose
difference (`Pool.saved`, `bench/pool_placement.py`) says what a second thread saved, and
the waits over `LONG_NS` (`LONG_WAITS`, `LONG_WAITED`): a worker preempted in a piece holds
its caller for the competitor's whole turn on the core (a scheduler tick or more), and next
to other load those few waits were nearly all of the callers' waiting; a ledger per job of a
step (`JOB_PERIOD`, off by default) says in which of a step's loops they are. So a caller that
still waits halfway through its spin (`LOOK`) notes the CPU time of the workers that are in its
job (each worker's thread id is in the state) and looks again at the spin's end and then every
`RESCUE_NS` as it sleeps (`_rescue`, `RESCUE`): a worker that ran less than half of that time
is waiting for a core, and the caller moves it to its own CPU, which it leaves as it sleeps;
the worker keeps off that CPU again at its next job. The first look within the spin catches a
worker preempted as its caller's own pieces end (the LSTM's scans: two pieces of 4 ms, the
worker's half done next to a busy process) half a millisecond sooner. On a quiet machine no
worker is preempted and nothing moves.

Every iteration runs in the same piece, by the same code, whichever thread takes it: results
do not depend on the thread count or on who took what. With the pool on it is the process's
only worker: the library's `prange` loops are routines (`routines.py`, through `emit_for`),
and numba's own parfors (kernels the translator leaves to numba, such as the LSTM's scans)
call `numba_parallel_for`, which `turn_on` points at the pool (`parallel.route_parfors`; their
reductions' slots follow each worker's rank), so no oneTBB worker starts. A worker's numba
thread count is one, so a parfor inside a piece runs on its thread.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import threading
from collections.abc import Iterator

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.registry import cpu_target
from numba.extending import intrinsic

from core.backends.llvm import parallel, target
from core.backends.numba.library.exchange import (
    _FUTEX_WAIT_PRIVATE,
    _FUTEX_WAKE_PRIVATE,
    _add_flag,
    _cell,
    _flag,
    _futex,
    _now,
    _pause,
    _peek,
    _set_flag,
    clock_ns,
)
from core.config import config
from core.jit import threads as thread_policy
from core.parallel import communicator as comm

# The state's words (the int32 counters are the low halves of theirs).
EPOCH, CLAIM, BODY, SCHED, COUNT, DATA, THREADS, DONE, WAITING, SLEEPERS, BUSY, STOP = range(12)
ON = parallel.ON  # whether loops run on the pool (else on oneTBB)
SPIN, SLEPT, TAKEN = 13, 14, 15  # the workers' spin (ns); `Pool.stats`
# The CPU the caller of the job runs on, and the CPUs (a bit mask) the workers may use: a
# worker keeps off its caller's CPU (`_keep_off`)
CPU, CPUS = 16, 17
# Nanoseconds the callers waited for workers' pieces (after taking every piece left), and the
# workers' CPU time in pieces: what the workers saved (`Pool.saved`)
WAITED, HELPED = 18, 19
# The devices of running pmaps that help each other (the desk's: `desk`, `Pool.join`)
HELPERS = parallel.HELPERS
# How many times a caller waited more than `LONG_NS` for the workers' pieces, and the
# nanoseconds of those waits (a worker preempted in a piece: `Pool.saved`)
LONG_WAITS, LONG_WAITED = 21, 22
# Whether a caller that waits for a preempted worker's piece moves that worker to its own CPU
# (`_rescue`; only where workers keep off their callers' CPU, `CPUS`), and how many times
# callers did
RESCUE, RESCUED = 23, 24
# Per worker (ranks 1 to `MAX_TRACKED`), `TRACK` words from `WORKER0 + TRACK * (rank - 1)`: its
# thread id, whether it is taking pieces of a job, whether a caller moved it, and its CPU time
# when a caller began to wait
WORKER0, TRACK, MAX_TRACKED = 25, 4, 8
TID, IN_JOB, MOVED, MARK = range(TRACK)
# A ledger per job of a step (off while `JOB_PERIOD` is 0): a program that posts `JOB_PERIOD`
# jobs a step adds job j's numbers to slot j % `JOB_PERIOD` of `JOB_SLOTS` words from each of
# `JOB_WAITED` (nanoseconds its caller waited for the workers' pieces), `JOB_LONG` (waits over
# `LONG_NS`), `JOB_PIECES` and `JOB_TIME` (nanoseconds from posting the job to its end), so
# that `bench/pool_placement.py --jobs` can say which of a step's loops its callers wait in
JOB_PERIOD = WORKER0 + TRACK * MAX_TRACKED
JOB_SLOTS = 64
JOB_WAITED, JOB_LONG, JOB_PIECES, JOB_TIME = (JOB_PERIOD + 1 + k * JOB_SLOTS for k in range(4))
# How far into its spin a waiting caller first notes its workers' CPU clocks (`_run`; 0: only
# as it sleeps, `RESCUE_NS` before its first look)
LOOK = JOB_TIME + JOB_SLOTS
WORDS = LOOK + 1
# How long a worker spins for the next job before it sleeps, and a caller for its workers'
# pieces; sleepers look at the state again after `SLICE_NS` at the latest.
SPIN_NS = 50_000
SLICE_NS = 100_000_000
LONG_NS = 1_000_000  # a caller's wait counted as long (`LONG_WAITS`)
RESCUE_NS = 500_000  # how often a waiting caller looks for preempted workers (`_rescue`)
LOOK_NS = SPIN_NS // 2  # `LOOK`'s default: halfway through the spin
_LOW = 0xFFFFFFFF
_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_I8P = ir.IntType(8).as_pointer()
# Linux's system calls (through libc's `syscall`, the cell `numbax_exchange_syscall`)
_CLOCK_THREAD_CPUTIME = 3
_SYS_GETCPU, _SYS_SETAFFINITY = {"x86_64": (309, 203), "aarch64": (168, 122)}.get(
    os.uname().machine, (-1, -1)
)


def _jit(fn):
    """`fn` compiled as the pool's code: on numbax's lean target (`target.py`: loading it, even
    from numba's cache, does not load numba's whole registry), without the GIL, cached."""
    return numba.njit(nogil=True, cache=True, _target=target.NAME)(fn)


def _word(builder: ir.IRBuilder, base: ir.Value, word: ir.Value) -> ir.Value:
    at = builder.add(base, builder.mul(word, _I64(8)))
    return builder.inttoptr(at, _I64.as_pointer())


@intrinsic
def _load(typingctx, base, word):
    """The int64 at word `word` of address `base` (an atomic, sequentially consistent load)."""

    def codegen(context, builder, signature, args):
        return builder.load_atomic(_word(builder, *args), "seq_cst", 8)

    return types.int64(types.int64, types.int64), codegen


@intrinsic
def _store(typingctx, base, word, value):
    """Stores the int64 `value` at word `word` of address `base` (atomically, sequentially
    consistent)."""

    def codegen(context, builder, signature, args):
        builder.store_atomic(args[2], _word(builder, args[0], args[1]), "seq_cst", 8)
        return context.get_dummy_value()

    return types.none(types.int64, types.int64, types.int64), codegen


@intrinsic
def _swap(typingctx, base, word, expected, value):
    """Sets the int64 at word `word` of address `base` to `value` if it holds `expected`
    (atomically); returns whether it did."""

    def codegen(context, builder, signature, args):
        ptr = _word(builder, args[0], args[1])
        pair = builder.cmpxchg(ptr, args[2], args[3], "seq_cst", "seq_cst")
        return builder.extract_value(pair, 1)

    return types.boolean(types.int64, types.int64, types.int64, types.int64), codegen


@intrinsic
def _call(typingctx, body, data, lo, hi):
    """Calls the loop body at address `body`: `body(data, lo, hi)`."""

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.VoidType(), [_I8P, _I64, _I64])
        fn = builder.inttoptr(args[0], fnty.as_pointer())
        builder.call(fn, [builder.inttoptr(args[1], _I8P), args[2], args[3]])
        return context.get_dummy_value()

    return types.none(types.int64, types.int64, types.int64, types.int64), codegen


@intrinsic
def _add(typingctx, base, word, value):
    """Adds `value` to the int64 at word `word` of address `base` (atomically)."""

    def codegen(context, builder, signature, args):
        builder.atomic_rmw("add", _word(builder, args[0], args[1]), args[2], "seq_cst")
        return context.get_dummy_value()

    return types.none(types.int64, types.int64, types.int64), codegen


@intrinsic
def _cpu_now(typingctx):
    """The calling thread's CPU time in nanoseconds (CLOCK_THREAD_CPUTIME_ID)."""

    def codegen(context, builder, signature, args):
        return clock_ns(builder, _CLOCK_THREAD_CPUTIME)

    return types.int64(), codegen


@intrinsic
def _getcpu(typingctx):
    """The CPU the calling thread runs on (Linux's `getcpu`), -1 where it cannot tell."""

    def codegen(context, builder, signature, args):
        if _SYS_GETCPU < 0:
            return _I64(-1)
        fn = ir.FunctionType(_I64, [_I64], var_arg=True)
        call = _cell(builder, "numbax_exchange_syscall", fn.as_pointer())
        cpu = cgutils.alloca_once_value(builder, ir.Constant(ir.IntType(32), -1))
        null = ir.Constant(_I8P, None)
        failed = builder.call(call, [_I64(_SYS_GETCPU), cpu, null, null])
        return builder.select(
            builder.icmp_signed("!=", failed, _I64(0)),
            _I64(-1),
            builder.sext(builder.load(cpu), _I64),
        )

    return types.int64(), codegen


@intrinsic
def _set_cpus(typingctx, mask):
    """Lets the calling thread run on the CPUs of the bit mask `mask` only (Linux's
    `sched_setaffinity`)."""

    def codegen(context, builder, signature, args):
        if _SYS_SETAFFINITY >= 0:
            fn = ir.FunctionType(_I64, [_I64], var_arg=True)
            call = _cell(builder, "numbax_exchange_syscall", fn.as_pointer())
            word = cgutils.alloca_once_value(builder, args[0])
            builder.call(call, [_I64(_SYS_SETAFFINITY), _I64(0), _I64(8), word])
        return context.get_dummy_value()

    return types.none(types.int64), codegen


@intrinsic
def _thread_cpu(typingctx, tid):
    """The CPU time in nanoseconds of thread `tid` of this process (its CPU clock:
    `pthread_getcpuclockid`'s id, `~tid << 3 | 6`); 2**62 if it cannot be read."""

    def codegen(context, builder, signature, args):
        spec = cgutils.alloca_once(builder, ir.LiteralStructType([_I64, _I64]))
        clock = builder.trunc(
            builder.or_(builder.shl(builder.not_(args[0]), _I64(3)), _I64(6)), _I32
        )
        fn = ir.FunctionType(_I32, [_I32, spec.type])
        cell = _cell(builder, "numbax_exchange_clock", fn.as_pointer())
        failed = builder.icmp_signed("!=", builder.call(cell, [clock, spec]), _I32(0))
        sec = builder.load(cgutils.gep(builder, spec, 0, 0))
        nsec = builder.load(cgutils.gep(builder, spec, 0, 1))
        ns = builder.add(builder.mul(sec, _I64(1_000_000_000)), nsec)
        return builder.select(failed, _I64(1 << 62), ns)  # no clock: as if it ran all along

    return types.int64(types.int64), codegen


@intrinsic
def _move(typingctx, tid, mask):
    """Lets thread `tid` run on the CPUs of the bit mask `mask` only (`sched_setaffinity`)."""

    def codegen(context, builder, signature, args):
        if _SYS_SETAFFINITY >= 0:
            fn = ir.FunctionType(_I64, [_I64], var_arg=True)
            call = _cell(builder, "numbax_exchange_syscall", fn.as_pointer())
            word = cgutils.alloca_once_value(builder, args[1])
            builder.call(call, [_I64(_SYS_SETAFFINITY), args[0], _I64(8), word])
        return context.get_dummy_value()

    return types.none(types.int64, types.int64), codegen


@_jit
def _mark_workers(state, threads):
    """Notes the CPU time of the job's workers that are taking pieces, as their caller begins
    to wait for them (`_rescue`)."""
    for rank in range(1, threads if threads <= MAX_TRACKED else MAX_TRACKED + 1):
        w = WORKER0 + TRACK * (rank - 1)
        if _load(state, w + IN_JOB) != 0 and _load(state, w + TID) > 0:
            _store(state, w + MARK, _thread_cpu(_load(state, w + TID)))


@_jit
def _rescue(state, threads, waited):
    """Moves each worker of the job that ran less than half of the `waited` nanoseconds since
    `_mark_workers` (preempted: another process holds its core, and the piece it holds keeps
    its caller waiting for that process's whole turn) to the calling thread's CPU, which the
    caller leaves as it sleeps; the worker keeps off it again at its next job (`MOVED`)."""
    cpu = _getcpu()
    if cpu < 0 or cpu > 62:
        return
    for rank in range(1, threads if threads <= MAX_TRACKED else MAX_TRACKED + 1):
        w = WORKER0 + TRACK * (rank - 1)
        tid = _load(state, w + TID)
        ran = _thread_cpu(tid) - _load(state, w + MARK) if tid > 0 else waited
        if _load(state, w + IN_JOB) != 0 and 2 * ran < waited:
            _move(tid, 1 << cpu)
            _store(state, w + MOVED, 1)
            _add(state, RESCUED, 1)


@_jit
def _keep_off(state, away):
    """Keeps the calling worker off the CPU of the job's caller (`CPU`), on the pool's other
    CPUs, if that CPU is not `away`, the one it keeps off already; returns the one it keeps off
    now. The scheduler puts a woken thread on its waker's CPU when every CPU is busy, so next to
    a busy process on two cores the worker would share its caller's core and leave the other to
    the busy process (`bench/README.md`, "A worker off its caller's core")."""
    cpu = _load(state, CPU)
    if cpu == away or cpu < 0 or cpu > 62:
        return away
    mask = _load(state, CPUS) & ~(1 << cpu)
    if mask != 0:
        _set_cpus(mask)
    return cpu


@_jit
def _piece(body, sched, data, k):
    _call(body, data, _peek(sched, 2 * k), _peek(sched, 2 * k + 1) + 1)


@_jit
def _take(state, job, body, sched, count, data, most):
    """Runs pieces of job `job` while there are any left, `most` at most; returns how many it
    ran."""
    ran = 0
    while ran < most:
        claim = _load(state, CLAIM)
        k = claim & _LOW
        if (claim >> 32) & _LOW != job or k >= count:
            return ran
        if _swap(state, CLAIM, claim, claim + 1):
            _piece(body, sched, data, k)
            ran += 1
    return ran


@_jit
def _hand_back(state, ran):
    """Counts `ran` pieces a worker (or a desk's helper) finished for the job's caller, and
    wakes the caller if it sleeps waiting for them (`TAKEN`, the pool's statistics, is the
    taker's to count).

    A worker hands its pieces back before it makes any system call: reading its own CPU clock
    (`_cpu_now`, `HELPED`) makes Linux account its run time (`update_curr`), and a worker whose
    scheduler slice ran out is preempted right there; before its hand-back, its caller waited
    for the competitor's whole turn on the worker's core (next to a busy process, 2-4 waits of
    2-10 ms a transformer step: `bench/README.md`, session 38); after it, it holds nobody up."""
    _add_flag(state, DONE, ran)
    if _flag(state, WAITING) > 0:
        _futex(state, DONE, _FUTEX_WAKE_PRIVATE, 1, 0)


@_jit
def _by_job(state, slot, waited, count, took):
    """Adds a job's numbers to its slot of the ledger per job (`JOB_PERIOD`)."""
    if slot < JOB_SLOTS:
        _add(state, JOB_WAITED + slot, waited)
        if waited > LONG_NS:
            _add(state, JOB_LONG + slot, 1)
        _add(state, JOB_PIECES + slot, count)
        _add(state, JOB_TIME + slot, took)


def _run(state, body, sched, count, data, threads):
    """A job (see the module docstring), its caller's side: compiled as a C function by
    `_runner`."""
    if threads < 2 or count < 2 or not _set_flag(state, BUSY, 0, 1):
        for k in range(count):
            _piece(body, sched, data, k)
        return
    job = (_flag(state, EPOCH) + 1) & _LOW
    period = _load(state, JOB_PERIOD)
    posted = _now() if period > 0 else 0  # the ledger per job's clock, only while it is on
    # The claim moves to the new job, with no piece to take, before the job's fields change: a
    # worker late for the last job, which read its number but not yet its fields, must not
    # take a piece with the new fields (its swap on the last job's number fails from now on).
    _store(state, CLAIM, job << 32 | _LOW)
    _store(state, BODY, body)
    _store(state, SCHED, sched)
    _store(state, COUNT, count)
    _store(state, DATA, data)
    _store(state, THREADS, threads)
    _store(state, CPU, _getcpu())
    _store(state, CLAIM, job << 32)
    _add_flag(state, EPOCH, 1)
    if _flag(state, SLEEPERS) > 0:
        _futex(state, EPOCH, _FUTEX_WAKE_PRIVATE, threads - 1, 0)
    left = count - _take(state, job, body, sched, count, data, count)
    start = _now()
    end = start + SPIN_NS
    rescue = _load(state, RESCUE) != 0 and _load(state, CPUS) != 0
    look = _load(state, LOOK)
    marked = 0
    while _flag(state, DONE) < left:
        now = _now()
        if now < end:  # `LOOK` into its spin the caller notes its workers' CPU clocks
            if rescue and look and not marked and now - start >= look:
                _mark_workers(state, threads)
                marked = now
            for _ in range(64):
                _pause()
            continue
        sleep = SLICE_NS
        if rescue:  # at the spin's end, then every `RESCUE_NS`: were the workers preempted?
            if marked:
                _rescue(state, threads, now - marked)
            _mark_workers(state, threads)
            marked, sleep = now, RESCUE_NS
        _add_flag(state, WAITING, 1)
        seen = _flag(state, DONE)
        if seen < left:
            _futex(state, DONE, _FUTEX_WAIT_PRIVATE, seen, sleep)
        _add_flag(state, WAITING, -1)
    finished = _now()
    waited = finished - start
    _add(state, WAITED, waited)
    if waited > LONG_NS:
        _add(state, LONG_WAITS, 1)
        _add(state, LONG_WAITED, waited)
    if period > 0:
        _by_job(state, job % period, waited, count, finished - posted)
    _add_flag(state, DONE, -left)
    _set_flag(state, BUSY, 1, 0)


@_jit
def _serve(state, rank):
    """Worker `rank`'s life (ranks from 1): takes pieces of every job of more than `rank`
    threads, spins `SPIN_NS` for the next job and then sleeps, until STOP."""
    seen = _flag(state, EPOCH)
    away = -1
    while _flag(state, STOP) == 0:
        epoch = _flag(state, EPOCH)
        if epoch == seen:
            end = _now() + _load(state, SPIN)
            while _flag(state, EPOCH) == seen and _now() < end:
                for _ in range(64):
                    _pause()
            if _flag(state, EPOCH) == seen:
                _add_flag(state, SLEEPERS, 1)
                if _flag(state, EPOCH) == seen and _flag(state, STOP) == 0:
                    _add_flag(state, SLEPT, 1)
                    _futex(state, EPOCH, _FUTEX_WAIT_PRIVATE, seen, SLICE_NS)
                _add_flag(state, SLEEPERS, -1)
            continue
        seen = epoch
        job = epoch & _LOW
        claim = _load(state, CLAIM)
        if (claim >> 32) & _LOW != job or rank >= _load(state, THREADS):
            continue
        w = WORKER0 + TRACK * (rank - 1)
        tracked = rank <= MAX_TRACKED
        if tracked and _load(state, w + MOVED) != 0:  # a caller moved it to its CPU
            _store(state, w + MOVED, 0)
            away = -1
        if _load(state, CPUS) != 0:
            away = _keep_off(state, away)
        body, sched = _load(state, BODY), _load(state, SCHED)
        count, data = _load(state, COUNT), _load(state, DATA)
        before = _cpu_now()
        if tracked:
            _store(state, w + IN_JOB, 1)
        ran = _take(state, job, body, sched, count, data, count)
        if ran:  # before the worker reads its CPU clock (`_hand_back`)
            _hand_back(state, ran)
        if tracked:
            _store(state, w + IN_JOB, 0)
        if ran:
            _add(state, HELPED, _cpu_now() - before)
            _add_flag(state, TAKEN, ran)  # after `HELPED`: the ledger counts a job's pieces whole


def _help(state):
    """Takes one piece of the job posted on `state` (the desk's, see `desk`) if one is left,
    as a worker would (`_serve`); returns how many pieces it ran (0 or 1). Compiled as a C
    function by `desk`."""
    job = _flag(state, EPOCH) & _LOW
    if (_load(state, CLAIM) >> 32) & _LOW != job:  # nothing posted since the last job ended
        return 0
    body, sched = _load(state, BODY), _load(state, SCHED)
    count, data = _load(state, COUNT), _load(state, DATA)
    ran = _take(state, job, body, sched, count, data, 1)
    if ran:
        _hand_back(state, ran)
        _add_flag(state, TAKEN, ran)
    return ran


@_jit
def _shutdown(state):
    _add_flag(state, STOP, 1)
    _add_flag(state, EPOCH, 1)
    _futex(state, EPOCH, _FUTEX_WAKE_PRIVATE, 1 << 30, 0)


class Pool:
    """The state block of this process's pool and its worker threads (started by `turn_on`)."""

    def __init__(self, workers: int):
        """A pool of `workers` worker threads besides the callers, not started: its loops
        run on numba's threading layer until `turn_on`.

        Args:
          workers: how many threads besides the callers take pieces (0: the callers run every
            piece).
        """
        self.workers = workers
        self.state = np.zeros(WORDS, np.int64)
        self.state[SPIN] = SPIN_NS
        self.state[CPUS] = _cpu_mask()
        self.state[RESCUE] = 1
        self.state[LOOK] = LOOK_NS
        self._mark = (0, 0)
        self.address = self.state.ctypes.data
        self.threads: list[threading.Thread] = []
        self._count_lock = threading.Lock()

    def turn_on(self) -> None:
        """Starts the workers (once) and runs parallel loops on the pool from now on, numba's
        parfors linked from now on included (`parallel.route_parfors`)."""
        _slot(parallel.RUN_CELL)[0] = _runner().address
        parallel.route_parfors(cpu_target.target_context.codegen())
        if not self.threads:
            self.threads = [
                threading.Thread(target=self._work, args=(r,), name=f"numbax-pool-{r}", daemon=True)
                for r in range(1, self.workers + 1)
            ]
            for t in self.threads:
                t.start()
        self.state[ON] = 1

    def _work(self, rank: int) -> None:
        numba.set_num_threads(1)  # a `prange` inside a piece: no oneTBB threads on top
        parallel.set_rank(rank)  # its slot in numba's parfors' reductions
        if rank <= MAX_TRACKED:
            self.state[WORKER0 + TRACK * (rank - 1) + TID] = threading.get_native_id()
        _serve(self.address, rank)

    def join(self, devices: int) -> int:
        """Counts `devices` more pmap devices that help each other on this desk (`desk`);
        returns its address."""
        with self._count_lock:
            self.state[HELPERS] += devices
        return self.address

    def leave(self, devices: int) -> None:
        """Counts `devices` fewer pmap devices on this desk (their call ended)."""
        with self._count_lock:
            self.state[HELPERS] -= devices

    def saved(self) -> float:
        """Seconds the workers saved their callers since the last call: their CPU time in
        pieces less the time the callers waited for their pieces (what one thread would have
        spent on those pieces, less what waiting for them cost). Next to a busy process a
        worker preempted in a piece makes its caller wait: then the sum falls below 0."""
        mark = (int(self.state[HELPED]), int(self.state[WAITED]))
        last, self._mark = self._mark, mark
        return ((mark[0] - last[0]) - (mark[1] - last[1])) / 1e9

    def stats(self) -> dict[str, int]:
        """How many times the workers slept, and how many pieces they ran, so far."""
        return {"slept": int(self.state[SLEPT]), "pieces": int(self.state[TAKEN])}

    def stop(self) -> None:
        """Stops the workers (after the jobs they are in) and waits for them."""
        if self.threads:
            _shutdown(self.address)
        for t in self.threads:
            t.join()


def _cpu_mask() -> int:
    """The CPUs the workers may use, as a bit mask: the process's affinity
    (`threads.process_cpus`), 0 (anywhere: the workers do not keep off their callers' CPU)
    with fewer than two, one beyond 62, or no `sched_setaffinity`."""
    if _SYS_SETAFFINITY < 0:
        return 0
    cpus = thread_policy.process_cpus()
    if cpus is None or len(cpus) < 2 or max(cpus) > 62:
        return 0
    return sum(1 << c for c in cpus)


def _slot(sym: str) -> np.ndarray:
    return parallel.CELLS[sym]


def _runner():
    """`_run` as a C function on the lean target (`_jit`; numba's cache keeps its machine
    code)."""
    if "run" not in _current:
        _current["run"] = target.cfunc(_run, types.void(*[types.int64] * 6))
    return _current["run"]


_current: dict = {"pool": None}
_starting = threading.Lock()


def desk() -> Pool:
    """The desk of this process's pmap devices: a pool state without workers where a device's
    parallel loops are posted (each device runs on one thread, its share of the cores), so
    that a device waiting at a collective's barrier runs pieces of them on its otherwise idle
    core (`exchange._meet` calls `_help`; `parallel.emit_for` posts a loop of more than one
    piece on one thread while the desk counts `HELPERS`, the devices of running pmaps that
    help each other: `communicator`). Made on first use; its address and `_help`'s are in the
    cells `parallel.DESK_CELL` and `parallel.HELP_CELL`."""
    made = _current.get("desk")
    if made is not None:
        return made
    run = _runner()
    helper = target.cfunc(_help, types.int64(types.int64))
    with _starting:
        made = _current.get("desk")
        if made is None:
            made = Pool(0)
            made.state[CPUS] = 0
            _slot(parallel.RUN_CELL)[0] = run.address
            _slot(parallel.HELP_CELL)[0] = helper.address
            _current["help"] = helper
            _slot(parallel.DESK_CELL)[0] = made.address
            _current["desk"] = made
    return made


def start() -> Pool:
    """This process's pool (made on first use, for `num_threads()` threads), its state in its
    cell, where every parallel loop reads it; turned on (`Pool.turn_on`) if
    `config.jit_thread_pool`."""
    pool = _current["pool"]
    if pool is not None:
        return pool
    if config.jit_thread_pool:  # what takes numba's compiler lock, not while holding ours
        _runner()
        parallel.route_parfors(cpu_target.target_context.codegen())
    with _starting:
        pool = _current["pool"]
        if pool is None:
            pool = Pool(thread_policy.num_threads() - 1)
            _slot(parallel.STATE_CELL)[0] = pool.address
            if config.jit_thread_pool:
                pool.turn_on()
            _current["pool"] = pool
    return pool


@contextlib.contextmanager
def using(on: bool) -> Iterator[Pool]:
    """Parallel loops run on the pool (`on`) or on numba's threading layer (oneTBB) inside the
    block, for tests and benchmarks that compare the two (`config.jit_thread_pool` chooses
    for the process)."""
    pool = start()
    before = int(pool.state[ON])
    if on:
        pool.turn_on()
    pool.state[ON] = int(on)
    try:
        yield pool
    finally:
        pool.state[ON] = before


def _restart_in_child() -> None:
    """A forked child has none of its parent's workers: it makes a pool of its own, on if the
    parent's was; and none of its pmap devices: its desk counts none and holds no job."""
    global _starting
    _starting = threading.Lock()  # a parent's thread may have held it at the fork
    desk = _current.get("desk")
    if desk is not None:
        desk.state[[HELPERS, BUSY]] = 0
        desk._count_lock = threading.Lock()
    old, _current["pool"] = _current["pool"], None
    if old is not None:
        new = start()
        if old.state[ON]:
            new.turn_on()
        new.state[ON] = old.state[ON]


def _stop() -> None:
    pool, _current["pool"] = _current["pool"], None
    if pool is not None:
        pool.stop()


os.register_at_fork(after_in_child=_restart_in_child)
atexit.register(_stop)
comm.register_desk(desk)
