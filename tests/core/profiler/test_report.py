"""memory_report: liveness over the compiled program's units, fusion and buffer reuse, worked
out by hand for small programs."""

import ast
import math
import re

import numpy as np

import core
import core.numpy as jnp
import nn
import optim
from core import profiler
from tests.core.profiler.protos import parse_pprof

X = jnp.ones((8, 16), jnp.float32)  # 512 B
W1 = jnp.ones((16, 32), jnp.float32)  # 2048 B
W2 = jnp.ones((32, 4), jnp.float32)  # 512 B


@core.jit
def mlp(x, w1, w2):
    with core.named_scope("hidden"):
        h = jnp.maximum(x @ w1, 0.0)
    return h @ w2


def test_peak_of_a_two_layer_product():
    report = profiler.memory_report(mlp, X, W1, W2)
    # x @ w1 makes h (8x32 floats, 1 KB); the relu loop writes into h's buffer (h dies
    # there); h @ w2 makes the 128 B output while h is still live.
    assert report.argument_bytes == 512 + 2048 + 512
    assert report.peak_bytes == 3072 + 1024 + 128
    allocated = [row.allocated for row in report.units]
    assert sum(allocated) == 1024 + 128
    peak = report.units[report.peak_unit]
    assert [e.prim.name for e in peak.eqns] == ["dot_general"]
    live = {
        (b.var.aval.str_short(short_dtypes=True), b.reason.split(" ")[0])
        for b in report.live_at_peak
    }
    assert ("f32[8,32]", "read") in live and ("f32[8,4]", "program") in live
    hidden = next(b for b in report.live_at_peak if b.var.aval.shape == (8, 32))
    assert hidden.made_by.source_info.name_stack == "hidden"
    text = str(report)
    assert "peak 4.1 KB" in text and "<- peak" in text and "hidden/" in text


def test_fused_chain_allocates_only_its_result():
    report = profiler.memory_report(lambda x: jnp.sin(x) * 2.0 + 1.0, X)
    assert sum(row.allocated for row in report.units) == 512
    assert report.peak_bytes == 512 + 512
    # the function is jitted for the report, and nothing ran
    np.testing.assert_equal(report.name, "<lambda>")


def test_profile_of_the_peak(tmp_path):
    report = profiler.memory_report(mlp, X, W1, W2)
    path = tmp_path / "peak.prof"
    report.save_profile(path)
    profile = parse_pprof(path.read_bytes())
    strings = list(profile.string_table)
    functions = {f.id: strings[f.name] for f in profile.function}
    locations = {loc.id: functions[loc.line[0].function_id] for loc in profile.location}
    samples = [(tuple(locations[i] for i in s.location_id), s.value[1]) for s in profile.sample]
    assert (("max", "hidden", "jit_mlp"), 1024) in samples  # h, written in place by the relu
    assert sorted(n for stack, n in samples if stack[0] == "argument") == [512, 512, 2048]
    assert sum(n for _, n in samples) == report.peak_bytes


def _generated_allocations(jitted, *args) -> int:
    """Bytes of the arrays the generated numba code allocates (`rt.empty`/`rt.full` lines), its
    size variables (`n_3 = rt.ld(sz, 3)`) bound to the values the program passes."""
    from core.jit.api import executable

    jitted(*args)
    entry, _ = jitted._entry(args, {})
    exe = executable(entry.jaxpr, "numba")
    (sizes,) = [a for a in exe.extra[0] if a.dtype == np.int64]
    loads = re.findall(r"\b(n_\d+) = rt\.ld\(sz, (\d+)\)", exe.source)
    values = {name: int(sizes[int(k)]) for name, k in loads}
    total = 0
    for node in ast.walk(ast.parse(exe.source)):
        if isinstance(node, ast.Call) and ast.unparse(node.func) in ("rt.empty", "rt.full"):
            shape = eval(ast.unparse(node.args[0]), {}, values)
            total += math.prod(shape) * np.dtype(node.args[-1].attr).itemsize
    return total


def test_allocations_match_the_generated_code_of_an_adam_step():
    model = _Dense2()
    x, y = jnp.ones((8, 20)), jnp.zeros((8,), jnp.int32)
    params = model.init(core.random.key(0), x)["params"]
    tx = optim.adam(1e-3)

    @core.jit
    def step(params, opt_state, x, y):
        def loss(p):
            logits = model.apply({"params": p}, x)
            return optim.softmax_cross_entropy_with_integer_labels(logits, y).mean()

        value, grads = core.value_and_grad(loss)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optim.apply_updates(params, updates), opt_state, value

    args = (params, tx.init(params), x, y)
    report = profiler.memory_report(step, *args)
    # byte for byte: packed small outputs, relu masks kept for the backward pass, reductions,
    # in-place elementwise loops
    assert sum(row.allocated for row in report.units) == _generated_allocations(step, *args)


class _Dense2(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(10)(nn.relu(nn.Dense(32)(x)))
