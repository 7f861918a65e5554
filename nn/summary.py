"""Model summaries: ``Module.tabulate``/``nn.tabulate`` and ``parameter_overview`` (like ``clu``'s).

``tabulate`` runs ``init`` under ``core.eval_shape`` (shapes only, nothing computed or
compiled) while a recorder notes every module method call: path, class, input and output
shapes. Each row counts only the variables the module owns directly (its whole subtree when
``depth`` folds it), so totals are exact sums over the variable tree (no double counting).
"""

from __future__ import annotations

import dataclasses
import enum
import math
import os
import re
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

import core
import core.numpy
from core.profiler.cost import jaxpr_flops
from core.table_widths import fit_widths
from nn import module as module_lib
from nn.meta import Partitioned
from nn.traverse_util import flatten_dict


def _value_markup(x: Any) -> str:
    """A leaf of an input, output or variable tree as Flax's table shows it: arrays as
    ``[dim]float32[/dim][2,3]`` (rich markup), boxed arrays with their partition names, Python
    scalars and anything else by ``repr``."""
    if isinstance(x, (int, float, bool, type(None))):
        return repr(x)
    if isinstance(x, Partitioned):
        return f"{_value_markup(x.value)} [dim]P[/dim]{x.names}"
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        dtype = x.dtype if not isinstance(x.dtype, np.dtype) else x.dtype.name
        return f"[dim]{dtype}[/dim][{','.join(str(d) for d in x.shape)}]"
    if isinstance(x, str):  # as in Flax, a string that names a dtype shows as a scalar of it
        try:
            return f"[dim]{core.numpy.result_type(x).name}[/dim][]"
        except TypeError:
            pass
    return repr(x)


def _represent(tree: Any) -> Any:
    """``tree`` with every leaf as its markup and its containers as plain dicts (keys sorted,
    as a tree map rebuilds them) and tuples (lists and dataclasses' fields too), ready for
    `_yaml`."""
    tree = core.tree_util.tree_map(
        _value_markup, tree, is_leaf=lambda x: x is None or isinstance(x, Partitioned)
    )
    return _plain(tree)


def _plain(x: Any) -> Any:
    if isinstance(x, (tuple, list)):
        return tuple(_plain(v) for v in x)
    if isinstance(x, Mapping):
        return {_plain(k): _plain(v) for k, v in x.items()}
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: _plain(getattr(x, f.name)) for f in dataclasses.fields(x)}
    if isinstance(x, enum.Enum):
        return x.value
    return x


def _yaml(value: Any) -> str:
    """``value`` (dicts, tuples and strings from `_represent`) in YAML's block style, two
    spaces a level, quotes left out: the text of one of Flax's table cells."""
    if value is None or (hasattr(value, "__len__") and len(value) == 0):
        return ""
    return "\n".join(_yaml_lines(value, 0)).replace("'", "")


def _yaml_scalar(value: Any) -> str:
    if isinstance(value, Mapping):
        return "{}"
    if isinstance(value, tuple):
        return "[]"
    return str(value)


def _yaml_lines(value: Any, indent: int) -> list[str]:
    """The lines of ``value`` (a non-empty dict or tuple, or a scalar) at ``indent``."""
    pad = " " * indent
    if isinstance(value, Mapping) and value:
        lines = []
        for key, item in value.items():
            if isinstance(item, (Mapping, tuple)) and item:
                lines.append(f"{pad}{key}:")
                # a list under a key is not indented (YAML's default), a mapping is
                lines += _yaml_lines(item, indent + (2 if isinstance(item, Mapping) else 0))
            else:
                lines.append(f"{pad}{key}: {_yaml_scalar(item)}")
        return lines
    if isinstance(value, tuple) and value:
        lines = []
        for item in value:
            inner = _yaml_lines(item, indent + 2)
            lines.append(f"{pad}- {inner[0][indent + 2 :]}")
            lines += inner[1:]
        return lines
    return [pad + _yaml_scalar(value)]


