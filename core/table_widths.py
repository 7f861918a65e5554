"""Column widths of a text table that must fit a console, by rich's rules (the layout both
`core.debug.visualize_array_sharding` and `nn.tabulate` draw, as JAX and Flax draw it with rich).

Columns wider than the room are narrowed widest first: the widest wrappable columns lose width
together down to the next widest, a step at a time; what is still too wide is then taken from
every column in proportion to its width.
"""

from __future__ import annotations


def ratio_reduce(
    total: int, ratios: list[int], maximums: list[int], values: list[int]
) -> list[int]:
    """`values` less `total`, shared in proportion to `ratios`, at most `maximums` each.

    Args:
      total: the amount to take off.
      ratios: each value's share (0: untouched).
      maximums: the most each value may lose (0: untouched).
      values: the values.

    Returns:
      The reduced values.
    """
    ratios = [r if m else 0 for r, m in zip(ratios, maximums)]
    weight, left, out = sum(ratios), total, []
    for ratio, most, value in zip(ratios, maximums, values):
        if ratio and weight > 0:
            taken = min(most, round(ratio * left / weight))
            out.append(value - taken)
            left -= taken
            weight -= ratio
        else:
            out.append(value)
    return out


def fit_widths(widths: list[int], wrappable: list[bool], room: int) -> list[int]:
    """`widths` narrowed towards `room` in all: the widest wrappable columns first, then every
    column in proportion.

    Args:
      widths: the columns' natural widths.
      wrappable: which columns may be narrowed in the first pass.
      room: the width to fit.

    Returns:
      The narrowed widths (unchanged if they fit).
    """
    excess = sum(widths) - room
    while sum(widths) and excess > 0 and any(wrappable):
        widest = max(w for w, ok in zip(widths, wrappable) if ok)
        second = max((w if ok and w != widest else 0) for w, ok in zip(widths, wrappable))
        ratios = [1 if ok and w == widest else 0 for w, ok in zip(widths, wrappable)]
        if not any(ratios) or widest == second:
            break
        widths = ratio_reduce(excess, ratios, [min(excess, widest - second)] * len(widths), widths)
        excess = sum(widths) - room
    if sum(widths) > room:
        widths = ratio_reduce(sum(widths) - room, [1] * len(widths), widths, widths)
    return widths
