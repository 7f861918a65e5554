"""numbax's thread pool (core/backends/llvm/pool.py): every iteration runs once, on one or two
threads, with a slow piece (a worker that lost its core), from several callers at once, and
with a loop inside a piece (run on its caller); a worker keeps off its caller's CPU, and a
preempted one is moved to its waiting caller's (within the caller's spin if it was preempted as
the caller began to wait); the ledger, also per job; the pool stops and
starts again; numba's own parfors run on it, their reductions right; a process loads the pool's
code and starts its workers at its first job, and never on one thread."""

import ctypes
import os
import subprocess
import sys
import threading
import time

import numba
import numpy as np
import pytest
from numba import prange, types

from core.backends.llvm import parallel, pool
from core.backends.numba.library.exchange import _now

RUN = pool._RUN_C(pool._entry(pool.RUN))  # releases the GIL
BODY = types.void(types.voidptr, types.int64, types.int64)
# The header of a body's data (int64 words), then the loop's output, one word per iteration:
# the first iteration of the slow piece and how many ns it spins first; an inner loop each
# piece runs (its body, pieces, count of pieces, data; body 0: none) and the pool's state.
SLOW, SPIN, INNER_BODY, INNER_SCHED, INNER_COUNT, INNER_DATA, STATE = range(7)
HEADER = 8


@numba.cfunc(BODY, nogil=True)
def _mark(data, lo, hi):
    out = numba.carray(data, HEADER + hi, np.int64)
    for i in range(lo, hi):
        out[HEADER + i] = i + 1


@numba.cfunc(BODY, nogil=True)
def _count(data, lo, hi):
    out = numba.carray(data, HEADER + hi, np.int64)
    if lo == out[SLOW]:
        end = _now() + out[SPIN]
        while _now() < end:
            pass
    if out[INNER_BODY] != 0:
        RUN(out[STATE], out[INNER_BODY], out[INNER_SCHED], out[INNER_COUNT], out[INNER_DATA], 2)
    for i in range(lo, hi):
        out[HEADER + i] += i + 1


@numba.cfunc(BODY, nogil=True)
def _spin_each(data, lo, hi):
    out = numba.carray(data, HEADER + hi, np.int64)
    end = _now() + out[SPIN] * (3 * lo + 1)
    while _now() < end:
        pass
    for i in range(lo, hi):
        out[HEADER + i] += i + 1


@pytest.fixture(autouse=True)
def on():
    with pool.using(True) as p:
        yield p


def _pieces(n: int, size: int) -> np.ndarray:
    """[first, last] of consecutive pieces of `size` iterations over range(n), flat."""
    firsts = np.arange(0, n, size, dtype=np.int64)
    return np.stack([firsts, np.minimum(firsts + size, n) - 1], axis=1).ravel().copy()


def _until_a_worker_joins(p: pool.Pool, n: int, spin_ns: int) -> None:
    """Runs loops of `n` pieces whose first spins `spin_ns` until a worker took a piece of one
    (a worker compiles its code on a cold cache before it serves: up to a minute)."""
    before, deadline = p.stats()["pieces"], time.monotonic() + 60
    while p.stats()["pieces"] == before:
        np.testing.assert_array_equal(_loop(n, 1, 2, slow=0, spin_ns=spin_ns), np.arange(1, n + 1))
        assert time.monotonic() < deadline, "the worker joined none of the loops"


