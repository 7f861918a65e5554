"""Computations follow committed data, as in JAX: where an operation's inputs live decides
where it runs and where its results live.

An array is committed to a device when the user placed it there (`device_put(x, device)`, or
`jit` with `in_shardings`); arrays computed from uncommitted ones are uncommitted, on the
default device (or that of a `default_device` block, where they live uncommitted). An
operation (an eager primitive, a jitted call) on committed arrays runs on their device and its
results are committed to it; committed arrays on two different devices
raise JAX's "Received incompatible devices" (`IncompatibleDevicesError`). Every device shares
the host memory, so nothing is copied: committing records the array's `SingleDeviceSharding`.
The check runs only once some array has been committed in the process
(`placement.committed_to_device`), so programs that never place arrays pay nothing for it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from core import tree_util
from core.array import Array, register_placement
from core.devices import default_override
from core.errors import IncompatibleDevicesError
from core.sharding_base import UncommittedSharding


def device_sharding(leaf: Any) -> Any:
    """The `SingleDeviceSharding` `leaf` is committed to, or None."""
    sharding = getattr(leaf, "_sharding", None) if isinstance(leaf, Array) else None
    if hasattr(sharding, "_device") and not getattr(sharding, "uncommitted", False):
        return sharding
    return None


def _describe(k: int, x: Any, sharding: Any, names: list[str], what: str) -> str:
    """Input `k` as JAX's "incompatible devices" error names it."""
    name = names[k] if k < len(names) else f"args[{k}]"
    return (
        f"argument {name} of {what} with shape {x.aval.str_short(short_dtypes=False)} and "
        f"with device ids [{sharding._device.id}] on platform CPU"
    )


def uncommitted_default() -> Any:
    """The `UncommittedSharding` of the device a `default_device` block of this thread names,
    where the results of a computation on uncommitted arrays go; None outside such a block."""
    device = default_override()
    return None if device is None else _uncommitted(device)


@functools.cache
def _uncommitted(device: Any) -> Any:
    return UncommittedSharding(device)


def sharding_of(leaves: list, what: str, names: Callable[[], list[str]] | None = None) -> Any:
    """The one device's sharding the committed arrays among `leaves` share, or None if none is
    committed to a single device.

    Args:
      leaves: the operation's inputs (arrays or anything else).
      what: the operation, as the error names it (a primitive or the jitted function).
      names: gives the inputs' names for the error (JAX's argument names), else `args[i]`.

    Returns:
      The shared `SingleDeviceSharding`, or None.

    Raises:
      IncompatibleDevicesError: two of them are committed to different devices.
    """
    found = None
    for i, leaf in enumerate(leaves):
        sharding = device_sharding(leaf)
        if sharding is None:
            continue
        if found is None:
            found = (i, leaf, sharding)
        elif sharding._device is not found[2]._device:
            given = names() if names is not None else []
            first, second = (
                _describe(k, x, s, given, what) for k, x, s in (found, (i, leaf, sharding))
            )
            raise IncompatibleDevicesError(
                f"Received incompatible devices for jitted computation. Got {first} and "
                f"{second}. Put them on one device first, e.g. device_put(y, x.device)."
            )
    return None if found is None else found[2]


def commit(out: Any, sharding: Any) -> Any:
    """The arrays of the pytree `out` committed to `sharding`'s device (fresh `Array`s sharing
    the buffers: an output may be an object other code holds, such as a constant)."""

    def one(leaf: Any) -> Any:
        if not isinstance(leaf, Array) or hasattr(leaf, "_sharding"):
            return leaf
        if leaf.is_ready():
            return Array._placed(leaf._value, leaf._aval, sharding)
        leaf._sharding = sharding  # a pending output: made for this call alone
        return leaf

    return tree_util.tree_map(one, out)


def follow(out: Any, leaves: list, what: str, names: Callable[[], list[str]] | None = None) -> Any:
    """The results `out` of an operation on `leaves`, placed where the inputs say: committed to
    their device (see `sharding_of`), else on a `default_device` block's device, uncommitted.

    Args:
      out: the operation's results (a pytree).
      leaves, what, names: as for `sharding_of`.

    Returns:
      `out`, its arrays placed.
    """
    sharding = sharding_of(leaves, what, names)
    if sharding is None:
        sharding = uncommitted_default()
    return out if sharding is None else commit(out, sharding)


register_placement(follow=follow)
