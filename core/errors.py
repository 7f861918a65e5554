"""Errors that teach: one class per failure, each naming what went wrong and the fix.

Each class subclasses the matching built-in exception (`TypeError`, `ValueError`...), so plain
`except TypeError:` keeps working, like `jax.errors`.
"""

from __future__ import annotations

_STAGED = (
    "This happens when a value that depends on the function's arguments is used where Python "
    "needs a concrete value, inside `jit`, `vmap` or another transformation that traces the "
    "function abstractly."
)


class NumbaxError(Exception):
    """Base class of numbax's own errors."""


class ConcretizationTypeError(NumbaxError, TypeError):
    """A traced value was used where a concrete value is required."""

    def __init__(self, what: str, detail: str = ""):
        super().__init__(
            f"Abstract tracer value encountered where a concrete value is expected: {what}. "
            f"{_STAGED} {detail}".strip()
        )


class TracerBoolConversionError(ConcretizationTypeError):
    """`if x > 0:` (or `bool(x)`, `and`/`or`) on a traced value."""

    def __init__(self, aval: object):
        super().__init__(
            f"the truth value of a traced {aval} (bool() or an `if`/`while`/`and`/`or` on it)",
            "Fixes: compute both sides and pick with `jnp.where(cond, x, y)`; use "
            "`lax.cond(pred, true_fun, false_fun, *operands)` for branches; or, under `jit`, mark "
            "the argument static with `static_argnames=` / `static_argnums=` if it is really "
            "a configuration value.",
        )


class TracerIntegerConversionError(ConcretizationTypeError):
    """`int(x)`, `range(x)` or indexing a Python list with a traced value."""

    def __init__(self, aval: object):
        super().__init__(
            f"the integer value of a traced {aval} (int(), range(), or a Python list index)",
            "Fixes: index arrays with the traced value instead (`x[i]`, `lax.dynamic_slice`); "
            "or mark the argument static with `static_argnames=` under `jit`.",
        )


class TracerArrayConversionError(NumbaxError, TypeError):
    """`np.asarray(x)` on a traced value."""

    def __init__(self, aval: object):
        super().__init__(
            f"The numpy.ndarray conversion method __array__() was called on a traced {aval}. "
            f"{_STAGED} Use `core.numpy` (jnp) functions instead of `numpy` ones inside "
            "transformed functions, or `jax.debug`-style printing outside them."
        )


class UnexpectedTracerError(NumbaxError, RuntimeError):
    """A tracer escaped the transformation that created it (stored in a global, returned...)."""

    def __init__(self, aval: object):
        super().__init__(
            f"Encountered an unexpected tracer ({aval}): a value from a transformed function "
            "(jit, grad, vmap...) was used after that transformation finished, for example by "
            "storing it in a global or an attribute of an object. Return it from the function "
            "instead, or pass it in as an argument."
        )


class ShapeError(NumbaxError, ValueError):
    """Operand shapes that do not fit together."""


class DTypeError(NumbaxError, TypeError):
    """Operand dtypes that do not fit together."""


class ImmutableArrayError(NumbaxError, TypeError):
    """In-place assignment to an immutable array."""

    def __init__(self, type_name: str):
        super().__init__(
            f"{type_name!r} object does not support item assignment: numbax arrays are "
            "immutable. Use `x = x.at[idx].set(y)` (or `.add`, `.multiply`, `.min`, `.max`...) "
            "to get an updated copy."
        )
