"""The axis names `pmap` binds: sizes while tracing, the device's place while running.

`make_jaxpr(f, axis_env=[(name, size)])` binds names too, for staging only (`staging`): the
collectives trace with those sizes, as they would under a pmap, but nothing runs them.

Tracing and compiling happen on the caller's thread under `tracing(name, size)`, so that
`lax.axis_size` (which `pmean` and `all_gather` read) knows the size of a pmapped axis and the
lowering of a collective knows it may call the host. Each device thread runs its shard under
`running(name, communicator, rank)`, which the collectives read to reach the other devices.
Both are thread-local: several threads may trace or run pmaps at once.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

_local = threading.local()


def _frames(kind: str) -> list:
    frames = getattr(_local, kind, None)
    if frames is None:
        frames = []
        setattr(_local, kind, frames)
    return frames


@contextlib.contextmanager
def _pushed(kind: str, frame: tuple) -> Iterator[None]:
    """`frame` on top of this thread's `kind` stack for the duration of the block."""
    frames = _frames(kind)
    frames.append(frame)
    try:
        yield
    finally:
        frames.pop()


def tracing(axis_name: Any, size: int) -> contextlib.AbstractContextManager[None]:
    """Binds `axis_name` to a pmapped axis of `size` devices (all processes) in this thread.

    Args:
      axis_name: the name `pmap` was given.
      size: the number of devices of the axis (all processes).

    Returns:
      A context manager: the binding holds inside its block.
    """
    return _pushed("traced", (axis_name, size))


def staging(axis_name: Any, size: int) -> contextlib.AbstractContextManager[None]:
    """Binds `axis_name` to an axis of `size` elements for staging a jaxpr in this thread
    (`make_jaxpr`'s `axis_env`): collectives over it trace, none of them runs.

    Args:
      axis_name: the name to bind.
      size: the size of the axis.

    Returns:
      A context manager: the binding holds inside its block.
    """
    return _pushed("staged", (axis_name, size))


def staged_axes() -> tuple:
    """The `(name, size)` pairs `staging` binds in this thread, outermost first: part of `jit`'s
    trace cache keys, as JAX's axis environment is part of its trace context.

    Returns:
      The pairs.
    """
    return tuple(_frames("staged"))


def traced_size(axis_name: Any) -> int | None:
    """The size of the pmapped axis `axis_name` being traced in this thread, or None."""
    for name, size in reversed(_frames("traced")):
        if name == axis_name:
            return size
    return None


def size(axis_name: Any) -> int | None:
    """The size of the axis `axis_name` that a pmap traced or running in this thread binds (or
    `staging`), or None."""
    traced = traced_size(axis_name)
    if traced is not None:
        return traced
    for name, staged in reversed(_frames("staged")):
        if name == axis_name:
            return staged
    found = place(axis_name)
    return None if found is None else found[0].global_size


def running(
    axis_name: Any, communicator: Any, rank: int
) -> contextlib.AbstractContextManager[None]:
    """Runs the block as device `rank` of the pmapped axis `axis_name`.

    Args:
      axis_name: the name `pmap` was given.
      communicator: what the collectives use to reach the axis' other devices.
      rank: this device's index on the axis.

    Returns:
      A context manager: the collectives see this place inside its block.
    """
    return _pushed("running", (axis_name, communicator, rank))


def place(axis_name: Any) -> tuple[Any, int] | None:
    """(communicator, rank) of this thread on the running pmapped axis `axis_name`, or None."""
    for name, communicator, rank in reversed(_frames("running")):
        if name == axis_name:
            return communicator, rank
    return None


def inside_shard() -> bool:
    """Whether this thread runs a device's program of a pmap (a nested pmap must not wait for
    the devices, which are busy with the outer one)."""
    return bool(_frames("running"))
