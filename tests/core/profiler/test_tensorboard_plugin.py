"""TensorBoard's profile plugin (xprof) lists a numbax trace run and builds its trace viewer from
the `.xplane.pb`. xprof is a test-only tool: it runs in the reference interpreter (/opt/ref,
`pip install tensorboard-plugin-profile`) when that has it, and the test is skipped otherwise."""

import json
import os
import subprocess

import pytest

import core
import core.numpy as jnp
from core import profiler

REF = os.environ.get("NUMBAX_REFERENCE_PYTHON", "/opt/ref/bin/python")
SCRIPT = """
import argparse, glob, json, sys
from tensorboard.plugins import base_plugin
from xprof import profile_plugin
from xprof.convert import raw_to_tool_data
logdir = sys.argv[1]
context = base_plugin.TBContext(
    logdir=logdir, flags=argparse.Namespace(master_tpu_unsecure_channel=""), data_provider=None
)
plugin = profile_plugin.ProfilePlugin(context)
runs = plugin.runs_imp()
tools = {run: plugin.run_tools_imp(run) for run in runs}
paths = glob.glob(logdir + "/plugins/profile/*/*.xplane.pb")
data, _ = raw_to_tool_data.xspace_to_tool_data(paths, "trace_viewer", {})
events = [e for e in json.loads(data)["traceEvents"] if e.get("ph") == "X"]
print(json.dumps({"runs": runs, "tools": tools, "events": events}))
"""


def _has_xprof() -> bool:
    if not os.path.exists(REF):
        return False
    probe = subprocess.run([REF, "-c", "import xprof"], capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not _has_xprof(), reason="xprof is not installed in the reference python")
def test_profile_plugin_lists_the_run(tmp_path):
    @core.jit
    def f(x):
        with core.named_scope("block"):
            return jnp.tanh(x @ x)

    x = jnp.ones((8, 8))
    f(x)
    with profiler.trace(tmp_path), profiler.StepTraceAnnotation("train", step_num=3):
        f(x)
    run = os.path.basename(profiler.session.last_run_dir())
    out = subprocess.run(
        [REF, "-c", SCRIPT, str(tmp_path)], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["runs"] == [run]
    assert "trace_viewer@" in result["tools"][run] or "trace_viewer" in result["tools"][run]
    by_name = {e["name"]: e for e in result["events"]}
    assert {"jit_f", "block/dot_general", "block/tanh"} <= set(by_name)
    assert by_name["block/dot_general"]["args"]["scope"] == "block"
    assert by_name["train 3"]["args"]["step_num"] == "3"
