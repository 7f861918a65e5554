"""The compiled collectives of a pmap (core/backends/numba/library/exchange.py): psum, pmax,
pmin and all_gather give the bits of the eager exchange (collective_ops, the devices' arrays
folded in rank order) for staged and in-place arrays, several dtypes, NaNs and signed zeros;
kernels call the library instead of Python; a device that fails before a collective does not
leave the others waiting, a device that never arrives makes the others give up after
`pmap_collective_timeout` (sleeping, not spinning) and every device raises; the next call
works."""

import os
import threading
import time

import numpy as np
import pytest

import core
from core import lax
from core.errors import CollectiveTimeoutError
from core.jit import host_calls
from core.parallel import communicator
from core.parallel.communicator import SMALL


def _values(shape, dtype, devices):
    rng = np.random.default_rng(0)
    if np.dtype(dtype).kind == "f":
        x = rng.standard_normal((devices, *shape)).astype(dtype) * 1e3
        flat = x.reshape(devices, -1)
        flat[0, :3] = [np.nan, -0.0, 0.0]
        flat[-1, :3] = [1.0, 0.0, -0.0]
        flat[1, 3] = np.nan
        return x
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, (devices, *shape), dtype=dtype, endpoint=True)


def _bits(a):
    a = np.ascontiguousarray(a)
    return a.view(f"u{a.dtype.itemsize}") if a.dtype.kind == "f" else a


COLLECTIVES = {
    "psum": lambda x: lax.psum(x, "i"),
    "pmax": lambda x: lax.pmax(x, "i"),
    "pmin": lambda x: lax.pmin(x, "i"),
    "all_gather": lambda x: lax.all_gather(x, "i"),
    "all_gather_1": lambda x: lax.all_gather(x, "i", axis=1),
    "all_gather_tiled": lambda x: lax.all_gather(x, "i", axis=1, tiled=True),
}


@pytest.fixture
def host_collectives(monkeypatch):
    """The keys of the host calls of collectives that compiled code made."""
    keys = []
    call = host_calls.call

    def spy(key, *args):
        if key.startswith("collective_"):
            keys.append(key)
        return call(key, *args)

    monkeypatch.setattr(host_calls, "call", spy)
    return keys


@pytest.mark.parametrize("name", sorted(COLLECTIVES))
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint8"])
@pytest.mark.parametrize("rows", [3, SMALL // 8 + 1])  # staged copies, or read in place
@pytest.mark.parametrize("devices", [3, 8])
def test_compiled_collectives_give_the_eager_exchanges_bits(
    name, dtype, rows, devices, host_collectives
):
    x = _values((rows, 2), dtype, devices)
    fn = core.pmap(COLLECTIVES[name], axis_name="i")
    got = np.asarray(fn(x))
    with core.disable_jit():
        expected = np.asarray(core.pmap(COLLECTIVES[name], axis_name="i")(x))
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(_bits(got), _bits(expected))
    assert host_collectives == []  # the kernels exchanged through the library


def test_scalars_and_several_collectives_in_a_row():
    x = np.arange(8.0, dtype=np.float32)

    def f(v):
        s = lax.psum(v, "i")  # 0-d
        m = lax.pmean(v * s, "i")
        return lax.all_gather(m + v, "i"), lax.pmax(-v, "i")

    got = core.pmap(f, axis_name="i")(x)
    with core.disable_jit():
        expected = core.pmap(f, axis_name="i")(x)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(e))


def _fail_on_device_1(v):
    if v[0] == 1:
        raise ValueError("device 1 fails")
    return v


def test_a_device_failing_before_a_collective_does_not_hang_the_others():
    def f(v):
        w = core.pure_callback(_fail_on_device_1, core.ShapeDtypeStruct(v.shape, v.dtype), v)
        return lax.psum(w, "i") + lax.psum(v * 2, "i")

    fn = core.pmap(f, axis_name="i")
    x = np.arange(4.0, dtype=np.float32).reshape(4, 1)
    done = []

    def call():
        try:
            np.asarray(fn(x))  # calls are asynchronous: the read raises
        except ValueError as err:
            done.append(err)

    caller = threading.Thread(target=call)
    caller.start()
    caller.join(timeout=120)
    assert not caller.is_alive() and "device 1 fails" in str(done[0])
    good = core.pmap(lambda v: lax.psum(v * 2, "i"), axis_name="i")
    np.testing.assert_array_equal(np.asarray(good(x)), np.full((4, 1), 12.0, np.float32))


def _late_on_device_1(v):
    if v[0] == 1:
        time.sleep(3.0)
    return v


def test_a_device_that_never_arrives_times_the_others_out():
    def f(v):
        w = core.pure_callback(_late_on_device_1, core.ShapeDtypeStruct(v.shape, v.dtype), v)
        return lax.psum(w, "i")

    fn = core.pmap(f, axis_name="i")
    x = np.arange(2.0, dtype=np.float32).reshape(2, 1)
    with core.config.override("pmap_collective_timeout", float("inf")):  # no limit
        np.testing.assert_array_equal(np.asarray(fn(x)), [[1.0], [1.0]])  # compiled, on time
    with core.config.override("pmap_collective_timeout", 1.0):
        cpu, wall = time.process_time(), time.perf_counter()
        with pytest.raises(CollectiveTimeoutError, match="pmap_collective_timeout") as info:
            np.asarray(fn(x))  # calls are asynchronous: the read raises
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    assert info.value.rank == 0  # device 0 waited for device 1
    assert 2.9 < wall < 60 and cpu < 0.5 * wall  # device 0 slept while it waited
    np.testing.assert_array_equal(np.asarray(fn(np.zeros((2, 1), np.float32))), [[0.0], [0.0]])


def _late_on_device_0(v):
    if v[0] == 0:
        time.sleep(0.02)  # 10 help windows, no piece posted meanwhile
    return v


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs a core per device")
def test_a_device_that_sleeps_at_a_barrier_ends_the_calls_helping(monkeypatch):
    """Devices that help each other (`config.pmap_devices_help`): a device that waited a whole
    help window without a piece (`communicator.HELP_NS`: device 0 is 20 ms late) goes to sleep
    and ends the helping for the rest of the call (the block's `DESK_OFF`, clear again when the
    next call joins the desk); the results are those without helping."""
    flags = []
    comm = communicator.ThreadCommunicator
    join, release = comm.join_desk, comm.release

    def joined(self):
        join(self)
        words = self.block.words
        flags.append(("join", words[communicator.DESK] != 0, words[communicator.DESK_OFF]))

    def released(self):
        flags.append(("end", self._helped, self.block.words[communicator.DESK_OFF]))
        return release(self)

    monkeypatch.setattr(comm, "join_desk", joined)
    monkeypatch.setattr(comm, "release", released)
    monkeypatch.setattr(communicator, "HELP_SHARE", 0.0)  # next to busy processes too
    monkeypatch.setattr(communicator, "_help_gate", communicator._HelpGate())

    def f(v):
        w = core.pure_callback(_late_on_device_0, core.ShapeDtypeStruct(v.shape, v.dtype), v)
        return lax.psum(lax.psum(w, "i") * 2, "i")

    fn = core.pmap(f, axis_name="i", devices=core.devices()[:2])
    x = np.arange(2.0, dtype=np.float32).reshape(2, 1)
    with core.config.override("pmap_devices_help", True):
        for _ in range(3):
            np.testing.assert_array_equal(np.asarray(fn(x)), [[4.0], [4.0]])
            core.effects_barrier()  # the call has ended
    assert flags == [("join", True, 0), ("end", True, 1)] * 3
