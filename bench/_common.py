"""Shared helpers for the benchmark scripts: timing, tables, JSON, the reference interpreter.

Every script prints a table and a JSON line, compares against a hand-written numpy baseline,
and adds JAX/PyTorch columns when they can be imported (in this interpreter, or in the one
named by `$NUMBAX_REF_PYTHON`, default /opt/ref/bin/python, run as a subprocess).
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any


def median_time(
    fn: Callable[[], Any], *, number: int = 0, repeat: int = 7, budget: float = 0.5
) -> float:
    """Median seconds per call of `fn` (calls per sample chosen to fill `budget`/`repeat`)."""
    fn()
    if number <= 0:
        t0 = time.perf_counter()
        fn()
        one = max(time.perf_counter() - t0, 1e-7)
        number = max(1, int(budget / repeat / one))
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - t0) / number)
    return statistics.median(samples)


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def print_table(title: str, columns: list[str], rows: list[list[Any]]) -> None:
    cells = [[str(c) for c in columns]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
    print(f"\n{title}")
    for i, r in enumerate(cells):
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
        if i == 0:
            print("  ".join("-" * w for w in widths))


def print_json(name: str, results: dict) -> None:
    print("JSON " + json.dumps({"benchmark": name, "results": results}, sort_keys=True))


def reference_python() -> str | None:
    """The interpreter that has JAX/PyTorch installed, if any."""
    cand = os.environ.get("NUMBAX_REF_PYTHON", "/opt/ref/bin/python")
    return cand if shutil.which(cand) or os.path.exists(cand) else None


def run_reference(script: str, args: list[str], timeout: float = 900) -> dict | None:
    """Runs `script` (a bench file) under the reference interpreter and parses its JSON line."""
    py = reference_python()
    if py is None:
        return None
    env = dict(os.environ, PYTHONPATH="")
    try:
        out = subprocess.run(
            [py, script, *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            check=True,
        ).stdout
    except (subprocess.SubprocessError, OSError) as e:
        print(f"(reference run failed: {e})", file=sys.stderr)
        return None
    for line in out.splitlines():
        if line.startswith("JSON "):
            return json.loads(line[5:])["results"]
    return None


# Interleaved timing. Timing each framework in its own block of seconds lets the neighbours'
# load on this VM drift between the blocks (1.5x swings); alternating short samples of every
# framework, round after round, exposes them all to the same drift, and the per-round ratios
# pair samples taken seconds apart. The reference frameworks run in timing servers (this same
# script under the reference interpreter with `--serve FRAMEWORK`) answering "case number" lines.


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of a live process (from /proc; 0.0 if it cannot be read).

    Args:
      pid: the process id.

    Returns:
      The seconds.
    """
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def time_calls(fn: Callable[[], Any], number: int) -> float:
    """Seconds per call of `fn` over `number` back-to-back calls, after one untimed call (which
    wakes up thread pools that went to sleep during the pause before the sample)."""
    fn()
    t0 = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - t0) / number


def serve(make_case: Callable[[str], Callable[[], Any]]) -> None:
    """The server side of `ReferenceServer`: answers each "case number" line on stdin with the
    seconds per call of `make_case(case)` (built once per case) on stdout."""
    cases: dict[str, Callable[[], Any]] = {}
    print("ready", flush=True)
    for line in sys.stdin:
        case, number = line.split()
        if case not in cases:
            cases[case] = make_case(case)
        print(time_calls(cases[case], int(number)), flush=True)


class TimingServer:
    """`script --serve framework` in a process of its own, sampled on demand: each request is a
    line on its stdin, each answer a line on its stdout. The reference interpreter runs it unless
    `python` is given; `env` updates the environment (default: no PYTHONPATH, so the reference
    interpreter does not import this checkout)."""

    def __init__(
        self, script: str, framework: str, python: str | None = None, env: dict | None = None
    ):
        py = python or reference_python()
        self.proc = None
        self.label = f"{framework} ({os.path.basename(script)})"
        if py is None:
            return
        # the server's stderr, printed when it fails mid-run (a missing framework before
        # "ready" stays silent: its column shows "-")
        self.errors = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115 (lives with the server)
        self.proc = subprocess.Popen(
            [py, script, "--serve", framework],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errors,
            text=True,
            env=dict(os.environ, **({"PYTHONPATH": ""} if env is None else env)),
        )
        if self.proc.stdout.readline().strip() != "ready":
            self.close()

    def ask(self, request: str, parse: Callable[[str], Any]) -> Any:
        """`parse` of the server's answer to `request`, or None when it is unavailable (a server
        that fails on a request prints its stderr's last lines and is dropped)."""
        if self.proc is None:
            return None
        try:
            self.proc.stdin.write(request + "\n")
            self.proc.stdin.flush()
            return parse(self.proc.stdout.readline())
        except (OSError, ValueError):
            self.close()
            self.errors.seek(0)
            tail = "".join(self.errors.readlines()[-15:])
            print(f"{self.label} failed on {request!r}; dropped:\n{tail}", file=sys.stderr)
            return None

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


class ReferenceServer(TimingServer):
    """A `TimingServer` of `serve_reference`: seconds per call of a case."""

    def sample(self, case: str, number: int) -> float | None:
        """Seconds per call of `case`, or None when the framework is unavailable."""
        return self.ask(f"{case} {number}", float)


