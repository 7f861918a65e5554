"""Lifted control flow: ``nn.cond``, ``nn.switch`` and ``nn.while_loop`` on a module's variables.

The branches (or the loop's condition and body) run on clones of the module bound to scopes
over the lifted variable groups, as functions of those groups passed to ``lax.cond``,
``lax.switch`` and ``lax.while_loop``; what they write comes back as outputs. The
``branches_inner`` and ``while_loop_inner`` bodies are shared with `nn/lift.py`'s scope-level
``cond``, ``switch`` and ``while_loop``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import core.numpy as jnp
from core import lax, random
from nn import errors
from nn.module import Module
from nn.scope import CollectionFilter
from nn.transforms.module_level import (
    _run_lifted,
)
from nn.transforms.packing import (
    _Lift,
    _split_axes,
    _split_rng_groups,
)


def cond(
    pred: Any,
    true_fun: Callable[..., Any],
    false_fun: Callable[..., Any],
    mdl: Module,
    *operands: Any,
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
) -> Any:
    """``lax.cond`` with ``true_fun(mdl, *operands)`` / ``false_fun(mdl, *operands)``.

    Both branches must return the same structure and create the same variables (at
    ``init`` both run while tracing, so define variables in both or before the ``cond``).

    Args:
      pred: a boolean scalar.
      true_fun: the branch run when ``pred`` is true.
      false_fun: the branch run otherwise.
      mdl: the module whose variables and RNG streams the branches use.
      *operands: the branch arguments.
      variables: the collections lifted (default all).
      rngs: the RNG streams lifted (default all).

    Returns:
      The output of the branch taken.
    """
    return _lifted_branches(
        "cond",
        lambda fns, *ops: lax.cond(pred, fns[1], fns[0], *ops),  # Flax's lax.cond, its errors
        [false_fun, true_fun],
        mdl,
        operands,
        variables,
        rngs,
    )


def switch(
    index: Any,
    branches: Sequence[Callable[..., Any]],
    mdl: Module,
    *operands: Any,
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
) -> Any:
    """``lax.switch`` over functions ``branch(mdl, *operands)``; see :func:`cond`.

    Args:
      index: the branch number (clamped to the valid range).
      branches: the branch functions.
      mdl: the module whose variables and RNG streams the branches use.
      *operands: the branch arguments.
      variables: the collections lifted (default all).
      rngs: the RNG streams lifted (default all).

    Returns:
      The output of the selected branch.

    Raises:
      EmptyBranchesError: ``branches`` is empty.
    """
    if not branches:
        raise errors.EmptyBranchesError()
    return _lifted_branches(
        "switch",
        lambda fns, *ops: lax.switch(index, fns, *ops),
        branches,
        mdl,
        operands,
        variables,
        rngs,
    )


def _lifted_branches(
    name: str,
    select: Callable[..., Any],
    branches: Sequence[Callable[..., Any]],
    mdl: Module,
    operands: tuple,
    variables: CollectionFilter,
    rngs: CollectionFilter,
) -> Any:
    """Runs `select(branch_fns, *operands)` (a `lax.cond`/`lax.switch` call) over the
    `branches` lifted to functions of `mdl`'s variable groups and RNG keys."""
    inner = branches_inner(select, branches, operands)
    return _run_lifted(mdl, name, (variables,), (variables,), (rngs,), inner)


def branches_inner(
    select: Callable[..., Any], branches: Sequence[Callable[..., Any]], operands: tuple
) -> Callable:
    """The lifted body of `cond`/`switch` (also `nn.core.cond`'s and ``switch``'s):
    ``inner(lift, as_scope_fn) -> (y, out_groups)``, ``select(branch_fns, *operands)`` over
    the branches as functions of the lifted variable groups."""

    def inner(lift: _Lift, as_scope_fn: Callable) -> tuple[Any, Any]:
        def branch(fn: Callable) -> Callable:
            scope_fn = as_scope_fn(fn)

            def run(*ops: Any) -> Any:
                s = lift.scope_fn(lift.var_groups, lift.rng_groups)
                y = scope_fn(s, *ops)
                return y, lift.repack(s)

            return run

        return select([branch(f) for f in branches], *operands)

    return inner


def while_loop(
    cond_fn: Callable[[Module, Any], Any],
    body_fn: Callable[[Module, Any], Any],
    mdl: Module,
    init: Any,
    carry_variables: CollectionFilter = False,
    broadcast_variables: CollectionFilter = True,
    split_rngs: Mapping[CollectionFilter, bool] | None = None,
) -> Any:
    """``lax.while_loop`` with ``cond_fn(mdl, c)`` and ``body_fn(mdl, c)``.

    Variables cannot be created in the loop: call ``body_fn`` once before if needed.

    Args:
      cond_fn: the loop condition (reads variables only).
      body_fn: the loop body.
      mdl: the module whose variables and RNG streams the functions use.
      init: the initial carry.
      carry_variables: collections updated by the body and carried (default none).
      broadcast_variables: collections read by the loop (default all).
      split_rngs: ``{stream_filter: bool}``: a different key per iteration (the root key
        folded with the iteration number, as Flax) or the same.

    Returns:
      The final carry.
    """
    rng_filters, rng_splits = _split_axes(split_rngs or {})
    inner = while_loop_inner(cond_fn, body_fn, init, rng_splits)
    return _run_lifted(
        mdl,
        "while_loop",
        (carry_variables, broadcast_variables),
        (carry_variables,),
        rng_filters,
        inner,
    )


def while_loop_inner(
    cond_fn: Callable, body_fn: Callable, init: Any, rng_splits: tuple
) -> Callable:
    """The lifted body of `while_loop` (also `nn.core.while_loop`'s): ``inner(lift,
    as_scope_fn) -> (carry, out_groups)`` over groups (carry, broadcast)."""

    def inner(lift: _Lift, as_scope_fn: Callable) -> tuple[Any, Any]:
        cond_scope_fn, body_scope_fn = as_scope_fn(cond_fn), as_scope_fn(body_fn)
        bvars = lift.var_groups[1]

        def loop_rngs(i: Any) -> tuple:
            return _split_rng_groups(lift.rng_groups, rng_splits, lambda k: random.fold_in(k, i))

        def cond_wrapper(c: tuple) -> Any:
            i, cvars, carry = c
            s = lift.scope_fn((cvars, bvars), loop_rngs(-i), mutable_filter=False)
            return cond_scope_fn(s, carry)

        def body_wrapper(c: tuple) -> tuple:
            i, cvars, carry = c
            s = lift.scope_fn((cvars, bvars), loop_rngs(i))
            carry = body_scope_fn(s, carry)
            return i + 1, lift.repack(s)[0], carry

        c = (jnp.asarray(0, jnp.int32), lift.var_groups[0], init)
        _, cvars, carry = lax.while_loop(cond_wrapper, body_wrapper, c)
        return carry, (cvars,)

    return inner
