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
            value, grad = grad_fn(*args)
            value = (value[0] / self.scale, value[1]) if has_aux else value / self.scale
            grad = tree_util.tree_map(lambda g: jnp.asarray(g, jnp.float32) / self.scale, grad)
            if axis_name is not None:
                grad = lax.pmean(grad, axis_name)
            finite = jnp.array(True)
            for g in tree_util.tree_leaves(grad):
                finite &= jnp.all(lax.is_finite(g))
            grow = self.fin_steps == self.growth_interval
            max_scale = jnp.finfo(jnp.float32).max
            fin_scale = jnp.where(
                grow & finite, jnp.minimum(self.scale * self.growth_factor, max_scale), self.scale
            )
            inf_scale = self.scale * self.backoff_factor
            if self.minimum_scale is not None:
                inf_scale = jnp.maximum(inf_scale, self.minimum_scale)
            new_scale = jnp.where(finite, fin_scale, inf_scale)
            new_fin_steps = jnp.where(grow | (~finite), 0, self.fin_steps + 1)
            new_self = self.replace(fin_steps=new_fin_steps, scale=new_scale)
            return DynamicScaleResult(new_self, finite, value, grad)

        return grad_fn_wrapper
