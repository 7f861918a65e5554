"""numbax's thread policy (core/jit/threads.py): the count under CPU masks, the option and the
environment variable, device shares, OpenBLAS turned to one thread, and a process-wide count
that the configuration can no longer change once the back end has loaded."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core.config import config
from core.devices import local_count_setting
from core.jit import threads, workers
from core.jit.errors import ThreadCountError

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def policy(monkeypatch):
    """The policy as a fresh process sees it: count not fixed yet, no env var."""
    monkeypatch.setitem(threads._state, "threads", None)
    monkeypatch.setitem(threads._state, "sharers", 1)
    monkeypatch.delenv(threads.ENV, raising=False)
    monkeypatch.setitem(config._values, "num_threads", -1)
    return monkeypatch


@pytest.mark.parametrize("mask", [{0}, {0, 1}, {0, 2, 5, 7}])
def test_default_is_the_cores_of_the_affinity_mask(policy, no_quota, mask):
    policy.setattr(os, "sched_getaffinity", lambda pid: mask, raising=False)
    assert threads.usable_cores() == len(mask)
    assert threads.requested_threads() == len(mask)
    assert threads.num_threads() == len(mask)


@pytest.fixture
def no_quota(policy, tmp_path):
    policy.setattr(threads, "CGROUP_V2", str(tmp_path / "absent"))
    policy.setattr(threads, "CGROUP_V1", (str(tmp_path / "absent"),) * 2)
    return tmp_path


@pytest.mark.parametrize(
    ("v2", "v1", "cores"),
    [
        ("max 100000\n", None, 8),  # no quota
        ("150000 100000\n", None, 2),  # --cpus 1.5: rounded up
        ("50000 100000\n", None, 1),
        ("1600000 100000\n", None, 8),  # a quota above the mask: the mask
        (None, ("200000", "100000"), 2),  # cgroup v1
        (None, ("-1", "100000"), 8),
    ],
)
def test_a_cpu_quota_lowers_the_cores(policy, no_quota, v2, v1, cores):
    policy.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    if v2 is not None:
        (no_quota / "cpu.max").write_text(v2)
        policy.setattr(threads, "CGROUP_V2", str(no_quota / "cpu.max"))
    if v1 is not None:
        paths = (no_quota / "quota", no_quota / "period")
        for path, text in zip(paths, v1):
            path.write_text(text + "\n")
        policy.setattr(threads, "CGROUP_V1", tuple(map(str, paths)))
    assert threads.usable_cores() == cores
    assert threads.requested_threads() == cores


@pytest.mark.parametrize(
    ("cores", "processes", "share"), [(2, 2, 1), (8, 2, 4), (8, 3, 2), (2, 4, 1)]
)
def test_processes_sharing_the_cores_get_a_share_each(policy, no_quota, cores, processes, share):
    """`core.distributed.initialize` under `mpiexec -n P` on the same cores: threads, devices
    and compile workers default to each process's share."""
    policy.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)), raising=False)
    policy.delenv("NUMBAX_NUM_CPU_DEVICES", raising=False)
    policy.setitem(config._values, "num_cpu_devices", -1)
    threads.share_cores(processes)
    assert threads.usable_cores() == cores
    assert threads.requested_threads() == threads.process_cores() == share
    assert local_count_setting() == share
    assert workers.default_workers() == share - 1
    policy.setenv(threads.ENV, "3")  # an explicit count still wins
    assert threads.requested_threads() == 3


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one CPU: nothing to keep to")
def test_a_thread_kept_to_one_cpu_still_sees_the_process_cores(no_quota):
    """A pmap device's thread keeps to one CPU while it runs its slice (`core.device_worker`),
    and the first run of a program starts its optimized builds there: the cores, the default
    thread count and the compile workers are the process's, not that thread's one CPU."""
    import core  # noqa: PLC0415

    cpus = os.sched_getaffinity(0)
    worker = core.devices()[1].worker
    seen = lambda: (  # noqa: E731
        os.sched_getaffinity(0),
        threads.process_cpus(),
        threads.usable_cores(),
        workers.default_workers(),
    )
    mine, process, cores, compilers = worker.submit(seen, cpu=min(cpus)).result(timeout=60)
    assert mine == {min(cpus)}  # the thread's own mask
    assert process == cpus and cores == len(cpus) == threads.usable_cores()
    assert compilers == workers.default_workers() >= 1