def _loop(n: int, size: int, threads: int, slow: int = -1, spin_ns: int = 0, inner=None):
    """Runs `_count` over range(n) in pieces of `size` on the pool; its outputs, each of
    which must be i + 1."""
    state = pool.start().address
    data = np.zeros(HEADER + n, np.int64)
    data[[SLOW, SPIN, STATE]] = slow, spin_ns, state
    if inner is not None:
        data[[INNER_BODY, INNER_SCHED, INNER_COUNT, INNER_DATA]] = inner
    sched = _pieces(n, size)
    RUN(state, _count.address, sched.ctypes.data, len(sched) // 2, data.ctypes.data, threads)
    return data[HEADER:]


def _uneven_loop(spin_ns: int) -> None:
    """Runs `_spin_each` over two pieces of one iteration on two threads: the first spins
    `spin_ns`, the second, which a worker that wakes in time takes, four times that."""
    data, sched = np.zeros(HEADER + 2, np.int64), _pieces(2, 1)
    data[SPIN] = spin_ns
    RUN(pool.start().address, _spin_each.address, sched.ctypes.data, 2, data.ctypes.data, 2)
    np.testing.assert_array_equal(data[HEADER:], [1, 2])


@pytest.mark.parametrize("threads", [1, 2, 4])
@pytest.mark.parametrize("n, size", [(1, 1), (7, 1), (1000, 3), (1000, 128), (100_003, 4096)])
def test_every_iteration_runs_once(n, size, threads):
    for _ in range(20):
        np.testing.assert_array_equal(_loop(n, size, threads), np.arange(1, n + 1))


@pytest.mark.parametrize("slow", [0, 64, 960])
def test_a_slow_piece_delays_nothing_else(slow):
    """One piece spins 20 ms (its thread has lost its core): the others are taken by whoever
    is free, and every iteration runs once."""
    np.testing.assert_array_equal(
        _loop(1000, 64, 2, slow=slow, spin_ns=20_000_000), np.arange(1, 1001)
    )


def test_callers_at_once_and_in_turn():
    """Three threads calling loops at once (one holds the pool, the others run theirs on
    their own thread)."""
    errors = []

    def work():
        try:
            for n in (500, 5000, 50_000) * 10:
                np.testing.assert_array_equal(_loop(n, 97, 2), np.arange(1, n + 1))
        except AssertionError as e:
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_late_workers_take_nothing_of_the_next_job():
    """Many workers on few cores (preempted often) and jobs of 2 and of 64 pieces in turn,
    each on data of its own: a worker preempted after it read a job's number, which wakes
    when the next job is being written, takes no piece with a mix of the two jobs' fields
    (every iteration of every job runs once; a piece of the wrong job would count twice or
    write past a job's data). A stress test: without the fix (CLAIM closed before a job's
    fields are written) it failed in about one run of six of 1.5 s at load 10."""
    p = pool.Pool(6)
    p.turn_on()
    small, large = _pieces(2, 1), _pieces(64 * 16, 16)
    cpus = sorted(os.sched_getaffinity(0))
    try:
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline:
            for k, sched in enumerate((small, large)):
                # a caller on another CPU: its workers move (`_keep_off`), between reading a
                # job's number and its fields, and wait for a core there
                os.sched_setaffinity(0, {cpus[k % len(cpus)]})
                n = int(sched[-1]) + 1
                data = np.zeros(HEADER + n, np.int64)
                data[SLOW] = -1
                RUN(
                    p.address,
                    _count.address,
                    sched.ctypes.data,
                    len(sched) // 2,
                    data.ctypes.data,
                    7,
                )
                np.testing.assert_array_equal(data[HEADER:], np.arange(1, n + 1))
    finally:
        os.sched_setaffinity(0, cpus)
        p.stop()


def test_loop_inside_a_piece_runs_on_its_caller():
    """Each piece of the outer loop runs an inner loop on the pool (held by the outer one: the
    inner loop runs all its pieces on the thread of its piece); no deadlock."""
    inner = np.zeros(HEADER + 300, np.int64)
    sched = _pieces(300, 7)
    spec = (_mark.address, sched.ctypes.data, len(sched) // 2, inner.ctypes.data)
    np.testing.assert_array_equal(_loop(2000, 50, 2, inner=spec), np.arange(1, 2001))
    np.testing.assert_array_equal(inner[HEADER:], np.arange(1, 301))


def test_one_thread_leaves_the_workers_asleep(on):
    """A loop on one thread (the load follower's count next to a busy process) runs on its
    caller: the workers take no piece."""
    before = _settled_pieces(on)
    np.testing.assert_array_equal(_loop(5000, 10, 1), np.arange(1, 5001))
    assert on.stats()["pieces"] == before


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs")
def test_a_worker_keeps_off_its_callers_cpu(on):
    """A worker that joins a loop moves off the CPU its caller runs on (a busy process then
    shares a core with the worker, not with the caller), and follows the caller to another."""
    if not on.threads or not on.state[pool.CPUS]:
        pytest.skip("no worker, or no CPU mask to keep to")
    cpus, worker = sorted(os.sched_getaffinity(0)), on.threads[0].native_id
    try:
        for cpu in cpus[:2]:
            os.sched_setaffinity(0, {cpu})
            _until_a_worker_joins(on, 64, 200_000)
            assert os.sched_getaffinity(worker) == set(cpus) - {cpu}
    finally:
        os.sched_setaffinity(0, cpus)


def test_the_ledger_counts_the_workers_pieces_and_the_callers_waits(on):
    """`Pool.saved`: the workers' CPU time in pieces less their callers' waits for them."""
    if not on.threads:
        pytest.skip("no worker")
    on.saved()
    helped, waited = int(on.state[pool.HELPED]), int(on.state[pool.WAITED])
    _until_a_worker_joins(on, 64, 2_000_000)
    assert on.state[pool.HELPED] > helped
    assert on.state[pool.WAITED] >= waited
    seconds = ((on.state[pool.HELPED] - helped) - (on.state[pool.WAITED] - waited)) / 1e9
    assert on.saved() == pytest.approx(seconds)
    assert on.saved() == 0.0


def test_the_ledger_counts_long_waits(on):
    """A caller that waits more than `LONG_NS` for a worker's piece (its own piece spins 1 ms,
    the worker's 4 ms) counts the wait in `LONG_WAITS` and `LONG_WAITED`."""
    if not on.threads:
        pytest.skip("no worker")
    count, waited = int(on.state[pool.LONG_WAITS]), int(on.state[pool.LONG_WAITED])
    deadline = time.monotonic() + 60
    while on.state[pool.LONG_WAITS] == count:
        _uneven_loop(1_000_000)
        assert time.monotonic() < deadline, "no caller waited for the worker's slow piece"
    assert on.state[pool.LONG_WAITED] - waited > pool.LONG_NS * (on.state[pool.LONG_WAITS] - count)


def test_the_ledger_per_job_counts_each_jobs_slot(on):
    """With `JOB_PERIOD` set, job j adds its pieces, its time and its caller's wait to slot
    j % `JOB_PERIOD`; one-thread loops post no job and add nothing."""
    words = slice(pool.JOB_WAITED, pool.JOB_TIME + pool.JOB_SLOTS)
    before = on.state[words].copy()
    on.state[pool.JOB_PERIOD] = 2
    try:
        first = (int(on.state[pool.EPOCH]) + 1) % 2
        _loop(1000, 100, 2)  # 10 pieces in slot `first`
        _loop(1000, 250, 2)  # 4 pieces in the other
        _loop(1000, 100, 1)  # no job
    finally:
        on.state[pool.JOB_PERIOD] = 0
    added = (on.state[words] - before).reshape(4, pool.JOB_SLOTS)
    waited, long, pieces, took = added
    assert pieces[first] == 10 and pieces[1 - first] == 4 and not pieces[2:].any()
    assert (took[:2] > 0).all() and (took[:2] >= waited[:2]).all() and not took[2:].any()
    assert not long[2:].any() and not waited[2:].any()


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs")
def test_a_caller_moves_a_preempted_worker_to_its_cpu(on):
    """A worker that waits for its core (two busy processes hold it) while it holds a piece is
    moved to its caller's CPU as the caller sleeps (`_rescue`), and keeps off that CPU again at
    its next job; every iteration runs once."""
    if not on.threads or not on.state[pool.CPUS]:
        pytest.skip("no worker, or no CPU mask to keep to")
    cpus, worker = sorted(os.sched_getaffinity(0)), on.threads[0].native_id
    hog = f"import os\nos.sched_setaffinity(0, {{{cpus[1]}}})\nwhile True: pass"
    hogs = [subprocess.Popen([sys.executable, "-c", hog]) for _ in range(2)]
    before, deadline = int(on.state[pool.RESCUED]), time.monotonic() + 60
    try:
        os.sched_setaffinity(0, {cpus[0]})
        while on.state[pool.RESCUED] == before:
            _uneven_loop(1_000_000)
            assert time.monotonic() < deadline, "no caller moved its preempted worker"
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    try:
        _until_a_worker_joins(on, 64, 200_000)
        assert os.sched_getaffinity(worker) == set(cpus) - {cpus[0]}
    finally:
        os.sched_setaffinity(0, cpus)


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs")
def test_a_caller_moves_a_worker_preempted_as_it_begins_to_wait_within_its_spin(on):
    """A caller that finds its worker preempted as its own pieces end (two busy processes hold
    the worker's core) moves it at the end of its spin (`LOOK`), not `RESCUE_NS` later as it
    sleeps: some job has a worker moved and its caller's wait under `RESCUE_NS`."""
    if not on.threads or not on.state[pool.CPUS]:
        pytest.skip("no worker, or no CPU mask to keep to")
    cpus = sorted(os.sched_getaffinity(0))
    hog = f"import os\nos.sched_setaffinity(0, {{{cpus[1]}}})\nwhile True: pass"
    hogs = [subprocess.Popen([sys.executable, "-c", hog]) for _ in range(2)]
    deadline, moved = time.monotonic() + 60, False
    try:
        os.sched_setaffinity(0, {cpus[0]})
        while not moved:
            rescued, waited = int(on.state[pool.RESCUED]), int(on.state[pool.WAITED])
            _uneven_loop(20_000)
            short = on.state[pool.WAITED] - waited < pool.RESCUE_NS
            moved = on.state[pool.RESCUED] > rescued and short
            assert time.monotonic() < deadline, "no caller moved its worker within its spin"
    finally:
        for h in hogs:
            h.kill()
            h.wait()
        os.sched_setaffinity(0, cpus)


def test_stop_and_start_again(on):
    """A stopped pool's workers end; a new pool serves loops (as in a forked child)."""
    pool._stop()
    assert not any(t.is_alive() for t in on.threads)
    with pool.using(True) as new:
        assert new is not on and len(new.threads) == len(on.threads)
        assert all(t.is_alive() for t in new.threads)
        np.testing.assert_array_equal(_loop(5000, 100, 2), np.arange(1, 5001))


@numba.njit(parallel=True)
def _parfor(a, ids, spin_ns):
    total = 0.0
    for i in prange(a.shape[0]):
        end = _now() + spin_ns
        while _now() < end:
            pass
        ids[i] = numba.get_thread_id()
        total += a[i]
    return total


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs two threads")
def test_numbas_parfors_run_on_the_pool(on):
    """A `prange` loop that numba compiles (a parfor, with a reduction whose slot is the
    thread's id) runs on the pool's threads when the pool is on, else on numba's layer; its
    sum is right either way."""
    a = np.arange(64.0)
    before = on.stats()["pieces"]
    for _ in range(10):  # each half spins 6.4 ms: the worker wakes and takes one
        ids = np.full(64, -1, np.int64)
        assert _parfor(a, ids, 200_000) == a.sum()
        assert set(ids.tolist()) <= set(range(numba.get_num_threads()))
        if on.stats()["pieces"] > before:
            break
    assert on.stats()["pieces"] > before
    inside: list = []

    def as_worker():  # a parfor inside a piece runs on its worker, in slots of its own
        numba.set_num_threads(1)
        parallel.set_rank(1)
        ids = np.full(64, -1, np.int64)
        inside.append((_parfor(a, ids, 0), set(ids.tolist())))

    worker = threading.Thread(target=as_worker)
    worker.start()
    worker.join()
    assert inside == [(a.sum(), {0})]
    with pool.using(False):
        taken = _settled_pieces(on)
        ids = np.full(64, -1, np.int64)
        assert _parfor(a, ids, 0) == a.sum()
        assert on.stats()["pieces"] == taken


def _settled_pieces(p: pool.Pool) -> int:
    """The pool's count of pieces its workers ran, once it stops moving: a worker counts its
    pieces after it hands them back and reads its CPU clock (`SERVE`), so next to load, where
    that clock read may preempt it, the count lags the job's end by a scheduler turn or more."""
    count, deadline = p.stats()["pieces"], time.monotonic() + 10
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = p.stats()["pieces"]
        if now == count:
            return count
        count = now
    return count


def test_a_device_waiting_at_a_barrier_takes_pieces_of_the_desk():
    """The pmap devices' desk (`pool.desk`): a loop posted there by one thread (its first piece
    slow) has its other pieces taken by a thread calling `_help`, as a device waiting at a
    collective's barrier does; every iteration runs once, and `_help` finds nothing between
    loops."""
    desk = pool.desk()
    help_ = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64)(
        int(parallel.CELLS[parallel.HELP_CELL][0])
    )
    assert help_(desk.address) == 0  # nothing posted
    before = desk.stats()["pieces"]
    done = threading.Event()
    taken = []

    def helper():
        n = 0
        while not done.is_set():
            n += help_(desk.address)
        taken.append(n)

    t = threading.Thread(target=helper)
    t.start()
    try:
        for _ in range(3):
            n, data = 64, np.zeros(HEADER + 64, np.int64)
            data[[SLOW, SPIN]] = 0, 20_000_000
            sched = _pieces(n, 1)
            RUN(desk.address, _count.address, sched.ctypes.data, n, data.ctypes.data, 2)
            np.testing.assert_array_equal(data[HEADER:], np.arange(1, n + 1))
    finally:
        done.set()
        t.join()
    assert taken[0] > 0 and desk.stats()["pieces"] - before == taken[0]
    assert help_(desk.address) == 0


_FIRST_JOB = """
import ctypes
import numpy as np
from core.backends.llvm import parallel, pool
p = pool.prepare()
assert "code" not in pool._current and not p.threads  # nothing loaded, no worker
if p.workers:
    assert parallel.CELLS[parallel.RUN_CELL][0] == pool._FIRST_JOB
    seen = []
    body = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)(
        lambda data, lo, hi: seen.extend(range(lo, hi))
    )
    sched = np.array([0, 4, 5, 9], np.int64)  # two pieces
    run = pool._RUN_C(int(parallel.CELLS[parallel.RUN_CELL][0]))
    for _ in range(2):  # the first job through `_first_job`, the second straight to the code
        run(p.address, ctypes.cast(body, ctypes.c_void_p).value, sched.ctypes.data, 2, 0, 2)
        assert sorted(seen) == list(range(10)), seen
        seen.clear()
        assert parallel.CELLS[parallel.RUN_CELL][0] == pool._entry(pool.RUN)
        assert len(p.threads) == p.workers and all(t.is_alive() for t in p.threads)
print("ok", p.workers, int(p.state[pool.ON]))
"""


@pytest.mark.parametrize("threads", [1, 2])
def test_the_pool_loads_and_starts_at_its_first_job(threads):
    """A process makes the pool's state but neither loads its code nor starts a worker until
    its first job on two threads (which runs every iteration once); on one thread (`mpiexec`'s
    processes on two cores) the pool stays off."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    env = dict(os.environ, PYTHONPATH=root, NUMBAX_NUM_THREADS=str(threads))
    env["NUMBAX_JIT_THREAD_POOL"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", _FIRST_JOB], env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == ["ok", str(threads - 1), str(int(threads > 1))]
