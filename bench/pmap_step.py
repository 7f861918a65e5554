"""Data-parallel train step: `pmap` over N CPU devices vs `jit` on one device, same global batch.

    python bench/pmap_step.py [--devices 2] [--batch 128] [--rounds 15] [--model cnn|mlp]

The Flax MNIST CNN (Conv 32 3x3, relu, avg_pool, Conv 64 3x3, relu, avg_pool, Dense 256, relu,
Dense 10; softmax cross-entropy; Adam) or the MLP 784-128-128-10, written with `nn`/`optim`/
`train`. One device runs `jit(step)` on the global batch; N devices run `pmap(step)` on
replicated state, each device a 1/N slice of the batch, gradients `pmean`'ed. The two are timed
interleaved, round by round (each round times both back to back), so a noisy machine slows both
alike; the table gives medians and the throughput ratio (examples per second, N devices over
one). It also gives the CPU time per step (all threads of this process): on a machine whose
cores are taken by other programs (Linux gives each session an equal share, however many
threads it runs) the wall-clock ratio cannot exceed 1, while the CPU time shows what the N
devices cost in total (work split, plus the exchanges). BLAS runs one thread per device
(`OPENBLAS_NUM_THREADS=1`, set here unless already set). Prints a table and JSON, with the
machine's load average.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from bench._common import fmt_time, mnist_models, print_json, print_table  # noqa: E402


def _models():
    import nn

    return {name: cls() for name, cls in mnist_models(nn).items()}


def _step(axis_name):
    import core
    import optim
    from core import lax

    def step(state, images, labels):
        def loss_fn(params):
            logits = state.apply_fn({"params": params}, images)
            return optim.softmax_cross_entropy_with_integer_labels(logits, labels).mean()

        loss, grads = core.value_and_grad(loss_fn)(state.params)
        if axis_name is not None:
            grads, loss = lax.pmean((grads, loss), axis_name)
        return state.apply_gradients(grads=grads), loss

    return step


def measure(model_name: str, n_devices: int, batch: int, rounds: int) -> dict:
    """Times one train step of `model_name` jitted on one device against pmapped over
    `n_devices` (the same global batch, split), in interleaved rounds.

    Args:
      model_name: "cnn" or "mlp".
      n_devices: how many CPU devices the pmapped step runs on (they must divide `batch`).
      batch: the global batch size.
      rounds: how many timed rounds of both steps.

    Returns:
      The JSON results: median wall and CPU seconds per step of both, their throughput ratio
      (median and quartiles), the first calls' seconds, the load average and the core count.
    """
    import core

    core.config.update("num_cpu_devices", max(n_devices, 1))
    import optim
    from train import TrainState, jax_utils

    model = _models()[model_name]
    rng = np.random.default_rng(0)
    images = rng.normal(size=(batch, 28, 28, 1)).astype(np.float32)
    labels = rng.integers(0, 10, size=batch).astype(np.int32)
    params = model.init(core.random.key(0), images[:1])["params"]
    state = TrainState.create(apply_fn=model.apply, params=params, tx=optim.adam(1e-3))

    single = core.jit(_step(None))
    devices = core.local_devices()[:n_devices]
    parallel = core.pmap(_step("batch"), axis_name="batch")
    rep = jax_utils.replicate(state, devices)
    shards = images.reshape(n_devices, batch // n_devices, 28, 28, 1)
    shard_labels = labels.reshape(n_devices, batch // n_devices)

    t0 = time.perf_counter()
    single(state, images, labels)
    compile_single = time.perf_counter() - t0
    t0 = time.perf_counter()
    parallel(rep, shards, shard_labels)
    compile_parallel = time.perf_counter() - t0

    one, many, cpu_one, cpu_many = [], [], [], []
    reps = 5 if model_name == "cnn" else 50
    for _ in range(rounds):
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(reps):
            state, _ = single(state, images, labels)
        one.append((time.perf_counter() - t0) / reps)
        cpu_one.append((time.process_time() - c0) / reps)
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(reps):
            rep, _ = parallel(rep, shards, shard_labels)
        many.append((time.perf_counter() - t0) / reps)
        cpu_many.append((time.process_time() - c0) / reps)
    ratios = sorted(a / b for a, b in zip(one, many))
    return {
        "model": model_name,
        "batch": batch,
        "devices": n_devices,
        "one_device_s": float(np.median(one)),
        "pmap_s": float(np.median(many)),
        "one_device_cpu_s": float(np.median(cpu_one)),
        "pmap_cpu_s": float(np.median(cpu_many)),
        "throughput_ratio": float(np.median(ratios)),
        "ratio_quartiles": [float(np.percentile(ratios, 25)), float(np.percentile(ratios, 75))],
        "first_call_s": {"jit": compile_single, "pmap": compile_parallel},
        "load_average": list(os.getloadavg()),
        "cores": len(os.sched_getaffinity(0)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--devices", type=int, default=2)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--model", choices=["cnn", "mlp"], default="cnn")
    args = parser.parse_args()
    if args.batch % args.devices:
        parser.error("--batch must be a multiple of --devices")
    r = measure(args.model, args.devices, args.batch, args.rounds)
    q = r["ratio_quartiles"]
    print_table(
        f"{args.model} train step, global batch {args.batch} (load average "
        f"{r['load_average'][0]:.1f} on {r['cores']} cores)",
        [
            "one device (jit)",
            f"{args.devices} devices (pmap)",
            "throughput ratio (quartiles)",
            "CPU time per step: one / pmap",
        ],
        [
            [
                fmt_time(r["one_device_s"]),
                fmt_time(r["pmap_s"]),
                f"{r['throughput_ratio']:.2f}x ({q[0]:.2f}-{q[1]:.2f})",
                f"{fmt_time(r['one_device_cpu_s'])} / {fmt_time(r['pmap_cpu_s'])}",
            ]
        ],
    )
    print_json("pmap_step", r)


if __name__ == "__main__":
    main()
