"""Epoch time of the default MNIST example: numbax vs JAX+Flax+Optax vs hand-written numpy.

The program is the same everywhere: MLP 784-128-128-10 (ReLU), Adam with the learning rate
decaying from 1e-3 to 0 over the run (cosine, the example's default), batch 32, softmax
cross entropy, one jitted step per batch that also accumulates the running loss and accuracy,
batches gathered from a float32 array in a shuffled order, no progress bar. numbax runs the
example's own ``train_step`` (examples/mnist/train.py). JAX runs under the reference
interpreter ($NUMBAX_REF_PYTHON, default /opt/ref/bin/python) when JAX is not importable here;
numpy is a hand-written forward/backward pass with Adam, float32 throughout.

Each framework trains ``--epochs`` epochs (default 3): the first includes compilation; the
fastest of the later ones is the steady-state epoch time compared in the table (the least
disturbed by other load on the machine). BLAS runs single-threaded unless
OPENBLAS_NUM_THREADS / OMP_NUM_THREADS say otherwise: on these 32-row matrices a multithreaded
OpenBLAS is many times slower (measured 19 ms vs 0.5 ms per numpy step on 2 busy cores).
Usage::

    python bench/mnist_epoch.py                      # all frameworks, table + JSON line
    python bench/mnist_epoch.py --framework numbax   # one framework, JSON line only
"""

from __future__ import annotations

import argparse
import os
import sys
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before numpy loads BLAS; see the module docstring

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench._common import mnist_models, print_json, print_table, run_reference  # noqa: E402

FRAMEWORKS = ("numbax", "jax", "numpy")


def load(limit: int | None) -> tuple[dict, dict]:
    """MNIST as float32 ``[N, 28, 28, 1]`` images and int32 labels (shared by every framework)."""
    from datasets import mnist, to_float

    data = mnist.load()

    def prep(images, labels):
        return {
            "image": to_float(images[:limit])[..., None],
            "label": labels[:limit].astype(np.int32),
        }

    return prep(data.train_images, data.train_labels), prep(data.test_images, data.test_labels)


def orders(n: int, epochs: int, seed: int = 0) -> list[np.ndarray]:
    """One shuffled order per epoch (numpy's generator: cheap and available everywhere)."""
    return [np.random.default_rng([seed, e]).permutation(n) for e in range(epochs)]


