"""``flax.core.lift``'s transforms over functions of a scope (``fn(scope, *args)``).

They are the scope-level halves of ``nn.vmap``/``nn.scan``/``nn.jit``/``nn.remat``
and of ``nn.cond``/``nn.switch``/``nn.while_loop``/``nn.vjp``/``nn.jvp`` (`nn/transforms/`
lifts modules through the same ``lift_*`` functions and ``*_inner`` bodies), wrapped to Flax's
functional signature: the first argument is a scope (or a pytree of scopes), and the wrapped
function receives the inner scope(s) in the same structure.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import core
from core import tree_util
from nn import partial_eval, transforms
from nn import scope as scope_lib
from nn.scope import CollectionFilter, LazyRng, Scope
from nn.transforms.packing import _Lift, _split_axes, broadcast

__all__ = [
    "broadcast",
    "checkpoint",
    "cond",
    "custom_vjp",
    "jit",
    "jvp",
    "lazy_init",
    "map_variables",
    "remat",
    "remat_scan",
    "scan",
    "switch",
    "vjp",
    "vmap",
    "while_loop",
]


def _is_scope(x: Any) -> bool:
    return isinstance(x, Scope)


def _wrap(lift: Callable[[Callable], Callable], fn: Callable) -> Callable:
    """``lift`` works on lists of scopes; give ``fn`` (and take from the caller) a scope tree."""

    def wrapper(scope_tree: Any, *args: Any, **kwargs: Any) -> Any:
        scopes, treedef = tree_util.tree_flatten(scope_tree, is_leaf=_is_scope)

        def inner(inner_scopes, *a, **k):
            return fn(tree_util.tree_unflatten(treedef, list(inner_scopes)), *a, **k)

        return lift(inner)(scopes, *args, **kwargs)

    return wrapper


def vmap(
    fn: Callable[..., Any],
    variable_axes: Mapping[CollectionFilter, int | None],
    split_rngs: Mapping[CollectionFilter, bool],
    in_axes: Any = 0,
    out_axes: Any = 0,
    axis_size: int | None = None,
    axis_name: str | None = None,
    spmd_axis_name: str | None = None,
    metadata_params: Mapping[Any, Any] | None = None,
) -> Callable[..., Any]:
    """``core.vmap`` of ``fn(scope, *args)`` with variables and RNGs lifted.

    Args:
      fn: a function of a scope.
      variable_axes: collection filter -> the axis its variables are mapped over (None: shared).
      split_rngs: stream filter -> whether each mapped call gets its own key.
      in_axes: `core.vmap`'s in_axes of the arguments after the scope.
      out_axes: the outputs' axes.
      axis_size: the size when no argument is mapped.
      axis_name: the name for collectives.
      spmd_axis_name: accepted for Flax compatibility.
      metadata_params: passed to the axis-metadata boxes.

    Returns:
      ``wrapper(scope, *args)``.
    """
    del spmd_axis_name
    return _wrap(
        lambda f: transforms.lift_vmap(
            f, variable_axes, split_rngs, in_axes, out_axes, axis_size, axis_name, metadata_params
        ),
        fn,
    )


def scan(
    fn: Callable[..., Any],
    variable_axes: Mapping[CollectionFilter, int] | None = None,
    variable_broadcast: CollectionFilter = False,
    variable_carry: CollectionFilter = False,
    split_rngs: Mapping[CollectionFilter, bool] | None = None,
    in_axes: Any = 0,
    out_axes: Any = 0,
    length: int | None = None,
    reverse: bool = False,
    unroll: int = 1,
    metadata_params: Mapping[Any, Any] | None = None,
) -> Callable[..., Any]:
    """``lax.scan`` of ``fn(scope, carry, *xs) -> (carry, ys)`` with variables and RNGs lifted.

    Args:
      fn: the step function of a scope.
      variable_axes: collection filter -> axis of per-step variables.
      variable_broadcast: collections shared by every step (read-only).
      variable_carry: collections carried from step to step.
      split_rngs: stream filter -> whether each step gets its own key.
      in_axes: the scanned axis of each argument (or ``broadcast``).
      out_axes: the stacking axis of the outputs.
      length: the number of steps when no argument is scanned.
      reverse: scan from the end.
      unroll: `lax.scan`'s unroll.
      metadata_params: passed to the axis-metadata boxes.

    Returns:
      ``wrapper(scope, carry, *xs) -> (carry, ys)``.
    """
    return _wrap(
        lambda f: transforms.lift_scan(
            f,
            variable_axes,
            variable_broadcast,
            variable_carry,
            split_rngs,
            in_axes,
            out_axes,
            length,
            reverse,
            unroll,
            metadata_params,
        ),
        fn,
    )


def jit(
    fn: Callable[..., Any],
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
    static_argnums: int | Sequence[int] = (),
    static_argnames: str | Sequence[str] = (),
    donate_argnums: int | Sequence[int] = (),
    device: Any = None,
    backend: str | None = None,
) -> Callable[..., Any]:
    """``core.jit`` of ``fn(scope, hash_key, *args)``, as Flax's: the second argument is a
    hashable static value (Flax passes the module's fingerprint) that tells traces apart.

    Args:
      fn: a function of a scope and a hashable key.
      variables: the collections lifted.
      rngs: the RNG streams lifted.
      static_argnums: compile-time constant arguments (counting the scope as 0).
      static_argnames: compile-time constant keyword arguments.
      donate_argnums: accepted for Flax compatibility.
      device: accepted for Flax compatibility.
      backend: accepted for Flax compatibility.

    Returns:
      ``wrapper(scope, hash_key, *args)``.
    """
    del donate_argnums, device, backend

    def body(scopes, static, *args, **kwargs):
        hash_key, treedef = static
        return fn(tree_util.tree_unflatten(treedef, list(scopes)), hash_key, *args, **kwargs)

    lifted = transforms.lift_jit(body, variables, rngs, static_argnums, static_argnames)

    def wrapper(scope_tree: Any, hash_key: Any, *args: Any, **kwargs: Any) -> Any:
        scopes, treedef = tree_util.tree_flatten(scope_tree, is_leaf=_is_scope)
        # Flax's lift.jit hands the streams in with their static suffixes dropped.
        saved = [s.rngs for s in scopes]
        for s in scopes:
            s.rngs = {name: LazyRng(lazy.rng) for name, lazy in s.rngs.items()}
        try:
            return lifted(scopes, (hash_key, treedef), *args, **kwargs)
        finally:
            for s, rngs in zip(scopes, saved):
                s.rngs = rngs

    return wrapper


def checkpoint(
    fn: Callable[..., Any],
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
    concrete: bool = False,
    prevent_cse: bool = True,
    static_argnums: int | Sequence[int] = (),
    policy: Callable[..., bool] | None = None,
) -> Callable[..., Any]:
    """``core.checkpoint`` (rematerialisation) of ``fn(scope, *args)``.

    Args:
      fn: a function of a scope.
      variables: the collections lifted.
      rngs: the RNG streams lifted.
      concrete: accepted for Flax compatibility.
      prevent_cse: `core.checkpoint`'s prevent_cse.
      static_argnums: arguments that are not traced (counting the scope as 0).
      policy: which intermediates to save.

    Returns:
      ``wrapper(scope, *args)``.
    """
    del concrete
    return _wrap(
        lambda f: transforms.lift_checkpoint(
            f, variables, rngs, prevent_cse, static_argnums, policy
        ),
        fn,
    )


remat = checkpoint


def _run(scope_tree: Any, in_filters, out_filters, rng_filters, inner: Callable) -> Any:
    """Lifts the scopes of ``scope_tree`` and runs a ``*_inner`` body of `nn.transforms`."""
    scopes, treedef = tree_util.tree_flatten(scope_tree, is_leaf=_is_scope)
    lift = _Lift(scopes, in_filters, out_filters, rng_filters)

    def as_scope_fn(fn: Callable) -> Callable:
        return lambda inner_scopes, *a: fn(
            tree_util.tree_unflatten(treedef, list(inner_scopes)), *a
        )

    y, out_groups = inner(lift, as_scope_fn)
    lift.publish(out_groups)
    return y


def _identity(x: Any) -> Any:
    return x


def map_variables(
    fn: Callable[..., Any],
    mapped_collections: CollectionFilter,
    map_in_fn: Callable[[Any], Any] = _identity,
    map_out_fn: Callable[[Any], Any] = _identity,
    init: bool = False,
    mutable: bool = False,
    rngs: CollectionFilter = True,
    variables: CollectionFilter = True,
) -> Callable[..., Any]:
    """``fn(scope, *args)`` seeing the ``mapped_collections`` through ``map_in_fn`` (and
    writing them back through ``map_out_fn``): tied weights, weight standardization...

    Args:
      fn: a function of a scope.
      mapped_collections: the collections mapped.
      map_in_fn: applied to each mapped collection's variables before ``fn`` reads them.
      map_out_fn: applied to what ``fn`` writes (and creates) before it is stored.
      init: create the mapped variables when they do not exist (``fn`` runs once more).
      mutable: the mapped collections may be written.
      rngs: the RNG streams lifted.
      variables: the collections lifted.

    Returns:
      ``wrapper(scope, *args, **kwargs)``.
    """
    return _wrap(
        lambda f: transforms.lift_map_variables(
            f, mapped_collections, map_in_fn, map_out_fn, init, mutable, rngs, variables
        ),
        fn,
    )


def cond(
    pred: Any,
    true_fun: Callable[..., Any],
    false_fun: Callable[..., Any],
    scope: Any,
    *operands: Any,
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
) -> Any:
    """``lax.cond`` of ``true_fun(scope, *operands)`` / ``false_fun(scope, *operands)``, with
    the variables they read and write lifted (both branches must make the same variables).

    Args:
      pred: a boolean scalar.
      true_fun: the branch run when ``pred`` is true.
      false_fun: the branch run otherwise.
      scope: the scope (or scope tree) the branches use.
      *operands: the branch arguments.
      variables: the collections lifted (default all).
      rngs: the RNG streams lifted (default all).

    Returns:
      The output of the branch taken.
    """

    def select(fns: list, *ops: Any) -> Any:
        return core.lax.cond(pred, fns[0], fns[1], *ops)

    inner = transforms.branches_inner(select, [true_fun, false_fun], operands)
    return _run(scope, (variables,), (variables,), (rngs,), inner)


def switch(
    index: Any,
    branches: Sequence[Callable[..., Any]],
    scope: Any,
    *operands: Any,
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
) -> Any:
    """``lax.switch`` over ``branch(scope, *operands)`` functions; see :func:`cond`.

    Args:
      index: the branch number (clamped to the valid range).
      branches: the branch functions.
      scope: the scope (or scope tree) the branches use.
      *operands: the branch arguments.
      variables: the collections lifted (default all).
      rngs: the RNG streams lifted (default all).

    Returns:
      The output of the selected branch.
    """

    def select(fns: list, *ops: Any) -> Any:
        return core.lax.switch(index, fns, *ops)

    inner = transforms.branches_inner(select, list(branches), operands)
    return _run(scope, (variables,), (variables,), (rngs,), inner)


def while_loop(
    cond_fn: Callable[[Any, Any], Any],
    body_fn: Callable[[Any, Any], Any],
    scope: Any,
    init: Any,
    carry_variables: CollectionFilter = False,
    broadcast_variables: CollectionFilter = True,
    split_rngs: Mapping[CollectionFilter, bool] | None = None,
) -> Any:
    """``lax.while_loop`` of ``cond_fn(scope, c)`` and ``body_fn(scope, c)``.

    Args:
      cond_fn: the loop condition (reads variables only).
      body_fn: the loop body.
      scope: the scope (or scope tree) the functions use.
      init: the initial carry.
      carry_variables: collections updated by the body and carried.
      broadcast_variables: collections read by the loop.
      split_rngs: stream filter -> a different key per iteration.

    Returns:
      The final carry.
    """
    rng_filters, rng_splits = _split_axes(split_rngs or {})
    inner = transforms.while_loop_inner(cond_fn, body_fn, init, rng_splits)
    return _run(
        scope, (carry_variables, broadcast_variables), (carry_variables,), rng_filters, inner
    )


def vjp(
    fn: Callable[..., Any],
    scope: Scope,
    *primals: Any,
    has_aux: bool = False,
    reduce_axes: tuple = (),
    vjp_variables: CollectionFilter = "params",
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
) -> Any:
    """Vector-Jacobian product of ``fn(scope, *primals)`` for the inputs and the variables.

    Args:
      fn: a function of a scope.
      scope: the scope.
      *primals: the inputs.
      has_aux: ``fn`` returns ``(value, aux)``.
      reduce_axes: must be empty (deprecated in Flax).
      vjp_variables: the collections that receive a cotangent.
      variables: other collections visible to ``fn``.
      rngs: the RNG streams lifted.

    Returns:
      ``(y, bwd)`` or ``(y, bwd, aux)``; ``bwd(ct)`` returns ``(variable_grads, *input_grads)``.
    """
    del reduce_axes
    inner = transforms.vjp_inner(fn, primals, has_aux)
    return _run(scope, (vjp_variables, variables), (variables,), (rngs,), inner)


def jvp(
    fn: Callable[..., Any],
    scope: Scope,
    primals: Sequence[Any],
    tangents: Sequence[Any],
    variable_tangents: Mapping[str, Any],
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
) -> tuple[Any, Any]:
    """Jacobian-vector product of ``fn(scope, *primals)``, with tangents for variables too.

    Args:
      fn: a function of a scope.
      scope: the scope.
      primals: the inputs.
      tangents: their tangents.
      variable_tangents: ``{collection: tangent tree}`` of the variables that move.
      variables: other collections visible to ``fn``.
      rngs: the RNG streams lifted.

    Returns:
      ``(y, tangent_out)``.
    """
    variable_tangents = {k: v for k, v in variable_tangents.items() if v}
    inner = transforms.jvp_inner(fn, primals, tangents, variable_tangents)
    return _run(scope, (tuple(variable_tangents), variables), (variables,), (rngs,), inner)


def remat_scan(
    body_fn: Callable[..., Any],
    lengths: Sequence[int],
    policy: Callable[..., bool] | None = None,
    variable_broadcast: CollectionFilter = False,
    variable_carry: CollectionFilter = False,
    variable_axes: Mapping[CollectionFilter, int] | None = None,
    split_rngs: Mapping[CollectionFilter, bool] | None = None,
) -> Callable[..., Any]:
    """Nested scans of ``body_fn(scope, carry) -> carry`` (``prod(lengths)`` steps), each inner
    level rematerialised: memory grows with ``sum(lengths)`` instead of the step count.

    Args:
      body_fn: the step.
      lengths: the number of steps of each level, outermost first.
      policy: `core.checkpoint`'s policy of the inner levels.
      variable_broadcast: collections shared by every step.
      variable_carry: collections carried from step to step.
      variable_axes: collection filter -> stacking axis (default ``{True: 0}``: every step has
        its own variables).
      split_rngs: stream filter -> a key per step (default ``{True: True}``).

    Returns:
      ``fn(scope, carry) -> carry``.
    """
    variable_axes = {True: 0} if variable_axes is None else variable_axes
    split_rngs = {True: True} if split_rngs is None else split_rngs
    scan_fn = functools.partial(
        scan,
        variable_broadcast=variable_broadcast,
        variable_carry=variable_carry,
        variable_axes=variable_axes,
        split_rngs=split_rngs,
    )
    if len(lengths) == 1:

        def step(scope, carry):
            return body_fn(scope, carry), ()

    else:
        inner = remat_scan(
            body_fn,
            lengths[1:],
            policy,
            variable_broadcast,
            variable_carry,
            variable_axes,
            split_rngs,
        )

        @functools.partial(remat, policy=policy, prevent_cse=False)
        def step(scope, carry):
            return inner(scope, carry), ()

    return lambda scope, carry: scan_fn(step, length=lengths[0])(scope, carry)[0]


def lazy_init(
    fn: Callable[..., Any], mutable: CollectionFilter = True, flags: Mapping | None = None
) -> Callable[..., Any]:
    """``init`` of ``fn(scope, *args)`` whose arguments may be `core.ShapeDtypeStruct`s: the
    computation that needs their values is skipped (staged, never run) and only the variables
    are returned.

    Args:
      fn: a function of a scope.
      mutable: the collections to create.
      flags: scope flags.

    Returns:
      ``init_fn(rngs, *args, **kwargs) -> variables``.

    Raises:
      LazyInitValueError: a variable's initial value depends on a `ShapeDtypeStruct` argument.
    """
    init_fn = scope_lib.init(fn, mutable, flags)

    def wrapper(rngs: Any, *args: Any, **kwargs: Any) -> Any:
        return partial_eval.lazy_init(lambda *a, **k: init_fn(rngs, *a, **k)[1])(*args, **kwargs)

    return wrapper


def custom_vjp(
    fn: Callable[..., Any],
    forward_fn: Callable[..., Any],
    backward_fn: Callable[..., Any],
    grad_vars: CollectionFilter = "params",
    nondiff_argnums: Sequence[int] = (),
) -> Callable[..., Any]:
    """A function of a scope with a custom backward pass for its inputs and variables.

    Args:
      fn: ``fn(scope, *args) -> y``.
      forward_fn: ``forward_fn(scope, *args) -> (y, residuals)``.
      backward_fn: ``backward_fn(*nondiff_args, residuals, ct) -> (variable_grads,
        *input_grads)``, ``variable_grads`` a ``{collection: tree}`` of the ``grad_vars``.
      grad_vars: the collections that receive gradients.
      nondiff_argnums: positions (the scope counting as 0, as in Flax) of non-differentiable
        arguments, passed to ``backward_fn`` first.

    Returns:
      ``wrapper(scope, *args) -> y``.
    """

    def wrapper(scope: Scope, *args: Any) -> Any:
        inner = transforms.custom_vjp_inner(
            fn, forward_fn, backward_fn, tuple(nondiff_argnums), args
        )
        return _run(scope, (grad_vars, True), (grad_vars, True), (True,), inner)

    return wrapper
