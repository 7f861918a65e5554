"""Computations follow committed data, as in JAX: where an operation's inputs live decides
where it runs and where its results live.

An array is committed to a device when the user placed it there (`device_put(x, device)`, or
`jit` with `in_shardings`); arrays computed from uncommitted ones are uncommitted, on the
default device (or that of a `default_device` block, where they live uncommitted). An
operation (an eager primitive, a jitted call) on committed arrays runs on their device and its
results are committed to it. Arrays placed by a `NamedSharding` (of a user's mesh, not
`pmap`'s) are committed to its devices: results of operations on them get `NamedSharding`s
over the first one's mesh, with the specs `core/sharding_propagation.py` gives. Committed
arrays on different devices, or on the same devices in another order, raise JAX's "Received
incompatible devices" (`IncompatibleDevicesError`). Every device shares the host memory, so
nothing is copied: committing records the array's sharding.
The check runs only once some array has been committed in the process
(`placement.committed_to_device`), so programs that never place arrays pay nothing for it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

from core import tree_util
from core.array import Array, register_placement
from core.devices import default_override
from core.errors import IncompatibleDevicesError
from core.mesh import get_mesh
from core.named_sharding import NamedSharding, result_sharding
from core.sharding_base import UncommittedSharding
from core.sharding_propagation import MeshAxes, eqn_specs, spec_of
from core.trace import get_aval


def device_sharding(leaf: Any) -> Any:
    """The `SingleDeviceSharding` `leaf` is committed to, or None."""
    sharding = getattr(leaf, "_sharding", None) if isinstance(leaf, Array) else None
    if hasattr(sharding, "_device") and not getattr(sharding, "uncommitted", False):
        return sharding
    return None


def committed_sharding(leaf: Any) -> Any:
    """The sharding `leaf` is committed to (a `SingleDeviceSharding`, or a `NamedSharding` of
    a user's mesh; `pmap`'s outputs are not followed), or None."""
    sharding = device_sharding(leaf)
    if sharding is not None:
        return sharding
    sharding = getattr(leaf, "_sharding", None) if isinstance(leaf, Array) else None
    if isinstance(sharding, NamedSharding) and sharding.followed:
        return sharding
    return None


def device_ids(sharding: Any) -> list[int]:
    """The ids of a sharding's devices in its order (JAX's device assignment)."""
    return [d.id for d in sharding._devices]


def _describe(k: int, x: Any, sharding: Any, names: list[str], what: str) -> str:
    """Input `k` as JAX's "incompatible devices" error names it."""
    name = names[k] if k < len(names) else f"args[{k}]"
    return (
        f"argument {name} of {what} with shape {x.aval.str_short(short_dtypes=False)} and "
        f"with device ids {device_ids(sharding)} on platform CPU"
    )


def renamed(error: IncompatibleDevicesError, what: str, names: Sequence[str]) -> Exception:
    """`error` of a primitive (`argument args[0] of mul`, as JAX names a `lax` call's inputs)
    as the `jnp` function `what` of parameters `names` raises it (JAX names the jitted
    function and its parameters: `argument x of multiply`).

    Args:
      error: the primitive's error.
      what: the function's name.
      names: its parameters' names, in the primitive's operand order.

    Returns:
      The renamed error, its notes kept.
    """

    def one(match: re.Match) -> str:
        k = int(match.group(1))
        return f"argument {names[k]} of {what} with" if k < len(names) else match.group(0)

    out = IncompatibleDevicesError(re.sub(r"argument args\[(\d+)\] of \w+ with", one, str(error)))
    for note in getattr(error, "__notes__", ()):
        out.add_note(note)
    return out


def uncommitted_default() -> Any:
    """The `UncommittedSharding` of the device a `default_device` block of this thread names,
    where the results of a computation on uncommitted arrays go; None outside such a block."""
    device = default_override()
    return None if device is None else _uncommitted(device)


@functools.cache
def _uncommitted(device: Any) -> Any:
    return UncommittedSharding(device)


def sharding_of(leaves: list, what: str, names: Callable[[], list[str]] | None = None) -> Any:
    """The sharding of the first committed array among `leaves` (every committed one is on
    the same devices in the same order), or None if none is committed.

    Args:
      leaves: the operation's inputs (arrays or anything else).
      what: the operation, as the error names it (a primitive or the jitted function).
      names: gives the inputs' names for the error (JAX's argument names), else `args[i]`.

    Returns:
      The first committed array's `SingleDeviceSharding` or `NamedSharding`, or None.

    Raises:
      IncompatibleDevicesError: two of them are committed to different devices, or to the
        same devices in different orders.
    """
    found = None
    for i, leaf in enumerate(leaves):
        sharding = committed_sharding(leaf)
        if sharding is None:
            continue
        if found is None:
            found = (i, leaf, sharding)
        elif sharding._devices != found[2]._devices:
            given = names() if names is not None else []
            first, second = (
                _describe(k, x, s, given, what) for k, x, s in (found, (i, leaf, sharding))
            )
            error = IncompatibleDevicesError(
                f"Received incompatible devices for jitted computation. Got {first} and {second}"
            )
            error.add_note(
                "Put them on the same devices in the same order first, e.g. "
                "device_put(y, x.sharding)."
            )
            raise error
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


