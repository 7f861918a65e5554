"""``flax.jax_utils``: copies of a tree per device for `core.pmap`, and device prefetching.

`replicate` stacks one copy of every leaf per local device (slice ``i`` placed on device
``i``), the layout `core.pmap` expects for replicated state such as a `TrainState`;
`unreplicate` takes the first copy back. `prefetch_to_device` keeps ``size`` batches placed on
the devices ahead of the training loop. numbax's devices are CPU worker threads
(`core.devices`), so placing is cheap and prefetching mostly keeps Flax programs unchanged.

`pad_shard_unpad` wraps a pmapped function so it takes any batch size (padded to a multiple of
the device count, reshaped to `(devices, per_device, ...)`, the padding cut from the outputs);
`scan_in_dim` scans over one or several axes; `partial_eval_by_shape` runs a function on
abstract inputs, returning its outputs that do not depend on them as values and the others as
`ShapeDtypeStruct`s; `pmean` is Flax's deprecated alias of `lax.pmean`.
"""

from __future__ import annotations

import collections
import functools
import itertools
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

import core
from core import lax, placement, tree_util
from core.interpreters import finish
from core.interpreters.partial_eval import JaxprTrace
from core.trace import current_trace, set_current_trace

from .errors import BatchSizeError

__all__ = [
    "pad_shard_unpad",
    "partial_eval_by_shape",
    "pmean",
    "prefetch_to_device",
    "replicate",
    "scan_in_dim",
    "unreplicate",
]


def replicate(
    tree: Any, devices: Sequence[Any] | None = None, axis_name: str = "_device_put_sharded"
) -> Any:
    """Replicates every leaf of ``tree`` on each device (a new leading axis).

    Args:
        tree: a pytree of arrays and Python numbers.
        devices: the devices; default ``core.local_devices()`` (the order `core.pmap` uses).
        axis_name: the name of the one axis of the mesh the copies are placed on (their
            ``NamedSharding``'s, as Flax's).

    Returns:
        The tree with leaves of shape ``(len(devices), *leaf.shape)``; Python numbers become
        arrays of their default dtype (int32, float32, bool), as in Flax.
    """
    devices = list(devices or core.local_devices())
    return placement.device_put_replicated(tree, devices, axis_name)


def unreplicate(tree: Any) -> Any:
    """The first device's copy of every leaf of a replicated tree.

    Args:
        tree: a tree made by `replicate` or returned by `core.pmap`.

    Returns:
        The tree with the leading device axis removed, as Flax's: 0-d leaves are kept as they
        are, and a leaf replicated whole on several devices (a `pmap` output of
        ``out_axes=None``) gives its first shard, the whole value.
    """

    def first(x: Any) -> Any:
        if getattr(x, "ndim", None) == 0:
            return x
        sharding = getattr(x, "sharding", None)
        if (
            sharding is not None
            and not isinstance(sharding, core.sharding.SingleDeviceSharding)
            and core.local_device_count() > 1
            and sharding.is_fully_replicated
        ):
            return x.addressable_shards[0].data
        return x[0]

    return tree_util.tree_map(first, tree)


def prefetch_to_device(
    iterator: Iterable[Any],
    size: int,
    devices: Sequence[Any] | None = None,
    axis_name: str = "_device_put_sharded",
) -> Iterator[Any]:
    """Places the items of ``iterator`` on the devices, ``size`` items ahead.

    Args:
        iterator: yields pytrees of arrays whose leading dimension is split over the devices
            (``common_utils.shard`` makes them with one row per device).
        size: how many items to keep placed ahead (2 overlaps one step with the next load).
        devices: the devices; default ``core.local_devices()``.
        axis_name: the name of the one axis of the mesh the leaves are split over (their
            ``NamedSharding``'s, as Flax's).

    Yields:
        The items, each leaf split along its leading axis over the devices in order.

    Raises:
        ValueError: a leaf's leading dimension is not a multiple of the number of devices.
        TypeError: a leaf is a scalar (it has no leading axis to split).
    """
    sharding = core.sharding.pmap_sharding(list(devices or core.local_devices()), 0, axis_name)
    iterator = iter(iterator)
    queue: collections.deque = collections.deque()

    def put(x: Any) -> Any:
        if np.ndim(x) == 0:
            raise TypeError(f"'{type(x).__name__}' object is not iterable")
        return core.device_put(x if isinstance(x, core.Array) else np.asarray(x), sharding)

    def enqueue(n: int) -> None:
        for item in itertools.islice(iterator, n):
            queue.append(tree_util.tree_map(put, item))

    enqueue(size)
    while queue:
        yield queue.popleft()
        enqueue(1)


