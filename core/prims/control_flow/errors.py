"""Errors of the control-flow primitives, each naming what went wrong and the fix."""

from __future__ import annotations

from core.errors import NumbaxError


class BranchTypeError(NumbaxError, TypeError):
    """`cond`/`switch` branches that return different structures, shapes or dtypes."""


class CarryTypeError(NumbaxError, TypeError):
    """A `scan`/`fori_loop`/`while_loop` body whose output carry differs from its input carry."""


class ScanLengthError(NumbaxError, ValueError):
    """`scan` inputs with different leading sizes, or no way to know the length."""


class WhileLoopReverseModeError(NumbaxError, ValueError):
    """Reverse-mode differentiation (grad, vjp) through `while_loop` or a dynamic `fori_loop`."""

    def __init__(self) -> None:
        super().__init__(
            "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop "
            "with dynamic start/stop values: the number of iterations is not known when the "
            "backward pass is built. Use lax.scan, or lax.fori_loop with static (Python int) "
            "lower/upper bounds, which lowers to a scan. Forward mode (jvp, jacfwd) works."
        )


class PredicateTypeError(NumbaxError, TypeError):
    """A `cond` predicate that is not a boolean or real-number scalar."""
