"""CPU devices, like JAX's CPU client: N devices per process, each with its own worker thread.

A device is a worker thread (`core/device_worker.py`) plus a name: all numbax arrays live in
host memory, and an array's `sharding` (`core/sharding_base.py`) says which device(s) it is
placed on. `pmap` runs device `i`'s shard on device `i`'s thread. Everything else (eager operations,
`jit` calls) runs on the calling thread and returns arrays on the default device, the first
local one; `device_put(x, device)` (`core/placement.py`) places an array on another device
(sharing its immutable buffer, since the memory is the same). This module is the bottom of the
device and sharding API: it imports none of it.

How many: `config.update("num_cpu_devices", n)` (JAX's `jax_num_cpu_devices`), the
environment variable `NUMBAX_NUM_CPU_DEVICES`, or XLA's
`XLA_FLAGS=--xla_force_host_platform_device_count=n` that JAX programs set, else one per usable core
(`os.sched_getaffinity`; under MPI, one per core of this process's share,
`threads.process_cores`). More devices than cores are allowed (for testing; their threads then
share the cores). The number is fixed when the devices are first needed; changing it later
raises, as in JAX. Under `core.distributed.initialize()` every process has its local devices
and `devices()` lists those of all processes, ordered by process (global ids).
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
from collections.abc import Iterator
from typing import Any

from core.config import config
from core.device_worker import Worker
from core.errors import JaxRuntimeError, NumbaxError
from core.jit import threads


class DeviceError(NumbaxError, ValueError):
    """An unknown device, or a device of another process where a local one is needed.

    Failing code: ``NUMBAX_NUM_CPU_DEVICES=two python train.py``, or ``device_put(x, d)`` with
    a device ``d`` of another process. Fix: a positive integer (``NUMBAX_NUM_CPU_DEVICES=2``),
    and this process's devices (``core.local_devices()``).
    """


class Device:
    """One CPU device: a worker thread of process `process_index` (`jax.Device`)."""

    platform = "cpu"
    device_kind = "cpu"

    def __init__(self, id: int, process_index: int, local_hardware_id: int):
        self.id = id
        self.process_index = process_index
        self.local_hardware_id = local_hardware_id
        self._worker: Worker | None = None

    @property
    def host_id(self) -> int:
        """Deprecated JAX alias of `process_index`."""
        return self.process_index

    @property
    def client(self) -> Client:
        """The CPU client that owns the device (`jax.Device.client`)."""
        return _CLIENT

    @property
    def worker(self) -> Worker:
        """The device's worker thread (started on first use; local devices only)."""
        if self.process_index != process_index():
            raise DeviceError(f"{self!r} belongs to process {self.process_index}, not this one.")
        if self._worker is None:
            self._worker = Worker(self, threads.device_share(len(local_devices())))
        return self._worker

    def __repr__(self) -> str:
        return f"CpuDevice(id={self.id})"

    def __str__(self) -> str:
        return f"cpu:{self.id}"

    def addressable_memories(self) -> list[Memory]:
        """The device's memory spaces (`jax.Device.addressable_memories`): its own, pinned
        and unpinned host memory, which on the CPU are all host memory."""
        return [Memory(self, kind) for kind in _MEMORY_KINDS]

    def default_memory(self) -> Memory:
        """The memory arrays live in by default: kind "device"."""
        return Memory(self, "device")

    def memory(self, kind: str) -> Memory:
        """The memory space of `kind` ("device", "pinned_host" or "unpinned_host").

        Raises:
          JaxRuntimeError: another kind, with XLA's INVALID_ARGUMENT message.
        """
        if kind not in _MEMORY_KINDS:
            raise JaxRuntimeError(
                "INVALID_ARGUMENT: Could not find memory addressable by device cpu. Device cpu "
                "can address the following memory kinds: device, pinned_host, unpinned_host. "
                f"Got memory kind: {kind}"
            )
        return Memory(self, kind)


# A CPU device's memory kinds with their names in a `Memory`'s repr and str, in JAX's order.
_MEMORY_KINDS = {
    "device": ("CPU_DEVICE", "CpuDeviceMemory"),
    "pinned_host": ("PINNED_HOST", "PinnedHostMemory"),
    "unpinned_host": ("UNPINNED_HOST", "UnpinnedHostMemorySpace"),
}


class Memory:
    """One memory space of a device (`jax.Device.memory(kind)`), numbered as XLA's CPU client
    numbers them: three per device, in `_MEMORY_KINDS` order."""

    def __init__(self, device: Device, kind: str):
        self.kind = kind
        self.process_index = device.process_index
        self.id = 3 * device.id + list(_MEMORY_KINDS).index(kind)
        self._device = device

    def addressable_by_devices(self) -> list[Device]:
        """The devices that address this memory: its own."""
        return [self._device]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Memory) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("Memory", self.id))

    def __repr__(self) -> str:
        return f"{_MEMORY_KINDS[self.kind][0]}_{self.id}"

    def __str__(self) -> str:
        name = _MEMORY_KINDS[self.kind][1]
        return f"{name}(id={self.id}, process_index={self.process_index}, client=cpu)"


class Client:
    """The CPU client of this process (`device.client`): its platform and its devices, as
    `jax.Device.client` answers them."""

    platform = "cpu"
    platform_version = "cpu"
    runtime_type = "pjrt_ifrt"

    def process_index(self) -> int:
        """This process's index (`jax.process_index()`)."""
        return process_index()

    def device_count(self) -> int:
        """The number of devices of all processes."""
        return device_count()

    def local_device_count(self) -> int:
        """The number of devices of this process."""
        return local_device_count()

    def devices(self) -> list[Device]:
        """All devices, of every process."""
        return devices()

    def local_devices(self) -> list[Device]:
        """This process's devices."""
        return local_devices()