class _CallRecorder:
    """Collects ``(path, class, method, inputs, outputs)`` in call order (entry order), and with
    ``keep_calls`` an unbound copy of each call (module, method, arguments) to count FLOPs."""

    def __init__(self, keep_calls: bool = False) -> None:
        self.rows: dict[int, tuple] = {}
        self.calls: dict[int, tuple] = {}
        self.non_methods: set[int] = set()
        self._keep_calls = keep_calls
        self._next = 0

    def enter(self) -> int:
        self._next += 1
        return self._next

    def exit(self, index: int, module: Any, method: str, args: tuple, kwargs: dict, y: Any) -> None:
        if not hasattr(type(module), method):
            # a function a lifted transform runs on the module (RNN's scan body), not one of
            # its methods: as Flax, a row only with show_repeated, and it owns no variables
            self.non_methods.add(index)
        if args and kwargs:
            inputs = (*args, kwargs)
        elif kwargs or len(args) != 1:
            inputs = kwargs or args
        else:
            inputs = args[0]
        self.rows[index] = (
            module.scope.path,
            type(module).__name__,
            method,
            _yaml(_represent(inputs)),
            _yaml(_represent(y)),
        )
        if self._keep_calls:
            abstract = core.tree_util.tree_map(_abstract, (args, kwargs))
            self.calls[index] = (module.clone(parent=None, _deep_clone=True), method, abstract)


def _abstract(x: Any) -> Any:
    """A ``ShapeDtypeStruct`` for an array (or tracer), anything else as is."""
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        return core.ShapeDtypeStruct(tuple(x.shape), x.dtype)
    return x


def _call_flops(call: tuple, rngs: Any, vjp: bool) -> int:
    """FLOPs of running one recorded call (``vjp``: of its VJP, forward pass included), as
    Flax counts them: ``apply`` with every collection mutable, array arguments dynamic."""
    module, method, (args, kwargs) = call
    leaves, treedef = core.tree_util.tree_flatten((args, kwargs))
    dynamic = [i for i, x in enumerate(leaves) if isinstance(x, core.ShapeDtypeStruct)]

    def inputs(values: list) -> tuple:
        full = list(leaves)
        for i, v in zip(dynamic, values):
            full[i] = v
        return core.tree_util.tree_unflatten(treedef, full)

    def init(values: list) -> Any:
        a, k = inputs(values)
        return module.init(rngs, *a, method=method, **k)

    def apply(variables: Any, values: list) -> Any:
        a, k = inputs(values)
        return module.apply(variables, *a, rngs=rngs, method=method, mutable=True, **k)

    def apply_vjp(variables: Any, values: list) -> Any:
        out, pullback = core.vjp(apply, variables, values)
        return pullback(out)

    values = [leaves[i] for i in dynamic]
    variables = core.eval_shape(init, values)
    jaxpr = core.make_jaxpr(apply_vjp if vjp else apply)(variables, values)
    return jaxpr_flops(jaxpr.jaxpr)


def _path_variables(variables: Mapping, path: tuple[str, ...]) -> dict[str, Any]:
    """``{collection: the variables under path}`` for the collections that reach ``path``."""
    found = {}
    for col, tree in variables.items():
        for name in path:
            if not isinstance(tree, Mapping) or name not in tree:
                break
            tree = tree[name]
        else:
            found[col] = tree
    return found


def _own_variables(
    variables: Mapping, path: tuple[str, ...], all_paths: set[tuple[str, ...]]
) -> dict[str, Any]:
    """The variables under ``path`` less those of the submodules called (Flax's rule: a key
    that is a called module's name is that module's)."""
    return {
        col: {k: v for k, v in tree.items() if path + (k,) not in all_paths}
        if isinstance(tree, Mapping)
        else tree
        for col, tree in _path_variables(variables, path).items()
    }


