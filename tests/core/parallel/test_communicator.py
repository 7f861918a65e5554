"""pmap's exchange between device threads (core/parallel/communicator.py, collective_ops.py):
reductions and gathers equal numpy's on every device (the devices share the work, and every
device receives the same complete array), inputs are only read during the call (a device may
overwrite its array as soon as the call returns), a failing device wakes the others, and
compiled collectives hand the kernel's arrays over without copying them."""

import os
import threading

import numpy as np
import pytest

import core
from core import lax
from core.jit import host_calls
from core.parallel import axis_env, collective_ops, communicator
from core.parallel.communicator import SMALL, ThreadCommunicator


def _on_threads(size, fn):
    """Runs fn(rank) on `size` threads at once; returns their results by rank."""
    results, errors = [None] * size, []

    def run(rank):
        try:
            results[rank] = fn(rank)
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=run, args=(r,)) for r in range(size)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    if errors:
        raise errors[0]
    return results


@pytest.mark.parametrize("n", [7, SMALL // 4 + 3])  # combined alone from copies, or shared
@pytest.mark.parametrize("size", [1, 2, 3])
def test_collectives_equal_numpy_and_inputs_may_be_reused_at_once(size, n):
    comm = ThreadCommunicator(size)
    # the devices' shares of a shared reduction differ in length on 3 devices
    values = [np.arange(n, dtype=np.float32) * (r + 1) - 3 * r for r in range(size)]
    cases = {
        "psum": ({}, np.sum(values, 0)),
        "pmax": ({}, np.max(values, 0)),
        "pmin": ({}, np.min(values, 0)),
        "all_gather": ({"axis": 0, "tiled": False}, np.stack(values)),
        "tiled": ({"axis": 0, "tiled": True}, np.concatenate(values)),
    }

    def device(rank):
        outs = []
        with axis_env.running("i", comm, rank):
            for name, (params, _) in cases.items():
                mine = values[rank].copy()
                prim = "all_gather" if name == "tiled" else name
                (out,) = collective_ops.run(prim, {"axis_name": "i", **params}, [mine])
                mine[:] = np.nan  # a kernel reusing its buffer right after the call
                outs.append(out.copy())
        return outs

    for outs in _on_threads(size, device):
        for out, (_, expected) in zip(outs, cases.values(), strict=True):
            np.testing.assert_array_equal(out, expected)


def test_the_devices_receive_one_shared_result():
    comm = ThreadCommunicator(2)
    x = np.ones((4, SMALL), np.float32)
    outs = _on_threads(2, lambda rank: comm.combine(rank, x, np.empty_like, _copy_fill))
    assert outs[0] is outs[1]
    np.testing.assert_array_equal(outs[0], x)


def _copy_fill(out, values, part, parts):
    flat = out.reshape(-1)
    per = -(-flat.size // parts)
    flat[part * per : (part + 1) * per] = values[0].reshape(-1)[part * per : (part + 1) * per]


def test_a_device_failing_to_make_the_result_wakes_the_others():
    comm = ThreadCommunicator(2)

    def new(x):
        raise MemoryError("no room")

    def device(rank):
        try:
            comm.combine(rank, np.ones(SMALL), new, _copy_fill)
        except (MemoryError, threading.BrokenBarrierError) as err:
            return type(err)

    assert _on_threads(2, device) == [MemoryError, threading.BrokenBarrierError]


def test_compiled_host_collectives_borrow_the_kernels_arrays(monkeypatch):
    # complex dtypes are not `lib.exchange`'s: their psum is a host call
    borrowed = []
    call = host_calls.call

    def spy(key, *args):
        out = call(key, *args)
        if "collective_psum" in key:
            borrowed.append(host_calls._FUNCTIONS[key][3])
        return out

    monkeypatch.setattr(host_calls, "call", spy)
    x = (np.arange(8.0) + 1j).astype(np.complex64).reshape(4, 2)
    out = core.pmap(lambda v: lax.psum(v * 2, "i") + v, axis_name="i")(x)
    np.testing.assert_array_equal(np.asarray(out), 2 * x.sum(0) + x)
    assert borrowed == [True] * 4


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs a core per device")
def test_a_device_waiting_at_a_collective_runs_pieces_of_the_others_loops(monkeypatch):
    """Two devices (a core each) whose programs differ in length: device 0 runs three 384^3
    products (three parts each), device 1 one, then both psum. Device 1 waits at the psum and
    takes parts of device 0's products from the desk (`pool.desk`); the results equal, bit
    for bit, those with `config.pmap_devices_help` off, and the desk counts no devices once
    the calls ended."""
    from core.backends.llvm import pool

    monkeypatch.setattr(communicator, "HELP_SHARE", 0.0)  # next to busy processes too
    # a device that waits a whole window without a piece stops helping for the call: with the
    # cores shared (the suite's other worker) device 0 may be off its core that long
    monkeypatch.setattr(communicator, "HELP_NS", 2_000_000_000)
    monkeypatch.setattr(communicator, "_help_gate", communicator._HelpGate())
    w = np.random.default_rng(0).normal(size=(384, 384)).astype(np.float32) / 20

    def f(x, n):
        _, y = lax.while_loop(
            lambda c: c[0] < n, lambda c: (c[0] + 1, core.numpy.tanh(c[1] @ w)), (0, x)
        )
        return lax.psum(y, "i")

    p = core.pmap(f, axis_name="i", devices=core.devices()[:2])
    x = np.random.default_rng(1).normal(size=(2, 384, 384)).astype(np.float32)
    n = np.array([3, 1], np.int32)
    with core.config.override("pmap_devices_help", False):
        want = np.asarray(p(x, n))
    desk = pool.desk()
    before = desk.stats()["pieces"]
    for _ in range(30):  # device 1 finds pieces unless it lost its core meanwhile: retry
        np.testing.assert_array_equal(np.asarray(p(x, n)), want)
        if desk.stats()["pieces"] > before:
            break
    assert desk.stats()["pieces"] > before
    core.effects_barrier()  # every call has ended (a read may return before its call ends)
    assert desk.state[pool.HELPERS] == 0


class _Desk:
    """Stands for `pool.desk()`: counts the calls that join it."""

    def __init__(self):
        self.joined = 0

    def join(self, size: int) -> int:
        self.joined += 1
        return 1234  # an address the fake devices never read

    def leave(self, size: int) -> None:
        pass


@pytest.mark.parametrize(
    ("cpu", "wall", "helps"),
    [
        ((9, 8), (10, 10), True),  # a core each: the next call helps too
        ((2, 3), (10, 10), False),  # other processes took most of the cores: it does not
        ((9, 0), (10, 10), False),  # the share of both devices counts
    ],
)
def test_the_devices_help_each_other_only_while_they_get_their_cores(monkeypatch, cpu, wall, helps):
    """A call whose devices got less than `HELP_SHARE` of their wall time in CPU time leaves
    the desk to the next calls for `HELP_PAUSE_S` seconds (awake on a shared core, a waiting
    device took that core from the processes that delayed the other device); then a call
    tries it again."""
    desk = _Desk()
    monkeypatch.setattr(communicator, "_desk", [lambda: desk])
    monkeypatch.setattr(communicator, "_help_gate", communicator._HelpGate())
    monkeypatch.setattr(communicator.threads, "affinity_cores", lambda: 2)

    def call(busy: bool) -> bool:
        c = ThreadCommunicator(2)
        c.join_desk()
        joined = c.block.words[communicator.DESK] != 0
        if busy:
            for rank in range(2):
                c.busy(rank, cpu[rank], wall[rank])
        c.leave_desk()
        c.release()
        return joined

    with core.config.override("pmap_devices_help", True):
        assert call(True)
        assert call(False) == helps
        communicator._help_gate.until -= communicator.HELP_PAUSE_S
        assert call(False)


@pytest.mark.parametrize(
    ("shares", "pauses"),
    [
        ([0.1, 0.1, 0.1], [1.0, 2.0, 4.0]),  # queued calls that keep lacking their cores
        ([0.1] * 8, [1.0, 2.0, 4.0, 8.0, 16.0, 16.0, 16.0, 16.0]),  # at most HELP_PAUSE_MAX_S
        ([0.1, 0.1, 0.9, 0.1], [1.0, 2.0, None, 1.0]),  # a call with its cores: back to 1 s
    ],
)
def test_the_pause_from_the_desk_doubles_while_helping_calls_lack_their_cores(
    monkeypatch, shares, pauses
):
    """Calls queued behind one that found the cores taken joined the desk before it ended: each
    that helped and lacked its cores doubles the pause (up to `HELP_PAUSE_MAX_S`), and one that
    helped with its cores sets it back to `HELP_PAUSE_S`."""
    desk = _Desk()
    monkeypatch.setattr(communicator, "_desk", [lambda: desk])
    monkeypatch.setattr(communicator, "_help_gate", communicator._HelpGate())
    monkeypatch.setattr(communicator.threads, "affinity_cores", lambda: 2)
    clock = [1000.0]
    monkeypatch.setattr(communicator.time, "monotonic", lambda: clock[0])
    with core.config.override("pmap_devices_help", True):
        queued = []
        for _ in shares:  # every call joins before the first one ends
            c = ThreadCommunicator(2)
            c.join_desk()
            queued.append(c)
        assert desk.joined == len(shares)
        for c, share, pause in zip(queued, shares, pauses):
            for rank in range(2):
                c.busy(rank, int(share * 100), 100)
            c.leave_desk()
            c.release()
            if pause is not None:
                assert communicator._help_gate.until == clock[0] + pause
            communicator._help_gate.until = 0.0


def test_operands_handed_over_until_one_device_takes_them_or_the_call_ends():
    """`hand_over` records each device's operand (the kernel's last argument) in the call's
    table and runs the kernel only where it `meets` the others; `take_handed` returns the
    operands by rank once every device has handed its own, and then forgets them; the call's
    end forgets the others. Outside a device's place the kernel just runs."""
    comm = ThreadCommunicator(2)
    kernel = lambda *args: args  # noqa: E731 (a stand-in that does not meet the others)
    operands = [np.arange(3.0) + r for r in range(2)]
    with comm.placed(0):
        assert communicator.hand_over(7, True, kernel, "size", operands[0]) == (
            "size",
            operands[0],
        )
        assert communicator.take_handed(7, 2) is None  # device 1 has not handed its own
    with comm.placed(1):
        assert communicator.hand_over(7, False, kernel, "size", operands[1]) == (None,)
        communicator.hand_over(8, False, kernel, operands[1])
        got = communicator.take_handed(7, 2)
        assert got[0] is operands[0] and got[1] is operands[1]
        assert communicator.take_handed(7, 2) is None
    comm.release()
    with comm.placed(1):
        assert communicator.take_handed(8, 1) is None
    assert communicator.take_handed(7, 2) is None  # not a device's thread
    assert communicator.hand_over(7, False, kernel, 1) == (1,)
