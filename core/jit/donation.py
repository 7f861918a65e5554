"""Donated arguments of `jit` and `pmap`, as JAX deletes them on the CPU.

`jit(f, donate_argnums=..., donate_argnames=...)` lets the compiled call reuse the buffers of
those arguments for its results, so JAX deletes each donated array that an output can take
(matched as XLA's aliasing does: an output of the same shape and dtype, else one of as many
elements) and warns "Some donated buffers were not usable" for the others, which stay alive.
numbax's kernels allocate their outputs, so nothing is reused, but the arrays are deleted all
the same: a program that reads a donated array after the call fails here as it fails in JAX
(`DeletedArrayError`, JAX's "Array has been deleted"). numpy arrays and Python scalars are
copied into the call and never deleted. An asynchronous call's donated inputs are deleted when
it has read them (its task ends); a donated input the call returns unchanged is deleted and
the output is a new array of the same value, as in JAX; an output that is a non-donated input
returned unchanged takes no donated buffer. An array passed twice, once donated, fails the
call as in JAX (`JaxRuntimeError`, XLA's "Toy example for this bug: `f(donate(a), a)`").

`pmap(f, donate_argnums=...)` does the same per device (`delete_donated_shards`): a donated
array already laid out over the pmap's devices along its mapped axis (a pmap output,
`device_put_replicated`, Flax's `replicate`) is deleted when an output of the same per-device
shape and dtype takes it (XLA matches a pmap's buffers by shape only); arrays the call copies
onto the devices (numpy arrays, one-device arrays) are not.

Both first prune, as JAX does, the arguments the traced program never reads (after dead code
is dropped; `unused_leaves`): such a donated argument is neither deleted nor warned about,
unless `jit(..., keep_unused=True)`.
"""

from __future__ import annotations

import collections
import warnings
from typing import Any

from core import ir, tree_util
from core.array import Array
from core.avals import interned
from core.errors import JaxRuntimeError
from core.prng_key import PRNGKeyArray
from core.ref import Ref
from core.sharding import is_pmap_layout
from core.trace import get_aval

_URL = "https://docs.jax.dev/en/latest/faq.html#buffer-donation"


def usable(donated: list, outputs: list, by_size: bool = True) -> list[int]:
    """Which of the donated avals an output can take, by XLA's rules (JAX's `_set_up_aliases`):
    first an output of equal shape and dtype, in order, then (`by_size`) one of as many
    elements; warns as JAX does for the rest (its callers ask once per compiled program).

    Args:
      donated: the donated leaves' avals, in argument order.
      outputs: the outputs' avals.
      by_size: whether an output of another shape with as many elements takes one (jit's
        buffers; a pmap's are matched by shape only).

    Returns:
      The indices (into `donated`) of the donated leaves an output takes.
    """
    waiting = collections.defaultdict(collections.deque)
    for i, aval in enumerate(donated):
        waiting[(aval.shape, aval.dtype)].append(i)
    taken, left_outputs = set(), []
    for aval in outputs:
        queue = waiting.get((aval.shape, aval.dtype))
        if queue:
            taken.add(queue.popleft())
        else:
            left_outputs.append(aval)
    sizes = collections.defaultdict(int)
    for aval in left_outputs if by_size else ():
        sizes[aval.size] += 1
    for i, aval in enumerate(donated):
        if i not in taken and sizes[aval.size] > 0:
            sizes[aval.size] -= 1
            taken.add(i)
    unusable = [a.str_short(short_dtypes=False) for i, a in enumerate(donated) if i not in taken]
    if unusable:
        warnings.warn(
            f"Some donated buffers were not usable: {', '.join(unusable)}.\n"
            f"See an explanation at {_URL}.",
            UserWarning,
            stacklevel=4,
        )
    return sorted(taken)


