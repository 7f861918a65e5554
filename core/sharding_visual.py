"""`core.debug.visualize_array_sharding` / `visualize_sharding`: which devices hold which block.

Prints a box-drawn table with one cell per block of a 1-d or 2-d array, labelled with the
devices holding it (`CPU 0,4` for a block replicated on devices 0 and 4), laid out as JAX lays
it out: JAX sizes each cell by the block's share of the array (`scale`, `min_width`,
`max_width`) and prints the table with `rich` (a square box, a line between rows, the label
centred); this draws the same characters without `rich`. Differences: JAX colours the cells
when printing to a terminal with `matplotlib` installed (this never does); a table wider than
`max_width` is narrowed column by column and its labels wrapped as `rich` does it for the
labels JAX makes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.table_widths import fit_widths

_HEIGHT_TO_WIDTH = 2.5  # a character cell is about 2.5 times as tall as it is wide


def _chunk(size: int, piece: slice) -> int:
    """Which block along an axis of `size` the slice `piece` is (JAX's `_slice_to_chunk_idx`)."""
    if piece.start is None and piece.stop is None:
        return 0
    return piece.start // (piece.stop - piece.start)


def _cells(shape: Sequence[int], sharding: Any, scale: float, min_width: int, max_width: int):
    """(row, column) -> [label, width, height] of each block, as JAX sizes them."""
    base_height = int(10 * scale)
    aspect = (shape[1] if len(shape) == 2 else 1) / shape[0]
    base_width = int(base_height * aspect)
    kind = next(iter(sharding.device_set)).platform.upper()
    cells: dict[tuple[int, int], list] = {}
    ids: dict[tuple[int, int], set[int]] = {}
    for device, index in sharding.devices_indices_map(tuple(shape)).items():
        index = tuple(i if isinstance(i, slice) else slice(i, i + 1) for i in index)
        spans = [
            (s.stop if s.stop is not None else n) - (s.start or 0) for s, n in zip(index, shape)
        ]
        key = tuple(_chunk(n, s) for n, s in zip(shape, index))
        if len(shape) == 2:
            height: float | None = spans[0] / shape[0]
            width = spans[1] / shape[1]
        else:
            key, height, width = (0, *key), None, spans[0] / shape[0]
        cells[key] = [None, width, height]
        ids.setdefault(key, set()).add(device.id)
    for key, cell in cells.items():
        cell[0] = f"{kind} " + ",".join(str(i) for i in sorted(ids[key]))
        width = min(max(int(cell[1] * base_width * _HEIGHT_TO_WIDTH), min_width), max_width)
        cell[1] = width
        cell[2] = 1 if cell[2] is None else int(cell[2] * base_height)
    return cells


def _padding(label: str, width: int, height: int) -> tuple[int, int, int, int]:
    """(top, right, bottom, left) blank space around a label in a cell of `width` x `height`."""
    left, extra = divmod(width - len(label) - 2, 2)
    top, extra_rows = divmod(height - 2, 2)
    return max(top, 0), max(left + extra, 0), max(top + extra_rows, 0), max(left, 0)


def _wrapped(label: str, inner: int) -> list[str]:
    """`label` word-wrapped to `inner` characters, a word too long cut with an ellipsis (how
    `rich` fits a cell's text)."""
    lines: list[str] = []
    for word in label.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= inner:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return [line if len(line) <= inner else line[: inner - 1] + "…" for line in lines]


def _cell_lines(label: str, pad: tuple[int, int, int, int], width: int) -> list[str]:
    """A cell's lines at `width`: the label centred between its paddings."""
    top, right, bottom, left = pad
    inner = width - left - right
    middle = []
    if inner >= 1:
        for text in _wrapped(label, inner):
            before = (inner - len(text)) // 2
            middle.append((" " * (left + before) + text).ljust(width)[:width])
    return [" " * width] * top + middle + [" " * width] * bottom


def visualize_sharding(
    shape: Sequence[int],
    sharding: Any,
    *,
    use_color: bool = True,
    scale: float = 1.0,
    min_width: int = 9,
    max_width: int = 80,
    color_map: Any = None,
) -> None:
    """Prints the blocks of an array of `shape` laid out by `sharding`, as JAX prints them.

    Args:
      shape: a 1-d or 2-d shape.
      sharding: a `Sharding` (`NamedSharding`, `SingleDeviceSharding`, ...).
      use_color: JAX's colouring of the cells (the cells are never coloured here).
      scale: the cells' size (a block of the whole array is `10 * scale` lines high).
      min_width: the narrowest cell, in characters.
      max_width: the widest cell, and the width of the table at most.
      color_map: JAX's colour map (unused).

    Raises:
      ValueError: `shape` has neither 1 nor 2 dimensions.
    """
    if len(shape) not in (1, 2):
        error = ValueError("`visualize_sharding` only works for shapes with 1 and 2 dimensions.")
        error.add_note("Visualize a 1-d or 2-d slice or reshape of the array.")
        raise error
    cells = _cells(shape, sharding, scale, min_width, max_width)
    rows = 1 + max(r for r, _ in cells)
    cols = 1 + max(c for _, c in cells)
    pads = {k: _padding(label, w, h) for k, (label, w, h) in cells.items()}
    room = max_width - 2 - (cols - 1)  # the table's width less its borders

    def measure(key: tuple[int, int], limit: int) -> int:
        extra = pads[key][1] + pads[key][3]
        if limit - extra < 1:
            return limit
        return min(min(len(cells[key][0]), limit - extra) + extra, limit)

    widths = [max(measure((r, c), room) for r in range(rows)) for c in range(cols)]
    if sum(widths) > room:
        widths = fit_widths(widths, [True] * len(widths), room)
        widths = [max(measure((r, c), w) for r in range(rows)) for c, w in enumerate(widths)]
    lines = ["┌" + "┬".join("─" * w for w in widths) + "┐"]
    for r in range(rows):
        blocks = [_cell_lines(cells[r, c][0], pads[r, c], widths[c]) for c in range(cols)]
        height = max(1, *(len(b) for b in blocks))
        for i in range(height):
            parts = [b[i] if i < len(b) else " " * widths[c] for c, b in enumerate(blocks)]
            lines.append("│" + "│".join(parts) + "│")
        if r < rows - 1:
            lines.append("├" + "┼".join("─" * w for w in widths) + "┤")
    lines.append("└" + "┴".join("─" * w for w in widths) + "┘")
    print("\n".join(lines))


def visualize_array_sharding(arr: Any, **options: Any) -> None:
    """Prints which devices hold which block of `arr` (see `visualize_sharding`).

    Args:
      arr: a 1-d or 2-d `Array`.
      **options: `visualize_sharding`'s display options.
    """
    visualize_sharding(arr.shape, arr.sharding, **options)
