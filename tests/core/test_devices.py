"""core.devices: the CPU device list (8 devices in the tests, tests/conftest.py; the default and the
two ways to configure it checked in fresh processes), device_put and what arrays know of their
devices (JAX's attribute names and reprs), and the worker threads."""

import importlib.machinery
import os
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import placement
from core.device_worker import Worker, current_device
from core.devices import DeviceError
from core.jit import threads
from core.sharding import SingleDeviceSharding, pmap_sharding

_ROOT = Path(__file__).resolve().parents[2]


def test_eight_devices_like_jax_num_cpu_devices_8():
    devs = core.devices()
    assert repr(devs) == "[" + ", ".join(f"CpuDevice(id={i})" for i in range(8)) + "]"
    assert core.device_count() == core.local_device_count() == 8
    assert core.local_devices() == devs == core.devices("cpu")
    d = devs[3]
    assert (str(d), d.id, d.process_index) == ("cpu:3", 3, 0)
    assert d.platform == d.device_kind == "cpu"
    with pytest.raises(RuntimeError, match="^Unknown backend: 'gpu' requested"):
        core.devices("gpu")


def test_count_is_fixed_after_first_use():
    core.devices()
    with pytest.raises(  # JAX 0.10.2's words
        RuntimeError, match="^jax_num_cpu_devices config should be updated before backends are"
    ):
        core.config.update("num_cpu_devices", 4)
    # the count it has (NUMBAX_NUM_CPU_DEVICES=8, the flag's value as JAX_NUM_CPU_DEVICES is
    # JAX's) changes nothing: JAX's validator allows the current value
    core.config.update("jax_num_cpu_devices", 8)
    assert core.device_count() == 8


def _count_in_fresh_process(env: dict, code: str = "") -> subprocess.CompletedProcess:
    unset = ("NUMBAX_NUM_CPU_DEVICES", "XLA_FLAGS")
    env = {k: v for k, v in os.environ.items() if k not in unset} | env
    return subprocess.run(
        [sys.executable, "-c", f"import core\n{code}\nprint(core.device_count())"],
        env=env,
        cwd=_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "env,code,expected",
    [
        ({}, "", str(len(os.sched_getaffinity(0)))),  # one per usable core
        ({"NUMBAX_NUM_CPU_DEVICES": "5"}, "", "5"),
        ({"NUMBAX_NUM_CPU_DEVICES": "5"}, "core.config.update('jax_num_cpu_devices', 3)", "3"),
        # JAX programs ask XLA for host devices (Flax's RNG guide, JAX's sharding docs)
        ({"XLA_FLAGS": "--xla_force_host_platform_device_count=8"}, "", "8"),
        ({"XLA_FLAGS": "--xla_cpu_x=1 --xla_force_host_platform_device_count=3"}, "", "3"),
        (
            {
                "XLA_FLAGS": "--xla_force_host_platform_device_count=8",
                "NUMBAX_NUM_CPU_DEVICES": "2",
            },
            "",
            "2",
        ),
    ],
)
def test_default_and_configured_counts(env, code, expected):
    run = _count_in_fresh_process(env, code)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [expected]


def test_bad_settings_raise():
    run = _count_in_fresh_process({"NUMBAX_NUM_CPU_DEVICES": "many"})
    assert run.returncode != 0 and "NUMBAX_NUM_CPU_DEVICES='many' is not a positive" in run.stderr
    with pytest.raises(ValueError, match="positive int or -1"):
        core.config.update("num_cpu_devices", 0)


def test_device_put_places_arrays():
    x = jnp.arange(3.0)
    assert x.device is core.devices()[0] and not x.committed
    assert x.sharding == SingleDeviceSharding(core.devices()[0])
    y = core.device_put(x, core.devices()[2])
    assert y.device is core.devices()[2] and y.devices() == {core.devices()[2]} and y.committed
    assert repr(y.sharding) == "SingleDeviceSharding(device=CpuDevice(id=2), memory_kind=device)"
    np.testing.assert_array_equal(np.asarray(y), [0.0, 1.0, 2.0])
    tree = core.device_put({"a": np.ones(2), "b": 1.0}, core.devices()[1])
    assert {v.device for v in tree.values()} == {core.devices()[1]}
    assert core.device_put(np.ones(2)).device is core.devices()[0]
    with pytest.raises(DeviceError, match="only accepts `None`"):
        core.device_put(x, "cpu:1")


@pytest.mark.parametrize("name", ["device_put_replicated", "device_put_sharded"])
def test_placements_jax_removed_raise_its_attribute_error(name):
    # JAX 0.10.2's message, verbatim
    want = (
        f"jax.{name} is deprecated; use jax.device_put instead. See "
        "https://docs.jax.dev/en/latest/migrate_pmap.html#drop-in-replacements for a drop-in "
        "replacement."
    )
    with pytest.raises(AttributeError) as info:
        getattr(core, name)
    assert str(info.value) == want and not hasattr(core, name)