def interleaved(
    samplers: dict[str, Callable[[int], float | None]],
    number: int,
    rounds: int = 11,
    pause: float = 0.15,
) -> dict[str, list[float]]:
    """Samples of seconds per call, `rounds` per sampler, taken round-robin (the order rotates
    each round). The pause before each sample outlasts the spin-waits of idle BLAS and XLA
    worker threads (OpenBLAS spins ~0.1 s), so no framework's idle threads take the cores of
    the next one."""
    names = list(samplers)
    out: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            time.sleep(pause)
            t = samplers[name](number)
            if t is not None:
                out[name].append(t)
    return out


def paired_ratios(a: list[float], b: list[float]) -> list[float]:
    """Per-round ratios a/b of two `interleaved` sample lists."""
    return [x / y for x, y in zip(a, b)]


def quartiles(xs: list[float]) -> tuple[float, float, float]:
    """(25th, 50th, 75th) percentiles."""
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return q[0], q[1], q[2]


def mnist_models(nn: Any) -> dict[str, type]:
    """The two MNIST models of the benchmarks, written against a Flax-style layer library.

    Args:
      nn: the layer library: numbax's `nn` or `flax.linen` (the same source serves both).

    Returns:
      ``{"mlp": MLP, "cnn": CNN}``, module classes: the MLP 784-128-128-10 (ReLU) and the Flax
      MNIST example's CNN (Conv 32 3x3, relu, avg_pool 2x2, Conv 64 3x3, relu, avg_pool 2x2,
      Dense 256, relu, Dense 10).
    """

    class MLP(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = x.reshape((x.shape[0], -1))
            x = nn.relu(nn.Dense(128)(x))
            x = nn.relu(nn.Dense(128)(x))
            return nn.Dense(10)(x)

    class CNN(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.avg_pool(nn.relu(nn.Conv(32, (3, 3))(x)), (2, 2), (2, 2))
            x = nn.avg_pool(nn.relu(nn.Conv(64, (3, 3))(x)), (2, 2), (2, 2))
            x = nn.relu(nn.Dense(256)(x.reshape((x.shape[0], -1))))
            return nn.Dense(10)(x)

    return {"mlp": MLP, "cnn": CNN}


def resnet10_model(nn: Any, jnp: Any) -> type:
    """ResNet-10 (Flax's ImageNet ResNet code, stage sizes 1-1-1-1, BatchNorm) for the benchmarks.

    Args:
      nn: the layer library: numbax's `nn` or `flax.linen`.
      jnp: the matching `numpy` module.

    Returns:
      The module class `ResNet(stage_sizes=(1, 1, 1, 1), num_filters=64, num_classes=10,
      axis_name=None)`, called as `model.apply(variables, x, train=True)`; with `axis_name` set,
      BatchNorm averages its batch statistics over that pmap axis (Flax's ImageNet example).
    """

    class ResNetBlock(nn.Module):
        filters: int
        conv: Callable
        norm: Callable
        strides: tuple = (1, 1)

        @nn.compact
        def __call__(self, x):
            residual = x
            y = self.conv(self.filters, (3, 3), self.strides)(x)
            y = nn.relu(self.norm()(y))
            y = self.conv(self.filters, (3, 3))(y)
            y = self.norm(scale_init=nn.initializers.zeros_init())(y)
            if residual.shape != y.shape:
                residual = self.conv(self.filters, (1, 1), self.strides, name="conv_proj")(x)
                residual = self.norm(name="norm_proj")(residual)
            return nn.relu(residual + y)

    class ResNet(nn.Module):
        stage_sizes: tuple = (1, 1, 1, 1)
        num_filters: int = 64
        num_classes: int = 10
        axis_name: Any = None

        @nn.compact
        def __call__(self, x, train: bool = True):
            conv = functools.partial(nn.Conv, use_bias=False)
            norm = functools.partial(
                nn.BatchNorm,
                use_running_average=not train,
                momentum=0.9,
                epsilon=1e-5,
                axis_name=self.axis_name,
            )
            x = conv(self.num_filters, (7, 7), (2, 2), padding=[(3, 3), (3, 3)], name="conv_init")(
                x
            )
            x = nn.relu(norm(name="bn_init")(x))
            x = nn.max_pool(x, (3, 3), strides=(2, 2), padding="SAME")
            for i, size in enumerate(self.stage_sizes):
                for j in range(size):
                    strides = (2, 2) if i > 0 and j == 0 else (1, 1)
                    x = ResNetBlock(self.num_filters * 2**i, conv, norm, strides)(x)
            x = jnp.mean(x, axis=(1, 2))
            return nn.Dense(self.num_classes)(x)

    return ResNet


def thread_schedstat() -> dict[int, tuple[int, int]]:
    """This process's threads' scheduler statistics: thread id -> (nanoseconds run on a CPU,
    nanoseconds waited for one), from `/proc/self/task/*/schedstat` (threads that ended
    meanwhile are left out)."""
    out = {}
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/schedstat") as f:
                run, wait, _ = (int(v) for v in f.read().split())
        except OSError:
            continue
        out[int(task)] = (run, wait)
    return out
