"""JAX's `jax.interpreters.mlir.register_lowering` and `lower_fun`, accepted and not used.

numbax compiles with numba, not MLIR/XLA, so a JAX lowering rule (a function building MLIR
operations, `hlo.AddOp(...)`) cannot run here. A program registering one for its own primitive
(JAX's tutorial "How JAX primitives work") keeps working: under `jit` such a primitive runs its
`impl` as a host call from the compiled code (`core.primitive.ExtensionPrimitive`), so the rule
is accepted and ignored rather than refused. A primitive whose `impl` JAX builds from the
lowering (`def_impl(partial(dispatch.apply_primitive, p))`) has none here: `jit` and eager calls
then raise `core.errors.PrimitiveRuleError`, whose fix is `def_impl` with a numpy function.
numbax's own lowerings are registered with `core.backends.numba.registry.register_lowering`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.primitive import Primitive


def register_lowering(
    prim: Primitive, rule: Callable, platform: str | None = None, **kwargs: Any
) -> Callable:
    """Accepts JAX's MLIR lowering of `prim` and ignores it (see the module docstring).

    Args:
      prim: the primitive.
      rule: JAX's lowering rule (`rule(ctx, *operands, **params)`), never called.
      platform: JAX's platform name ('cpu', 'cuda', ...), ignored.
      **kwargs: JAX's other options (`inline`, `cacheable`), ignored.

    Returns:
      `rule`.
    """
    return rule


def lower_fun(fun: Callable, multiple_results: bool = True) -> Callable:
    """JAX's lowering rule computed by a JAX function; here `fun` itself, which
    `register_lowering` accepts and ignores (the primitive's `impl` runs under `jit`).

    Args:
      fun: the function of the operands.
      multiple_results: whether `fun` returns a list (JAX's flag, ignored).

    Returns:
      `fun`.
    """
    return fun
