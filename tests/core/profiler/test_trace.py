"""Traces: jitted calls and their equations, with labels and costs, in both file formats."""

import glob
import gzip
import json
import os

import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
from core import profiler
from core.errors import ProfilerError
from core.profiler import hooks
from tests.core.profiler.protos import parse_xspace


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):  # Dense(3) is made first: Dense_0 is the output layer, as in Flax
        return nn.Dense(3)(nn.relu(nn.Dense(8)(x)))


MODEL = MLP()
X = jnp.asarray(np.random.default_rng(0).normal(size=(4, 5)), jnp.float32)
PARAMS = MODEL.init(core.random.key(0), X)


@core.jit
def step(params, x):
    def loss(p):
        return (MODEL.apply(p, x) ** 2).mean()

    value, grads = core.value_and_grad(loss)(params)
    return core.tree.map(lambda p, g: p - 0.1 * g, params, grads), value


def _run_dir(log_dir):
    (run,) = glob.glob(os.path.join(log_dir, "plugins", "profile", "*"))
    return run


def _events(run_dir):
    with gzip.open(os.path.join(run_dir, "perfetto_trace.json.gz")) as f:
        trace = json.load(f)
    return [e for e in trace["traceEvents"] if e["ph"] == "X"]


@pytest.fixture(scope="module")
def traced(tmp_path_factory):
    log_dir = str(tmp_path_factory.mktemp("trace"))
    expected = step(PARAMS, X)  # compiled, untraced
    with profiler.trace(log_dir):
        for i in range(2):
            with profiler.StepTraceAnnotation("train", step_num=i):
                got = step(PARAMS, X)
    return log_dir, expected, got


def test_traced_calls_compute_the_same_values(traced):
    _, expected, got = traced
    for a, b in zip(core.tree.leaves(expected), core.tree.leaves(got)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6)
        assert a.dtype == b.dtype and a.shape == b.shape


def test_each_jitted_call_holds_its_labelled_equations(traced):
    log_dir, _, _ = traced
    run = _run_dir(log_dir)
    assert os.path.basename(run)[:4].isdigit()
    events = _events(run)
    steps = [e for e in events if e["name"] == "train"]
    calls = [e for e in events if e["name"] == "jit_step"]
    assert [s["args"]["step_num"] for s in steps] == [0, 1] and len(calls) == 2
    for s, c in zip(steps, calls):  # the call nests in the step annotation
        assert s["ts"] <= c["ts"] and c["ts"] + c["dur"] <= s["ts"] + s["dur"] + 1e-3
    call = calls[0]
    inside = [e for e in events if call["ts"] <= e["ts"] <= call["ts"] + call["dur"]]
    dot = next(e for e in inside if e["name"] == "MLP/Dense_1/dot_general")
    args = dot["args"]
    assert args["flops"] == 2 * 4 * 5 * 8
    assert args["bytes_read"] == (4 * 5 + 5 * 8) * 4 and args["bytes_written"] == 4 * 8 * 4
    assert args["scope"] == "MLP/Dense_1" and "linear.py" in args["source"]
    assert dot["ts"] + dot["dur"] <= call["ts"] + call["dur"] + 1e-3
    names = {e["name"] for e in inside}
    assert "transpose(MLP)/Dense_0/dot_general" in names  # the backward pass
    assert any(__file__ in e["args"].get("source", "") for e in inside)
    # fused kernels list their equations; their FLOPs are the sum of those
    relu = next(e for e in inside if e["name"].startswith("MLP/gt"))  # the kernel ends in it
    assert relu["args"]["equations"].split()[-3:] == ["broadcast_in_dim", "max", "gt"]
    assert relu["args"]["flops"] == 4 * 8 * 3  # the bias add, relu's max, its gradient's mask


def test_xspace_has_the_same_events(traced):
    log_dir, _, _ = traced
    run = _run_dir(log_dir)
    (path,) = glob.glob(os.path.join(run, "*.xplane.pb"))
    with open(path, "rb") as f:
        space = parse_xspace(f.read())
    (plane,) = space.planes
    assert plane.name == "/host:CPU" and list(space.hostnames) == [
        os.path.basename(path)[: -len(".xplane.pb")]
    ]
    names = {e.key: e.value.name for e in plane.event_metadata}
    stats = {s.key: s.value.name for s in plane.stat_metadata}
    events = [e for line in plane.lines for e in line.events]
    assert len(events) == len(_events(run))
    dot = next(e for e in events if names[e.metadata_id] == "MLP/Dense_1/dot_general")
    values = {stats[s.metadata_id]: s for s in dot.stats}
    assert values["flops"].int64_value == 2 * 4 * 5 * 8
    assert values["scope"].str_value == "MLP/Dense_1"
    step_event = next(e for e in events if names[e.metadata_id] == "train")
    step_stats = {stats[s.metadata_id]: s.int64_value for s in step_event.stats}
    assert step_stats == {"_r": 1, "step_num": 0}
    assert all(line.timestamp_ns > 1_600_000_000 * 10**9 for line in plane.lines)


