"""Microbatching (`optax.microbatching`): evaluate a function on slices of a batch in a loop
and accumulate the results, trading speed for memory.

`microbatch(fun, argnums, microbatch_size)` splits the batch axis of the chosen arguments into
`batch / microbatch_size` microbatches, runs `fun` on each inside a `lax.fori_loop` and combines
the outputs with an `Accumulator` (sum, mean, running mean or concatenation, or one per output
leaf). As in Optax, microbatch `k` takes the examples `k, k + n, k + 2n, ...` (`n` the number
of microbatches): the batch axis is split in Fortran order, which keeps every microbatch spread
over the whole batch. `micro_vmap` and `micro_grad` build on it.
"""

from __future__ import annotations

import collections
import dataclasses
import enum
import functools
from collections.abc import Callable, Sequence
from typing import Any

import core
import core.numpy as jnp
from core import lax, tree_util
from optim.errors import AccumulatorError, BatchAxisError

IndividualOutputs = collections.namedtuple("Aux", ["values", "metrics", "aux"])


@dataclasses.dataclass(frozen=True)
class Accumulator:
    """How microbatch outputs are combined.

    Attributes:
      init: `value -> carry` (from the shape of one microbatch's output).
      update: `(carry, value, index) -> carry`.
      finalize: `carry -> result`.
      aggregate: reduces a batch of per-example values (used by `micro_vmap`).
    """

    init: Callable[[Any], Any]
    update: Callable[[Any, Any, Any], Any]
    finalize: Callable[[Any], Any]
    aggregate: Callable[[Any], Any]


class AccumulationType(enum.Enum):
    """The built-in accumulators."""

    MEAN = enum.auto()
    SUM = enum.auto()
    RUNNING_MEAN = enum.auto()
    CONCAT = enum.auto()


def _floating_zeros(value: Any) -> Any:
    """The zero carry of an averaging accumulator; averages of integers are refused."""
    if not jnp.issubdtype(value.dtype, jnp.floating):
        raise AccumulatorError(
            "MEAN and RUNNING_MEAN Accumulators require floating-point values.\nGot dtypes "
            f"{[str(value.dtype)]}: cast them or use SUM."
        )
    return jnp.zeros_like(value)


def _check_count(num_microbatches: int) -> None:
    if num_microbatches <= 0:
        raise BatchAxisError(f"num_microbatches={num_microbatches} must be positive.")


def reshape_batch_axis(tree: Any, microbatch_size: int, axis: int = 0) -> Any:
    """Splits `axis` of every leaf into `(num_microbatches, microbatch_size)`, Fortran order.

    Entry `[k, j]` of the new axes is example `k + num_microbatches * j`.
    """

    def reshape_leaf(x):
        shape = jnp.shape(x)
        split = jnp.reshape(x, (*shape[:axis], microbatch_size, -1, *shape[axis + 1 :]))
        return jnp.swapaxes(split, axis, axis + 1)

    return tree_util.tree_map(reshape_leaf, tree)


def _merge_batch_axis(stacked: Any) -> Any:
    """Inverse of `reshape_batch_axis` on axis 0: `[n, m, ...]` -> `[m * n, ...]`, where row
    ``[k, j]`` becomes example ``k + n * j`` (Fortran order)."""
    rows_first = jnp.swapaxes(stacked, 0, 1)
    return jnp.reshape(rows_first, (-1, *jnp.shape(stacked)[2:]))


def _lift(acc: Accumulator) -> Accumulator:
    """Applies a leaf accumulator to every leaf of a pytree."""
    return Accumulator(
        lambda value: tree_util.tree_map(acc.init, value),
        lambda carry, value, i: tree_util.tree_map(lambda c, v: acc.update(c, v, i), carry, value),
        lambda carry: tree_util.tree_map(acc.finalize, carry),
        lambda values: tree_util.tree_map(acc.aggregate, values),
    )


def _compose(accumulators: Any) -> Accumulator:
    """One accumulator from a pytree of accumulators (one per output subtree)."""
    is_acc = lambda x: isinstance(x, Accumulator)  # noqa: E731

    def tmap(f, *trees):
        return tree_util.tree_map(f, accumulators, *trees, is_leaf=is_acc)

    return Accumulator(
        lambda values: tmap(lambda a, v: a.init(v), values),
        lambda carry, value, i: tmap(lambda a, c, v: a.update(c, v, i), carry, value),
        lambda carry: tmap(lambda a, c: a.finalize(c), carry),
        lambda values: tmap(lambda a, v: a.aggregate(v), values),
    )


def _sum() -> Accumulator:
    return _lift(
        Accumulator(
            init=jnp.zeros_like,
            update=lambda carry, value, _: carry + value,
            finalize=lambda x: x,
            aggregate=functools.partial(jnp.sum, axis=0),
        )
    )


def _mean(num_microbatches: int) -> Accumulator:
    _check_count(num_microbatches)
    return _lift(
        Accumulator(
            init=_floating_zeros,
            update=lambda carry, value, _: carry + value,
            finalize=lambda carry: carry / num_microbatches,
            aggregate=functools.partial(jnp.mean, axis=0),
        )
    )