def run_numbax(train, test, epochs: int, batch_size: int) -> dict:
    from core import random
    from examples.mnist import train as example

    config = example.Config(epochs=epochs, batch_size=batch_size, progress=False).resolved()
    steps = len(train["label"]) // batch_size
    state = example.create_train_state(config, random.key(0), train["image"].shape[1:], steps)
    times = []
    for order in orders(len(train["label"]), epochs):
        state = state.replace(metrics=example.Metrics.empty())
        start = time.perf_counter()
        for i in range(len(order) // batch_size):
            index = order[i * batch_size : (i + 1) * batch_size]
            state = example.train_step(
                state, {"image": train["image"][index], "label": train["label"][index]}
            )
        float(state.metrics.loss.compute())
        times.append(time.perf_counter() - start)
    accuracy = example.evaluate(state, test, 1000)["accuracy"]
    return {"epoch_times": times, "test_accuracy": accuracy}


def run_jax(train, test, epochs: int, batch_size: int) -> dict:
    import jax
    import jax.numpy as jnp
    import optax
    from flax import linen as nn
    from flax.training import train_state

    class TrainState(train_state.TrainState):
        loss_sum: jax.Array
        correct: jax.Array
        count: jax.Array

    model = mnist_models(nn)["mlp"]()
    params = model.init(jax.random.key(0), jnp.ones((1, 28, 28, 1)))["params"]
    zero = jnp.zeros((), jnp.float32)
    state = TrainState.create(
        apply_fn=model.apply,
        params=params,
        tx=optax.adam(
            optax.cosine_decay_schedule(1e-3, epochs * (len(train["label"]) // batch_size))
        ),
        loss_sum=zero,
        correct=zero,
        count=zero,
    )

    def loss_fn(params, batch):
        logits = model.apply({"params": params}, batch["image"])
        losses = optax.softmax_cross_entropy_with_integer_labels(logits, batch["label"])
        return losses.mean(), (losses, logits)

    @jax.jit
    def train_step(state, batch):
        (_, (losses, logits)), grads = jax.value_and_grad(loss_fn, has_aux=True)(
            state.params, batch
        )
        correct = jnp.sum(jnp.argmax(logits, -1) == batch["label"])
        return state.apply_gradients(
            grads=grads,
            loss_sum=state.loss_sum + losses.sum(),
            correct=state.correct + correct,
            count=state.count + losses.size,
        )

    @jax.jit
    def accuracy(params, images, labels):
        return jnp.mean(jnp.argmax(model.apply({"params": params}, images), -1) == labels)

    times = []
    for order in orders(len(train["label"]), epochs):
        state = state.replace(loss_sum=zero, correct=zero, count=zero)
        start = time.perf_counter()
        for i in range(len(order) // batch_size):
            index = order[i * batch_size : (i + 1) * batch_size]
            state = train_step(
                state, {"image": train["image"][index], "label": train["label"][index]}
            )
        float(state.loss_sum / state.count)
        times.append(time.perf_counter() - start)
    acc = float(accuracy(state.params, test["image"], test["label"]))
    return {"epoch_times": times, "test_accuracy": acc, "version": jax.__version__}


def run_numpy(train, test, epochs: int, batch_size: int) -> dict:
    rng = np.random.default_rng(0)
    sizes = [784, 128, 128, 10]
    params = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        w = (rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in)).astype(np.float32)
        params += [w, np.zeros(fan_out, np.float32)]
    mu = [np.zeros_like(p) for p in params]
    nu = [np.zeros_like(p) for p in params]
    b1, b2, eps = np.float32(0.9), np.float32(0.999), np.float32(1e-8)
    total = epochs * (len(train["label"]) // batch_size)

    def forward(x):
        w1, c1, w2, c2, w3, c3 = params
        h1 = np.maximum(x @ w1 + c1, 0)
        h2 = np.maximum(h1 @ w2 + c2, 0)
        return h1, h2, h2 @ w3 + c3

    times, count = [], 0
    for order in orders(len(train["label"]), epochs):
        start, loss_sum = time.perf_counter(), 0.0
        for i in range(len(order) // batch_size):
            index = order[i * batch_size : (i + 1) * batch_size]
            x = train["image"][index].reshape(batch_size, -1)
            y = train["label"][index]
            h1, h2, logits = forward(x)
            z = logits - logits.max(1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(1, keepdims=True)
            loss_sum += float(-np.log(p[np.arange(batch_size), y]).sum())
            d3 = p
            d3[np.arange(batch_size), y] -= 1
            d3 /= batch_size
            d2 = (d3 @ params[4].T) * (h2 > 0)
            d1 = (d2 @ params[2].T) * (h1 > 0)
            grads = [x.T @ d1, d1.sum(0), h1.T @ d2, d2.sum(0), h2.T @ d3, d3.sum(0)]
            lr = np.float32(1e-3 * 0.5 * (1 + np.cos(np.pi * min(count, total) / total)))
            count += 1
            c1, c2 = 1 - b1**count, 1 - b2**count
            for p_, g, m, v in zip(params, grads, mu, nu):
                m *= b1
                m += (1 - b1) * g
                v *= b2
                v += (1 - b2) * g * g
                p_ -= lr * (m / c1) / (np.sqrt(v / c2) + eps)
        times.append(time.perf_counter() - start)
    _, _, logits = forward(test["image"].reshape(len(test["label"]), -1))
    return {
        "epoch_times": times,
        "test_accuracy": float(np.mean(logits.argmax(1) == test["label"])),
    }


def measure(framework: str, epochs: int, batch_size: int, limit: int | None) -> dict:
    train, test = load(limit)
    runner = {"numbax": run_numbax, "jax": run_jax, "numpy": run_numpy}[framework]
    result = runner(train, test, epochs, batch_size)
    result["steps_per_epoch"] = len(train["label"]) // batch_size
    return result


def steady(epoch_times: list[float]) -> float:
    """The steady-state epoch time: the fastest epoch after the first (which compiles)."""
    return min(epoch_times[1:] or epoch_times)


def _jax_importable() -> bool:
    try:
        import flax  # noqa: F401
        import jax  # noqa: F401
        import optax  # noqa: F401
    except ImportError:
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--framework", choices=FRAMEWORKS, default=None, help="measure only this one"
    )
    parser.add_argument(
        "--epochs", type=int, default=3, help="epochs per framework (first compiles)"
    )
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--limit", type=int, default=None, help="use the first N training examples")
    args = parser.parse_args()
    common = ["--epochs", str(args.epochs), "--batch-size", str(args.batch_size)]
    if args.limit:
        common += ["--limit", str(args.limit)]
    if args.framework:
        print_json("mnist_epoch", measure(args.framework, args.epochs, args.batch_size, args.limit))
        return
    results = {}
    for framework in FRAMEWORKS:
        if framework == "jax" and not _jax_importable():
            results[framework] = run_reference(__file__, ["--framework", "jax", *common])
            continue
        try:
            results[framework] = measure(framework, args.epochs, args.batch_size, args.limit)
        except ImportError as e:  # e.g. numbax under the reference interpreter (no numba)
            print(f"({framework} not available here: {e})", file=sys.stderr)
            results[framework] = None
    jax_epoch = steady(results["jax"]["epoch_times"]) if results["jax"] else None
    rows = []
    for framework, r in results.items():
        if not r:
            rows.append([framework, "-", "-", "-", "-", "not available"])
            continue
        epoch = steady(r["epoch_times"])
        rows.append(
            [
                framework,
                f"{r['epoch_times'][0]:.2f} s",
                f"{epoch:.3f} s",
                f"{r['steps_per_epoch'] / epoch:.0f}",
                f"{epoch / jax_epoch:.2f}x" if jax_epoch else "-",
                f"{100 * r['test_accuracy']:.2f}%",
            ]
        )
    print_table(
        f"MNIST MLP epoch (batch {args.batch_size}, {args.epochs} epochs; fastest after the first)",
        ["framework", "first epoch", "epoch", "steps/s", "vs JAX", "test acc"],
        rows,
    )
    print_json("mnist_epoch", results)


if __name__ == "__main__":
    main()
