"""The convolutions of the benchmark models, one op at a time: forward, input gradient and
kernel (weight) gradient of every conv shape of the ResNet-10 (batch 32, 32x32x3) and the Flax
MNIST CNN (batch 128, 28x28x1), numbax against PyTorch and a numpy baseline, on 1 and 2 threads.

numbax runs `lax.conv_general_dilated` (NHWC/HWIO) and its two transposes (`core.vjp`) under
`jit`, as a train step's kernels call them; PyTorch runs `F.conv2d` and
`aten.convolution_backward` (NCHW, as `nn.Conv2d` does; a SAME stride-2 conv's one-sided padding
becomes torch's symmetric padding of the same output size and work); numpy sums one product per
kernel tap over strided views. Every contender is a server process (this script with `--serve`;
PyTorch's under the reference interpreter), sampled round-robin so that the neighbours' load
drifts over all alike; `--base PATH` adds numbax from another checkout (e.g. a worktree of main)
as a before/after pair. Reported: medians of wall and process CPU time (all threads) per op,
and each contender's wall time over PyTorch's on the same number of threads.

Usage: `python bench/conv_ops.py [--rounds 5] [--budget 0.1] [--threads 1,2] [--ops fwd,dx,dw]
[--shapes resnet,cnn] [--base /work/wt-main] [--no-numpy]`.
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

# name: (batch, height/width, in channels, out channels, kernel size, stride, (low, high) padding)
SHAPES = {
    "resnet stem 7x7/2 3->64 @32": (32, 32, 3, 64, 7, 2, (3, 3)),
    "resnet 3x3 64->64 @8": (32, 8, 64, 64, 3, 1, (1, 1)),
    "resnet 3x3/2 64->128 @8": (32, 8, 64, 128, 3, 2, (0, 1)),
    "resnet 1x1/2 64->128 @8": (32, 8, 64, 128, 1, 2, (0, 0)),
    "resnet 3x3 128->128 @4": (32, 4, 128, 128, 3, 1, (1, 1)),
    "resnet 3x3/2 128->256 @4": (32, 4, 128, 256, 3, 2, (0, 1)),
    "resnet 1x1/2 128->256 @4": (32, 4, 128, 256, 1, 2, (0, 0)),
    "resnet 3x3 256->256 @2": (32, 2, 256, 256, 3, 1, (1, 1)),
    "resnet 3x3/2 256->512 @2": (32, 2, 256, 512, 3, 2, (0, 1)),
    "resnet 1x1/2 256->512 @2": (32, 2, 256, 512, 1, 2, (0, 0)),
    "resnet 3x3 512->512 @1": (32, 1, 512, 512, 3, 1, (1, 1)),
    "cnn 3x3 1->32 @28": (128, 28, 1, 32, 3, 1, (1, 1)),
    "cnn 3x3 32->64 @14": (128, 14, 32, 64, 3, 1, (1, 1)),
}
OPS = ("fwd", "dx", "dw")
# a model's first layer: its train step computes no input gradient (left out of the sums)
FIRST = {"resnet stem 7x7/2 3->64 @32", "cnn 3x3 1->32 @28"}


def _out_size(h: int, k: int, s: int, pad: tuple[int, int]) -> int:
    return (h + pad[0] + pad[1] - k) // s + 1


def macs(shape: str) -> int:
    """Multiply-adds of one op (each of the three has the same count)."""
    n, h, c, o, k, s, pad = SHAPES[shape]
    return n * _out_size(h, k, s, pad) ** 2 * k * k * c * o


def _arrays(shape: str):
    """float32 input (NHWC), weights (HWIO) and output cotangent (NHWC), seeded."""
    n, h, c, o, k, s, pad = SHAPES[shape]
    q = _out_size(h, k, s, pad)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, h, h, c), dtype=np.float32)
    w = rng.standard_normal((k, k, c, o), dtype=np.float32) / np.float32(k * np.sqrt(c))
    g = rng.standard_normal((n, q, q, o), dtype=np.float32)
    return x, w, g


def _numbax_case(shape: str, op: str):
    import core
    from core import lax

    n, h, c, o, k, s, pad = SHAPES[shape]
    x, w, g = _arrays(shape)

    def conv(x, w):
        return lax.conv_general_dilated(x, w, (s, s), (pad, pad), dimension_numbers=_DN)

    if op == "fwd":
        f, args = core.jit(conv), (x, w)
    elif op == "dx":
        f, args = core.jit(lambda x, w, g: core.vjp(lambda x: conv(x, w), x)[1](g)[0]), (x, w, g)
    else:
        f, args = core.jit(lambda x, w, g: core.vjp(lambda w: conv(x, w), w)[1](g)[0]), (x, w, g)
    args = tuple(core.numpy.asarray(a) for a in args)
    return lambda: f(*args).block_until_ready()


_DN = ("NHWC", "HWIO", "NHWC")


def _torch_case(shape: str, op: str):
    import torch
    import torch.nn.functional as F

    n, h, c, o, k, s, pad = SHAPES[shape]
    x, w, g = (torch.from_numpy(a) for a in _arrays(shape))
    x, g = x.permute(0, 3, 1, 2).contiguous(), g.permute(0, 3, 1, 2).contiguous()
    w = w.permute(3, 2, 0, 1).contiguous()
    p = max(pad)  # symmetric: same output size (one more padded row is never read)
    mask = {"dx": [True, False, False], "dw": [False, True, False]}.get(op)

    def run():
        with torch.no_grad():
            if mask is None:
                return F.conv2d(x, w, None, s, p)
            return torch.ops.aten.convolution_backward(
                g, x, w, None, [s, s], [p, p], [1, 1], False, [0, 0], 1, mask
            )

    return run


def _numpy_case(shape: str, op: str):
    """One product per kernel tap over strided views of the padded input (the baseline)."""
    n, h, c, o, k, s, pad = SHAPES[shape]
    x, w, g = _arrays(shape)
    q = g.shape[1]
    xp = np.pad(x, ((0, 0), pad, pad, (0, 0)))

    def tap(a, i, j):
        return a[:, i : i + s * (q - 1) + 1 : s, j : j + s * (q - 1) + 1 : s]

    def fwd():
        out = np.zeros((n * q * q, o), np.float32)
        for i in range(k):
            for j in range(k):
                out += tap(xp, i, j).reshape(-1, c) @ w[i, j]
        return out

    def dx():
        dxp = np.zeros_like(xp)
        gm = g.reshape(-1, o)
        for i in range(k):
            for j in range(k):
                tap(dxp, i, j)[...] += (gm @ w[i, j].T).reshape(n, q, q, c)
        return dxp[:, pad[0] : pad[0] + h, pad[0] : pad[0] + h]

    def dw():
        gm = g.reshape(-1, o)
        return [[tap(xp, i, j).reshape(-1, c).T @ gm for j in range(k)] for i in range(k)]

    return {"fwd": fwd, "dx": dx, "dw": dw}[op]


def serve(fw: str) -> None:
    """Answers "shape|op|seconds" lines with the wall and CPU seconds per call (JSON)."""
    if fw.startswith("torch"):
        import torch

        torch.set_num_threads(int(fw.split(":")[1]))
    make = {"torch": _torch_case, "numpy": _numpy_case}.get(fw.split(":")[0], _numbax_case)
    cases: dict = {}
    print("ready", flush=True)
    for line in sys.stdin:
        shape, op, budget = line.rstrip("\n").split("|")
        if (shape, op) not in cases:
            cases[shape, op] = make(shape, op)
        run = cases[shape, op]
        run()  # wakes thread pools that slept during the pause before the sample
        calls, t0, c0 = 0, time.perf_counter(), time.process_time()
        while calls < 2 or time.perf_counter() - t0 < float(budget):
            run()
            calls += 1
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        print(json.dumps({"wall": wall / calls, "cpu": cpu / calls}), flush=True)


def contender(name: str, threads: int, base: str | None) -> TimingServer:
    """A `serve` process: numbax (this checkout, or `base`), numpy, or PyTorch."""
    script = os.path.abspath(__file__)
    if name == "torch":
        env = {"OMP_NUM_THREADS": str(threads), "PYTHONPATH": ""}
        return TimingServer(script, f"torch:{threads}", env=env)
    # numbax runs OpenBLAS on one thread unless OMP_NUM_THREADS says otherwise: not set here
    env = (
        {"NUMBAX_NUM_THREADS": str(threads), "OPENBLAS_NUM_THREADS": "1"}
        if name == "numpy"
        else {"NUMBAX_NUM_THREADS": str(threads)}
    )
    root = base if name == "base" else ROOT
    env = {**env, "PYTHONPATH": root, "NUMBAX_BENCH_ROOT": root}
    return TimingServer(script, f"{name}:{threads}", sys.executable, env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--budget", type=float, default=0.1)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--ops", default=",".join(OPS))
    parser.add_argument("--shapes", default="resnet,cnn", help="name prefixes")
    parser.add_argument("--base", help="another checkout's numbax, timed as 'base'")
    parser.add_argument("--no-numpy", action="store_true")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    shapes = [s for s in SHAPES if s.split()[0] in args.shapes.split(",")]
    ops = args.ops.split(",")
    names = ["numbax", *(["base"] if args.base else []), "torch"]
    names += [] if args.no_numpy else ["numpy"]
    servers = {}
    for t in map(int, args.threads.split(",")):
        for name in names:
            if name == "numpy" and t > 1:
                continue  # one BLAS call per tap: numpy's threads are OpenBLAS's
            servers[f"{name}:{t}"] = contender(name, t, args.base)
    load = [os.getloadavg()]
    cases = [(s, op) for s in shapes for op in ops]
    res = {f"{s}|{op}": {c: [] for c in servers} for s, op in cases}
    for s, op in cases:  # compile (or load) everything before timing
        for srv in servers.values():
            srv.ask(f"{s}|{op}|0", json.loads)
    keys = list(servers)
    for r in range(args.rounds):
        for s, op in cases:
            for c in keys[r % len(keys) :] + keys[: r % len(keys)]:
                time.sleep(0.15)  # outlasts idle OpenMP/BLAS threads' spin-waits
                got = servers[c].ask(f"{s}|{op}|{args.budget}", json.loads)
                if got is not None:
                    res[f"{s}|{op}"][c].append(got)
        load.append(os.getloadavg())
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    for srv in servers.values():
        srv.close()
    summary = {}
    for case, by_c in res.items():
        summary[case] = {
            c: {k: statistics.median(x[k] for x in xs) for k in ("wall", "cpu")}
            for c, xs in by_c.items()
            if xs
        }
    loads = f"load average {min(x[0] for x in load):.1f}-{max(x[0] for x in load):.1f}"
    for c in keys:
        t = c.split(":")[1]
        rows = []
        for case, by_c in summary.items():
            if c not in by_c:
                continue
            s, op = case.split("|")
            r, torch = by_c[c], by_c.get(f"torch:{t}")
            ratio = f"{r['wall'] / torch['wall']:.2f}x" if torch and c != f"torch:{t}" else "-"
            gmacs = macs(s) / r["wall"] / 1e9
            rows.append(
                [s, op, f"{fmt_time(r['wall'])} ({fmt_time(r['cpu'])})", f"{gmacs:.1f}", ratio]
            )
        print_table(
            f"{c} (threads), wall (CPU) per op, medians of {args.rounds} rounds; {loads}",
            ["shape", "op", "time", "GMAC/s", "wall / torch"],
            rows,
        )
    models = sorted({s.split()[0] for s in shapes}, reverse=True)
    totals = {
        c: {
            f"{model} {op}": {
                clock: sum(
                    summary[f"{s}|{op}"][c][clock]
                    for s in shapes
                    if s.startswith(model)
                    and c in summary[f"{s}|{op}"]
                    and not (op == "dx" and s in FIRST)
                )
                for clock in ("wall", "cpu")
            }
            for model in models
            for op in ops
        }
        for c in keys
    }
    columns = list(next(iter(totals.values())))
    print_table(
        "sums over each model's shapes (no input gradient of a first layer), wall (CPU)",
        ["contender", *columns],
        [
            [c, *(f"{fmt_time(t[k]['wall'])} ({fmt_time(t[k]['cpu'])})" for k in columns)]
            for c, t in totals.items()
        ],
    )
    print_json("conv_ops", {"load": load, "results": summary, "totals": totals})


if __name__ == "__main__":
    main()
