"""Bit-for-bit agreement of jitted float transcendentals with JAX's (XLA's CPU code).

For each op, the share of inputs where `core.jit(op)(x)` differs from `jax.jit(op)(x)` in any bit
(NaNs of any payload count as equal). Inputs: 1e5 values per dtype, a mix of log-uniform
magnitudes over the whole range (both signs), uniform values in [-10, 10] and [-1, 1], and
special values (zeros, infinities, NaN, denormals, the largest and smallest numbers, +-1); the
two-argument ops (arctan2, power) pair them with a permutation of themselves. float64 runs JAX
with `jax_enable_x64` and numbax with `core.config.update("jax_enable_x64", True)`.
JAX runs in the reference interpreter (`$NUMBAX_REF_PYTHON`, default /opt/ref/bin/python).

Usage: python -m bench.xla_transcendentals [--dtype float32|float64] [--n 100000] [--eager]
[ops ...] (`--eager`: numbax's ops on its arrays outside jit, against JAX's jitted results).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

from bench._common import print_json, print_table, reference_python

# name -> (jnp/lax attribute path, arity)
OPS = {
    "exp": ("numpy.exp", 1),
    "log": ("numpy.log", 1),
    "sin": ("numpy.sin", 1),
    "cos": ("numpy.cos", 1),
    "tan": ("numpy.tan", 1),
    "erf": ("lax.erf", 1),
    "erfc": ("lax.erfc", 1),
    "erf_inv": ("lax.erf_inv", 1),
    "logistic": ("lax.logistic", 1),
    "tanh": ("numpy.tanh", 1),
    "expm1": ("numpy.expm1", 1),
    "log1p": ("numpy.log1p", 1),
    "log10": ("numpy.log10", 1),
    "exp2": ("numpy.exp2", 1),
    "arcsin": ("numpy.arcsin", 1),
    "arccos": ("numpy.arccos", 1),
    "arctan": ("numpy.arctan", 1),
    "arctan2": ("numpy.arctan2", 2),
    "sinh": ("numpy.sinh", 1),
    "cosh": ("numpy.cosh", 1),
    "arcsinh": ("numpy.arcsinh", 1),
    "arccosh": ("numpy.arccosh", 1),
    "arctanh": ("numpy.arctanh", 1),
    "log2": ("numpy.log2", 1),
    "cbrt": ("numpy.cbrt", 1),
    "sqrt": ("numpy.sqrt", 1),
    "rsqrt": ("lax.rsqrt", 1),
    "power": ("numpy.power", 2),
}


def inputs(dtype: str, n: int, seed: int = 0) -> np.ndarray:
    """n values of `dtype`: log-uniform magnitudes of both signs, uniform ones, specials."""
    info = np.finfo(dtype)
    rng = np.random.default_rng(seed)
    lo, hi = np.log10(float(info.smallest_subnormal)), np.log10(float(info.max))
    wide = 10.0 ** rng.uniform(lo, hi, n // 2) * rng.choice([-1.0, 1.0], n // 2)
    mid = 10.0 ** rng.uniform(-4, 2, n // 4) * rng.choice([-1.0, 1.0], n // 4)
    unit = rng.uniform(-1, 1, n // 8)
    ten = rng.uniform(-10, 10, n)
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, 10.0, 0.1]
    special += [float(info.max), -float(info.max), float(info.tiny), -float(info.tiny)]
    special += [float(info.smallest_subnormal), float(info.eps), 1 - float(info.epsneg)]
    x = np.concatenate([np.array(special), wide, mid, unit, ten])[:n]
    with np.errstate(over="ignore"):
        return x.astype(dtype)


def _resolve(module, path: str):
    obj = module
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def compute(
    module, dtype: str, n: int, names: list[str], eager: bool = False
) -> dict[str, np.ndarray]:
    """Each op jitted by `module` (jax or core) on the inputs (two-argument ops: pairs), or
    called on arrays of `module` outside jit (`eager`)."""
    x = inputs(dtype, n)
    args = (x, np.random.default_rng(1).permutation(x))
    if eager:
        args = tuple(module.numpy.asarray(a) for a in args)
    out = {}
    for name in names:
        path, arity = OPS[name]
        op = _resolve(module, path)
        out[name] = np.asarray((op if eager else module.jit(op))(*args[:arity]))
    return out


def _reference(dtype: str, n: int, names: list[str]) -> dict[str, np.ndarray]:
    py = reference_python()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "ref.npz")
        env = dict(os.environ, PYTHONPATH=os.getcwd(), JAX_PLATFORMS="cpu")
        if dtype == "float64":
            env["JAX_ENABLE_X64"] = "1"
        cmd = [py, "-m", "bench.xla_transcendentals", "--ref", path, "--dtype", dtype]
        subprocess.run([*cmd, "--n", str(n), *names], check=True, env=env)
        with np.load(path) as data:
            return dict(data)


def _differ(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    bits = f"u{a.dtype.itemsize}"
    return (a.view(bits) != b.view(bits)) & ~(np.isnan(a) & np.isnan(b))


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("ops", nargs="*", default=list(OPS))
    p.add_argument("--dtype", default="float32")
    p.add_argument("--n", type=int, default=100_000)
    p.add_argument("--ref", help="(internal) compute with JAX, save to this .npz")
    p.add_argument("--eager", action="store_true", help="numbax's ops outside jit")
    p.add_argument("--examples", type=int, default=0, help="print this many differing inputs")
    a = p.parse_args()
    if a.ref:
        import jax

        np.savez(a.ref, **compute(jax, a.dtype, a.n, a.ops))
        return
    if a.dtype == "float64":
        os.environ.setdefault("JAX_ENABLE_X64", "1")
    import core

    if a.dtype == "float64":
        core.config.update("jax_enable_x64", True)
    ref = _reference(a.dtype, a.n, a.ops)
    ours = compute(core, a.dtype, a.n, a.ops, a.eager)
    x = inputs(a.dtype, a.n)
    y = np.random.default_rng(1).permutation(x)
    rows, results = [], {}
    for name in a.ops:
        bad = _differ(ours[name], ref[name])
        share = bad.mean()
        results[name] = float(share)
        rows.append([name, f"{share:.2%}", int(bad.sum())])
        for i in np.flatnonzero(bad)[: a.examples]:
            args = f"{x[i]!r}" if OPS[name][1] == 1 else f"{x[i]!r}, {y[i]!r}"
            print(f"  {name}({args}) = {ours[name][i]!r}, JAX {ref[name][i]!r}", file=sys.stderr)
    mode = "eager" if a.eager else "jit"
    print_table(f"{mode} vs JAX jit, {a.dtype}, {a.n} inputs", ["op", "differ", "count"], rows)
    print_json("xla_transcendentals", {f"{mode} {a.dtype}": results})


if __name__ == "__main__":
    main()