def test_annotations_and_annotated_functions(tmp_path):
    @profiler.annotate_function
    def helper(x):
        return x + 1

    @profiler.annotate_function(name="named", kind="io")
    def other():
        return 3

    assert helper(1) == 2 and other() == 3 and not hooks.events  # nothing recorded when off
    with profiler.trace(tmp_path), profiler.TraceAnnotation("block", batch=7):
        helper(1)
        other()
    events = {e["name"]: e for e in _events(_run_dir(str(tmp_path)))}
    assert events["block"]["args"] == {"batch": 7}
    assert "test_annotations_and_annotated_functions.<locals>.helper" in events
    assert events["named"]["args"] == {"kind": "io"}


def test_start_stop_errors_and_state(tmp_path):
    with pytest.raises(ProfilerError, match="No profile started"):
        profiler.stop_trace()
    profiler.start_trace(tmp_path)
    try:
        with pytest.raises(RuntimeError, match="already been started"):
            profiler.start_trace(tmp_path)
    finally:
        profiler.stop_trace()
    assert not hooks.ACTIVE and not hooks.IN_JIT
    step(PARAMS, X)  # after the trace: the compiled path, nothing recorded
    assert not hooks.events


def test_jit_under_a_transformation_while_tracing(tmp_path):
    f = core.jit(lambda x: jnp.sin(x) * x)
    with profiler.trace(tmp_path):
        g = core.grad(lambda x: f(x).sum())(jnp.arange(3.0))
        y = f(jnp.arange(3.0))
    x = np.arange(3.0, dtype=np.float32)
    np.testing.assert_allclose(g, np.cos(x) * x + np.sin(x), rtol=1e-6)
    np.testing.assert_allclose(y, np.sin(x) * x, rtol=1e-6)
    events = _events(_run_dir(str(tmp_path)))
    assert [e["name"] for e in events].count("jit_<lambda>") == 1
    assert any("sin" in e["args"].get("equations", "") for e in events)


def test_kernels_are_compiled_once_and_eager_backend_runs_equations(tmp_path):
    f = core.jit(lambda x: jnp.exp(x) + 1.0)
    g = core.jit(lambda x: jnp.exp(x) + 1.0, backend="python")
    x = jnp.arange(4.0)
    with profiler.trace(tmp_path / "a"):
        f(x)
        f(x)
        np.testing.assert_allclose(g(x), np.exp(np.arange(4.0)) + 1, rtol=1e-6)
    names = [e["name"] for e in _events(_run_dir(str(tmp_path / "a")))]
    assert names.count("compile jit_<lambda> (profiling build)") == 1
    assert names.count("add (+1)") == 2  # one kernel: exp fused into the add's loop
    assert "exp" in names and "add" in names  # the python back end: one event per equation
    with profiler.trace(tmp_path / "b"):
        f(x)
    assert "compile jit_<lambda> (profiling build)" not in [
        e["name"] for e in _events(_run_dir(str(tmp_path / "b")))
    ]


def test_host_tracer_level_1_records_compiled_calls_only(tmp_path):
    expected = step(PARAMS, X)
    with profiler.trace(tmp_path, profiler_options=profiler.ProfileOptions(host_tracer_level=1)):
        got = step(PARAMS, X)
    for a, b in zip(core.tree.leaves(expected), core.tree.leaves(got)):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))  # the same compiled code
    assert [e["name"] for e in _events(_run_dir(str(tmp_path)))] == ["jit_step"]


def test_a_log_dir_that_cannot_be_made_fails_at_start(tmp_path):
    path = tmp_path / "file"
    path.write_text("")
    with pytest.raises(FileExistsError):
        profiler.start_trace(path)
    assert not hooks.ACTIVE


def test_pmap_calls_are_one_event_per_device_on_its_thread(tmp_path):
    from core import lax

    normalize = core.pmap(lambda x: x / lax.psum(x, "i"), axis_name="i")
    x = np.arange(1.0, 5.0, dtype=np.float32)
    want = np.asarray(normalize(x))
    with profiler.trace(tmp_path):
        got = normalize(x)
    np.testing.assert_array_equal(np.asarray(got), want)
    with gzip.open(os.path.join(_run_dir(tmp_path), "perfetto_trace.json.gz")) as f:
        trace = json.load(f)
    threads = {e["tid"]: e["args"]["name"] for e in trace["traceEvents"] if e["ph"] == "M"
               and e["name"] == "thread_name"}  # fmt: skip
    calls = [e for e in trace["traceEvents"] if e["ph"] == "X" and e["name"] == "pmap_<lambda>"]
    assert sorted(e["args"]["rank"] for e in calls) == [0, 1, 2, 3]
    assert len({e["tid"] for e in calls}) == 4  # each on its device's thread
    assert {threads[e["tid"]] for e in calls} == {f"numbax-cpu:{r}" for r in range(4)}