def pmean(xs: Any, axis_name: Any) -> Any:
    """Flax's deprecated alias of `lax.pmean` (warns).

    Args:
        xs: a pytree of arrays.
        axis_name: the mapped axis to average over.

    Returns:
        The mean over the axis.
    """
    warnings.warn(
        "use jax.lax.pmean instead (numbax: core.lax.pmean)", DeprecationWarning, stacklevel=2
    )
    return lax.pmean(xs, axis_name)


def _parse_spec(spec: Any) -> core.ShapeDtypeStruct:
    spec = tuple(spec)
    if len(spec) == 2 and isinstance(spec[0], Iterable):
        return core.ShapeDtypeStruct(tuple(spec[0]), spec[1])
    return core.ShapeDtypeStruct(spec, np.float32)


def partial_eval_by_shape(fn: Callable, input_spec: Sequence[Any], *args: Any, **kwargs: Any):
    """Runs ``fn(*inputs, *args, **kwargs)`` with abstract ``inputs`` of the given shapes.

    Args:
        fn: the function.
        input_spec: one spec per abstract input: a shape (float32) or ``(shape, dtype)``.
        *args: concrete positional arguments after the inputs.
        **kwargs: concrete keyword arguments.

    Returns:
        The outputs: values computed without the inputs are returned as they are, the others as
        `core.ShapeDtypeStruct`.
    """
    structs = [_parse_spec(spec) for spec in input_spec]
    trace = JaxprTrace(current_trace(), stage_all=False)
    inputs = [trace.new_arg(core.ShapedArray(s.shape, s.dtype)) for s in structs]
    with set_current_trace(trace):
        out = fn(*inputs, *args, **kwargs)
    leaves, treedef = tree_util.tree_flatten(out)
    leaves = [
        core.ShapeDtypeStruct(x.aval.shape, x.aval.dtype) if trace.is_own(x) else x for x in leaves
    ]
    finish(trace)
    return tree_util.tree_unflatten(treedef, leaves)


def _scan_nd(body_fn: Callable, init: Any, xs: Any, n: int, unroll: tuple) -> Any:
    """`lax.scan` over the leading `n` axes of `xs`, the first one outermost; `unroll[d]` is
    the unrolling of depth `d`'s scan."""
    # Above the innermost level, a step is itself the scan of the remaining axes.
    step = body_fn if n == 1 else functools.partial(_inner_scan, body_fn, n - 1, unroll[1:])
    return lax.scan(step, init, xs, unroll=unroll[0])


def _inner_scan(body_fn: Callable, n: int, unroll: tuple, carry: Any, x: Any) -> Any:
    return _scan_nd(body_fn, carry, x, n, unroll)


