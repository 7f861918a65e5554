"""The timestamped profiling build of one-function programs: one event per unit, same values."""

import glob
import gzip
import json
import os

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import profiler
from core.config import config
from core.jit import partition, program
from core.profiler import kernels, stamps
from tests.core.profiler.test_trace import PARAMS, X, step

pytestmark = pytest.mark.skipif(
    not stamps.invariant_counter(), reason="no invariant cycle counter: per-kernel build"
)


def _events(log_dir):
    (run,) = glob.glob(os.path.join(str(log_dir), "plugins", "profile", "*"))
    with gzip.open(os.path.join(run, "perfetto_trace.json.gz")) as f:
        return [e for e in json.load(f)["traceEvents"] if e["ph"] == "X"]


def _calls(events, name):
    """Each call event `name` with the events inside it, in program order: by start, and a unit
    that ends first first (the trace files list a zero-length unit after the next one when both
    start at the same nanosecond)."""
    calls = [e for e in events if e["name"] == name]
    return [
        (
            c,
            sorted(
                (e for e in events if e is not c and c["ts"] <= e["ts"] <= c["ts"] + c["dur"]),
                key=lambda e: (e["ts"], e["ts"] + e["dur"]),
            ),
        )
        for c in calls
    ]


def _units(fn, *args):
    """The labels of the per-kernel build of `fn(*args)`: one per fusion unit."""
    entry, _ = fn._entry(args, {})
    return [kernels.kernel_label(k)[0] for k in partition.partition(entry.jaxpr).kernels]


def test_one_function_program_has_one_event_per_unit_and_the_same_values(tmp_path):
    step(PARAMS, X)
    program.wait_optimized()  # from cold caches the first calls run the quick tier's code
    expected = step(PARAMS, X)
    with profiler.trace(tmp_path):
        got = [step(PARAMS, X) for _ in range(3)]
    for out in got:  # the same generated code plus timestamps: the same bits
        for a, b in zip(core.tree.leaves(expected), core.tree.leaves(out)):
            np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    calls = _calls(_events(tmp_path), "jit_step")
    assert len(calls) == 3
    names = _units(step, PARAMS, X)
    assert "MLP/Dense_1/dot_general" in names and len(names) > 5
    for call, inside in calls:
        assert [e["name"] for e in inside] == names  # as the per-kernel build labels them
        assert all(e["dur"] >= 0 for e in inside)
        assert sum(e["dur"] for e in inside) <= call["dur"]
        for a, b in zip(inside, inside[1:]):  # back to back, in program order
            # within 50 ns: microsecond floats of the file, rounded apart
            assert a["ts"] + a["dur"] == pytest.approx(b["ts"], abs=5e-2)
    dot = next(e for e in calls[0][1] if e["name"] == "MLP/Dense_1/dot_general")
    assert dot["args"]["flops"] == 2 * 4 * 5 * 8 and dot["args"]["scope"] == "MLP/Dense_1"


def test_unit_durations_add_up_to_the_call_when_compute_dominates(tmp_path):
    """A check of the cycles -> ns rate: two 200x200 GEMMs and a tanh take most of the call."""
    f = core.jit(lambda a, b: jnp.tanh(a @ b) @ b)
    rng = np.random.default_rng(0)
    a, b = (jnp.asarray(rng.normal(size=(200, 200)), jnp.float32) for _ in range(2))
    expected = f(a, b)
    with profiler.trace(tmp_path):
        got = [f(a, b) for _ in range(5)]
    np.testing.assert_array_equal(np.asarray(expected), np.asarray(got[-1]))
    calls = _calls(_events(tmp_path), "jit_<lambda>")
    ratios = []
    for call, inside in calls:
        assert [e["name"] for e in inside] == _units(f, a, b)
        total = sum(e["dur"] for e in inside)
        assert total <= call["dur"]
        ratios.append(total / call["dur"])
    assert max(ratios) > 0.5, ratios


def test_split_programs_and_variable_counters_time_each_kernel(tmp_path, monkeypatch):
    g = core.jit(lambda x: jnp.sin(x) @ x)
    x = jnp.ones((3, 3))
    with config.override("jit_kernels", "many"), profiler.trace(tmp_path / "many"):
        g(x)
    monkeypatch.setattr(stamps, "ns_per_cycle", lambda: None)
    h = core.jit(lambda x: jnp.sin(x) @ x)
    h(x)  # its fast path returns one function's results, the per-kernel build another layout
    with profiler.trace(tmp_path / "variable"):
        h(x)
    for run in ("many", "variable"):
        ((_, inside),) = _calls(_events(tmp_path / run), "jit_<lambda>")
        assert [e["name"] for e in inside] == ["sin", "dot_general"]


def test_the_counter_counts_time(monkeypatch):
    assert 0.01 < stamps.ns_per_cycle() < 10  # 0.1 to 100 GHz
    monkeypatch.setattr(stamps.platform, "machine", lambda: "aarch64")
    assert not stamps.invariant_counter()


def test_a_first_call_under_the_trace_is_timed_unit_by_unit(tmp_path):
    f = core.jit(lambda x: jnp.tanh(x) * 2.0 + x.sum())
    x = jnp.arange(6.0).reshape(2, 3)
    with profiler.trace(tmp_path):  # no fast path yet: the call is traced and flattened here
        got = f(x)
    np.testing.assert_allclose(got, np.tanh(np.asarray(x)) * 2 + 15.0, rtol=1e-6)
    ((call, inside),) = _calls(_events(tmp_path), "jit_<lambda>")
    assert [e["name"] for e in inside] == _units(f, x) and len(inside) == 2
    assert sum(e["dur"] for e in inside) <= call["dur"]


@pytest.mark.parametrize("kernels_mode", ["auto", "many"])  # stamped one function; per kernel
def test_profiling_builds_take_views_and_run_a_raising_kernel_once(tmp_path, kernels_mode):
    calls = []

    def callback(x):
        calls.append(x.flags.c_contiguous)
        if x[0, 0] < 0:
            raise TypeError("the callback's own TypeError")
        return x

    f = core.jit(
        lambda x: core.pure_callback(callback, core.ShapeDtypeStruct(x.shape, x.dtype), x) * 2
    )
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    with config.override("jit_kernels", kernels_mode), profiler.trace(tmp_path):
        for arg in (x, x.T, x[:, ::2]):  # C-contiguous, transposed, strided
            np.testing.assert_array_equal(f(arg), np.asarray(arg) * 2)
        n = len(calls)
        with pytest.raises(TypeError, match="the callback's own TypeError"):
            f(-(x.T + 1))
    assert len(calls) == n + 1 and all(calls)  # ran once, always on C-contiguous arrays