_CLIENT = Client()

# The devices of every process, created once (see `_devices`); the topology (this process's
# index and every process's device count) is set by `core.distributed.initialize`.
_state: dict[str, Any] = {"devices": None, "process_index": 0, "counts": None}


def _local_count() -> int:
    n = config.num_cpu_devices
    if n == -1:
        env = os.environ.get("NUMBAX_NUM_CPU_DEVICES", "")
        if env:
            try:
                n = int(env)
            except ValueError:
                n = 0
            if n < 1:
                raise DeviceError(
                    f"NUMBAX_NUM_CPU_DEVICES={env!r} is not a positive integer; set it to the "
                    "number of CPU devices to create, or unset it for one per core."
                )
        else:
            forced = re.search(
                r"--xla_force_host_platform_device_count=(\d+)", os.environ.get("XLA_FLAGS", "")
            )
            n = int(forced.group(1)) if forced else threads.process_cores()
    return max(int(n), 1)


def _devices() -> list[Device]:
    found = _state["devices"]
    if found is None:
        counts = _state["counts"] or [_local_count()]
        found, first = [], 0
        for proc, n in enumerate(counts):
            found += [Device(first + j, proc, j) for j in range(n)]
            first += n
        _state["devices"] = found
        # NUMBAX_NUM_CPU_DEVICES is the flag's value, as JAX_NUM_CPU_DEVICES is JAX's
        env = os.environ.get("NUMBAX_NUM_CPU_DEVICES", "")
        config.freeze(
            "num_cpu_devices",
            "jax_num_cpu_devices config should be updated before backends are initialized i.e. "
            "before any numbax device is used (core.devices(), device_put, pmap). Set it "
            "right after `import core`, or set NUMBAX_NUM_CPU_DEVICES.",
            same=(int(env),) if env and config.num_cpu_devices == -1 else (),
        )
    return found


def in_use() -> bool:
    """Whether the devices exist already (their number can no longer change)."""
    return _state["devices"] is not None


def set_topology(index: int, counts: list[int]) -> None:
    """Makes this process number `index` of `len(counts)`, process `p` having `counts[p]`
    devices (called by `core.distributed.initialize`, before any device is used)."""
    assert not in_use(), "the devices exist already"
    _state["process_index"], _state["counts"] = index, list(counts)


def local_count_setting() -> int:
    """The number of local devices this process will have (reads the configuration)."""
    return _local_count()


def devices(backend: str | None = None) -> list[Device]:
    """All devices, of every process, ordered by process (`jax.devices`)."""
    _check_backend(backend)
    return list(_devices())


def local_devices(
    process_index: int | None = None, backend: str | None = None, host_id: int | None = None
) -> list[Device]:
    """The devices of process `process_index` (default: this one), like `jax.local_devices`."""
    _check_backend(backend)
    index = _state["process_index"] if process_index is None else process_index
    index = index if host_id is None else host_id
    found = [d for d in _devices() if d.process_index == index]
    if not found:
        raise DeviceError(
            f"Unknown process_index {index}\nThe processes are 0..{process_count() - 1}."
        )
    return found


def device_count(backend: str | None = None) -> int:
    """The number of devices of all processes."""
    _check_backend(backend)
    return len(_devices())


def local_device_count(backend: str | None = None) -> int:
    """The number of devices of this process."""
    return len(local_devices(backend=backend))


def default_backend() -> str:
    return "cpu"


def process_index(backend: str | None = None) -> int:
    """This process's index among the processes of the computation (0 without MPI)."""
    return _state["process_index"]


def process_count(backend: str | None = None) -> int:
    """The number of processes of the computation (1 without `core.distributed`)."""
    counts = _state["counts"]
    return len(counts) if counts else 1


def _check_backend(backend: str | None) -> None:
    """JAX's RuntimeError for a backend other than the CPU (its message for "gpu", a platform
    JAX knows of, differs from the one for other names)."""
    if backend in (None, "cpu"):
        return
    if backend == "gpu":
        raise RuntimeError(
            f"Unknown backend: '{backend}' requested, but no platforms that are instances of "
            f"{backend} are present. Platforms present are: cpu (numbax runs on the CPU: ask "
            "for 'cpu' or None)."
        )
    raise RuntimeError(
        f"Unknown backend {backend}. Available backends are ['cpu']\nnumbax runs on the CPU: "
        "ask for 'cpu' or None."
    )


_override = threading.local()  # `default_device` contexts of each thread


def default_device() -> Device:
    """The device of arrays computed outside `pmap`: this process's first device, or the one a
    `core.default_device(device)` block of this thread names."""
    device = getattr(_override, "device", None)
    return local_devices()[0] if device is None else device


def default_override() -> Device | None:
    """The device a `core.default_device` block of this thread names, or None."""
    return getattr(_override, "device", None)


@contextlib.contextmanager
def overriding_default(device: Device | None) -> Iterator[None]:
    """Makes `device` this thread's default device inside the block (None: the first one)."""
    before = getattr(_override, "device", None)
    _override.device = device
    try:
        yield
    finally:
        _override.device = before


def check_local(device: Any) -> None:
    """Raises `DeviceError` unless `device` is one of this process's devices."""
    if not isinstance(device, Device) or device not in _devices():
        raise DeviceError(f"{device!r} is not one of core.devices(): {_devices()}.")
    if device.process_index != process_index():
        raise DeviceError(
            f"{device!r} belongs to process {device.process_index}; this is process "
            f"{process_index()}: put arrays on core.local_devices() only."
        )
