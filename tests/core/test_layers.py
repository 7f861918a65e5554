"""The layering of `core` (core/README.md) is enforced here, so CI fails on an import that goes
up a layer or a new function-level import.

- `lint-imports` checks the layers contract of pyproject.toml (`[tool.importlinter]`); it sees
  function-level imports too. The imports that still go up are listed there (`ignore_imports`)
  and an entry that no longer matches fails the contract, so the list only shrinks.
- Function-level imports inside `core` (found by `tools/import_graph.py`) may only be those of
  `function_level_imports.txt`, counted per (importing module, imported module); a count below
  its allowance fails too, asking to lower it. The goal is an empty file.
- No import cycle inside `core`, function-level imports included (`tools/import_graph.py`).
"""

import functools
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tools.import_graph import cycles, scan

_ROOT = Path(__file__).resolve().parents[2]
_ALLOWLIST = Path(__file__).with_name("function_level_imports.txt")


@functools.cache
def _core_scan() -> tuple:
    """`tools.import_graph.scan` of core, read once for both of its tests (2 s of CPU)."""
    return scan(_ROOT / "core")


def _allowed() -> Counter:
    allowed = Counter()
    for line in _ALLOWLIST.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            pair, count = line.rsplit(None, 1)
            allowed[pair] = int(count)
    return allowed


def _function_level() -> Counter:
    _, imports, _ = _core_scan()
    return Counter(f"{i.source} -> {i.target}" for i in imports if i.function_level)


def test_no_new_function_level_imports():
    found, allowed = _function_level(), _allowed()
    new = {pair: n for pair, n in found.items() if n > allowed[pair]}
    assert not new, (
        f"new function-level imports in core: {new}. Import at module level from a lower layer "
        "(core/README.md), or move the helper down; see tests/core/function_level_imports.txt."
    )
    fixed = {pair: found[pair] for pair, n in allowed.items() if found[pair] < n}
    assert not fixed, (
        f"fewer function-level imports than allowed: {fixed}. Lower (or delete) these entries "
        "of tests/core/function_level_imports.txt."
    )


def test_no_import_cycles():
    modules, imports, _ = _core_scan()
    found = cycles(modules, imports)
    assert not found, (
        f"import cycles in core (function-level imports included): {found}. Move the shared "
        "helper down into a module both import, or split the module (core/README.md); "
        "`python -m tools.import_graph core --cycles` lists them."
    )


def test_layers_contract():
    pytest.importorskip("importlinter")
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    out = subprocess.run(
        [exe, "--no-cache"], capture_output=True, text=True, cwd=_ROOT, timeout=300
    )
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
