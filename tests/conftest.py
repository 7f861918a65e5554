"""Test-session setup shared by every test directory.

The numba compile caches are pointed at one directory per checkout, shared by all test
processes (pytest-xdist workers included), before anything imports numba or `core`: numba reads
NUMBA_CACHE_DIR when it is imported, and `core.jit` reads NUMBAX_CACHE_DIR for its generated
sources. The tests see eight CPU devices (NUMBAX_NUM_CPU_DEVICES) and two threads
(NUMBAX_NUM_THREADS). Values already set in the
environment win. Tests marked ``slow`` run only with
``--runslow``. Under ``-n 2 --dist loadfile`` the longest files and ported programs start
first (tests/xdist_schedule.py).
"""

import os
import shutil
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

_CACHE_ROOT = Path(__file__).resolve().parent.parent / ".pytest_numba_cache"
os.environ.setdefault("NUMBAX_CACHE_DIR", str(_CACHE_ROOT / "numbax"))
os.environ.setdefault("NUMBA_CACHE_DIR", str(_CACHE_ROOT / "numba"))
# Eight CPU devices whatever the core count, as JAX's own tests force eight host devices: pmap
# tests map over up to 8 (device threads start only when a pmap uses them).
os.environ.setdefault("NUMBAX_NUM_CPU_DEVICES", "8")
# Two threads for compiled code whatever the core count, so that threaded loops and blocked
# matrix products are exercised on one-core machines too (core/jit/threads.py).
os.environ.setdefault("NUMBAX_NUM_THREADS", "2")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--runslow", action="store_true", default=False, help="also run tests marked slow"
    )


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log) -> object | None:
    """Under `--dist loadfile`, xdist's file scheduling with the longest units first and each
    ported program a unit of its own (tests/xdist_schedule.py); other modes are xdist's."""
    if config.getvalue("dist") != "loadfile":
        return None
    from tests.xdist_schedule import LongestFirst  # xdist is imported only when it runs

    return LongestFirst(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def mpiexec() -> str:
    """The `mpiexec` of the `distributed` extra (next to this interpreter, else on PATH); skips
    the test when the extra is not installed."""
    pytest.importorskip("mpi4py", reason="the numbax[distributed] extra is not installed")
    found = shutil.which(
        "mpiexec", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    )
    if found is None:
        pytest.skip("mpiexec not found (pip install 'numbax[distributed]' installs it)")
    return found


@pytest.fixture
def tiny_switch_interval() -> Iterator[None]:
    """Makes the interpreter switch threads every few bytecodes, so threads really interleave."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


@pytest.fixture
def run_threads(tiny_switch_interval) -> Callable[[Callable[[int], None], int], None]:
    """`run_threads(work, n)` runs `work(0)` .. `work(n - 1)` in n threads at once (switching
    every few bytecodes) and raises the first error any of them raised."""

    def run(work: Callable[[int], None], n: int) -> None:
        failures: list[BaseException] = []

        def guarded(i: int) -> None:
            try:
                work(i)
            except BaseException as e:  # noqa: BLE001 - reported by the calling thread
                failures.append(e)

        threads = [threading.Thread(target=guarded, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not failures, failures[0]

    return run
