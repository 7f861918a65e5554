"""Data-parallel train step: `pmap` over N CPU devices vs `jit` on one device, same global batch.

    python bench/pmap_step.py [--devices 2] [--batch B] [--rounds 15] [--model cnn|mlp|resnet10]

The Flax MNIST CNN (Conv 32 3x3, relu, avg_pool, Conv 64 3x3, relu, avg_pool, Dense 256, relu,
Dense 10; softmax cross-entropy; Adam; global batch 128), the MLP 784-128-128-10 (Adam, 128) or
ResNet-10 (Flax's ImageNet ResNet, stage sizes 1-1-1-1, on 32x32x3 images; SGD momentum 0.9;
global batch 64; with N devices its BatchNorm averages the batch statistics over them, as
Flax's ImageNet example does), written with `nn`/`optim`/`train`. N devices run `pmap(step)`
on replicated state, each device a 1/N slice of the batch, gradients `pmean`'ed, each device on
its share of the cores (one thread each with N = cores). One device runs `jit(step)` on the
global batch twice over: with numbax's default threads (its convolutions, large products and
loops use every core: the issue's baseline) and on one thread (synchronous calls on this
thread, numba's thread count set to 1: one core, as each pmap device has). A fourth run is one
device on one thread with one device's share of the batch (global batch / N): the usual
data-parallel scaling measure (per-device batch fixed, "weak scaling"), where the others keep
the global batch fixed ("strong scaling": each device's share of the batch shrinks as devices
are added, so the work every step repeats on each device, such as the optimizer update over the
weights, weighs more). The four are timed interleaved, round by round, so a noisy machine slows
them alike; the table gives medians of wall and CPU time per step (all threads of this process)
and the throughput ratio of the N devices (examples per second) over each one-device run,
median and quartiles of the rounds.

On a machine whose cores other programs take (Linux gives each session an equal share, however
many threads it runs) the wall-clock ratios cannot exceed 1; the CPU-bound ratio, N x CPU of one
device on one thread / CPU of the N devices, is what N free cores would give over one core if
nothing but CPU time limited the step (the work split plus what the devices repeat: optimizer
update, weight-sized parts of the convolutions, the exchange). BLAS runs one thread per device
(`OPENBLAS_NUM_THREADS=1`, set here unless already set). Prints a table and JSON, with the
machine's load average.
"""

from __future__ import annotations

import argparse
import contextlib
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


@contextlib.contextmanager
def _one_thread():
    """Jitted calls inside run on this thread, synchronously, with one thread for numba's
    parallel loops, the products' bands and the convolutions' batch split."""
    import numba

    import core

    threads, asynchronous = numba.get_num_threads(), core.config.cpu_enable_async_dispatch
    core.config.update("cpu_enable_async_dispatch", False)
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(threads)
        core.config.update("cpu_enable_async_dispatch", asynchronous)


def _timed(run, reps: int) -> tuple[float, float]:
    """Wall and CPU seconds per call of `run()` (which waits for its results), over `reps`."""
    t0, c0 = time.perf_counter(), time.process_time()
    run(reps)
    return (time.perf_counter() - t0) / reps, (time.process_time() - c0) / reps


def _ratios(one: list, many: list) -> tuple[float, list]:
    ratios = sorted(a / b for a, b in zip(one, many))
    return float(np.median(ratios)), [
        float(np.percentile(ratios, 25)),
        float(np.percentile(ratios, 75)),
    ]


