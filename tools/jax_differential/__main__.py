"""The command line: `python -m tools.jax_differential` runs the chosen areas on both sides (a
process each, the JAX side under the reference interpreter) and prints the differences;
`--side` is how it runs one side in such a process."""

from __future__ import annotations

import argparse
import os
import pickle
import subprocess
import sys
import tempfile

import tools.jax_differential as package
from tools.jax_differential.areas import NAMES, cases, environment
from tools.jax_differential.compare import compare
from tools.jax_differential.side import run_side, select


def process_groups(names: list[str]) -> dict[tuple[bool, tuple], list[str]]:
    """The areas `names` grouped by the processes that run them: areas share a pair of side
    processes when they agree on x64 (an `_x64` name) and on their `ENV` (an area that needs,
    say, eight host devices gets processes of its own, started with its variables).

    Returns:
      {(x64, sorted ENV items): area names, in the order given}.
    """
    groups: dict[tuple[bool, tuple], list[str]] = {}
    for n in names:
        groups.setdefault((n.endswith("_x64"), environment(n)), []).append(n)
    return groups


def main() -> None:
    ap = argparse.ArgumentParser(
        prog="python -m tools.jax_differential", description=package.__doc__.split("\n")[0]
    )
    ap.add_argument("--side", choices=["jax", "numbax"])
    ap.add_argument("--out")
    ap.add_argument("--x64", action="store_true")
    ap.add_argument("--area", action="append")
    ap.add_argument("--ref", default="/opt/ref/bin/python")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("-v", action="store_true", help="print every differing case")
    ap.add_argument("--match", help="run only the cases whose source matches this regex")
    args = ap.parse_args()
    names = args.area or list(NAMES)
    if args.list:
        for k in NAMES:
            print(f"{k:14s} {len(cases(k))}")
        return
    if args.side:
        run_side(args.side, names, args.x64, args.out, args.match)
        return
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with tempfile.TemporaryDirectory() as tmp:
        res = {}
        for g, ((x64, area_env), group) in enumerate(process_groups(names).items()):
            for side, exe in (("numbax", sys.executable), ("jax", args.ref)):
                out = os.path.join(tmp, f"{side}{g}.pkl")
                cmd = [exe, "-m", "tools.jax_differential", "--side", side, "--out", out]
                cmd += sum((["--area", n] for n in group), []) + (["--x64"] if x64 else [])
                cmd += ["--match", args.match] if args.match else []
                env = dict(os.environ, PYTHONPATH=root, **dict(area_env))
                subprocess.run(cmd, check=True, cwd=root, env=env)
                with open(out, "rb") as f:
                    res.setdefault(side, {}).update(pickle.load(f))
    total = ndiff = 0
    for area in names:
        n_area = d_area = 0
        for i, (src, exact) in enumerate(select(cases(area), args.match)):
            n_area += 1
            diffs = compare(res["numbax"][(area, i)], res["jax"][(area, i)], exact)
            if diffs:
                d_area += 1
                if args.v:
                    print(f"--- {area}[{i}]: {src.strip()[:400]}")
                    for d in diffs[:6]:
                        print(f"    {d}")
        print(f"== {area}: {n_area} calls, {d_area} differ")
        total += n_area
        ndiff += d_area
    print(f"== total: {total} calls, {ndiff} differ")


if __name__ == "__main__":
    main()
