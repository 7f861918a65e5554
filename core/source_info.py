"""Where each staged equation comes from: the user's source line and the name stack.

Every equation a `JaxprTrace` records gets a `SourceInfo`: the name stack (the `named_scope`s
and Flax-style module names open when it was traced, `"MLP/Dense_0"`) and the first Python
frame outside the `core` package (so `nn`, `optim` and user code count as "user", as the frames
of Flax and Optax do for JAX). The profiler labels kernels and equations with it.

Equations re-bound from an existing jaxpr (`eval_jaxpr`, the backward pass) keep the source of
the equation they come from: `use(info)` sets it for everything staged meanwhile, and the
backward pass wraps the stack's first name as `transpose(...)`, as JAX does. Name stacks are
absolute (the scopes open when the jaxpr was traced), so a jitted function traced once and
called from two scopes keeps the scopes of its first trace (`make_jaxpr` and `eval_shape`
read the same trace cache, as JAX's).
"""

from __future__ import annotations

import contextlib
import inspect
import itertools
import os
import sys
import threading
from collections.abc import Callable, Iterator
from types import CodeType
from typing import NamedTuple

from core import tree_util

_CORE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


class SourceInfo(NamedTuple):
    """The origin of one equation."""

    name_stack: str  # "MLP/Dense_0" ("" outside any scope)
    file: str
    line: int
    function: str
    column: int = 0  # of the expression's start, 0-based (0: unknown)

    def location(self) -> str:
        """`file:line (function)`."""
        return f"{self.file}:{self.line} ({self.function})"

    def summary(self) -> str:
        """`file:line:column (function)`, as JAX's `source_info_util.summarize` (without the
        column when it is 0)."""
        if self.column:
            return f"{self.file}:{self.line}:{self.column} ({self.function})"
        return self.location()


class _State(threading.local):
    """Per thread, as JAX's: the names pushed by named_scope / module calls, and the source
    set while an existing equation is re-bound."""

    def __init__(self) -> None:
        self.stack: list[str] = []
        self.override: SourceInfo | None = None


state = _State()


def current() -> SourceInfo | None:
    """The source of an equation staged now (the override, else the name stack + user frame)."""
    info = state.override
    if info is not None:
        return info
    stack = "/".join(state.stack)
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_CORE_DIR):
        frame = frame.f_back
    if frame is None:
        return SourceInfo(stack, "<unknown>", 0, "<unknown>")
    code = frame.f_code
    function = getattr(code, "co_qualname", code.co_name)  # co_qualname: Python 3.11+
    return SourceInfo(
        stack, code.co_filename, frame.f_lineno, function, _column(code, frame.f_lasti)
    )


_columns: dict[tuple[int, int], tuple[CodeType, int]] = {}


def _column(code: CodeType, lasti: int) -> int:
    """The start column of the expression the instruction at `lasti` runs (Python 3.11+'s
    `co_positions`; 0 when unknown), cached by the code object's identity (hashing a code
    object hashes its bytecode)."""
    hit = _columns.get((id(code), lasti))
    if hit is not None and hit[0] is code:
        return hit[1]
    positions = getattr(code, "co_positions", None)
    position = next(itertools.islice(positions(), lasti // 2, None), None) if positions else None
    column = (position[2] or 0) if position else 0
    if len(_columns) > 4096:
        _columns.clear()
    _columns[(id(code), lasti)] = (code, column)
    return column


@contextlib.contextmanager
def scope(name: str) -> Iterator[None]:
    """Pushes `name` on the name stack for the duration of the block."""
    stack = state.stack
    stack.append(name)
    try:
        yield
    finally:
        stack.pop()


def name_stack() -> str:
    """The current name stack, `"outer/inner"`."""
    return "/".join(state.stack)


@contextlib.contextmanager
def use(info: SourceInfo | None) -> Iterator[None]:
    """Equations staged in the block take `info` as their source (None: leave as is)."""
    if info is None:
        yield
        return
    previous = state.override
    state.override = info
    try:
        yield
    finally:
        state.override = previous


def transposed(info: SourceInfo | None) -> SourceInfo | None:
    """The source of the transpose of an equation: `transpose(MLP)/Dense_0` like JAX."""
    if info is None:
        return None
    head, sep, tail = info.name_stack.partition("/")
    return info._replace(name_stack=f"transpose({head}){sep}{tail}")


def arg_names(f: Callable, args: tuple, kwargs: dict) -> list[str]:
    """One name per leaf of `(args, kwargs)`, as JAX's debug info (`saved_residuals`' sources, a
    compiled function's argument errors): the parameter's name and the leaf's path in it
    (`params[0]`, `a[1]` in `*a`, `kw['z']` in `**kw`); `args[i]` when `f`'s signature does not
    bind them.

    Args:
      f: the function.
      args, kwargs: its arguments (a static one left out as None: it has no leaves).

    Returns:
      The leaves' names, in `tree_flatten((args, kwargs))` order.
    """
    try:
        bound = inspect.signature(f).bind(*args, **kwargs)
    except (TypeError, ValueError):
        bound = None
    if bound is None:
        named = [(f"args[{i}]", a) for i, a in enumerate(args)] + list(kwargs.items())
    else:
        named = []
        for name, value in bound.arguments.items():
            kind = bound.signature.parameters[name].kind
            if kind is inspect.Parameter.VAR_POSITIONAL:
                named += [(f"{name}[{i}]", v) for i, v in enumerate(value)]
            elif kind is inspect.Parameter.VAR_KEYWORD:
                named += [(f"{name}[{k!r}]", v) for k, v in value.items()]
            else:
                named.append((name, value))
    by_position = {}
    for name, value in named:
        for path, _ in tree_util.tree_flatten_with_path(value)[0]:
            by_position[len(by_position)] = name + tree_util.keystr(path)
    return [by_position.get(i, "") for i in range(len(by_position))]
