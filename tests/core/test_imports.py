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