def _count(tree: Any) -> tuple[int, int]:
    """(number of elements, bytes) of a tree's arrays (boxes such as ``nn.Partitioned`` open)."""
    leaves = [leaf for leaf in core.tree_util.tree_leaves(tree) if hasattr(leaf, "shape")]
    size = sum(int(np.prod(leaf.shape)) for leaf in leaves)
    nbytes = sum(int(np.prod(leaf.shape)) * np.dtype(leaf.dtype).itemsize for leaf in leaves)
    return size, nbytes


def _size_repr(size: int, nbytes: int) -> str:
    """``"1,234 (4.9 KB)"`` in Flax's markup (the bytes dim), empty for no elements."""
    if not size:
        return ""
    for scale, unit in ((1e9, "GB"), (1e6, "MB"), (1e3, "KB")):
        if nbytes > scale:
            return f"{size:,} [dim]({nbytes / scale:,.1f} {unit})[/dim]"
    return f"{size:,} [dim]({nbytes:,} B)[/dim]"


_TABLE_OPTIONS = {"expand", "width"}
_COLUMN_OPTIONS = {"justify", "overflow", "no_wrap", "width", "min_width", "max_width"}
_FLAX_SETS = {"show_header", "show_lines", "show_footer", "title"}


def _check_options(table: Mapping[str, Any], column: Mapping[str, Any]) -> None:
    """Refuse the rich options Flax sets itself (rich's TypeError) and those numbax's drawing
    does not follow."""
    for name in table:
        if name in _FLAX_SETS:
            raise TypeError(f"rich.table.Table() got multiple values for keyword argument {name!r}")
    unknown = sorted(set(table) - _TABLE_OPTIONS) + sorted(set(column) - _COLUMN_OPTIONS)
    if unknown:
        raise NotImplementedError(
            f"tabulate draws its table without rich and does not follow the option(s) "
            f"{unknown}; the table_kwargs it follows are {sorted(_TABLE_OPTIONS)}, the "
            f"column_kwargs {sorted(_COLUMN_OPTIONS)}"
        )


