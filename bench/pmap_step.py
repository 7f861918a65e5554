"""Data-parallel train step: `pmap` over N CPU devices vs `jit` on one device, same global batch.

    python bench/pmap_step.py [--devices 2] [--batch B] [--rounds 15] [--model cnn|mlp|resnet10]

The Flax MNIST CNN (Conv 32 3x3, relu, avg_pool, Conv 64 3x3, relu, avg_pool, Dense 256, relu,
Dense 10; softmax cross-entropy; Adam; global batch 128), the MLP 784-128-128-10 (Adam, 128) or
ResNet-10 (Flax's ImageNet ResNet, stage sizes 1-1-1-1, on 32x32x3 images; SGD momentum 0.9;
global batch 64; with N devices its BatchNorm averages the batch statistics over them, as
Flax's ImageNet example does), written with `nn`/`optim`/`train`. One device runs `jit(step)`
on the global batch; N devices run `pmap(step)` on replicated state, each device a 1/N slice
of the batch, gradients `pmean`'ed. The two are timed
interleaved, round by round (each round times both back to back), so a noisy machine slows both
alike; the table gives medians and the throughput ratio (examples per second, N devices over
one). It also gives the CPU time per step (all threads of this process): on a machine whose
cores are taken by other programs (Linux gives each session an equal share, however many
threads it runs) the wall-clock ratio cannot exceed 1, while the CPU time shows what the N
devices cost in total (work split, plus the exchanges), and the CPU-bound ratio N x CPU of one
device / CPU of N devices is the throughput ratio N free cores would give if nothing but CPU
time limited it. BLAS runs one thread per device (`OPENBLAS_NUM_THREADS=1`, set here unless
already set). Prints a table and JSON, with the machine's load average.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from bench._common import (  # noqa: E402
    fmt_time,
    mnist_models,
    print_json,
    print_table,
    resnet10_model,
)


def _classifier_case(model_name: str, batch: int, axis_name: str | None):
    """(step, state, images, labels) of the MNIST MLP or CNN with Adam and a `TrainState`."""
    import core
    import nn
    import optim
    from core import lax
    from train import TrainState

    model = mnist_models(nn)[model_name]()
    images, labels = _data(batch, (28, 28, 1))
    params = model.init(core.random.key(0), images[:1])["params"]
    state = TrainState.create(apply_fn=model.apply, params=params, tx=optim.adam(1e-3))

    def step(state, images, labels):
        def loss_fn(params):
            logits = state.apply_fn({"params": params}, images)
            return optim.softmax_cross_entropy_with_integer_labels(logits, labels).mean()

        loss, grads = core.value_and_grad(loss_fn)(state.params)
        if axis_name is not None:
            grads, loss = lax.pmean((grads, loss), axis_name)
        return state.apply_gradients(grads=grads), loss

    return step, state, images, labels


def _resnet_case(batch: int, axis_name: str | None):
    """(step, state, images, labels) of ResNet-10 with SGD momentum 0.9 and BatchNorm."""
    import core
    import core.numpy as jnp
    import nn
    import optim
    from core import lax

    resnet = resnet10_model(nn, jnp)
    model, tx = resnet(axis_name=axis_name), optim.sgd(0.1, momentum=0.9)
    images, labels = _data(batch, (32, 32, 3))
    variables = resnet().init(core.random.key(0), images[:2])  # outside pmap: no axis
    state = (variables["params"], variables["batch_stats"], tx.init(variables["params"]))

    def step(state, images, labels):
        params, batch_stats, opt_state = state

        def loss_fn(params):
            logits, updates = model.apply(
                {"params": params, "batch_stats": batch_stats},
                images,
                train=True,
                mutable=["batch_stats"],
            )
            loss = optim.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
            return loss, updates["batch_stats"]

        (loss, batch_stats), grads = core.value_and_grad(loss_fn, has_aux=True)(params)
        if axis_name is not None:
            grads, loss = lax.pmean((grads, loss), axis_name)
        updates, opt_state = tx.update(grads, opt_state, params)
        return (optim.apply_updates(params, updates), batch_stats, opt_state), loss

    return step, state, images, labels


def _data(batch: int, shape: tuple) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    images = rng.normal(size=(batch, *shape)).astype(np.float32)
    return images, rng.integers(0, 10, size=batch).astype(np.int32)


def _case(model_name: str, batch: int, axis_name: str | None):
    if model_name == "resnet10":
        return _resnet_case(batch, axis_name)
    return _classifier_case(model_name, batch, axis_name)


BATCH = {"cnn": 128, "mlp": 128, "resnet10": 64}
REPS = {"cnn": 5, "mlp": 50, "resnet10": 2}  # steps per timed block


def measure(model_name: str, n_devices: int, batch: int, rounds: int) -> dict:
    """Times one train step of `model_name` jitted on one device against pmapped over
    `n_devices` (the same global batch, split), in interleaved rounds.

    Args:
      model_name: "cnn", "mlp" or "resnet10".
      n_devices: how many CPU devices the pmapped step runs on (they must divide `batch`).
      batch: the global batch size.
      rounds: how many timed rounds of both steps.

    Returns:
      The JSON results: median wall and CPU seconds per step of both, their throughput ratio
      (median and quartiles), the first calls' seconds, the load average and the core count.
    """
    import core

    core.config.update("num_cpu_devices", max(n_devices, 1))
    from train import jax_utils

    step, state, images, labels = _case(model_name, batch, None)
    single = core.jit(step)
    devices = core.local_devices()[:n_devices]
    parallel = core.pmap(_case(model_name, batch, "batch")[0], axis_name="batch")
    rep = jax_utils.replicate(state, devices)
    shards = images.reshape(n_devices, batch // n_devices, *images.shape[1:])
    shard_labels = labels.reshape(n_devices, batch // n_devices)

    t0 = time.perf_counter()
    core.block_until_ready(single(state, images, labels))
    compile_single = time.perf_counter() - t0
    t0 = time.perf_counter()
    parallel(rep, shards, shard_labels)
    compile_parallel = time.perf_counter() - t0

    one, many, cpu_one, cpu_many = [], [], [], []
    reps = REPS[model_name]
    for _ in range(rounds):
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(reps):
            state, _ = single(state, images, labels)
        core.block_until_ready(state)  # jitted calls return before their kernels finish
        one.append((time.perf_counter() - t0) / reps)
        cpu_one.append((time.process_time() - c0) / reps)
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(reps):
            rep, _ = parallel(rep, shards, shard_labels)
        core.block_until_ready(rep)
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
        # What the ratio would be if each device had a core to itself (loaded machines).
        "cpu_bound_ratio": float(n_devices * np.median(cpu_one) / np.median(cpu_many)),
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
    parser.add_argument("--batch", type=int, default=None, help="default: 128, ResNet-10 64")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--model", choices=sorted(BATCH), default="cnn")
    args = parser.parse_args()
    args.batch = args.batch or BATCH[args.model]
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
            "CPU-bound ratio",
        ],
        [
            [
                fmt_time(r["one_device_s"]),
                fmt_time(r["pmap_s"]),
                f"{r['throughput_ratio']:.2f}x ({q[0]:.2f}-{q[1]:.2f})",
                f"{fmt_time(r['one_device_cpu_s'])} / {fmt_time(r['pmap_cpu_s'])}",
                f"{r['cpu_bound_ratio']:.2f}x",
            ]
        ],
    )
    print_json("pmap_step", r)


if __name__ == "__main__":
    main()
