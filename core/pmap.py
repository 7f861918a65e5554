"""`pmap`: one program per device, the devices running at once (JAX's multi-controller model).

`pmap(f, axis_name="i")(xs)` traces `f` once on the per-device shapes (with "i" bound to the
mapped axis, so collectives such as `lax.psum(x, "i")` stay in the program), compiles it with
`jit`'s back end, cuts every mapped argument into one slice per device and runs each slice on
its device's worker thread (`core/devices.py`); the kernels release the GIL, so the devices
compute in parallel, and the collectives meet through a communicator
(`core/parallel/communicator.py`). The per-device results are stacked along `out_axes` into one
`Array` placed as JAX 0.10 places them (`core.sharding.pmap_sharding`), which reads back like
JAX's (`np.asarray` is the stacked result). Under `core.distributed` each process maps over
its local devices and the collectives reduce over the devices of all processes; each
process's result holds its own slices (its mesh is of its local devices).

Called on tracers (inside `grad`, `jit`, `vmap` of an enclosing function), `pmap(f)` is
`vmap(f, axis_name=...)` on the enclosing trace: the same values (also for the collectives)
on the calling thread, differentiable and batchable like any traced code. Inside the mapped
function use `grad` as usual: its gradients are per device, and `lax.pmean(grads, "i")`
averages them over the devices.

`process_count`, `host_count`, `host_id`, `effects_barrier` and `live_arrays` answer the
multi-process queries of JAX.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import distributed, tree_util
from core.api import _broadcast_prefix, vmap
from core.array import Array
from core.avals import ShapedArray, interned
from core.config import config
from core.device_worker import current_device
from core.devices import local_devices, process_count, process_index
from core.errors import NumbaxError
from core.interpreters.partial_eval import trace_to_closed_jaxpr
from core.jit.api import StaticArgumentError, _concrete_inputs, executable, jit
from core.parallel import axis_env
from core.parallel.communicator import ThreadCommunicator
from core.sharding import pmap_sharding
from core.trace import EvalTrace, as_value, current_trace, get_aval

__all__ = [
    "PmapArgumentError",
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
    """Maps `fun` over an axis of its inputs, one device per element, in parallel (`jax.pmap`).

    Args:
      fun: the function to map (arrays and pytrees of arrays in and out).
      axis_name: a name for the mapped axis, for collectives (`lax.psum(x, axis_name)`...).
      in_axes: int, None, or a pytree prefix of the positional arguments (static ones
        included) giving the mapped axis of each; keyword arguments are mapped over axis 0.
      out_axes: the same for the outputs (None: the output is the same on every device and
        is returned once).
      static_broadcasted_argnums: positions of hashable compile-time constant arguments.
      devices: the local devices to map over, one per element (default: the first local
        devices, `core.local_devices()`).
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
    return _Pmapped(
        fun, axis_name, in_axes, out_axes, _as_tuple(static_broadcasted_argnums), devices, axis_size
    )


class _Entry:
    """One traced and compiled per-device program."""

    __slots__ = ("consts", "exe", "out_avals", "out_axes", "out_tree")

    def __init__(self, exe, consts, out_avals, out_tree, out_axes):
        self.exe, self.consts, self.out_avals = exe, consts, out_avals
        self.out_tree, self.out_axes = out_tree, out_axes