def test_option_beats_env_beats_cores(policy, no_quota):
    policy.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    policy.setenv(threads.ENV, "3")
    assert threads.requested_threads() == 3
    policy.setitem(config._values, "num_threads", 1)
    assert threads.requested_threads() == 1


@pytest.mark.parametrize("text", ["0", "-2", "two"])
def test_bad_env_value_names_the_variable(policy, text):
    policy.setenv(threads.ENV, text)
    with pytest.raises(ThreadCountError, match="NUMBAX_NUM_THREADS"):
        threads.requested_threads()


@pytest.mark.parametrize("value", [0, -3, 1.5, "2"])
def test_bad_option_value_is_rejected(value):
    with pytest.raises(ValueError, match="num_threads must be a positive int or -1"):
        config.update("num_threads", value)


@pytest.mark.parametrize(
    ("cores", "devices", "share"), [(2, 1, 2), (2, 2, 1), (2, 8, 1), (8, 2, 4)]
)
def test_each_device_thread_gets_its_share(policy, cores, devices, share):
    policy.setitem(config._values, "num_threads", cores)
    assert threads.device_share(devices) == share


SCRIPT = """
import ctypes, json, sys
import numba
import core
import core.numpy as jnp
from core.config import config
from core.jit import threads
from numba.np.ufunc import parallel

if sys.argv[1] != "-":
    config.update("num_threads", int(sys.argv[1]))
import numpy as np
f = core.jit(lambda x: jnp.tanh(x) * 2.0)  # large enough for a threaded loop
x = np.linspace(-3, 3, 1 << 18, dtype=np.float32)
g = core.jit(lambda a, b: jnp.tanh(a @ b))  # 256x384x128: 12.6M multiply-adds, in bands
a = np.random.default_rng(0).standard_normal((256, 384)).astype(np.float32)
b = np.random.default_rng(1).standard_normal((384, 128)).astype(np.float32)
np.savez(sys.argv[2], loop=np.asarray(f(x)), product=np.asarray(g(a, b)))
from core.jit import api, codegen
(entry,) = api._trace_caches[f._fun].values()
getters = {}
for lib in threads.blas_libraries():
    cdll = ctypes.CDLL(lib.path)
    name = next(n for n in ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads",
                            "openblas_get_num_threads") if hasattr(cdll, n))
    getters[lib.path] = getattr(cdll, name)()
try:
    config.update("num_threads", 1)
    frozen = ""
except RuntimeError as err:
    frozen = str(err)
print(json.dumps({"threads": threads.num_threads(), "pool": numba.config.NUMBA_NUM_THREADS,
                  "main": numba.get_num_threads(),
                  "prange": codegen.threaded(entry.exe.source),
                  "layer": numba.threading_layer(), "blas": getters, "frozen": frozen}))
"""


