"""pmap calls are asynchronous (core/parallel/dispatch.py): a call returns before its devices
finish, reads wait, a call on a running call's outputs is queued behind it, the caller's numpy
inputs are copied, errors surface where the outputs are read and name the function, and the
results equal the synchronous ones (`jax_cpu_enable_async_dispatch` off)."""

import os
import threading
import time
import types

import numpy as np
import pytest

import core
from core import lax, placement
from core.jit.errors import JitExecutionError
from core.parallel import dispatch


@pytest.fixture
def gate():
    """An event that a host callback in the pmapped function waits for (set at teardown too,
    so that a failing test leaves no device blocked)."""
    event = threading.Event()
    yield event
    event.set()


def _held(gate):
    def wait(x):
        assert gate.wait(30), "the test never opened the gate"
        return x

    return lambda x: core.pure_callback(wait, core.ShapeDtypeStruct(x.shape, x.dtype), x)


def _step(x, w):
    """One data-parallel step: a psum'ed gradient-like sum, an update shared by the devices."""
    g = lax.psum((x * w).sum(0), "i")
    return w - 0.1 * g


def test_a_call_returns_before_its_devices_finish(gate):
    hold = _held(gate)
    out = core.pmap(lambda x: lax.psum(hold(x), "i") * 2, "i")(np.arange(4.0, dtype=np.float32))
    assert dispatch.asynchronous() and not out.is_ready()
    assert out.shape == (4,) and out.dtype == np.float32  # known without waiting
    gate.set()
    np.testing.assert_array_equal(np.asarray(out), [12.0] * 4)
    assert out.is_ready()


def test_unmapped_outputs_are_pending_too(gate):
    hold = _held(gate)
    out = core.pmap(lambda x: lax.psum(hold(x), "i"), "i", out_axes=None)(np.ones(2, np.float32))
    assert not out.is_ready()
    gate.set()
    assert float(out) == 2.0 and out.is_ready()


def test_a_loop_on_pending_state_equals_the_synchronous_one(gate):
    devices = core.local_devices()[:2]
    x = np.arange(24, dtype=np.float32).reshape(2, 4, 3) / 10
    step = core.pmap(_step, "i", devices=devices)

    def loop(steps):
        w = placement.device_put_replicated(np.ones(3, np.float32), devices)
        for _ in range(steps):
            w = step(x, w)
        return w

    hold = _held(gate)
    first = core.pmap(lambda v: hold(v), "i", devices=devices)(np.ones((2, 3), np.float32))
    queued = step(x, first)  # queued behind the held call on both devices
    assert not queued.is_ready()
    gate.set()
    np.testing.assert_array_equal(np.asarray(queued), np.asarray(step(x, np.ones((2, 3)))))
    got = np.asarray(loop(5))
    core.config.update("cpu_enable_async_dispatch", False)
    try:
        expected = loop(5)
        assert expected.is_ready()
    finally:
        core.config.update("cpu_enable_async_dispatch", True)
    np.testing.assert_array_equal(got, np.asarray(expected))


def test_pending_per_device_values_are_not_taken_for_replicated(gate):
    devices = core.local_devices()[:2]
    x = np.arange(24, dtype=np.float32).reshape(2, 4, 3) / 10
    w = np.stack([np.ones(3, np.float32), 2 * np.ones(3, np.float32)])
    hold = _held(gate)
    pending = core.pmap(lambda v: hold(v), "i", devices=devices)(w)
    got = core.pmap(_step, "i", devices=devices)(x, pending)  # not shared: w differs
    gate.set()
    expected = core.pmap(_step, "i", devices=devices)(x, w)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))


@pytest.fixture
def starts(monkeypatch):
    """The device threads that started a queued slice (`_Call.started`), in order; calls
    wait for idle devices' starts up to 60 s instead of 5 ms (a loaded machine's devices may
    take longer)."""
    threads = []
    started = dispatch._Call.started

    def record(call):
        threads.append(threading.current_thread().name)
        started(call)

    monkeypatch.setattr(dispatch._Call, "started", record)
    monkeypatch.setattr(dispatch, "START_WAIT_S", 60.0)
    return threads


def test_a_call_on_idle_devices_returns_once_every_device_started_it(starts):
    double = core.pmap(lambda x: x * 2, "i")
    double(np.ones(2, np.float32)).block_until_ready()  # compiled; the devices are idle
    starts.clear()
    out = double(np.ones(2, np.float32))
    assert len(set(starts)) == 2  # both device threads
    np.testing.assert_array_equal(np.asarray(out), [2.0, 2.0])


