"""Examples of our own for the public API of JAX, Optax and Flax, shared by `record.py` (run on
the reference libraries) and the tests that run them on numbax.

A case file (``cases/<name>.txt``) holds sections, one per public object::

    ## jax.numpy.absolute
    >>> x = jnp.array([3, -7, 0])
    >>> jnp.absolute(x)

A section's examples run in order in one namespace, as doctest runs a docstring's: a
statement's output is what it prints, then the repr of an expression statement's value, or
``"<ExceptionClass>: <first line>"`` when it raises. A ``## prelude`` section, if any, runs
before each object's examples. A header ``## <object>  differs: <why>`` marks an object whose
examples do not give the real libraries' outputs yet (a strict xfail with that reason).
`record.py` stores the real libraries' outputs in ``recorded/<name>.json``; numbax runs the
same sources with JAX's names mapped (`numbax_namespace`, `flaxport.port.port_source` for
import lines) and must print the same up to float32 round-off.
"""

import builtins
import contextlib
import doctest
import functools
import io
import json
import math
import os
import re
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"
RECORDED = HERE / "recorded"
_HEADER = re.compile(r"^## (\S+)(?:\s+differs: (.+))?$")


@functools.cache
def parse(name: str) -> tuple[str, dict[str, list[str]], dict[str, str]]:
    """Case file `name`: its prelude's source, ``{object: [source, ...]}`` in file order, and
    ``{object: why}`` for the sections marked ``differs:``."""
    parser = doctest.DocTestParser()
    prelude, sections, differs, current, lines = "", {}, {}, None, []

    def close() -> None:
        nonlocal prelude
        if current is None:
            return
        sources = [e.source for e in parser.get_examples("\n".join(lines))]
        if current == "prelude":
            prelude = "".join(sources)
        else:
            if current in sections:
                raise ValueError(f"cases/{name}.txt: object {current!r} has two sections")
            sections[current] = sources

    for line in (CASES / f"{name}.txt").read_text().splitlines():
        header = _HEADER.match(line)
        if header:
            close()
            current, lines = header.group(1), []
            if header.group(2):
                differs[current] = header.group(2).strip()
        else:
            lines.append(line)
    close()
    return prelude, sections, differs


def case_files(prefix: str) -> list[str]:
    """The names of the case files whose names start with `prefix`."""
    return sorted(p.stem for p in CASES.glob(f"{prefix}*.txt"))


def recorded_path(name: str) -> Path:
    """The JSON file holding case file `name`'s sources and the real libraries' outputs."""
    return RECORDED / f"{name}.json"


def run(sources: list[str], namespace: dict, port=None) -> list[str]:
    """Each source's output, run in order in `namespace` as doctest does: what it prints, then
    the repr of an expression statement's value; an exception gives
    ``"<ExceptionClass>: <message>"``. `port` rewrites a source first (numbax's imports).
    They run in a temporary directory (examples may write files); numpy's print options and
    ``builtins._`` (the last displayed value, which a later test's module-level frame would
    hold) are restored afterwards."""
    printoptions, cwd, last = np.get_printoptions(), os.getcwd(), vars(builtins).get("_")
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            return _run(sources, namespace, port)
        finally:
            os.chdir(cwd)
            np.set_printoptions(**printoptions)
            builtins._ = last


def _run(sources: list[str], namespace: dict, port) -> list[str]:
    outputs = []
    for source in sources:
        buffer = io.StringIO()
        try:
            with contextlib.redirect_stdout(buffer):
                code = compile(port(source) if port else source, "<example>", "single")
                exec(code, namespace)  # noqa: S102  (the examples are this directory's cases)
            outputs.append(buffer.getvalue())
        except Exception as e:  # noqa: BLE001  (an example's error is its output)
            outputs.append(f"{buffer.getvalue()}{error_line(e)}")
    return outputs


# Modules of numbax's classes named after Flax's (`nn.flax_errors`): numbax's errors derive
# from them, so a base from one of these is the library's class (the real side has none).
_NAMED_BASES = ("builtins", "nn.flax_errors")