def test_replicated_and_sharded_placement():
    devs = core.devices()[:2]
    r = placement.device_put_replicated({"w": jnp.arange(3.0)}, devs)["w"]
    assert r.shape == (2, 3) and r.sharding == pmap_sharding(devs, 0)
    np.testing.assert_array_equal(np.asarray(r), [[0, 1, 2]] * 2)
    s = placement.device_put_sharded([np.zeros(2), np.ones(2)], devs)
    shards = s.addressable_shards
    assert [sh.device for sh in shards] == devs
    np.testing.assert_array_equal(np.asarray(shards[1].data), [[1.0, 1.0]])
    assert shards[1].data.device is devs[1]
    with pytest.raises(DeviceError, match="one shard per device"):
        placement.device_put_sharded([np.zeros(2)], devs)
    with pytest.raises(ValueError, match="does not evenly divide the dimension size 3"):
        core.device_put(np.ones(3), pmap_sharding(devs))


def test_workers_know_their_device():
    assert current_device() is None
    d = core.devices()[4]
    assert d.worker.submit(current_device).result(timeout=60) is d
    with pytest.raises(ZeroDivisionError):
        d.worker.submit(lambda: 1 / 0).result(timeout=60)


def test_workers_share_the_cores_for_parallel_loops():
    import numba

    per_device = threads.device_share(core.local_device_count())
    d = core.devices()[6]
    assert d.worker.submit(numba.get_num_threads).result(timeout=60) == per_device


def test_a_worker_leaves_loop_threads_alone_while_another_thread_imports_numba(monkeypatch):
    # numba's module is in sys.modules from the start of its import, without set_num_threads
    # until the end: a worker that called it then died, and the pmap waiting on it hung
    importing = types.ModuleType("numba")
    importing.__spec__ = importlib.machinery.ModuleSpec("numba", None)
    importing.__spec__._initializing = True
    monkeypatch.setitem(sys.modules, "numba", importing)
    assert Worker._set_loop_threads(2, None) is None
    assert Worker._set_loop_threads(2, 1) == 1


def test_a_worker_keeps_to_the_cpu_a_task_asks_for_and_then_runs_anywhere():
    import os

    cpus = os.sched_getaffinity(0)
    worker = core.devices()[5].worker
    where = lambda: os.sched_getaffinity(0)  # noqa: E731 (the worker thread's own CPUs)
    assert worker.submit(where, cpu=max(cpus)).result(timeout=60) == {max(cpus)}
    assert worker.submit(where, cpu=max(cpus)).result(timeout=60) == {max(cpus)}  # kept
    assert worker.submit(where).result(timeout=60) == cpus


@pytest.mark.parametrize(
    ("make", "error", "first_line"),
    [  # JAX 0.10.2's classes and first lines (8 host devices)
        (lambda: core.local_devices(process_index=1), ValueError, "Unknown process_index 1"),
        (lambda: core.devices("tpu"), RuntimeError,
         "Unknown backend tpu. Available backends are ['cpu']"),
        (lambda: core.device_put(np.ones(8), 5), ValueError,
         "`jax.device_put` only accepts `None`, `jax.sharding.Sharding`, `jax.Device`, `Format`, "
         "`jax.memory.Space` or a pytree of these values. Received invalid value: 5"),
        (lambda: core.device_put([np.ones(8), np.ones(2)], [core.devices()[1]]), ValueError,
         "device_put device specification must be a tree prefix of the corresponding value;"),
        (lambda: core.device_put(np.ones(8), core.devices()), ValueError,
         "device_put device specification must be a tree prefix of the corresponding value;"),
    ],
)  # fmt: skip
def test_device_errors_give_jaxs_first_lines(make, error, first_line):
    with pytest.raises(error) as info:
        make()
    assert str(info.value).split("\n")[0] == first_line


def test_device_memories_are_named_and_numbered_as_jaxs():
    # JAX 0.10.2 printed these (8 host devices)
    d1 = core.devices()[1]
    assert repr(d1.addressable_memories()) == "[CPU_DEVICE_3, PINNED_HOST_4, UNPINNED_HOST_5]"
    assert [str(m) for m in d1.addressable_memories()] == [
        "CpuDeviceMemory(id=3, process_index=0, client=cpu)",
        "PinnedHostMemory(id=4, process_index=0, client=cpu)",
        "UnpinnedHostMemorySpace(id=5, process_index=0, client=cpu)",
    ]
    assert repr(core.devices()[0].memory("device")) == "CPU_DEVICE_0"
    assert d1.default_memory() == d1.memory("device") and d1.default_memory().kind == "device"
    assert d1.memory("pinned_host").addressable_by_devices() == [d1]
    with pytest.raises(RuntimeError, match="^INVALID_ARGUMENT: Could not find memory addressable"):
        d1.memory("x")


def test_device_type_and_client_as_jax_names_them():
    d = core.devices()[0]
    # JAX 0.10.2: type(d).__name__ == 'Device' (jaxlib._jax.Device), repr 'CpuDevice(id=0)'
    assert type(d).__name__ == "Device" and type(d) is core.Device and repr(d) == "CpuDevice(id=0)"
    client = d.client  # JAX 0.10.2: platform 'cpu', platform_version 'cpu', runtime 'pjrt_ifrt'
    assert (client.platform, client.platform_version, client.runtime_type) == (
        "cpu", "cpu", "pjrt_ifrt",
    )  # fmt: skip
    assert client.process_index() == 0 and client.device_count() == 8
    assert client.devices() == core.devices() and core.devices()[5].client is client
