"""`pmap`: one program per device, the devices running at once (JAX's multi-controller model).

`pmap(f, axis_name="i")(xs)` traces `f` once on the per-device shapes (with "i" bound to the
mapped axis, so collectives such as `lax.psum(x, "i")` stay in the program), compiles it with
`jit`'s back end, cuts every mapped argument into one slice per device and runs each slice on
its device's worker thread (`core/parallel/dispatch.py`); the kernels release the GIL, so the
devices compute in parallel, and the collectives meet through a communicator
(`core/parallel/communicator.py`). The per-device results are stacked along `out_axes` into one
`Array` placed as JAX 0.10 places them (`core.sharding.pmap_sharding`), which reads back like
JAX's (`np.asarray` is the stacked result). Under `core.distributed` each process maps over
its local devices and the collectives reduce over the devices of all processes; each
process's result holds its own slices (its mesh is of its local devices).

Called on tracers (inside `grad`, `jvp`, `vmap` or `jit` of an enclosing function), `pmap(f)`
binds the `pmap` primitive with `f`'s per-device jaxpr (`core/parallel/pmap_prim.py`), whose
rules turn the jvp, transpose or batched version into another pmap, so the derived programs
run on the devices too. Inside the mapped function use `grad` as usual: its gradients are per
device, and `lax.pmean(grads, "i")` averages them over the devices. A pmap called inside
another pmap's per-device program maps as `vmap` on that device's thread.

`process_count`, `host_count`, `host_id`, `host_ids`, `effects_barrier` and `live_arrays` answer the
multi-process queries of JAX.
"""

from __future__ import annotations

import functools
import operator
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import tree_util
from core.api import _broadcast_prefix, check_callable
from core.array import Array
from core.avals import ShapedArray, ShapeDtypeStruct, interned
from core.bounded_record import BoundedRecord
from core.config import config
from core.devices import _check_backend, local_devices, process_count, process_index
from core.errors import NumbaxError
from core.interpreters.partial_eval import trace_to_closed_jaxpr
from core.jit import donation
from core.jit.api import StaticArgumentError, executable
from core.jit.dispatch import wait_all
from core.parallel import axis_env, dispatch
from core.parallel.dispatch import read_only
from core.parallel.pmap_prim import pmap_p, run_jaxpr
from core.pmap_stages import PmapLowered
from core.prims import prng
from core.prng_key import PRNGKeyArray
from core.trace import Tracer, as_value, get_aval

__all__ = [
    "PmapArgumentError",
    "PmapDeviceCountError",
    "effects_barrier",
    "host_count",
    "host_id",
    "host_ids",
    "live_arrays",
    "pmap",
    "process_count",
]


class PmapOutAxisError(NumbaxError, ValueError):
    """An ``out_axes`` entry beyond the rank of its output (with the mapped axis).

    Failing code: ``pmap(lambda x: x.sum(), out_axes=1)(jnp.ones((8, 2)))`` (each device's
    scalar stacks into a 1-d result, which has no axis 1). Fix: an axis in
    ``[-ndim - 1, ndim]`` for a per-device output of rank ``ndim``.
    """


class PmapDeviceCountError(NumbaxError, ValueError):
    """A pmapped axis larger than the number of devices.

    Failing code: ``pmap(f)(jnp.ones((3, 4)))`` on 2 devices. Fix: map at most
    ``core.local_device_count()`` elements per call (reshape to ``(devices, -1, ...)``), or
    create more CPU devices (``NUMBAX_NUM_CPU_DEVICES``).
    """


class PmapArgumentError(NumbaxError, ValueError):
    """pmap arguments that do not fit its in_axes, axis_size or static_broadcasted_argnums.

    Failing code: ``pmap(f, axis_size=4)(jnp.ones(3))``. Fix: arguments whose mapped axes
    have the size the options say.
    """


class PmapAxisBoundsError(NumbaxError, IndexError):
    """An ``in_axes`` entry naming an axis its argument does not have (JAX's IndexError).

    Failing code: ``pmap(f, in_axes=1)(jnp.ones(8))`` (a 1-d argument has no axis 1). Fix:
    ``in_axes`` naming axes the arguments have (``None`` to broadcast one).
    """


