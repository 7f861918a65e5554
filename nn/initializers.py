"""Parameter initializers: ``core.nn.initializers`` plus Flax's ``zeros_init``/``ones_init``.

Every initializer has the signature ``init(key, shape, dtype=float32) -> array``.
"""

from __future__ import annotations

from collections.abc import Callable

from core.nn.initializers import (
    Initializer,
    constant,
    delta_orthogonal,
    glorot_normal,
    glorot_uniform,
    he_normal,
    he_uniform,
    kaiming_normal,
    kaiming_uniform,
    lecun_normal,
    lecun_uniform,
    normal,
    ones,
    orthogonal,
    truncated_normal,
    uniform,
    variance_scaling,
    xavier_normal,
    xavier_uniform,
    zeros,
)


def zeros_init() -> Callable:
    """An initializer returning zeros (Flax's spelling of ``initializers.zeros``)."""
    return zeros


def ones_init() -> Callable:
    """An initializer returning ones (Flax's spelling of ``initializers.ones``)."""
    return ones


__all__ = [
    "Initializer",
    "constant",
    "delta_orthogonal",
    "glorot_normal",
    "glorot_uniform",
    "he_normal",
    "he_uniform",
    "kaiming_normal",
    "kaiming_uniform",
    "lecun_normal",
    "lecun_uniform",
    "normal",
    "ones",
    "ones_init",
    "orthogonal",
    "truncated_normal",
    "uniform",
    "variance_scaling",
    "xavier_normal",
    "xavier_uniform",
    "zeros",
    "zeros_init",
]
