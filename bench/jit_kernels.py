"""Compiling train steps as one function or as kernels (`config.jit_kernels`), side by side.

For each model (the MNIST MLP and the Flax MNIST CNN with Adam; a ResNet-10 with BatchNorm on
32x32x3 with SGD momentum, `--models resnet`), each mode ("one", "many") runs in a new process
with an empty cache directory: the first call's wall time and CPU time (this process; with
`--workers 0` nothing runs elsewhere), the kernels (total, distinct), the step time, then a
second new process on the same cache (warm: machine code loaded from disk). JAX's cold first
call comes from the reference interpreter in the same run. Every process uses one BLAS thread.
With `--library-cached`, one more cold run per mode starts from a cache that holds only the
back end's library functions (`core.backends.numba.library.precompile()`: convolutions and
pooling, compiled once per machine and dtype): what a new model of known layers costs. Each
run reports the library functions it compiled or loaded, its three slowest kernels and the
kernels that call the convolution library.
Usage: `python bench/jit_kernels.py [--models mlp,cnn,resnet] [--modes one,many] [--workers N]
[--batch 32] [--library-cached]`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench._common import fmt_time, print_json, print_table, reference_python  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHILD = r"""
import json, resource, sys, time
import numpy as np
fw, model, batch = sys.argv[1], sys.argv[2], int(sys.argv[3])
if fw == "jax":
    import jax, flax.linen as nn, optax
else:
    import core as jax, nn, optim as optax
    from core.config import config
    config.update("jit_progress", False)
from bench._common import mnist_models


class Block(nn.Module):
    f: int
    s: int = 1

    @nn.compact
    def __call__(self, x):
        bn = lambda: nn.BatchNorm(use_running_average=False)
        y = nn.relu(bn()(nn.Conv(self.f, (3, 3), (self.s, self.s), use_bias=False)(x)))
        y = bn()(nn.Conv(self.f, (3, 3), use_bias=False)(y))
        if x.shape != y.shape:
            x = bn()(nn.Conv(self.f, (1, 1), (self.s, self.s), use_bias=False)(x))
        return nn.relu(x + y)


class ResNet10(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.BatchNorm(use_running_average=False)(nn.Conv(16, (3, 3), use_bias=False)(x)))
        for f, s in ((16, 1), (32, 2), (64, 2), (128, 2)):
            x = Block(f, s)(x)
        return nn.Dense(10)(x.mean((1, 2)))


rng = np.random.default_rng(0)
shape = (32, 32, 3) if model == "resnet" else (28, 28, 1)
x = rng.random((batch, *shape), dtype=np.float32)
y = rng.integers(0, 10, batch).astype(np.int32)
m = {**mnist_models(nn), "resnet": ResNet10}[model]()
tx = optax.sgd(0.1, momentum=0.9) if model == "resnet" else optax.adam(1e-3)
variables = m.init(jax.random.PRNGKey(0), x)
params, state = variables["params"], {k: v for k, v in variables.items() if k != "params"}
opt = tx.init(params)


@jax.jit
def step(params, state, opt, x, y):
    def loss(p):
        out, new = m.apply({"params": p, **state}, x, mutable=list(state))
        return optax.softmax_cross_entropy_with_integer_labels(out, y).mean(), new

    (l, new), g = jax.value_and_grad(loss, has_aux=True)(params)
    u, opt = tx.update(g, opt, params)
    return optax.apply_updates(params, u), new, opt, l


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


args = (params, state, opt, x, y)
c0, t0 = cpu(), time.perf_counter()
out = jax.block_until_ready(step(*args))  # numbax dispatches expensive calls asynchronously too
first, first_cpu = time.perf_counter() - t0, cpu() - c0
if fw != "jax":  # the threaded kernels compile workers built after the first call
    from core.jit import program
    program.wait_threaded()
times = []
for _ in range(5):
    t0 = time.perf_counter()
    out = jax.block_until_ready(step(*args))
    times.append(time.perf_counter() - t0)
