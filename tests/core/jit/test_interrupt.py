"""Ctrl-C (SIGINT) during a compiled call raises KeyboardInterrupt, not numba's SystemError.

The native loop is not stopped mid-way: the interrupt is raised when the kernel returns.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = """
import sys
import numpy as np
import core.numpy as jnp
from core import lax
from core.jit.api import jit

@jit
def spin(x, n):
    return lax.fori_loop(0, n, lambda i, c: jnp.sin(c) * 0.5 + jnp.cos(c) * 0.5, x)

x = jnp.ones(3, np.float32)
spin(x, 1)  # compile first
print("running", flush=True)
if sys.argv[1] == "caught":
    try:
        spin(x, 20_000_000)
    except KeyboardInterrupt as err:
        print("KeyboardInterrupt", err.__cause__, flush=True)
else:
    spin(x, 20_000_000)
"""


@pytest.mark.parametrize("how", ["caught", "uncaught"])
def test_sigint_during_compiled_call_is_keyboard_interrupt(how):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, how],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "running"
        time.sleep(0.3)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        child.kill()
    assert "SystemError" not in err
    if how == "caught":
        assert out.strip() == "KeyboardInterrupt None" and child.returncode == 0, err
    else:
        assert err.rstrip().endswith("KeyboardInterrupt") and child.returncode != 0
