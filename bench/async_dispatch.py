"""Asynchronous dispatch: the Python of the next step overlaps with the kernels of this one.

A training loop like the MNIST example's: every step first prepares its batch in numpy (a
shuffled gather from uint8 images, conversion to float, a random shift of every image: the
work of a data pipeline), then calls the example's jitted `train_step`, which also adds the
batch's loss and accuracy to metrics kept on the device; the loop reads them once, at the end
(as JAX's examples do). Columns, per step: the batch preparation alone, the step alone (waited
for), the loop with `jax_cpu_enable_async_dispatch` off (synchronous: the sum of the two), with
the default policy (a step estimated at 1 ms or more is queued on the device's thread, so the
batch of step n+1 is prepared while step n runs: about the larger of the two on a machine
with a free core; a cheaper one runs inline) and with every call queued
(`async_dispatch_min_us=0`). Models: the example's CNN (batch 128, queued by default) and MLP
(batch 32, 0.25 ms a step: inline by default), and a wider MLP (784-512-512-10, Adam, batch
256), whose step and batching take comparable times; synthetic images of MNIST's shape. The
speed-ups are the quartiles of the per-round ratios to the synchronous loop. Usage:
`python bench/async_dispatch.py [--steps N] [--rounds N] [--models mlp-wide,cnn,mlp]`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench._common import (  # noqa: E402
    fmt_time,
    paired_ratios,
    print_json,
    print_table,
    quartiles,
)

EXAMPLES = 8192

MODES = {  # column -> (jax_cpu_enable_async_dispatch, async_dispatch_min_us)
    "sync": (False, 1000.0),
    "default": (True, 1000.0),
    "all async": (True, 0.0),
}


def make_data(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    images = rng.integers(0, 256, (EXAMPLES, 28, 28, 1), dtype=np.uint8)
    return images, rng.integers(0, 10, EXAMPLES).astype(np.int32)


def prepare(images: np.ndarray, labels: np.ndarray, batch: int, rng: np.random.Generator) -> dict:
    """One batch: a shuffled gather, to float in [0, 1], each image shifted by up to 2 pixels
    (zero padding) and lightly noised."""
    idx = rng.integers(0, len(images), batch)
    x = images[idx].astype(np.float32) / 255.0
    padded = np.pad(x, ((0, 0), (2, 2), (2, 2), (0, 0)))
    dy, dx = rng.integers(0, 5, batch), rng.integers(0, 5, batch)
    rows = dy[:, None] + np.arange(28)[None, :]
    cols = dx[:, None] + np.arange(28)[None, :]
    x = padded[np.arange(batch)[:, None, None], rows[:, :, None], cols[:, None, :]]
    x += rng.normal(0.0, 0.01, x.shape).astype(np.float32)
    return {"image": x, "label": labels[idx]}


def _state(model: str):
    """The example's train state and `train_step` for `model`, and its batch size."""
    import core
    import optim
    from examples.mnist import models, train

    if model != "mlp-wide":
        config = train.Config(model=model).resolved()
        state = train.create_train_state(config, core.random.key(0), (28, 28, 1), 1000)
        return state, config.batch_size, train.train_step
    net = models.MLP(features=(512, 512))
    params = net.init(core.random.key(0), np.ones((1, 28, 28, 1), np.float32))["params"]
    state = train.TrainState.create(
        apply_fn=net.apply, params=params, tx=optim.adam(1e-3), metrics=train.Metrics.empty()
    )
    return state, 256, train.train_step


def _loop(step, state, images, labels, batch: int, steps: int, seed: int) -> tuple[float, float]:
    """Seconds per step of `steps` steps (timed until the metrics are read), and the loss."""
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    for _ in range(steps):
        state = step(state, prepare(images, labels, batch, rng))
    loss = float(state.metrics.loss.compute())  # waits for the last step
    return (time.perf_counter() - start) / steps, loss


def measure(model: str, steps: int, rounds: int) -> dict:
    import core

    state, batch, step = _state(model)
    images, labels = make_data(np.random.default_rng(0))
    rng = np.random.default_rng(1)
    batches = [prepare(images, labels, batch, rng) for _ in range(steps)]
    core.block_until_ready(step(state, batches[0]))  # compile

    def prep_only() -> float:
        r = np.random.default_rng(2)
        t0 = time.perf_counter()
        for _ in range(steps):
            prepare(images, labels, batch, r)
        return (time.perf_counter() - t0) / steps

    def step_only() -> float:
        s = state
        t0 = time.perf_counter()
        for b in batches:
            s = step(s, b)
        core.block_until_ready(s)
        return (time.perf_counter() - t0) / steps

    samples: dict[str, list[float]] = {k: [] for k in ("prepare", "step", *MODES)}
    losses = {}
    for _ in range(rounds):  # interleaved, so load changes hit every column alike
        samples["prepare"].append(prep_only())
        samples["step"].append(step_only())
        for mode, (enabled, min_us) in MODES.items():
            with (
                core.config.override("jax_cpu_enable_async_dispatch", enabled),
                core.config.override("async_dispatch_min_us", min_us),
            ):
                seconds, losses[mode] = _loop(step, state, images, labels, batch, steps, 3)
            samples[mode].append(seconds)
    for mode, loss in losses.items():
        if not np.isclose(loss, losses["sync"], rtol=1e-5):
            raise SystemExit(f"{model}: {mode} loss {loss} != sync {losses['sync']}")
    result: dict = {k: statistics.median(v) for k, v in samples.items()}
    result["batch"] = batch
    for mode in ("default", "all async"):  # per-round speed-ups: robust to slow load changes
        result[f"{mode} speed-up quartiles"] = quartiles(
            paired_ratios(samples["sync"], samples[mode])
        )
    return result


def _speedup(q: tuple[float, float, float]) -> str:
    return f"{q[1]:.2f}x ({q[0]:.2f}-{q[2]:.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=60, help="steps per timed loop")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (median)")
    parser.add_argument("--models", default="mlp-wide,cnn,mlp")
    args = parser.parse_args()
    results, rows = {}, []
    for model in args.models.split(","):
        r = results[model] = measure(model, args.steps, args.rounds)
        rows.append(
            [
                f"{model} (batch {r['batch']})",
                fmt_time(r["prepare"]),
                fmt_time(r["step"]),
                *(fmt_time(r[mode]) for mode in MODES),
                _speedup(r["default speed-up quartiles"]),
                _speedup(r["all async speed-up quartiles"]),
            ]
        )
    print_table(
        "train loop with numpy batching, per step (median of interleaved rounds)",
        ["model", "batching", "step", *MODES, "default vs sync (IQR)", "all async vs sync"],
        rows,
    )
    print_json("async_dispatch", results)


if __name__ == "__main__":
    main()
