"""Survey: numbax's elementwise functions against JAX's, bit for bit, eager and under `jit`.

For every elementwise function of `jnp`, `lax`, `jax.nn` and `jax.scipy.special` in `FUNCTIONS`
(unary, binary, a few with an integer order), on a dense grid of inputs of one dtype (zeros of
both signs, denormals, the smallest normals, huge values, infinities, NaN, integers and halves,
points near roots and poles, log-spaced magnitudes of both signs, uniform values), it calls
numbax's function eagerly and jitted and compares each with JAX's eager and jitted results
(JAX 0.10.2 in the reference interpreter, `$NUMBAX_REF_PYTHON`, default /opt/ref/bin/python;
its answers go through an .npz file). Per function: the count of elements whose bits differ
(NaNs of any payload equal) and the largest difference in ulps (distance between the two
values' positions in the ordered float line; `nan` when one side is NaN and the other not).
Exceptions count as a difference when only one side raised.

This is a survey, not a timed benchmark. Usage:
    python -m bench.elementwise_survey [--dtype float32|float16|bfloat16|float64] [names ...]
    [--all-rows] [--examples N] [--json out.json] [--ref-cache DIR]
float64 runs both libraries with `jax_enable_x64`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

from bench._common import print_table, reference_python

# name -> (attribute path under jax / core, kind, keyword arguments); kinds: "x" unary,
# "xy" binary, "nx" an integer order then x, "row" along the last axis of rows of 8.
FUNCTIONS: dict[str, tuple[str, str, dict]] = {}


def _add(kind: str, namespace: str, names: str, **kwargs) -> None:
    for name in names.split():
        FUNCTIONS[f"{namespace}.{name}"] = (f"{namespace}.{name}", kind, kwargs)


_add(
    "x",
    "numpy",
    "abs negative positive sign floor ceil trunc rint round sqrt cbrt square reciprocal "
    "exp exp2 expm1 log log2 log10 log1p sin cos tan arcsin arccos arctan sinh cosh tanh "
    "arcsinh arccosh arctanh deg2rad rad2deg sinc i0 fabs nan_to_num angle spacing",
)
_add(
    "xy",
    "numpy",
    "add subtract multiply divide floor_divide remainder fmod power float_power arctan2 "
    "hypot logaddexp logaddexp2 maximum minimum fmax fmin copysign nextafter heaviside",
)
_add(
    "x",
    "lax",
    "exp exp2 expm1 log log1p tanh logistic sin cos tan asin acos atan sinh cosh asinh acosh "
    "atanh erf erfc erf_inv lgamma digamma bessel_i0e bessel_i1e sqrt rsqrt cbrt square "
    "round floor ceil sign neg abs",
)
_add("xy", "lax", "atan2 pow rem div nextafter igamma igammac igamma_grad_a random_gamma_grad")
_add("xy", "lax", "zeta")
_add("nx", "lax", "polygamma")
_add(
    "x",
    "nn",
    "relu relu6 sigmoid softplus soft_sign silu log_sigmoid leaky_relu hard_sigmoid "
    "hard_silu hard_tanh elu celu selu gelu mish squareplus sparse_plus sparse_sigmoid tanh",
)
FUNCTIONS["nn.gelu_exact"] = ("nn.gelu", "x", {"approximate": False})
_add("row", "nn", "softmax log_softmax logsumexp")
_add(
    "x",
    "scipy.special",
    "erf erfc erfinv expit logit gammaln digamma gamma i0 i0e i1 i1e ndtr ndtri log_ndtr "
    "entr spence factorial",
)
_add("xy", "scipy.special", "xlogy xlog1py betaln beta gammainc gammaincc kl_div rel_entr")
_add("xy", "scipy.special", "zeta poch")
# polygamma's order runs with x; exp1, expi and expn are left out: JAX 0.10.2's eager exp1 did not
# return on this grid (its series loop), numbax's jitted polygamma neither (its zeta loop)
_add("nx", "scipy.special", "polygamma")
_add("row", "scipy.special", "logsumexp")


def inputs(dtype: str) -> np.ndarray:
    """A dense grid of `dtype` values: specials, integers and halves, lgamma's and digamma's
    roots and poles, log-spaced magnitudes of both signs, uniform values (4096 of them)."""
    import ml_dtypes  # noqa: F401 -- numpy's bfloat16

    info = np.finfo(np.float32 if dtype == "bfloat16" else dtype)
    tiny, big = float(info.tiny), float(info.max)
    sub = float(info.smallest_subnormal) if dtype != "bfloat16" else 9.2e-41
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, tiny, -tiny, sub, -sub, sub * 3, tiny / 2]
    special += [big, -big, big / 2, float(info.eps), 1 - float(info.epsneg), 1 + float(info.eps)]
    special += list(np.arange(-10, 10.5, 0.5)) + [15.0, 20.0, 30.0, 50.0, 88.0, 100.0, 1e3]
    # lgamma's roots (1, 2, -2.457..., -2.747..., ...) and digamma's (1.4616, -0.5040, ...)
    roots = [1.4616321, -0.50408301, -1.5734984, -2.6107208, -2.4570825, -2.7476826]
    roots += [-3.1435473, -3.9552300, -0.40000, 0.99999, 1.00001, 1.99999, 2.00001]
    special += roots + [r * (1 + s) for r in roots for s in (1e-3, -1e-3, 1e-6, -1e-6)]
    rng = np.random.default_rng(0)
    lo, hi = np.log10(sub), np.log10(big)
    wide = 10.0 ** np.linspace(lo, hi, 768)
    mid = 10.0 ** rng.uniform(-4, 2.5, 512)
    x = np.concatenate([special, wide, -wide, mid, -mid, rng.uniform(-10, 10, 512)])
    x = np.concatenate([x, rng.uniform(-1, 1, 4096 - len(x))])
    with np.errstate(over="ignore"):
        return np.asarray(x.astype(np.float64)).astype(dtype)


def arguments(kind: str, x: np.ndarray) -> tuple[np.ndarray, ...]:
    if kind == "x":
        return (x,)
    if kind == "row":
        return (x.reshape(-1, 8),)
    if kind == "nx":
        return ((np.arange(x.size) % 4).astype(x.dtype), x)
    return (x, np.random.default_rng(1).permutation(x))


def _resolve(module, path: str):
    obj = module
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def compute(module, dtype: str, names: list[str]) -> dict[str, np.ndarray | str]:
    """Each function eagerly (`name|eager`) and jitted (`name|jit`) on the grid; an exception
    gives its class name."""
    x = inputs(dtype)
    out: dict[str, np.ndarray | str] = {}
    for name in names:
        path, kind, kwargs = FUNCTIONS[name]
        try:
            op = _resolve(module, path)
        except AttributeError:  # removed from this version
            out[f"{name}|eager"] = out[f"{name}|jit"] = "missing"
            continue

        def call(*a, op=op, kwargs=kwargs):
            return op(*a, **kwargs)

        args = arguments(kind, x)
        for mode in ("eager", "jit"):
            try:
                if mode == "eager":
                    r = call(*(module.numpy.asarray(a) for a in args))
                else:
                    r = module.jit(call)(*args)
                out[f"{name}|{mode}"] = np.asarray(r)
            except Exception as e:  # noqa: BLE001 -- the class is the survey's answer
                out[f"{name}|{mode}"] = type(e).__name__
    return out


def _reference(dtype: str, names: list[str], cache: str | None = None) -> dict:
    """JAX's answers, computed in the reference interpreter, or read from `cache` (a
    directory: one .npz per dtype, written when missing or lacking some of `names`)."""
    if cache:
        path = os.path.join(cache, f"jax_{dtype}.npz")
        if os.path.exists(path):
            with np.load(path, allow_pickle=False) as data:
                got = {k: (str(v) if v.dtype.kind == "U" else v) for k, v in data.items()}
            if all(f"{n}|jit" in got for n in names):
                return got
        os.makedirs(cache, exist_ok=True)
        got = _reference(dtype, names)
        np.savez(path, **{k: np.asarray(v) for k, v in got.items()})
        return got
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "ref.npz")
        env = dict(os.environ, PYTHONPATH=os.getcwd(), JAX_PLATFORMS="cpu")
        if dtype == "float64":
            env["JAX_ENABLE_X64"] = "1"
        cmd = [reference_python(), "-m", "bench.elementwise_survey", "--ref", path]
        subprocess.run([*cmd, "--dtype", dtype, *names], check=True, env=env)
        with np.load(path, allow_pickle=False) as data:
            return {k: (str(v) if v.dtype.kind == "U" else v) for k, v in data.items()}


def _ordered(a: np.ndarray) -> np.ndarray:
    """Float bits as integers in the order of the values (-0 and +0 adjacent)."""
    n = a.dtype.itemsize
    bits = a.view(f"i{n}").astype(np.int64)
    return np.where(bits < 0, -(bits & ((1 << (8 * n - 1)) - 1)) - 1, bits)


def _denormal(a: np.ndarray) -> np.ndarray:
    tiny = np.finfo(np.float32 if a.dtype.name == "bfloat16" else a.dtype).tiny
    mag = np.abs(a.astype(np.float64))
    return (mag > 0) & (mag < float(tiny))


def compare(ours, ref, args: tuple = ()) -> tuple:
    """(differing elements, max ulp difference, differing elements where no input or result is
    a denormal, their max ulp difference) of two results; -1 and a description when only one
    side raised or the dtypes or shapes differ. XLA's CPU code flushes denormal operands and
    results to zero (FTZ/DAZ), numbax's does not: the last two columns leave those out."""
    if isinstance(ours, str) or isinstance(ref, str):
        if isinstance(ours, str) and isinstance(ref, str):
            return 0, 0, 0, 0
        what = f"{ours if isinstance(ours, str) else 'ok'}/{ref if isinstance(ref, str) else 'ok'}"
        return -1, what, -1, what
    if ours.shape != ref.shape or ours.dtype != ref.dtype:
        what = f"{ours.dtype}{ours.shape}/{ref.dtype}{ref.shape}"
        return -1, what, -1, what
    if ours.dtype.kind not in "fc":
        bad = ours != ref
        return int(bad.sum()), float(bad.any()), int(bad.sum()), float(bad.any())
    if ours.dtype.kind == "c":
        ours, ref = ours.view(ours.real.dtype), ref.view(ref.real.dtype)
    nan_a, nan_b = np.isnan(ours), np.isnan(ref)
    bits = f"u{ours.dtype.itemsize}"
    bad = (ours.view(bits) != ref.view(bits)) & ~(nan_a & nan_b)
    flushed = _denormal(ours) | _denormal(ref)
    for a in args:
        if a.shape == ours.shape:
            flushed |= _denormal(a)
    ulps = np.where(nan_a != nan_b, np.inf, np.abs(_ordered(ours) - _ordered(ref)))
    rest = bad & ~flushed

    def most(mask):
        return float(ulps[mask].max()) if mask.any() else 0

    return int(bad.sum()), most(bad), int(rest.sum()), most(rest)