def _run(arg: str, out_file, **env) -> dict:
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", threads.ENV)
    }
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, arg, str(out_file)],
        env={**base, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_back_end_sizes_numbas_pool_turns_openblas_to_one_thread_and_freezes_the_count(tmp_path):
    res = _run("3", tmp_path / "out.npz")
    assert res["threads"] == 3 and res["pool"] == 3 and res["prange"]
    assert res["main"] == 3  # the main thread's share: the pool, not numba's import-time count
    assert res["layer"] == "tbb"
    # numpy's OpenBLAS (loaded with numpy) and scipy's (loaded for numba's products)
    assert len(res["blas"]) >= 2 and set(res["blas"].values()) == {1}, res["blas"]
    assert "num_threads is fixed at 3" in res["frozen"]


def test_users_blas_and_thread_settings_win(tmp_path):
    res = _run("-", tmp_path / "out.npz", OPENBLAS_NUM_THREADS="2", NUMBAX_NUM_THREADS="1")
    assert res["threads"] == 1 and res["pool"] == 1
    assert not res["prange"]  # one thread: loops compile without numba's parallel passes
    assert 2 in res["blas"].values()  # OpenBLAS keeps the user's two threads


@pytest.mark.parametrize(("cores", "want"), [(1, 0), (2, 1), (8, 7)])
def test_compile_workers_follow_the_usable_cores(monkeypatch, cores, want):
    monkeypatch.setattr(threads, "usable_cores", lambda: cores)
    assert workers.default_workers() == want


def test_results_on_one_and_several_threads(tmp_path):
    """Threaded loops and products in bands give identical results on one thread and on three
    (the bands are cut by the sizes, core/jit/schedule.py)."""
    several, one = (tmp_path / f"{n}.npz" for n in ("several", "one"))
    assert _run("3", several)["prange"]
    res = _run("1", one)
    assert not res["prange"] and res["main"] == 1
    with np.load(several) as s, np.load(one) as o:
        np.testing.assert_array_equal(s["loop"], o["loop"])
        np.testing.assert_array_equal(s["product"], o["product"])


class FakeMachine:
    """A clock, the idle seconds of `cores` cores and this process's CPU seconds, advanced by
    hand: `run(seconds, own=cores this process used, others=cores other processes used)`."""

    def __init__(self, cores: int = 2):
        self.cores, self.now, self.idle, self.own = cores, 100.0, 0.0, 0.0

    def run(self, seconds: float, own: float, others: float) -> None:
        self.now += seconds
        self.own += own * seconds
        self.idle += max(0.0, self.cores - own - others) * seconds

    def follower(self, most: int = 2) -> threads.LoadFollower:
        return threads.LoadFollower(
            most, self.cores, lambda: self.idle, lambda: self.now, lambda: self.own
        )


def _steps(machine, follower, seconds: float, others: float, step: float = 0.03) -> list[int]:
    """Calls `follower` once per step of `step` seconds for `seconds`; the process uses as
    many cores as the count in force, the others `others` cores (what is left of them)."""
    counts = []
    for _ in range(round(seconds / step)):
        n = follower()
        counts.append(n)
        machine.run(step, own=min(n, machine.cores - others), others=others)
    return counts


def test_the_count_follows_a_busy_process_and_comes_back_when_it_ends():
    m = FakeMachine()
    f = m.follower()
    assert set(_steps(m, f, 1.0, others=0.05)) == {2}  # a free machine: both threads
    busy = _steps(m, f, 3.0, others=0.7)  # one busy process gets 0.7 core next to two threads
    assert busy[: round(threads.WINDOW / 0.03)] == [2] * round(threads.WINDOW / 0.03)
    assert busy[-1] == 1 and busy.count(1) > 0.75 * len(
        busy
    )  # one thread, tried again now and then
    assert 2 in busy[len(busy) // 2 :]
    assert f.hold == threads.MAX_HOLD or f.hold > threads.HOLD  # the tries failed: longer holds
    after = _steps(m, f, 1.0, others=0.0)  # it ended: two threads within a window or two
    assert after[-1] == 2 and after.count(2) >= len(after) - 2 * round(threads.WINDOW / 0.03)
    assert f.hold == threads.HOLD


def test_a_pause_decides_nothing_and_the_most_is_tried_after_it():
    m = FakeMachine()
    f = m.follower()
    _steps(m, f, 0.45, others=1.0)  # one window at two threads, then one (held)
    assert f() == 1
    m.run(1.0, own=0.0, others=2.0)  # the process pauses while others use both cores
    assert f() == 2  # old news: the most again, for a window
    m.run(0.05, own=0.0, others=0.0)
    assert f() == 2


def test_others_below_the_margin_keep_every_thread():
    m = FakeMachine(cores=4)
    f = m.follower(most=4)
    assert set(_steps(m, f, 2.0, others=threads.MARGIN - 0.1)) == {4}
    counts = _steps(m, f, 2.0, others=2.0)  # two cores taken: two threads left, 4 tried
    assert counts.count(2) > 0.75 * len(counts) and max(counts) == 4


def test_on_the_pool_one_busy_process_takes_no_thread():
    m = FakeMachine()
    f = threads.LoadFollower(
        2, m.cores, lambda: m.idle, lambda: m.now, lambda: m.own, margin=threads.POOL_MARGIN
    )
    assert set(_steps(m, f, 2.0, others=1.0)) == {2}  # one busy process's core
    counts = _steps(m, f, 2.0, others=1.45)  # more: one thread, two tried now and then
    assert counts.count(1) > 0.75 * len(counts) and max(counts) == 2


def test_the_pool_sets_the_followers_margin(policy):
    if not (os.path.exists("/proc/stat") and hasattr(os, "sched_getaffinity")):
        pytest.skip("no /proc/stat")
    for on, margin in ((False, threads.MARGIN), (True, threads.POOL_MARGIN)):
        policy.setitem(config._values, "jit_thread_pool", on)
        follower = threads._follower(2)
        assert follower is not None and follower.margin == margin


def test_idle_seconds_counts_the_cpus_asked_for(tmp_path):
    stat = tmp_path / "stat"
    stat.write_text(
        "cpu  10 0 5 700 20 0 0 0 0 0\n"
        "cpu0 5 0 2 300 10 0 0 0 0 0\n"
        "cpu1 5 0 3 400 10 0 0 0 0 0\n"
        "intr 12345\n"
    )
    tick = os.sysconf("SC_CLK_TCK")
    assert threads.idle_seconds(frozenset({1}), str(stat)) == 410 / tick
    assert threads.idle_seconds(frozenset({0, 1}), str(stat)) == 720 / tick
    assert threads.idle_seconds(frozenset({0}), str(tmp_path / "missing")) is None


def test_only_the_default_count_follows_the_load(policy):
    assert threads._follower(1) is None
    if os.path.exists("/proc/stat") and hasattr(os, "sched_getaffinity"):
        assert isinstance(threads._follower(2), threads.LoadFollower)
    policy.setenv(threads.ENV, "2")
    assert threads._follower(2) is None
    policy.delenv(threads.ENV)
    policy.setitem(config._values, "num_threads", 2)
    assert threads._follower(2) is None


FOLLOW_SCRIPT = """
import json, time, numba, numpy as np
import core, core.numpy as jnp
from core.jit import threads
g = core.jit(lambda a, b: jnp.tanh(a @ b))  # about 0.1-1 ms: runs inline on this thread
a = np.ones((256, 384), np.float32)
b = np.ones((384, 128), np.float32)
g(a, b)
follower = threads._state["follower"]

def call(count):  # as if the last window had decided `count` threads
    follower.current, follower._start = count, time.monotonic()
    g(a, b)
    return numba.get_num_threads()

seen = [numba.get_num_threads(), call(1), call(2)]
numba.set_num_threads(1)  # the user's setting: left alone from then on
seen += [call(2), call(1), call(2)]
print(json.dumps(seen))
"""


def test_inline_calls_follow_the_load_unless_the_user_set_the_threads():
    env = {k: v for k, v in os.environ.items() if k not in (threads.ENV, "NUMBA_NUM_THREADS")}
    out = subprocess.run(
        [sys.executable, "-c", FOLLOW_SCRIPT],
        env={**env, "PYTHONPATH": str(ROOT), "NUMBAX_ASYNC_DISPATCH_MIN_US": "1e9"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    if threads.usable_cores() < 2:
        pytest.skip("one core: nothing to follow")
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [2, 1, 2, 1, 1, 1]
