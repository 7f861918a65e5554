"""What a ported program printed, in the form its answers compare: the programs' shared harness
(plain Python, no JAX: the same module serves JAX's recording run and numbax's test run).

A program runs its notebook's cells with stdout captured and cuts what they print at each
`mark(cell)`:

    def run():
      out = {}
      with printed.Cells(printed.numbered) as cells:
        _cells(out, cells.mark)
      out['printed'] = cells.printed
      return out

A printed line becomes its text with the numbers as '#' and the numbers apart (`numbered`), so
float round-off is compared with the checks' tolerance rather than digit by digit. `notebook`
does all of it for a notebook ported cell by cell (`show` for a cell's last expression, `error`
for a `raises-exception` cell, lines made `plain` of what differs between runs).
"""

import contextlib
import io
import re
from collections.abc import Callable

import numpy as np

# A float as Python and numpy print it ('1.', '-0.25', '1e-05', '3.5e+02'); `NUMBER` also
# takes integers.
FLOAT = re.compile(r"[-+]?(?:\d+\.\d*(?:e[-+]?\d+)?|\d+e[-+]?\d+)")
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*(?:e[-+]?\d+)?|\d+e[-+]?\d+|\d+)")
_BLANKS = re.compile(r"\s*#\s*")


def numbered(
    text: str,
    pattern: re.Pattern = FLOAT,
    *,
    columns: bool = False,
    decimals: int | None = None,
    rename: Callable[[str], str] | None = None,
) -> list:
    """Each line of `text` as [its text with the numbers as '#', its numbers].

    Args:
      text: what was printed.
      pattern: what counts as a number (`FLOAT` or `NUMBER`).
      columns: the blanks around each '#' as one space, the indentation kept (an array's
        columns are as wide as its widest number: a digit more or less in float32's shortest
        repr moves them).
      decimals: the numbers rounded to this many decimals.
      rename: applied to a line before its numbers become '#' (a class path to its name).

    Returns:
      One `[str, np.ndarray]` pair per line.
    """
    rows = []
    for line in text.splitlines():
        shown = pattern.sub("#", rename(line) if rename else line)
        if columns:
            body = shown.lstrip()
            shown = shown[: len(shown) - len(body)] + _BLANKS.sub(" # ", body).strip()
        numbers = np.array([float(n) for n in pattern.findall(line)])
        rows.append([shown, numbers if decimals is None else np.round(numbers, decimals)])
    return rows


class Cells:
    """stdout captured while a program's cells run, cut into cells by `mark`.

    Args:
      lines: what a cell's printed text is kept as (`str.splitlines` unless given).
    """

    def __init__(self, lines: Callable[[str], object] = str.splitlines):
        self.lines = lines
        self.printed: dict = {}
        self.stdout = io.StringIO()
        self._redirect = contextlib.redirect_stdout(self.stdout)

    def __enter__(self) -> "Cells":
        self._redirect.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self._redirect.__exit__(*exc)

    def take(self) -> str:
        """The text printed since the last `take` or `mark`, then forgotten."""
        text = self.stdout.getvalue()
        self.stdout.seek(0)
        self.stdout.truncate()
        return text

    def mark(self, cell) -> None:
        """Keeps what was printed since the last mark as `printed[cell]`."""
        self.printed[cell] = self.lines(self.take())


def show(value) -> None:
    """A notebook cell's last expression as the notebook shows it: its repr, nothing for None."""
    if value is not None:
        print(repr(value))


def attempt(errors: list, f: Callable, *args) -> None:
    """A cell that shows `f(*args)`, or, when it raises, keeps its error (`error`)."""
    try:
        show(f(*args))
    except Exception as e:  # noqa: BLE001
        error(errors, e)


def plain(line: str) -> str:
    """`line` without what differs between runs and ports: objects' addresses and modules'
    paths, classes' names (JAX names its internal classes, a tracer where numbax names the Ref
    it was given) and the file of a source location."""
    line = re.sub(r" at 0x[0-9a-f]+", "", re.sub(r"<class '[^']+'>", "<class>", line))
    line = re.sub(r" at [^ ]*?(\d+:\d+ \()", r" at \1", line)
    return re.sub(r"<(?:[\w.]+\.)?(_cells\.<locals>|\w+ object)", r"<\1", line)


def first_lines(calls: dict, catch: type = Exception) -> dict:
    """The first line of the error each of `calls` (name -> function of no arguments) raises,
    by name ("no error" if it returns), as a program's `except catch` clause sees them; other
    errors propagate.

    Args:
      calls: the calls that should fail, by name.
      catch: the class a user's `except` clause names.

    Returns:
      The first lines, by name.
    """
    lines = {}
    for name, call in calls.items():
        try:
            call()
            lines[name] = "no error"
        except catch as e:
            lines[name] = str(e).splitlines()[0]
    return lines


def error(errors: list, e: BaseException) -> None:
    """Appends a `raises-exception` cell's error to `errors`: its built-in class and first line."""
    builtin = next(c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins")
    errors.append([builtin, plain(str(e).splitlines()[0])])


def notebook(cells: Callable, context=None) -> dict:
    """Runs a notebook's cells, `cells(out, errors, mark)`, and returns `out` with what they
    printed (`printed`: each line `plain`, then `numbered` by columns) and their errors
    (`errors`, appended by `error`).

    Args:
      cells: the program's cells.
      context: a context manager around the run (one that restores a global the page sets).
    """
    out: dict = {}
    errors: list = []

    def lines(text: str) -> list:
        return numbered("\n".join(map(plain, text.splitlines())), columns=True)

    with context or contextlib.nullcontext(), Cells(lines) as run:
        cells(out, errors, run.mark)
    out["printed"] = run.printed
    out["errors"] = errors
    return out
