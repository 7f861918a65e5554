"""The live-array memory profile: pprof's format (decoded with protobuf and, when installed,
read by Google's `pprof`), byte and count totals, allocation stacks from tracemalloc."""

import gc
import gzip
import inspect
import shutil
import subprocess
import tracemalloc

import numpy as np
import pytest

import core.numpy as jnp
from core import profiler
from tests.core.profiler.protos import parse_pprof


def _samples(profile):
    strings = list(profile.string_table)
    functions = {f.id: f for f in profile.function}
    locations = {loc.id: loc for loc in profile.location}
    out = []
    for s in profile.sample:
        labels = {strings[lb.key]: strings[lb.str] for lb in s.label}
        frames = []
        for loc_id in s.location_id:
            for line in locations[loc_id].line:
                fn = functions[line.function_id]
                frames.append((strings[fn.name], strings[fn.filename], line.line))
        out.append((list(s.value), labels, frames))
    return out


def test_profile_format_and_totals():
    big = jnp.ones((300, 100), jnp.float32)  # 120 KB, one buffer
    gc.collect(0)  # `big` to an older generation: the collector now lists `view` first
    view = big.reshape(100, 300)  # shares the buffer: counted once, under `big`
    profile = parse_pprof(profiler.device_memory_profile())
    strings = list(profile.string_table)
    assert strings[0] == ""
    types = [(strings[t.type], strings[t.unit]) for t in profile.sample_type]
    assert types == [("allocations", "count"), ("space", "bytes")]
    assert strings[profile.default_sample_type] == "space"
    samples = _samples(profile)
    ours = [s for s in samples if s[1]["shape"] == "f32[300,100]"]
    assert sum(s[0][1] for s in ours) >= 300 * 100 * 4
    assert all(s[1]["kind"] == "buffer" for s in samples)
    assert not any(s[1]["shape"] == "f32[100,300]" for s in samples)  # the view
    del big, view


def test_allocation_stacks_with_tracemalloc():
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start(25)
    try:
        line = inspect.currentframe().f_lineno + 1
        held = jnp.zeros((123, 7), jnp.float32)
        samples = _samples(parse_pprof(profiler.device_memory_profile()))
    finally:
        if started:
            tracemalloc.stop()
    (sample,) = [s for s in samples if s[1]["shape"] == "f32[123,7]"]
    assert sample[0] == [1, 123 * 7 * 4]
    assert sample[2][0][1:] == (__file__, line)  # the leaf frame is this line
    del held


def test_without_tracemalloc_arrays_are_counted_under_a_hint():
    if tracemalloc.is_tracing():
        pytest.skip("tracemalloc is on for this process")
    held = jnp.zeros((11, 13), jnp.float32)
    samples = _samples(parse_pprof(profiler.device_memory_profile()))
    (sample,) = [s for s in samples if s[1]["shape"] == "f32[11,13]"]
    assert "PYTHONTRACEMALLOC" in sample[2][0][0]
    del held


@pytest.mark.skipif(shutil.which("pprof") is None, reason="Google's pprof is not installed")
def test_google_pprof_reads_the_file(tmp_path):
    held = np.ones(1)  # noqa: F841  (numpy arrays are not device arrays: not in the profile)
    kept = jnp.ones((64, 64), jnp.float32)
    path = tmp_path / "memory.prof"
    profiler.save_device_memory_profile(path)
    assert gzip.decompress(path.read_bytes())
    raw = subprocess.run(["pprof", "-raw", str(path)], capture_output=True, text=True, check=True)
    assert "allocations/count space/bytes[dflt]" in raw.stdout
    assert "shape:[f32[64,64]]" in raw.stdout
    top = subprocess.run(["pprof", "-top", str(path)], capture_output=True, text=True, check=True)
    assert "Type: space" in top.stdout
    del kept
