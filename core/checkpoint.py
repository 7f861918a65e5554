"""`checkpoint` / `remat`: JAX's gradient-checkpointing API, with correct results.

In JAX, `checkpoint(f)` makes reverse mode recompute `f`'s intermediates on the backward pass
instead of storing them, with a `policy` choosing which values may be saved. Here the function
is computed once and its residuals are kept (so results are exactly those of `f`; saving memory
may come later): the API, the policies and `checkpoint_name` are in place so code written for
JAX runs unchanged.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any


def checkpoint(
    fun: Callable | None = None,
    *,
    prevent_cse: bool = True,
    policy: Callable[..., bool] | None = None,
    static_argnums: int | Sequence[int] = (),
) -> Callable:
    """Marks `fun` for rematerialization under reverse-mode differentiation.

    Args:
      fun: the function (omit it to use `checkpoint(policy=...)` as a decorator factory).
      prevent_cse: accepted for compatibility.
      policy: a function `(prim, *avals, **params) -> bool` saying which intermediate values
        may be saved, e.g. `checkpoint_policies.dots_saveable`.
      static_argnums: positions of arguments that are not arrays (accepted for compatibility:
        they are passed through as they are).

    Returns:
      A function computing the same values as `fun`.
    """
    del prevent_cse, static_argnums
    if policy is not None and not callable(policy):
        raise TypeError(
            f"checkpoint policy must be a callable such as checkpoint_policies.dots_saveable, "
            f"got {policy!r}"
        )
    if fun is None:
        return functools.partial(checkpoint, policy=policy)

    @functools.wraps(fun)
    def remat_fun(*args: Any, **kwargs: Any) -> Any:
        return fun(*args, **kwargs)

    return remat_fun


remat = checkpoint


def checkpoint_name(x: Any, name: str) -> Any:
    """Tags `x` (a pytree) with `name` for the `save_*_names` policies; returns it unchanged."""
    del name
    return x


def _dot_like(prim: Any) -> bool:
    return getattr(prim, "name", "") in ("dot_general", "conv_general_dilated")


class checkpoint_policies:  # noqa: N801  (JAX's name)
    """The policies of `jax.checkpoint_policies`."""

    @staticmethod
    def everything_saveable(*args: Any, **params: Any) -> bool:
        return True

    @staticmethod
    def nothing_saveable(*args: Any, **params: Any) -> bool:
        return False

    @staticmethod
    def dots_saveable(prim: Any, *args: Any, **params: Any) -> bool:
        return _dot_like(prim)

    checkpoint_dots = dots_saveable

    @staticmethod
    def dots_with_no_batch_dims_saveable(prim: Any, *args: Any, **params: Any) -> bool:
        if prim.name != "dot_general":
            return False
        (_, _), (lhs_batch, _) = params["dimension_numbers"]
        return not lhs_batch

    checkpoint_dots_with_no_batch_dims = dots_with_no_batch_dims_saveable

    @staticmethod
    def save_only_these_names(*names: str) -> Callable[..., bool]:
        def policy(prim: Any, *args: Any, **params: Any) -> bool:
            return params.get("name") in names

        return policy

    @staticmethod
    def save_anything_except_these_names(*names: str) -> Callable[..., bool]:
        def policy(prim: Any, *args: Any, **params: Any) -> bool:
            return params.get("name") not in names

        return policy

    save_any_names_but_these = save_anything_except_these_names

    @staticmethod
    def offload_dot_with_no_batch_dims(offload_src: Any, offload_dst: Any) -> Callable[..., bool]:
        """`dots_with_no_batch_dims_saveable`; JAX offloads those values to host memory, here
        (one CPU memory space) offloading is saving."""
        del offload_src, offload_dst
        return checkpoint_policies.dots_with_no_batch_dims_saveable

    @staticmethod
    def save_and_offload_only_these_names(
        *,
        names_which_can_be_saved: Sequence[str],
        names_which_can_be_offloaded: Sequence[str],
        offload_src: Any,
        offload_dst: Any,
    ) -> Callable[..., bool]:
        """`save_only_these_names` of both name lists (offloading is saving on one CPU)."""
        del offload_src, offload_dst
        both = set(names_which_can_be_saved) & set(names_which_can_be_offloaded)
        if both:
            raise ValueError(
                "The names should be exclusive and should not intersect in "
                "`names_which_can_be_saved` and `names_which_can_be_offloaded`; both contain "
                f"{sorted(both)}."
            )
        return checkpoint_policies.save_only_these_names(
            *names_which_can_be_saved, *names_which_can_be_offloaded
        )

    @staticmethod
    def save_from_both_policies(p1: Callable, p2: Callable) -> Callable[..., bool]:
        def policy(*args: Any, **params: Any) -> bool:
            return p1(*args, **params) or p2(*args, **params)

        return policy


__all__ = ["checkpoint", "checkpoint_name", "checkpoint_policies", "remat"]
