"""The interactive debugger behind `core.debug.breakpoint` (JAX's CLI debugger, `jdb`).

`breakpoint()` records the Python frames around its call site when it runs (eagerly) or is
traced (under `jit`): each frame's source position, its globals, and its locals. Array locals
(tracers under a transformation) travel through the `debug_callback` primitive, so when the
program runs, the debugger sees their runtime values as numpy arrays; other locals are kept
as they were. The debugger is a `cmd.Cmd` with JAX's `(jdb)` prompt and commands: an
expression (or `p expr`, `pp expr`) is evaluated in the current frame, `u`/`d` move up and
down the frames, `l` lists the source, `w`/`bt` prints the frames, `c` continues, `q` exits
the process.

Where no one can answer (standard input is not a terminal, as under pytest or in a batch job),
`breakpoint` does not block: it writes one line naming the frame to standard error and the
program continues. Passing `stdin=` (and `stdout=`) streams runs the debugger on them
whatever the terminal, as JAX's CLI debugger accepts.
"""

from __future__ import annotations

import cmd
import dataclasses
import inspect
import os
import pprint
import sys
import traceback
from typing import IO, Any

__all__ = ["CliDebugger", "DebuggerFrame", "capture_frames", "run_debugger"]


@dataclasses.dataclass
class DebuggerFrame:
    """One Python frame as the debugger shows it (JAX's `DebuggerFrame`)."""

    filename: str
    locals: dict[str, Any]
    globals: dict[str, Any]
    source: list[str]
    lineno: int
    offset: int | None


def _from_frameinfo(info: inspect.FrameInfo) -> DebuggerFrame:
    try:
        lines, start = inspect.getsourcelines(info.frame)
        source = [line.rstrip("\n") for line in lines]
        offset = info.lineno - max(start, 1)
    except (OSError, TypeError):
        source, offset = [], None
    return DebuggerFrame(
        info.filename, dict(info.frame.f_locals), info.frame.f_globals, source, info.lineno, offset
    )


_CORE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _internal(filename: str) -> bool:
    """Frames of numbax's `core` package (filtered out, as JAX filters its own)."""
    return os.path.abspath(filename).startswith(_CORE_DIR)


def capture_frames(skip: int, filter_frames: bool, num_frames: int | None) -> list[DebuggerFrame]:
    """The caller's frames, innermost first, `skip` frames above this function's caller."""
    infos = inspect.stack()[skip + 1 :]
    if filter_frames:
        infos = [i for i in infos if not _internal(i.filename)]
    if num_frames is not None:
        infos = infos[:num_frames]
    return [_from_frameinfo(i) for i in infos]


class CliDebugger(cmd.Cmd):
    """A text debugger over captured frames (`(jdb)` prompt, JAX's commands)."""

    prompt = "(jdb) "

    def __init__(
        self,
        frames: list[DebuggerFrame],
        stdin: IO[str] | None = None,
        stdout: IO[str] | None = None,
    ):
        super().__init__(stdin=stdin, stdout=stdout)
        # Line editing (readline) only at the terminal; a given stream is read line by line.
        self.use_rawinput = stdin is None
        self.intro = "Entering jdb:"
        self.frames, self.frame_index = frames, 0  # the innermost frame first

    def _evaluate(self, expr: str) -> Any:
        frame = self.frames[self.frame_index]
        return eval(expr, dict(frame.globals), dict(frame.locals))  # noqa: S307 (a debugger)

    def _error(self) -> None:
        msg = traceback.format_exception_only(*sys.exc_info()[:2])[-1].strip()
        print("***", msg, file=self.stdout)

    def _show(self, expr: str, fmt: Any) -> None:
        try:
            print(fmt(self._evaluate(expr)), file=self.stdout)
        except Exception:  # noqa: BLE001 (any error of the user's expression is reported)
            self._error()

    def default(self, line: str) -> None:
        """Evaluates an expression in the current frame."""
        self._show(line, repr)

    def emptyline(self) -> bool:
        return False

    def do_p(self, arg: str) -> None:
        """p expression: evaluates and prints the value of an expression."""
        self._show(arg, repr)

    def do_pp(self, arg: str) -> None:
        """pp expression: evaluates and pretty-prints the value of an expression."""
        self._show(arg, pprint.pformat)

    def print_context(self, num_lines: int = 2) -> None:
        frame = self.frames[self.frame_index]
        lines = [f"> {frame.filename}({frame.lineno})"]
        if frame.offset is not None:
            for i, line in enumerate(frame.source):
                if frame.offset - num_lines <= i <= frame.offset + num_lines:
                    lines.append(("->  " if i == frame.offset else "    ") + line)
        print("\n".join(lines), file=self.stdout)

    def _move(self, delta: int, at_edge: str) -> None:
        """Moves `delta` frames outwards (up) or inwards (down), staying within the stack."""
        target = self.frame_index + delta
        if 0 <= target < len(self.frames):
            self.frame_index = target
        else:
            print(at_edge, file=self.stdout)
        self.print_context()

    def do_up(self, arg: str) -> None:
        """u(p): moves up a stack frame."""
        self._move(1, "At topmost frame.")

    do_u = do_up

    def do_down(self, arg: str) -> None:
        """d(own): moves down a stack frame."""
        self._move(-1, "At bottommost frame.")

    do_d = do_down

    def do_list(self, arg: str) -> None:
        """l(ist): lists the source around the current line."""
        self.print_context(num_lines=5)

    do_l = do_list

    def do_where(self, arg: str) -> None:
        """w(here): prints the frames, the most recent last ('bt' is an alias)."""
        lines = ["Traceback:"]
        for frame in self.frames[::-1]:
            lines.append(f'  File "{frame.filename}", line {frame.lineno}')
            if frame.offset is None:
                lines.append("    <no source>")
            else:
                lines.append(f"    {frame.source[frame.offset].strip()}")
        print("\n".join(lines), file=self.stdout)

    do_w = do_bt = do_where

    def do_continue(self, arg: str) -> bool:
        """c(ont(inue)): continues the program."""
        return True

    do_c = do_cont = do_continue

    def do_quit(self, arg: str) -> None:
        """q(uit): exits the program."""
        sys.exit(0)

    do_q = do_exit = do_EOF = do_quit  # noqa: N815 (cmd's name for end of input)


def run_debugger(frames: list[DebuggerFrame], **kwargs: Any) -> None:
    """Runs the CLI debugger on `frames`, or (no `stdin=` and no terminal) says where the
    breakpoint is on standard error and returns."""
    stdin = kwargs.get("stdin")
    if stdin is None and not (sys.stdin is not None and sys.stdin.isatty()):
        where = f"{frames[0].filename}:{frames[0].lineno}" if frames else "<unknown>"
        sys.stderr.write(
            f"core.debug.breakpoint at {where}: standard input is not a terminal, continuing "
            "(pass stdin= to debug on a stream)\n"
        )
        return
    debugger = CliDebugger(frames, stdin=stdin, stdout=kwargs.get("stdout"))
    while True:
        try:
            debugger.cmdloop()
            break
        except KeyboardInterrupt:
            print("--KeyboardInterrupt--", file=sys.stdout)
