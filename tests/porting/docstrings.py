"""What `record_docstrings.py` (on JAX) and `test_jax_docstrings.py` (on numbax) share: the
docstring examples (`>>> ` lines) of a module's public functions, run as JAX's doctests run
them (JAX's conftest.py: `jax`, `lax`, `jnp` and `np` in the namespace, a fresh namespace for
each docstring, default print options), and their printed output.

An example's output is what doctest would compare: what it prints plus its value's repr, or
for an example that raises, `"! ExceptionClass(Base, ...): message"` (classes without their
modules, which differ between JAX and numbax; the public bases up to `Exception`). An error
matches JAX's when JAX's class is numbax's or one of its bases (what an `except` clause sees):
numbax's `ShapeError` is a `ValueError`."""

import contextlib
import doctest
import io
import json
import os
import re
import tempfile
import types
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

# Each recorded set of modules and the file holding JAX's outputs of their examples.
RECORDS = {
    "jnp": (("jax.numpy", "jax.numpy.linalg", "jax.numpy.fft"), HERE / "docstrings_jnp.json")
}


def public_examples(modules) -> dict[str, list[str]]:
    """The docstring examples of the public functions of `modules` (imported module objects),
    as `{"jax.numpy.sum": [source, ...]}`, without those marked `+SKIP`. An object reachable
    under several names is listed under the first."""
    parser, seen, found = doctest.DocTestParser(), set(), {}
    for module in modules:
        for name in sorted(dir(module)):
            obj = getattr(module, name)
            if name.startswith("_") or isinstance(obj, types.ModuleType) or id(obj) in seen:
                continue
            doc = getattr(obj, "__doc__", None)
            sources = [
                e.source
                for e in parser.get_examples(doc if isinstance(doc, str) else "")
                if not e.options.get(doctest.SKIP)
            ]
            if sources:
                seen.add(id(obj))
                found[f"{module.__name__}.{name}"] = sources
    return found


def namespace(jax) -> dict:
    """A docstring's starting namespace, as JAX's conftest.py makes it, for `jax` (JAX or
    numbax's `core`)."""
    return {"jax": jax, "lax": jax.lax, "jnp": jax.numpy, "np": np, "__name__": "__doctest__"}


def run_examples(sources, globs: dict) -> list[str]:
    """Runs one docstring's examples in order in `globs`, as doctest does (an expression's
    value is printed by the display hook), in a temporary directory (some save files);
    returns each one's output."""
    outputs, cwd = [], os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            for i, source in enumerate(sources):
                outputs.append(_run_example(source, f"<example {i}>", globs))
        finally:
            os.chdir(cwd)
    return outputs


def _run_example(source: str, name: str, globs: dict) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(source, name, "single"), globs)
        except Exception as e:
            bases = [c.__name__ for c in type(e).__mro__[1:] if c not in _ROOTS]
            bases = ",".join(b for b in bases if not b.startswith("_"))
            print(f"! {type(e).__name__}{f'({bases})' if bases else ''}: {e}")
    return out.getvalue()


_ROOTS = (Exception, BaseException, object)
_ERROR = re.compile(r"! (\w+)(?:\(([\w,]*)\))?:")


def same(got: str, want: str, source: str = "") -> bool:
    """Whether numbax's output `got` is JAX's `want` up to whitespace (doctest's
    NORMALIZE_WHITESPACE), an error's class by the rule above and, where the example says
    `+IGNORE_EXCEPTION_DETAIL`, without its message."""
    g, w = _ERROR.match(got), _ERROR.match(want)
    if not (g and w):
        return got.split() == want.split()
    if w.group(1) not in (g.group(1), *(g.group(2) or "").split(",")):
        return False
    return "IGNORE_EXCEPTION_DETAIL" in source or (
        got[g.end() :].split() == want[w.end() :].split()
    )


def load(record: str) -> dict[str, list[list[str]]]:
    """A record's `{function: [[source, JAX's output], ...]}`."""
    return json.loads(RECORDS[record][1].read_text())
