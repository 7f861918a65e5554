"""Ctrl-C (SIGINT) during a compiled call raises KeyboardInterrupt, not numba's SystemError.

Run inline (`jax_cpu_enable_async_dispatch` off), the native loop is not stopped mid-way: the
interrupt is raised when the kernel returns. Dispatched asynchronously (the loop's trip count is
not known, so the call is), the interrupt is raised where the caller waits for the result.
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
import core
import core.numpy as jnp
from core import lax
from core.jit.api import jit

@jit
def spin(x, n):
    return lax.fori_loop(0, n, lambda i, c: jnp.sin(c) * 0.5 + jnp.cos(c) * 0.5, x)

core.config.update("jax_cpu_enable_async_dispatch", sys.argv[2] == "async")
x = jnp.ones(3, np.float32)
spin(x, 1).block_until_ready()  # compile first
print("running", flush=True)
if sys.argv[1] == "caught":
    try:
        spin(x, 20_000_000).block_until_ready()
    except KeyboardInterrupt as err:
        print("KeyboardInterrupt", err.__cause__, flush=True)
else:
    spin(x, 20_000_000).block_until_ready()
"""


@pytest.mark.parametrize("dispatch", ["sync", "async"])
@pytest.mark.parametrize("how", ["caught", "uncaught"])
def test_sigint_during_compiled_call_is_keyboard_interrupt(how, dispatch):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, how, dispatch],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A shell's background job starts with SIGINT ignored, and Python keeps it so.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
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