def measure(model_name: str, n_devices: int, batch: int, rounds: int) -> dict:
    """Times one train step of `model_name` jitted on one device (default threads, one thread,
    and one thread on one device's share of the batch) against pmapped over `n_devices` (the
    global batch, split), interleaved.

    Args:
      model_name: "cnn", "mlp" or "resnet10".
      n_devices: how many CPU devices the pmapped step runs on (they must divide `batch`).
      batch: the global batch size.
      rounds: how many timed rounds of the three.

    Returns:
      The JSON results: median wall and CPU seconds per step of each, the throughput ratios
      of the pmapped step over each one-device run (median and quartiles; over the
      per-device batch run, `n_devices` times its examples per second), the CPU-bound ratio,
      the first calls' seconds, the load average, the core count and numbax's thread count.
    """
    import core

    core.config.update("num_cpu_devices", max(n_devices, 1))
    from core.jit import threads
    from train import jax_utils

    step, state, images, labels = _case(model_name, batch, None)
    single = core.jit(step)
    devices = core.local_devices()[:n_devices]
    parallel = core.pmap(_case(model_name, batch, "batch")[0], axis_name="batch")
    rep = jax_utils.replicate(state, devices)
    shards = images.reshape(n_devices, batch // n_devices, *images.shape[1:])
    shard_labels = labels.reshape(n_devices, batch // n_devices)
    states = {"one": state, "thread": state, "share": state, "pmap": rep}

    def run_single(key: str, reps: int) -> None:
        for _ in range(reps):
            states[key], _ = single(states[key], images, labels)
        core.block_until_ready(states[key])  # jitted calls return before their kernels finish

    def run_one(reps: int) -> None:
        run_single("one", reps)

    def run_thread(reps: int) -> None:
        with _one_thread():
            run_single("thread", reps)

    def run_share(reps: int) -> None:  # one device's share of the batch, one thread
        with _one_thread():
            for _ in range(reps):
                states["share"], _ = single(states["share"], shards[0], shard_labels[0])
            core.block_until_ready(states["share"])

    def run_pmap(reps: int) -> None:
        for _ in range(reps):
            states["pmap"], _ = parallel(states["pmap"], shards, shard_labels)
        core.block_until_ready(states["pmap"])

    first = {}
    runs = {"one": run_one, "thread": run_thread, "share": run_share, "pmap": run_pmap}
    names = {"one": "jit", "thread": "jit_one_thread", "share": "jit_share", "pmap": "pmap"}
    for key, run in runs.items():
        t0 = time.perf_counter()
        run(1)
        first[names[key]] = time.perf_counter() - t0
    # The steady state: a first call may run quick-tier code while compile workers build its
    # optimized twin (`config.jit_quick_first_call`); timing before it is in use measures the
    # quick code, and only in processes whose compile cache lacked the optimized code.
    from core.jit import program

    program.wait_optimized()

    times: dict[str, list] = {k: [] for k in runs}
    cpus: dict[str, list] = {k: [] for k in times}
    reps = REPS[model_name]
    for _ in range(rounds):
        for key, run in runs.items():
            wall, cpu = _timed(run, reps)
            times[key].append(wall)
            cpus[key].append(cpu)
    med = {k: float(np.median(v)) for k, v in times.items()}
    cpu = {k: float(np.median(v)) for k, v in cpus.items()}
    ratio, quartiles = _ratios(times["one"], times["pmap"])
    ratio_thread, quartiles_thread = _ratios(times["thread"], times["pmap"])
    ratio_share, quartiles_share = _ratios([n_devices * t for t in times["share"]], times["pmap"])
    return {
        "model": model_name,
        "batch": batch,
        "devices": n_devices,
        "one_device_s": med["one"],
        "one_thread_s": med["thread"],
        "pmap_s": med["pmap"],
        "one_device_cpu_s": cpu["one"],
        "one_thread_cpu_s": cpu["thread"],
        "per_device_batch_s": med["share"],
        "per_device_batch_cpu_s": cpu["share"],
        "pmap_cpu_s": cpu["pmap"],
        "throughput_ratio": ratio,
        "ratio_quartiles": quartiles,
        "throughput_ratio_one_thread": ratio_thread,
        "ratio_quartiles_one_thread": quartiles_thread,
        "throughput_ratio_per_device_batch": ratio_share,
        "ratio_quartiles_per_device_batch": quartiles_share,
        # What the ratio over one core would be if each device had a core to itself.
        "cpu_bound_ratio": float(n_devices * cpu["thread"] / cpu["pmap"]),
        "first_call_s": first,
        "load_average": list(os.getloadavg()),
        "cores": len(os.sched_getaffinity(0)),
        "threads": threads.num_threads(),
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
    q, qt = r["ratio_quartiles"], r["ratio_quartiles_one_thread"]
    qs = r["ratio_quartiles_per_device_batch"]
    print_table(
        f"{args.model} train step, global batch {args.batch} (load average "
        f"{r['load_average'][0]:.1f} on {r['cores']} cores, {r['threads']} threads)",
        ["run", "wall per step", "CPU per step", f"{args.devices} devices' throughput over it"],
        [
            [
                "one device (jit, default threads)",
                fmt_time(r["one_device_s"]),
                fmt_time(r["one_device_cpu_s"]),
                f"{r['throughput_ratio']:.2f}x ({q[0]:.2f}-{q[1]:.2f})",
            ],
            [
                "one device, one thread",
                fmt_time(r["one_thread_s"]),
                fmt_time(r["one_thread_cpu_s"]),
                f"{r['throughput_ratio_one_thread']:.2f}x ({qt[0]:.2f}-{qt[1]:.2f})",
            ],
            [
                f"one device, one thread, batch {args.batch // args.devices}",
                fmt_time(r["per_device_batch_s"]),
                fmt_time(r["per_device_batch_cpu_s"]),
                f"{r['throughput_ratio_per_device_batch']:.2f}x ({qs[0]:.2f}-{qs[1]:.2f})",
            ],
            [
                f"{args.devices} devices (pmap)",
                fmt_time(r["pmap_s"]),
                fmt_time(r["pmap_cpu_s"]),
                f"CPU-bound ratio over one thread: {r['cpu_bound_ratio']:.2f}x",
            ],
        ],
    )
    print_json("pmap_step", r)


if __name__ == "__main__":
    main()
