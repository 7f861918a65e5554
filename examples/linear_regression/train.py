"""Linear regression by gradient descent: ``python -m examples.linear_regression.train``.

The first JAX program most people write: fit ``y = w * x + b`` to a million noisy points of
``y = 4x + 1``, with parameters in a dict (a pytree), the loss differentiated by `core.grad`
and the whole update compiled by `core.jit` into one native function that reads the data
once per step.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any

import core
import core.numpy as jnp
from core import random, tree_util


def make_data(key: Any, num_points: int, noise: float = 0.5) -> tuple[Any, Any]:
    """``x ~ N(0, 1)`` and ``y = 4x + 1 + noise * N(0, 1)``, both float32 ``[num_points]``."""
    x_key, noise_key = random.split(key)
    x = random.normal(x_key, (num_points,))
    y = 4.0 * x + 1.0 + noise * random.normal(noise_key, (num_points,))
    return x, y


def model(params: dict[str, Any], x: Any) -> Any:
    """The prediction ``w * x + b``."""
    return params["w"] * x + params["b"]


def loss_fn(params: dict[str, Any], x: Any, y: Any) -> Any:
    """Mean squared error."""
    return jnp.mean((model(params, x) - y) ** 2)


@core.jit
def update(params: dict[str, Any], x: Any, y: Any, lr: float) -> tuple[dict[str, Any], Any]:
    """One gradient descent step; returns the new parameters and the loss before the step."""
    loss, grads = core.value_and_grad(loss_fn)(params, x, y)
    return tree_util.tree_map(lambda p, g: p - lr * g, params, grads), loss


def fit(num_points: int = 1_000_000, steps: int = 1000, lr: float = 0.1, seed: int = 0):
    """Fits the line; returns ``(params, final_loss, seconds)`` (the time excludes data setup).

    Args:
        num_points: number of samples.
        steps: gradient descent steps.
        lr: learning rate.
        seed: seeds the data and the initial parameters.

    Returns:
        The fitted ``{"w", "b"}``, the loss at the end, and the wall time of the loop.
    """
    data_key, init_key = random.split(random.key(seed))
    x, y = make_data(data_key, num_points)
    params = {"w": random.normal(init_key, ()), "b": jnp.zeros(())}
    start = time.perf_counter()
    for _ in range(steps):
        params, _ = update(params, x, y, lr)
    seconds = time.perf_counter() - start
    return params, float(loss_fn(params, x, y)), seconds


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(
        prog="python -m examples.linear_regression.train",
        description="Fit y = w x + b to noisy samples of y = 4x + 1 with jitted gradient descent.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--num-points", type=int, default=1_000_000)
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    params, loss, seconds = fit(args.num_points, args.steps, args.lr, args.seed)
    print(
        f"w = {float(params['w']):.4f}, b = {float(params['b']):.4f} (true: 4, 1); "
        f"mse {loss:.4f}; {args.steps} steps on {args.num_points:,} points in {seconds:.2f}s "
        f"({1000 * seconds / args.steps:.2f} ms/step)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
