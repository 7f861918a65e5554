"""``flax.training.dynamic_scale``: dynamic loss scaling for low-precision gradients.

`DynamicScale.value_and_grad` multiplies the loss by ``scale`` before differentiating and
divides the gradients by it afterwards, so float16/bfloat16 gradients keep small values from
flushing to zero. When a gradient is not finite the scale shrinks by ``backoff_factor`` (the
caller skips that update, e.g. with ``jnp.where(is_finite, new, old)``); after
``growth_interval`` finite steps in a row it grows by ``growth_factor``. The state is a pytree,
so it goes through `core.jit` and checkpoints with the `TrainState`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

import core
import core.numpy as jnp
from core import lax, struct, tree_util

__all__ = ["DynamicScale", "DynamicScaleResult"]


class DynamicScaleResult(NamedTuple):
    """What the function from `DynamicScale.value_and_grad` returns."""

    dynamic_scale: DynamicScale
    finite: Any
    aux: Any
    grad: Any


class DynamicScale(struct.PyTreeNode):
    """Dynamic loss scaling (as Flax's, with the same defaults).

    Example::

        dyn_scale = DynamicScale(growth_interval=10)
        compute_grad = core.jit(lambda ds, p: ds.value_and_grad(loss_fn)(p))
        for _ in range(100):
            dyn_scale, is_fin, loss, grad = compute_grad(dyn_scale, p)
            p += jnp.where(is_fin, 0.01 * grad, 0.0)

    Attributes:
        growth_factor: how much the scale grows after ``growth_interval`` finite steps.
        backoff_factor: how much it shrinks after a non-finite gradient.
        growth_interval: finite steps in a row before the scale grows.
        fin_steps: finite steps in a row so far.
        scale: the current factor of the loss.
        minimum_scale: the least scale (default the smallest normal float32); None for none.
    """

    growth_factor: float = struct.field(pytree_node=False, default=2.0)
    backoff_factor: float = struct.field(pytree_node=False, default=0.5)
    growth_interval: int = struct.field(pytree_node=False, default=2000)
    fin_steps: Any = 0
    scale: Any = 65536.0
    minimum_scale: float | None = struct.field(pytree_node=False, default=np.finfo(np.float32).tiny)

    def _after_step(self, finite: Any) -> DynamicScale:
        """The scale for the next step: grown by ``growth_factor`` (capped at float32's max)
        after ``growth_interval`` finite steps in a row, shrunk by ``backoff_factor`` (not
        below ``minimum_scale``) after a non-finite one; the finite-step count restarts on
        either."""
        due = self.fin_steps == self.growth_interval
        largest = jnp.finfo(jnp.float32).max
        if_finite = jnp.where(
            due & finite, jnp.minimum(self.scale * self.growth_factor, largest), self.scale
        )
        if_overflow = self.scale * self.backoff_factor
        if self.minimum_scale is not None:
            if_overflow = jnp.maximum(if_overflow, self.minimum_scale)
        scale = jnp.where(finite, if_finite, if_overflow)
        fin_steps = jnp.where(due | (~finite), 0, self.fin_steps + 1)
        return self.replace(fin_steps=fin_steps, scale=scale)

    def value_and_grad(
        self,
        fun: Callable[..., Any],
        argnums: int | Sequence[int] = 0,
        has_aux: bool = False,
        axis_name: str | None = None,
    ) -> Callable[..., DynamicScaleResult]:
        """`core.value_and_grad` of ``fun`` with the loss scaled by ``scale``.

        Args:
            fun: the loss function; returns a scalar, or ``(scalar, aux)`` with ``has_aux``.
            argnums: the positional argument(s) to differentiate.
            has_aux: whether ``fun`` returns auxiliary data.
            axis_name: average the gradients over this `core.pmap`/`vmap` axis
                (``lax.pmean``).

        Returns:
            A function of ``fun``'s arguments returning `DynamicScaleResult`
            ``(new_dynamic_scale, finite, value_or_(value, aux), grad)``: the value unscaled,
            the gradients in float32 divided by the scale, ``finite`` whether all are finite.
        """

        @functools.wraps(fun)
        def scaled(*args: Any) -> Any:
            out = fun(*args)
            return (self.scale * out[0], out[1]) if has_aux else self.scale * out

        grad_fn = core.value_and_grad(scaled, argnums, has_aux)

        def grad_fn_wrapper(*args: Any) -> DynamicScaleResult:
            scaled_value, scaled_grad = grad_fn(*args)
            # Undo the scaling: the value in its own dtype, the gradients in float32.
            if has_aux:
                value = (scaled_value[0] / self.scale, scaled_value[1])
            else:
                value = scaled_value / self.scale
            grad = tree_util.tree_map(
                lambda g: jnp.asarray(g, jnp.float32) / self.scale, scaled_grad
            )
            if axis_name is not None:
                grad = lax.pmean(grad, axis_name)
            finite = _all_finite(grad)
            return DynamicScaleResult(self._after_step(finite), finite, value, grad)

        return grad_fn_wrapper


def _all_finite(tree: Any) -> Any:
    """A boolean scalar: whether every entry of every leaf of ``tree`` is finite."""
    finite = jnp.array(True)
    for leaf in tree_util.tree_leaves(tree):
        finite &= jnp.all(lax.is_finite(leaf))
    return finite
