"""How `pytest -n 2 --dist loadfile` hands the tests to its workers (tests/conftest.py's
`pytest_xdist_make_scheduler` returns `LongestFirst`): a file still runs on one worker, but the
longest go first, so that no long file starts while the other worker is nearly done; and the
ported programs (tests/porting), which share nothing, run one program at a time, so that no
group file of them is a floor of the wall clock.

xdist's own order starts the files with the most tests first; the ported-program files hold
few tests of 10-60 s each (from empty caches), so they started last and one worker ran them
alone for minutes. `COSTS` holds the seconds a cold run (empty compile caches, as CI starts)
measured for each long file or program; the rest follow in xdist's order. A stale entry only
costs balance, never a test. `python -m tests.xdist_schedule junit.xml` prints a run's
units in their form and replays xdist's order and this one on two workers.
"""

import sys
from xml.etree import ElementTree

from xdist.scheduler import LoadFileScheduling

# Files whose tests are units of their own (independent programs; the file is only a group).
SPLIT = "tests/porting/test_ported_"

# Seconds of a cold `python -m pytest -q -n 2 --dist loadfile --junitxml=...` (the sum of each
# file's test times; 15 s and more), 2026-12-05, load average 13-20: only the order matters.
COSTS: dict[str, float] = {
    "tests/examples/test_mnist_parallel.py": 586,
    "tests/core/test_distributed.py": 491,
    "tests/core/jit/test_tiers.py": 302,
    "tests/core/backends/llvm/test_vecmath.py": 162,
    "tests/optim/test_linesearch.py": 154,
    "tests/core/backends/llvm/test_shells.py": 152,
    "tests/core/jit/test_lean_loops.py": 152,
    "tests/core/jit/test_sort_lowering.py": 148,
    "tests/core/jit/test_linalg_lowering.py": 146,
    "tests/examples/test_mnist.py": 81,
    "tests/core/jit/test_disk_cache.py": 65,
    "tests/core/jit/test_narrow_jit.py": 62,
    "tests/core/backends/llvm/test_nests.py": 58,
    "tests/core/jit/test_interrupt.py": 55,
    "tests/core/jit/test_tier_bits.py": 52,
    "tests/core/backends/llvm/test_complex_ir.py": 44,
    "tests/core/jit/test_codegen.py": 43,
    "tests/core/profiler/test_stamps.py": 41,
    "tests/core/parallel/test_pmap_prim.py": 40,
    "tests/core/backends/numba/test_library.py": 40,
    "tests/core/test_checking_leaks.py": 39,
    "tests/core/jit/test_dispatch.py": 39,
    "tests/core/jit/test_vecmath.py": 38,
    "tests/core/prims/test_rng_bit_generator.py": 35,
    "tests/core/jit/test_sum_order.py": 33,
    "tests/core/jit/test_loops.py": 31,
    "tests/core/backends/numba/test_scan_rows.py": 30,
    "tests/core/backends/llvm/test_parallel.py": 28,
    "tests/api_examples/test_optax_examples.py": 27,
    "tests/core/test_layers.py": 27,
    "tests/core/jit/test_workers.py": 27,
    "tests/core/jit/test_threads.py": 27,
    "tests/core/test_random_distributions.py": 26,
    "tests/core/test_packages.py": 25,
    "tests/core/jit/test_gc_pause.py": 25,
    "tests/core/experimental/test_ode.py": 24,
    "tests/core/scipy/test_special.py": 21,
    "tests/core/backends/llvm/test_rewrite.py": 21,
    "tests/core/profiler/test_trace.py": 20,
    "tests/core/backends/numba/library/test_taps.py": 20,
    "tests/core/jit/test_api_cache_bounds.py": 19,
    "tests/core/jit/test_fork_safety.py": 19,
    "tests/core/prims/test_sum_order.py": 18,
    "tests/core/backends/llvm/test_routines.py": 17,
    "tests/core/backends/numba/rules/test_complex_math.py": 16,
    "tests/core/backends/llvm/test_target.py": 16,
    "tests/core/scipy/special/test_integrals.py": 16,
    "tests/core/test_debug_callbacks.py": 15,
    "tests/core/jit/test_index_lowering.py": 15,
}

