"""glibc malloc tuning for compiled calls (core/jit/malloc.py)."""

import os
import platform
import subprocess
import sys

import pytest

from core.jit import malloc


def test_disabled_by_the_environment(monkeypatch):
    monkeypatch.setenv("NUMBAX_MALLOC_TUNING", "0")
    assert malloc.tune() is False


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_sets_the_thresholds_on_glibc():
    code = "from core.jit import malloc; print(malloc.tune())"  # a fresh process
    env = {k: v for k, v in os.environ.items() if k != "NUMBAX_MALLOC_TUNING"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.strip() == "True"
