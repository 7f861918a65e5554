"""Devices: numbax runs on one CPU device; these mirror JAX's device API for portability."""

from __future__ import annotations

from typing import Any

import numpy as np

from core import tree_util


class CpuDevice:
    """The single CPU device."""

    id = 0
    platform = "cpu"
    device_kind = "cpu"
    process_index = 0

    def __repr__(self) -> str:
        return "CpuDevice(id=0)"


_CPU = CpuDevice()


def devices(backend: str | None = None) -> list[CpuDevice]:
    """The available devices: `[CpuDevice(id=0)]`."""
    return [_CPU]


def device_count(backend: str | None = None) -> int:
    return 1


def local_device_count(backend: str | None = None) -> int:
    return 1


def default_backend() -> str:
    return "cpu"


def process_index() -> int:
    return 0


def device_put(
    x: Any, device: Any = None, *, src: Any = None, donate: bool = False, may_alias: Any = None
) -> Any:
    """Turns every leaf of `x` into an `Array` (there is only one device to put it on)."""
    from core.numpy import asarray

    return tree_util.tree_map(asarray, x)


def device_get(x: Any) -> Any:
    """Turns every array leaf of `x` into a numpy array."""

    def get(leaf):
        return np.asarray(leaf) if hasattr(leaf, "aval") or isinstance(leaf, np.ndarray) else leaf

    return tree_util.tree_map(get, x)


def block_until_ready(x: Any) -> Any:
    """Returns `x`: CPU computations are synchronous."""
    return x
