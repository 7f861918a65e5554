"""Shared helpers for the benchmark scripts: timing, tables, JSON, the reference interpreter.

Every script prints a table and a JSON line, compares against a hand-written numpy baseline,
and adds JAX/PyTorch columns when they can be imported (in this interpreter, or in the one
named by `$NUMBAX_REF_PYTHON`, default /opt/ref/bin/python, run as a subprocess).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any


def median_time(
    fn: Callable[[], Any], *, number: int = 0, repeat: int = 7, budget: float = 0.5
) -> float:
    """Median seconds per call of `fn` (calls per sample chosen to fill `budget`/`repeat`)."""
    fn()
    if number <= 0:
        t0 = time.perf_counter()
        fn()
        one = max(time.perf_counter() - t0, 1e-7)
        number = max(1, int(budget / repeat / one))
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - t0) / number)
    return statistics.median(samples)


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def print_table(title: str, columns: list[str], rows: list[list[Any]]) -> None:
    cells = [[str(c) for c in columns]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
    print(f"\n{title}")
    for i, r in enumerate(cells):
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
        if i == 0:
            print("  ".join("-" * w for w in widths))


def print_json(name: str, results: dict) -> None:
    print("JSON " + json.dumps({"benchmark": name, "results": results}, sort_keys=True))


def reference_python() -> str | None:
    """The interpreter that has JAX/PyTorch installed, if any."""
    cand = os.environ.get("NUMBAX_REF_PYTHON", "/opt/ref/bin/python")
    return cand if shutil.which(cand) or os.path.exists(cand) else None


def run_reference(script: str, args: list[str], timeout: float = 900) -> dict | None:
    """Runs `script` (a bench file) under the reference interpreter and parses its JSON line."""
    py = reference_python()
    if py is None:
        return None
    env = dict(os.environ, PYTHONPATH="")
    try:
        out = subprocess.run(
            [py, script, *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            check=True,
        ).stdout
    except (subprocess.SubprocessError, OSError) as e:
        print(f"(reference run failed: {e})", file=sys.stderr)
        return None
    for line in out.splitlines():
        if line.startswith("JSON "):
            return json.loads(line[5:])["results"]
    return None
