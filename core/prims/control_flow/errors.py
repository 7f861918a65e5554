"""Errors of the control-flow primitives, each naming what went wrong and the fix."""

from __future__ import annotations

from core.errors import NumbaxError


class BranchTypeError(NumbaxError, TypeError):
    """`cond`/`switch` branches that return different structures, shapes or dtypes.

    Failing code: ``lax.cond(p, lambda x: x, lambda x: x[:2], x)``. Fix: return values of one
    structure, shape and dtype from every branch (pad, slice or ``astype`` them to agree).
    """


class CarryTypeError(NumbaxError, TypeError):
    """A `scan`/`fori_loop`/`while_loop` body whose output carry differs from its input carry.

    Failing code: ``lax.fori_loop(0, 3, lambda i, c: c * 1.5, 1)`` (an int carry becomes a
    float). Fix: start with the carry's final type, ``lax.fori_loop(0, 3, body, 1.0)``.
    """


class ScanLengthError(NumbaxError, ValueError):
    """`scan` inputs with different leading sizes, or no way to know the length.

    Failing code: ``lax.scan(f, 0.0, (jnp.ones(3), jnp.ones(4)))``. Fix: give every ``xs`` leaf
    the same leading size, or pass ``length=n`` when ``xs`` is None.
    """


class ScanNoLeadingAxisError(ScanLengthError, IndexError):
    """A `scan`/`lax.map` xs leaf without a leading axis to scan over (JAX raises `IndexError`
    for a scalar array, `ValueError` for a Python scalar).

    Failing code: ``lax.scan(f, 0.0, jnp.float32(3.0))``. Fix: give every xs leaf a leading axis
    (``x[None]``), or close over a value every step shares instead of scanning it.
    """


class LoopBoundsShapeError(NumbaxError, TypeError):
    """`fori_loop` bounds that are not scalars.

    Failing code: ``lax.fori_loop(0, jnp.array([3]), body, 0)``. Fix: pass scalar bounds
    (``n[0]`` or ``int(n)``).
    """


class MapBatchSizeError(NumbaxError, TypeError):
    """`lax.map` with a negative `batch_size` (JAX fails reshaping the mapped axis).

    Failing code: ``lax.map(f, xs, batch_size=-1)``. Fix: pass a positive ``batch_size`` (or
    none, to map one slice at a time).
    """


class WhileLoopReverseModeError(NumbaxError, ValueError):
    """Reverse-mode differentiation (grad, vjp) through `while_loop` or a dynamic `fori_loop`.

    Failing code: ``grad(lambda x: lax.while_loop(lambda c: c < 10.0, lambda c: c * 2, x))(1.0)``.
    Fix: ``lax.scan`` or a ``fori_loop`` with Python-int bounds; forward mode (``jvp``,
    ``jacfwd``) works.
    """

    def __init__(self) -> None:
        super().__init__(
            "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop "
            "with dynamic start/stop values. Try using lax.scan, or using fori_loop with static "
            "start/stop.\nThe number of iterations is not known when the backward pass is "
            "built; a fori_loop with Python int bounds lowers to a scan. Forward mode (jvp, "
            "jacfwd) works."
        )


class PredicateTypeError(NumbaxError, TypeError):
    """A `cond` predicate that is not a boolean or real-number scalar.

    Failing code: ``lax.cond(jnp.array([True, False]), f, g, x)``. Fix: a scalar predicate
    (``jnp.all(p)``), or ``jnp.where(p, f(x), g(x))`` for an elementwise choice.
    """