def _running_mean() -> Accumulator:
    def update(carry, value, index):
        p = index / (index + 1)
        return carry * p + value * (1 - p)

    return _lift(
        Accumulator(
            init=_floating_zeros,
            update=update,
            finalize=lambda x: x,
            aggregate=functools.partial(jnp.mean, axis=0),
        )
    )


def _concat(num_microbatches: int) -> Accumulator:
    _check_count(num_microbatches)

    def slots(value):
        # One row per microbatch, filled in as the loop reaches it.
        return jnp.zeros((num_microbatches, *jnp.shape(value)), jnp.result_type(value))

    def fill(rows, value, index):
        return rows.at[index].set(value)

    return _lift(Accumulator(slots, fill, _merge_batch_axis, lambda x: x))


# How each built-in accumulator is made from the number of microbatches.
_BUILT_IN: dict[AccumulationType, Callable[[Any], Accumulator]] = {
    AccumulationType.MEAN: _mean,
    AccumulationType.SUM: lambda _: _sum(),
    AccumulationType.RUNNING_MEAN: lambda _: _running_mean(),
    AccumulationType.CONCAT: _concat,
}


def _canonicalize(spec: Any, num_microbatches: int | None) -> Accumulator:
    """One `Accumulator` from an `AccumulationType`, an `Accumulator` or a pytree of them."""

    def resolve(leaf):
        if isinstance(leaf, Accumulator):
            return leaf
        if isinstance(leaf, AccumulationType):
            return _BUILT_IN[leaf](num_microbatches)
        raise AccumulatorError(
            f"Unknown accumulator: {leaf!r}; use an AccumulationType or an Accumulator."
        )

    def is_spec(x):
        return isinstance(x, (Accumulator, AccumulationType))

    return _compose(tree_util.tree_map(resolve, spec, is_leaf=is_spec))


def _reshape_all_args(microbatch_size, argnums, argnames, in_axes, args, kwargs):
    new_args, new_kwargs = list(args), dict(kwargs)
    batch_args = [args[i] for i in argnums] + [kwargs[n] for n in argnames]
    batch_sizes = [
        jnp.shape(x)[ax]
        for ax, subtree in zip(in_axes, batch_args)
        for x in tree_util.tree_leaves(subtree)
    ]
    if len(set(batch_sizes)) > 1:
        raise BatchAxisError(
            f"Batch Arguments must have equal-size batch axes, found {batch_sizes}."
        )
    batch_size = batch_sizes[0]
    if batch_size % microbatch_size != 0:
        raise BatchAxisError(
            f"batch_size={batch_size} must be divisible by microbatch_size={microbatch_size}."
        )
    for i, ax in zip(argnums, in_axes):
        new_args[i] = reshape_batch_axis(args[i], microbatch_size, ax)
    for name, ax in zip(argnames, in_axes[len(argnums) :]):
        new_kwargs[name] = reshape_batch_axis(kwargs[name], microbatch_size, ax)
    return tuple(new_args), new_kwargs, batch_size


def microbatch(
    fun: Callable[..., Any],
    argnums: int | Sequence[int],
    microbatch_size: int | None,
    accumulator: Any = AccumulationType.SUM,
    *,
    argnames: str | Sequence[str] = (),
    in_axes: int | Sequence[int] = 0,
    num_real_microbatches: Any = None,
) -> Callable[..., Any]:
    """Returns `fun` evaluated microbatch by microbatch, outputs accumulated.

    Args:
      fun: the function; its batched arguments have a batch axis.
      argnums: positions of the batched arguments.
      microbatch_size: examples per microbatch (`None`: return `fun` unchanged).
      accumulator: an `AccumulationType`, an `Accumulator`, or a pytree of them matching the
        output.
      argnames: names of batched keyword arguments.
      in_axes: the batch axis of each batched argument (or one for all).
      num_real_microbatches: stop after this many microbatches (the rest is padding).

    Returns:
      A function with the signature of `fun`.

    Raises:
      BatchAxisError: if batch sizes differ or are not divisible by `microbatch_size` (a
        `ValueError`).
    """
    if microbatch_size is None:
        return fun
    argnums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    argnames = (argnames,) if isinstance(argnames, str) else tuple(argnames)
    if isinstance(in_axes, int):
        in_axes = (in_axes,) * (len(argnums) + len(argnames))

    def microbatched_fun(*args, **kwargs):
        args, kwargs, batch_size = _reshape_all_args(
            microbatch_size, argnums, argnames, in_axes, args, kwargs
        )
        num_microbatches = batch_size // microbatch_size
        acc = _canonicalize(accumulator, num_microbatches)

        def f(index):
            input_args, input_kwargs = list(args), dict(kwargs)
            take = lambda ax: lambda x: jnp.take(x, index, axis=ax)  # noqa: E731
            for i, ax in zip(argnums, in_axes):
                input_args[i] = tree_util.tree_map(take(ax), input_args[i])
            for name, ax in zip(argnames, in_axes[len(argnums) :]):
                input_kwargs[name] = tree_util.tree_map(take(ax), input_kwargs[name])
            return fun(*input_args, **input_kwargs)

        def body_fun(index, carry):
            return acc.update(carry, f(index), index)

        bound = num_microbatches if num_real_microbatches is None else num_real_microbatches
        shapes = core.eval_shape(f, jnp.asarray(0, jnp.int32))
        init = acc.init(tree_util.tree_map(lambda s: jnp.zeros(s.shape, s.dtype), shapes))
        return acc.finalize(lax.fori_loop(0, bound, body_fun, init))

    return microbatched_fun


