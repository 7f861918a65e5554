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


_THREAD_FAULTS = """
import resource, threading
import numpy as np
from core.jit import malloc

malloc.tune()
faults = []


def work():
    for _ in range(3):
        start = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
        blocks = [np.ones(2_500_000, np.float32) for _ in range(12)]  # 120 MB, 10 MB each
        del blocks
        faults.append(resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - start)


thread = threading.Thread(target=work)
thread.start()
thread.join()
print(*faults)
"""


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_a_thread_reuses_its_freed_memory():
    # A device thread's arena frees more than one of its 64 MB heaps per call; the top pad
    # keeps them, so only the first call faults its pages in (here about 6,800 faults, and
    # 3,400 more per call without the pad).
    env = {k: v for k, v in os.environ.items() if k != "NUMBAX_MALLOC_TUNING"}
    out = subprocess.run(
        [sys.executable, "-c", _THREAD_FAULTS], capture_output=True, text=True, check=True, env=env
    )
    first, *later = map(int, out.stdout.split())
    assert first > 1000  # 120 MB of fresh pages
    assert max(later) < first // 20, (first, later)
