"""``flax.core.lift``'s transforms over functions of a scope (``fn(scope, *args)``).

They are the scope-level halves of ``nn.vmap``/``nn.scan``/``nn.jit``/``nn.remat``
(`nn/transforms.py` lifts modules through the same ``lift_*`` functions), wrapped to Flax's
functional signature: the first argument is a scope (or a pytree of scopes), and the wrapped
function receives the inner scope(s) in the same structure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from core import tree_util
from nn import transforms
from nn.scope import CollectionFilter, LazyRng, Scope
from nn.transforms import broadcast

__all__ = ["broadcast", "checkpoint", "jit", "remat", "scan", "vmap"]


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
