"""`core.debug.visualize_array_sharding` / `visualize_sharding`: which devices hold which block.

Prints a box-drawn grid with one cell per block of a 1-d or 2-d array, labelled with the
devices holding it (`CPU 0,4` for a block replicated on devices 0 and 4), as JAX does. JAX
scales the cells to the array's shape with `rich`; this draws every cell one line high and as
wide as the widest label (numbax does not depend on `rich`), so the layout, not the size,
matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def _blocks(shape: Sequence[int], sharding: Any) -> dict[tuple, list[int]]:
    """(row block, column block) -> the ids of the devices holding it."""
    if hasattr(sharding, "devices_indices_map"):
        pieces = sharding.devices_indices_map(tuple(shape))
    else:  # a single-device (or pmap) sharding: show the whole array on its devices
        pieces = {d: (slice(None),) * len(shape) for d in sharding.device_set}
    starts = [sorted({(idx[a].start or 0) for idx in pieces.values()}) for a in range(len(shape))]
    cells: dict[tuple, list[int]] = {}
    for device, idx in pieces.items():
        key = tuple(starts[a].index(idx[a].start or 0) for a in range(len(shape)))
        key = (0, *key) if len(key) == 1 else key  # a 1-d array is drawn as one row
        cells.setdefault(key, []).append(device.id)
    return cells


def visualize_sharding(shape: Sequence[int], sharding: Any, **options: Any) -> None:
    """Prints the blocks of an array of `shape` laid out by `sharding`.

    Args:
      shape: a 1-d or 2-d shape.
      sharding: a `Sharding` (`NamedSharding`, `SingleDeviceSharding`, ...).
      **options: JAX's display options (`use_color`, `scale`, `min_width`, `max_width`,
        `color_map`), accepted and ignored.
    """
    if len(shape) not in (1, 2):
        raise ValueError(
            f"visualize_sharding only supports 1- and 2-D shardings, got shape {tuple(shape)}."
        )
    cells = _blocks(shape, sharding)
    rows = 1 + max(r for r, _ in cells)
    cols = 1 + max(c for _, c in cells)
    labels = {k: "CPU " + ",".join(map(str, sorted(v))) for k, v in cells.items()}
    width = 2 + max(len(label) for label in labels.values())

    def rule(left: str, mid: str, right: str) -> str:
        return left + mid.join("─" * width for _ in range(cols)) + right

    lines = [rule("┌", "┬", "┐")]
    for r in range(rows):
        lines.append("│" + "│".join(labels[r, c].center(width) for c in range(cols)) + "│")
        lines.append(rule("├", "┼", "┤") if r < rows - 1 else rule("└", "┴", "┘"))
    print("\n".join(lines))


def visualize_array_sharding(arr: Any, **options: Any) -> None:
    """Prints which devices hold which block of `arr` (see `visualize_sharding`).

    Args:
      arr: a 1-d or 2-d `Array`.
      **options: JAX's display options, accepted and ignored.
    """
    visualize_sharding(arr.shape, arr.sharding, **options)
