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


def _run(code: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=_ROOT
    )
    return out.stdout.strip()


def test_import_core_errors_loads_nothing_else():
    code = "import sys, core.errors; print(sorted(m for m in sys.modules if m.startswith('core')))"
    assert _run(code) == "['core', 'core.errors', 'core.packages']"


@pytest.mark.parametrize(
    "code",
    [
        "import core.lax as lax; print(lax.add(1.0, 2.0))",  # lax cannot load before numpy
        "from core.api import grad; print(grad(lambda x: x * x)(1.5))",  # tracer operators
        "import core.numpy.linalg as la; print(la.det(la.inv(2.0 * core.numpy.eye(2))))",
        "import core; print(core.jit(lambda x: x + 1)(2.0))",
        "from core import numpy as jnp, random; print(jnp.float32(3.0))",
    ],
)
def test_first_use_loads_all_of_core(code):
    """Any first use (a public name, or importing any core module) loads the whole core, so
    every spelling works in a fresh process as when `import core` loaded everything."""
    assert _run(f"import core\n{code}") == _run(f"import core\ncore.numpy\n{code}")


def test_public_names_are_lazy_attributes():
    code = (
        "import core, sys\n"
        "d = dir(core)\n"
        "assert 'core.numpy' not in sys.modules\n"
        "missing = [n for n in core.__all__ if n not in d or getattr(core, n) is None]\n"
        "print(missing, callable(core.jit), core.numpy.__name__, type(core.P).__name__)\n"
        "try:\n    core.no_such_name\nexcept AttributeError as e:\n    print(e)"
    )
    assert _run(code).splitlines() == [
        "[] True core.numpy type",
        "module 'core' has no attribute 'no_such_name'",
    ]