class _Pmapped:
    """What `pmap(fun, ...)` returns."""

    def __init__(self, fun, axis_name, in_axes, out_axes, statics, devices, axis_size):
        functools.update_wrapper(self, fun)
        self._fun, self._axis_name = fun, axis_name
        self._in_axes, self._out_axes, self._statics = in_axes, out_axes, statics
        self._devices = None if devices is None else list(devices)
        self._axis_size = axis_size
        self._fun_name = getattr(fun, "__name__", "fun")
        self._entries: dict = {}
        self._lock = threading.Lock()
        self._traced_version = jit(
            lambda statics, dyn, kw: self._vmapped(statics, dyn, kw), static_argnums=(0,)
        )

    def __get__(self, obj, objtype=None):
        return self if obj is None else functools.partial(self, obj)

    def _dynamic_in_axes(self, nargs: int) -> Any:
        """`in_axes` without the entries of the static arguments."""
        if not isinstance(self._in_axes, tuple):
            return self._in_axes
        return tuple(self._in_axes[i] for i in range(nargs) if i not in self._statics)

    def _call_fun(self, static_items: tuple, dyn_args: tuple, kwargs: dict) -> Any:
        fixed = dict(static_items)
        it = iter(dyn_args)
        n = len(dyn_args) + len(fixed)
        return self._fun(*[fixed[i] if i in fixed else next(it) for i in range(n)], **kwargs)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        statics = self._statics
        if statics and max(statics) >= len(args):
            raise PmapArgumentError(
                f"pmapped function has static_broadcasted_argnums={statics} but was called with "
                f"only {len(args)} positional argument{'s' if len(args) != 1 else ''}. All "
                "static broadcasted arguments must be passed positionally."
            )
        if isinstance(self._in_axes, tuple) and len(self._in_axes) != len(args):
            raise PmapArgumentError(
                f"pmap in_axes must be an int, None, or a tuple with one entry per positional "
                f"argument; got len(in_axes)={len(self._in_axes)} for {len(args)} arguments."
            )
        static_items = tuple((i, args[i]) for i in statics)
        dyn_args = tuple(a for i, a in enumerate(args) if i not in statics)
        leaves, in_tree = tree_util.tree_flatten((dyn_args, kwargs))
        axes = _broadcast_prefix(self._dynamic_in_axes(len(args)), dyn_args, "in_axes")
        axes += [0] * (len(leaves) - len(axes))
        size, axes = _mapped_size(leaves, axes)
        if self._axis_size is not None and self._axis_size != size:
            raise PmapArgumentError(
                f"Specified axis_size {self._axis_size} doesn't match received axis_size {size}."
            )
        devices = self._check_devices(size)
        # On tracers, and inside a device thread (a pmap within a pmapped function run op by
        # op: the devices are busy with the outer one), the mapped function runs as vmap.
        traced = type(current_trace()) is not EvalTrace or current_device() is not None
        avals, vals = (None, None) if traced else _concrete_inputs(leaves)
        if avals is None:
            return self._traced_version(static_items, dyn_args, kwargs)
        return self._run(static_items, in_tree, avals, vals, axes, devices)

    def _check_devices(self, size: int) -> list:
        devices = self._devices if self._devices is not None else local_devices()
        if size > len(devices):
            raise PmapDeviceCountError(
                f"pmap of {self._fun_name}: compiling a computation that requires {size} logical "
                f"devices, but only {len(devices)} CPU devices are available "
                f"(num_replicas={size}). Map over at most {len(devices)} elements per call, "
                "or create more devices before their first use with "
                "core.config.update('num_cpu_devices', n) or NUMBAX_NUM_CPU_DEVICES=n."
            )
        if self._devices is not None and size != len(devices):
            raise PmapDeviceCountError(
                f"pmap of {self._fun_name} got devices={devices} but a mapped axis of size {size}: "
                "give one device per element."
            )
        return devices[:size]

    def _vmapped(self, static_items: tuple, dyn_args: tuple, kwargs: dict) -> Any:
        """The mapped function as `vmap` (how `pmap` runs on tracers)."""
        axes = (self._dynamic_in_axes(len(dyn_args) + len(static_items)), 0)
        return vmap(
            lambda dyn, kw: self._call_fun(static_items, dyn, kw),
            in_axes=axes,
            out_axes=self._out_axes,
            axis_name=self._axis_name,
        )(dyn_args, kwargs)

    def _run(self, static_items, in_tree, avals, vals, axes, devices) -> Any:
        size = len(devices)
        global_size = size * process_count()
        backend = config.jit_backend
        key = (in_tree, tuple(map(id, avals)), tuple(axes), static_items, size, global_size)
        key += (config.trace_context(), config._jit_enabled, backend)
        try:
            hash(key)
        except TypeError as err:
            raise StaticArgumentError(
                f"Non-hashable static arguments are not supported: {static_items!r} of "
                f"{self._fun_name}. Make them hashable (tuples instead of lists, frozen "
                "dataclasses) or pass them as array arguments."
            ) from err
        with self._lock:
            found = self._entries.pop(key, None)
            if found is None:
                shard_avals = [_shard_aval(a, ax) for a, ax in zip(avals, axes)]
                entry = self._trace(static_items, in_tree, shard_avals, global_size, backend)
                found = (entry, avals)  # the avals stay alive: the key holds their ids
            # Most recently used last; at most config.jit_cache_max_entries signatures, as jit.
            self._entries[key] = found
            while len(self._entries) > config.jit_cache_max_entries:
                del self._entries[next(iter(self._entries))]
            entry = found[0]
        communicator = ThreadCommunicator(
            size, _process_group(), process_index() * size, global_size
        )
        vals = [_read_only(v) for v in vals]
        args = [entry.consts + [_slice(v, ax, i) for v, ax in zip(vals, axes)] for i in range(size)]
        outputs = _Outputs(entry, size)
        run = functools.partial(_run_shard, self._axis_name, communicator, outputs.store)
        with _SUBMIT_LOCK:  # every device queue sees concurrent pmap calls in one order
            futures = [d.worker.submit(run, i, entry.exe, args[i]) for i, d in enumerate(devices)]
        _wait(futures)
        return tree_util.tree_unflatten(entry.out_tree, outputs.arrays(devices))

    def _trace(self, static_items, in_tree, shard_avals, global_size, backend) -> _Entry:
        store: list = []

        def flat_fun(*shard_leaves):
            dyn_args, kwargs = tree_util.tree_unflatten(in_tree, shard_leaves)
            out = self._call_fun(static_items, dyn_args, kwargs)
            out_flat, out_tree = tree_util.tree_flatten(out)
            store.append(out_tree)
            return [as_value(o) for o in out_flat]

        with axis_env.tracing(self._axis_name, global_size):
            jaxpr, consts = trace_to_closed_jaxpr(flat_fun, shard_avals)
            # Under disable_jit every device runs the program op by op.
            exe = executable(jaxpr, backend if config._jit_enabled else "python")
        out_tree = store[0]
        dummy = tree_util.tree_unflatten(out_tree, [0] * out_tree.num_leaves)
        out_axes = _broadcast_prefix(self._out_axes, dummy, "out_axes")
        const_vals = [_read_only(np.ascontiguousarray(np.asarray(c))) for c in consts]
        return _Entry(exe, const_vals, jaxpr.out_avals, out_tree, out_axes)