def survey(dtype: str, names: list[str], cache: str | None = None) -> tuple:
    """{name: {"eager": (count, max ulp), "jit": ..., "jax_eager_vs_jit": ...}}."""
    import core

    if dtype == "float64":
        core.config.update("jax_enable_x64", True)
    ref = _reference(dtype, names, cache)
    ours = compute(core, dtype, names)
    result = {}
    x = inputs(dtype)
    for name in names:
        args = arguments(FUNCTIONS[name][1], x)
        row = {m: compare(ours[f"{name}|{m}"], ref[f"{name}|{m}"], args) for m in ("eager", "jit")}
        row["jax_eager_vs_jit"] = compare(ref[f"{name}|eager"], ref[f"{name}|jit"], args)
        result[name] = row
    return result, ours, ref


def _print_examples(dtype: str, names: list[str], ours: dict, ref: dict, count: int) -> None:
    """The first `count` differing elements of each float result (the input x beside them)."""
    x = inputs(dtype).ravel()
    for name in names:
        for mode in ("eager", "jit"):
            o, r = ours[f"{name}|{mode}"], ref[f"{name}|{mode}"]
            if isinstance(o, str) or isinstance(r, str) or o.shape != r.shape:
                continue
            if o.dtype.kind != "f":
                continue
            o, r = o.ravel(), r.ravel()
            bits = f"u{o.dtype.itemsize}"
            bad = (o.view(bits) != r.view(bits)) & ~(np.isnan(o) & np.isnan(r))
            for i in np.flatnonzero(bad)[:count]:
                line = f"  {name} {mode} x={x[i % x.size]!r}: {o[i]!r}, JAX {r[i]!r}"
                print(line, file=sys.stderr)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("names", nargs="*", default=list(FUNCTIONS))
    p.add_argument("--dtype", default="float32")
    p.add_argument("--ref", help="(internal) compute with JAX, save to this .npz")
    p.add_argument("--all-rows", action="store_true", help="rows that agree too")
    p.add_argument("--examples", type=int, default=0, help="print this many differing inputs")
    p.add_argument("--json", help="write the results here")
    p.add_argument("--ref-cache", help="a directory keeping JAX's answers between runs")
    a = p.parse_args()
    if a.ref:
        import jax
        import jax.numpy  # noqa: F401
        import jax.scipy.special  # noqa: F401

        out = compute(jax, a.dtype, a.names)
        np.savez(a.ref, **{k: np.asarray(v) for k, v in out.items()})
        return
    result, ours, ref = survey(a.dtype, a.names, a.ref_cache)
    rows = []
    for name, row in result.items():
        if a.all_rows or row["eager"][0] or row["jit"][0]:
            rows.append([name, *row["eager"], *row["jit"], *row["jax_eager_vs_jit"][2:]])
    cols = ["function", "eager n", "ulp", "n no-denormal", "ulp", "jit n", "ulp"]
    cols += ["n no-denormal", "ulp", "JAX e/j n*", "ulp*"]
    print_table(f"numbax vs JAX 0.10.2, {a.dtype}, {inputs(a.dtype).size} inputs", cols, rows)
    if a.examples:
        _print_examples(a.dtype, a.names, ours, ref, a.examples)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({a.dtype: result}, f, indent=1)


if __name__ == "__main__":
    main()