def test_a_call_on_busy_devices_does_not_wait_for_their_start(gate, starts):
    hold = _held(gate)
    inc = core.pmap(lambda v: v + 1, "i")
    inc(np.ones(2, np.float32)).block_until_ready()  # compiled
    starts.clear()
    first = core.pmap(lambda v: hold(v), "i")(np.ones(2, np.float32))  # the devices wait
    begin = time.monotonic()
    second = inc(first)
    assert time.monotonic() - begin < 30 and len(starts) == 2  # only the first call's starts
    gate.set()
    np.testing.assert_array_equal(np.asarray(second), [2.0, 2.0])


def test_the_callers_numpy_inputs_are_copied_at_the_call(gate):
    hold = _held(gate)
    x = np.ones(2, np.float32)
    out = core.pmap(lambda v: hold(v) + 1, "i")(x)
    x[:] = 100.0  # before the devices read it
    gate.set()
    np.testing.assert_array_equal(np.asarray(out), [2.0, 2.0])


def test_errors_surface_at_the_read_and_name_the_function():
    def fail(i):
        if int(i) == 1:
            raise ValueError("device 1 failed")
        return np.asarray(i, np.int32)

    def failing(x):
        i = core.pure_callback(fail, core.ShapeDtypeStruct((), np.int32), lax.axis_index("i"))
        return lax.psum(x + i, "i")

    out = core.pmap(failing, "i")(np.zeros(2, np.float32))  # returns: nothing read yet
    with pytest.raises(ValueError, match="device 1 failed") as info:
        out.block_until_ready()
    assert isinstance(info.value, JitExecutionError) and "pmap(failing)" in str(info.value)
    later = core.pmap(lambda v: v * 2, "i")(out)  # a call on the failed outputs fails too
    with pytest.raises(ValueError, match="device 1 failed"):
        np.asarray(later)
    np.testing.assert_array_equal(  # and the devices go on
        np.asarray(core.pmap(lambda v: lax.psum(v, "i"), "i")(np.ones(2))), [2.0, 2.0]
    )


def test_synchronous_when_the_flag_is_off():
    core.config.update("cpu_enable_async_dispatch", False)
    try:
        assert not dispatch.asynchronous()
        out = core.pmap(lambda x: x + 1, "i")(np.ones(2, np.float32))
        assert out.is_ready() and out._pending.task is None
    finally:
        core.config.update("cpu_enable_async_dispatch", True)


def test_wait_all_waits_for_pmap_calls(gate):
    from core.jit import dispatch as jit_dispatch

    hold = _held(gate)
    out = core.pmap(lambda x: hold(x), "i")(np.ones(2, np.float32))
    assert jit_dispatch.in_flight()
    gate.set()
    jit_dispatch.wait_all()
    assert out.is_ready() and not jit_dispatch.in_flight()


def test_a_caller_gets_at_most_max_in_flight_calls_ahead(gate):
    hold = _held(gate)
    step = core.pmap(lambda x: hold(x) + 1, "i")
    made = []

    def loop():
        x = np.zeros(2, np.float32)
        for _ in range(dispatch.MAX_IN_FLIGHT + 1):
            x = step(x)
            made.append(x)

    caller = threading.Thread(target=loop)
    caller.start()
    deadline = time.monotonic() + 60  # the first call compiles
    while len(made) < dispatch.MAX_IN_FLIGHT and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.3)
    assert caller.is_alive() and len(made) == dispatch.MAX_IN_FLIGHT  # waits for the oldest
    gate.set()
    caller.join(timeout=60)
    assert not caller.is_alive()
    np.testing.assert_array_equal(np.asarray(made[-1]), [9.0, 9.0])


@pytest.mark.parametrize(
    ("cpus", "local", "processes", "ids", "expected"),
    [
        ({0, 1}, 2, 1, [0, 1], [0, 1]),  # a core per device
        ({2, 5, 7}, 3, 1, [2, 0], [7, 2]),  # the d.id-th CPU the caller may use
        ({0, 1}, 8, 1, [0, 1], [None, None]),  # more devices than cores: anywhere
        ({0, 1}, 2, 2, [0, 1], [None, None]),  # an MPI job: its processes share the cores
        ({0, 1}, 2, 1, [1], [None]),  # one device: nothing to meet
    ],
)
def test_each_device_keeps_to_a_cpu_of_its_own_when_there_are_enough(
    monkeypatch, cpus, local, processes, ids, expected
):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: cpus)
    monkeypatch.setattr(dispatch, "local_device_count", lambda: local)
    monkeypatch.setattr(dispatch, "process_count", lambda: processes)
    devices = [types.SimpleNamespace(id=i) for i in ids]
    assert dispatch.device_cpus(devices) == expected