def _shard_aval(aval: ShapedArray, axis: int | None) -> ShapedArray:
    if axis is None:
        return aval
    shape = aval.shape[:axis] + aval.shape[axis + 1 :]
    return ShapedArray(shape, aval.dtype, aval.weak_type)


def _read_only(value: np.ndarray) -> np.ndarray:
    """A read-only view of `value`: compiled kernels take read-only arrays, and a writable one
    costs a slow conversion on every call (half of a small train step's time)."""
    if not value.flags.writeable:
        return value
    view = value.view()
    view.flags.writeable = False
    return view


def _slice(value: np.ndarray, axis: int | None, i: int) -> np.ndarray:
    if axis is None:
        return value
    # `value[i, ...]` keeps 0-d slices arrays (`value[i]` would be a numpy scalar, which the
    # kernel's signature rejects: every call would fall back to converting its arguments).
    return value[i, ...] if axis == 0 else _read_only(np.take(value, i, axis))


def _process_group() -> Any:
    """The MPI group of `core.distributed`, or None in a single process."""
    if process_count() == 1:
        return None
    return distributed.device_exchange()


# Two threads calling pmaps at once must queue their shards in the same order on every device,
# or device 0 could wait in a collective of the first call while device 1 waits in the second's.
_SUBMIT_LOCK = threading.Lock()


