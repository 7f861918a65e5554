"""core.distributed over MPI: `mpiexec -n 2` runs tests/core/mpi_program.py with 2 devices per
process; the 4 global devices' pmap collectives, gradients and multihost_utils must give what
one process with 4 devices gives (computed here). Skipped only when the `distributed` extra
(mpi4py + the MPICH wheel's mpiexec) is not installed. Single-process behaviour is checked too."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.distributed import DistributedError
from core.experimental import multihost_utils
from tests.core import mpi_program

_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def results(mpiexec: str, tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    out = tmp_path_factory.mktemp("mpi")
    env = dict(os.environ, NUMBAX_NUM_CPU_DEVICES="2", PYTHONPATH=str(_ROOT))
    run = subprocess.run(
        [mpiexec, "-n", "2", sys.executable, str(_ROOT / "tests/core/mpi_program.py"), str(out)],
        env=env,
        cwd=_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return [json.loads((out / f"{p}.json").read_text()) for p in range(2)]


def test_processes_and_global_devices(results):
    assert [r["process"] for r in results] == [[0, 2, 2, 0], [1, 2, 2, 1]]
    for r in results:
        assert r["devices"] == [f"CpuDevice(id={i})" for i in range(4)]
        assert r["owners"] == [0, 0, 1, 1] and r["counts"] == [4, 2]
    assert [r["local"] for r in results] == [[0, 1], [2, 3]]


def test_processes_on_the_same_cores_share_them(results):
    for r in results:  # mpiexec binds no process to cores: both run on all of them
        cores = r["cores"][0]
        assert r["cores"] == [cores, max(1, cores // 2)]


def test_collectives_span_the_processes(results):
    x = np.arange(4.0, dtype=np.float32)
    one_process = core.pmap(mpi_program.collectives, axis_name="i")(x)
    names = ["normalize", "axis_index", "all_gather", "pmax", "ppermute"]
    for name, expected in zip(names, one_process):
        got = results[0][name] + results[1][name]  # each process holds its devices' slices
        np.testing.assert_array_equal(np.asarray(got, expected.dtype), np.asarray(expected))


def test_pmeaned_gradients_are_the_global_batch_gradient(results):
    expected = core.grad(mpi_program.loss)(jnp.float32(0.5), jnp.arange(4.0)) / 4
    for r in results:
        np.testing.assert_allclose(r["pmean_grad"], [float(expected)] * 2, rtol=1e-6)


def test_grad_of_a_function_enclosing_pmap_spans_the_processes(results):
    expected = core.grad(mpi_program.enclosing)(jnp.float32(0.5), np.arange(4.0, dtype=np.float32))
    for eager, jitted in zip(*[[r["enclosing_grad"][k] for r in results] for k in (0, 1)]):
        assert eager == pytest.approx(jitted, rel=1e-6)
    total = sum(r["enclosing_grad"][0] for r in results)  # the processes' parts of the sum
    assert total == pytest.approx(float(expected), rel=1e-6)


def test_device_exchange_by_buffers_and_by_pickles(results):
    for r in results:
        assert r["exchange_f32"] == [[[0.0, 0.0], [1.0, 1.0]], [[10.0, 10.0], [11.0, 11.0]]]
        assert r["exchange_bf16"] == [[0.0, 1.0], [10.0, 11.0]]


def test_a_process_waiting_for_another_sleeps(results):
    """MPICH's blocking calls spin: process 0, waiting 0.5 s for process 1 in a pmap exchange
    and in sync_global_devices, must not spend that time on a core."""
    for wall, cpu in results[0]["waits"]:
        assert wall > 0.45
        assert cpu < 0.2 * wall  # spinning would take about all of it


def test_multihost_utils(results):
    for r in results:
        assert r["allgather"] == [0.0, 1.0] and r["allgather_tiled"] == [0.0, 1.0, 2.0, 3.0]
        assert r["broadcast"] == [0, 1, 2] and r["broadcast_from_1"] == 10


def test_single_process_without_initialize():
    assert not core.distributed.is_initialized()
    with pytest.raises(DistributedError, match="initialize\\(\\) has not been called"):
        core.distributed.process_group()
    tree = {"a": np.arange(2.0)}
    np.testing.assert_array_equal(multihost_utils.process_allgather(tree)["a"], [[0.0, 1.0]])
    out = multihost_utils.broadcast_one_to_all(tree)
    np.testing.assert_array_equal(out["a"], [0.0, 1.0])
    # JAX 0.10.2 on one process: numpy arrays, dtypes as given
    got = multihost_utils.broadcast_one_to_all({"i": np.arange(3), "f": np.ones(2)})
    assert type(got["i"]) is np.ndarray and (got["i"].dtype, got["f"].dtype) == ("int64", "float64")
    multihost_utils.sync_global_devices("single")
    multihost_utils.assert_equal(tree)
    with pytest.raises(multihost_utils.MultihostError, match="exactly one process"):
        multihost_utils.broadcast_one_to_all(tree, is_source=False)
    with pytest.raises(DistributedError, match="before any numbax device is used"):
        core.distributed.initialize()  # the devices of this test process already exist


def test_missing_mpi_names_the_extra():
    code = "import sys; sys.modules['mpi4py'] = None\nimport core\ncore.distributed.initialize()"
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=_ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode != 0
    assert "DistributedError" in run.stderr and "pip install 'numbax[distributed]'" in run.stderr


def test_an_uncaught_error_in_one_process_ends_the_job(mpiexec, tmp_path):
    program = tmp_path / "fail.py"
    program.write_text(
        "import core\n"
        "core.distributed.initialize()\n"
        "if core.process_index() == 0:\n"
        "    raise RuntimeError('process 0 failed')\n"
        "core.distributed.process_group().bcast(None, root=0)  # process 1 waits for 0\n"
    )
    run = subprocess.run(
        [mpiexec, "-n", "2", sys.executable, str(program)],
        env=dict(os.environ, PYTHONPATH=str(_ROOT)),
        capture_output=True,
        text=True,
        timeout=120,  # without the abort, process 1 would wait forever
    )
    assert run.returncode != 0
    assert "RuntimeError: process 0 failed" in run.stderr + run.stdout


class _Clock:
    """A stand-in for the `time` module: `sleep` advances `perf_counter`."""

    def __init__(self):
        self.now, self.sleeps = 0.0, []

    def perf_counter(self):
        self.now += 1e-7  # each check costs a little time
        return self.now

    def sleep(self, seconds):
        self.sleeps.append((self.now, seconds))
        self.now += seconds


class _Request:
    def __init__(self, clock, done_at):
        self.clock, self.done_at = clock, done_at

    def Test(self):
        return self.clock.now >= self.done_at


@pytest.mark.parametrize("done_at", [1e-5, 2e-3, 1.0])
def test_waits_spin_briefly_then_sleep_a_tenth_of_the_time_waited(monkeypatch, done_at):
    clock = _Clock()
    monkeypatch.setattr(core.distributed, "time", clock)
    core.distributed._wait(_Request(clock, done_at))
    assert clock.now >= done_at
    if done_at < core.distributed._SPIN:
        assert clock.sleeps == []  # processes that arrive together never sleep
    for at, seconds in clock.sleeps:
        assert at >= core.distributed._SPIN
        assert seconds <= max(core.distributed._MIN_SLEEP, 0.1 * at + 1e-9)
        assert seconds <= core.distributed._MAX_SLEEP
    assert clock.now - done_at <= max(0.1 * done_at, core.distributed._MIN_SLEEP) + 1e-6
    assert len(clock.sleeps) < 400  # a second's wait: about 270 wake-ups, not 5000
