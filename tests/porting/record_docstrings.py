"""Writes `docstrings_<record>.json`: the docstring examples of JAX's public functions and
the output each gives on JAX (run with `/opt/ref/bin/python tests/porting/record_docstrings.py
[record ...]` from the repository root; JAX is never a dependency of numbax, the test reads
the file). The outputs are JAX's own, not the docstrings' (some of those are stale)."""

import importlib
import json
import sys
from pathlib import Path

import jax

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.porting.docstrings import RECORDS, namespace, public_examples, run_examples  # noqa: E402


def record(name: str) -> dict[str, list[list[str]]]:
    """`{function: [[source, output], ...]}` for record `name`'s modules, run on JAX."""
    modules = [importlib.import_module(m) for m in RECORDS[name][0]]
    found = {}
    for function, sources in public_examples(modules).items():
        found[function] = [list(p) for p in zip(sources, run_examples(sources, namespace(jax)))]
    return found


if __name__ == "__main__":
    for name in sys.argv[1:] or sorted(RECORDS):
        path = RECORDS[name][1]
        path.write_text(json.dumps(record(name), indent=1, sort_keys=True) + "\n")
        print(path.name, "recorded")