class _Outputs:
    """The stacked outputs of one call, which every device thread fills with its slices (the
    copies then run in parallel too); an `out_axes=None` output is device 0's."""

    def __init__(self, entry: _Entry, size: int):
        self.avals, self.axes = entry.out_avals, entry.out_axes
        self.values: list = []
        for aval, axis in zip(self.avals, self.axes):
            if axis is None:
                self.values.append(None)
            else:
                shape = list(aval.shape)
                shape.insert(axis % (len(shape) + 1), size)
                self.values.append(np.empty(shape, aval.dtype))

    def store(self, rank: int, outs: list) -> None:
        for k, (out, axis) in enumerate(zip(outs, self.axes)):
            if axis is None:
                if rank == 0:
                    self.values[k] = np.asarray(out, self.avals[k].dtype)
            else:
                buf = self.values[k]
                index = (slice(None),) * (axis % buf.ndim) + (rank,)
                buf[index] = out

    def arrays(self, devices: list) -> list[Array]:
        for v in self.values:  # immutable from now on (and read-only views are fast inputs)
            if isinstance(v, np.ndarray):
                v.flags.writeable = False
        return [
            Array._placed(
                v,
                interned(v.shape, v.dtype, aval.weak_type),
                pmap_sharding(devices, None if axis is None else axis % v.ndim),
            )
            for v, aval, axis in zip(self.values, self.avals, self.axes)
        ]


def _run_shard(axis_name, communicator, store, rank, exe, args) -> None:
    """Runs on device `rank`'s thread: the compiled program on its slice; stores its outputs."""
    try:
        with axis_env.running(axis_name, communicator, rank):
            store(rank, exe(*args))
    except BaseException:
        communicator.abort()  # the other devices would wait for this one forever
        raise


def _wait(futures: list) -> None:
    """Waits for every device; raises the first real error if a device failed (the others then
    see a broken barrier)."""
    error, broken = None, None
    for f in futures:
        try:
            f.result()
        except threading.BrokenBarrierError as err:
            broken = broken or err
        except BaseException as err:
            error = error or err
    if error is not None or broken is not None:
        raise error if error is not None else broken


def _mapped_size(leaves: list, axes: list) -> tuple[int, list]:
    """The size of the mapped axis (checked equal for every mapped leaf), and the axes made
    non-negative."""
    size, norm = None, []
    for x, ax in zip(leaves, axes):
        if ax is None:
            norm.append(None)
            continue
        shape = get_aval(x).shape if not isinstance(x, (int, float, complex, bool)) else ()
        if not -len(shape) <= ax < len(shape):
            raise PmapArgumentError(
                f"pmap in_axes entry {ax} is out of bounds for an argument of shape {shape}."
            )
        ax %= len(shape)
        if size is not None and shape[ax] != size:
            raise PmapArgumentError(
                f"pmap got inconsistent sizes for the mapped axis: {size} and {shape[ax]} (an "
                f"argument of shape {shape}, axis {ax}); every mapped axis must have one size."
            )
        size = shape[ax]
        norm.append(ax)
    if size is None:
        raise PmapArgumentError("pmap requires at least one argument with a mapped axis.")
    return size, norm


def host_count(backend: str | None = None) -> int:
    """Deprecated JAX alias of `process_count`."""
    return process_count(backend)


def host_id(backend: str | None = None) -> int:
    """Deprecated JAX alias of `process_index`."""
    return process_index()


def effects_barrier() -> None:
    """Waits for pending side effects (callbacks, prints): none can be pending, since every
    computation (pmap's devices included) finishes before its results are returned."""


def live_arrays(platform: str | None = None) -> list:
    """The arrays alive on the device. numbax arrays are ordinary numpy buffers owned by
    Python's garbage collector, and no registry of them is kept (it would cost every array
    creation), so this returns `[]`; use `gc.get_objects()` to inspect memory."""
    return []