def _table(header: list[str], rows: list[list[str]], footer: list[str] | None = None) -> str:
    """An ASCII table with a header row, body rows and an optional footer row."""
    every = [header, *rows] + ([footer] if footer else [])
    widths = [max(len(r[i]) for r in every) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"

    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    lines = [rule, line(header), rule, *map(line, rows), rule]
    if footer:
        lines += [line(footer), rule]
    return "\n".join(lines)


# included (bold header and footer, dim dtypes, italic title), without rich.

_TAG = re.compile(r"\[([a-z#/@][^\[]*?)\]")
_SGR = {"bold": 1, "dim": 2, "italic": 3, "underline": 4, "reverse": 7, "strike": 9}
_HEAVY_HEAD = {  # (left, horizontal, cross, right) of each kind of line
    "top": "┏━┳┓",
    "head": "┃ ┃┃",
    "head_row": "┡━╇┩",
    "row": "├─┼┤",
    "mid": "│ ││",
    "bottom": "└─┴┘",
}
_Style = frozenset  # a set of attribute names ("bold", "dim", ...)


@dataclasses.dataclass
class _Text:
    """A line of text with styled spans ``(start, end, style)``, as rich's ``Text``."""

    plain: str
    spans: list[tuple[int, int, _Style]] = dataclasses.field(default_factory=list)
    justify: str | None = None  # a cell's own justification, over its column's

    def slice(self, start: int, end: int) -> _Text:
        spans = [
            (max(s, start) - start, min(e, end) - start, st)
            for s, e, st in self.spans
            if s < end and e > start
        ]
        return _Text(self.plain[start:end], spans)

    def set_plain(self, plain: str) -> None:
        """New text, spans cut to its length (as rich trims them)."""
        self.plain = plain
        n = len(plain)
        self.spans = [(s, min(e, n), st) for s, e, st in self.spans if s < n]

    def pad_left(self, n: int) -> None:
        self.plain = " " * n + self.plain
        self.spans = [(s + n, e + n, st) for s, e, st in self.spans]

    def rstrip(self) -> None:
        self.set_plain(self.plain.rstrip())

    def truncate(self, width: int, overflow: str, pad: bool = False) -> None:
        if len(self.plain) > width:
            cut = self.plain[: width - 1] + "…" if overflow == "ellipsis" else self.plain[:width]
            self.set_plain(cut)
        elif pad and len(self.plain) < width:
            self.plain += " " * (width - len(self.plain))


def _markup(source: str, markup: bool = True) -> _Text:
    """rich's console markup: ``[bold]x[/bold]``, ``[dim]...[/]``; unknown tags style nothing."""
    if not markup:
        return _Text(source)
    pieces, spans, opened, length, pos = [], [], [], 0, 0
    for match in _TAG.finditer(source):
        pieces.append(source[pos : match.start()])
        length += match.start() - pos
        pos = match.end()
        tag = match.group(1)
        if tag.startswith("/"):
            name = tag[1:].strip()
            for i in range(len(opened) - 1, -1, -1):
                if not name or opened[i][0] == name:
                    style, start = opened.pop(i)
                    spans.append((start, length, _Style(style.split())))
                    break
        else:
            opened.append((tag, length))
    pieces.append(source[pos:])
    length += len(source) - pos
    spans += [(start, length, _Style(style.split())) for style, start in opened]
    return _Text("".join(pieces), spans)


def _word_breaks(text: str, width: int, fold: bool) -> list[int]:
    """Where a line breaks to fit ``width``: before a word that does not fit (a word owns the
    spaces after it); a word wider than a line is cut (``fold``) or left whole."""
    breaks, used = [], 0
    for match in re.finditer(r"\s*\S+\s*", text):
        start, word = match.start(), match.group(0)
        length = len(word.rstrip())
        if width - used >= length:
            used += len(word)
        elif length > width:
            if fold:
                chunks = [word[i : i + width] for i in range(0, len(word), width)]
                for i, chunk in enumerate(chunks):
                    if start:
                        breaks.append(start)
                    if i == len(chunks) - 1:
                        used = len(chunk)
                    else:
                        start += len(chunk)
            else:
                if start:
                    breaks.append(start)
                used = len(word)
        elif used and start:
            breaks.append(start)
            used = len(word)
    return breaks


def _wrap(text: _Text, width: int, justify: str, overflow: str, no_wrap: bool) -> list[_Text]:
    """``text``'s lines at ``width``, word-wrapped and justified as rich does."""
    lines, offset = [], 0
    for piece in text.plain.split("\n"):
        line = text.slice(offset, offset + len(piece))
        offset += len(piece) + 1
        if no_wrap:
            parts = [line]
        else:
            cuts = [0, *_word_breaks(line.plain, width, fold=overflow == "fold"), len(line.plain)]
            parts = [line.slice(a, b) for a, b in zip(cuts, cuts[1:])] or [line]
            for part in parts:  # spaces beyond the width go
                excess = len(part.plain) - width
                if excess > 0:
                    spaces = len(part.plain) - len(part.plain.rstrip())
                    part.set_plain(part.plain[: len(part.plain) - min(spaces, excess)])
        for part in parts:
            if justify == "left":
                part.truncate(width, overflow, pad=True)
            elif justify in ("right", "center"):
                part.rstrip()
                part.truncate(width, overflow)
                room = width - len(part.plain)
                part.pad_left(room if justify == "right" else room // 2)
                part.plain += " " * (width - len(part.plain))
            part.truncate(width, overflow)
        lines += parts
    return lines


def _segments(line: _Text, style: _Style) -> list[tuple[str, _Style]]:
    """``line`` cut where a span starts or ends, each piece with its styles and ``style``."""
    n = len(line.plain)
    cuts = sorted({0, n, *(p for s, e, _ in line.spans for p in (s, e) if 0 < p < n)})
    out = []
    for a, b in zip(cuts, cuts[1:]):
        styles = [st for s, e, st in line.spans if s <= a and e >= b]
        out.append((line.plain[a:b], style.union(*styles)))
    return out


def _measure(text: _Text) -> tuple[int, int]:
    """(longest word, longest line): the narrowest and widest a cell wants to be."""
    lines = text.plain.splitlines()
    widest = max((len(line) for line in lines), default=0)
    words = text.plain.split()
    return (max(len(w) for w in words) if words else widest), widest


def _cell_range(text: _Text, room: int) -> tuple[int, int]:
    """rich's measurement of a cell (its text with a space either side) given ``room``."""
    if room - 2 < 1:
        return room, room
    low, high = _measure(text)
    high = min(high, room - 2)
    low = min(max(0, low), high)
    if high < 1:
        low = high = 0
    return min(low + 2, room), min(high + 2, room)


def _column_width(cells: list[_Text], room: int, column: Mapping[str, Any]) -> tuple[int, int]:
    if room < 1:
        return 0, 0
    if column.get("width") is not None:
        return (min(column["width"] + 2, room),) * 2
    ranges = [_cell_range(c, room) for c in cells]
    low = min(max(r[0] for r in ranges), room)
    high = min(max(r[1] for r in ranges), room)
    if column.get("min_width") is not None:
        low, high = max(low, column["min_width"] + 2), max(high, column["min_width"] + 2)
    if column.get("max_width") is not None:
        low, high = min(low, column["max_width"] + 2), min(high, column["max_width"] + 2)
    return low, high


def _spread(total: int, ratios: list[int]) -> list[int]:
    """``total`` split in proportion to ``ratios`` (rounding up, first come first served)."""
    weight, left, out = sum(ratios), total, []
    for ratio in ratios:
        share = math.ceil(ratio * left / weight) if weight > 0 else left
        out.append(share)
        weight -= ratio
        left -= share
    return out


def _column_widths(
    columns: list[list[_Text]], options: list[Mapping[str, Any]], room: int, expand: bool
) -> list[int]:
    """rich's column widths: each column as wide as its widest line, narrowed (wrapping) when
    the table is wider than ``room``, spread over ``room`` with ``expand``."""
    widths = [_column_width(c, room, o)[1] or 1 for c, o in zip(columns, options)]
    if sum(widths) > room:
        wrappable = [o.get("width") is None and not o.get("no_wrap") for o in options]
        widths = fit_widths(widths, wrappable, room)
        widths = [_column_width(c, w, o)[1] for c, o, w in zip(columns, options, widths)]
    if expand and sum(widths) < room:
        widths = [w + p for w, p in zip(widths, _spread(room - sum(widths), widths))]
    return widths


def _ansi(segments: list[tuple[str, _Style]], styled: bool) -> str:
    """Segments as terminal text: each styled one wrapped in its SGR codes (rich's output)."""
    out = []
    for text, style in segments:
        codes = sorted(_SGR[s] for s in style if s in _SGR)
        out.append(f"\x1b[{';'.join(map(str, codes))}m{text}\x1b[0m" if styled and codes else text)
    return "".join(out)


def _rule(kind: str, widths: list[int]) -> str:
    left, across, cross, right = _HEAVY_HEAD[kind]
    return left + cross.join(across * w for w in widths) + right


def _draw(
    title: str,
    columns: list[list[_Text]],
    caption: str,
    console: Mapping[str, Any],
    table: Mapping[str, Any],
    column_options: list[Mapping[str, Any]],
) -> str:
    """The table as rich prints it: ``columns`` hold each column's header, body cells and
    footer (``_Text``; a cell's justification in its ``justify`` option)."""
    width, styled, markup = _console(console)
    room = (table.get("width") or width) - (len(columns) + 1)
    expand = bool(table.get("expand")) or table.get("width") is not None
    widths = _column_widths(columns, column_options, room, expand)
    total = sum(widths) + len(columns) + 1
    header_style, footer_style = _Style({"bold"}), _Style({"bold"})
    n_rows = len(columns[0])
    lines = []
    for text in _wrap(_markup(title, markup), total, "center", "fold", False):
        lines.append(_ansi(_segments(text, _Style({"italic"})), styled))
    lines.append(_rule("top", widths))
    for row in range(n_rows):
        style = header_style if row == 0 else footer_style if row == n_rows - 1 else _Style()
        cells = []
        for column, option, w in zip(columns, column_options, widths):
            text = column[row]
            justify = text.justify or option.get("justify", "left")
            overflow = option.get("overflow", "ellipsis")
            if w - 2 < 1:  # no room: rich crops the cell to its padding
                wrapped = [_Text("")]
            else:
                wrapped = _wrap(text, w - 2, justify, overflow, bool(option.get("no_wrap")))
            pad = [(" ", style)]
            cells.append([pad + _segments(t, style) + pad for t in wrapped])
        height = max(len(c) for c in cells)
        for c, w in zip(cells, widths):
            blank = [[(" " * w, style)]] * (height - len(c))
            c[:] = blank + c if row == 0 else c + blank  # the header sits on the bottom line
        kind = "head" if row == 0 else "mid"
        left, _, bar, right = _HEAVY_HEAD[kind]
        for i in range(height):
            lines.append(left + bar.join(_ansi(c[i], styled) for c in cells) + right)
        if row == 0:
            lines.append(_rule("head_row", widths))
        elif row < n_rows - 1:
            lines.append(_rule("row", widths))
    lines.append(_rule("bottom", widths))
    for text in _wrap(_markup(caption, markup), total, "center", "fold", False):
        lines.append(_ansi(_segments(text, _Style({"bold"})), styled))
    return "\n" + "\n".join(lines) + "\n\n"


def _console(options: Mapping[str, Any]) -> tuple[int, bool, bool]:
    """(width, styled, markup) of the rich console Flax prints with: ``width`` or the
    ``COLUMNS`` environment variable or the terminal's width or 80 (80 on a dumb terminal);
    styled (ANSI codes) when forced to a terminal (Flax's default) with a color system."""
    term = os.environ.get("TERM", "").lower()
    terminal = options.get("force_terminal", True)
    dumb = bool(terminal) and term in ("dumb", "unknown")
    width = options.get("width")
    if width is None or dumb:
        width = None
        if not dumb:
            for fd in (0, 1, 2):
                try:
                    width = os.get_terminal_size(fd).columns
                    break
                except (AttributeError, ValueError, OSError):
                    continue
            columns = os.environ.get("COLUMNS", "")
            if columns.isdigit():
                width = int(columns)
        width = width or 80
    styled = bool(terminal) and not dumb and options.get("color_system", "auto") is not None
    return width, styled, options.get("markup", True)


def tabulate(
    module: Any,
    rngs: Any,
    depth: int | None = None,
    show_repeated: bool = False,
    compute_flops: bool = False,
    compute_vjp_flops: bool = False,
    console_kwargs: Mapping[str, Any] | None = None,
    table_kwargs: Mapping[str, Any] | None = None,
    column_kwargs: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> Callable[..., str]:
    """Flax's ``nn.tabulate``: a function of the example inputs returning the summary table.

    ``nn.tabulate(model, key, compute_flops=True)(x)`` is ``model.tabulate(key, x,
    compute_flops=True)``.

    Args:
      module: the (unbound) model.
      rngs: a key or ``{stream: key}``.
      depth: as for `table`.
      show_repeated: as for `table`.
      compute_flops: as for `table`.
      compute_vjp_flops: as for `table`.
      console_kwargs: as for `table`.
      table_kwargs: as for `table`.
      column_kwargs: as for `table`.
      **kwargs: keyword arguments for ``init``, given with every call.

    Returns:
      ``f(*args, **more_kwargs) -> str``.
    """

    def tabulate_fn(*args: Any, **more: Any) -> str:
        return table(
            module,
            rngs,
            *args,
            depth=depth,
            show_repeated=show_repeated,
            compute_flops=compute_flops,
            compute_vjp_flops=compute_vjp_flops,
            console_kwargs=console_kwargs,
            table_kwargs=table_kwargs,
            column_kwargs=column_kwargs,
            **kwargs,
            **more,
        )

    return tabulate_fn


def _record_calls(
    module: Any, rngs: Any, args: tuple, kwargs: dict, keep_calls: bool
) -> tuple[_CallRecorder, Any]:
    """The calls ``module.init(rngs, *args, **kwargs)`` makes, run abstractly (``eval_shape``),
    and the variables' shapes."""
    recorder = _CallRecorder(keep_calls=keep_calls)
    previous = module_lib._context.call_recorder
    module_lib._context.call_recorder = recorder
    try:
        # Keyword arguments (typically flags like ``train=True``) stay concrete.
        variables = core.eval_shape(lambda r, *a: module.init(r, *a, **kwargs), rngs, *args)
    finally:
        module_lib._context.call_recorder = previous
    return recorder, variables


def module_paths(
    module: Any, rngs: Any, *args: Any, show_repeated: bool = False, **kwargs: Any
) -> dict[str, Any]:
    """The modules ``module.init(rngs, *args, **kwargs)`` calls, by path, as Flax's
    ``Module.module_paths``: the rows `table` would show.

    Args:
      module: the (unbound) model.
      rngs: a key or ``{stream: key}``.
      *args: example inputs.
      show_repeated: as for `table` (a module called again maps to its last call's copy).
      **kwargs: keyword arguments for ``init``.

    Returns:
      ``{"Dense_0": Dense(...), ...}`` in call order (``""`` is ``module``): unbound copies of
      the modules as they were called.
    """
    recorder, _ = _record_calls(module, rngs, args, kwargs, keep_calls=True)
    paths: dict[str, Any] = {}
    for index in sorted(recorder.rows):
        path, _, method, _, _ = recorder.rows[index]
        if method.startswith("_") and method != "__call__":  # a module's private helper
            continue
        key = "/".join(path)
        if show_repeated or key not in paths:
            paths[key] = recorder.calls[index][0]
    return paths


def table(
    module: Any,
    rngs: Any,
    *args: Any,
    depth: int | None = None,
    show_repeated: bool = False,
    compute_flops: bool = False,
    compute_vjp_flops: bool = False,
    console_kwargs: Mapping[str, Any] | None = None,
    table_kwargs: Mapping[str, Any] | None = None,
    column_kwargs: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> str:
    """Flax's summary table of the module calls made by ``module.init(rngs, *args, **kwargs)``,
    drawn as Flax draws it with ``rich`` (box characters, a title, a totals row and line).

    Args:
      module: the (unbound) model.
      rngs: a key or ``{stream: key}``.
      *args: example inputs.
      depth: show only calls at most this many levels below the root; rows at that depth
        count the variables of their whole subtree.
      show_repeated: show every call of a module method, not only the first.
      compute_flops: add a ``flops`` column: the FLOPs of each call's forward pass, counted as
        XLA's cost analysis counts them (``core.profiler.cost``; Flax's column).
      compute_vjp_flops: add a ``vjp_flops`` column: the FLOPs of each call's VJP (forward
        pass included), about 3x the forward pass.
      console_kwargs: the options of rich's console Flax prints with: ``width`` (default: the
        ``COLUMNS`` environment variable, else the terminal's width, else 80),
        ``force_terminal`` (default ``True``: bold, dim and italic as ANSI codes; ``False``:
        plain text), ``color_system`` (``None``: plain) and ``markup``; others are ignored.
      table_kwargs: rich's table options ``expand`` and ``width`` (others raise
        ``NotImplementedError``; ``title`` and the ``show_*`` flags, which Flax sets itself,
        ``TypeError`` as in Flax).
      column_kwargs: rich's column options ``justify``, ``overflow``, ``no_wrap``, ``width``,
        ``min_width`` and ``max_width``, for every column (others raise
        ``NotImplementedError``).
      **kwargs: keyword arguments for ``init`` (``mutable`` among them).

    Returns:
      The table (with Flax's leading and trailing newline): one row per module call with its
      own variables per collection (sorted by name), a totals row, then the total line.
    """
    recorder, variables = _record_calls(
        module, rngs, args, kwargs, keep_calls=compute_flops or compute_vjp_flops
    )
    collections = sorted(variables)
    flop_columns = [
        c for c, on in (("flops", compute_flops), ("vjp_flops", compute_vjp_flops)) if on
    ]
    call_rngs = rngs if isinstance(rngs, Mapping) else {"params": rngs}
    calls = [
        i
        for i in sorted(recorder.rows)
        if not (recorder.rows[i][2].startswith("_") and recorder.rows[i][2] != "__call__")
    ]  # a module's private helpers are no rows
    all_paths = {recorder.rows[i][0] for i in calls}
    rows, visited = [], set()
    for index in calls:
        path, cls, method, inputs, outputs = recorder.rows[index]
        if path in visited or index in recorder.non_methods:
            # a module called again, or a function a lifted transform runs on it (RNN's scan
            # body): as Flax, a row only with show_repeated, and it owns no variables
            if not show_repeated:
                continue
            own, counted = {}, {}
        elif depth is not None and len(path) > depth:
            continue
        else:
            own = _own_variables(variables, path, all_paths)
            counted = _path_variables(variables, path) if len(path) == depth else own
        visited.add(path)
        shown = "" if method in ("__call__", "<lambda>") else f" [dim]({method})[/dim]"
        cells = ["/".join(path), cls + shown, inputs, outputs]
        for column in flop_columns:
            flops = _call_flops(recorder.calls[index], call_rngs, vjp=column == "vjp_flops")
            cells.append(str(flops))
        sizes = [_count(counted.get(col, {})) for col in collections]
        for col, size in zip(collections, sizes):
            listing = _yaml(_represent(own[col])) if col in own else ""
            listing += "\n\n" if listing else ""
            cells.append(f"{listing}[bold]{_size_repr(*size)}[/bold]")
        rows.append((cells, sizes))
    totals = [tuple(map(sum, zip(*(r[1][i] for r in rows)))) for i in range(len(collections))]
    header = ["path", "module", "inputs", "outputs", *flop_columns, *collections]
    footer = [_Text("")] * (len(header) - len(collections) - 1)
    footer.append(_Text("Total", justify="right"))
    markup = _console(console_kwargs or {})[2]
    footer += [_markup(_size_repr(*t), markup) for t in totals]
    grid = [[_markup(h, markup) for h in header]]
    grid += [[_markup(c, markup) for c in r[0]] for r in rows]
    grid.append(footer)
    options = dict(column_kwargs or {})
    _check_options(table_kwargs or {}, options)
    everything = tuple(map(sum, zip((0, 0), *totals)))
    return _draw(
        f"{type(module).__name__} Summary",
        [list(column) for column in zip(*grid)],
        f"\nTotal Parameters: {_size_repr(*everything)}",
        {"force_terminal": True, **(console_kwargs or {})},
        table_kwargs or {},
        [options] * len(header),
    )


def parameter_overview(params: Mapping, include_stats: bool = True) -> str:
    """A table of every parameter: name, shape, size, mean and std, then the total (clu's).

    Args:
      params: a nested dict of arrays (e.g. ``variables['params']``).
      include_stats: include the mean and std columns.

    Returns:
      The table as a string.
    """
    flat = flatten_dict(params, sep="/")
    header = ["Name", "Shape", "Size"] + (["Mean", "Std"] if include_stats else [])
    rows = []
    for name, value in flat.items():
        arr = np.asarray(value)
        row = [name, str(arr.shape), f"{arr.size:,}"]
        if include_stats:
            row += [f"{arr.mean():.3g}", f"{arr.std():.3g}"] if arr.size else ["", ""]
        rows.append(row)
    total = sum(np.asarray(v).size for v in flat.values())
    return _table(header, rows) + f"\nTotal: {total:,}"
