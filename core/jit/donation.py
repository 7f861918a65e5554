"""Donated arguments of `jit`, as JAX deletes them on the CPU.

`jit(f, donate_argnums=..., donate_argnames=...)` lets the compiled call reuse the buffers of
those arguments for its results, so JAX deletes each donated array that an output can take
(matched as XLA's aliasing does: an output of the same shape and dtype, else one of as many
elements) and warns "Some donated buffers were not usable" for the others, which stay alive.
numbax's kernels allocate their outputs, so nothing is reused, but the arrays are deleted all
the same: a program that reads a donated array after the call fails here as it fails in JAX
(`DeletedArrayError`, JAX's "Array has been deleted"). numpy arrays and Python scalars are
copied into the call and never deleted. An asynchronous call's donated inputs are deleted when
it has read them (its task ends); a donated input the call returns unchanged is not deleted.
"""

from __future__ import annotations

import collections
import warnings
from typing import Any

from core import tree_util
from core.array import Array
from core.trace import get_aval

_MATCHES: dict = {}  # (donated avals, output avals) -> indices of the usable donated leaves
_URL = "https://docs.jax.dev/en/latest/faq.html#buffer-donation"


def usable(donated: list, outputs: list) -> list[int]:
    """Which of the donated avals an output can take, by XLA's rules (JAX's `_set_up_aliases`):
    first an output of equal shape and dtype, in order, then one of as many elements; warns as
    JAX does for the rest.

    Args:
      donated: the donated leaves' avals, in argument order.
      outputs: the outputs' avals.

    Returns:
      The indices (into `donated`) of the donated leaves an output takes.
    """
    key = (tuple((a.shape, a.dtype) for a in donated), tuple((a.shape, a.dtype) for a in outputs))
    found = _MATCHES.get(key)
    if found is not None:
        return found
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
    for aval in left_outputs:
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
    found = _MATCHES[key] = sorted(taken)
    return found


def delete_donated(positions: tuple, names: frozenset, args: tuple, kwargs: dict, out: Any) -> None:
    """Deletes the donated arrays of a call's arguments that an output can take (see the
    module docstring).

    Args:
      positions: the donated positional arguments' indices.
      names: the donated keyword arguments' names.
      args, kwargs: the call's arguments.
      out: its outputs (a pytree; pending arrays if the call is running).
    """
    leaves = []
    for i, a in enumerate(args):
        if i in positions:
            leaves += tree_util.tree_leaves(a)
    for k, v in kwargs.items():
        if k in names:
            leaves += tree_util.tree_leaves(v)
    if not leaves:
        return
    outs = tree_util.tree_leaves(out)
    avals = [get_aval(x) for x in leaves]
    chosen = [leaves[i] for i in usable(avals, [get_aval(o) for o in outs])]
    returned = {id(o) for o in outs}
    doomed = [x for x in chosen if isinstance(x, Array) and id(x) not in returned]
    pending = [o for o in outs if isinstance(o, Array) and not o.is_ready()]
    if pending:  # the running call reads them: delete them once it has ended
        pending[0]._pending.then(lambda: [x.delete() for x in doomed])
    else:
        for x in doomed:
            x.delete()