def scan_in_dim(
    body_fn: Callable,
    init: Any,
    xs: Any,
    axis: int | Sequence[int] = (0,),
    unroll: int | Sequence[int] = (1,),
    keepdims: bool = False,
) -> tuple[Any, Any]:
    """`lax.scan` over the given axes of ``xs`` (nested scans, outermost first).

    Args:
        body_fn: ``body_fn(carry, x) -> (carry, y)``.
        init: the initial carry.
        xs: a pytree of arrays scanned over ``axis``.
        axis: the scanned axis or axes.
        unroll: unroll factor(s) of the scans (missing leading ones are 1).
        keepdims: the body sees ``x`` (and returns ``y``) with the scanned axes kept, of size 1.

    Returns:
        ``(final carry, ys)``, with ``ys`` stacked along ``axis``.
    """
    axis = tuple(axis) if isinstance(axis, Iterable) else (axis,)
    unroll = tuple(unroll) if isinstance(unroll, Iterable) else (unroll,)
    unroll = (1,) * (len(axis) - len(unroll)) + unroll

    def perm(x):
        return axis + tuple(np.delete(np.arange(x.ndim), axis))

    def transpose_in(x):
        return x.transpose(perm(x))

    def transpose_out(x):
        return x.transpose(tuple(np.argsort(perm(x))))

    def body(c, x):
        if keepdims:
            x = tree_util.tree_map(
                lambda v: transpose_out(v.reshape((1,) * len(axis) + v.shape)), x
            )
        c, y = body_fn(c, x)
        if keepdims:
            y = tree_util.tree_map(transpose_in, y)
            y = tree_util.tree_map(lambda v: v.reshape(v.shape[len(axis) :]), y)
        return c, y

    c, ys = _scan_nd(body, init, tree_util.tree_map(transpose_in, xs), len(axis), unroll)
    return c, tree_util.tree_map(transpose_out, ys)


def pad_shard_unpad(
    wrapped: Callable,
    static_argnums: Sequence[int] = (0,),
    static_argnames: Sequence[str] = (),
    static_return: bool = False,
) -> Callable:
    """Wraps a pmapped function so that it accepts any batch size.

    Every non-static argument's leaves are zero-padded to a multiple of the local device
    count and reshaped to ``(devices, per_device, ...)``; the outputs are reshaped back and
    the padding cut off (unless ``static_return``).

    Args:
        wrapped: the (pmapped) function.
        static_argnums: positions of unbatched arguments (default: the first, e.g. params).
        static_argnames: names of unbatched keyword arguments.
        static_return: return the outputs as they are.

    Returns:
        The wrapper; it takes ``min_device_batch=`` to pad each device's batch to at least that
        size (fewer recompilations for a ragged last batch).

    Raises:
        BatchSizeError: the batched arguments disagree on the batch size (a `ValueError`).
    """

    def wrapper(*args, min_device_batch=None, **kw):
        d = core.local_device_count()
        sizes = set()
        for i, a in enumerate(args):
            if i not in static_argnums:
                sizes |= {t.shape[0] for t in tree_util.tree_leaves(a)}
        for k, v in kw.items():
            if k not in static_argnames:
                sizes |= {t.shape[0] for t in tree_util.tree_leaves(v)}
        if len(sizes) != 1:
            raise BatchSizeError(sizes)
        b = sizes.pop()

        # Rows per device: the batch split evenly, rounded up, and at least min_device_batch.
        per_device, leftover = divmod(b, d)
        if leftover:
            per_device += 1
        if min_device_batch and per_device < min_device_batch:
            per_device = min_device_batch

        def pad(x):
            x = np.asarray(x)
            _, *feature_shape = x.shape
            missing = d * per_device - b
            if missing:
                x = np.concatenate([x, np.zeros((missing, *feature_shape), x.dtype)], axis=0)
            return x.reshape(d, per_device, *feature_shape)

        args = [
            tree_util.tree_map(pad, a) if i not in static_argnums else a for i, a in enumerate(args)
        ]
        kw = {
            k: tree_util.tree_map(pad, v) if k not in static_argnames else v for k, v in kw.items()
        }
        out = wrapped(*args, **kw)

        def unpad(x):
            x = np.asarray(core.device_get(x))
            return x.reshape([int(np.prod(x.shape[:2])), *x.shape[2:]])[:b]

        return out if static_return else tree_util.tree_map(unpad, out)

    return wrapper