res = dict(first=first, first_cpu=first_cpu, step=sorted(times)[2], loss=float(out[-1]))
res["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
if fw != "jax":
    from core.backends.numba import library

    entry = next(iter(step._cache().values()))
    infos = getattr(entry.exe, "kernels", [])
    res["kernels"] = len(infos)
    res["distinct"] = len({k.source for k in infos})
    res["library"] = library.stats()
    seconds = {k.source: k.seconds for k in infos if k.status != "memory"}
    conv = [t for src, t in seconds.items() if "lib.conv" in src]
    res["slowest_kernels"] = sorted(seconds.values(), reverse=True)[:3]
    res["conv_kernels"] = [len(conv), sum(conv)]
print("RESULT", json.dumps(res))
"""


def run(python: str, fw: str, model: str, batch: int, env: dict) -> dict | None:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONPATH=ROOT, **env)
    try:
        out = subprocess.run(
            [python, "-c", CHILD, fw, model, str(batch)],
            env=env,
            capture_output=True,
            text=True,
            timeout=3600,
        )
    except subprocess.TimeoutExpired:
        return None
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    print(out.stderr[-2000:], file=sys.stderr)
    return None


def precompile(env: dict) -> None:
    """Fills the cache of `env` with the library functions (float32) and nothing else."""
    code = "from core.backends.numba import library; library.precompile()"
    env = dict(os.environ, PYTHONPATH=ROOT, **env)
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=3600)


def forget_kernels(cache: str) -> None:
    """Deletes the generated kernels of `cache` (sources and machine code), keeping the library
    functions and runtime helpers."""
    for name in os.listdir(cache):
        if name.startswith("numbax_jit_"):
            os.remove(os.path.join(cache, name))
    numba_dir = os.path.join(cache, "numba")
    for name in os.listdir(numba_dir):  # numba names the kernels' directory after the cache's
        if name.startswith(os.path.basename(cache) + "_"):
            shutil.rmtree(os.path.join(numba_dir, name))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="mlp,cnn")
    parser.add_argument("--workers", type=int, default=-1, help="jit_compile_workers")
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--modes", default="one,many", help="jit_kernels modes to run")
    parser.add_argument(
        "--library-cached",
        action="store_true",
        help="also a cold run on a cache holding only the precompiled library functions",
    )
    opts = parser.parse_args()
    ref = reference_python()
    rows, results = [], {}
    for model in opts.models.split(","):
        jax = run(ref, "jax", model, opts.batch, {}) if ref else None
        results[model] = {"jax": jax}
        for mode in opts.modes.split(","):
            with tempfile.TemporaryDirectory() as tmp:
                env = dict(
                    NUMBAX_CACHE_DIR=tmp,
                    NUMBA_CACHE_DIR=os.path.join(tmp, "numba"),
                    NUMBAX_JIT_KERNELS=mode,
                    NUMBAX_JIT_WORKERS=str(opts.workers),
                )
                cold = run(sys.executable, "numbax", model, opts.batch, env)
                warm = run(sys.executable, "numbax", model, opts.batch, env)
                lib = None
                if opts.library_cached:
                    forget_kernels(tmp)
                    precompile(env)
                    lib = run(sys.executable, "numbax", model, opts.batch, env)
            results[model][mode] = {"cold": cold, "warm": warm, "library_cached": lib}
            if lib is not None:
                rows.append(
                    [
                        model,
                        f"{mode}, library cached",
                        f"{lib['kernels']} ({lib['distinct']})",
                        f"{fmt_time(lib['first'])} ({fmt_time(lib['first_cpu'])} cpu)",
                        f"{lib['first'] / jax['first']:.1f}x" if jax else "-",
                        "",
                        fmt_time(lib["step"]),
                        f"{lib['rss_mb']:.0f} MB",
                    ]
                )
            if cold is None or warm is None:
                rows.append([model, mode, "failed", "", "", "", "", ""])
                continue
            ratio = f"{cold['first'] / jax['first']:.1f}x" if jax else "-"
            rows.append(
                [
                    model,
                    mode,
                    f"{cold['kernels']} ({cold['distinct']})",
                    f"{fmt_time(cold['first'])} ({fmt_time(cold['first_cpu'])} cpu)",
                    ratio,
                    fmt_time(warm["first"]),
                    fmt_time(cold["step"]),
                    f"{cold['rss_mb']:.0f} MB",
                ]
            )
        if jax:
            rows.append(
                [
                    model,
                    "JAX",
                    "",
                    fmt_time(jax["first"]),
                    "1.0x",
                    "",
                    fmt_time(jax["step"]),
                    f"{jax['rss_mb']:.0f} MB",
                ]
            )
    columns = [
        "model",
        "mode",
        "kernels (distinct)",
        "cold first call",
        "vs JAX",
        "warm",
        "step",
        "peak RSS",
    ]
    print_table(f"jit compile: one function vs kernels (batch {opts.batch})", columns, rows)
    print_json("jit_kernels", results)


if __name__ == "__main__":
    main()