def error_line(e: BaseException) -> str:
    """``"<ExceptionClass>(<bases>): <first line of the message>"`` for a raised exception
    (``"ShapeError(ValueError): ..."``; no parentheses without such bases): the bases listed are
    the builtin ones and numbax's classes under Flax's names (``ParamShapeError(
    ScopeParamShapeError, FlaxError, ValueError)``)."""
    message = str(e).strip().splitlines()
    bases = [
        c.__name__
        for c in type(e).__mro__[1:]
        if c.__module__ in _NAMED_BASES and c not in (Exception, BaseException, object)
    ]
    name = f"{type(e).__name__}({', '.join(bases)})" if bases else type(e).__name__
    return f"{name}: {message[0] if message else ''}\n"


_ERROR = re.compile(r"^(\w+)(?:\(([\w, ]+)\))?: ", re.M)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)\b")


def compare(got: str, want: str) -> str:
    """How `got` matches the real library's `want`: ``"same"`` (identical text), ``"close"``
    (equal but for whitespace and numbers within float32 round-off), ``"error"`` (both raised
    the real library's exception class, numbax's maybe a subclass of it, messages differ) or
    ``"differs"``."""
    if got == want:
        return "same"
    g, w = _split(got), _split(want)
    if len(g[0]) == len(w[0]) and g[1] == w[1] and all(map(_close, g[0], w[0])):
        return "close"
    eg, ew = _ERROR.findall(got), _ERROR.findall(want)
    if eg and ew and ew[-1][0] in {eg[-1][0], *eg[-1][1].split(", ")}:
        return "error"
    return "differs"


def _split(text: str) -> tuple[list[str], str]:
    """The numbers of `text`, and the rest with whitespace runs made one space."""
    return _NUMBER.findall(text), " ".join(_NUMBER.sub(" # ", text).split())


def _close(a: str, b: str) -> bool:
    x, y = float(a), float(b)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return x == y or abs(x - y) <= 2e-5 * max(abs(x), abs(y)) + 1e-6


@functools.cache
def load(name: str) -> dict:
    """Case file `name`'s recording: ``{object: [{"source", "real"}, ...]}``."""
    return json.loads(recorded_path(name).read_text())["examples"]


def namespace(jax) -> dict:
    """The globals the examples run with (jax, lax, jnp, np) for `jax`: JAX, or numbax's
    `core`."""
    return {"jax": jax, "lax": jax.lax, "jnp": jax.numpy, "np": np}


def numbax_namespace() -> dict:
    """`namespace` of numbax's `core`."""
    import core
    import core.lax
    import core.numpy

    return namespace(core)


def start(name: str, namespace: dict, port=None) -> dict:
    """`namespace` with case file `name`'s prelude run in it (through `port` for numbax)."""
    prelude = parse(name)[0]
    exec(compile(port(prelude) if port else prelude, "<prelude>", "exec"), namespace)  # noqa: S102
    return namespace


def numbax_port(source: str) -> str:
    """An example's source with JAX's, Flax's and Optax's imports rewritten to numbax's."""
    from flaxport.port import port_source

    return port_source(source)[0]


def objects(prefix: str) -> list:
    """(case file, object) pytest parameters of the case files starting with `prefix`, the
    objects marked ``differs:`` strict xfails with the reason."""
    import pytest

    params = []
    for name in case_files(prefix):
        _, sections, differs = parse(name)
        for obj in sections:
            marks = [pytest.mark.xfail(strict=True, reason=differs[obj])] if obj in differs else []
            params.append(pytest.param(name, obj, marks=marks, id=f"{name}:{obj}"))
    return params


def differences(name: str, obj: str) -> list[str]:
    """Object `obj`'s examples of case file `name` run on numbax (the prelude first, imports
    ported): for each whose output `compare` finds different from the recording, its source
    and both outputs. Raises `AssertionError` when the recording is stale (the case file's
    sources changed since `record.py` ran)."""
    sources = parse(name)[1][obj]
    cases = load(name).get(obj)
    recorded = [c["source"] for c in cases] if cases else None
    assert recorded == sources, (
        f"cases/{name}.txt's examples of {obj} are not the recorded ones: run "
        f"`/opt/ref/bin/python tests/api_examples/record.py {name}` to record them"
    )
    namespace = start(name, numbax_namespace(), numbax_port)
    outputs = run(sources, namespace, numbax_port)
    return [
        f">>> {c['source']}real:\n{c['real']}numbax:\n{got}"
        for c, got in zip(cases, outputs)
        if compare(got, c["real"]) == "differs"
    ]
