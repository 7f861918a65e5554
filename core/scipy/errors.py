"""Errors of `core.scipy`: one class per failure, each subclassing the matching built-in."""

from __future__ import annotations

from typing import Any

from core.errors import NumbaxError


class UnsupportedDTypeError(NumbaxError, TypeError):
    """A function defined only for float32/float64 got another dtype."""

    def __init__(self, name: str, dtype: Any):
        super().__init__(
            f"{name} supports float32 and float64 inputs, got {dtype}; convert with "
            f"`x.astype(jnp.float32)` (or enable x64 for float64)."
        )


class SeriesOrderError(NumbaxError, ValueError):
    """`log_ndtr`'s `series_order` is not a Python int in [0, 30]."""


class ModeError(NumbaxError, ValueError):
    """An unknown `mode`/`method`/`trans`/`kind` string was passed."""


class ShapeMismatchError(NumbaxError, ValueError):
    """Arguments have shapes that the function cannot combine; the message names them."""