Specs = Callable[[Callable[[Any], Any], dict], list]


def follow(
    out: Any,
    leaves: list,
    what: str,
    names: Callable[[], list[str]] | None = None,
    specs: Specs | None = None,
) -> Any:
    """The results `out` of an operation on `leaves`, placed where the inputs say: committed to
    their device (see `sharding_of`); by `NamedSharding`s over the first sharded input's mesh,
    as `specs` propagates its inputs' specs (`core/sharding_propagation.py`); else on a
    `default_device` block's device, uncommitted.

    Args:
      out: the operation's results (a pytree).
      leaves, what, names: as for `sharding_of`.
      specs: gives the results' specs (one per leaf of `out`) from a function giving an input
        leaf's spec (None if not sharded) and the mesh's axis sizes; None: replicated.

    Returns:
      `out`, its arrays placed.
    """
    sharding = sharding_of(leaves, what, names)
    if isinstance(sharding, NamedSharding):
        return _commit_named(out, sharding.mesh, specs)
    mesh = get_mesh()
    if not mesh.empty:  # `set_mesh`'s mesh: computations run on it, replicated
        if sharding is not None and device_ids(sharding) != [d.id for d in mesh.devices.flat]:
            raise _off_mesh(leaves, what, names, mesh)
        return _commit_named(out, mesh, None)
    if sharding is None:
        sharding = uncommitted_default()
    return out if sharding is None else commit(out, sharding)


def _off_mesh(
    leaves: list, what: str, names: Callable[[], list[str]] | None, mesh: Any
) -> IncompatibleDevicesError:
    """JAX's error for an input committed to devices other than the current mesh's."""
    k, leaf = next((i, x) for i, x in enumerate(leaves) if committed_sharding(x) is not None)
    given = names() if names is not None else []
    error = IncompatibleDevicesError(
        "Received incompatible devices for jitted computation. Got "
        f"{_describe(k, leaf, committed_sharding(leaf), given, what)} and jit's context mesh "
        f"with device ids {[d.id for d in mesh.devices.flat]} on platform CPU"
    )
    error.add_note(
        "Place it on the mesh first, e.g. device_put(x, NamedSharding(mesh, P())), or compute "
        "it outside the set_mesh block."
    )
    return error


def _spec_reader(mesh: Any) -> Callable[[Any], Any]:
    """The spec of a leaf placed by a `NamedSharding` over `mesh` (None for any other leaf:
    a spec over another mesh of the same devices names other axes)."""

    def spec_for(leaf: Any) -> Any:
        sharding = committed_sharding(leaf)
        if not isinstance(sharding, NamedSharding) or sharding.mesh != mesh:
            return None
        return spec_of(sharding, len(leaf.shape))

    return spec_for


def _commit_named(out: Any, mesh: Any, specs: Specs | None) -> Any:
    """The arrays of `out` committed to `NamedSharding`s over `mesh` by the specs `specs`
    gives (replicated without it)."""
    leaves, tree = tree_util.tree_flatten(out)
    found = specs(_spec_reader(mesh), MeshAxes(mesh)) if specs is not None else []
    placed = []
    for k, leaf in enumerate(leaves):
        if not isinstance(leaf, Array):
            placed.append(leaf)
            continue
        spec = found[k] if k < len(found) else (None,) * leaf.ndim
        placed.append(commit(leaf, result_sharding(mesh, tuple(spec))))
    return tree_util.tree_unflatten(tree, placed)


def follow_primitive(out: Any, args: list, name: str, params: dict, out_aval: Any) -> Any:
    """The results `out` of primitive `name` run eagerly on `args`, placed by `follow` (the
    specs of `NamedSharding`-placed inputs propagated by the primitive's rule).

    Args:
      out: the primitive's result (a list of them for a primitive of multiple results).
      args: its operands.
      name: its name.
      params: its parameters.
      out_aval: its result's abstract value (a list for multiple results).

    Returns:
      `out`, its arrays placed.
    """
    out_avals = list(out_aval) if isinstance(out_aval, (list, tuple)) else [out_aval]
    avals = [get_aval(a) for a in args]

    def specs(spec_for: Callable[[Any], Any], sizes: dict) -> list:
        return eqn_specs(name, params, [spec_for(a) for a in args], avals, out_avals, sizes)

    return follow(out, args, name, None, specs)  # `args[0]`, as JAX names a lax call's


register_placement(follow=follow, follow_primitive=follow_primitive)
