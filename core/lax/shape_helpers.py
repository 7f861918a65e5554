"""Output-shape helpers of `jax.lax` for convolutions and windowed reductions.

Layer libraries (`core.example_libraries.stax`, hand-written models) compute the output shape of
a layer at init time, before any array exists. These functions do it on plain shape tuples,
with the same rules as the primitives' abstract evaluation (`core/prims/conv.py`,
`core/prims/windows.py`) and JAX's results: dimension numbers as three layout strings like
`("NHWC", "HWIO", "NHWC")`, padding as 'SAME'/'VALID' or explicit (low, high) pairs.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.prims.conv import (
    _conv_transpose_padding,
    _dilate_shape,
    conv_general_permutations,
    conv_shape_tuple,
)

Shape = Sequence[int]


def _take(shape: Shape, perm: Sequence[int]) -> tuple[int, ...]:
    return tuple(int(shape[i]) for i in perm)


def _untake(shape: Shape, perm: Sequence[int]) -> tuple[int, ...]:
    out = [0] * len(perm)
    for src, dst in enumerate(perm):
        out[dst] = int(shape[src])
    return tuple(out)


def conv_general_shape_tuple(
    lhs_shape: Shape,
    rhs_shape: Shape,
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    dimension_numbers: tuple[str, str, str],
) -> tuple[int, ...]:
    """The output shape of `conv_general_dilated` (no dilation) in the output layout.

    Args:
      lhs_shape: the input's shape, laid out as `dimension_numbers[0]`.
      rhs_shape: the kernel's shape, laid out as `dimension_numbers[1]`.
      window_strides: one stride per spatial dimension.
      padding: 'SAME', 'SAME_LOWER', 'VALID' or one (low, high) pair per spatial dimension.
      dimension_numbers: three layout strings, e.g. `("NHWC", "HWIO", "NHWC")`.

    Returns:
      The output shape, laid out as `dimension_numbers[2]`.

    Example::

        >>> lax.conv_general_shape_tuple((8, 28, 28, 1), (3, 3, 1, 16), (2, 2), "SAME",
        ...                              ("NHWC", "HWIO", "NHWC"))
        (8, 14, 14, 16)
    """
    lhs_perm, rhs_perm, out_perm = conv_general_permutations(dimension_numbers)
    out = conv_shape_tuple(
        _take(lhs_shape, lhs_perm), _take(rhs_shape, rhs_perm), window_strides, padding
    )
    return _untake(out, out_perm)


def conv_transpose_shape_tuple(
    lhs_shape: Shape,
    rhs_shape: Shape,
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    dimension_numbers: tuple[str, str, str],
) -> tuple[int, ...]:
    """The output shape of `conv_transpose` in the output layout.

    Args:
      lhs_shape: the input's shape, laid out as `dimension_numbers[0]`.
      rhs_shape: the kernel's shape, laid out as `dimension_numbers[1]`.
      window_strides: one (fractional) stride per spatial dimension.
      padding: 'SAME', 'VALID' or one (low, high) pair per spatial dimension.
      dimension_numbers: three layout strings, e.g. `("NHWC", "HWIO", "NHWC")`.

    Returns:
      The output shape, laid out as `dimension_numbers[2]`.

    Example::

        >>> lax.conv_transpose_shape_tuple((1, 5, 5, 2), (3, 3, 2, 4), (2, 2), "SAME",
        ...                                ("NHWC", "HWIO", "NHWC"))
        (1, 10, 10, 4)
    """
    lhs_perm, rhs_perm, out_perm = conv_general_permutations(dimension_numbers)
    lhs, rhs = _take(lhs_shape, lhs_perm), _take(rhs_shape, rhs_perm)
    if isinstance(padding, str):
        padding = [_conv_transpose_padding(k, s, padding) for k, s in zip(rhs[2:], window_strides)]
    space = tuple(
        (i - 1) * s - k + 2 + int(sum(p))
        for i, k, s, p in zip(lhs[2:], rhs[2:], window_strides, padding)
    )
    return _untake((lhs[0], rhs[0], *space), out_perm)


def reduce_window_shape_tuple(
    operand_shape: Shape,
    window_dimensions: Shape,
    window_strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    base_dilation: Sequence[int] | None = None,
    window_dilation: Sequence[int] | None = None,
) -> tuple[int, ...]:
    """The output shape of `reduce_window` with explicit padding.

    Args:
      operand_shape: the operand's shape.
      window_dimensions: the window's size along every dimension.
      window_strides: the stride along every dimension.
      padding: one (low, high) pair per dimension (`padtype_to_pads` turns 'SAME' into them).
      base_dilation: dilation of the operand, or None.
      window_dilation: dilation of the window, or None.

    Returns:
      The output shape.

    Example::

        >>> lax.reduce_window_shape_tuple((8, 28, 28, 3), (1, 2, 2, 1), (1, 2, 2, 1),
        ...                               ((0, 0),) * 4)
        (8, 14, 14, 3)
    """
    if base_dilation is not None:
        operand_shape = _dilate_shape(operand_shape, base_dilation)
    if window_dilation is not None:
        window_dimensions = _dilate_shape(window_dimensions, window_dilation)
    padded = [int(d) + lo + hi for d, (lo, hi) in zip(operand_shape, padding)]
    return tuple(
        0 if p < k else (p - k) // s + 1
        for p, k, s in zip(padded, window_dimensions, window_strides)
    )


__all__ = [
    "conv_general_shape_tuple",
    "conv_transpose_shape_tuple",
    "reduce_window_shape_tuple",
]
