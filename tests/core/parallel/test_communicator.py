"""pmap's exchange between device threads (core/parallel/communicator.py, collective_ops.py):
reductions and gathers equal numpy's on every device (the devices share the work, and every
device receives the same complete array), inputs are only read during the call (a device may
overwrite its array as soon as the call returns), a failing device wakes the others, and
compiled collectives hand the kernel's arrays over without copying them."""

import threading

import numpy as np
import pytest

import core
from core import lax
from core.jit import host_calls
from core.parallel import axis_env, collective_ops
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
