"""Forward+backward timings of the Flax MNIST CNN and an LSTM (scan vs unrolled), vs JAX/PyTorch.

    python bench/cnn_lstm.py [--repeats 10] [--json out.json]

CNN: Conv 32 3x3, relu, avg_pool 2x2, Conv 64 3x3, relu, avg_pool 2x2, Dense 256, relu,
Dense 10, softmax cross-entropy, batch 128 (NHWC, like Flax). LSTM: hidden 128, 64 steps,
batch 32, input 64, loss = sum of squares of the hidden states, written as one `lax.scan`
and as a Python loop (unrolled into the jaxpr). Everything is written with core ops only.
Our numbers use `jit` with the numba back end (conv as im2col + BLAS, `scan` as a native loop),
except the unrolled LSTM (see `bench_numbax`). JAX and PyTorch run in a subprocess of the
reference interpreter (`/opt/ref/bin/python`, or `--ref`) when it exists. Prints a table and
JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

BATCH, H, T, LB, IN = 128, 128, 64, 32, 64


def _params(rng):
    n = lambda *s: (rng.standard_normal(s) * np.sqrt(2.0 / np.prod(s[:-1]))).astype(np.float32)  # noqa
    cnn = dict(
        c1=n(3, 3, 1, 32),
        b1=np.zeros(32, np.float32),
        c2=n(3, 3, 32, 64),
        b2=np.zeros(64, np.float32),
        d1=n(7 * 7 * 64, 256),
        e1=np.zeros(256, np.float32),
        d2=n(256, 10),
        e2=np.zeros(10, np.float32),
    )
    lstm = dict(wi=n(IN, 4 * H), wh=n(H, 4 * H), b=np.zeros(4 * H, np.float32))
    return cnn, lstm


def _data(rng):
    x = rng.standard_normal((BATCH, 28, 28, 1)).astype(np.float32)
    y = rng.randint(0, 10, BATCH)
    seq = rng.standard_normal((T, LB, IN)).astype(np.float32)
    return x, y, seq


def _timeit(fn, repeats):
    fn()  # compile / warm up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e3


def bench_numbax(repeats: int) -> dict:
    import core
    import core.numpy as jnp
    from core import lax

    rng = np.random.RandomState(0)
    cnn, lstm = _params(rng)
    x, y, seq = _data(rng)
    onehot = np.eye(10, dtype=np.float32)[y]
    dn = ("NHWC", "HWIO", "NHWC")

    def avg_pool(h):
        return lax.reduce_window(h, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") * 0.25

    def cnn_loss(p, x, t):
        h = lax.conv_general_dilated(x, p["c1"], (1, 1), "SAME", dimension_numbers=dn)
        h = avg_pool(jnp.maximum(h + p["b1"], 0.0))
        h = lax.conv_general_dilated(h, p["c2"], (1, 1), "SAME", dimension_numbers=dn)
        h = avg_pool(jnp.maximum(h + p["b2"], 0.0))
        h = jnp.maximum(h.reshape(h.shape[0], -1) @ p["d1"] + p["e1"], 0.0)
        logits = h @ p["d2"] + p["e2"]
        logp = (
            logits
            - jnp.log(jnp.sum(jnp.exp(logits - logits.max(-1, keepdims=True)), -1, keepdims=True))
            - logits.max(-1, keepdims=True)
        )
        return -jnp.mean(jnp.sum(logp * t, -1))

    def cell(p, carry, xt):
        h, c = carry
        z = xt @ p["wi"] + h @ p["wh"] + p["b"]
        i, f, g, o = jnp.split(z, 4, axis=-1)
        c = jax_sigmoid(f) * c + jax_sigmoid(i) * jnp.tanh(g)
        h = jax_sigmoid(o) * jnp.tanh(c)
        return (h, c), h

    def jax_sigmoid(v):
        return lax.logistic(v)

    def lstm_scan(p, seq):
        init = (jnp.zeros((LB, H)), jnp.zeros((LB, H)))
        _, hs = lax.scan(lambda c, xt: cell(p, c, xt), init, seq)
        return jnp.sum(hs * hs)

    def lstm_unrolled(p, seq):
        carry = (jnp.zeros((LB, H)), jnp.zeros((LB, H)))
        total = 0.0
        for t in range(T):
            carry, h = cell(p, carry, seq[t])
            total = total + jnp.sum(h * h)
        return total

    # The unrolled LSTM runs on the numpy backend: compiling its 64 unrolled steps (forward and
    # backward) as one straight-line numba function takes over 10 minutes and 5 GB, which is
    # exactly why `scan` exists; its numpy-backend time still shows the cost of unrolling.
    out = {}
    for name, f, args, backend in [
        ("cnn_fwd_bwd", cnn_loss, (cnn, x, onehot), None),
        ("lstm_scan_fwd_bwd", lstm_scan, (lstm, seq), None),
        ("lstm_unrolled_fwd_bwd", lstm_unrolled, (lstm, seq), "python"),
    ]:
        step = core.jit(core.value_and_grad(f), backend=backend)
        t0 = time.perf_counter()
        core.block_until_ready(step(*args))
        out[name + "_first_call_s"] = time.perf_counter() - t0
        out[name + "_backend"] = backend or core.config.jit_backend
        out[name] = _timeit(
            lambda step=step, args=args: core.block_until_ready(step(*args)), repeats
        )
    return out


_REF_SCRIPT = r"""
import json, sys, time
import numpy as np
res = {}
B, H, T, LB, IN = %d, %d, %d, %d, %d
R = %d
rng = np.random.RandomState(0)
x = rng.standard_normal((B, 28, 28, 1)).astype(np.float32)
y = rng.randint(0, 10, B)
seq = rng.standard_normal((T, LB, IN)).astype(np.float32)
def timeit(fn):
    fn(); ts = []
    for _ in range(R):
        t0 = time.perf_counter(); fn(); ts.append(time.perf_counter() - t0)
    return float(np.median(ts)) * 1e3
