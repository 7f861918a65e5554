"""Errors of `core.scipy`: one class per failure, each subclassing the matching built-in."""

from __future__ import annotations

from typing import Any

from core.errors import NumbaxError


class UnsupportedDTypeError(NumbaxError, TypeError):
    """A function defined only for float32/float64 got another dtype.

    Failing code: ``scipy.special.ndtri(jnp.ones(3, jnp.float16))``. Fix:
    ``ndtri(p.astype(jnp.float32))``.
    """

    def __init__(self, name: str, dtype: Any):
        # JAX 0.10.2's first line (log_ndtr's is the short one), then the fix
        see = "." if name == "log_ndtr" else ", see docstring for supported types."
        super().__init__(
            f"x.dtype={dtype} is not supported{see}\n{name} takes float32 and float64 inputs: "
            "convert with `x.astype(jnp.float32)` (or enable x64 for float64)."
        )


class ExpmDTypeError(NumbaxError, TypeError):
    """`expm` got a float16 or bfloat16 matrix, which JAX refuses (its Pade solve needs 32 bits).

    Failing code: ``scipy.linalg.expm(jnp.eye(2, dtype=jnp.float16))``. Fix:
    ``expm(a.astype(jnp.float32))``.
    """

    def __init__(self, dtype: Any):
        # JAX 0.10.2's first line, then the fix
        super().__init__(
            f"A.dtype={dtype} is not supported.\nexpm takes float32, float64 and complex "
            "matrices: convert with `A.astype(jnp.float32)`."
        )


class SchurDTypeError(NumbaxError, TypeError):
    """`schur` (and `funm`, which uses it) got an integer or bool matrix, as JAX refuses.

    Failing code: ``scipy.linalg.schur(jnp.array([[1, 2], [3, 4]]))``. Fix:
    ``schur(a.astype(jnp.float32))``.
    """


class SchurGradientError(NumbaxError, NotImplementedError):
    """`schur`, `sqrtm` or `funm` was differentiated: the Schur decomposition has no derivative
    rule, in JAX as here (JAX's NotImplementedError and first line).

    Failing code: ``grad(lambda a: scipy.linalg.sqrtm(a).real.sum())(a)``. Fix: differentiate
    a function with a rule (``expm``, ``eigh``, ``svd``), or ``lax.stop_gradient`` the matrix.
    """


class SeriesOrderError(NumbaxError, ValueError):
    """`log_ndtr`'s `series_order` is not a Python int in [0, 30].

    Failing code: ``scipy.special.log_ndtr(x, series_order=40)``. Fix: an int in [0, 30]
    (the default 3 is what JAX uses).
    """


class ModeError(NumbaxError, ValueError):
    """An unknown `mode`/`method`/`trans`/`kind` string was passed.

    Failing code: ``scipy.signal.convolve(a, b, mode="circular")``. Fix: one of the values the
    message lists (here ``"full"``, ``"same"`` or ``"valid"``).
    """


class ShapeMismatchError(NumbaxError, ValueError):
    """Arguments have shapes that the function cannot combine; the message names them.

    Failing code: ``scipy.stats.dirichlet.logpdf(x, jnp.ones((2, 3)))`` (``alpha`` must be
    one-dimensional). Fix: shapes as the function's docstring describes.
    """


class ArgsNotTupleError(NumbaxError, TypeError):
    """`optimize.minimize`'s `args` is not a tuple.

    Failing code: ``minimize(f, x0, args=[a, b], method="BFGS")``. Fix: ``args=(a, b)``.
    """

    def __init__(self, args: Any):
        super().__init__(
            # JAX 0.10.2's first line, then the fix
            f"args argument to jax.scipy.optimize.minimize must be a tuple, got {args}\n"
            "Pass the extra arguments as a tuple: `args=(a, b)`."
        )


class UnsupportedOptionError(NumbaxError, NotImplementedError):
    """An option that numbax (or JAX on CPU) does not implement was requested.

    Failing code: ``lax.linalg.qr(x, pivoting=True)`` or ``scipy.fft.dct(x, type=3)``. Fix:
    leave the option at its default (for a pivoted QR, ``scipy.linalg.qr`` on the host via
    ``pure_callback``).
    """


class SingleRotationError(NumbaxError, TypeError):
    """A single `Rotation` was indexed or asked for its length.

    Failing code: ``Rotation.from_euler("z", 0.3)[0]``. Fix: build a stack of rotations
    (``Rotation.from_euler("z", jnp.array([0.3]))``) or use the single one directly.
    """


class NotARotationError(NumbaxError, TypeError):
    """`Slerp.init` got key rotations that are not a `Rotation`.

    Failing code: ``Slerp.init(times, quats)``. Fix:
    ``Slerp.init(times, Rotation.from_quat(quats))``.
    """


class NotAnOperatorError(NumbaxError, TypeError):
    """An iterative solver's `A` or `M` is neither a function nor a matrix.

    Failing code: ``sparse.linalg.cg(3.0, b)``. Fix: a function ``lambda x: a @ x`` or a square
    matrix.
    """
