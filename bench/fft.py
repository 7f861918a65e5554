"""FFTs under `jit`: numbax's compiled transforms (`core/backends/numba/library/fft.py`) against
numpy's pocketfft and JAX's (XLA's ducc) on the same data, one transform per call.

Cases are `op:shape`: `fft` and `ifft` of complex rows, `rfft` and `irfft` (the real length)
of real rows, `fft2` and `rfft2` over the last two axes; a shape `NxM` transforms M-point rows
in a batch of N (`fft2`: an N x M array). Lengths cover powers of two, 3^k, 5^k, composites
(360, 1000) and primes (97, 1009: Bluestein's algorithm in both numbax and pocketfft).
numbax calls `core.jit(jnp.fft.<op>)`, JAX `jax.jit(jnp.fft.<op>)` (its result waited for),
numpy `np.fft.<op>`; complex64 / float32 data (JAX's and numbax's default), complex128 /
float64 with `--x64`. Every contender is a server process (this script with `--serve`; JAX's
under the reference interpreter), sampled round-robin, round after round, so that the
neighbours' load drifts over all alike; `--base PATH` adds numbax from another checkout (e.g.
a worktree of main) as a before/after pair. Reported: the median wall time per call and
numbax's over numpy's.

Usage: `python bench/fft.py [--rounds 5] [--budget 0.05] [--x64] [--cases fft:1024,rfft:4096]
[--base /work/wt-main] [--no-jax]`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# a server of `--base` imports that checkout's numbax (its copy of this script may not exist)
sys.path.insert(0, os.environ.get("NUMBAX_BENCH_ROOT", ROOT))
from bench._common import TimingServer, fmt_time, print_json, print_table  # noqa: E402

CASES = [
    *(f"fft:{n}" for n in (64, 256, 1024, 4096, 243, 625, 360, 1000, 97, 1009)),
    "ifft:1024",
    *(f"rfft:{n}" for n in (64, 1024, 4096, 1000)),
    "irfft:1024",
    "fft:64x1024",
    "rfft:64x1024",
    "fft2:256x256",
    "rfft2:256x256",
]


def _data(case: str, x64: bool):
    """The operand of `case`, seeded: complex rows for fft/ifft/fft2, real ones for rfft/rfft2,
    a half spectrum for irfft."""
    op, shape = case.split(":")
    dims = tuple(int(d) for d in shape.split("x"))
    rng = np.random.default_rng(0)
    x = rng.standard_normal(dims)
    if op in ("fft", "ifft", "fft2"):
        x = x + 1j * rng.standard_normal(dims)
    elif op == "irfft":
        x = np.fft.rfft(x)
    real, cplx = (np.float64, np.complex128) if x64 else (np.float32, np.complex64)
    return op, dims, x.astype(cplx if np.iscomplexobj(x) else real)


def _call(fft, op: str, dims: tuple):
    """`fft.<op>` with irfft's output length."""
    if op == "irfft":
        return lambda x: fft.irfft(x, n=dims[-1])
    return getattr(fft, op)


def make_case(fw: str, case: str, x64: bool):
    """A function of no arguments running `case` once in framework `fw`."""
    op, dims, x = _data(case, x64)
    if fw == "numpy":
        f = _call(np.fft, op, dims)
        return lambda: f(x)
    if fw == "jax":
        import jax

        jax.config.update("jax_enable_x64", x64)
        f = jax.jit(_call(jax.numpy.fft, op, dims))
        xj = jax.device_put(x)
        return lambda: f(xj).block_until_ready()
    import core

    if x64:
        core.config.update("jax_enable_x64", True)
    f = core.jit(_call(core.numpy.fft, op, dims))
    xc = core.numpy.asarray(x)
    return lambda: f(xc).block_until_ready()


def serve(fw: str, x64: bool) -> None:
    """Answers "case|seconds" lines with the wall seconds per call of that case (JSON)."""
    cases: dict = {}
    print("ready", flush=True)
    for line in sys.stdin:
        case, budget = line.rstrip("\n").split("|")
        if case not in cases:
            cases[case] = make_case(fw, case, x64)
        run = cases[case]
        run()
        calls, t0 = 0, time.perf_counter()
        while calls < 2 or time.perf_counter() - t0 < float(budget):
            run()
            calls += 1
        print(json.dumps((time.perf_counter() - t0) / calls), flush=True)


def contender(name: str, base: str | None, x64: bool) -> TimingServer:
    """A `serve` process: numbax (this checkout, or `base`), numpy, or JAX."""
    script = os.path.abspath(__file__)
    flag = ":x64" if x64 else ""
    if name == "jax":
        return TimingServer(script, f"jax{flag}")
    root = base if name == "base" else ROOT
    # optimized code from the first call (the quick tier's code is replaced in the background)
    env = {"PYTHONPATH": root, "NUMBAX_BENCH_ROOT": root, "NUMBAX_JIT_QUICK": "0"}
    return TimingServer(script, f"{name}{flag}", sys.executable, env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--budget", type=float, default=0.05)
    parser.add_argument("--x64", action="store_true", help="complex128 / float64 data")
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--base", help="another checkout's numbax, timed as 'base'")
    parser.add_argument("--no-jax", action="store_true")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        fw, _, flag = args.serve.partition(":")
        serve(fw, flag == "x64")
        return
    cases = args.cases.split(",")
    names = ["numpy", "numbax", *(["base"] if args.base else []), *([] if args.no_jax else ["jax"])]
    servers = {name: contender(name, args.base, args.x64) for name in names}
    load = [os.getloadavg()[0]]
    for case in cases:  # compile (or load) everything before timing
        for srv in servers.values():
            srv.ask(f"{case}|0", json.loads)
    res = {case: {name: [] for name in servers} for case in cases}
    for r in range(args.rounds):
        for case in cases:
            for name in names[r % len(names) :] + names[: r % len(names)]:
                time.sleep(0.02)
                got = servers[name].ask(f"{case}|{args.budget}", json.loads)
                if got is not None:
                    res[case][name].append(got)
        load.append(os.getloadavg()[0])
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    for srv in servers.values():
        srv.close()
    summary = {
        case: {name: statistics.median(xs) for name, xs in by.items() if xs}
        for case, by in res.items()
    }
    rows = []
    for case, by in summary.items():
        ratio = [f"{by[n] / by['numpy']:.2f}x" if n in by else "-" for n in ("numbax", "base")]
        rows.append([case, *(fmt_time(by.get(n)) for n in names), *ratio[: 1 + bool(args.base)]])
    dtype = "complex128" if args.x64 else "complex64"
    print_table(
        f"wall time per call ({dtype}), medians of {args.rounds} rounds; load average "
        f"{min(load):.1f}-{max(load):.1f}",
        ["case", *names, "numbax / numpy", *(["base / numpy"] if args.base else [])],
        rows,
    )
    print_json("fft", {"dtype": dtype, "load": load, "results": summary})


if __name__ == "__main__":
    main()