try:
    import jax, jax.numpy as jnp
    from jax import lax
    import flax.linen as nn
    class CNN(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.avg_pool(nn.relu(nn.Conv(32, (3, 3))(x)), (2, 2), (2, 2))
            x = nn.avg_pool(nn.relu(nn.Conv(64, (3, 3))(x)), (2, 2), (2, 2))
            x = nn.relu(nn.Dense(256)(x.reshape(x.shape[0], -1)))
            return nn.Dense(10)(x)
    m = CNN(); p = m.init(jax.random.PRNGKey(0), x)
    oh = jax.nn.one_hot(y, 10)
    def loss(p, x, t):
        return -jnp.mean(jnp.sum(jax.nn.log_softmax(m.apply(p, x)) * t, -1))
    step = jax.jit(jax.value_and_grad(loss))
    res["jax_cnn_fwd_bwd"] = timeit(lambda: jax.block_until_ready(step(p, x, oh)))
    k = jax.random.split(jax.random.PRNGKey(1), 2)
    lp = dict(wi=jax.random.normal(k[0], (IN, 4 * H)) * 0.1,
              wh=jax.random.normal(k[1], (H, 4 * H)) * 0.1, b=jnp.zeros(4 * H))
    def cell(p, carry, xt):
        h, c = carry
        z = xt @ p["wi"] + h @ p["wh"] + p["b"]
        i, f, g, o = jnp.split(z, 4, axis=-1)
        c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(c)
        return (h, c), h
    def lscan(p, s):
        _, hs = lax.scan(lambda c, xt: cell(p, c, xt), (jnp.zeros((LB, H)),) * 2, s)
        return jnp.sum(hs * hs)
    st = jax.jit(jax.value_and_grad(lscan))
    res["jax_lstm_scan_fwd_bwd"] = timeit(lambda: jax.block_until_ready(st(lp, seq)))
except ImportError:
    pass
try:
    import torch
    sys.path.insert(0, %r)
    from bench._torch_models import cnn, to_torch
    torch.set_num_threads(2)
    net = cnn()
    xt, yt = to_torch(x, y)
    def tstep():
        net.zero_grad(); l = torch.nn.functional.cross_entropy(net(xt), yt); l.backward()
    res["torch_cnn_fwd_bwd"] = timeit(tstep)
    lstm = torch.nn.LSTM(IN, H); st = torch.tensor(seq)
    def lstep():
        lstm.zero_grad(); out, _ = lstm(st); (out * out).sum().backward()
    res["torch_lstm_fwd_bwd"] = timeit(lstep)
except ImportError:
    pass
print(json.dumps(res))
"""


def bench_reference(python: str, repeats: int) -> dict:
    if not os.path.exists(python):
        return {}
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    script = _REF_SCRIPT % (BATCH, H, T, LB, IN, repeats, root)
    proc = subprocess.run(
        [python, "-c", script],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "JAX_PLATFORMS": "cpu"},
    )
    if proc.returncode != 0:
        return {"reference_error": proc.stderr.strip().splitlines()[-1:]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--ref", default="/opt/ref/bin/python")
    ap.add_argument("--json", default=None, help="also write the results to this file")
    args = ap.parse_args()
    res = bench_numbax(args.repeats)
    res.update(bench_reference(args.ref, args.repeats))
    if "jax_cnn_fwd_bwd" in res:
        res["cnn_ratio_vs_jax"] = res["cnn_fwd_bwd"] / res["jax_cnn_fwd_bwd"]
    print(f"{'benchmark (ms, median)':32s} {'numbax':>10s} {'jax':>10s} {'torch':>10s}")
    rows = [
        ("CNN fwd+bwd, batch 128", "cnn_fwd_bwd", "jax_cnn_fwd_bwd", "torch_cnn_fwd_bwd"),
        ("LSTM scan fwd+bwd", "lstm_scan_fwd_bwd", "jax_lstm_scan_fwd_bwd", "torch_lstm_fwd_bwd"),
        ("LSTM unrolled fwd+bwd", "lstm_unrolled_fwd_bwd", None, None),
    ]
    for label, ours, jx, tc in rows:
        cell = lambda k: f"{res[k]:10.2f}" if k and k in res else f"{'-':>10s}"  # noqa: E731
        print(f"{label:32s} {cell(ours)} {cell(jx)} {cell(tc)}")
    print(json.dumps(res, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