class PmapAxesTypeError(NumbaxError, TypeError):
    """``in_axes`` or ``out_axes`` with a leaf that is not an int or None.

    Failing code: ``pmap(f, in_axes="0")``. Fix: ints (or None) as the leaves, e.g.
    ``in_axes=(0, None)``.
    """


def _as_tuple(x: int | Sequence[int] | None) -> tuple[int, ...]:
    """Argument positions as a tuple (JAX's TypeError for a position that is not an int)."""
    if x is None:
        return ()
    if isinstance(x, str):
        raise TypeError(f"'{type(x).__name__}' object cannot be interpreted as an integer")
    return (operator.index(x),) if not isinstance(x, Sequence) else tuple(map(operator.index, x))


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
      donate_argnums: positions of arguments whose arrays the call may take for its results:
        those already laid out over the devices that an output of the same per-device shape
        and dtype takes are deleted after the call, as JAX deletes them (`core/jit/donation.py`;
        numbax's kernels allocate their outputs, so nothing is reused).
      global_arg_shapes: accepted for compatibility.

    Returns:
      The mapped function.

    Raises:
      TypeError: `fun` is not callable, or an `in_axes`/`out_axes` leaf is not an int or None
        (`PmapAxesTypeError`).
      RuntimeError: a `backend` other than "cpu".
      ValueError: `static_broadcasted_argnums` and `donate_argnums` share a position.
      PmapDeviceCountError: (a ValueError) when called with a mapped axis larger than the
        number of devices.
    """
    del global_arg_shapes
    check_callable(fun)
    _check_backend(backend)
    if devices is not None and not devices:
        raise PmapArgumentError("'devices' argument to pmap must be non-empty, or None.")
    if devices is not None and len(set(devices)) != len(devices):
        raise PmapArgumentError(
            f"pmap got devices={list(devices)}, which repeat a device: give distinct devices."
        )
    _check_axes_leaves(in_axes, "in_axes")
    _check_axes_leaves(out_axes, "out_axes")
    statics, donated = _as_tuple(static_broadcasted_argnums), _as_tuple(donate_argnums)
    if set(statics) & set(donated):
        raise ValueError(
            f"`static_argnums` {sorted(set(statics))} and `donate_argnums` "
            f"{sorted(set(donated))} cannot intersect."
        )
    return _Pmapped(fun, axis_name, in_axes, out_axes, statics, devices, axis_size, donated)


class _Entry:
    """One traced per-device program (compiled on its first concrete call). `closes_over`:
    some constants are tracers of an enclosing transformation (the function closes over its
    values), so the program is bound as the `pmap` primitive and never cached."""

    __slots__ = (
        "closes_over", "consts", "donations", "exe", "jaxpr", "keys", "out_axes", "out_tree",
        "physical", "unused",
    )  # fmt: skip

    def __init__(self, jaxpr, consts, out_tree, out_axes):
        self.jaxpr, self.consts, self.exe = jaxpr, consts, None
        self.unused = None  # the argument leaves it never reads (`donation.unused_leaves`)
        self.donations: dict = {}  # donated and output avals -> those taken (`donation.usable`)
        self.out_tree, self.out_axes = out_tree, out_axes
        self.closes_over = any(isinstance(c, Tracer) for c in consts)
        # The program's output avals (keys as their data), and {output: its key
        # implementation's name} of the key outputs, computed once instead of every call.
        self.physical = [prng.physical_aval(a) for a in jaxpr.out_avals]
        self.keys = {
            k: prng.impl_of(a.dtype).name for k, a in enumerate(jaxpr.out_avals) if prng.is_key(a)
        }


class _Pmapped:
    """What `pmap(fun, ...)` returns."""

    def __init__(self, fun, axis_name, in_axes, out_axes, statics, devices, axis_size, donated):
        functools.update_wrapper(self, fun)
        self._fun, self._axis_name, self._donated = fun, axis_name, donated
        self._in_axes, self._out_axes, self._statics = in_axes, out_axes, statics
        self._devices = None if devices is None else list(devices)
        self._axis_size = axis_size
        self._fun_name = getattr(fun, "__name__", "fun")
        # Most recently used last; at most config.jit_cache_max_entries signatures, as jit.
        self._entries = BoundedRecord(lambda: config.jit_cache_max_entries, recency=True)
        # (argument tree, argument count) -> mapped axis of each leaf
        self._axes = BoundedRecord(lambda: config.jit_cache_max_entries)
        self._lock = threading.Lock()

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

    def _call_layout(self, args: tuple, kwargs: dict) -> tuple:
        """(static items, leaves, their tree, mapped axes, mapped size, devices) of a call
        with these arguments, checked against `in_axes`, `axis_size` and the devices."""
        statics = self._statics
        if statics and max(statics) >= len(args):
            raise PmapArgumentError(
                f"pmapped function has static_broadcasted_argnums={statics} but was called with "
                f"only {len(args)} positional argument{'s' if len(args) != 1 else ''}. All "
                "static broadcasted arguments must be passed positionally."
            )
        if not (self._in_axes is None or isinstance(self._in_axes, int)):
            _check_in_axes_prefix(self._in_axes, args, bool(kwargs))
        static_items = tuple((i, args[i]) for i in statics)
        dyn_args = tuple(a for i, a in enumerate(args) if i not in statics)
        leaves, in_tree = tree_util.tree_flatten((dyn_args, kwargs))
        axes = self._axes.get((in_tree, len(args)))
        if axes is None:  # in_axes over the arguments' structure: the same for every call
            axes = _broadcast_prefix(self._dynamic_in_axes(len(args)), dyn_args, "in_axes")
            axes += [0] * (len(leaves) - len(axes))
            self._axes.put((in_tree, len(args)), axes)
        size, axes = _mapped_size(leaves, axes)
        if self._axis_size is not None and self._axis_size != size:
            raise PmapArgumentError(
                f"Specified axis_size {self._axis_size} doesn't match received axis_size {size}."
            )
        return static_items, leaves, in_tree, axes, size, self._check_devices(size)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        static_items, leaves, in_tree, axes, size, devices = self._call_layout(args, kwargs)
        avals, vals = dispatch.device_inputs(leaves, axes, devices)
        concrete = avals is not None
        if not concrete:
            avals = [_interned(get_aval(x)) for x in leaves]
        entry = self._entry(static_items, in_tree, avals, axes, size, _input_meshes(leaves))
        if not concrete or entry.closes_over:  # the pmap primitive, which transformations map
            consts = [
                c if isinstance(c, Tracer) else Array(c, v.aval.weak_type)
                for c, v in zip(entry.consts, entry.jaxpr.invars)
            ]
            outs = pmap_p.bind(
                *consts,
                *[_to_input(x, aval) for x, aval in zip(leaves, avals)],
                **self._params(entry, axes, size, devices),
            )
            return tree_util.tree_unflatten(entry.out_tree, outs)
        if axis_env.inside_shard():  # a pmap inside a pmapped function run op by op
            params = self._params(entry, axes, size, devices)
            outs = run_jaxpr(entry.jaxpr, entry.consts + vals, params)
            return tree_util.tree_unflatten(entry.out_tree, outs)
        return self._run(entry, args, leaves, vals, axes, devices)

    def lower(self, *args: Any, **kwargs: Any) -> PmapLowered:
        """The per-device program for these arguments, lowered but not compiled, as
        `jax.pmap(f).lower` (`core/pmap_stages.py`).

        Args:
          *args, **kwargs: arguments as for a call: arrays, scalars, `ShapeDtypeStruct`s or
            `ShapedArray`s (only their shapes and dtypes count), static ones by value.

        Returns:
          A `Lowered`: `.as_text()` is the generated program, `.compile()` the next stage.

        Raises:
          PmapArgumentError: arguments that do not fit `in_axes` or `axis_size`.
          PmapDeviceCountError: a mapped axis larger than the number of devices.
        """
        args, kwargs = tree_util.tree_map(_struct_of_aval, (args, kwargs))
        static_items, leaves, in_tree, axes, size, devices = self._call_layout(args, kwargs)
        avals = [_interned(get_aval(x)) for x in leaves]
        entry = self._entry(static_items, in_tree, avals, axes, size)
        return PmapLowered(self, entry, static_items, in_tree, avals, axes, size, devices)

    def _compile(self, entry: _Entry, size: int) -> None:
        """Compiles `entry`'s per-device program, once."""
        if entry.exe is None:
            backend = config.jit_backend if config._jit_enabled else "python"
            with axis_env.tracing(self._axis_name, size * process_count()):
                entry.exe = executable(entry.jaxpr, backend, self._fun_name)

    def _run(self, entry: _Entry, args: tuple, leaves: list, vals: list, axes, devices) -> Any:
        """Runs `entry` on the devices with the inputs `vals` of the argument `leaves` (of
        the call's positional `args`, for donation) and returns the outputs' tree."""
        self._compile(entry, len(devices))
        outs = dispatch.run(
            entry.exe,
            entry.consts,
            vals,
            axes,
            entry.physical,
            entry.out_axes,
            devices,
            self._axis_name,
            self._fun_name,
        )
        for k, impl in entry.keys.items():
            outs[k] = PRNGKeyArray(outs[k], impl)
        if self._donated:
            if entry.unused is None:
                entry.unused = donation.unused_leaves(entry.jaxpr, len(entry.consts))
            donation.delete_donated_shards(
                self._donated, args, self._statics, leaves, axes,
                entry.jaxpr.out_avals, entry.out_axes, devices, entry.unused, entry.donations,
            )  # fmt: skip
        return tree_util.tree_unflatten(entry.out_tree, outs)

    def _params(self, entry: _Entry, axes: list, size: int, devices: list) -> dict:
        """The parameters of the `pmap_p` equation of a call with these inputs."""
        return dict(
            jaxpr=entry.jaxpr,
            axis_name=self._axis_name,
            axis_size=size,
            global_axis_size=size * process_count(),
            in_axes=(None,) * len(entry.consts) + tuple(axes),
            out_axes=entry.out_axes,
            devices=None if self._devices is None else tuple(devices),
            name=self._fun_name,
            backend=config.jit_backend,
        )

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
        if size == 0:
            raise PmapArgumentError(
                f"pmap of {self._fun_name} got a mapped axis of size 0: map over at least one "
                "element."
            )
        return devices[:size]  # as JAX 0.10.2, the first `size` of the devices given

    def _entry(self, static_items, in_tree, avals, axes, size, meshes=()) -> _Entry:
        """The traced program for these inputs (traced on a miss; LRU-bounded like jit's).
        `meshes` (`_input_meshes`) is part of the key: as JAX's pmap, a call whose inputs are
        placed over another mesh traces again."""
        global_size = size * process_count()
        key = (in_tree, tuple(map(id, avals)), tuple(axes), static_items, size, global_size)
        key += (meshes,)
        key += (config.trace_context(), config._jit_enabled, config.jit_backend)
        try:
            hash(key)
        except TypeError as err:
            i, arg = next((i, a) for i, a in static_items if not _hashable(a))
            raise StaticArgumentError(
                "Non-hashable static arguments are not supported, as this can lead to "
                f"unexpected cache-misses. Static argument (index {i}) of type {type(arg)} for "
                f"function {self._fun_name} is non-hashable.\nMake it hashable (a tuple instead "
                "of a list, a frozen dataclass) or pass it as an array argument."
            ) from err
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                shard_avals = [_shard_aval(a, ax) for a, ax in zip(avals, axes)]
                entry = self._trace(static_items, in_tree, shard_avals, global_size)
                if entry.closes_over:  # its tracers belong to this trace only
                    return entry
                found = (entry, avals)  # the avals stay alive: the key holds their ids
                self._entries.put(key, found)
            return found[0]

    def _trace(self, static_items, in_tree, shard_avals, global_size) -> _Entry:
        store: list = []

        def flat_fun(*shard_leaves):
            dyn_args, kwargs = tree_util.tree_unflatten(in_tree, shard_leaves)
            out = self._call_fun(static_items, dyn_args, kwargs)
            out_flat, out_tree = tree_util.tree_flatten(out)
            store.append(out_tree)
            return [as_value(o) for o in out_flat]

        with axis_env.tracing(self._axis_name, global_size):
            jaxpr, consts = trace_to_closed_jaxpr(flat_fun, shard_avals)
        out_tree = store[0]
        dummy = tree_util.tree_unflatten(out_tree, [0] * out_tree.num_leaves)
        if not (self._out_axes is None or isinstance(self._out_axes, int)):
            tree_util.flatten_prefix(self._out_axes, dummy, "pmap out_axes")
        out_axes = _broadcast_prefix(self._out_axes, dummy, "out_axes")
        for ax, aval in zip(out_axes, jaxpr.out_avals):
            if ax is not None and not -aval.ndim - 1 <= ax <= aval.ndim:
                raise PmapOutAxisError(
                    f"axis {ax} is out of bounds for array of dimension {aval.ndim + 1}\n"
                    f"pmap out_axes entry {ax} for an output of per-device shape {aval.shape}: "
                    f"give an axis in [{-aval.ndim - 1}, {aval.ndim}]."
                )
        out_axes = tuple(
            None if ax is None else ax % (aval.ndim + 1)
            for ax, aval in zip(out_axes, jaxpr.out_avals)
        )
        const_vals = [
            c if isinstance(c, Tracer) else read_only(np.ascontiguousarray(np.asarray(c)))
            for c in consts
        ]
        return _Entry(jaxpr, const_vals, out_tree, out_axes)


def _struct_of_aval(x: Any) -> Any:
    """A `ShapedArray` given to `lower` (JAX takes one as an abstract argument) as the
    `ShapeDtypeStruct` of its shape, dtype and weak type; other leaves as they are."""
    if isinstance(x, ShapedArray):
        return ShapeDtypeStruct(x.shape, x.dtype, x.weak_type)
    return x


def _hashable(x: Any) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True


def _check_axes_leaves(axes: Any, what: str) -> None:
    """JAX's TypeError for an `in_axes`/`out_axes` leaf that is not an int or None."""
    leaves = tree_util.tree_leaves(axes, is_leaf=lambda x: x is None)
    if any(
        ax is not None and (not isinstance(ax, (int, np.integer)) or isinstance(ax, bool))
        for ax in leaves
    ):
        raise PmapAxesTypeError(
            f"pmap {what} must be an int, None, or (nested) container with those types as "
            f"leaves, but got {axes}."
        )


def _check_in_axes_prefix(in_axes: Any, args: tuple, by_keyword: bool) -> None:
    """JAX's "pytree structure error" for `in_axes` that is not a tree prefix of the tuple of
    positional arguments (a list is not a tuple; keyword arguments are not in it), its key
    path as JAX's (`in_axes` is the first of `(in_axes, 0)` against `(args, kwargs)`)."""
    try:
        tree_util.flatten_prefix((in_axes, 0), (args, 0), "pmap in_axes")
    except tree_util.PyTreeStructureError as err:
        note = (
            "\n\nWhen some arguments are passed by keyword to the pmapped function, they are "
            "not included in the comparison to `in_axes`. Instead, each argument passed by "
            "keyword is mapped over its leading axis."
            if by_keyword
            else ""
        )
        raise tree_util.PyTreeStructureError(
            f"{err}\n\nThe 'full pytree' here is the tuple of arguments passed positionally to "
            "the pmapped function, and the value of `in_axes` must be a tree prefix of that "
            f"tuple. But it was not a prefix.{note}\n\nCheck that the value of the `in_axes` "
            "argument to `pmap` is a tree prefix of the tuple of arguments passed positionally "
            "to the pmapped function."
        ) from None


def _input_meshes(leaves: list) -> tuple:
    """The axis names and sizes of the meshes the `NamedSharding`-placed `leaves` are on (JAX
    0.10's pmap, a `jit`, keys its traces on them: its avals carry their abstract mesh)."""
    meshes = {}  # by identity: a replicated state's hundred leaves share one mesh
    for x in leaves:
        mesh = getattr(getattr(x, "_sharding", None), "mesh", None)
        if mesh is not None:
            meshes[id(mesh)] = mesh
    if not meshes:
        return ()
    return tuple(sorted({tuple(m.shape.items()) for m in meshes.values()}))


def _shard_aval(aval: ShapedArray, axis: int | None) -> ShapedArray:
    if axis is None:
        return aval
    shape = aval.shape[:axis] + aval.shape[axis + 1 :]
    return ShapedArray(shape, aval.dtype, aval.weak_type)


def _interned(aval: ShapedArray) -> ShapedArray:
    return interned(aval.shape, aval.dtype, aval.weak_type)


def _to_input(x: Any, aval: ShapedArray) -> Any:
    if isinstance(x, (Array, Tracer)):
        return x
    return Array(np.asarray(x, dtype=aval.dtype), aval.weak_type)


_PY_SCALARS = (int, float, complex, bool)


def _mapped_size(leaves: list, axes: list) -> tuple[int, list]:
    """The size of the mapped axis (checked equal for every mapped leaf), and the axes made
    non-negative."""
    size, norm, scalars = None, [], 0
    for x, ax in zip(leaves, axes):
        if ax is None:
            norm.append(None)
            continue
        if isinstance(x, Array):  # pending and stacked ones too: no `aval` property call
            shape = x._aval.shape
        elif type(x) is np.ndarray:
            shape = x.shape
        elif type(x) in _PY_SCALARS:
            scalars += 1  # JAX maps no Python scalar: with no array, no mapped argument
            norm.append(ax)
            continue
        else:
            shape = get_aval(x).shape
        rank = len(shape)
        if not -rank <= ax < rank:
            raise PmapAxisBoundsError(
                "tuple index out of range\n"
                f"pmap in_axes entry {ax} is out of bounds for an argument of shape {shape}."
            )
        if ax < 0:
            ax += rank
        if size is None:
            size = shape[ax]
        elif shape[ax] != size:
            raise PmapArgumentError(
                f"pmap got inconsistent sizes for the mapped axis: {size} and {shape[ax]} (an "
                f"argument of shape {shape}, axis {ax}); every mapped axis must have one size."
            )
        norm.append(ax)
    if size is None:
        raise PmapArgumentError("pmap requires at least one argument with a mapped axis.")
    if scalars:
        bad = next(ax for x, ax in zip(leaves, norm) if type(x) in _PY_SCALARS)
        raise PmapArgumentError(
            f"pmap in_axes entry {bad} is out of bounds for an argument of shape (): a Python "
            "scalar has no axis to map; give it in_axes None."
        )
    return size, norm


def host_count(backend: str | None = None) -> int:
    """Deprecated JAX alias of `process_count`."""
    return process_count(backend)


def host_id(backend: str | None = None) -> int:
    """Deprecated JAX alias of `process_index`."""
    return process_index()


def host_ids(backend: str | None = None) -> list[int]:
    """Deprecated JAX alias of `process_indices` (warns, as JAX does).

    Args:
      backend: accepted, as the CPU is the only one.

    Returns:
      The indices of the processes.
    """
    warnings.warn(
        "core.host_ids has been renamed to core.process_indices; use that.",
        UserWarning,
        stacklevel=2,
    )
    return list(range(process_count(backend)))


def effects_barrier() -> None:
    """Waits for pending side effects (callbacks, prints): for the jitted and pmapped calls
    dispatched asynchronously (`core/jit/dispatch.py`, `core/parallel/dispatch.py`)."""
    wait_all()


def live_arrays(platform: str | None = None) -> list:
    """The arrays alive on the device. numbax arrays are ordinary numpy buffers owned by
    Python's garbage collector, and no registry of them is kept (it would cost every array
    creation), so this returns `[]`; use `gc.get_objects()` to inspect memory."""
    return []