def micro_vmap(
    fun: Callable[..., Any],
    in_axes: int | Sequence[int | None] = 0,
    out_axes: Any = 0,
    *,
    microbatch_size: int | None = None,
    vmap_fn: Callable[..., Any] = core.vmap,
    accumulator: Any = AccumulationType.CONCAT,
    num_real_microbatches: Any = None,
) -> Callable[..., Any]:
    """`vmap(fun)` evaluated `microbatch_size` examples at a time; outputs are concatenated
    (or accumulated with `accumulator`).

    Args:
      fun: the per-example function.
      in_axes: the batch axis of each positional argument (None: not batched); keyword
        arguments are batched on axis 0.
      out_axes: must be 0.
      microbatch_size: examples per microbatch (None: one `vmap` over the whole batch).
      vmap_fn: the vectorizing transformation.
      accumulator: how each microbatch's vectorized output is combined with the others'.
      num_real_microbatches: stop after this many microbatches.

    Returns:
      A function with `fun`'s arguments, batched.

    Raises:
      NotImplementedError: for `out_axes != 0` (as in Optax).
    """
    if out_axes != 0:
        raise NotImplementedError("out_axis != 0 is not currently supported")
    axes = (in_axes,) if isinstance(in_axes, int) else in_axes
    batched = [(position, ax) for position, ax in enumerate(axes) if ax is not None]

    def one_microbatch(*args, kwargs):
        # A vectorized pass over the microbatch, reduced with the accumulator's `aggregate`.
        outputs = vmap_fn(fun, axes, out_axes)(*args, **kwargs)
        count = jnp.shape(tree_util.tree_leaves(outputs)[0])[0]
        return _canonicalize(accumulator, count).aggregate(outputs)

    looped = microbatch(
        one_microbatch,
        argnums=tuple(position for position, _ in batched),
        argnames="kwargs",
        microbatch_size=microbatch_size,
        accumulator=accumulator,
        in_axes=(*(ax for _, ax in batched), 0),
        num_real_microbatches=num_real_microbatches,
    )

    def micro_vmapped(*args, **kwargs):
        return looped(*args, kwargs=kwargs)

    return micro_vmapped


def micro_grad(
    fun: Callable[..., Any],
    has_aux: bool = False,
    argnums: int | Sequence[int] = 0,
    *,
    batch_argnums: int | Sequence[int] = 1,
    keep_batch_dim: bool = True,
    microbatch_size: int | None = None,
    accumulator: Any = AccumulationType.SUM,
    transform_fn: Callable[[Any], Any] = lambda x: x,
    metrics_fn: Callable[[Any], Any] = lambda x: None,
    num_real_microbatches: Any = None,
) -> Callable[..., Any]:
    """Per-example gradients, transformed (e.g. clipped) by `transform_fn` and accumulated.

    Returns:
      A function returning `(accumulated_gradients, Aux(values, metrics, aux))`, the last
      three concatenated over the batch.
    """
    batch_argnums = (batch_argnums,) if isinstance(batch_argnums, int) else tuple(batch_argnums)
    if not has_aux:
        fun_ = fun
        fun = lambda *a, **k: (fun_(*a, **k), None)  # noqa: E731
    value_and_grad_fn = core.value_and_grad(fun, argnums, has_aux=True)

    def grad_fn(*args, **kwargs):
        (value, aux), grad = value_and_grad_fn(*args, **kwargs)
        return transform_fn(grad), IndividualOutputs(
            values=value, metrics=metrics_fn(grad), aux=aux
        )

    in_axes = [None] * (max(batch_argnums) + 1)
    for i in batch_argnums:
        in_axes[i] = 0
    micro_fun = micro_vmap(
        grad_fn,
        in_axes=in_axes,
        accumulator=(accumulator, AccumulationType.CONCAT),
        microbatch_size=microbatch_size,
        num_real_microbatches=num_real_microbatches,
    )
    if not keep_batch_dim:
        return micro_fun

    def with_batch_axis(*args, **kwargs):
        args = list(args)
        for i in batch_argnums:
            args[i] = tree_util.tree_map(lambda x: jnp.expand_dims(x, 1), args[i])
        return micro_fun(*args, **kwargs)

    return with_batch_axis


__all__ = [
    "AccumulationType",
    "Accumulator",
    "micro_grad",
    "micro_vmap",
    "microbatch",
    "reshape_batch_axis",
]