def unused_leaves(jaxpr: ir.Jaxpr, first: int, last: int = 0) -> frozenset[int]:
    """The argument leaves a (dead-code-free) traced program never reads.

    Args:
      jaxpr: the program; its inputs are `first` constants, the argument leaves, then `last`
        others (a `jit`'s closed-over Refs).
      first, last: how many inputs come before and after the argument leaves.

    Returns:
      The indices (among the argument leaves) of the unread ones.
    """
    read = {x for eqn in jaxpr.eqns for x in eqn.inputs if isinstance(x, ir.Var)}
    read.update(x for x in jaxpr.outvars if isinstance(x, ir.Var))
    leaves = jaxpr.invars[first : len(jaxpr.invars) - last]
    return frozenset(i for i, v in enumerate(leaves) if v not in read)


def _dynamic_leaves(
    args: tuple, kwargs: dict, positions: tuple, names: frozenset, statics: frozenset
) -> tuple[list, set[int]]:
    """The leaves of a call's dynamic arguments, flattened as JAX numbers them in its errors
    (positional arguments, then keyword arguments by name), and the indices of the donated."""
    leaves, donated = [], set()
    n = len(args)
    for key, arg in [*enumerate(args), *sorted(kwargs.items())]:
        negative = key - n if isinstance(key, int) else key  # argnums may count from the end
        if key in statics or negative in statics:
            continue
        found = tree_util.tree_leaves(arg)
        if key in positions or negative in positions or key in names:
            donated.update(range(len(leaves), len(leaves) + len(found)))
        leaves += found
    return leaves, donated


def _check_reuse(leaves: list, taken: tuple[int, ...]) -> None:
    """Raises XLA's error for an array passed twice to one call, once or twice as a buffer an
    output takes (`taken`): the call would read a buffer it overwrites, or give one buffer to two
    outputs."""
    if len({id(x) for x in leaves}) == len(leaves):
        return  # the common case, checked at C speed: every leaf passed once
    first: dict[int, int] = {}
    for i, x in enumerate(leaves):
        if not isinstance(x, Array):
            continue  # numpy arrays and scalars are copied into the call
        j = first.setdefault(id(x), i)
        if j == i:
            continue
        if i in taken and j in taken:
            what, toy = "donate the same buffer twice in", "f(donate(a), donate(a))"
        elif i in taken:
            what, toy = "donate a buffer which is also used by the same call to", "f(a, donate(a))"
        elif j in taken:
            what = "use a buffer that was previously donated in the same call to"
            toy = "f(donate(a), a)"
        else:
            continue
        raise JaxRuntimeError(
            f"INVALID_ARGUMENT: Attempt to {what} Execute() (flattened argument {i}, replica 0, "
            f"partition 0, first use: {j}). Toy example for this bug: `{toy}`."
        )


def _delete(doomed: list, out: Any, outs: list) -> Any:
    """Deletes the arrays `doomed` once the call that returned `out` (leaves `outs`) has read
    them; returns `out` with a new array for each doomed one it returns unchanged (JAX's output
    then owns the buffer)."""
    if not doomed:
        return out
    ids = {id(x) for x in doomed}
    if any(id(o) in ids for o in outs):
        out = tree_util.tree_map(lambda o: _fresh(o) if id(o) in ids else o, out)
        outs = tree_util.tree_leaves(out)
    pending = [
        o for o in outs if type(o) is not Array and isinstance(o, Array) and not o.is_ready()
    ]
    if pending:  # the running call reads them: delete them once it has ended
        pending[0]._pending.then(lambda: [x.delete() for x in doomed])
    else:
        for x in doomed:
            x.delete()
    return out


def _fresh(x: Array) -> Array:
    """A new array of `x`'s value and placement (`x` is about to be deleted)."""
    x.block_until_ready()
    sharding = getattr(x, "_sharding", None)
    if sharding is None:
        return Array(x._value, aval=x._aval)
    return Array._placed(x._value, x._aval, sharding)


