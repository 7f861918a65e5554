"""Compile time of real train steps, numbax against JAX: cold and warm first call, peak memory.

Each model's train step is written once, the way Flax/Optax code is written (`nn.Module`s,
`model.init`/`apply`, `optax.*` transforms, `jax.value_and_grad`, `jax.jit`), against a
namespace that is either numbax (`core`, `core.numpy`, `nn`, `optim`) or JAX (`jax`,
`jax.numpy`, `flax.linen`, `optax`); the JAX column runs the same source under the reference
interpreter (`$NUMBAX_REF_PYTHON`, default /opt/ref/bin/python).

numbax's modules are first compiled to bytecode (`compile_bytecode`), as an installed package
has them. Every measurement is a fresh process (`--child`), killed after `--timeout` seconds
(reported as "timeout"). In it: the framework's start-up (a trivial jitted function), then the
first call of the train step (trace + compile + run; "cold"), its CPU time (numbax: in the
process, plus that of its compile worker processes so far: steadier than wall time on a shared
machine), the peak RSS of the process at that point and the first step's loss (numbax's `init`
gives Flax's values for the same key, so the two frameworks' losses agree), the first call of a
second instance of the model at half the batch size (the same layers: what a new model or batch
size costs once the first compiled), and the steady-state step time. numbax's compile workers
build optimized code after the first call (threaded kernels, the optimized twins of the quick
tier's code: `config.jit_quick_first_call`): "optimized at" is the wall time from the first
call's start until that code is in use (waited for before the second instance and the steady
state). numbax runs twice on one
empty temporary cache directory (numba's and numbax's): cold, then warm (a second process on
the same cache: machine code loaded from disk). JAX runs cold (no persistent cache, its
default).

Usage: `python bench/compile.py [--models mlp,cnn] [--timeout 900] [--threads 1] [--no-jax]`.
Models: mlp, cnn, transformer, resnet10, lstm, dpsgd.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from bench._common import (  # noqa: E402
    fmt_time,
    median_time,
    mnist_models,
    print_json,
    print_table,
    process_cpu,
    reference_python,
    resnet10_model,
)

MODELS = ("mlp", "cnn", "transformer", "resnet10", "lstm", "dpsgd")


def framework(name: str) -> types.SimpleNamespace:
    """The modules a Flax user imports, from numbax or from JAX.

    Args:
      name: "numbax", or anything else for JAX (which must be importable).

    Returns:
      A namespace with the attributes ``jax``, ``jnp``, ``nn`` and ``optax``.
    """
    if name == "numbax":
        import core as jax
        import core.numpy as jnp
        import nn
        import optim as optax
    else:
        import flax.linen as nn
        import jax
        import jax.numpy as jnp
        import optax
    return types.SimpleNamespace(jax=jax, jnp=jnp, nn=nn, optax=optax)


# ---------------------------------------------------------------------------------------------
# The programs. Each `build_*` returns `make(batch) -> (step, state, batch_args)`: `step` is a
# jitted train step `step(*state, *batch_args) -> (*new_state, loss)`; each `make` call builds a
# new model instance and a new jitted function, as a user's second model would be.


def _classifier_step(F, model, tx):
    """The usual supervised train step of a Flax classifier (integer labels)."""
    jax, optax = F.jax, F.optax

    @jax.jit
    def train_step(params, opt_state, x, y):
        def loss_fn(params):
            logits = model.apply({"params": params}, x)
            return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()

        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return train_step


def _classifier_case(F, model, tx, x, y):
    """`(step, state, batch_args)` of `_classifier_step` for a new `model` on the batch (x, y)."""
    params = model.init(F.jax.random.PRNGKey(0), x)["params"]
    return _classifier_step(F, model, tx), (params, tx.init(params)), (x, y)


def _images(batch: int, shape: tuple, classes: int = 10):
    rng = np.random.default_rng(0)
    x = rng.random((batch, *shape), dtype=np.float32)
    return x, rng.integers(0, classes, batch).astype(np.int32)


def build_mlp(F: types.SimpleNamespace) -> Callable[[int], tuple]:
    """The MNIST MLP (784-128-128-10, ReLU), Adam 1e-3, batch 128."""

    def make(batch):
        model, tx = mnist_models(F.nn)["mlp"](), F.optax.adam(1e-3)
        return _classifier_case(F, model, tx, *batch_data("mlp", batch))

    return make


def build_cnn(F: types.SimpleNamespace) -> Callable[[int], tuple]:
    """The Flax MNIST example CNN (examples/mnist), SGD momentum 0.9, batch 128."""

    def make(batch):
        model, tx = mnist_models(F.nn)["cnn"](), F.optax.sgd(0.1, momentum=0.9)
        return _classifier_case(F, model, tx, *batch_data("cnn", batch))

    return make


VOCAB, SEQ = 256, 64


def _tokens(batch: int):
    """Random next-token data: inputs `[batch, SEQ]` and their targets (shifted by one)."""
    tokens = np.random.default_rng(0).integers(0, VOCAB, (batch, SEQ + 1)).astype(np.int32)
    return tokens[:, :-1], tokens[:, 1:]


def batch_data(model: str, batch: int) -> tuple[np.ndarray, np.ndarray]:
    """The batch `(x, y)` a model's train step is timed on (the same for every framework).

    Args:
      model: one of `MODELS`.
      batch: the batch size.

    Returns:
      numpy arrays: NHWC float32 images (MNIST-shaped, or 32x32x3 for the ResNet) and int32
      labels, or for the language models int32 tokens `[batch, SEQ]` and their next tokens.
    """
    if model in ("transformer", "lstm"):
        return _tokens(batch)
    return _images(batch, (32, 32, 3) if model == "resnet10" else (28, 28, 1))


def build_transformer(F: types.SimpleNamespace) -> Callable[[int], tuple]:
    """A 2-layer pre-LN transformer LM: d=128, 4 heads, seq 64, batch 16, AdamW."""
    nn = F.nn
    d, heads = 128, 4

    class Block(nn.Module):
        @nn.compact
        def __call__(self, x, mask):
            h = nn.LayerNorm()(x)
            x = x + nn.MultiHeadDotProductAttention(num_heads=heads)(h, mask=mask)
            h = nn.LayerNorm()(x)
            h = nn.Dense(4 * d)(h)
            return x + nn.Dense(d)(nn.gelu(h))

    class LM(nn.Module):
        @nn.compact
        def __call__(self, tokens):
            pos = self.param("pos_embedding", nn.initializers.normal(0.02), (SEQ, d))
            x = nn.Embed(VOCAB, d)(tokens) + pos
            mask = nn.make_causal_mask(tokens)
            for _ in range(2):
                x = Block()(x, mask)
            return nn.Dense(VOCAB)(nn.LayerNorm()(x))

    def make(batch):
        model, tx = LM(), F.optax.adamw(3e-4, weight_decay=0.01)
        return _classifier_case(F, model, tx, *batch_data("transformer", batch))

    return make


def build_resnet10(F: types.SimpleNamespace) -> Callable[[int], tuple]:
    """ResNet-10 (Flax's ImageNet ResNet code, stage sizes 1-1-1-1) with BatchNorm on
    32x32x3 images, batch 32, SGD momentum 0.9."""
    nn, jnp, jax, optax = F.nn, F.jnp, F.jax, F.optax

    ResNet = resnet10_model(nn, jnp)

    def make(batch):
        model, tx = ResNet(), optax.sgd(0.1, momentum=0.9)
        x, y = batch_data("resnet10", batch)
        variables = model.init(jax.random.PRNGKey(0), x)
        params, stats = variables["params"], variables["batch_stats"]

        @jax.jit
        def train_step(params, batch_stats, opt_state, x, y):
            def loss_fn(params):
                logits, updates = model.apply(
                    {"params": params, "batch_stats": batch_stats},
                    x,
                    train=True,
                    mutable=["batch_stats"],
                )
                loss = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
                return loss, updates["batch_stats"]

            (loss, batch_stats), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
            updates, opt_state = tx.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), batch_stats, opt_state, loss

        return train_step, (params, stats, tx.init(params)), (x, y)

    return make


def build_lstm(F: types.SimpleNamespace) -> Callable[[int], tuple]:
    """An LSTM LM: Embed 64, `nn.RNN(nn.LSTMCell(256))` over 64 steps, batch 16, Adam."""
    nn = F.nn

    class LSTMLM(nn.Module):
        @nn.compact
        def __call__(self, tokens):
            x = nn.Embed(VOCAB, 64)(tokens)
            x = nn.RNN(nn.LSTMCell(256))(x)
            return nn.Dense(VOCAB)(x)

    def make(batch):
        model, tx = LSTMLM(), F.optax.adam(1e-3)
        return _classifier_case(F, model, tx, *batch_data("lstm", batch))

    return make


def build_dpsgd(F: types.SimpleNamespace) -> Callable[[int], tuple]:
    """Differentially private SGD (JAX's differentially_private_sgd example): per-example
    gradients of its small CNN under `vmap(grad)`, clipped to norm 1, summed, Gaussian noise,
    SGD; MNIST-shaped input, batch 32."""
    nn, jnp, jax, optax = F.nn, F.jnp, F.jax, F.optax
    clip, sigma = 1.0, 1.1

    class SmallCNN(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.tanh(nn.Conv(16, (8, 8), strides=(2, 2), padding="SAME")(x))
            x = nn.max_pool(x, (2, 2), strides=(1, 1))
            x = nn.tanh(nn.Conv(32, (4, 4), strides=(2, 2), padding="VALID")(x))
            x = nn.max_pool(x, (2, 2), strides=(1, 1))
            x = x.reshape((x.shape[0], -1))
            x = nn.tanh(nn.Dense(32)(x))
            return nn.Dense(10)(x)

    def make(batch):
        model, tx = SmallCNN(), optax.sgd(0.25)
        x, y = batch_data("dpsgd", batch)
        params = model.init(jax.random.PRNGKey(0), x)["params"]

        def example_loss(params, xi, yi):
            logits = model.apply({"params": params}, xi[None])
            return optax.softmax_cross_entropy_with_integer_labels(logits, yi[None]).sum()

        @jax.jit
        def private_step(params, opt_state, key, x, y):
            grads = jax.vmap(jax.grad(example_loss), in_axes=(None, 0, 0))(params, x, y)
            leaves, tree = jax.tree_util.tree_flatten(grads)
            norms = jnp.sqrt(sum(jnp.sum(g.reshape((g.shape[0], -1)) ** 2, axis=1) for g in leaves))
            factor = jnp.minimum(1.0, clip / (norms + 1e-6))
            key, *keys = jax.random.split(key, len(leaves) + 1)
            noisy = [
                (
                    jnp.tensordot(factor, g, axes=1)
                    + clip * sigma * jax.random.normal(k, g.shape[1:])
                )
                / x.shape[0]
                for g, k in zip(leaves, keys)
            ]
            grads = jax.tree_util.tree_unflatten(tree, noisy)
            updates, opt_state = tx.update(grads, opt_state, params)
            loss = jnp.mean(jax.vmap(example_loss, in_axes=(None, 0, 0))(params, x, y))
            return optax.apply_updates(params, updates), opt_state, key, loss

        return private_step, (params, tx.init(params), jax.random.PRNGKey(1)), (x, y)

    return make


BUILDERS = {
    "mlp": (build_mlp, 128),
    "cnn": (build_cnn, 128),
    "transformer": (build_transformer, 16),
    "resnet10": (build_resnet10, 32),
    "lstm": (build_lstm, 16),
    "dpsgd": (build_dpsgd, 32),
}


# ---------------------------------------------------------------------------------------------
# Measurement


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _workers_cpu() -> float:
    """CPU seconds of numbax's compile worker processes so far (`core/jit/workers.py`)."""
    from core.jit import workers  # noqa: PLC0415

    return sum(process_cpu(w.proc.pid) for w in workers._workers)


def child(fw: str, model: str, full: bool) -> None:
    """One process's measurements (see the module docstring), printed as a JSON line after each
    one (so a process killed by the timeout still reports the earlier ones).

    Args:
      fw: the framework, as for `framework`.
      model: one of `MODELS`.
      full: also measure the second batch size and the steady-state step time.
    """
    F = framework(fw)
    res: dict = {}

    def report(**values) -> None:
        res.update(values)
        print("JSON " + json.dumps(res), flush=True)

    t = time.perf_counter()
    F.jax.block_until_ready(F.jax.jit(lambda a: a + 1)(F.jnp.ones(1)))
    report(startup_s=time.perf_counter() - t)
    build, batch = BUILDERS[model]
    make = build(F)
    step, state, args = make(batch)
    t, c = time.perf_counter(), _cpu()
    out = F.jax.block_until_ready(step(*state, *args))
    # first_loss: the same program and initial values, so the frameworks' should agree
    report(
        first_call_s=time.perf_counter() - t,
        first_call_cpu_s=_cpu() - c,
        workers_cpu_s=_workers_cpu() if fw == "numbax" else 0.0,
        peak_rss_mb=_peak_rss_mb(),
        first_loss=float(out[-1]),
    )
    if fw == "numbax":  # the optimized code compile workers build after the first call
        from core.jit import program  # noqa: PLC0415

        program.wait_optimized()
        report(optimized_s=time.perf_counter() - t)
    if full:
        step2, state2, args2 = make(batch // 2)
        t = time.perf_counter()
        F.jax.block_until_ready(step2(*state2, *args2))
        report(second_batch_s=time.perf_counter() - t)
        carry = [out[:-1]]
        if fw == "numbax":  # what the second instance's compile left to the workers
            program.wait_optimized()

        def run():
            carry[0] = F.jax.block_until_ready(step(*carry[0], *args))[:-1]

        report(step_s=median_time(run, repeat=5, budget=1.0))


def measure(python: str, fw: str, model: str, full: bool, env: dict, timeout: float) -> dict:
    """Runs `child` in a new `python` process: its last report, with `"timeout": true` and the
    peak RSS it had reached (`killed_rss_mb`) if it ran out of time (the measurements it had
    not reached are missing), or `"error"` if it failed.

    Args:
      python: the interpreter to run.
      fw: the framework, as for `framework`.
      model: one of `MODELS`.
      full: as for `child`.
      env: the environment of the process.
      timeout: seconds after which the process is killed.

    Returns:
      The measurements, as `child` reported them (plus ``timeout``/``killed_rss_mb``/``error``).
    """
    cmd = [python, os.path.abspath(__file__), "--child", fw, "--models", model]
    if full:
        cmd.append("--full")
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    extra: dict = {}
    try:
        out, err = proc.communicate(timeout=timeout)
        if proc.returncode:
            extra = {"error": (err.strip().splitlines() or ["no output"])[-1][:200]}
    except subprocess.TimeoutExpired:
        proc.kill()
        _, _, usage = os.wait4(proc.pid, 0)  # reaped here, to read its peak memory
        extra = {"timeout": True, "killed_rss_mb": usage.ru_maxrss / 1024}
        out, _ = proc.communicate()
    reports = [json.loads(line[5:]) for line in out.splitlines() if line.startswith("JSON ")]
    return {**(reports[-1] if reports else {}), **extra}


PACKAGES = ("numbax", "core", "nn", "optim", "flaxport", "bench")


def compile_bytecode() -> None:
    """Compiles numbax's modules to bytecode beside their sources (`__pycache__`, as an
    installed wheel has it and as Python writes it on a first import), so that each process
    loads them as a user's would. Without it, under `PYTHONDONTWRITEBYTECODE` (set on this
    machine) a checkout has no bytecode and every process, compile workers included, compiles
    ~300 modules from source: 0.5 s of CPU of an `import core, nn, optim` that took 0.2 s from
    bytecode (the reference interpreter's packages have theirs)."""
    for package in PACKAGES:
        compileall.compile_dir(os.path.join(ROOT, package), quiet=1)


def thread_env(threads: int | None) -> dict:
    """Environment variables limiting BLAS, numba and XLA to `threads` threads (none if None):
    on a loaded machine, idle worker threads spinning for their share of the cores can slow a
    step by 100x in either framework.

    Args:
      threads: the number of threads, or None for no limit.

    Returns:
      The variables to add to the environment.
    """
    if threads is None:
        return {}
    env = {v: str(threads) for v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    env["NUMBA_NUM_THREADS"] = str(threads)
    if threads == 1:
        env["NUMBAX_JIT_THREADS"] = "0"
        env["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
    return env


def run_model(model: str, timeout: float, with_jax: bool, threads: int | None) -> dict:
    """numbax cold and warm on a fresh cache directory, then JAX cold, for one model.

    Args:
      model: one of `MODELS`.
      timeout: seconds each process may take.
      with_jax: also run JAX (when the reference interpreter exists).
      threads: as for `thread_env`.

    Returns:
      ``{"numbax_cold": ..., "numbax_warm": ..., "jax_cold": ...}``, each a `measure` result
      (the ones that did not run are missing).
    """
    res = {}
    base = dict(os.environ, **thread_env(threads))
    with tempfile.TemporaryDirectory() as d:
        env = dict(base, NUMBAX_CACHE_DIR=d, NUMBA_CACHE_DIR=d)
        res["numbax_cold"] = measure(sys.executable, "numbax", model, True, env, timeout)
        if "first_call_s" in res["numbax_cold"]:  # else nothing was cached
            res["numbax_warm"] = measure(sys.executable, "numbax", model, False, env, timeout)
    ref = reference_python() if with_jax else None
    if ref is not None:
        env = dict(base, PYTHONPATH="", JAX_PLATFORMS="cpu")
        res["jax_cold"] = measure(ref, "jax", model, True, env, timeout)
    return res


def _cell(r: dict | None, key: str, fmt: Callable = fmt_time) -> str:
    if not r:
        return "-"
    if key in r:
        return fmt(r[key])
    if key == "peak_rss_mb" and "killed_rss_mb" in r:
        return f">= {fmt(r['killed_rss_mb'])}"
    return "timeout" if r.get("timeout") else "error" if "error" in r else "-"


def _cpu_cell(r: dict | None) -> str:
    """The first call's CPU time in the process, plus its compile workers'."""
    if not r or "first_call_cpu_s" not in r:
        return "-"
    return f"{fmt_time(r['first_call_cpu_s'])} (+{fmt_time(r['workers_cpu_s'])})"


def _ratio(a: dict | None, b: dict | None, key: str) -> str:
    if not a or not b or key not in a or key not in b:
        return "-"
    return f"{a[key] / b[key]:.1f}x"


def report(results: dict) -> None:
    """Prints the table and the JSON line.

    Args:
      results: ``{model: run_model(model, ...)}``.
    """
    rows = []
    mb = lambda v: f"{v:.0f} MB"  # noqa: E731
    for model, r in results.items():
        cold, warm, jax = r.get("numbax_cold"), r.get("numbax_warm"), r.get("jax_cold")
        rows.append(
            [
                model,
                _cell(cold, "first_call_s"),
                _cpu_cell(cold),
                _cell(cold, "optimized_s"),
                _cell(warm, "first_call_s"),
                _cell(jax, "first_call_s"),
                _ratio(cold, jax, "first_call_s"),
                _cell(cold, "second_batch_s"),
                _cell(jax, "second_batch_s"),
                _cell(cold, "peak_rss_mb", mb),
                _cell(jax, "peak_rss_mb", mb),
                _cell(cold, "step_s"),
                _cell(jax, "step_s"),
            ]
        )
    print_table(
        "First call of the jitted train step (trace + compile + run) in a new process",
        [
            "model",
            "numbax cold",
            "CPU (+workers)",
            "optimized at",
            "warm",
            "JAX cold",
            "cold/JAX",
            "2nd batch",
            "JAX",
            "peak RSS",
            "JAX",
            "step",
            "JAX",
        ],
        rows,
    )
    startup = {
        fw: [r[k]["startup_s"] for r in results.values() if "startup_s" in r.get(k, {})]
        for fw, k in (("numbax", "numbax_cold"), ("JAX", "jax_cold"))
    }
    text = ", ".join(f"{fw} {fmt_time(float(np.median(v)))}" for fw, v in startup.items() if v)
    if text:
        print(f"\nframework start-up before the first call (median, not included above): {text}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--models", default=",".join(MODELS), help="comma-separated subset")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per process")
    parser.add_argument("--no-jax", action="store_true", help="skip the reference interpreter")
    parser.add_argument(
        "--threads", type=int, default=None, help="limit BLAS/numba/XLA threads (shared machines)"
    )
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--full", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    unknown = sorted(set(models) - set(MODELS))
    if unknown:
        parser.error(f"unknown models {unknown}; choose from {', '.join(MODELS)}")
    if args.child:
        child(args.child, models[0], args.full)
        return
    compile_bytecode()
    results = {}
    for model in models:
        results[model] = run_model(model, args.timeout, not args.no_jax, args.threads)
        print(f"{model}: {json.dumps(results[model])}", file=sys.stderr, flush=True)
    report(results)
    print_json("compile", results)


if __name__ == "__main__":
    main()
