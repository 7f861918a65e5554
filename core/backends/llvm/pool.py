"""numbax's thread pool for parallel loops: persistent workers, pieces from one atomic counter.

`parallel.emit_for` hands a loop's pieces (numba's scheduler's [first, last] iterations) to
`run(state, body, sched, count, data, threads)`, whose address the kernels read from the cell
`numbax_pool_run` and whose pool they read from the cell `numbax_pool_state` (`parallel.CELLS`,
filled in each process: cached machine code names the cells). The pool is one block
of native memory, the `state`, shared by the callers and `num_threads() - 1` worker threads
that start once per process, at its first job (and afresh in a forked child, whose parent's
workers do not exist there):

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
thread between loops that come further apart.

`config.jit_thread_pool` (on by default) turns the pool on; off, the state only tells kernels
to use numba's layer. The pool costs nothing until a loop runs on more than one thread: a
process makes its state (`prepare`) before its kernels link, but its code and its workers come
at its first job, which calls `_first_job` through the cell (a ctypes callback: it loads the
code, starts the workers and puts `RUN` in the cell), or before numba links a function with
parfors (`parallel.before_parfors`, which must find `numbax_parfor`); a process of one thread
(`mpiexec`'s on two cores) never turns it on. The code is one LLVM module written here
(`_module`: `RUN`, `SERVE`, `HELP`, `SHUTDOWN` and numba's parfors' entry,
`parallel.parfor_functions`), compiled once by the quick tier's code generator (0.04 s of CPU)
and loaded from the disk cache afterwards (5 ms): as numba functions on numbax's lean target
they took 1.1 s to compile into an empty cache and 60-100 ms to load at every start-up
(`bench/README.md`, session 39).

Where the workers run: the scheduler puts a woken thread on its waker's CPU when no CPU is
idle, so next to one busy process on two cores the worker woke on its caller's core and the
two took turns there while the busy process had the other core to itself (the process ran one
core's worth, `bench/README.md`, "A worker off its caller's core"). So a job carries the CPU
its caller runs on (`CPU`), and a worker that joins it keeps off that CPU (`keep_off`: its
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
call `numba_parallel_for`, which the pool's code points at it as it loads
(`parallel.route_parfors`; their reductions' slots follow each worker's rank), so no oneTBB
worker starts. A worker's numba
thread count is one, so a parfor inside a piece runs on its thread.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import hashlib
import os
import pickle
import threading
from collections.abc import Iterator
from pathlib import Path

import numba
import numpy as np
from llvmlite import binding as llvm
from llvmlite import ir
from numba.core import cgutils
from numba.core.compiler_lock import global_compiler_lock
from numba.core.registry import cpu_target

from core.backends.llvm import parallel, target
from core.backends.numba.library import exchange
from core.backends.numba.library.exchange import (
    _CLOCK_MONOTONIC,
    _FUTEX_WAIT_PRIVATE,
    _FUTEX_WAKE_PRIVATE,
    _cell,
    clock_ns,
    futex,
    pause,
)
from core.config import config
from core.jit import cache_files
from core.jit import threads as thread_policy
from core.jit.rsqrt_estimate import target_cpu
from core.parallel import communicator as comm

# The state's words (the int32 counters are the low halves of theirs).
EPOCH, CLAIM, BODY, SCHED, COUNT, DATA, THREADS, DONE, WAITING, SLEEPERS, BUSY, STOP = range(12)
ON = parallel.ON  # whether loops run on the pool (else on oneTBB)
SPIN, SLEPT, TAKEN = 13, 14, 15  # the workers' spin (ns); `Pool.stats`
# The CPU the caller of the job runs on, and the CPUs (a bit mask) the workers may use: a
# worker keeps off its caller's CPU (`keep_off`)
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
_I1 = ir.IntType(1)
_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_I8P = ir.IntType(8).as_pointer()
# Linux's system calls (through libc's `syscall`, the cell `numbax_exchange_syscall`)
_CLOCK_THREAD_CPUTIME = 3
_SYS_GETCPU, _SYS_SETAFFINITY = {"x86_64": (309, 203), "aarch64": (168, 122)}.get(
    os.uname().machine, (-1, -1)
)


# The entry points of the pool's code (`_module`)
RUN, SERVE, HELP, SHUTDOWN = (f"numbax_pool.{n}" for n in ("run", "serve", "help", "shutdown"))
_BODY_PTR = ir.FunctionType(ir.VoidType(), [_I8P, _I64, _I64]).as_pointer()
_SYSCALL = ir.FunctionType(_I64, [_I64], var_arg=True).as_pointer()


# The state's words, written in IR: `base` is the state's address (i64), `word` an int or an i64.
def _at(b: ir.IRBuilder, base: ir.Value, word, ty: ir.Type = _I64) -> ir.Value:
    word = _I64(word) if isinstance(word, int) else word
    return b.inttoptr(b.add(base, b.mul(word, _I64(8))), ty.as_pointer())


def load(b: ir.IRBuilder, base: ir.Value, word) -> ir.Value:
    """Emits an atomic (sequentially consistent) load of an int64 of the state.

    Args:
      b: the builder.
      base: the state's address (an i64).
      word: the word (an int or an i64).

    Returns:
      The int64.
    """
    return b.load_atomic(_at(b, base, word), "seq_cst", 8)


def store(b: ir.IRBuilder, base: ir.Value, word, value: ir.Value) -> None:
    """Emits an atomic (sequentially consistent) store of `value` (an i64) at word `word` (an
    int or an i64) of the state at address `base` (an i64), with builder `b`."""
    b.store_atomic(value, _at(b, base, word), "seq_cst", 8)


def swap(b: ir.IRBuilder, base: ir.Value, word, expected: ir.Value, value: ir.Value) -> ir.Value:
    """Emits a compare-and-swap of an int64 of the state.

    Args:
      b: the builder.
      base: the state's address (an i64).
      word: the word (an int or an i64).
      expected, value: the i64 it must hold, and the one it is set to.

    Returns:
      Whether it was set (an i1).
    """
    pair = b.cmpxchg(_at(b, base, word), expected, value, "seq_cst", "seq_cst")
    return b.extract_value(pair, 1)


def _add(b: ir.IRBuilder, base: ir.Value, word, value: ir.Value) -> None:
    b.atomic_rmw("add", _at(b, base, word), value, "seq_cst")


def _flag(b: ir.IRBuilder, base: ir.Value, word) -> ir.Value:
    """The int32 counter of word `word` (its low half), atomically, as an i64."""
    return b.sext(b.load_atomic(_at(b, base, word, _I32), "seq_cst", 4), _I64)


def _add_flag(b: ir.IRBuilder, base: ir.Value, word, value) -> None:
    value = _I32(value) if isinstance(value, int) else b.trunc(value, _I32)
    b.atomic_rmw("add", _at(b, base, word, _I32), value, "seq_cst")


def _set_flag(b: ir.IRBuilder, base: ir.Value, word, expected: int, value: int) -> ir.Value:
    pair = b.cmpxchg(_at(b, base, word, _I32), _I32(expected), _I32(value), "seq_cst", "seq_cst")
    return b.extract_value(pair, 1)


def _futex(b: ir.IRBuilder, base: ir.Value, word, op: int, value, ns) -> None:
    value = _I32(value) if isinstance(value, int) else b.trunc(value, _I32)
    ns = _I64(ns) if isinstance(ns, int) else ns
    futex(b, _at(b, base, word, _I32), _I32(op), value, ns)


def _now(b: ir.IRBuilder) -> ir.Value:
    return clock_ns(b, _CLOCK_MONOTONIC)


def getcpu(b: ir.IRBuilder) -> ir.Value:
    """Emits Linux's `getcpu` with builder `b`.

    Returns:
      The CPU the calling thread runs on (an i64), -1 where it cannot tell.
    """
    if _SYS_GETCPU < 0:
        return _I64(-1)
    cpu = cgutils.alloca_once_value(b, _I32(-1))
    null = ir.Constant(_I8P, None)
    call = _cell(b, "numbax_exchange_syscall", _SYSCALL)
    failed = b.call(call, [_I64(_SYS_GETCPU), cpu, null, null])
    return b.select(b.icmp_signed("!=", failed, _I64(0)), _I64(-1), b.sext(b.load(cpu), _I64))


def _set_cpus(b: ir.IRBuilder, tid: ir.Value, mask: ir.Value) -> None:
    """Emits `sched_setaffinity`: thread `tid` (0: the calling one) runs on the CPUs of the bit
    mask `mask` only."""
    if _SYS_SETAFFINITY >= 0:
        word = cgutils.alloca_once_value(b, mask)
        call = _cell(b, "numbax_exchange_syscall", _SYSCALL)
        b.call(call, [_I64(_SYS_SETAFFINITY), tid, _I64(8), word])


def _thread_cpu(b: ir.IRBuilder, tid: ir.Value | None) -> ir.Value:
    """The CPU time in nanoseconds of thread `tid` of this process (its CPU clock:
    `pthread_getcpuclockid`'s id, `~tid << 3 | 6`), or of the calling thread (None:
    CLOCK_THREAD_CPUTIME_ID); 2**62 if it cannot be read (as if it ran all along)."""
    if tid is None:
        return clock_ns(b, _CLOCK_THREAD_CPUTIME)
    spec = cgutils.alloca_once(b, ir.LiteralStructType([_I64, _I64]))
    clock = b.trunc(b.or_(b.shl(b.not_(tid), _I64(3)), _I64(6)), _I32)
    fn = ir.FunctionType(_I32, [_I32, spec.type])
    failed = b.icmp_signed(
        "!=", b.call(_cell(b, "numbax_exchange_clock", fn.as_pointer()), [clock, spec]), _I32(0)
    )
    sec = b.load(cgutils.gep(b, spec, 0, 0))
    ns = b.add(b.mul(sec, _I64(1_000_000_000)), b.load(cgutils.gep(b, spec, 0, 1)))
    return b.select(failed, _I64(1 << 62), ns)


def _spin(b: ir.IRBuilder) -> None:
    """Emits 64 spin-wait hints."""
    with parallel.counted(b, _I64(64)):
        pause(b)


def _local(b: ir.IRBuilder, value: ir.Value) -> ir.Value:
    """A local variable (an alloca in the entry block, which LLVM keeps in a register) holding
    `value`."""
    return cgutils.alloca_once_value(b, value)


@contextlib.contextmanager
def _while(b: ir.IRBuilder, test) -> Iterator[ir.Block]:
    """Emits `while test(): <block>` (`test()` emits the condition, an i1, at the loop's head);
    yields the head: a branch to it continues the loop."""
    head, body, done = (b.append_basic_block(n) for n in ("while.head", "while.body", "while.end"))
    b.branch(head)
    b.position_at_end(head)
    b.cbranch(test(), body, done)
    b.position_at_end(body)
    yield head
    if not b.block.is_terminated:
        b.branch(head)
    b.position_at_end(done)


@contextlib.contextmanager
def _tracked(b: ir.IRBuilder, threads: ir.Value) -> Iterator[ir.Value]:
    """Emits `for rank in range(1, min(threads, MAX_TRACKED + 1))` (the tracked workers of a
    job of `threads` threads); yields the first of the rank's words (`WORKER0 + TRACK * (rank
    - 1)`, an i64)."""
    top = b.select(b.icmp_signed("<=", threads, _I64(MAX_TRACKED)), threads, _I64(MAX_TRACKED + 1))
    with parallel.counted(b, b.sub(top, _I64(1))) as k:
        yield b.add(b.mul(k, _I64(TRACK)), _I64(WORKER0))


def _function(module: ir.Module, name: str, ret: ir.Type, args: int, public: bool = False):
    """A function of `module` of `args` int64 arguments; returns it and a builder at its entry."""
    fn = ir.Function(module, ir.FunctionType(ret, [_I64] * args), name)
    if not public:
        fn.linkage = "internal"
    return fn, ir.IRBuilder(fn.append_basic_block("entry"))


def _piece(b: ir.IRBuilder, body, sched, data, k) -> None:
    """Emits the call of piece `k` of `sched` (its [first, last]): `body(data, first, last + 1)`."""
    at = b.mul(k, _I64(2))
    lo = b.load(_at(b, sched, at))
    hi = b.add(b.load(_at(b, sched, b.add(at, _I64(1)))), _I64(1))
    b.call(b.inttoptr(body, _BODY_PTR), [b.inttoptr(data, _I8P), lo, hi])


def _claimed(b: ir.IRBuilder, claim: ir.Value) -> ir.Value:
    """The job number of CLAIM's value `claim`."""
    return b.and_(b.lshr(claim, _I64(32)), _I64(_LOW))


def _take(module: ir.Module) -> ir.Function:
    """`take(state, job, body, sched, count, data, most)`: runs pieces of job `job` while there
    are any left, `most` at most; returns how many it ran."""
    fn, b = _function(module, "numbax_pool.take", _I64, 7)
    state, job, body, sched, count, data, most = fn.args
    ran = _local(b, _I64(0))
    with _while(b, lambda: b.icmp_signed("<", b.load(ran), most)):
        claim = load(b, state, CLAIM)
        k = b.and_(claim, _I64(_LOW))
        late = b.icmp_signed("!=", _claimed(b, claim), job)
        with b.if_then(b.or_(late, b.icmp_signed(">=", k, count))):
            b.ret(b.load(ran))
        with b.if_then(swap(b, state, CLAIM, claim, b.add(claim, _I64(1)))):
            _piece(b, body, sched, data, k)
            b.store(b.add(b.load(ran), _I64(1)), ran)
    b.ret(b.load(ran))
    return fn


def _hand_back(module: ir.Module) -> ir.Function:
    """`hand_back(state, ran)`: counts `ran` pieces a worker (or a desk's helper) finished for
    the job's caller, and wakes the caller if it sleeps waiting for them (`TAKEN`, the pool's
    statistics, is the taker's to count).

    A worker hands its pieces back before it makes any system call: reading its own CPU clock
    (`HELPED`) makes Linux account its run time (`update_curr`), and a worker whose scheduler
    slice ran out is preempted right there; before its hand-back, its caller waited for the
    competitor's whole turn on the worker's core (next to a busy process, 2-4 waits of 2-10 ms
    a transformer step: `bench/README.md`, session 38); after it, it holds nobody up."""
    fn, b = _function(module, "numbax_pool.hand_back", ir.VoidType(), 2)
    state, ran = fn.args
    _add_flag(b, state, DONE, ran)
    with b.if_then(b.icmp_signed(">", _flag(b, state, WAITING), _I64(0))):
        _futex(b, state, DONE, _FUTEX_WAKE_PRIVATE, 1, 0)
    b.ret_void()
    return fn


def _mark_workers(module: ir.Module) -> ir.Function:
    """`mark_workers(state, threads)`: notes the CPU time of the job's workers that are taking
    pieces, as their caller begins to wait for them (`rescue`)."""
    fn, b = _function(module, "numbax_pool.mark_workers", ir.VoidType(), 2)
    state, threads = fn.args
    with _tracked(b, threads) as w:
        in_job = b.icmp_signed("!=", load(b, state, b.add(w, _I64(IN_JOB))), _I64(0))
        with b.if_then(in_job):
            tid = load(b, state, b.add(w, _I64(TID)))
            with b.if_then(b.icmp_signed(">", tid, _I64(0))):
                store(b, state, b.add(w, _I64(MARK)), _thread_cpu(b, tid))
    b.ret_void()
    return fn


def _rescue(module: ir.Module) -> ir.Function:
    """`rescue(state, threads, waited)`: moves each worker of the job that ran less than half
    of the `waited` nanoseconds since `mark_workers` (preempted: another process holds its
    core, and the piece it holds keeps its caller waiting for that process's whole turn) to the
    calling thread's CPU, which the caller leaves as it sleeps; the worker keeps off it again
    at its next job (`MOVED`)."""
    fn, b = _function(module, "numbax_pool.rescue", ir.VoidType(), 3)
    state, threads, waited = fn.args
    cpu = getcpu(b)
    with b.if_then(b.or_(b.icmp_signed("<", cpu, _I64(0)), b.icmp_signed(">", cpu, _I64(62)))):
        b.ret_void()
    with _tracked(b, threads) as w:
        tid = load(b, state, b.add(w, _I64(TID)))
        ran = _local(b, waited)
        with b.if_then(b.icmp_signed(">", tid, _I64(0))):
            b.store(b.sub(_thread_cpu(b, tid), load(b, state, b.add(w, _I64(MARK)))), ran)
        in_job = b.icmp_signed("!=", load(b, state, b.add(w, _I64(IN_JOB))), _I64(0))
        short = b.icmp_signed("<", b.mul(b.load(ran), _I64(2)), waited)
        with b.if_then(b.and_(in_job, short)):
            _set_cpus(b, tid, b.shl(_I64(1), cpu))
            store(b, state, b.add(w, _I64(MOVED)), _I64(1))
            _add(b, state, RESCUED, _I64(1))
    b.ret_void()
    return fn


def keep_off(module: ir.Module) -> ir.Function:
    """`keep_off(state, away)`: keeps the calling worker off the CPU of the job's caller
    (`CPU`), on the pool's other CPUs, if that CPU is not `away`, the one it keeps off
    already; returns the one it keeps off now. The scheduler puts a woken thread on its
    waker's CPU when every CPU is busy, so next to a busy process on two cores the worker would
    share its caller's core and leave the other to the busy process (`bench/README.md`, "A
    worker off its caller's core").

    Args:
      module: the module the function is added to (once).

    Returns:
      The function.
    """
    fn, b = _function(module, "numbax_pool.keep_off", _I64, 2)
    state, away = fn.args
    cpu = load(b, state, CPU)
    same = b.icmp_signed("==", cpu, away)
    outside = b.or_(b.icmp_signed("<", cpu, _I64(0)), b.icmp_signed(">", cpu, _I64(62)))
    with b.if_then(b.or_(same, outside)):
        b.ret(away)
    mask = b.and_(load(b, state, CPUS), b.not_(b.shl(_I64(1), cpu)))
    with b.if_then(b.icmp_signed("!=", mask, _I64(0))):
        _set_cpus(b, _I64(0), mask)
    b.ret(cpu)
    return fn


def _run(module: ir.Module, take, mark_workers, rescue) -> None:
    """`RUN(state, body, sched, count, data, threads)`: a job (see the module
    docstring), its caller's side."""
    fn, b = _function(module, RUN, ir.VoidType(), 6, public=True)
    state, body, sched, count, data, threads = fn.args
    held = _local(b, ir.Constant(_I1, 0))
    shared = b.and_(b.icmp_signed(">=", threads, _I64(2)), b.icmp_signed(">=", count, _I64(2)))
    with b.if_then(shared):
        b.store(_set_flag(b, state, BUSY, 0, 1), held)
    with b.if_then(b.not_(b.load(held))):  # one thread, one piece, or the pool is held
        with parallel.counted(b, count) as k:
            _piece(b, body, sched, data, k)
        b.ret_void()
    job = b.and_(b.add(_flag(b, state, EPOCH), _I64(1)), _I64(_LOW))
    period = load(b, state, JOB_PERIOD)
    ledger = b.icmp_signed(">", period, _I64(0))
    posted = _local(b, _I64(0))
    with b.if_then(ledger):  # the ledger per job's clock, only while it is on
        b.store(_now(b), posted)
    # The claim moves to the new job, with no piece to take, before the job's fields change: a
    # worker late for the last job, which read its number but not yet its fields, must not
    # take a piece with the new fields (its swap on the last job's number fails from now on).
    first = b.shl(job, _I64(32))
    store(b, state, CLAIM, b.or_(first, _I64(_LOW)))
    for word, value in ((BODY, body), (SCHED, sched), (COUNT, count), (DATA, data)):
        store(b, state, word, value)
    store(b, state, THREADS, threads)
    store(b, state, CPU, getcpu(b))
    store(b, state, CLAIM, first)
    _add_flag(b, state, EPOCH, 1)
    with b.if_then(b.icmp_signed(">", _flag(b, state, SLEEPERS), _I64(0))):
        _futex(b, state, EPOCH, _FUTEX_WAKE_PRIVATE, b.sub(threads, _I64(1)), 0)
    left = b.sub(count, b.call(take, [state, job, body, sched, count, data, count]))
    start = _now(b)
    end = b.add(start, _I64(SPIN_NS))
    rescuing = b.and_(
        b.icmp_signed("!=", load(b, state, RESCUE), _I64(0)),
        b.icmp_signed("!=", load(b, state, CPUS), _I64(0)),
    )
    look = load(b, state, LOOK)
    marked = _local(b, _I64(0))
    with _while(b, lambda: b.icmp_signed("<", _flag(b, state, DONE), left)) as head:
        now = _now(b)
        with b.if_then(b.icmp_signed("<", now, end)):
            # `LOOK` into its spin the caller notes its workers' CPU clocks
            first = b.and_(
                b.and_(rescuing, b.icmp_signed("!=", look, _I64(0))),
                b.icmp_signed("==", b.load(marked), _I64(0)),
            )
            with b.if_then(b.and_(first, b.icmp_signed(">=", b.sub(now, start), look))):
                b.call(mark_workers, [state, threads])
                b.store(now, marked)
            _spin(b)
            b.branch(head)
        sleep = _local(b, _I64(SLICE_NS))
        with b.if_then(rescuing):  # at the spin's end, then every `RESCUE_NS`: preempted?
            with b.if_then(b.icmp_signed("!=", b.load(marked), _I64(0))):
                b.call(rescue, [state, threads, b.sub(now, b.load(marked))])
            b.call(mark_workers, [state, threads])
            b.store(now, marked)
            b.store(_I64(RESCUE_NS), sleep)
        _add_flag(b, state, WAITING, 1)
        seen = _flag(b, state, DONE)
        with b.if_then(b.icmp_signed("<", seen, left)):
            _futex(b, state, DONE, _FUTEX_WAIT_PRIVATE, seen, b.load(sleep))
        _add_flag(b, state, WAITING, -1)
    finished = _now(b)
    waited = b.sub(finished, start)
    _add(b, state, WAITED, waited)
    long = b.icmp_signed(">", waited, _I64(LONG_NS))
    with b.if_then(long):
        _add(b, state, LONG_WAITS, _I64(1))
        _add(b, state, LONG_WAITED, waited)
    slot = b.srem(job, b.select(ledger, period, _I64(1)))
    with b.if_then(b.and_(ledger, b.icmp_signed("<", slot, _I64(JOB_SLOTS)))):
        _add(b, state, b.add(slot, _I64(JOB_WAITED)), waited)
        with b.if_then(long):
            _add(b, state, b.add(slot, _I64(JOB_LONG)), _I64(1))
        _add(b, state, b.add(slot, _I64(JOB_PIECES)), count)
        _add(b, state, b.add(slot, _I64(JOB_TIME)), b.sub(finished, b.load(posted)))
    _add_flag(b, state, DONE, b.neg(left))
    _set_flag(b, state, BUSY, 1, 0)
    b.ret_void()


def _serve(module: ir.Module, take, hand_back, keep) -> None:
    """`SERVE(state, rank)`: worker `rank`'s life (ranks from 1): takes pieces of
    every job of more than `rank` threads, spins `SPIN` ns for the next job and then sleeps,
    until STOP."""
    fn, b = _function(module, SERVE, ir.VoidType(), 2, public=True)
    state, rank = fn.args
    seen = _local(b, _flag(b, state, EPOCH))
    away = _local(b, _I64(-1))
    with _while(b, lambda: b.icmp_signed("==", _flag(b, state, STOP), _I64(0))) as head:
        epoch = _flag(b, state, EPOCH)
        with b.if_then(b.icmp_signed("==", epoch, b.load(seen))):
            end = b.add(_now(b), load(b, state, SPIN))

            def same() -> ir.Value:
                return b.icmp_signed("==", _flag(b, state, EPOCH), b.load(seen))

            with _while(b, lambda: b.and_(same(), b.icmp_signed("<", _now(b), end))):
                _spin(b)
            with b.if_then(same()):
                _add_flag(b, state, SLEEPERS, 1)
                stopped = b.icmp_signed("!=", _flag(b, state, STOP), _I64(0))
                with b.if_then(b.and_(same(), b.not_(stopped))):
                    _add_flag(b, state, SLEPT, 1)
                    _futex(b, state, EPOCH, _FUTEX_WAIT_PRIVATE, b.load(seen), SLICE_NS)
                _add_flag(b, state, SLEEPERS, -1)
            b.branch(head)
        b.store(epoch, seen)
        job = b.and_(epoch, _I64(_LOW))
        late = b.icmp_signed("!=", _claimed(b, load(b, state, CLAIM)), job)
        with b.if_then(b.or_(late, b.icmp_signed(">=", rank, load(b, state, THREADS)))):
            b.branch(head)
        w = b.add(b.mul(b.sub(rank, _I64(1)), _I64(TRACK)), _I64(WORKER0))
        tracked = b.icmp_signed("<=", rank, _I64(MAX_TRACKED))
        with b.if_then(tracked):
            moved = b.add(w, _I64(MOVED))
            with b.if_then(b.icmp_signed("!=", load(b, state, moved), _I64(0))):  # a caller
                store(b, state, moved, _I64(0))  # moved it to its CPU
                b.store(_I64(-1), away)
        with b.if_then(b.icmp_signed("!=", load(b, state, CPUS), _I64(0))):
            b.store(b.call(keep, [state, b.load(away)]), away)
        fields = [load(b, state, word) for word in (BODY, SCHED, COUNT, DATA)]
        before = _thread_cpu(b, None)
        with b.if_then(tracked):
            store(b, state, b.add(w, _I64(IN_JOB)), _I64(1))
        ran = b.call(take, [state, job, *fields, fields[2]])
        some = b.icmp_signed("!=", ran, _I64(0))
        with b.if_then(some):  # before the worker reads its CPU clock (`hand_back`)
            b.call(hand_back, [state, ran])
        with b.if_then(tracked):
            store(b, state, b.add(w, _I64(IN_JOB)), _I64(0))
        with b.if_then(some):
            _add(b, state, HELPED, b.sub(_thread_cpu(b, None), before))
            _add_flag(b, state, TAKEN, ran)  # after `HELPED`: the ledger counts a job whole
    b.ret_void()


def _help(module: ir.Module, take, hand_back) -> None:
    """`HELP(state)`: takes one piece of the job posted on `state` (the desk's,
    see `desk`) if one is left, as a worker would (`SERVE`); returns how many
    pieces it ran (0 or 1)."""
    fn, b = _function(module, HELP, _I64, 1, public=True)
    (state,) = fn.args
    job = b.and_(_flag(b, state, EPOCH), _I64(_LOW))
    with b.if_then(b.icmp_signed("!=", _claimed(b, load(b, state, CLAIM)), job)):
        b.ret(_I64(0))  # nothing posted since the last job ended
    fields = [load(b, state, word) for word in (BODY, SCHED, COUNT, DATA)]
    ran = b.call(take, [state, job, *fields, _I64(1)])
    with b.if_then(b.icmp_signed("!=", ran, _I64(0))):
        b.call(hand_back, [state, ran])
        _add_flag(b, state, TAKEN, ran)
    b.ret(ran)


def _shutdown(module: ir.Module) -> None:
    """`SHUTDOWN(state)`: stops the workers (after the jobs they are in)."""
    fn, b = _function(module, SHUTDOWN, ir.VoidType(), 1, public=True)
    (state,) = fn.args
    _add_flag(b, state, STOP, 1)
    _add_flag(b, state, EPOCH, 1)
    _futex(b, state, EPOCH, _FUTEX_WAKE_PRIVATE, 1 << 30, 0)
    b.ret_void()


def _module() -> ir.Module:
    """The pool's code as one LLVM module: its entry points (`RUN`, `SERVE`, `HELP`,
    `SHUTDOWN`) and numba's parfors' (`parallel.parfor_functions`)."""
    module = ir.Module(name="numbax_pool")
    take, hand_back = _take(module), _hand_back(module)
    _run(module, take, _mark_workers(module), _rescue(module))
    _serve(module, take, hand_back, keep_off(module))
    _help(module, take, hand_back)
    _shutdown(module)
    parallel.parfor_functions(module)
    return module


# The C types of the pool's entry points
_RUN_C = ctypes.CFUNCTYPE(None, *[ctypes.c_int64] * 6)  # (a call releases the GIL)
_STATE_C = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_int64)
_BODY_C = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64)


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
        """Loads the pool's code (`_code`), starts the workers (once) and runs parallel loops on
        the pool from now on, numba's parfors linked from now on included
        (`parallel.route_parfors`)."""
        run = _entry(RUN)  # what takes numba's compiler lock, not while holding ours
        with _starting:
            _slot(parallel.RUN_CELL)[0] = run
            if not self.threads:
                self.threads = [
                    threading.Thread(
                        target=self._work, args=(r,), name=f"numbax-pool-{r}", daemon=True
                    )
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
        _STATE_C(_entry(SERVE))(self.address, rank)

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
            ctypes.CFUNCTYPE(None, ctypes.c_int64)(_entry(SHUTDOWN))(self.address)
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


_current: dict = {"pool": None}
_starting = threading.Lock()


def _code():
    """The pool's machine code, once per process: `_module` compiled by numba's code generator
    (O3, its target machine; tens of milliseconds), or its object code loaded from the disk
    cache; numba's parfors routed to it (`parallel.route_parfors`)."""
    library = _current.get("code")
    if library is not None:
        return library
    with global_compiler_lock:
        library = _current.get("code")
        if library is None:
            library = _compiled()
            parallel.route_parfors(library)
            _current["code"] = library
    return library


def _compiled():
    """The code library of `_module` from the disk cache (keyed by the sources that write it,
    LLVM's version and the target CPU), or compiled and written there (best effort). It is
    compiled by the quick tier's code generator for code with loops (`target.quick_codegen`:
    SROA and O1 code generation, 0.04 s of CPU against numba's O3 pipeline's 0.17 s; the pool's
    code is atomics, calls and system calls, which O3 does not make faster)."""
    key = hashlib.sha256(repr((llvm.llvm_version_info, target_cpu())).encode())
    for source in (__file__, parallel.__file__, exchange.__file__):
        key.update(Path(source).read_bytes())
    name = f"numbax_jit_{key.hexdigest()[:40]}.pool"
    path = cache_files.secure_dir(cache_files.cache_dir()) / name
    state = cache_files.read_pickled(path)
    if state is not None:
        with target.callbacks_raise(), contextlib.suppress(Exception):  # another LLVM's
            return cpu_target.target_context.codegen().unserialize_library(state)
    library = target.quick_codegen(loops=True).create_library("numbax_pool")
    library.enable_object_caching()
    library.add_ir_module(_module())
    with target.callbacks_raise():
        library.finalize()
    try:
        cache_files.write_verified(path, pickle.dumps(library.serialize_using_object_code()))
    except OSError as e:
        cache_files.warn(f"the thread pool's code not cached ({e})")
    return library


def _entry(name: str) -> int:
    """The address of the pool's function `name` (`RUN`, ...), its code loaded (`_code`)."""
    return _code().get_pointer_to_function(name)


@_RUN_C
def _first_job(state: int, body: int, sched: int, count: int, data: int, threads: int) -> None:
    """What `numbax_pool_run`'s cell holds while this process's pool is on but has not started
    (`prepare`): its first job, called from native code (ctypes takes the GIL), loads the
    pool's code and starts its workers (`Pool.turn_on`), or only loads the code if the pool is
    off (a job on the pmap devices' desk), and then runs the job. Should that fail, the job's
    pieces run here, in order, before the error is reported."""
    try:
        pool = _current["pool"]
        if pool is not None and pool.state[ON]:
            pool.turn_on()
        else:
            _slot(parallel.RUN_CELL)[0] = _entry(RUN)
        run = _RUN_C(_entry(RUN))
    except Exception:  # (ctypes reports it as an unraisable exception)
        pieces = (ctypes.c_int64 * (2 * count)).from_address(sched)
        for k in range(count):
            _BODY_C(body)(data, pieces[2 * k], pieces[2 * k + 1] + 1)
        raise
    run(state, body, sched, count, data, threads)


_FIRST_JOB = ctypes.cast(_first_job, ctypes.c_void_p).value


def desk() -> Pool:
    """The desk of this process's pmap devices: a pool state without workers where a device's
    parallel loops are posted (each device runs on one thread, its share of the cores), so
    that a device waiting at a collective's barrier runs pieces of them on its otherwise idle
    core (`exchange._meet` calls `HELP`; `parallel.emit_for` posts a loop of more
    than one piece on one thread while the desk counts `HELPERS`, the devices of running pmaps
    that help each other: `communicator`). Made on first use; its address and
    `HELP`'s are in the cells `parallel.DESK_CELL` and `parallel.HELP_CELL`."""
    made = _current.get("desk")
    if made is not None:
        return made
    run, helper = _entry(RUN), _entry(HELP)
    with _starting:
        made = _current.get("desk")
        if made is None:
            made = Pool(0)
            made.state[CPUS] = 0
            if not _slot(parallel.RUN_CELL)[0]:  # (else `_first_job`'s, or `run` already)
                _slot(parallel.RUN_CELL)[0] = run
            _slot(parallel.HELP_CELL)[0] = helper
            _slot(parallel.DESK_CELL)[0] = made.address
            _current["desk"] = made
    return made


def prepare() -> Pool:
    """This process's pool, made on first use (for `num_threads()` threads), its state in its
    cell, where every parallel loop reads it; on if `config.jit_thread_pool` and it has
    workers, but not started: its code loads and its workers start at its first job
    (`_first_job`), so that a process that runs no loop on more than one thread (one thread
    per process under `mpiexec`, or small programs) pays nothing for the pool; what links
    numba's parfors loads the code first (`_route`)."""
    pool = _current["pool"]
    if pool is not None:
        return pool
    with _starting:
        pool = _current["pool"]
        if pool is None:
            pool = Pool(thread_policy.num_threads() - 1)
            _slot(parallel.STATE_CELL)[0] = pool.address
            if config.jit_thread_pool and pool.workers:
                pool.state[ON] = 1
                _slot(parallel.RUN_CELL)[0] = _FIRST_JOB
            _current["pool"] = pool
    return pool


def start() -> Pool:
    """This process's pool (`prepare`), turned on (`Pool.turn_on`: its code loaded, its workers
    started) if `config.jit_thread_pool`."""
    pool = prepare()
    if config.jit_thread_pool:
        pool.turn_on()
    return pool


def _route() -> None:
    """Loads the pool's code, which numba's parfors linked from then on call
    (`parallel.route_parfors`), if the pool is on (`parallel.before_parfors`)."""
    if prepare().state[ON]:
        _code()


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
    parent's was, whose workers start at its first job (`_first_job`); and none of its pmap
    devices: its desk counts none and holds no job."""
    global _starting
    _starting = threading.Lock()  # a parent's thread may have held it at the fork
    desk = _current.get("desk")
    if desk is not None:
        desk.state[[HELPERS, BUSY]] = 0
        desk._count_lock = threading.Lock()
    old, _current["pool"] = _current["pool"], None
    if old is not None:
        new = prepare()
        new.state[ON] = old.state[ON]
        if new.state[ON]:
            _slot(parallel.RUN_CELL)[0] = _FIRST_JOB


def _stop() -> None:
    pool, _current["pool"] = _current["pool"], None
    if pool is not None:
        pool.stop()


os.register_at_fork(after_in_child=_restart_in_child)
atexit.register(_stop)
comm.register_desk(desk)
parallel.register_before_parfors(_route)