def delete_donated(
    positions: tuple,
    names: frozenset,
    args: tuple,
    kwargs: dict,
    out: Any,
    statics: frozenset,
    unused: frozenset,
    memo: dict,
) -> Any:
    """Deletes the donated arrays of a `jit` call's arguments that an output can take (see the
    module docstring).

    Args:
      positions: the donated positional arguments' indices.
      names: the donated keyword arguments' names.
      args, kwargs: the call's arguments.
      out: its outputs (a pytree; pending arrays if the call is running).
      statics: the static arguments' indices and names (not counted in the flattened order).
      unused: the dynamic leaves the program never reads (pruned: not donated).
      memo: the program's earlier answers (its trace cache entry's `donations`): which
        leaves outputs take depends only on the leaves' and outputs' avals, the entry's own.

    Returns:
      `out`, with a new array for a donated one it returns unchanged.

    Raises:
      JaxRuntimeError: an array passed twice, once as a buffer an output takes.
    """
    leaves, donated = _dynamic_leaves(args, kwargs, positions, names, statics)
    if unused and not any(type(x) is Ref for x in leaves):  # Ref leaves are not the program's
        donated -= unused
    if not donated:
        return out
    inputs = {id(x) for i, x in enumerate(leaves) if i not in donated}
    outs = tree_util.tree_leaves(out)
    fresh = tuple([k for k, o in enumerate(outs) if id(o) not in inputs])  # a forwarded input
    order = tuple(sorted(donated))  # takes no buffer
    taken = memo.get((order, fresh))
    if taken is None:
        picked = usable([get_aval(leaves[i]) for i in order], [get_aval(outs[k]) for k in fresh])
        taken = memo[(order, fresh)] = tuple(order[k] for k in picked)
    _check_reuse(leaves, taken)
    doomed = [leaves[i] for i in taken if isinstance(leaves[i], (Array, PRNGKeyArray))]
    return _delete(doomed, out, outs)


def delete_donated_shards(
    positions: tuple,
    args: tuple,
    statics: tuple,
    leaves: list,
    axes: list,
    out_avals: list,
    out_axes: list,
    devices: list,
    unused: frozenset,
    memo: dict,
) -> None:
    """Deletes the donated arrays of a `pmap` call that an output can take on every device
    (see the module docstring).

    Args:
      positions: `donate_argnums` (indices into all positional arguments).
      args: the call's positional arguments (static ones included).
      statics: `static_broadcasted_argnums`.
      leaves: the call's dynamic argument leaves (positional, then keyword), as pmap flattens
        them.
      axes: each leaf's mapped axis (None: broadcast to every device).
      out_avals: the per-device program's output avals.
      out_axes: each output's stacking axis (None: one value for every device).
      devices: the devices the call ran on.
      unused: the leaves the program never reads (pruned: not donated).
      memo: the program's answers to `usable`.

    Raises:
      JaxRuntimeError: an array passed twice, once as a buffer an output takes.
    """
    _, donated = _dynamic_leaves(args, {}, positions, frozenset(), frozenset(statics))
    donated -= unused
    if not donated:
        return
    order = tuple(sorted(donated))
    taken = memo.get(order)  # the program's avals and axes are its entry's own
    if taken is None:
        per_device = [_shard_aval(get_aval(leaves[i]), axes[i]) for i in order]
        outs = [
            interned((1, *a.shape), a.dtype, a.weak_type) if ax is not None else a
            for a, ax in zip(out_avals, out_axes)
        ]
        picked = usable(per_device, outs, by_size=False)
        taken = memo[order] = tuple(order[k] for k in picked)
    _check_reuse(leaves, taken)
    for i in taken:  # pmap's outputs are new arrays; a running call holds its inputs
        if axes[i] is not None and is_pmap_layout(
            getattr(leaves[i], "_sharding", None), devices, axes[i]
        ):
            leaves[i].delete()


def _shard_aval(aval: Any, axis: int | None) -> Any:
    """A device's buffer of an argument mapped along `axis`, as XLA sees it: the axis kept,
    of size 1, in front."""
    if axis is None:
        return aval
    shape = (1, *aval.shape[:axis], *aval.shape[axis + 1 :])
    return interned(shape, aval.dtype, aval.weak_type)
