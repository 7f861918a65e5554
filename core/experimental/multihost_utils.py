"""`core.experimental.multihost_utils`: moving values between the processes of a
`core.distributed` job outside `pmap` (`jax.experimental.multihost_utils`).

Each function is collective: every process must call it, in the same order. In a single
process (no `core.distributed.initialize()`) they act on that one process alone.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import tree_util
from core.devices import process_count, process_index
from core.distributed import process_group, wait_for_all
from core.errors import NumbaxError
from core.numpy import asarray

__all__ = ["assert_equal", "broadcast_one_to_all", "process_allgather", "sync_global_devices"]


class MultihostError(NumbaxError, ValueError):
    """Processes that disagree where they must agree (the source, a barrier name, values).

    Failing code: ``sync_global_devices(f"step {i}")`` with a different ``i`` in each process,
    or ``broadcast_one_to_all(x, is_source=True)`` in every process. Fix: the same barrier
    names in the same order everywhere, and exactly one source process.
    """


def _allgather(value: Any) -> list[Any]:
    if process_count() == 1:
        return [value]
    wait_for_all()  # sleeping: MPICH's blocking allgather would spin while it waits
    return process_group().allgather(value)


def process_allgather(in_tree: Any, tiled: bool = False) -> Any:
    """Every process's value of each leaf of `in_tree`, gathered on every process.

    Args:
      in_tree: a pytree of arrays (this process's values; the same structure everywhere).
      tiled: False stacks the processes' values along a new leading axis; True concatenates
        them along axis 0.

    Returns:
      The pytree of numpy arrays holding all processes' values, in process order.
    """
    leaves, tree = tree_util.tree_flatten(in_tree)
    gathered = _allgather([np.asarray(x) for x in leaves])
    join = np.concatenate if tiled else np.stack
    outs = [
        join([np.atleast_1d(p[i]) if tiled else p[i] for p in gathered]) for i in range(len(leaves))
    ]
    return tree_util.tree_unflatten(tree, outs)


def broadcast_one_to_all(in_tree: Any, is_source: bool | None = None) -> Any:
    """The source process's `in_tree` on every process.

    Args:
      in_tree: a pytree of arrays; only the source's values matter, but every process passes
        one of the same structure.
      is_source: whether this process is the source (default: process 0 is); exactly one
        process may be.

    Returns:
      The source's pytree, as numpy arrays (as JAX's: with one process the leaves as given,
      dtypes kept; with several, each leaf in JAX's canonical dtype, as JAX's jitted psum
      gives it).

    Raises:
      MultihostError: when not exactly one process is the source.
    """
    source = process_index() == 0 if is_source is None else bool(is_source)
    flags = _allgather(source)
    if sum(flags) != 1:
        raise MultihostError(
            f"broadcast_one_to_all: exactly one process must be the source, got processes "
            f"{[i for i, f in enumerate(flags) if f]}; pass is_source=True on one process only."
        )
    root = flags.index(True)
    leaves, tree = tree_util.tree_flatten(in_tree)
    values = [np.asarray(x) for x in leaves]
    if process_count() > 1:  # everyone arrived at `_allgather` above: no long wait here
        values = process_group().bcast(values, root=root)
        values = [np.asarray(asarray(v)) for v in values]
    return tree_util.tree_unflatten(tree, values)


def sync_global_devices(name: str) -> None:
    """Waits until every process reaches the barrier called `name`.

    Raises:
      MultihostError: when the processes arrive at barriers of different names (their
        programs have diverged).
    """
    names = _allgather(str(name))
    if len(set(names)) != 1:
        raise MultihostError(
            f"sync_global_devices: the processes reached different barriers: {names}; every "
            "process must call the same barriers in the same order."
        )


def assert_equal(in_tree: Any, fail_message: str = "") -> None:
    """Raises `MultihostError` unless every process passes equal values (and structure)."""
    leaves, tree = tree_util.tree_flatten(in_tree)
    gathered = _allgather((str(tree), [np.asarray(x) for x in leaves]))
    first_tree, first = gathered[0]
    for p, (t, values) in enumerate(gathered):
        same = t == first_tree and all(
            a.shape == b.shape and np.array_equal(a, b) for a, b in zip(values, first)
        )
        if not same:
            raise MultihostError(
                f"{fail_message} Process {p}'s values differ from process 0's.".strip()
            )