# The same for the ported programs, by name (each runs as a unit of its own).
PROGRAM_COSTS: dict[str, float] = {
    "optax_lbfgs_linesearches": 146,
    "transformer_translation": 63,
    "rope_gqa_decoder": 44,
    "transformer_lm": 37,
    "set_transformer": 34,
    "unet_segmentation": 34,
    "pointer_network": 33,
    "swin_window_attention": 33,
    "transformer_tagger": 33,
    "scipy_minimize": 29,
    "perceiver_cross_attention": 27,
    "kalman_smoother": 26,
    "t5_beam_search": 26,
    "svgd_bayesian_nn": 24,
    "seq2seq_lstm": 24,
    "score_matching_langevin": 23,
    "gru_ctc_recognizer": 22,
    "gpt2_attention_variants": 21,
    "mamba_selective_scan": 21,
    "wavenet_dilated": 21,
    "sac_td3_control": 20,
    "nerf_positional": 19,
    "decision_transformer": 18,
    "dpo_preference": 18,
    "optax_linen_vision": 17,
    "resnet_cross_replica": 16,
    "performer_linear_attention": 16,
    "capsule_routing": 16,
    "clip_dual_encoder": 15,
}


def cost(scope: str) -> float:
    """The measured seconds of a work unit, 0.0 when it is not measured.

    Args:
        scope: the unit as `LongestFirst._split_scope` names it: a file's path, or a ported
            program's node id (`...::test_name[program]`).

    Returns:
        Seconds from `PROGRAM_COSTS` (a ported program) or `COSTS`.
    """
    if scope.startswith(SPLIT):
        return PROGRAM_COSTS.get(scope.partition("[")[2].rstrip("]"), 0.0)
    return COSTS.get(scope, 0.0)


class LongestFirst(LoadFileScheduling):
    """xdist's `--dist loadfile`, with the ported programs one unit each and the units in
    decreasing `cost` (ties keep xdist's order: most tests first)."""

    def _split_scope(self, nodeid: str) -> str:
        if nodeid.startswith(SPLIT):
            return nodeid
        return super()._split_scope(nodeid)

    def _assign_work_unit(self, node) -> None:
        if not getattr(self, "_ordered", False):
            units = sorted(self.workqueue.items(), key=lambda unit: -cost(unit[0]))
            self.workqueue.clear()
            self.workqueue.update(units)
            self._ordered = True
        super()._assign_work_unit(node)


def junit_units(path: str) -> dict[str, tuple[float, int]]:
    """The work units of a `--junitxml` file, as `LongestFirst` forms them.

    Args:
        path: a junit XML file written by `pytest --junitxml`.

    Returns:
        Each unit's (seconds: its tests' times summed, number of tests), in the file's order.
    """
    units: dict[str, tuple[float, int]] = {}
    for case in ElementTree.parse(path).iter("testcase"):
        parts = case.get("classname", "").split(".")
        unit = "/".join(p for p in parts if not p[:1].isupper()) + ".py"
        if unit.startswith(SPLIT):
            unit += f"::{case.get('name')}"
        seconds, count = units.get(unit, (0.0, 0))
        units[unit] = (seconds + float(case.get("time", 0.0)), count + 1)
    return units


def replay(units: dict[str, tuple[float, int]], order: list[str], workers: int = 2) -> float:
    """The wall clock of `order` handed out as xdist does (a unit to each worker as it comes
    free), with `units`' times.

    Args:
        units: `junit_units`' result.
        order: the units' names in the order they are handed out.
        workers: the number of workers.

    Returns:
        Seconds until the last worker is done.
    """
    free = [0.0] * workers
    for unit in order:
        free[free.index(min(free))] += units[unit][0]
    return max(free)


def main(path: str) -> None:
    """Prints the units of 15 s and more of `path` (a cold run's junit file) in `COSTS`'s and
    `PROGRAM_COSTS`' form, and the replayed wall clock of xdist's order and of this order."""
    units = junit_units(path)
    for unit, (seconds, _) in sorted(units.items(), key=lambda u: -u[1][0]):
        if seconds >= 15:
            key = unit.partition("[")[2].rstrip("]") if unit.startswith(SPLIT) else unit
            print(f'    "{key}": {seconds:.0f},')
    files: dict[str, tuple[float, int]] = {}
    for unit, (seconds, count) in units.items():
        s, c = files.get(unit.split("::")[0], (0.0, 0))
        files[unit.split("::")[0]] = (s + seconds, c + count)
    xdist = sorted(files, key=lambda f: -files[f][1])
    ours = sorted(sorted(units, key=lambda u: -units[u][1]), key=lambda u: -cost(u))
    total = sum(s for s, _ in units.values())
    print(f"# {total:.0f} s of tests; replayed on two workers: xdist's order "
          f"{replay(files, xdist):.0f} s, longest first {replay(units, ours):.0f} s")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1])
