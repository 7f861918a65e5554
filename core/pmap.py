"""`pmap` and the multi-process queries of JAX, for numbax's one CPU device in one process.

`pmap(f)` maps `f` over an axis of its inputs with one device per element. numbax has one
device, so a mapped axis of size 1 runs as `jit(vmap(f, axis_name=...))` (collectives such as
`lax.psum(x, axis_name)` work as under vmap) and a larger one raises `PmapDeviceCountError`,
as JAX does when there are fewer devices than elements. `process_count`, `host_count`,
`host_id`, `effects_barrier` and `live_arrays` answer for the single process.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from core import tree_util
from core.api import _broadcast_prefix, vmap
from core.devices import device_count, process_index
from core.errors import NumbaxError
from core.jit.api import jit
from core.trace import get_aval

__all__ = [
    "PmapDeviceCountError",
    "effects_barrier",
    "host_count",
    "host_id",
    "live_arrays",
    "pmap",
    "process_count",
]


class PmapDeviceCountError(NumbaxError, ValueError):
    """A pmapped axis larger than the number of devices."""


class PmapArgumentError(NumbaxError, ValueError):
    """pmap arguments that do not fit its in_axes, axis_size or static_broadcasted_argnums."""


def _as_tuple(x: int | Sequence[int] | None) -> tuple[int, ...]:
    if x is None:
        return ()
    return (int(x),) if isinstance(x, int) else tuple(int(i) for i in x)


def pmap(
    fun: Callable,
    axis_name: Any = None,
    *,
    in_axes: Any = 0,
    out_axes: Any = 0,
    static_broadcasted_argnums: int | Sequence[int] = (),
    devices: Sequence[Any] | None = None,
    backend: str | None = None,
    axis_size: int | None = None,
    donate_argnums: int | Sequence[int] = (),
    global_arg_shapes: Any = None,
) -> Callable:
    """Maps `fun` over an axis of its inputs, one device per element, like `jax.pmap`.

    On numbax's single CPU device the mapped axis must have size 1 (at most the number of
    devices); the function then runs as `jit(vmap(fun, axis_name=axis_name))`, so the results
    carry the mapped axis of size 1 and collectives over `axis_name` work. For more elements,
    use `vmap` (or `jit(vmap(...))`) directly.

    Args:
      fun: the function to map (arrays and pytrees of arrays in and out).
      axis_name: a name for the mapped axis, for collectives (`lax.psum(x, axis_name)`...).
      in_axes: int, None, or a pytree prefix of the positional arguments (static ones
        included) giving the mapped axis of each; keyword arguments are mapped over axis 0.
      out_axes: the same for the outputs.
      static_broadcasted_argnums: positions of hashable compile-time constant arguments.
      devices: the devices to map over (default: all, i.e. the one CPU device).
      backend: accepted for compatibility ("cpu").
      axis_size: the expected size of the mapped axis (checked).
      donate_argnums: accepted for compatibility (buffers are never reused here).
      global_arg_shapes: accepted for compatibility.

    Returns:
      The mapped function.

    Raises:
      PmapDeviceCountError: (a ValueError) when called with a mapped axis larger than the
        number of devices.
    """
    del backend, donate_argnums, global_arg_shapes
    if devices is not None and not devices:
        raise PmapArgumentError("'devices' argument to pmap must be non-empty, or None.")
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    statics = _as_tuple(static_broadcasted_argnums)
    n_devices = len(devices) if devices is not None else device_count()
    name = getattr(fun, "__name__", "fun")

    def dynamic_in_axes(nargs: int) -> Any:
        """`in_axes` without the entries of the static arguments."""
        if not isinstance(in_axes, tuple):
            return in_axes
        return tuple(in_axes[i] for i in range(nargs) if i not in statics)

    def mapped_flat(static_items: tuple, dyn_args: tuple, kwargs: dict) -> Any:
        fixed = dict(static_items)
        n = len(dyn_args) + len(fixed)

        def call(dyn: tuple, kw: dict) -> Any:
            it = iter(dyn)
            return fun(*[fixed[i] if i in fixed else next(it) for i in range(n)], **kw)

        axes = (dynamic_in_axes(n), 0)
        return vmap(call, in_axes=axes, out_axes=out_axes, axis_name=axis_name)(dyn_args, kwargs)

    compiled = jit(mapped_flat, static_argnums=(0,))

    @functools.wraps(fun)
    def mapped(*args: Any, **kwargs: Any) -> Any:
        if statics and max(statics) >= len(args):
            raise PmapArgumentError(
                f"pmapped function has static_broadcasted_argnums={statics} but was called with "
                f"only {len(args)} positional argument{'s' if len(args) != 1 else ''}. All "
                "static broadcasted arguments must be passed positionally."
            )
        static_items = tuple((i, args[i]) for i in statics)
        dyn_args = tuple(a for i, a in enumerate(args) if i not in statics)
        if isinstance(in_axes, tuple) and len(in_axes) != len(args):
            raise PmapArgumentError(
                f"pmap in_axes must be an int, None, or a tuple with one entry per positional "
                f"argument; got len(in_axes)={len(in_axes)} for {len(args)} arguments."
            )
        size = _mapped_size(dyn_args, kwargs, dynamic_in_axes(len(args)))
        if axis_size is not None and axis_size != size:
            raise PmapArgumentError(
                f"Specified axis_size {axis_size} doesn't match received axis_size {size}."
            )
        if size > n_devices:
            raise PmapDeviceCountError(
                f"pmap of {name} got a mapped axis of size {size}, so compiling it requires "
                f"{size} replicas, but only {n_devices} XLA devices are available (numbax runs "
                f"on {device_count()} CPU device). Map over at most {n_devices} element(s), "
                "or use vmap (or jit(vmap(f, axis_name=...))) for the whole axis."
            )
        return compiled(static_items, dyn_args, kwargs)

    return mapped


def _mapped_size(dyn_args: tuple, kwargs: dict, dyn_in_axes: Any) -> int:
    """The size of the first mapped input axis (vmap checks the others agree)."""
    axes = _broadcast_prefix(dyn_in_axes, dyn_args, "in_axes")
    leaves = tree_util.tree_leaves(dyn_args)
    kw_leaves = tree_util.tree_leaves(kwargs)
    for x, ax in zip(leaves + kw_leaves, axes + [0] * len(kw_leaves)):
        if ax is None:
            continue
        shape = get_aval(x).shape
        if not -len(shape) <= ax < len(shape):
            raise PmapArgumentError(
                f"pmap in_axes entry {ax} is out of bounds for an argument of shape {shape}."
            )
        return shape[ax]
    raise PmapArgumentError("pmap requires at least one argument with a mapped axis.")


def process_count(backend: str | None = None) -> int:
    """The number of processes of the computation: 1."""
    return 1


def host_count(backend: str | None = None) -> int:
    """Deprecated JAX alias of `process_count`: 1."""
    return process_count(backend)


def host_id(backend: str | None = None) -> int:
    """Deprecated JAX alias of `process_index`: 0."""
    return process_index()


def effects_barrier() -> None:
    """Waits for pending side effects (callbacks, prints): none can be pending, since numbax
    runs every computation and callback synchronously."""


def live_arrays(platform: str | None = None) -> list:
    """The arrays alive on the device. numbax arrays are ordinary numpy buffers owned by
    Python's garbage collector, and no registry of them is kept (it would cost every array
    creation), so this returns `[]`; use `gc.get_objects()` to inspect memory."""
    return []
