"""The MLP train step (784-128-128-10, relu, softmax cross-entropy, Adam 1e-3) under `jit`.

Reports the median step time at batch 32, 128 and 1024 for numbax, a hand-written numpy step,
and JAX (+ PyTorch) when the reference interpreter has them, from samples of all frameworks
interleaved round by round (`bench._common.interleaved`), with the quartiles of the per-round
numbax/JAX ratios; plus compile time of the step, cold and warm from the disk cache in a new
process. Usage: `python bench/mlp_step.py [--rounds N] [--batches 32,128]`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench._common import (  # noqa: E402
    ReferenceServer,
    fmt_time,
    interleaved,
    paired_ratios,
    print_json,
    print_table,
    quartiles,
    serve,
    time_calls,
)

BATCHES = (32, 128, 1024)
SIZES = (784, 128, 128, 10)
LR, B1, B2, EPS = 1e-3, 0.9, 0.999, 1e-8


def init_params(rng: np.random.Generator) -> list[np.ndarray]:
    params = []
    for m, n in zip(SIZES[:-1], SIZES[1:]):
        params += [
            (rng.standard_normal((m, n)) / np.sqrt(m)).astype(np.float32),
            np.zeros(n, np.float32),
        ]
    return params


def data(batch: int, rng: np.random.Generator):
    return (
        rng.random((batch, SIZES[0]), dtype=np.float32),
        rng.integers(0, SIZES[-1], batch).astype(np.int32),
    )


def numbax_step_fn():
    import core
    import core.numpy as jnp

    def loss_fn(params, x, y):
        h = x
        for i in range(0, len(params) - 2, 2):
            h = jnp.maximum(h @ params[i] + params[i + 1], 0.0)
        logits = h @ params[-2] + params[-1]
        logp = logits - jnp.max(logits, axis=-1, keepdims=True)
        logp = logp - jnp.log(jnp.sum(jnp.exp(logp), axis=-1, keepdims=True))
        return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=-1))

    @core.jit
    def step(params, mu, nu, count, x, y):
        loss, grads = core.value_and_grad(loss_fn)(params, x, y)
        count = count + 1
        mu = [B1 * m + (1 - B1) * g for m, g in zip(mu, grads)]
        nu = [B2 * v + (1 - B2) * g * g for v, g in zip(nu, grads)]
        c = count.astype(jnp.float32)
        bc1, bc2 = 1 - B1**c, 1 - B2**c
        params = [p - LR * (m / bc1) / (jnp.sqrt(v / bc2) + EPS) for p, m, v in zip(params, mu, nu)]
        return params, mu, nu, count, loss

    return step


def numbax_runner(batch: int) -> Callable[[], None]:
    """One numbax train step at `batch` per call (state carried across calls)."""
    import core.numpy as jnp

    rng = np.random.default_rng(0)
    params = [jnp.asarray(p) for p in init_params(rng)]
    mu = [jnp.zeros_like(p) for p in params]
    nu = [jnp.zeros_like(p) for p in params]
    count = jnp.asarray(0, dtype=jnp.int32)
    x, y = map(jnp.asarray, data(batch, rng))
    step = numbax_step_fn()
    state = [params, mu, nu, count]

    def run():
        p, m, v, c, loss = step(*state, x, y)
        state[:] = [p, m, v, c]

    return run


def numpy_runner(batch: int) -> Callable[[], None]:
    """One numpy train step at `batch` per call (state carried across calls)."""
    rng = np.random.default_rng(0)
    params = init_params(rng)
    mu = [np.zeros_like(p) for p in params]
    nu = [np.zeros_like(p) for p in params]
    x, y = data(batch, rng)
    t = [0]

    def run():
        hs = [x]
        for i in range(0, 4, 2):
            hs.append(np.maximum(hs[-1] @ params[i] + params[i + 1], 0))
        logits = hs[-1] @ params[4] + params[5]
        e = np.exp(logits - logits.max(-1, keepdims=True))
        p = e / e.sum(-1, keepdims=True)
        p[np.arange(batch), y] -= 1
        d = p / batch
        grads = [None] * 6
        for i in (4, 2, 0):
            grads[i] = hs[i // 2].T @ d
            grads[i + 1] = d.sum(0)
            if i:
                d = (d @ params[i].T) * (hs[i // 2] > 0)
        t[0] += 1
        bc1, bc2 = 1 - B1 ** t[0], 1 - B2 ** t[0]
        for j, g in enumerate(grads):
            mu[j] = B1 * mu[j] + (1 - B1) * g
            nu[j] = B2 * nu[j] + (1 - B2) * g * g
            params[j] = params[j] - LR * (mu[j] / bc1) / (np.sqrt(nu[j] / bc2) + EPS)

    return run


def jax_runner(batch: int) -> Callable[[], None]:
    """One jax train step at `batch` per call (state carried across calls)."""
    import jax
    import jax.numpy as jnp
    import optax

    rng = np.random.default_rng(0)
    params = [jnp.asarray(p) for p in init_params(rng)]
    x, y = map(jnp.asarray, data(batch, rng))
    tx = optax.adam(LR)
    opt_state = tx.init(params)

    def loss_fn(params, x, y):
        h = x
        for i in range(0, 4, 2):
            h = jax.nn.relu(h @ params[i] + params[i + 1])
        logits = h @ params[4] + params[5]
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    state = [params, opt_state]

    def run():
        p, o, loss = step(*state, x, y)
        loss.block_until_ready()
        state[:] = [p, o]

    return run


def torch_runner(batch: int) -> Callable[[], None]:
    """One torch train step at `batch` per call (state carried across calls)."""
    from bench._torch_models import train_step

    step, _ = train_step("mlp", *data(batch, np.random.default_rng(0)))
    return step


_COMPILE_PROBE = """
import sys, time
sys.path.insert(0, {root!r})
import numpy as np
import core
import core.numpy as jnp
import bench.mlp_step as m
t = time.perf_counter()
core.jit(lambda a: a + 1)(jnp.ones(1))  # numba's one-time start-up in a process
startup = time.perf_counter() - t
rng = np.random.default_rng(0)
p = [jnp.asarray(a) for a in m.init_params(rng)]
z = [jnp.zeros_like(a) for a in p]
x, y = map(jnp.asarray, m.data(32, rng))
step = m.numbax_step_fn()
t = time.perf_counter()
step(p, z, z, jnp.asarray(0, dtype=jnp.int32), x, y)
print(startup, time.perf_counter() - t)
"""


def compile_times() -> dict:
    """Compile time of the batch-32 step in a new process: cold (empty cache directory) and
    warm (the same directory again), each split into numba's one-time process start-up (paid by
    the first jitted function of any process) and the step itself (trace + codegen + compile
    or cache load)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = {}
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, NUMBAX_CACHE_DIR=d, NUMBA_CACHE_DIR=d)
        for label in ("cold", "warm"):
            res = subprocess.run(
                [sys.executable, "-c", _COMPILE_PROBE.format(root=root)],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            startup, step = map(float, res.stdout.split()[-2:])
            out[label] = {"numba_startup": startup, "step": step}
    return out


RUNNERS = {"numbax": numbax_runner, "numpy": numpy_runner, "jax": jax_runner, "torch": torch_runner}


def measure(batches: list[int], rounds: int) -> dict:
    """Interleaved samples of every framework's step at each batch size: per framework the
    median seconds per step, and per batch the quartiles of the per-round numbax/JAX ratios."""
    servers = {fw: ReferenceServer(__file__, fw) for fw in ("jax", "torch")}
    res: dict = {fw: {} for fw in RUNNERS}
    res["numbax/jax"] = {}
    try:
        for b in batches:
            local = {fw: RUNNERS[fw](b) for fw in ("numbax", "numpy")}
            # ~40 ms samples, the same number of steps for every framework
            number = max(1, int(0.04 / time_calls(local["numbax"], 3)))
            samplers = {fw: (lambda n, run=run: time_calls(run, n)) for fw, run in local.items()}
            for fw, server in servers.items():
                samplers[fw] = lambda n, s=server, b=b: s.sample(str(b), n)
            samples = interleaved(samplers, number, rounds)
            for fw in RUNNERS:
                res[fw][str(b)] = statistics.median(samples[fw]) if samples[fw] else None
            if samples["jax"]:
                res["numbax/jax"][str(b)] = quartiles(
                    paired_ratios(samples["numbax"], samples["jax"])
                )
    finally:
        for server in servers.values():
            server.close()
    return res


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--serve", default=None, help="run as a timing server for numbax|jax|...")
    parser.add_argument("--batches", default=",".join(map(str, BATCHES)))
    parser.add_argument("--rounds", type=int, default=11, help="interleaved samples per framework")
    args = parser.parse_args()
    if args.serve:
        serve(lambda case: RUNNERS[args.serve](int(case)))
        return
    batches = [int(b) for b in args.batches.split(",")]
    res = measure(batches, args.rounds)
    rows = []
    for b in map(str, batches):
        q = res["numbax/jax"].get(b)
        rows.append(
            [
                b,
                fmt_time(res["numpy"][b]),
                fmt_time(res["numbax"][b]),
                fmt_time(res["jax"][b]),
                fmt_time(res["torch"][b]),
                f"{q[1]:.2f}x ({q[0]:.2f}-{q[2]:.2f})" if q else "-",
            ]
        )
    print_table(
        f"MLP train step (784-128-128-10, Adam): medians of {args.rounds} interleaved samples",
        ["batch", "numpy", "numbax", "JAX", "PyTorch", "numbax/JAX (quartiles)"],
        rows,
    )
    res["compile_s"] = compile_times()
    cold, warm = res["compile_s"]["cold"], res["compile_s"]["warm"]
    print(
        f"\ncompile of the batch-32 step in a new process: cold {cold['step']:.2f} s, warm (disk "
        f"cache) {warm['step']:.3f} s; plus numba's start-up {cold['numba_startup']:.2f} s cold, "
        f"{warm['numba_startup']:.2f} s warm"
    )
    print_json("mlp_step", res)


if __name__ == "__main__":
    main()
