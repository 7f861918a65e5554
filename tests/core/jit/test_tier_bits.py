"""A jitted program computes the same bits whichever compile tier built its code
(`config.jit_quick_first_call`; `core/backends/llvm/settle.py`, `translate.LANES`).

One process with a cold disk cache compiles every program of `tier_bits_cases.py` in the quick
tier (forced: `NUMBAX_JIT_QUICK_MIN=0`), runs it, waits for the optimized twins the compile
worker builds, runs it again, and compares the two results bit for bit. Before the tiers'
choices were settled in the IR, 41 of its 60 float32 and float64 programs differed: the quick
tier fused no products into sums (`axpy_*`, `transcendental_*`, `mlp_grad_f32`), divided where
O3 multiplies by reciprocals (`div_cols_*`, `div_const_*`, `softmax_*`, `avg_pool_*`) and
summed in order where O3 sums in vector lanes (`sum_rows_*`, `sum_all_*`, `mean_*`, `prod_*`,
`logsumexp_*`).

Run `python tests/core/jit/test_tier_bits.py [name ...]` to print the table (`same`, or the
largest difference of each program) without pytest.
"""

import json
import os
import subprocess
import sys

CHILD = r"""
import json, sys
import numpy as np
import core
from core.backends.llvm import shells
from core.backends.numba.library import entry as library
from core.jit import program
from tests.core.jit.tier_bits_cases import cases

core.config.update("enable_x64", True)
CASES = cases()


def leaves(out):
    return [np.asarray(x) for x in core.tree_util.tree_leaves(out)]


def quick_code():
    return sum(map(shells.is_quick, list(shells._LOADED.values()))) + len(library._QUICK)


names = sys.argv[1].split(",") if len(sys.argv) > 1 else list(CASES)
fns = {name: core.jit(CASES[name][0]) for name in names}
first, ran_quick = {}, 0
for name in names:
    first[name] = leaves(fns[name](*CASES[name][1]))
    ran_quick = max(ran_quick, quick_code())
assert program.wait_optimized(600)
report = {"quick": ran_quick, "left": quick_code(), "cases": {}}
for name in names:
    again = leaves(fns[name](*CASES[name][1]))
    pairs = list(zip(first[name], again))
    same = all(a.tobytes() == b.tobytes() for a, b in pairs)
    wide = lambda a: a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    worst = max(float(np.max(np.abs(wide(a) - b), initial=0)) for a, b in pairs)
    report["cases"][name] = "same" if same else worst
print(json.dumps(report))
"""


def run_table(cache_dir: str, names: list[str] | None = None) -> dict:
    """Runs `CHILD` on a cold disk cache in `cache_dir` (the quick tier forced, one compile
    worker): its report."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    env = dict(
        os.environ,
        NUMBAX_CACHE_DIR=str(cache_dir),
        NUMBA_CACHE_DIR=str(cache_dir),
        NUMBAX_JIT_QUICK="1",
        NUMBAX_JIT_QUICK_MIN="0",
        NUMBAX_JIT_WORKERS="1",
        NUMBAX_JIT_PROGRESS="0",
        PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])),
    )
    cmd = [sys.executable, "-c", CHILD, *([",".join(names)] if names else [])]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1500, cwd=root)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.splitlines()[-1])


def test_every_program_gives_the_same_bits_in_both_tiers(tmp_path):
    """Reductions of several sizes and axes, odd matrix products, softmax, logsumexp, a layer
    norm, divisions, transcendental chains, a convolution, pooling, a scan and an MLP's
    gradient, in float32 and float64: the quick tier's first call and the optimized code's
    call agree bit for bit (and quick code did run first, and none is left after the wait)."""
    report = run_table(tmp_path)
    assert report["quick"] > 0 and report["left"] == 0, report
    differ = {name: d for name, d in report["cases"].items() if d != "same"}
    assert not differ, differ


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        result = run_table(d, sys.argv[1:] or None)
    print(f"quick code loaded: {result['quick']}, left after the wait: {result['left']}")
    for name, d in result["cases"].items():
        print(f"{name:28s} {d if d == 'same' else f'differs by up to {d:.3g}'}")
