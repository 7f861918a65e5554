"""The numba lowering rules of the primitives: their kinds and the table `jit` reads.

A rule is registered per primitive, as JAX's `mlir.register_lowering`:

    register_lowering(add_p, Scalar(lambda ctx, a, b: f"({a} + {b})"))

and is one of four kinds:

  Scalar(fn)      elementwise: `fn(ctx, *args, **params) -> str` (a list of str for several
                  outputs), a scalar expression over the argument expressions (names or
                  constants); the code generator fuses these into loops. `ctx` is a
                  `ScalarCtx`. `exact=False` if a float or bool result may come out wider than
                  the output dtype (integer results narrower than 64 bits are always cast).
  View(fn)        movement (broadcast_in_dim, transpose, slice, reshape of size-1 axes):
                  `fn(in_shape, out_shape, **params) -> IndexMap` saying which operand element
                  each output element reads (None for a reshape that is not index arithmetic);
                  it costs nothing until a loop reads through it.
  Reduce(kind)    `reduce_*` over `axes`: an accumulation fused into its producer's loop.
  Kernel(fn)      anything else: `fn(ctx, eqn) -> list[str]` emits statements through its
                  `KernelCtx` and returns one expression per output: a C-contiguous array of the
                  output's shape and dtype, or a scalar for 0-d outputs. Sizes it writes come
                  from `ctx.in_shape`/`out_shape`/`size` (variables of shape-generic kernels).

An `IndexMap` lists, for each operand axis, `(start, ((out_axis, coefficient), ...))`: operand
index = start + sum(coefficient * out_index[out_axis]). A `View` rule's `in_shape` holds sizes
(`core/backends/numba/generic.py`): a start computed from them (a reversal's `n - 1`) stays a
variable of shape-generic kernels.

The rules of numbax's primitives live in `core/backends/numba/rules/` and are imported on the
first `lowering_rule` call (the first compile), never by `import core`. A primitive a program
defines (`jax.extend.core.Primitive`, `Primitive.impl_on_host`) with no rule of its own runs its
`impl` as a host call from the compiled code (`_IMPL_ON_HOST`): numbax cannot run JAX's MLIR
lowerings.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from core.errors import PrimitiveRuleError
from core.primitive import Primitive

IndexMap = tuple[tuple[int, tuple[tuple[int, int], ...]], ...]


@dataclass(frozen=True)
class Scalar:
    fn: Callable
    exact: bool = True


@dataclass(frozen=True)
class View:
    fn: Callable


@dataclass(frozen=True)
class Reduce:
    kind: str  # sum, prod, max, min, and, or


@dataclass(frozen=True)
class Kernel:
    fn: Callable


Rule = Scalar | View | Reduce | Kernel

_RULES: dict[Primitive, Rule] = {}
_loaded = False


def register_lowering(prim: Primitive, rule: Rule) -> Rule:
    """Registers `rule` as the numba lowering of `prim` (replacing any earlier one).

    Args:
      prim: the primitive.
      rule: a `Scalar`, `View`, `Reduce` or `Kernel`.

    Returns:
      `rule`.
    """
    if not isinstance(rule, (Scalar, View, Reduce, Kernel)):
        raise TypeError(
            f"the lowering of {prim.name!r} must be a Scalar, View, Reduce or Kernel rule of "
            f"core.backends.numba.registry, got {type(rule).__name__}"
        )
    _RULES[prim] = rule
    return rule


class _ImplCall:
    """A host call of one equation's `impl`, its parameters fixed (`fun` names the call)."""

    def __init__(self, prim: Primitive, params: dict):
        self.prim = prim
        self.params = params
        self.fun = prim.impl

    def __call__(self, arrays: list) -> list:
        return self.prim.run_impl(arrays, self.params)


def _impl_on_host(ctx, eqn) -> list[str]:
    if eqn.prim.impl is None:
        raise PrimitiveRuleError(eqn.prim.name, "impl")
    call = _ImplCall(eqn.prim, eqn.params)
    return ctx.host_call(call, call)


_IMPL_ON_HOST = Kernel(_impl_on_host)


def lowering_rule(prim: Primitive) -> Rule | None:
    """The numba lowering rule of `prim`, or None if it has none (loads the rules first); a
    host call of its `impl` for a program's own primitive without one."""
    _load()
    rule = _RULES.get(prim)
    if rule is None and prim.impl_on_host:
        return _IMPL_ON_HOST
    return rule


def lowering_rules() -> dict[Primitive, Rule]:
    """Every registered rule, by primitive (loads the rules first)."""
    _load()
    return dict(_RULES)


def _load() -> None:
    global _loaded
    if not _loaded:
        importlib.import_module("core.backends.numba.rules")
        _loaded = True
