"""What `import core` costs: it must not start numba (the jit back end loads on first compile)
or scipy (constants the core needs are written out in its modules)."""

import subprocess
import sys
from pathlib import Path

import pytest

_ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("heavy", ["numba", "scipy"])
def test_import_core_does_not_import(heavy):
    code = f"import sys, core, core.numpy, core.lax; print({heavy!r} in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=_ROOT
    )
    assert out.stdout.strip() == "False"


def test_import_numbax_errors_loads_nothing_else():
    """The error root every package derives from is importable alone (datasets needs only numpy)."""
    code = (
        "import sys, numbax.errors\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('core', 'numpy', 'numbax')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=_ROOT
    )
    assert out.stdout.strip() == "['numbax', 'numbax.errors']"


def test_core_reexports_the_root():
    import core.errors
    import numbax.errors

    assert core.errors.NumbaxError is numbax.errors.NumbaxError
